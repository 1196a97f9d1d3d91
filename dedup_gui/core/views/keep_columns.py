"""The pages table's duplicate columns, as Screaming Frog's "Near Duplicates" report has them,
without Qt: per page, the number of its duplicate pairs ("No. Near Duplicates"), its closest
match (the highest content similarity to any other page, and that page: "Closest Similarity
Match"), what the keep clusters say of it (kept, or a duplicate of the page kept), and whether
the canonical address it states points to the page kept for it (Ahrefs' "good" and "bad"
duplicates, :mod:`dedup_gui.core.pipeline.canonical`).

Source of the columns: Screaming Frog SEO Spider, "Content > Near Duplicates" (user guide,
"Duplicate content"); the keep advice is :mod:`dedup_gui.core.pipeline.keep_clusters`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from dedup_gui.core.columns import DISTINCT_CODE, TYPE_CODE, pair_columns
from dedup_gui.core.model import DupType, ScanResult
from dedup_gui.core.number_format import format_score
from dedup_gui.core.pipeline.canonical import CanonicalStatus, canonical_status
from dedup_gui.core.pipeline.keep import default_script, documents_differ
from dedup_gui.core.pipeline.keep_clusters import keep_clusters_of
from dedup_gui.core.pipeline.keep_reasons import version_folder
from dedup_gui.core.pipeline.languages import is_language_folder
from dedup_gui.core.pipeline.not_duplicates import marked_page_pairs, marked_rows
from dedup_gui.core.site_paths import is_index_name
from dedup_gui.core.views.paths import document_label, shared_document

#: :attr:`PageKeepColumns.kept_page` of a page in no keep cluster.
NOT_IN_KEEP_CLUSTER = -1


@dataclass(frozen=True)
class PageKeepColumns:
    """The duplicate columns of every page of a scan (arrays of shape (pages,)).

    Attributes:
        near_duplicates: number of the page's pairs that are duplicates of any type (``int64``).
        closest_similarity: the highest content similarity of the page's scored pairs
            (``float64``, 0..1), -1.0 for a page in no pair.
        closest_page: the other page of that pair (``int64``, index into ``result.pages``),
            -1 for none; of pairs equally similar, the first in the result's order.
        kept_page: the page kept in the page's keep cluster (itself for a kept page), or
            :data:`NOT_IN_KEEP_CLUSTER` (``int64``).
        kept_apart: for each page in no keep cluster that has full or content duplicates, why
            they are not dropped for it nor it for them, as its "Keep" cell
            (:func:`kept_apart_text`): ``{page index: text}``.
    """

    near_duplicates: np.ndarray
    closest_similarity: np.ndarray
    closest_page: np.ndarray
    kept_page: np.ndarray
    kept_apart: dict[int, str] = field(default_factory=dict)


def page_keep_columns(result: ScanResult) -> PageKeepColumns:
    """The :class:`PageKeepColumns` of ``result``'s pages (one NumPy pass over the pairs; the
    keep clusters are :func:`~dedup_gui.core.pipeline.keep_clusters.keep_clusters_of`'s).

    Returns:
        :class:`PageKeepColumns`.
    """
    n = len(result.pages)
    near = np.zeros(n, dtype=np.int64)
    best = np.full(n, -1.0)
    other = np.full(n, -1, dtype=np.int64)
    kept = np.full(n, NOT_IN_KEEP_CLUSTER, dtype=np.int64)
    if result.pairs:
        columns = pair_columns(result)
        left, right = columns.left.astype(np.int64), columns.right.astype(np.int64)
        duplicate = columns.type_code != DISTINCT_CODE
        near += np.bincount(left[duplicate], minlength=n) + np.bincount(right[duplicate], minlength=n)
        pages = np.concatenate([left, right])
        others = np.concatenate([right, left])
        similarity = np.tile(columns.content_similarity.astype(np.float64), 2)
        order = np.tile(np.arange(len(left)), 2)
        # per page: highest similarity first, then the earliest pair
        sort = np.lexsort((order, -similarity, pages))
        pages, others, similarity = pages[sort], others[sort], similarity[sort]
        head = np.r_[True, pages[1:] != pages[:-1]]
        best[pages[head]] = similarity[head]
        other[pages[head]] = others[head]
    for cluster in keep_clusters_of(result):
        kept[list(cluster.pages)] = cluster.keep
    return PageKeepColumns(near, best, other, kept, _kept_apart(result, kept))


_FULL, _CONTENT = TYPE_CODE[DupType.FULL], TYPE_CODE[DupType.CONTENT]


def _kept_apart(result: ScanResult, kept: np.ndarray) -> dict[int, str]:
    """:attr:`PageKeepColumns.kept_apart` of ``result``, given each page's kept page."""
    if not result.pairs:
        return {}
    columns = pair_columns(result)
    left, right, code = columns.left.astype(np.int64), columns.right.astype(np.int64), columns.type_code
    alone = kept == NOT_IN_KEEP_CLUSTER
    strong = (code == _FULL) | (code == _CONTENT)
    if marked_page_pairs(result):  # a pair marked "not a duplicate" is none, even before re-classification
        strong &= ~marked_rows(result, columns)
    rows = np.flatnonzero(strong & (alone[left] | alone[right]))
    if not len(rows):
        return {}
    paths = [p.path for p in result.pages]
    site_script = default_script(result.pages)
    policy = result.keep_policy
    found: dict[int, tuple[set[int], set[str], list[int]]] = {}  # page -> (type codes, why, partners)
    for a, b, c in zip(left[rows].tolist(), right[rows].tolist(), code[rows].tolist()):
        why = documents_differ(paths[a], paths[b], site_script)
        if why is None:
            both = policy.is_reference(paths[a]) and policy.is_reference(paths[b])
            why = "reference" if both else "cluster"
        for page, partner in ((a, b), (b, a)):
            if alone[page]:
                types, reasons, partners = found.setdefault(page, (set(), set(), []))
                types.add(c)
                reasons.add(why if why != "cluster" or not alone[partner] else "weak")
                partners.append(partner)
    return {page: kept_apart_text(types, reasons, len(partners)) for page, (types, reasons, partners) in found.items()}


#: The documents' reasons (:func:`~dedup_gui.core.pipeline.keep.documents_differ`) and the
#: others, as :func:`kept_apart_text` words them: (one duplicate, several).
_APART_WORDS = {
    "moved between versions": ("another document: moved between versions", "other documents: moved between versions"),
    "other language": ("another document: in another language", "other documents: in another language"),
    "reference": ("in a reference folder too (both kept)", "in reference folders too (all kept)"),
    "cluster": ("in another keep cluster", "in other keep clusters"),
    "weak": ("kept apart by the keep rule", "kept apart by the keep rule"),
}


def kept_apart_text(types: set[int], reasons: set[str], count: int) -> str:
    """The "Keep" cell of a page in no keep cluster whose full or content duplicates are kept
    apart from it, e.g. ``"kept (its full duplicate is another document: moved between
    versions)"`` (str).

    Args:
        types: the type codes of its strong pairs (:data:`~dedup_gui.core.columns.TYPE_CODE`
            of ``FULL`` and ``CONTENT``).
        reasons: why they are apart: a :func:`~dedup_gui.core.pipeline.keep.documents_differ`
            reason (``"moved between versions"``, ``"other language"``), ``"reference"`` (both
            in reference folders), ``"cluster"`` (the other page is in another keep cluster) or
            ``"weak"`` (neither is in a keep cluster; the keep clusters' own rules never leave
            two such pages apart today, so this is a safe word for a case not foreseen).
        count: how many such pairs it has (int).
    """
    kind = " or ".join(name for code, name in ((_FULL, "full"), (_CONTENT, "content")) if code in types)
    many = count > 1
    order = ("moved between versions", "other language", "reference", "cluster", "weak")
    words = [_APART_WORDS[r][many] for r in order if r in reasons]
    merged: list[str] = []  # "other documents: moved between versions, in another language"
    for w in words:
        head, _, tail = w.partition(": ")
        if tail and merged and merged[-1].startswith(head + ": "):
            merged[-1] += f", {tail}"
        else:
            merged.append(w)
    return f"kept (its {kind} duplicate{'s are' if many else ' is'} {'; '.join(merged)})"


#: The "Keep" cell of a page with layout or partial duplicates only: kept, nothing to drop.
NO_STRONG_DUPLICATE = "kept (no full or content duplicate)"


def keep_text(result: ScanResult, columns: PageKeepColumns, page: int) -> str:
    """The "Keep" cell of page ``page``: ``"kept"``, ``"duplicate of <path of the kept page>"``,
    for a page in no keep cluster whose full or content duplicates are other documents (a page
    that moved between versions, another language) or kept apart otherwise, why
    (:func:`kept_apart_text`), ``"kept (no full or content duplicate)"`` for a page whose
    duplicates are all layout or partial ones (nothing to drop: a blank read as missing data),
    or ``""`` for a page with no duplicate (str)."""
    kept = int(columns.kept_page[page])
    if kept == NOT_IN_KEEP_CLUSTER:
        apart = columns.kept_apart.get(page)
        if apart is not None:
            return apart
        return NO_STRONG_DUPLICATE if columns.near_duplicates[page] else ""
    return "kept" if kept == page else f"duplicate of {result.pages[kept].path}"


def closest_text(result: ScanResult, columns: PageKeepColumns, page: int) -> str:
    """The "Closest match" cell of page ``page``: e.g. ``"0.953 site/a.html"`` (the similarity
    with 3 decimals, then the other page's path), ``""`` for a page in no pair (str)."""
    other = int(columns.closest_page[page])
    if other < 0:
        return ""
    return f"{format_score(columns.closest_similarity[page])} {result.pages[other].path}"


def page_canonical(result: ScanResult, columns: PageKeepColumns, page: int) -> CanonicalStatus:
    """What page ``page``'s stated canonical says of the page kept for it (itself when it is
    kept or in no keep cluster): :func:`~dedup_gui.core.pipeline.canonical.canonical_status`.

    Returns:
        :class:`~dedup_gui.core.pipeline.canonical.CanonicalStatus`, whose ``status`` is the
        "Canonical" cell: ``"good"``, ``"bad"``, ``"none"`` or ``"malformed"``.
    """
    kept = int(columns.kept_page[page])
    return canonical_status(result, page, page if kept == NOT_IN_KEEP_CLUSTER else kept)


def keep_cluster_document(paths: tuple[str, ...], kept: int) -> str:
    """The document a keep cluster is about: the path part its pages all share
    (:func:`~dedup_gui.core.views.paths.shared_document`, ``"advance/x/index.html"`` for
    ``"v1.16.x/advance/x/index.html"`` and ``"v1.10.x/zh/advance/x/index.html"``), or, when they
    share none, :data:`HOME_PAGE` for the home pages of versions or languages, else the kept
    page's path (str).

    Args:
        paths: the cluster's page paths.
        kept: the position of the kept page in ``paths``.
    """
    shared = shared_document(paths)
    if shared:
        return shared
    if all(_is_home(p) for p in paths) and len({p.rsplit("/", 1)[-1] for p in paths}) == 1:
        return HOME_PAGE  # "v1.12.x/" read like the whole folder
    return paths[kept]


#: The document of a keep cluster of the versions' (and languages') home pages.
HOME_PAGE = "home page of each version"


def _is_home(path: str) -> bool:
    """Whether a path is an index page with nothing but version and language folders above it."""
    *folders, name = path.split("/")
    return is_index_name(name) and all(version_folder(f"{f}/x") == f or is_language_folder(f) for f in folders)


def keep_cluster_title(cluster_id: int, document: str, span: str = "") -> str:
    """A keep cluster's title in the clusters tree: its number, the document it is about (an
    index page named by its folder) and, when its pages differ in a folder, which folders
    (:func:`~dedup_gui.core.views.cluster_span.cluster_span`): ``"#3 ops/recover-db/ in
    v1.10.x–v1.15.x (also zh)"`` (str).

    The title read "#1 canonical, version" (the keep rule's criteria) on 309 clusters of the
    real site: it told none apart.  Then it named the document alone, and two keep clusters of
    one document ("#3 foo/bar/" and "#17 foo/bar/", 84 of the site's 197 documents) read alike.
    The rule is in the title's tooltip and the line under the tree.

    Args:
        cluster_id: the keep cluster's number.
        document: :func:`keep_cluster_document`.
        span: :func:`~dedup_gui.core.views.cluster_span.cluster_span` of its pages (``""``: none).
    """
    return f"#{cluster_id} {document_label(document)}{span_suffix(span)}"


def span_suffix(span: str) -> str:
    """What follows a keep cluster's document in its title: ``" in <span>"``, or ``""`` for no
    span (str)."""
    return f" in {span}" if span else ""
