"""Export a scan in any report format: the one entry point for the GUI's File > Export and the CLI.

Formats (:data:`EXPORT_FORMATS`):

===========  ===========================================================  ===============
format       contents                                                      default suffix
===========  ===========================================================  ===============
html         self-contained report for people (nothing remote, sortable)   ``.html``
pdf          the same report as PDF, numbered pages, charts                ``.pdf``
json         everything, following ``resources/report.schema.json``        ``.json``
csv          duplicate pairs: PREDICTIONS.csv columns + ``cluster``        ``.csv``
pages-csv    one row per file: verdict, group, page to keep                ``.csv``
keep-csv     ``duplicate,keep``: each page to drop, the page to keep       ``.csv``
xlsx         Summary, Pairs, Pages, Clusters, Keep plan sheets             ``.xlsx``
===========  ===========================================================  ===============

Without ``fmt`` the suffix picks the format (``.csv`` is the pairs CSV).  ``pairs`` limits the
export to a subset, e.g. the pairs the GUI's filters show.  Writing is atomic: a failed or
cancelled export leaves no half-written file and never damages an existing one.

Example (GUI, in a worker thread)::

    export(result, "/home/me/report.pdf", pairs=visible_pairs, progress=job_progress)
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from dedup_gui.core.atomic import ExportError, atomic_write_bytes, check_writable
from dedup_gui.core.model import Pair, ScanResult
from dedup_gui.core.progress import Progress
from dedup_gui.core.reports.model import build_report
from dedup_gui.core.reports.write import excerpts_needed, format_for, write_result

__all__ = ["DEFAULT_NAMES", "EXPORT_FORMATS", "ExportError", "check_writable", "default_suffix", "export", "format_for"]

#: Every export format with a short description, in menu order (for a "Save as type" list).
EXPORT_FORMATS = {
    "html": "HTML report (*.html)",
    "pdf": "PDF report (*.pdf)",
    "json": "JSON, everything (*.json)",
    "csv": "CSV of duplicate pairs (*.csv)",
    "pages-csv": "CSV of pages (*.csv)",
    "keep-csv": "Keep plan CSV: each page to drop, with the page to keep (*.csv)",
    "xlsx": "Excel workbook: summary, pairs, pages, clusters, keep plan (*.xlsx)",
}
_SUFFIX = {
    "html": ".html",
    "pdf": ".pdf",
    "json": ".json",
    "csv": ".csv",
    "pages-csv": ".csv",
    "keep-csv": ".csv",
    "xlsx": ".xlsx",
}


#: Each format's default file name, so two CSVs do not take each other's name.
DEFAULT_NAMES = {
    "html": "duplicates-report.html",
    "pdf": "duplicates-report.pdf",
    "json": "duplicates-report.json",
    "csv": "duplicate-pairs.csv",
    "pages-csv": "pages.csv",
    "keep-csv": "keep-plan.csv",
    "xlsx": "duplicates-report.xlsx",
}


def default_name(fmt: str, scanned: str | Path = "") -> str:
    """The file name an export of format ``fmt`` is offered under: named after the scanned
    folder ``scanned`` when given, e.g. ``"site-duplicates.html"``, ``"site-keep-plan.csv"``
    (a WARC file's name without ``.warc.gz``), else :data:`DEFAULT_NAMES` (str).

    Raises:
        KeyError: an unknown format.
    """
    name = DEFAULT_NAMES[fmt]
    stem = Path(scanned).name
    for suffix in (".warc.gz", ".warc"):
        if stem.lower().endswith(suffix):
            stem = stem[: -len(suffix)]
    if not stem:
        return name
    return f"{stem}-{name.replace('duplicates-report', 'duplicates')}"


def default_suffix(fmt: str) -> str:
    """The usual file suffix of a format, e.g. ``".pdf"`` (str).

    Raises:
        KeyError: unknown format.
    """
    return _SUFFIX[fmt]


def export(
    result: ScanResult,
    path: str | Path,
    fmt: str | None = None,
    pairs: Sequence[Pair] | None = None,
    progress: Progress | None = None,
    pdf_pages: int = 30,
) -> Path:
    """Write a report of a scan.

    Args:
        result: the scan.
        path: the file to write (its folder must exist).
        fmt: a key of :data:`EXPORT_FORMATS`; ``None`` lets the suffix of ``path`` choose
            (``.html``/``.htm``, ``.pdf``, ``.json``, ``.csv`` = pairs CSV).
        pairs: the pairs to include, in order (e.g. what the GUI's filters show); ``None`` for
            all.  The summary still counts the whole scan; clusters are those of the shown pairs.
        progress: receives ``"writing the report"`` progress; its cancel stops the export.
        pdf_pages: (PDF only) the most pages of the PDF (int >= 1, default 30): its lists are
            shortened to fit (:func:`dedup_gui.export.pdf.pdf_bytes`).

    Returns:
        The path written (:class:`~pathlib.Path`).

    Raises:
        ValueError: unknown format or suffix, or ``pdf_pages`` below 1.
        ExportError: the file cannot be written (an ``OSError`` whose message says why: missing
            folder, read-only place, disk full); nothing is left half-written.
        ScanCancelled: cancelled through ``progress``; no file is written, an existing one is
            untouched.
        RuntimeError: (PDF only) Qt cannot draw, or no font for Chinese text can be found.
    """
    fmt = format_for(path, fmt)
    if fmt != "pdf":  # one write path for the core formats: core's own
        return write_result(result, path, fmt, pairs, progress)
    from dedup_gui.export.pdf import pdf_bytes  # Qt is imported only for a PDF

    report = build_report(result, pairs, progress, excerpt_limit=excerpts_needed(fmt))
    return atomic_write_bytes(path, pdf_bytes(report, progress, pdf_pages))
