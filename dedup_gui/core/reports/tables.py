"""The report's tables as typed rows, one home for the CSV files and the XLSX workbook: the
duplicate pairs, every file with its verdict, and the keep plan.

Cells are ``str``, ``int``, ``float`` (similarities in [0, 1]) or ``None`` (empty); each writer
formats them (the CSV with four decimals, the workbook as numbers) and neutralises the strings
a spreadsheet would run as formulas.
"""

from __future__ import annotations

from collections.abc import Sequence

from dedup_gui.core.model import DupType, Pair, ScanResult
from dedup_gui.core.number_format import format_score
from dedup_gui.core.pipeline.canonical import BAD, canonical_status
from dedup_gui.core.pipeline.keep_clusters import IDENTICAL_BYTES, IDENTICAL_TEXT, link_label
from dedup_gui.core.pipeline.redirects import page_status
from dedup_gui.core.reports.model import Report

#: The columns of the pairs table (the PREDICTIONS.csv columns, then the pair's group and the
#: side whose content lies inside the other).
PAIR_COLUMNS = [
    "left",
    "right",
    "type",
    "content_similarity",
    "content_containment",
    "layout_similarity",
    "hamming_distance",
    "jaccard",
    "cluster",
    "contained_side",
]
#: The columns of the pages table.
PAGE_COLUMNS = [
    "path",
    "status",
    "reason",
    "title",
    "url",
    "encoding",
    "word_count",
    "size_bytes",
    "sha1",
    "simhash",
    "cluster",
    "keep",
]
#: The columns of the keep plan (the keep CSV has them all; tools read its first two by name):
#: the page to drop, the page to keep, how the first duplicates the second, their content
#: similarity, why that page is kept, and whether the dropped page's canonical already points
#: to the kept one (:func:`keep_canonical`), with a note.
KEEP_PLAN_COLUMNS = [
    "duplicate", "keep", "type", "similarity", "reason", "canonical_status", "canonical_note",
    "duplicate_url", "keep_url",
]  # fmt: skip

Cell = str | int | float | None


def pair_rows(result: ScanResult, pairs: Sequence[Pair] | None = None) -> list[list[Cell]]:
    """One row per pair that is not distinct (:data:`PAIR_COLUMNS`), in ``pairs`` order.

    Args:
        result: the scan.
        pairs: the pairs (default: all of ``result.pairs``); distinct ones are left out.
    """
    cluster_of = result.cluster_of()
    rows: list[list[Cell]] = []
    for pair in result.pairs if pairs is None else pairs:
        if pair.type is DupType.DISTINCT:
            continue
        s = pair.scores
        rows.append([
            result.pages[pair.left].path,
            result.pages[pair.right].path,
            pair.type.value,
            s.content_similarity,
            s.content_containment,
            s.layout_similarity,
            s.hamming_distance,
            s.jaccard,
            cluster_of.get(pair.left),
            s.contained_side or None,
        ])  # fmt: skip
    return rows


def page_rows(report: Report) -> list[list[Cell]]:
    """One row per file (:data:`PAGE_COLUMNS`): the pages with their verdict, near-duplicate
    group and the page their keep cluster keeps (their own path when kept), then the files that
    could not be used (``error``) and those skipped as not pages (``skipped``).  A redirect page's
    status is ``"redirect"`` and its reason where it leads
    (:attr:`~dedup_gui.core.pipeline.redirects.Redirect.note`)."""
    r = report.result
    cluster_of = r.cluster_of()
    no_text = f"no usable main text (fewer than {r.settings.min_tokens} tokens)"
    redirects = report.redirects()
    rows: list[list[Cell]] = []
    for i, page in enumerate(r.pages):
        keep_cluster = report.keep_cluster_of.get(i)
        redirect = redirects.get(i)
        rows.append([
            page.path,
            page_status(page),
            redirect.note if redirect is not None else None if page.has_text else no_text,
            page.title or None,
            page.url or None,
            page.encoding,
            page.word_count,
            page.size,
            page.sha1,
            page.simhash_hex,
            cluster_of.get(i),
            r.pages[keep_cluster.keep].path if keep_cluster is not None else None,
        ])  # fmt: skip
    blank: list[Cell] = [None] * (len(PAGE_COLUMNS) - 3)
    rows += [[e.path, "error", e.reason, *blank] for e in r.errors]
    rows += [[p, "skipped", r.skip_reason(p), *blank] for p in r.skipped]
    return rows


def keep_canonical(result: ScanResult, page: int, kept: int) -> tuple[str, str]:
    """The keep plan's canonical columns for dropped page ``page`` and its kept page ``kept``
    (indices into ``result.pages``): ``("good", note)`` when the page's stated canonical points
    to the kept page (the duplicate is handled by it), ``("bad", note)`` when it points elsewhere,
    ``("none", "states no canonical address")`` when it states none (the pages table's word;
    "bad" here before said less), ``("malformed", note)`` when it is no valid address and was
    ignored (:func:`~dedup_gui.core.pipeline.canonical.canonical_status`) (tuple[str, str])."""
    found = canonical_status(result, page, kept)
    note = found.note if not found.url or found.status != BAD else f"{found.note}: {found.url}"
    return found.status, note


def _pair_similarities(result: ScanResult, pages: set[int]) -> dict[tuple[int, int], float]:
    """Content similarity of every measured pair between two of ``pages``, by (smaller index,
    larger index)."""
    found: dict[tuple[int, int], float] = {}
    for pair in result.pairs:
        if pair.left in pages and pair.right in pages:
            found[(min(pair.left, pair.right), max(pair.left, pair.right))] = pair.scores.content_similarity
    return found


def keep_plan_rows(report: Report) -> list[list[Cell]]:
    """One row per page to drop (:data:`KEEP_PLAN_COLUMNS`): the page, the page to keep, how the
    first duplicates the second (``full duplicate``, ``identical bytes``...), the content
    similarity of their pair (1.0 for identical bytes or main text that were not measured as
    a pair; empty for a near-copy never measured against the kept page), why the page is not
    the one kept (:meth:`~dedup_gui.core.pipeline.keep_clusters.KeepCluster.row_reason`, as the
    window's clusters tree says it), and the dropped page's canonical status and its note (:func:`keep_canonical`), then both
    pages' URLs (a crawl record's ``WARC-Target-URI``, else the address the page states; empty
    for none): what a redirect or a canonical link names; keep clusters largest first, then by
    path."""
    r = report.result
    members = {i for entry in report.keep_clusters for i in entry.cluster.pages}
    similarity = _pair_similarities(r, members)
    rows: list[list[Cell]] = []
    for entry in report.keep_clusters:
        cluster = entry.cluster
        for page, link in zip(cluster.duplicates, cluster.links, strict=True):
            measured = similarity.get((min(page, cluster.keep), max(page, cluster.keep)))
            if measured is None and link in (IDENTICAL_BYTES, IDENTICAL_TEXT):
                measured = 1.0
            status, note = keep_canonical(r, page, cluster.keep)
            rows.append([
                r.pages[page].path, entry.keep.path, link_label(link), measured, cluster.row_reason(page), status, note,
                r.pages[page].url or "", entry.keep.url or "",
            ])  # fmt: skip
    return rows


def csv_cell(value: Cell) -> str | int:
    """A cell as the CSV files write it: similarities with four decimals, empty for ``None``."""
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{format_score(value, 4)}"
    return value
