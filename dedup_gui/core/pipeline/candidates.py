"""Candidate pairs: which pages to compare, without all n*(n-1)/2 comparisons.

Three sources, each cheap:

* exact buckets: the same bytes (SHA-1), or the same normalized main text;
* SimHash blocks: fingerprints split into k + 1 blocks; pages within Hamming distance k share a
  block (Manku, Jain and Das Sarma, WWW 2007), and are checked against k before they count;
* an inverted index from shingle to pages that finds every pair whose shared (non-boilerplate)
  shingles reach a containment threshold, exactly, so partial duplicates (a short page quoted
  inside a long one, with a tiny Jaccard similarity) become candidates too.

Boilerplate is decided per collection: a shingle in more than ``ScanSettings.boilerplate_pages``
distinct main texts is template text, not content, so the pages of one template do not all
become candidates of each other (n**2 / 2 pairs for a template of n pages).

MinHash LSH (:func:`lsh_pairs`, datasketch) is not a source of the scan: it estimates Jaccard
similarity over all shingles, boilerplate included.  On a 10,000-page benchmark corpus every
duplicate it found was also found by the inverted index, and the rest of its pairs were pages of
one template (356 of them then classified layout duplicates for their shared template text); it
also took most of the candidate time.  It stays for the methods comparison and teaching.

A bucket of identical pages larger than :data:`FULL_BUCKET_LIMIT` yields a star (each member
with the first), not all pairs: union-find still puts them all in one cluster.  So does a group of
near-copies (:func:`near_copy_groups`: SimHash within k bits and Jaccard similarity >=
:data:`NEAR_COPY_JACCARD` of the group's first page), such as 1,500 copies of one
page that differ in a date or a few words.  Only the first page of such a group goes on to the
inverted index, so boilerplate is counted over distinct texts, not over copies: otherwise every
shingle of a page copied more than ``boilerplate_pages`` times would be boilerplate, and its copies
would be found by nothing.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field

import numpy as np
from datasketch import MinHashLSH

from dedup_gui.core.fingerprints.shingles import jaccard, lean_minhash
from dedup_gui.core.fingerprints.simhash import block_key_table
from dedup_gui.core.model import Page, ScanSettings

#: Largest group of identical pages for which every pair is listed.
FULL_BUCKET_LIMIT = 30
#: Shingles in more pages than this are boilerplate (the default of ``boilerplate_pages``).
SHARED_SHINGLE_LIMIT = ScanSettings.boilerplate_pages
#: SimHash blocks are built for this Hamming distance (bits): k = 3 for 64 bits (Manku et al.).
SIMHASH_BLOCK_K = 3
#: Jaccard similarity of the shingle sets ([0, 1], all shingles) from which a page within
#: SIMHASH_BLOCK_K bits of a group's first page is a near-copy of it (:func:`near_copy_groups`).
#: Copies with about 5% of their words changed reach it (each changed word changes 4 shingles);
#: pages of one template whose own text is more than a quarter of their shingles stay below it.
NEAR_COPY_JACCARD = 0.6
#: A page is compared with at most this many group leaders per SimHash block, the earliest
#: first: on 2,000 pages of one template (all within 3 bits) every page was compared with every
#: earlier one.
LEADER_CHECKS = 16


def _bucket_pairs(groups: Iterable[list[int]]) -> set[tuple[int, int]]:
    pairs: set[tuple[int, int]] = set()
    for members in groups:
        if len(members) < 2:
            continue
        if len(members) <= FULL_BUCKET_LIMIT:
            pairs.update((a, b) for i, a in enumerate(members) for b in members[i + 1 :])
        else:
            first = members[0]
            pairs.update((first, b) for b in members[1:])
    return pairs


def _group_by(pages: list[Page], key: Callable[[Page], Hashable | None]) -> list[list[int]]:
    groups: dict[Hashable, list[int]] = defaultdict(list)
    for i, page in enumerate(pages):
        k = key(page)
        if k is not None:
            groups[k].append(i)
    return list(groups.values())


def _identical_groups(pages: list[Page]) -> tuple[list[list[int]], list[list[int]]]:
    """Page indices grouped by identical bytes, and (pages with text) by identical main text
    (normalized); :func:`find_candidates` pairs each group (a star past
    :data:`FULL_BUCKET_LIMIT`)."""
    return _group_by(pages, lambda p: p.sha1), _group_by(pages, lambda p: p.text_hash if p.has_text else None)


def _with_copies(pairs: set[tuple[int, int]], by_text: list[list[int]]) -> set[tuple[int, int]]:
    """``pairs`` of the groups' first pages, and the same pairs for the other pages of each
    small group of identical main texts (at most :data:`FULL_BUCKET_LIMIT`): a copy of a page is
    a duplicate of what the page is a duplicate of, and the user is told so directly (a copy in
    a ``zh/`` folder beside its original).  Larger groups stay a star: their copies would
    multiply the pairs."""
    copies = {group[0]: group for group in by_text if 1 < len(group) <= FULL_BUCKET_LIMIT}
    if not copies:
        return pairs
    out = set()
    for a, b in pairs:
        for x in copies.get(a, (a,)):
            for y in copies.get(b, (b,)):
                out.add((x, y) if x < y else (y, x))
    return out


def simhash_pairs(pages: list[Page], only: Iterable[int], k: int = SIMHASH_BLOCK_K) -> set[tuple[int, int]]:
    """Pairs of pages with text whose SimHashes are within Hamming distance ``k`` (bits) and
    that include one of the pages ``only``, found through the k + 1 blocks of each fingerprint
    (Manku, Jain and Das Sarma, WWW 2007).

    Args:
        pages: the pages (only those with usable text take part).
        only: page indices; every pair has at least one of them.
        k: the Hamming distance (bits).

    Returns:
        Set of ``(i, j)`` with ``i < j``.
    """
    keys = _block_key_table(pages, k)
    blocks: dict[int, list[int]] = defaultdict(list)
    for i, page in enumerate(pages):
        if page.has_text:
            for key in keys[i]:
                blocks[key].append(i)
    pairs: set[tuple[int, int]] = set()
    # Each chosen page against the members of its blocks, one vector operation per block.
    for i in only:
        page = pages[i]
        if not page.has_text:
            continue
        fingerprint = np.uint64(page.simhash)
        for key in keys[i]:
            members = np.asarray(blocks[key], dtype=np.int64)
            prints = np.fromiter((pages[j].simhash for j in blocks[key]), np.uint64, len(members))
            for j in members[np.bitwise_count(prints ^ fingerprint) <= k].tolist():
                if j != i:
                    pairs.add((min(i, j), max(i, j)))
    return pairs


class _Leaders:
    """The group leaders in one SimHash block: page ids and fingerprints in NumPy arrays that
    grow by doubling."""

    __slots__ = ("ids", "fingerprints", "n")

    def __init__(self) -> None:
        self.ids = np.empty(4, dtype=np.int64)
        self.fingerprints = np.empty(4, dtype=np.uint64)
        self.n = 0

    def add(self, page: int, fingerprint: np.uint64) -> None:
        if self.n == len(self.ids):
            self.ids = np.resize(self.ids, 2 * self.n)
            self.fingerprints = np.resize(self.fingerprints, 2 * self.n)
        self.ids[self.n] = page
        self.fingerprints[self.n] = fingerprint
        self.n += 1

    def within(self, fingerprint: np.uint64, k: int, most: int) -> list[int]:
        """The earliest ``most`` leaders within ``k`` bits of ``fingerprint``.  Earliest, not
        nearest: copies then join the first group of their page, not the group of a copy whose
        SimHash drifted, which would split them into groups too small for a star."""
        close = np.bitwise_count(self.fingerprints[: self.n] ^ fingerprint) <= k
        return self.ids[: self.n][close][:most].tolist()


def _block_key_table(pages: list[Page], k: int) -> list[list[int]]:
    """Every page's SimHash block keys (:func:`~dedup_gui.core.fingerprints.simhash.block_key_table`)."""
    return block_key_table(np.fromiter((p.simhash for p in pages), np.uint64, len(pages)), k)


def near_copy_groups(
    pages: list[Page],
    k: int = SIMHASH_BLOCK_K,
    min_jaccard: float = NEAR_COPY_JACCARD,
    check: Callable[[], None] | None = None,
) -> list[list[int]]:
    """Groups of near-copies, found in one pass by leader clustering on SimHash blocks.

    Each page with text, in order, joins the first earlier group whose first page (its leader)
    has a SimHash within ``k`` bits (found through the k + 1 blocks, Manku et al. 2007) and a
    Jaccard similarity of the shingle sets of at least ``min_jaccard`` (exact; all shingles
    count, boilerplate included); else it starts a group.  Every member is thus a near-copy of
    its leader, not necessarily of the others.  Copies whose SimHashes drift more than ``k``
    bits from their leader start groups of their own; the leaders of two such groups still
    pair through the inverted index, which sees one page per group.

    Args:
        pages: the pages (pages without usable text are left out of every group).
        k: SimHash Hamming distance (bits).
        min_jaccard: Jaccard similarity, in [0, 1].
        check: called every 1,024 pages; it may raise to stop (a cancelled scan).

    Returns:
        Groups of two or more page indices (``list[list[int]]``), each ascending, leader first.
    """
    # Per SimHash block value, the leaders' fingerprints as a growing NumPy array, so that a
    # page is checked against a crowded block (a thousand leaders) in one vector operation.
    blocks: dict[int, _Leaders] = {}
    members: dict[int, list[int]] = {}
    all_keys = _block_key_table(pages, k)
    for i, page in enumerate(pages):
        if check is not None and i % 1024 == 0:
            check()
        if not page.has_text or not len(page.shingles):
            continue
        keys = all_keys[i]
        fingerprint = np.uint64(page.simhash)
        leader = -1
        for key in keys:
            block = blocks.get(key)
            if block is None:
                continue
            for other in block.within(fingerprint, k, LEADER_CHECKS):
                if jaccard(page.shingles, pages[other].shingles) >= min_jaccard:
                    leader = other
                    break
            if leader >= 0:
                break
        if leader >= 0:
            members[leader].append(i)
            continue
        members[i] = [i]
        for key in keys:
            block = blocks.get(key)
            if block is None:
                block = blocks[key] = _Leaders()
            block.add(i, fingerprint)
    return [group for group in members.values() if len(group) > 1]


def lsh_pairs(pages: list[Page], settings: ScanSettings) -> set[tuple[int, int]]:
    """Pairs of pages whose content shingle sets collide in MinHash LSH bands.

    Args:
        pages: the pages (only those with usable text take part).
        settings: gives ``lsh_threshold`` (Jaccard, [0, 1]) and ``num_perm``.

    Returns:
        Set of ``(i, j)`` with ``i < j``.
    """
    lsh = MinHashLSH(threshold=settings.lsh_threshold, num_perm=settings.num_perm)
    signatures = {}
    for i, page in enumerate(pages):
        if page.has_text:
            signatures[i] = lean_minhash(page.minhash)
            lsh.insert(i, signatures[i])
    pairs: set[tuple[int, int]] = set()
    for i, sig in signatures.items():
        for j in lsh.query(sig):
            if j != i:
                pairs.add((min(i, j), max(i, j)))
    return pairs


def shared_content_counts(
    pages: list[Page], max_posting: int = SHARED_SHINGLE_LIMIT
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every pair of pages that share at least one content shingle that is not boilerplate,
    how many such shingles they share, found exactly with an inverted index (shingle -> pages).

    A shingle found in more than ``max_posting`` pages is boilerplate of the collection (template
    text that main-content extraction left in: "Share this article", a byline, a caption
    heading); it is left out, as Broder et al. ("Syntactic clustering of the Web", 1997) leave
    out very common shingles and I-Match leaves out frequent terms.  This also bounds the work:
    each shingle yields at most ``max_posting**2 / 2`` pairs.

    Args:
        pages: the pages (only those with usable text take part).
        max_posting: the most pages a shingle may occur in and still count.

    Returns:
        ``(left, right, shared)``: three equal-length ``np.int64`` arrays, ``left < right``
        (indices into ``pages``), ``shared`` >= 1 (shingles in common), sorted by pair.
    """
    return _shingle_index(pages, max_posting)[:3]


#: The inverted index is built in parts of about this many shingle occurrences (8 bytes each),
#: one part per value of the shingle hash's low bits, so that 100,000 pages need about 50 MB at a
#: time, not 400.
INDEX_PART_OCCURRENCES = 8_000_000
_INDEX_BATCH = 2048


def _shingle_index(pages: list[Page], max_posting: int, check: Callable[[], None] | None = None):
    """:func:`shared_content_counts` and, per page, how many of its shingles are boilerplate."""
    empty = np.zeros(0, dtype=np.int64)
    n = len(pages)
    boilerplate = np.zeros(n, dtype=np.int64)
    ids = [i for i, p in enumerate(pages) if p.has_text and len(p.shingles)]
    if len(ids) < 2:
        return empty, empty, empty, boilerplate
    occurrences = sum(len(pages[i].shingles) for i in ids)
    parts = 1 << max(0, int(np.ceil(np.log2(max(1, occurrences / INDEX_PART_OCCURRENCES)))))  # a power of 2
    keys, counts = [], []
    for part in range(parts):
        if check is not None:
            check()
        # Each shingle falls in exactly one part, so per-part pair counts add up.
        part_keys, part_counts, part_boilerplate = _index_part(pages, ids, part, parts, max_posting)
        keys.append(part_keys)
        counts.append(part_counts)
        boilerplate += part_boilerplate
    pair_keys = np.concatenate(keys)
    shared = np.concatenate(counts)
    if parts > 1 and len(pair_keys):
        pair_keys, inverse = np.unique(pair_keys, return_inverse=True)
        shared = np.bincount(inverse, weights=shared, minlength=len(pair_keys)).astype(np.int64)
    return pair_keys // n, pair_keys % n, shared, boilerplate


def _index_part(pages: list[Page], ids: list[int], part: int, parts: int, max_posting: int):
    """The inverted index over the shingles ``s`` with ``s & (parts - 1) == part`` (``parts`` a
    power of 2): (sorted unique
    pair keys ``i * n + j``, shingles shared per key, boilerplate shingles per page)."""
    n = len(pages)
    # Pages in batches: one concatenation per batch, so that each part costs a few NumPy calls
    # per batch rather than per page.
    pieces = []
    for start in range(0, len(ids), _INDEX_BATCH):
        batch = ids[start : start + _INDEX_BATCH]
        shingles = np.concatenate([pages[i].shingles for i in batch])
        owners = np.repeat(np.asarray(batch, dtype=np.uint32), [len(pages[i].shingles) for i in batch])
        if parts > 1:
            mine = shingles & np.uint32(parts - 1) == part
            shingles, owners = shingles[mine], owners[mine]
        piece = shingles.astype(np.uint64)
        piece <<= np.uint64(32)
        piece |= owners
        pieces.append(piece)
    # One sort of (shingle << 32 | page): 8 bytes per shingle occurrence, no argsort index.
    entries = np.concatenate(pieces)
    del pieces, shingles, owners, piece
    entries.sort()
    # The two 32-bit halves of each entry, read in place (copies would cost 12 bytes per
    # occurrence).
    halves = entries.view(np.uint32)
    high, low = (halves[1::2], halves[0::2]) if sys.byteorder == "little" else (halves[0::2], halves[1::2])
    repeated = high[1:] == high[:-1]
    # Most shingles are in one page only: keep the occurrences of shingles in two or more.
    shared_occurrence = np.zeros(len(entries), dtype=bool)
    shared_occurrence[1:] |= repeated
    shared_occurrence[:-1] |= repeated
    del repeated
    shingles = high[shared_occurrence]
    owners = low[shared_occurrence].astype(np.int64)
    del entries, halves, high, low, shared_occurrence
    starts = np.flatnonzero(np.r_[True, shingles[1:] != shingles[:-1]]) if len(shingles) else np.zeros(0, np.int64)
    sizes = np.diff(np.r_[starts, len(shingles)])
    boilerplate = np.bincount(owners[np.repeat(sizes > max_posting, sizes)], minlength=n)
    keys = []
    for size in range(2, max_posting + 1):
        group_starts = starts[sizes == size]
        if not len(group_starts):
            continue
        members = owners[group_starts[:, None] + np.arange(size)[None, :]]  # (groups, size)
        a, b = np.triu_indices(size, k=1)
        left, right = members[:, a].ravel(), members[:, b].ravel()
        keys.append(np.minimum(left, right) * n + np.maximum(left, right))
    if not keys:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), boilerplate
    pair_keys, shared = np.unique(np.concatenate(keys), return_counts=True)
    return pair_keys, shared.astype(np.int64), boilerplate


def containment_pairs(
    pages: list[Page], threshold: float, max_posting: int = SHARED_SHINGLE_LIMIT
) -> set[tuple[int, int]]:
    """Pairs where at least ``threshold`` of the smaller page's shingles occur in the other,
    counting only shingles that are not boilerplate (see :func:`shared_content_counts`); exact,
    with no sampling, so a short page quoted inside a long one is found even where its Jaccard
    similarity is tiny.

    Args:
        pages: the pages (only those with usable text take part).
        threshold: containment ([0, 1]).
        max_posting: the most pages a shingle may occur in and still count.

    Returns:
        Set of ``(i, j)`` with ``i < j``.
    """
    left, right, shared = shared_content_counts(pages, max_posting)
    return _contained(pages, left, right, shared, threshold)


def _contained(pages, left, right, shared, threshold: float) -> set[tuple[int, int]]:
    sizes_of = np.array([len(p.shingles) for p in pages], dtype=np.int64)
    smaller = np.minimum(sizes_of[left], sizes_of[right])
    keep = shared >= threshold * smaller
    return {(int(x), int(y)) for x, y in zip(left[keep], right[keep])}


@dataclass(frozen=True)
class Candidates:
    """The candidate pairs of a collection and what the candidate stage decided on the way.

    Attributes:
        pairs: sorted ``(i, j)`` page indices, ``i < j`` (``list[tuple[int, int]]``).
        mostly_boilerplate: how many pages (distinct texts) have half of their shingles or more
            in more than ``boilerplate_pages`` texts (int): their text counts as template text.
        near_copy_stars: groups of more than :data:`FULL_BUCKET_LIMIT` near-copies that were
            paired as a star around their first page (int).
        identical_stars: groups of more than :data:`FULL_BUCKET_LIMIT` pages with identical main
            text (or, without usable text, identical bytes) that were paired as a star (int).
        star_groups: the groups of near-copies paired as a star, as page indices with the
            group's first page (the star's centre) first (``list[tuple[int, ...]]``).
    """

    pairs: list[tuple[int, int]]
    mostly_boilerplate: int = 0
    near_copy_stars: int = 0
    identical_stars: int = 0
    star_groups: list[tuple[int, ...]] = field(default_factory=list)


def candidate_pairs(pages: list[Page], settings: ScanSettings) -> list[tuple[int, int]]:
    """All candidate pairs from every source, sorted (:func:`find_candidates`'s pairs).

    Args:
        pages: the scanned pages.
        settings: scan settings (``boilerplate_pages``, ``candidate_containment``).

    Returns:
        Sorted list of ``(i, j)`` page indices with ``i < j``.
    """
    return find_candidates(pages, settings).pairs


def find_candidates(pages: list[Page], settings: ScanSettings, check: Callable[[], None] | None = None) -> Candidates:
    """All candidate pairs from every source, with the counts a scan reports.

    Args:
        pages: the scanned pages.
        settings: scan settings (``boilerplate_pages``, ``candidate_containment``).
        check: called now and then; it may raise to stop (e.g. ``ScanCancelled``).

    Returns:
        :class:`Candidates`.
    """
    by_bytes, by_text = _identical_groups(pages)
    pairs = _bucket_pairs(by_bytes) | _bucket_pairs(by_text)
    # text groups hold the byte groups of pages with text: count those without text apart
    identical = sum(1 for g in by_text if len(g) > FULL_BUCKET_LIMIT)
    identical += sum(1 for g in by_bytes if len(g) > FULL_BUCKET_LIMIT and not pages[g[0]].has_text)
    # Pages with the same main text are already joined by the exact buckets (a star): only one
    # of each goes on to the similarity searches, or 2,000 copies would make 2,000,000 pairs.
    reps, seen = [], set()
    for i, page in enumerate(pages):
        if page.has_text and page.text_hash not in seen:
            seen.add(page.text_hash)
            reps.append(i)
    # A large group of near-copies is a star too, and only its first page goes on: its shingles
    # would otherwise all be boilerplate (in more than boilerplate_pages texts) and pair nothing.
    near = [[reps[k] for k in group] for group in near_copy_groups([pages[i] for i in reps], check=check)]
    pairs |= _bucket_pairs(group for group in near if len(group) > FULL_BUCKET_LIMIT)
    starred = {i for group in near if len(group) > FULL_BUCKET_LIMIT for i in group[1:]}
    reps = [i for i in reps if i not in starred]
    sub = [pages[i] for i in reps]
    left, right, shared, boilerplate = _shingle_index(sub, settings.boilerplate_pages, check)
    contained = _contained(sub, left, right, shared, settings.candidate_containment)
    # A SimHash pair must share content too, or pages of one template whose short main texts are
    # mostly template text come in this way; unless a page has no content shingle at all (its
    # whole text is boilerplate, e.g. thin "no results" pages of one site).
    all_boilerplate = {k for k, page in enumerate(sub) if boilerplate[k] >= len(page.shingles)}
    similar = contained | simhash_pairs(sub, sorted(all_boilerplate))
    pairs |= _with_copies({(reps[a], reps[b]) for a, b in similar}, by_text)
    mostly = int(np.count_nonzero([2 * boilerplate[k] >= len(page.shingles) > 0 for k, page in enumerate(sub)]))
    star_groups = [tuple(group) for group in near if len(group) > FULL_BUCKET_LIMIT]
    return Candidates(sorted(pairs), mostly, len(star_groups), identical, star_groups)
