"""The report's tables as typed rows, one home for the CSV files and the XLSX workbook: the
duplicate pairs, every file with its verdict, and the keep plan.

Cells are ``str``, ``int``, ``float`` (similarities in [0, 1]) or ``None`` (empty); each writer
formats them (the CSV with four decimals, the workbook as numbers) and neutralises the strings
a spreadsheet would run as formulas.
"""

from __future__ import annotations

from collections.abc import Sequence

from dedup_gui.core.model import DupType, Pair, ScanResult
from dedup_gui.core.pipeline.keep_clusters import link_label
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
#: The columns of the keep plan (the keep CSV has the first two).
KEEP_PLAN_COLUMNS = ["duplicate", "keep", "link", "reason"]

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
    could not be used (``error``) and those skipped as not pages (``skipped``)."""
    r = report.result
    cluster_of = r.cluster_of()
    no_text = f"no usable main text (fewer than {r.settings.min_tokens} tokens)"
    rows: list[list[Cell]] = []
    for i, page in enumerate(r.pages):
        keep_cluster = report.keep_cluster_of.get(i)
        rows.append([
            page.path,
            "ok" if page.has_text else "no usable text",
            None if page.has_text else no_text,
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


def keep_plan_rows(report: Report) -> list[list[Cell]]:
    """One row per page to drop (:data:`KEEP_PLAN_COLUMNS`): the page, the page to keep, how the
    first duplicates the second (``full duplicate``, ``identical bytes``...) and why that one
    is kept; keep clusters largest first, then by path."""
    rows: list[list[Cell]] = []
    for entry in report.keep_clusters:
        rows.extend(
            [page.path, entry.keep.path, link_label(link), entry.cluster.reason] for page, link in entry.duplicates
        )
    return rows


def csv_cell(value: Cell) -> str | int:
    """A cell as the CSV files write it: similarities with four decimals, empty for ``None``."""
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.4f}"
    return value
