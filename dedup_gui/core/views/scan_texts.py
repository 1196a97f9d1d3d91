"""What the main window says about a scan and its tables, without Qt: tab titles, the size of a
written file, and the status line's words when a scan starts, ends, is cancelled or fails
(moved out of :mod:`dedup_gui.core.views.session`, which re-exports them)."""

from __future__ import annotations

from pathlib import Path


def tab_title(name: str, shown: int, total: int) -> str:
    """A table's tab title: ``"Pairs (1,234)"``, or ``"Pairs (12 of 1,234)"`` when filtered (str)."""
    count = f"{total:,}" if shown == total else f"{shown:,} of {total:,}"
    return f"{name} ({count})"


def errors_tab_title(errors: tuple[int, int], skipped: tuple[int, int]) -> str:
    """The errors tab's title, its two kinds apart as ``python app.py scan`` counts them:
    ``"Errors (2)"``, ``"Errors (0), skipped (11)"``, ``"Errors (1 of 2), skipped (3 of 11)"``
    when filtered.

    Args:
        errors, skipped: ``(shown, total)`` of the files that could not be read and of those
            skipped (not pages; :meth:`~dedup_gui.core.views.tables.ErrorsTable.kind_counts`).

    Example:
        >>> errors_tab_title((2, 2), (0, 0)), errors_tab_title((0, 0), (11, 11))
        ('Errors (2)', 'Errors (0), skipped (11)')
    """
    title = tab_title("Errors", *errors)
    return f"{title}, {tab_title('skipped', *skipped)}" if skipped[1] else title


def size_text(size: int) -> str:
    """A file size for people: ``"812 bytes"``, ``"14.2 KB"``, ``"1.2 MB"`` (1 KB = 1,000 bytes).

    Example:
        >>> size_text(812), size_text(14_200), size_text(1_234_567)
        ('812 bytes', '14.2 KB', '1.2 MB')
    """
    if size < 1000:
        return f"{size} byte{'s' if size != 1 else ''}"
    for unit, scale in (("KB", 1e3), ("MB", 1e6), ("GB", 1e9)):
        if size < scale * 1000 or unit == "GB":
            return f"{size / scale:.1f} {unit}"
    raise AssertionError("unreachable")


def export_done_text(path: str | Path) -> str:
    """What the window says when an export is written: ``"Wrote report.html, 1.2 MB"`` (str)."""
    p = Path(path)
    try:
        size = f", {size_text(p.stat().st_size)}"
    except OSError:
        size = ""
    return f"Wrote {p.name}{size}"


def folder_names(folder: str, other: str) -> tuple[str, str]:
    """Short names of two folders for a status line: their last parts, or their whole paths
    when those are the same name for two different folders (or empty, as for ``/``)."""
    a, b = Path(folder).name, Path(other).name
    if not a or not b or (a == b and folder != other):
        return folder, other
    return a, b


def scan_end_text(outcome: str, folder: str, shown: str | None = None, message: str = "") -> str:
    """The status line of a scan that did not finish.

    Args:
        outcome: ``"cancelled"`` or ``"failed"``.
        folder: the folder (or WARC file) whose scan ended (str).
        shown: the folder whose last result is shown again (:meth:`Session.take_previous`),
            or ``None`` when there was none.
        message: the failure's message (for ``"failed"``).

    Returns:
        E.g. ``"Scan of b cancelled: showing the last results, of a"``, ``"Rescan of a
        cancelled: showing its last results"`` or ``"Scan of b failed: OSError: gone"`` (str).

    Raises:
        ValueError: another ``outcome``.

    Example:
        >>> scan_end_text("cancelled", "/s/b", "/s/a")
        'Scan of b cancelled: showing the last results, of a'
    """
    name, shown_name = folder_names(folder, shown or folder)
    kind = "Rescan" if shown == folder else "Scan"
    if outcome == "cancelled":
        text, glue = f"{kind} of {name} cancelled", ": "
    elif outcome == "failed":
        text, glue = f"{kind} of {name} failed: {message}", "; "
    else:
        raise ValueError(f"no status line for outcome {outcome!r}")
    if shown is None:
        return text
    tail = "showing its last results" if shown == folder else f"showing the last results, of {shown_name}"
    return text + glue + tail


def scanning_text(folder: str, shown: str) -> str:
    """What the window says of the results it shows while another scan runs.

    Args:
        folder: the folder (or WARC file) being scanned (str).
        shown: the folder whose last results are shown (:attr:`Session.previous`) (str).

    Returns:
        E.g. ``"Last results, of a, shown while b is scanned"`` or ``"Last results of a
        shown while it is rescanned"`` (str).

    Example:
        >>> scanning_text("/s/b", "/s/a"), scanning_text("/s/a", "/s/a")
        ('Last results, of a, shown while b is scanned', 'Last results of a shown while it is rescanned')
    """
    name, shown_name = folder_names(folder, shown)
    if shown == folder:
        return f"Last results of {shown_name} shown while it is rescanned"
    return f"Last results, of {shown_name}, shown while {name} is scanned"
