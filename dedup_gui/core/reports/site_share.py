"""The client summary's figures: how much of a site's content is duplicated (Siteliner's
measure), the share of pages that are duplicates of each type, and the same by site section.

Duplicate content: a page's word shingles (:attr:`Page.shingles`) that also occur on at least
one other page of the scan; a page's duplicate share is the share of its shingles that do, and
the site's is the mean of the pages' shares weighted by their word counts, "X % of this site's
content is duplicated on other pages" (Siteliner, siteliner.com).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from dedup_gui.core.model import TYPE_ORDER, DupType, ScanResult


@dataclass(frozen=True)
class SectionRow:
    """One site section (the first folder of the paths) in the client summary.

    Attributes:
        section: the folder (``"(top)"`` for files at the top of the scanned folder).
        pages: pages with usable text in it.
        duplicate_pages: of those, pages in a duplicate pair of any type.
        duplicate_share: the share of its main-content words duplicated on other pages, [0, 1].
        kept: its pages that a keep cluster keeps (the copy to keep of duplicated content).
        to_drop: its pages that a keep cluster drops in favour of another page.
    """

    section: str
    pages: int
    duplicate_pages: int
    duplicate_share: float
    kept: int = 0
    to_drop: int = 0


def page_duplicate_shares(result: ScanResult) -> np.ndarray:
    """Each page's share of shingles that occur on another page too ([0, 1], ``float64``, shape
    (pages,); 0 for a page without usable text).

    One sort of all the site's shingles (:func:`numpy.unique` with counts and the inverse map),
    then a per-page sum (:func:`numpy.bincount`): O(S log S) for S shingles in all, about a
    second for 100,000 pages of 300 shingles, where one membership test per page would sort the
    shared shingles once per page.
    """
    pages = result.pages
    arrays = [p.shingles if p.has_text else np.zeros(0, np.uint32) for p in pages]
    lengths = np.array([len(a) for a in arrays], dtype=np.int64)
    if not len(pages) or not lengths.sum():
        return np.zeros(len(pages))
    every = np.concatenate(arrays)
    owner = np.repeat(np.arange(len(pages)), lengths)
    # each page's shingles are unique, so a count above one means another page has it too
    _values, inverse, counts = np.unique(every, return_inverse=True, return_counts=True)
    shared = np.bincount(owner, weights=(counts[inverse] > 1), minlength=len(pages))
    return np.divide(shared, lengths, out=np.zeros(len(pages)), where=lengths > 0)


def site_duplicate_share(result: ScanResult, shares: np.ndarray | None = None) -> float:
    """The share of the site's main-content words duplicated on other pages ([0, 1]): the
    pages' :func:`page_duplicate_shares` weighted by their word counts."""
    shares = page_duplicate_shares(result) if shares is None else shares
    words = np.array([p.word_count if p.has_text else 0 for p in result.pages], dtype=np.float64)
    return float((shares * words).sum() / words.sum()) if words.sum() else 0.0


def duplicate_pages_by_type(result: ScanResult) -> dict[DupType, float]:
    """The share of the pages with usable text that are in at least one pair of each duplicate
    type ([0, 1] per type, distinct left out)."""
    with_text = sum(p.has_text for p in result.pages)
    members: dict[DupType, set[int]] = defaultdict(set)
    for pair in result.pairs:
        if pair.type is not DupType.DISTINCT:
            members[pair.type].update((pair.left, pair.right))
    return {t: (len(members[t]) / with_text if with_text else 0.0) for t in TYPE_ORDER if t is not DupType.DISTINCT}


def section_rows(result: ScanResult, shares: np.ndarray | None = None, keep_of: dict | None = None) -> list[SectionRow]:
    """The site sections (first folders), most duplicated content first (list[SectionRow]).

    Args:
        result: the scan.
        shares: :func:`page_duplicate_shares` of ``result`` (computed when ``None``).
        keep_of: page index -> its keep cluster (:attr:`Report.keep_cluster_of`), for the
            pages kept and to drop of each section: a section whose content is all duplicated
            may be the copy that is kept (a site's current version), which the share alone
            does not say.  ``None``: both counts 0.
    """
    keep_of = keep_of or {}
    shares = page_duplicate_shares(result) if shares is None else shares
    duplicate: set[int] = set()
    for pair in result.pairs:
        if pair.type is not DupType.DISTINCT:
            duplicate.update((pair.left, pair.right))
    groups: dict[str, list[int]] = defaultdict(list)
    for i, page in enumerate(result.pages):
        if page.has_text:
            groups[section_of(page.path)].append(i)
    rows = []
    for section, members in groups.items():
        words = np.array([result.pages[i].word_count for i in members], dtype=np.float64)
        share = float((shares[members] * words).sum() / words.sum()) if words.sum() else 0.0
        kept = sum(i in keep_of and keep_of[i].keep == i for i in members)
        to_drop = sum(i in keep_of and keep_of[i].keep != i for i in members)
        rows.append(SectionRow(section, len(members), sum(i in duplicate for i in members), share, kept, to_drop))
    return sorted(rows, key=lambda r: (-r.duplicate_share, r.section))


#: What to do with a page, by its role (:attr:`PageRow.action`).
DROP = "drop"
REVIEW = "review"
KEEP = "keep"


@dataclass(frozen=True)
class PageRow:
    """One page with duplicated content, as the pages table and "pages to act on" list it.

    Attributes:
        index: the page's index in :attr:`ScanResult.pages`.
        path: its path; title: its title (may be empty).
        section: its site section (the first folder, ``"(top)"`` at the top).
        words: its main-content words.
        duplicate_share: the share of its main content also on other pages, [0, 1].
        pairs: the duplicate pairs (any type) it is in.
        action: ``"drop"`` (a full or content duplicate of the page its keep cluster keeps:
            redirect it there or point its canonical link there), ``"keep"`` (the page a keep
            cluster keeps) or ``"review"`` (in no keep cluster as a duplicate, but part of its
            content is elsewhere: make it distinct or merge it).
        keep: for ``"drop"``, the path of the page to keep instead; else ``""``.
    """

    index: int
    path: str
    title: str
    section: str
    words: int
    duplicate_share: float
    pairs: int
    action: str
    keep: str


def section_of(path: str) -> str:
    """A page's site section: the first folder of its path, ``"(top)"`` for a file at the top (str)."""
    return path.split("/", 1)[0] if "/" in path else "(top)"


def page_rows(result: ScanResult, shares: np.ndarray, keep_of: dict) -> list[PageRow]:
    """The pages with duplicated content (a share above 0 or a duplicate pair), most duplicated
    first (ties: more words first, then path), each with what to do about it.

    Args:
        result: the scan.
        shares: :func:`page_duplicate_shares` of ``result``.
        keep_of: page index -> its :class:`~dedup_gui.core.pipeline.keep_clusters.KeepCluster`
            (:attr:`Report.keep_cluster_of`).

    Returns:
        list[PageRow].
    """
    n_pairs = np.zeros(len(result.pages), dtype=np.int64)
    for pair in result.pairs:
        if pair.type is not DupType.DISTINCT:
            n_pairs[pair.left] += 1
            n_pairs[pair.right] += 1
    wanted = np.flatnonzero((shares > 0) | (n_pairs > 0))
    pages = result.pages
    order = sorted(wanted.tolist(), key=lambda i: (-shares[i], -pages[i].word_count, pages[i].path))
    rows = []
    for i in order:
        page, cluster = pages[i], keep_of.get(i)
        if cluster is None:
            action, keep = REVIEW, ""
        elif cluster.keep == i:
            action, keep = KEEP, ""
        else:
            action, keep = DROP, pages[cluster.keep].path
        rows.append(
            PageRow(i, page.path, page.title, section_of(page.path), page.word_count,
                    float(shares[i]), int(n_pairs[i]), action, keep)
        )  # fmt: skip
    return rows
