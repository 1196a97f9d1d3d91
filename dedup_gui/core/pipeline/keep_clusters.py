"""Keep clusters: which pages to keep and which to drop, built from strong links only.

The near-duplicate groups of :mod:`dedup_gui.core.pipeline.cluster` join pages by any chain of duplicate
pairs of any type: good for browsing, wrong for advice.  On a documentation site of eight versions
one group held 58 pages of 8 different documents, joined by shared commands and YAML; keeping
one of them and dropping the rest would lose seven documents.

A keep cluster is a kept page and the pages the advice drops for it, each of which is itself a
full or content duplicate of the kept page: a direct pair of one of these types, or identical
bytes (SHA-1) or identical normalized main text (``Page.text_hash``), which the scan pairs only
as a star in groups of more than 30 copies.  No two pages of a keep cluster were measured as
anything less (a layout, partial or distinct pair), so a chain A~B~C whose ends A and C are not
duplicates never puts A and C in one keep cluster.

Method: a greedy star partition of the graph of strong links, as in the star clustering of
Aslam, Pelekhov and Rus ("The star clustering algorithm for static and dynamic information
organization", J. Graph Algorithms Appl. 8(1), 2004), with two changes: star centres are taken
in the keep rule's order (:data:`dedup_gui.core.pipeline.keep.KEEP_RULE`) rather than by degree, so the
centre is the page the rule keeps; and a satellite joins only if it was not measured as a weaker
duplicate of a satellite already in the star.

1. Pages with identical bytes or identical main text form one *unit*; so do the members of a
   group of near-copies that the candidate stage paired only as a star around its first page
   (``ScanResult.star_groups``), each with a full or content pair to that first page: their
   copies were never compared with each other, and they end in one keep cluster.
2. Units are ranked by their best page under the keep rule.  Going down the ranking, each unit
   not yet placed that has a strong link to another unit not yet placed, or that holds two or
   more pages, becomes a keep cluster: its best page is kept; its strong neighbours not yet
   placed join, most similar first, unless a pair measured between the newcomer and a unit
   already in the cluster is weaker than a content duplicate.

Pairs the user marked "not a duplicate" (:attr:`ScanResult.not_duplicates`) are never strong
links, whatever their type says; their two pages never share a unit (a third identical copy
joins one of them, the other stays a unit of its own), and they count as a weak pair between
their units, so no star holds both.  Other pages may still be dropped for either of them: the
mark is about that pair only.

Every page of a keep cluster then ranks below its kept page (a better page with a free strong
neighbour would have been taken first), so the kept page is the one the rule picks among the
cluster's pages, and the advice never depends on the order files were found in.
"""

from __future__ import annotations

import threading
import weakref
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from dedup_gui.core.columns import DISTINCT_CODE, TYPE_CODE, pair_columns
from dedup_gui.core.model import TYPE_ORDER, DupType, Page, ScanResult
from dedup_gui.core.pipeline.cluster import UnionFind
from dedup_gui.core.pipeline.keep import KeepPolicy, default_script, documents_differ, file_mtime, keep_reason, rank_key
from dedup_gui.core.pipeline.keep_reasons import drop_reason
from dedup_gui.core.pipeline.not_duplicates import marked_page_pairs, marked_rows

#: The pair types that make a strong link: the same content (full or content duplicates).
STRONG_TYPES = (DupType.FULL, DupType.CONTENT)
_STRONG_MAX = max(TYPE_CODE[t] for t in STRONG_TYPES)  # codes 0 and 1 in TYPE_ORDER

#: How a dropped page relates to its kept page (:attr:`KeepCluster.links`), besides the pair
#: types ``"full"`` and ``"content"``.
IDENTICAL_BYTES = "identical bytes"
IDENTICAL_TEXT = "identical main text"
NEAR_COPY = "near-copy"


_LINK_LABELS = {"full": "full duplicate", "content": "content duplicate", NEAR_COPY: "near-copy in a star group"}
#: Plurals of the link words that are nouns; the identical ones are counted "with ...".
_LINK_PLURALS = {"full": "full duplicates", "content": "content duplicates", NEAR_COPY: "near-copies in a star group"}
#: What the keep plan's link words mean, for the reports' and the window's column descriptions:
#: the two identical relations are closer than the pair type and shown instead of it.
LINK_NOTE = (
    "How a dropped page duplicates the kept one: full duplicate or content duplicate (the type of their "
    "pair); identical main text or identical bytes when its main text, or its whole file, is exactly the "
    "kept page's (such a page is also a full or content duplicate of it; the closer relation is shown); "
    "near-copy in a star group when the two were never compared directly but share a group of near-copies."
)


def link_label(link: str) -> str:
    """A :attr:`KeepCluster.links` value in words, the same in every report, export and the
    window: ``"full duplicate"``, ``"content duplicate"``, ``"identical main text"``,
    ``"identical bytes"`` or ``"near-copy in a star group"`` (str)."""
    return _LINK_LABELS.get(link, link)


#: The link words in the window's narrow keep tree, under its "Duplicate" header: the first
#: word of :func:`link_label` (the cell's tooltip and the line under the tree say it whole).
_LINK_SHORT = {IDENTICAL_TEXT: "identical", IDENTICAL_BYTES: "identical", NEAR_COPY: "near-copy"}


def link_short(link: str) -> str:
    """A link in the keep tree's "Duplicate" column: ``"full"``, ``"content"``, ``"identical"``
    (main text or bytes) or ``"near-copy"`` (str): :func:`link_label`'s first word, never other
    words ("same text" before), short enough for a panel some 380 px wide."""
    return _LINK_SHORT.get(link, link)


def link_count(link: str, n: int) -> str:
    """``n`` pages of one link to the kept page, plural right, e.g. ``"2 full duplicates"``,
    ``"1 content duplicate"``, ``"3 with identical main text"`` (str)."""
    if link in (IDENTICAL_BYTES, IDENTICAL_TEXT):
        return f"{n:,} with {link}"
    return f"{n:,} {_LINK_PLURALS.get(link, link) if n != 1 else link_label(link)}"


def link_relation(link: str) -> str:
    """The link as words before the kept page's path, e.g. ``"full duplicate of"``,
    ``"identical main text to"`` (str)."""
    return f"{link_label(link)} {'to' if link in (IDENTICAL_BYTES, IDENTICAL_TEXT) else 'of'}"


@dataclass(frozen=True)
class KeepCluster:
    """A page to keep and the pages to drop for it.

    Attributes:
        id: 1-based number; keep clusters are numbered largest first (ties: the one with the
            smallest page index first).
        keep: index of the kept page in :attr:`ScanResult.pages`.
        duplicates: indices of the pages to drop, ascending.
        links: for each of ``duplicates`` (same order), how it is a duplicate of the kept page:
            ``"identical bytes"``, ``"identical main text"``, ``"full"`` or ``"content"`` (the
            type of their pair, or of the pair between identical copies of them), or
            ``"near-copy"`` (both in one group of near-copies that the scan paired as a star).
        reason: which parts of the keep rule set the kept page apart from the others, in
            the rule's order (:func:`~dedup_gui.core.pipeline.keep.keep_reason`): e.g.
            ``"canonical URL"``, ``"newest version folder"`` or ``"newest version folder, then
            first path"`` (the version ruled out some pages, the path the rest).
        group: id of the near-duplicate group (:attr:`ScanResult.clusters`) that holds the
            keep cluster's pages, or ``None``.
        drop_reasons: for each of ``duplicates`` (same order), the criterion of the keep rule
            that ruled that page out, said of it
            (:func:`~dedup_gui.core.pipeline.keep_reasons.drop_reason`), e.g. ``"older version
            folder than the kept page (in v1.16.x/)"``.
    """

    id: int
    keep: int
    duplicates: tuple[int, ...]
    links: tuple[str, ...]
    reason: str
    group: int | None
    drop_reasons: tuple[str, ...] = ()

    def row_reason(self, page: int) -> str:
        """Why ``page`` (an index into ``ScanResult.pages``) is kept or not, said of that page:
        for the kept page ``"kept: "`` and what set it apart (:attr:`reason`), for a dropped
        one ``"not kept: "`` and its :attr:`drop_reasons` entry (str); the window's clusters
        tree and the ``--keep-csv`` file's reason column both say this.

        Raises:
            ValueError: ``page`` is not in the keep cluster.
        """
        if page == self.keep:
            return f"kept: {self.reason}"
        index = self.duplicates.index(page)
        return (
            f"not kept: {self.drop_reasons[index]}" if index < len(self.drop_reasons) else f"not kept ({self.reason})"
        )

    @property
    def pages(self) -> tuple[int, ...]:
        """The kept page and the duplicates, ascending (tuple[int, ...])."""
        return tuple(sorted((self.keep, *self.duplicates)))


def _units(
    result: ScanResult,
    left: np.ndarray,
    right: np.ndarray,
    strong: np.ndarray,
    policy: KeepPolicy,
    marked: Sequence[tuple[int, int]] = (),
) -> np.ndarray:
    """Unit id of every page (``np.int64``, shape (pages,)): pages with identical bytes, with
    identical main text, or in one star group of near-copies with a strong pair to its first
    page share a unit; but never two pages of different documents by their paths
    (:func:`~dedup_gui.core.pipeline.keep.documents_differ`), nor two pages of reference folders
    (each is kept), nor the two pages of a pair in ``marked`` (page index pairs the user
    marked "not a duplicate")."""
    n = len(result.pages)
    uf = UnionFind(n)
    paths = [p.path for p in result.pages]
    site_script = default_script(result.pages)
    reference = [policy.is_reference(p) for p in paths]
    firsts: dict[tuple[str, str], list[int]] = defaultdict(list)  # key -> first page of each unit so far
    apart: dict[int, set[int]] = defaultdict(set)  # marked page -> the pages marked against it
    for a, b in marked:
        apart[a].add(b)
        apart[b].add(a)
    holds: dict[int, set[int]] = {p: {p} for p in apart}  # unit root -> its marked pages

    def joinable(i: int, j: int) -> bool:
        if documents_differ(paths[i], paths[j], site_script) is not None or (reference[i] and reference[j]):
            return False
        mine, theirs = holds.get(uf.find(i), ()), holds.get(uf.find(j), set())
        return not any(apart[p] & theirs for p in mine)

    def union(i: int, j: int) -> None:
        roots = uf.find(i), uf.find(j)
        uf.union(i, j)
        merged = set().union(*(holds.pop(r, set()) for r in roots))
        if merged:
            holds[uf.find(i)] = merged

    for i, page in enumerate(result.pages):
        for key in (("sha1", page.sha1), ("text", page.text_hash) if page.has_text else None):
            if key is None:
                continue
            heads = firsts[key]
            j = next((h for h in heads if joinable(i, h) and uf.find(h) != uf.find(i)), None)
            if j is not None:
                union(i, j)
            elif not any(uf.find(h) == uf.find(i) for h in heads):
                heads.append(i)
    if result.star_groups:
        leader = np.full(n, -1, dtype=np.int64)
        for group in result.star_groups:
            leader[list(group[1:])] = group[0]
        to_leader = strong & ((leader[left] == right) | (leader[right] == left))
        for a, b in zip(left[to_leader].tolist(), right[to_leader].tolist()):
            if joinable(a, b):
                union(a, b)
    return np.fromiter(map(uf.find, range(n)), np.int64, n)


def _unit_links(
    unit: np.ndarray, left: np.ndarray, right: np.ndarray, code: np.ndarray, similarity: np.ndarray
) -> tuple[dict[int, dict[int, tuple[float, int]]], set[int]]:
    """Links between units from the measured pairs: the strongest type of the pairs between two
    units decides (copies of one text measure alike).

    Returns:
        ``(strong, weak)``: ``strong[u][v] = (content similarity, type code)`` of the best
        strong pair between units ``u`` and ``v``; ``weak`` the unit pairs measured as less
        than content duplicates (layout, partial or distinct), as ``lo * units + hi`` for units
        ``lo < hi``, only between units that have a strong link.
    """
    a, b = unit[left], unit[right]
    cross = a != b
    a, b, code, similarity = a[cross], b[cross], code[cross], similarity[cross]
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    if not len(lo):
        return {}, set()
    # Best type (lowest code), and the highest similarity among pairs of that type, per unit pair.
    order = np.lexsort((-similarity, code, hi, lo))
    lo, hi, code, similarity = lo[order], hi[order], code[order], similarity[order]
    head = np.r_[True, (lo[1:] != lo[:-1]) | (hi[1:] != hi[:-1])]
    lo, hi, code, similarity = lo[head], hi[head], code[head], similarity[head]
    is_strong = code <= _STRONG_MAX
    strong: dict[int, dict[int, tuple[float, int]]] = defaultdict(dict)
    for u, v, s, c in zip(lo[is_strong].tolist(), hi[is_strong].tolist(), similarity[is_strong].tolist(),
                          code[is_strong].tolist()):  # fmt: skip
        strong[u][v] = strong[v][u] = (s, c)
    linked = np.zeros(int(unit.max()) + 1, dtype=np.bool_)
    linked[lo[is_strong]] = linked[hi[is_strong]] = True
    weak_pairs = ~is_strong & linked[lo] & linked[hi]
    weak = set((lo[weak_pairs] * len(linked) + hi[weak_pairs]).tolist())
    return strong, weak


def build_keep_clusters(
    result: ScanResult, mtime: Callable[[Page], float] = file_mtime, policy: KeepPolicy | None = None
) -> list[KeepCluster]:
    """The keep clusters of a scan: what to keep and what to drop (see the module's notes).

    Args:
        result: the scan.
        mtime: a page's file modification time in seconds (the keep rule's "oldest file");
            tests pass a fixed one.  Read only for pages that have a duplicate.
        policy: the keep rule and the user's decisions (default :class:`KeepPolicy`).

    Returns:
        Keep clusters of two or more pages, largest first; every page is in one at most.
    """
    n = len(result.pages)
    if not n:
        return []
    columns = pair_columns(result)
    left, right = columns.left.astype(np.int64), columns.right.astype(np.int64)
    code = columns.type_code if result.pairs else np.zeros(0, np.int8)
    marked = marked_page_pairs(result)
    if marked and result.pairs:  # never a strong link, even in a result whose types predate the mark
        code = np.where(marked_rows(result, columns), np.int8(DISTINCT_CODE), code)
    policy = policy or KeepPolicy()
    strong_pair = code <= _STRONG_MAX
    unit = _units(result, left, right, strong_pair, policy, marked)
    strong, weak = _unit_links(unit, left, right, code, columns.content_similarity if result.pairs else np.zeros(0))
    ends = [(int(unit[a]), int(unit[b])) for a, b in marked]
    weak |= {min(u, v) * (int(unit.max()) + 1) + max(u, v) for u, v in ends if u != v}
    members: dict[int, list[int]] = defaultdict(list)
    for page, u in enumerate(unit.tolist()):
        members[u].append(page)
    candidates = [u for u, pages in members.items() if len(pages) > 1 or u in strong]
    key = rank_key(result, mtime=mtime, policy=policy)
    for u in candidates:
        members[u].sort(key=key)  # best page first
    best = {u: key(members[u][0]) for u in candidates}
    candidates.sort(key=best.__getitem__)
    units = int(unit.max()) + 1

    def measured_weak(v: int, taken: list[int]) -> bool:
        """Whether unit ``v`` was measured as less than a content duplicate of one of ``taken``."""
        return bool(weak) and any((min(v, t) * units + max(v, t)) in weak for t in taken)

    paths = [p.path for p in result.pages]
    site_script = default_script(result.pages)
    has_reference = {u for u in candidates if any(policy.is_reference(paths[p]) for p in members[u])}

    def may_join(v: int, taken: list[int]) -> bool:
        """Whether unit ``v`` may be dropped for the star ``taken``: not a reference page, and
        the same document as each unit already in it (by their best pages' paths)."""
        head = members[v][0]
        return v not in has_reference and all(
            documents_differ(paths[head], paths[members[t][0]], site_script) is None for t in taken
        )

    placed: set[int] = set()
    stars: list[list[int]] = []
    for u in candidates:
        if u in placed:
            continue
        free = [v for v in strong.get(u, ()) if v not in placed]
        if not free and len(members[u]) < 2:
            continue
        star = [u]
        # most similar first; ties (and the order of equal pairs) by the rule's ranking
        for v in sorted(free, key=lambda v: (-strong[u][v][0], best[v])):
            if not measured_weak(v, star) and may_join(v, star):
                star.append(v)
        if len(star) == 1 and len(members[u]) < 2:
            continue  # every strong neighbour is another document or a reference page: nothing to drop
        placed.update(star)
        stars.append(star)
    return _records(result, stars, members, strong, key, left, right, code, policy)


def _records(result, stars, members, strong, key, left, right, code, policy) -> list[KeepCluster]:
    """:class:`KeepCluster` records of the stars (lists of units, centre first), numbered
    largest first, each dropped page with its link to the kept page."""
    kept = {members[star[0]][0] for star in stars}
    direct: dict[tuple[int, int], int] = {}  # (kept page, other page) -> type code of their strong pair
    hits = np.flatnonzero((code <= _STRONG_MAX) & (np.isin(left, list(kept)) | np.isin(right, list(kept))))
    for a, b, c in zip(left[hits].tolist(), right[hits].tolist(), code[hits].tolist()):
        direct[(a, b)] = direct[(b, a)] = c
    group_of = result.cluster_of()
    made = []
    for star in stars:
        centre = star[0]
        keep = members[centre][0]
        rows = []
        for u in star:
            for page in members[u]:
                if page != keep:
                    rows.append((page, _link(result.pages[keep], result.pages[page], direct.get((keep, page)),
                                             None if u == centre else strong[centre][u][1])))  # fmt: skip
        rows.sort()
        pages = [keep, *(p for p, _ in rows)]
        made.append((keep, rows, keep_reason([key(i) for i in pages], policy)))
    made.sort(key=lambda m: (-len(m[1]), min(m[0], m[1][0][0])))
    return [
        KeepCluster(
            n,
            keep,
            tuple(p for p, _ in rows),
            tuple(link for _, link in rows),
            reason,
            group_of.get(keep),
            tuple(drop_reason(result, keep, p, key, policy) for p, _ in rows),
        )  # fmt: skip
        for n, (keep, rows, reason) in enumerate(made, start=1)
    ]


def _link(kept: Page, page: Page, pair_code: int | None, unit_code: int | None) -> str:
    """How ``page`` is a duplicate of ``kept`` (a :attr:`KeepCluster.links` value)."""
    if page.sha1 == kept.sha1:
        return IDENTICAL_BYTES
    if kept.has_text and page.has_text and page.text_hash == kept.text_hash:
        return IDENTICAL_TEXT
    code = pair_code if pair_code is not None else unit_code
    return NEAR_COPY if code is None else TYPE_ORDER[code].value


# The keep clusters of each live ScanResult, found by id and checked by a weak reference (as
# :func:`dedup_gui.core.columns.pair_columns`), so the window computes them once, off its thread.
_CACHE: dict[int, tuple[weakref.ref, list[KeepCluster]]] = {}
_CACHE_LOCK = threading.RLock()  # re-entrant: a weakref callback may run while it is held


def keep_clusters_of(result: ScanResult) -> list[KeepCluster]:
    """:func:`build_keep_clusters` of ``result`` with the files' times read now, computed once
    while ``result`` lives and shared by every caller (the window builds them in the scan's
    thread; its views then only look them up).

    Args:
        result: a scan.

    Returns:
        The keep clusters (the same list object on every call for one result).
    """
    key = id(result)
    with _CACHE_LOCK:
        entry = _CACHE.get(key)
        if entry is not None and entry[0]() is result:
            return entry[1]
    clusters = build_keep_clusters(result, policy=result.keep_policy)

    def forget(ref: weakref.ref, key: int = key) -> None:
        """Drop the entry when ``result`` dies (unless the id was reused meanwhile)."""
        with _CACHE_LOCK:
            if _CACHE.get(key, (None,))[0] is ref:
                del _CACHE[key]

    with _CACHE_LOCK:
        entry = _CACHE.get(key)
        if entry is not None and entry[0]() is result:
            return entry[1]  # another thread was first
        _CACHE[key] = (weakref.ref(result, forget), clusters)
    return clusters
