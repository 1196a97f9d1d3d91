"""Whether a page's stated canonical address points to the page kept for it: Ahrefs' "good"
and "bad" duplicates.

Ahrefs' Site Audit splits duplicate pages into those "handled" by a canonical tag pointing to
the page kept (good: search engines already fold them) and those without one, or with one
pointing elsewhere (bad: they compete with the kept page).  The stated address is
:attr:`~dedup_gui.core.model.Page.url` (``rel=canonical``, else ``og:url``, else the browser's
"saved from" comment); one that is not a valid absolute address is ignored with a note, as the
keep rule ignores it (:func:`~dedup_gui.core.pipeline.canonical_urls.canonical_problem`).
"""

from __future__ import annotations

from dataclasses import dataclass

from dedup_gui.core.model import Page, ScanResult
from dedup_gui.core.pipeline.canonical_urls import address_key, canonical_problem, url_matches_path

#: The page's canonical points to the page kept for it (itself, for a kept page).
GOOD = "good"
#: It points to another page.
BAD = "bad"
#: The page states no address.
NONE = "none"
#: It states one that is not a valid absolute address: ignored.
MALFORMED = "malformed"


@dataclass(frozen=True)
class CanonicalStatus:
    """What a page's stated canonical says of the page kept for it.

    Attributes:
        status: :data:`GOOD`, :data:`BAD`, :data:`NONE` or :data:`MALFORMED` (str).
        url: the address the page states, ``""`` for none (str).
        note: the status in words, e.g. ``"points to the kept page"`` (str).
    """

    status: str
    url: str
    note: str


def points_to(url: str, page: Page, also_at: tuple[str, ...] = ()) -> bool:
    """Whether address ``url`` names ``page``: the same host and path as the address ``page``
    states, or a path that ``page``'s file path (or one of its other paths ``also_at``) ends
    with (bool)."""
    key = address_key(url)
    if key is None:
        return False
    if page.url and canonical_problem(page.url) is None and address_key(page.url) == key:
        return True
    return url_matches_path(url, (page.path, *also_at))


def canonical_status(result: ScanResult, page: int, kept: int) -> CanonicalStatus:
    """The canonical status of page ``page`` against page ``kept`` (the page kept in its keep
    cluster; the page itself when it is kept or in no keep cluster).

    Args:
        result: the scan.
        page, kept: indices into ``result.pages``.

    Returns:
        :class:`CanonicalStatus`: :data:`NONE` without a stated address; :data:`MALFORMED` for
        one :func:`~dedup_gui.core.pipeline.canonical_urls.canonical_problem` rejects; else :data:`GOOD`
        when it names the kept page (:func:`points_to`), :data:`BAD` when it names another.
    """
    this, target = result.pages[page], result.pages[kept]
    # a crawl record's URL is where it was crawled (WARC-Target-URI), not an address it states
    url = "" if this.record_offset is not None else this.url or ""
    if not url:
        return CanonicalStatus(NONE, "", "states no canonical address")
    problem = canonical_problem(url)
    if problem is not None:
        return CanonicalStatus(MALFORMED, url, f"malformed canonical, ignored: {problem}")
    if points_to(url, target, result.also_at.get(target.path, ())):
        return CanonicalStatus(GOOD, url, "points to this page" if page == kept else "points to the kept page")
    return CanonicalStatus(BAD, url, "points to another page" + ("" if page == kept else ", not the kept one"))
