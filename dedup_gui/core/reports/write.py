"""Writing scan results: CSV of pairs, pages and what to keep, JSON of everything, the HTML report.

Formats (:data:`CORE_FORMATS`; the PDF is made outside core, by :mod:`dedup_gui.export.pdf`,
since it draws with Qt, and :func:`dedup_gui.export.export` writes every format):

* ``csv``: one row per pair that is not distinct, with the PREDICTIONS.csv columns plus
  ``cluster`` (its near-duplicate group; DESIGN.md);
* ``pages-csv``: one row per file with its verdict, near-duplicate group and the page its keep
  cluster keeps;
* ``keep-csv``: the keep plan (``duplicate,keep,type,similarity,reason,canonical_status,
  canonical_note,duplicate_url,keep_url``), one row per page to drop, with the page of its keep cluster to keep (:mod:`dedup_gui.core.pipeline.keep_clusters`, :data:`dedup_gui.core.pipeline.keep.KEEP_RULE`);
* ``json``: everything, following ``resources/report.schema.json``;
* ``html``: the self-contained report (:mod:`dedup_gui.core.reports.html`);
* ``xlsx``: a workbook with Summary, Pairs, Pages, Clusters and Keep plan sheets
  (:mod:`dedup_gui.core.reports.xlsx`).

Every CSV cell that a spreadsheet would run as a formula (a file name such as ``=HYPERLINK(...)``)
is written with a leading apostrophe (:func:`dedup_gui.core.safe_text.csv_text`); the JSON keeps
every string exact.  Every format may be limited to a subset of the pairs (what the GUI's filters
show).  Every file is written atomically (:mod:`dedup_gui.core.atomic`): a failed or cancelled
export leaves no half-written file and never damages an existing one.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from dedup_gui.core.atomic import ExportError, atomic_write_bytes, atomic_write_text
from dedup_gui.core.model import DupType, Pair, ScanResult
from dedup_gui.core.number_format import format_score
from dedup_gui.core.pipeline.classify import explain
from dedup_gui.core.pipeline.keep import keep_rule_text
from dedup_gui.core.pipeline.keep_clusters import keep_clusters_of
from dedup_gui.core.pipeline.redirects import page_status
from dedup_gui.core.pipeline.walk import is_archive_root
from dedup_gui.core.progress import Progress
from dedup_gui.core.reports.html import html_from_report
from dedup_gui.core.reports.model import EXCERPT_LIMIT, Report, build_report, scan_summary
from dedup_gui.core.reports.summary import scan_time_text
from dedup_gui.core.reports.tables import (
    KEEP_PLAN_COLUMNS,
    PAGE_COLUMNS,
    PAIR_COLUMNS,
    csv_cell,
    keep_plan_rows,
    page_rows,
    pair_rows,
)
from dedup_gui.core.reports.xlsx import xlsx_bytes
from dedup_gui.core.safe_text import csv_text, terminal_text

__all__ = [
    "CORE_FORMATS",
    "FORMATS",
    "PAGE_COLUMNS",
    "PREDICTION_COLUMNS",
    "SUFFIX_FORMATS",
    "ExportError",
    "atomic_write_bytes",
    "atomic_write_text",
    "excerpts_needed",
    "format_for",
    "html_report",
    "keep_csv",
    "pages_csv",
    "pairs_csv",
    "render",
    "result_dict",
    "score_row",
    "summary_dict",
    "summary_text",
    "write_result",
]

#: Columns of PREDICTIONS.csv (DESIGN.md); the scan CSV adds ``cluster``.
PREDICTION_COLUMNS = [
    "left",
    "right",
    "type",
    "content_similarity",
    "content_containment",
    "layout_similarity",
    "hamming_distance",
    "jaccard",
]
#: Columns of the pages CSV.
#: Columns of the keep CSV.
KEEP_COLUMNS = KEEP_PLAN_COLUMNS
#: Output suffixes and the format each one picks.
SUFFIX_FORMATS = {".csv": "csv", ".json": "json", ".html": "html", ".htm": "html", ".pdf": "pdf", ".xlsx": "xlsx"}
#: Suffixes :func:`write_result` accepts (kept for callers of the first version).
FORMATS = tuple(SUFFIX_FORMATS)
#: Formats core renders itself (everything but ``pdf``).
CORE_FORMATS = ("html", "json", "csv", "pages-csv", "keep-csv", "xlsx")
#: Of those, the formats that are text (:func:`render`); ``xlsx`` is a binary file.
TEXT_FORMATS = CORE_FORMATS[:-1]
#: Version of the JSON layout; bumped when a field changes meaning or goes away.  2: the
#: clusters (near-duplicate groups) lost ``keep`` and ``keep_reason``; ``keep_clusters`` say
#: what to keep.
JSON_FORMAT_VERSION = 2


def format_for(path: str | Path, fmt: str | None = None) -> str:
    """The format to write: ``fmt`` if given, else the one ``path``'s suffix picks.

    Args:
        path: the output file.
        fmt: one of ``html``, ``pdf``, ``json``, ``csv``, ``pages-csv``, ``keep-csv``, or ``None``.

    Returns:
        The format name (str).

    Raises:
        ValueError: unknown format, or no format given and an unknown suffix.
    """
    if fmt is not None:
        if fmt not in (*CORE_FORMATS, "pdf"):
            raise ValueError(f"unknown format {fmt!r}: use one of html, pdf, json, csv, pages-csv, keep-csv, xlsx")
        return fmt
    suffix = Path(path).suffix.lower()
    if suffix not in SUFFIX_FORMATS:
        raise ValueError(
            f"unknown output format {suffix or '(no suffix)'!r}: use one of .html, .pdf, .json, .csv, .xlsx"
        )
    return SUFFIX_FORMATS[suffix]


def score_row(scores) -> list[str]:
    """The measure columns of a PREDICTIONS.csv row, formatted.

    Args:
        scores: a :class:`~dedup_gui.core.model.PairScores`.

    Returns:
        ``[content_similarity, content_containment, layout_similarity, hamming_distance,
        jaccard]`` as str, similarities with 4 decimals.
    """
    return [
        f"{format_score(scores.content_similarity, 4)}",
        f"{format_score(scores.content_containment, 4)}",
        f"{format_score(scores.layout_similarity, 4)}",
        str(scores.hamming_distance),
        f"{format_score(scores.jaccard, 4)}",
    ]


def pairs_csv(result: ScanResult, pairs: Sequence[Pair] | None = None) -> str:
    """CSV text with one row per pair that is not distinct: the PREDICTIONS.csv columns plus
    ``cluster`` and ``contained_side`` (``left`` or ``right``: the page whose content lies inside
    the other, which ``content_containment`` measures; empty when the two are about as long or
    were not compared) (:func:`~dedup_gui.core.reports.tables.pair_rows`).

    Args:
        result: the scan.
        pairs: the pairs to write (default: all of ``result.pairs``); distinct ones are left out.

    Returns:
        The CSV text (str, ``\\n`` line ends, header first).
    """
    return csv_text(PAIR_COLUMNS, ([csv_cell(c) for c in row] for row in pair_rows(result, pairs)))


def pages_csv(report: Report) -> str:
    """CSV text with one row per file (:data:`PAGE_COLUMNS`): every page with its verdict, its
    near-duplicate group (``cluster``) and the path of the page its keep cluster keeps (``keep``:
    its own path for a kept page, empty for a page in no keep cluster), then the files that
    could not be used (status ``error``) and the files skipped as not pages (status
    ``skipped``) (:func:`~dedup_gui.core.reports.tables.page_rows`).

    Args:
        report: from :func:`dedup_gui.core.reports.model.build_report`.

    Returns:
        The CSV text (str).
    """
    return csv_text(PAGE_COLUMNS, ([csv_cell(c) for c in row] for row in page_rows(report)))


def keep_csv(report: Report) -> str:
    """CSV text of the keep plan, ``duplicate,keep,type,similarity,reason,canonical_status,
    canonical_note,duplicate_url,keep_url`` (:data:`~dedup_gui.core.reports.tables.KEEP_PLAN_COLUMNS`; tools read the
    first two by name): for each shown keep cluster, one row per page to drop, with the page to
    keep.  Every page to drop is a full or content duplicate of its kept page
    (:mod:`dedup_gui.core.pipeline.keep_clusters`), kept by the result's keep rule.

    Args:
        report: from :func:`dedup_gui.core.reports.model.build_report`; its keep clusters are
            those that hold a shown pair.

    Returns:
        The CSV text (str), rows in keep cluster order (largest first), then duplicate path order.
    """
    return csv_text(KEEP_COLUMNS, ([csv_cell(c) for c in row] for row in keep_plan_rows(report)))


def summary_dict(result: ScanResult) -> dict:
    """Counts of a scan.

    Args:
        result: the scan.

    Returns:
        ``{"pages", "pages_without_text", "errors", "skipped", "pairs_compared",
        "pairs_by_type": {type: n}, "clusters", "seconds"}`` (dict).
    """
    return scan_summary(result)


def _report_dict(report: Report) -> dict:
    r = report.result
    cluster_of = r.cluster_of()
    redirects = report.redirects()
    files = []
    for i, page in enumerate(r.pages):
        redirect = redirects.get(i)
        files.append(
            {
                "path": page.path,
                "status": page_status(page),
                "size_bytes": page.size,
                "sha1": page.sha1,
                "text_hash": page.text_hash,
                "encoding": page.encoding,
                "encoding_source": page.encoding_source,
                "title": page.title,
                "url": page.url,
                "record_date": page.record_date or None,
                "word_count": page.word_count,
                "simhash": page.simhash_hex,
                "cluster": cluster_of.get(i),
                "keep_cluster": report.keep_cluster_of[i].id if i in report.keep_cluster_of else None,
                "notes": list(page.notes),
                "main_text": page.main_text,
                "template_text": page.template_text,
                "also_at": list(r.also_at.get(page.path, ())),
                "redirect": None
                if redirect is None
                else {
                    "target": redirect.target,
                    "kind": redirect.kind,
                    "path": redirect.path if redirect.inside else None,
                    "page": redirect.page or None,
                    "note": redirect.note,
                },  # fmt: skip
            }
        )
    files += [{"path": e.path, "status": "error", "reason": e.reason} for e in r.errors]
    files += [{"path": p, "status": "skipped", "reason": r.skip_reason(p)} for p in r.skipped]
    pairs = []
    keep_of = report.keep_cluster_of
    for pair in report.pairs:
        s = pair.scores
        keep_cluster = keep_of.get(pair.left)
        if keep_cluster is not None and keep_of.get(pair.right) is not keep_cluster:
            keep_cluster = None  # a pair across keep clusters
        pairs.append(
            {
                "left": r.pages[pair.left].path,
                "right": r.pages[pair.right].path,
                "type": pair.type.value,
                "content_similarity": round(s.content_similarity, 6),
                "content_containment": round(s.content_containment, 6),
                "contained_side": s.contained_side or None,
                "layout_similarity": round(s.layout_similarity, 6),
                "hamming_distance": s.hamming_distance,
                "jaccard": round(s.jaccard, 6),
                "identical_bytes": s.identical_bytes,
                "both_have_text": s.both_have_text,
                "cluster": cluster_of.get(pair.left) if pair.type is not DupType.DISTINCT else None,
                "keep_cluster": None if keep_cluster is None else keep_cluster.id,
                "why": explain(s, r.thresholds),
            }
        )
    clusters = [
        {
            "id": e.cluster.id,
            "pages": [r.pages[i].path for i in e.cluster.pages],
            "types": [
                t.value
                for t in (DupType.FULL, DupType.CONTENT, DupType.LAYOUT, DupType.PARTIAL)
                if t in e.cluster.types
            ],
        }
        for e in report.clusters
    ]
    keep_clusters = [
        {
            "id": e.cluster.id,
            "group": e.cluster.group,
            "keep": e.keep.path,
            "keep_reason": e.cluster.reason,
            "duplicates": [
                {
                    "path": row[0],
                    "link": link,
                    "similarity": None if row[3] is None else round(float(row[3]), 6),
                    "canonical_status": row[5],
                    "canonical_note": row[6],
                }
                for (_page, link), row in zip(e.duplicates, plan, strict=True)
            ],
        }
        for e, plan in zip(report.keep_clusters, _plan_by_cluster(report), strict=True)
    ]
    return {
        "format": "dedup-gui-report",
        "format_version": JSON_FORMAT_VERSION,
        "product": "dedup-gui",
        "version": report.version,
        "created": report.created.isoformat(timespec="seconds"),
        "folder": r.root,
        "summary": report.summary(),
        "selection": {"subset": report.subset, "pairs_shown": len(report.pairs), "pairs_total": len(r.pairs)},
        "thresholds": asdict(r.thresholds),
        "settings": asdict(r.settings),
        "keep_rule": keep_rule_text(r.keep_policy),
        "files": files,
        "errors": [{"path": e.path, "reason": e.reason} for e in r.errors],
        "pairs": pairs,
        "clusters": clusters,
        "keep_clusters": keep_clusters,
    }


def _plan_by_cluster(report: Report) -> list[list[list]]:
    """The keep plan's rows (:func:`keep_plan_rows`), one list per keep cluster of ``report``."""
    rows = iter(keep_plan_rows(report))
    return [[next(rows) for _ in e.duplicates] for e in report.keep_clusters]


def result_dict(result: ScanResult, pairs: Sequence[Pair] | None = None) -> dict:
    """Everything in a scan as plain JSON-ready data, following ``resources/report.schema.json``.

    Holds: the product and its version, the folder, the summary, which pairs are shown, the
    thresholds and settings, the keep rule, every file with its verdict (pages with encoding,
    title, URL, word count, SimHash and main text; errors with the reason; skipped files), the
    errors again as a list, the pairs with their measures and the reasons for their type, and
    the clusters with the page to keep.

    Args:
        result: the scan.
        pairs: the pairs to include (default: all, distinct ones too).

    Returns:
        A dict of str, numbers, bools, None, lists and dicts.
    """
    return _report_dict(build_report(result, pairs, excerpt_limit=0))


def _redirects_text(summary: dict) -> str:
    """``", of which 95 are redirect pages, 94 to a page not in the folder"`` for the pages line
    of :func:`summary_text` (``""`` when the scan has no redirect page): redirect pages are among
    the pages without usable text, not beside them (a reader added 109 and 94)."""
    n, missing = summary["redirect_pages"], summary["redirects_to_missing"]
    if not n:
        return ""
    are = "is a redirect page" if n == 1 else "are redirect pages"
    return f", of which {n} {are}, {missing} to a page not in the folder"


def summary_text(result: ScanResult) -> str:
    """A few lines summarising a scan for the terminal.

    Args:
        result: the scan.

    Returns:
        The lines (the near-duplicate groups and the keep clusters on one), joined with
        ``\\n`` (str), errors listed last; the first line names the folder (``archive:`` for one
        WARC file); the folder, paths and
        reasons with their control characters escaped (:func:`~.safe_text.terminal_text`), so a
        file name cannot start a line or recolour the terminal.
    """
    show = terminal_text
    s = summary_dict(result)
    keep = keep_clusters_of(result)
    drops = sum(len(k.duplicates) for k in keep)
    by_type = ", ".join(DupType(t).count_text(n) for t, n in s["pairs_by_type"].items())
    lines = [
        f"{'archive:' if is_archive_root(result.root) else 'folder:':<9} {show(result.root)}",
        (
            f"pages:    {s['pages']} ({s['pages_without_text']} without usable main text{_redirects_text(s)}); "
            f"{s['skipped']} other {'file' if s['skipped'] == 1 else 'files'} skipped"
        ),
        f"errors:   {s['errors']}",
        f"pairs:    {s['pairs_compared']} compared: {by_type}",
        (
            f"groups:   {s['clusters']} near-duplicate group{'' if s['clusters'] == 1 else 's'}; {len(keep)} keep "
            f"cluster{'' if len(keep) == 1 else 's'} ({drops} page{'' if drops == 1 else 's'} to drop)"
        ),
        f"time:     {scan_time_text(result)}",
    ]
    for note in result.notes:
        lines.append(f"  note: {show(note)}")
    for path, reason in result.skipped_for_reasons():
        lines.append(f"  skipped: {show(path)}: {show(reason)}")
    for err in result.errors:
        lines.append(f"  error: {show(err.path)}: {show(err.reason)}")
    return "\n".join(lines)


def html_report(result: ScanResult, pairs: Sequence[Pair] | None = None, progress: Progress | None = None) -> str:
    """The self-contained HTML report (nothing remote, page strings escaped, one script of our own
    pinned by its CSP hash that sorts and filters the tables).

    Args:
        result: the scan.
        pairs: the pairs to show (default: all).
        progress: receives progress; may cancel.

    Returns:
        The HTML document (str).

    Raises:
        ScanCancelled: ``progress`` was cancelled.
    """
    return html_from_report(build_report(result, pairs, progress))


def render(report: Report, fmt: str) -> str:
    """Render a report in one of the :data:`TEXT_FORMATS`.

    Args:
        report: from :func:`dedup_gui.core.reports.model.build_report`.
        fmt: ``html``, ``json``, ``csv``, ``pages-csv`` or ``keep-csv``.

    Returns:
        The file's text (str).

    Raises:
        ValueError: ``fmt`` is not a core format (``pdf`` is made by :mod:`dedup_gui.export.pdf`).
    """
    if fmt == "csv":
        return pairs_csv(report.result, report.pairs)
    if fmt == "pages-csv":
        return pages_csv(report)
    if fmt == "keep-csv":
        return keep_csv(report)
    if fmt == "json":
        return json.dumps(_report_dict(report), ensure_ascii=False, indent=1) + "\n"
    if fmt == "html":
        return html_from_report(report)
    raise ValueError(f"format {fmt!r} is not text rendered by core: use one of {', '.join(TEXT_FORMATS)}")


def write_result(
    result: ScanResult,
    path: str | Path,
    fmt: str | None = None,
    pairs: Sequence[Pair] | None = None,
    progress: Progress | None = None,
) -> Path:
    """Write a scan result in a core format, atomically.

    Args:
        result: the scan.
        path: the output file.
        fmt: the format (see :func:`format_for`); by default ``path``'s suffix picks it
            (``.csv``, ``.json``, ``.html``).
        pairs: the pairs to write (default: all).
        progress: receives progress; may cancel.

    Returns:
        The path written.

    Raises:
        ValueError: unknown format, or ``pdf`` (use :func:`dedup_gui.export.export`).
        ExportError: the file cannot be written (an ``OSError``; nothing is left half-written).
        ScanCancelled: ``progress`` was cancelled; no file is written.
    """
    fmt = format_for(path, fmt)
    if fmt == "pdf":
        raise ValueError("PDF is written by dedup_gui.export.export (it needs Qt), not by core")
    report = build_report(result, pairs, progress, excerpt_limit=excerpts_needed(fmt))
    if fmt == "xlsx":
        return atomic_write_bytes(path, xlsx_bytes(report, progress))
    return atomic_write_text(path, render(report, fmt))


def excerpts_needed(fmt: str) -> int:
    """How many diff excerpts a format prints (int): :data:`EXCERPT_LIMIT` for the HTML and PDF
    reports, none for the rest (so CSV and JSON exports skip the diffs)."""
    return EXCERPT_LIMIT if fmt in ("html", "pdf") else 0
