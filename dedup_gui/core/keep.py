"""Which page of each duplicate cluster to keep: the rule, stated once, and its application.

The rule (:data:`KEEP_RULE`) prefers the page that states the canonical address, then the page
with the longest main content, then the oldest file; the first path in alphabetical order
breaks remaining ties, so the choice never depends on the order files were found in.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from .model import Cluster, Page, ScanResult

#: The keep rule in words, as reports print it.
KEEP_RULE = (
    "In each cluster the page to keep is the one at the canonical URL: a page that states its own "
    "address (rel=canonical, og:url or the browser's 'saved from' comment), preferring one whose file "
    "path (or its path through a symbolic link) ends with that address's path; else the page with the "
    "longest main content; else the oldest file (modification time); remaining ties go to the first "
    "path in alphabetical order."
)


@dataclass(frozen=True)
class KeepChoice:
    """The page kept in one cluster and the criterion that decided it.

    Attributes:
        cluster: the cluster id.
        keep: index of the kept page in :attr:`ScanResult.pages`.
        duplicates: indices of the cluster's other pages, ascending.
        reason: which part of the rule decided: ``"canonical URL"``, ``"longest main content"``,
            ``"oldest file"`` or ``"first path"``.
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
    url_path = urlsplit(page.url).path.strip("/")
    for path in (page.path, *also_at):
        if not url_path:
            if path.rsplit("/", 1)[-1].startswith("index."):
                return True
        elif path == url_path or path.endswith(("/" + url_path, f"{url_path}/index.html")):
            return True
    return False


def choose_keep(result: ScanResult, cluster: Cluster, mtime: Callable[[Page], float] = file_mtime) -> KeepChoice:
    """Apply :data:`KEEP_RULE` to one cluster.

    Args:
        result: the scan the cluster belongs to.
        cluster: the cluster (two or more pages).
        mtime: a page's file modification time in seconds; tests pass a fixed one.

    Returns:
        The :class:`KeepChoice`.
    """
    pages = list(cluster.pages)
    times = {i: mtime(result.pages[i]) for i in pages}
    criteria = [
        (
            "canonical URL",
            lambda i: (
                result.pages[i].url is not None,
                _path_matches_url(result.pages[i], result.also_at.get(result.pages[i].path, ())),
            ),
        ),
        ("longest main content", lambda i: len(result.pages[i].main_text)),
        ("oldest file", lambda i: -times[i]),
    ]
    candidates = pages
    reason = "first path"
    for name, key in criteria:
        best = max(key(i) for i in candidates)
        narrowed = [i for i in candidates if key(i) == best]
        if len(narrowed) < len(candidates):
            reason = name  # this criterion set the kept page apart from at least one other
        candidates = narrowed
        if len(candidates) == 1:
            break
    if len(candidates) > 1:
        reason = "first path"  # the rule's criteria left a tie
    keep = min(candidates, key=lambda i: result.pages[i].path)
    return KeepChoice(cluster.id, keep, tuple(i for i in pages if i != keep), reason)


def keep_choices(
    result: ScanResult,
    clusters: list[Cluster] | None = None,
    mtime: Callable[[Page], float] = file_mtime,
) -> dict[int, KeepChoice]:
    """The keep choice of every cluster.

    Args:
        result: the scan.
        clusters: the clusters to decide (default: all of ``result.clusters``).
        mtime: see :func:`choose_keep`.

    Returns:
        ``{cluster id: KeepChoice}`` in cluster order.
    """
    return {c.id: choose_keep(result, c, mtime) for c in (result.clusters if clusters is None else clusters)}
