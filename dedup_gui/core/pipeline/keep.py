"""Which page to keep: the keep rule, stated once, and the ranking of pages that applies it.

The rule (:data:`KEEP_RULE`) prefers the page that states the canonical address, then the page
in the newest version folder, then the page with the longest main content, then the oldest
file; the first path in alphabetical order breaks remaining ties, so the choice never depends on
the order files were found in.  The keep
clusters it is applied to, pages that are each a full or content duplicate of the page kept,
are built by :mod:`dedup_gui.core.pipeline.keep_clusters`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from dedup_gui.core.model import Cluster, Page, ScanResult

#: The keep rule in words, as reports print it.
KEEP_RULE = (
    "A keep cluster is a page to keep and the pages to drop for it: each page dropped is a full or content "
    "duplicate of the page kept (or has identical bytes or main text), and no two pages of a keep cluster "
    "were measured as less, so pages joined only by layout or partial duplicates, or by a chain of "
    "duplicates, never share one. The page to keep is the one at the canonical URL: a page that states "
    "its own address (rel=canonical, og:url or the browser's 'saved from' comment), preferring one whose "
    "file path (or its path through a symbolic link) ends with that address's path; else the page in "
    "the newest version folder (stable/, current/, latest/, then v1.16.x before v1.9.x; a version "
    "folder before other folders); else the "
    "page with the longest main content; else the "
    "oldest file (modification time); remaining ties go to the first path in alphabetical order. Pages "
    "are taken in this order: each page with duplicates in no keep cluster yet is kept, with them."
)

#: The parts of the rule, in order, with the part of a :func:`rank_key` key each one reads.
_CRITERIA = (("canonical URL", slice(0, 2)), ("newest version folder", slice(2, 3)),
             ("longest main content", slice(3, 4)), ("oldest file", slice(4, 5)))  # fmt: skip
#: Folders that documentation sites name for the version readers are sent to (Read the Docs,
#: mike): the release first, then the others, all before numbered versions.
_NAMED_VERSIONS = {"stable": (0,), "current": (1,), "latest": (2,)}
#: A folder named as a version: ``v1.16.x``, ``2.0``, ``0.50.1``, ``v3``, ``2024``.
_VERSION_FOLDER = re.compile(r"v?(\d+(?:\.\d+)*)(?:\.x)?", re.IGNORECASE)


def version_rank(path: str) -> tuple:
    """How a page's path ranks by its version folder, newest first (a sort key: smaller is newer).

    The first folder of ``path`` named as a version gives its rank: ``stable``, ``current`` and
    ``latest`` first (Read the Docs and mike name them for the version readers are sent to),
    then numbered folders (``v1.16.x``, ``2.0``, ``2024``), newest first; a page in none of
    them ranks last (an ``archive/`` copy is older).  Such a folder that is a link is read at its
    target, so this matters only for real folders of those names.

    Example:
        >>> sorted(["v1.9.x/a.html", "v1.16.x/a.html", "print/a.html", "en/stable/a.html"], key=version_rank)
        ['en/stable/a.html', 'v1.16.x/a.html', 'v1.9.x/a.html', 'print/a.html']
    """
    for folder in path.split("/")[:-1]:
        named = _NAMED_VERSIONS.get(folder.lower())
        if named is not None:
            return (0, named)
        found = _VERSION_FOLDER.fullmatch(folder)
        if found:
            return (1, tuple(-int(n) for n in found.group(1).split(".")))
    return (2,)


@dataclass(frozen=True)
class KeepChoice:
    """The page kept in one group of pages and the criterion that decided it.

    Attributes:
        cluster: the group's id.
        keep: index of the kept page in :attr:`ScanResult.pages`.
        duplicates: indices of the group's other pages, ascending.
        reason: which part of the rule decided: ``"canonical URL"``, ``"longest main content"``,
            ``"newest version folder"``, ``"oldest file"`` or ``"first path"``.
    """

    cluster: int
    keep: int
    duplicates: tuple[int, ...]
    reason: str


def file_mtime(page: Page) -> float:
    """Modification time of a page's file in seconds (``float('inf')`` when it cannot be read,
    so an unreadable file never counts as the oldest)."""
    try:
        return os.stat(page.abspath).st_mtime
    except OSError:
        return float("inf")


def _path_matches_url(page: Page, also_at: tuple[str, ...] = ()) -> bool:
    """True when the page's file path, or one of its other addresses ``also_at`` (through
    symbolic links, :attr:`ScanResult.also_at`), ends with its URL's path (``/a/b.html`` ~
    ``site/a/b.html``; ``/a/`` ~ ``a/index.html``)."""
    if not page.url:
        return False
    try:
        url_path = urlsplit(page.url).path.strip("/")
    except ValueError:  # a malformed address matches no path
        return False
    for path in (page.path, *also_at):
        if not url_path:
            if path.rsplit("/", 1)[-1].startswith("index."):
                return True
        elif path == url_path or path.endswith(("/" + url_path, f"{url_path}/index.html")):
            return True
    return False


def rank_key(
    result: ScanResult, times: dict[int, float] | None = None, mtime: Callable[[Page], float] = file_mtime
) -> Callable[[int], tuple]:
    """The sort key of :data:`KEEP_RULE`: of any pages, the one whose key is smallest is kept.

    Args:
        result: the scan.
        times: a cache of file modification times by page index, filled as pages are ranked
            (so each file is read once); ``None`` for a new one.
        mtime: a page's file modification time in seconds; tests pass a fixed one.

    Returns:
        ``key(page index) -> (no address, path does not match the address, version rank,
        -main text length, mtime, path)`` (a tuple; lexicographic order is the rule's order),
        computed once per page.
    """
    times = {} if times is None else times
    pages = result.pages
    keys: dict[int, tuple] = {}

    def key(i: int) -> tuple:
        found = keys.get(i)
        if found is None:
            page = pages[i]
            if i not in times:
                times[i] = mtime(page)
            matches = _path_matches_url(page, result.also_at.get(page.path, ()))
            found = keys[i] = (page.url is None, not matches, version_rank(page.path), -len(page.main_text), times[i],
                               page.path)  # fmt: skip
        return found

    return key


def keep_reason(keys: Sequence[tuple]) -> str:
    """Which part of the rule sets the best of some pages apart from the rest.

    Args:
        keys: the :func:`rank_key` keys of two or more pages.

    Returns:
        The last criterion that ruled out one of the pages before a single page was left:
        ``"canonical URL"``, ``"newest version folder"``, ``"longest main content"`` or
        ``"oldest file"``; ``"first path"`` when they leave a tie.
    """
    candidates = list(keys)
    reason = "first path"
    for name, part in _CRITERIA:
        best = min(k[part] for k in candidates)
        narrowed = [k for k in candidates if k[part] == best]
        if len(narrowed) < len(candidates):
            reason = name  # this criterion set the kept page apart from at least one other
        candidates = narrowed
        if len(candidates) == 1:
            return reason
    return "first path"  # the rule's criteria left a tie


def choose_keep(result: ScanResult, cluster: Cluster, mtime: Callable[[Page], float] = file_mtime) -> KeepChoice:
    """Apply :data:`KEEP_RULE` to one group of pages.

    Args:
        result: the scan the group belongs to.
        cluster: the group (two or more pages; anything with ``id`` and ``pages``).
        mtime: a page's file modification time in seconds; tests pass a fixed one.

    Returns:
        The :class:`KeepChoice`.
    """
    key = rank_key(result, mtime=mtime)
    pages = list(cluster.pages)
    keep = min(pages, key=key)
    return KeepChoice(cluster.id, keep, tuple(i for i in pages if i != keep), keep_reason([key(i) for i in pages]))
