"""What a view says when there is nothing to draw, instead of empty axes (an empty folder's
histogram once read "-40 m ... 40 m" on its y axis)."""

from __future__ import annotations

from dedup_gui.core.model import ScanResult

#: The views :func:`empty_message` knows: ``"histogram"`` (every pair of pages), ``"map"`` and
#: ``"pairs"`` (the compared pairs: the map and the pairs table), ``"pages"`` (the pages table:
#: pages and unreadable files), ``"errors"`` (the errors table: unreadable and skipped files).
VIEWS = ("histogram", "map", "pairs", "pages", "errors")


def empty_message(result: ScanResult | None, view: str) -> str | None:
    """The sentence a view shows instead of a chart, or ``None`` when it has something to draw.

    Args:
        result: the scan shown (``None``: none yet).
        view: one of :data:`VIEWS`.

    Returns:
        str | None.

    Raises:
        ValueError: an unknown view.

    Example:
        >>> empty_message(None, "map")
        'No scan result yet'
        >>> from dedup_gui.core.model import ScanSettings, Thresholds
        >>> empty_message(ScanResult("/empty", [], [], [], [], Thresholds(), ScanSettings()), "pairs")
        'No pairs: the folder holds no page that could be read'
    """
    if view not in VIEWS:
        raise ValueError(f"unknown view {view!r}; one of {', '.join(VIEWS)}")
    if result is None:
        return "No scan result yet"
    if view == "errors":
        return None if result.errors or result.skipped else "No errors: every file found was read"
    if view == "pages":
        return None if result.pages or result.errors else "No pages: the folder holds no page that could be read"
    if view == "pairs" and len(result.pages) < 2:
        return "No pairs: the folder holds " + ("one page" if result.pages else "no page that could be read")
    if not result.pages:
        return "No pages: the folder holds no page that could be read"
    if view == "histogram" and len(result.pages) < 2:
        return "No pairs: the folder holds one page"
    if view in ("map", "pairs") and not result.pairs:
        return "No pairs: no two pages share enough text to be compared"
    return None
