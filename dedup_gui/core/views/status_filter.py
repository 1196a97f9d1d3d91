"""The pages table's status filter, without Qt: which kinds of page status a scan has (ok, no
usable text, redirects, redirects that reach no page) and which pages each choice keeps.

An analyst looks for the redirect pages, the pages without usable text or the redirects that
lead nowhere; sorting the Status column put them together but among the others.  The choices
are built from the statuses present (a scan without redirects offers no "Redirects"), each with
its number of pages, as "Redirects (213)".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from dedup_gui.core.model import Page
from dedup_gui.core.pipeline.redirects import MISSING_LABEL, Redirect

#: A page's status kind (:func:`status_kinds`): a page with usable text, one without, a
#: redirect page whose target is a page of the scan (or outside the folder, not read), and a
#: redirect whose target is in the folder but no page there.
OK, NO_TEXT, REDIRECT, BROKEN_REDIRECT = 0, 1, 2, 3

#: The status filters: key -> (label, the kinds it keeps), in the combo's order.
STATUS_FILTERS: dict[str, tuple[str, frozenset[int]]] = {
    "ok": ("OK", frozenset({OK})),
    "no text": ("No usable text", frozenset({NO_TEXT})),
    "redirects": ("Redirects", frozenset({REDIRECT, BROKEN_REDIRECT})),
    "broken redirects": (MISSING_LABEL, frozenset({BROKEN_REDIRECT})),
}
#: The label of the choice that keeps every page.
ALL_STATUSES = "All statuses"


def status_kinds(pages: Sequence[Page], redirects: Mapping[int, Redirect]) -> np.ndarray:
    """Each page's status kind (:data:`OK`, :data:`NO_TEXT`, :data:`REDIRECT` or
    :data:`BROKEN_REDIRECT`), as the Status column says it
    (:func:`~dedup_gui.core.pipeline.redirects.page_status`; a redirect page is a redirect
    whatever its text).

    Args:
        pages: the scan's pages.
        redirects: where each redirect page leads
            (:func:`~dedup_gui.core.pipeline.redirects.page_redirects`, by page index).

    Returns:
        ``np.int8`` array of shape (pages,).
    """
    kinds = np.fromiter((OK if p.has_text else NO_TEXT for p in pages), np.int8, len(pages))
    for i, page in enumerate(pages):
        if page.redirect:
            found = redirects.get(i)
            kinds[i] = BROKEN_REDIRECT if found is not None and found.missing else REDIRECT
    return kinds


def status_choices(kinds: np.ndarray) -> list[tuple[str, str | None]]:
    """The status filter's choices for pages of these kinds: ``(label, key)`` pairs, first
    ``("All statuses", None)``, then each :data:`STATUS_FILTERS` entry that keeps some page,
    its label followed by that number of pages (``"Redirects (213)"``) (list).

    Args:
        kinds: :func:`status_kinds` of the pages.
    """
    counts = np.bincount(kinds.astype(np.int64), minlength=4) if len(kinds) else np.zeros(4, np.int64)
    choices: list[tuple[str, str | None]] = [(ALL_STATUSES, None)]
    for key, (label, wanted) in STATUS_FILTERS.items():
        n = int(sum(counts[k] for k in wanted))
        if n:
            choices.append((f"{label} ({n:,})", key))
    return choices


def status_mask(kinds: np.ndarray, key: str) -> np.ndarray:
    """Which pages the status filter ``key`` keeps (``np.bool_`` array of shape (pages,)).

    Raises:
        KeyError: ``key`` is not one of :data:`STATUS_FILTERS`.
    """
    wanted = STATUS_FILTERS[key][1]
    return np.isin(kinds, list(wanted))
