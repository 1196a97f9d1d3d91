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
    """

    section: str
    pages: int
    duplicate_pages: int
    duplicate_share: float


def page_duplicate_shares(result: ScanResult) -> np.ndarray:
    """Each page's share of shingles that occur on another page too ([0, 1], ``float64``, shape
    (pages,); 0 for a page without usable text)."""
    pages = result.pages
    arrays = [p.shingles if p.has_text else np.zeros(0, np.uint32) for p in pages]
    if not arrays or not sum(len(a) for a in arrays):
        return np.zeros(len(pages))
    every = np.concatenate(arrays)
    values, counts = np.unique(every, return_counts=True)  # each page's shingles are unique
    shared = values[counts > 1]
    return np.array([float(np.isin(a, shared).mean()) if len(a) else 0.0 for a in arrays])


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


def section_rows(result: ScanResult, shares: np.ndarray | None = None) -> list[SectionRow]:
    """The site sections (first folders), most duplicated content first (list[SectionRow])."""
    shares = page_duplicate_shares(result) if shares is None else shares
    duplicate: set[int] = set()
    for pair in result.pairs:
        if pair.type is not DupType.DISTINCT:
            duplicate.update((pair.left, pair.right))
    groups: dict[str, list[int]] = defaultdict(list)
    for i, page in enumerate(result.pages):
        if page.has_text:
            groups[page.path.split("/", 1)[0] if "/" in page.path else "(top)"].append(i)
    rows = []
    for section, members in groups.items():
        words = np.array([result.pages[i].word_count for i in members], dtype=np.float64)
        share = float((shares[members] * words).sum() / words.sum()) if words.sum() else 0.0
        rows.append(SectionRow(section, len(members), sum(i in duplicate for i in members), share))
    return sorted(rows, key=lambda r: (-r.duplicate_share, r.section))
