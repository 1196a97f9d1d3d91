"""The ignore list, without Qt: pairs of pages the user marked "not a duplicate" (dupeGuru's
"Add to Ignore List"), applied to a result, edited, and exported or imported as CSV.

The list is :attr:`~dedup_gui.core.model.ScanResult.not_duplicates` (page paths, order-free
pairs).  A new list is applied by re-classifying under the result's own thresholds
(:func:`~dedup_gui.core.pipeline.classify.reclassify`, which makes each marked pair ``DISTINCT``
with :attr:`~dedup_gui.core.model.Pair.not_duplicate` set); the keep clusters never hold both
pages of a marked pair (:mod:`dedup_gui.core.pipeline.not_duplicates`).  Re-classification under
other thresholds keeps the list, so a mark survives threshold changes; the window stores the
list per folder with the keep choices (:mod:`dedup_gui.core.views.decisions`) and applies it to
every later scan of the folder, so a mark survives rescans.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Collection, Iterable
from dataclasses import replace
from pathlib import Path, PureWindowsPath

from dedup_gui.core.columns import pair_columns
from dedup_gui.core.model import ScanResult, Thresholds, path_pair
from dedup_gui.core.pipeline.classify import reclassify
from dedup_gui.core.pipeline.decoding import decode_html
from dedup_gui.core.pipeline.keep_clusters import keep_clusters_of
from dedup_gui.core.safe_text import csv_text, from_spreadsheet_cell
from dedup_gui.core.views.decisions import keep_cluster_of_page

#: The ignore list CSV's header.
CSV_HEADER = ("left", "right")

PathPairs = tuple[tuple[str, str], ...]


def normalized(pairs: Iterable[tuple[str, str]]) -> PathPairs:
    """``pairs`` as an ignore list: each pair :func:`~dedup_gui.core.model.path_pair` (smaller
    path first), without repeats, sorted (tuple[tuple[str, str], ...]).

    Raises:
        ValueError: a pair of one path with itself.
    """
    return tuple(sorted({path_pair(a, b) for a, b in pairs}))


def marking_pair(result: ScanResult, index: int) -> PathPairs:
    """``result``'s ignore list with pair ``index`` (into ``result.pairs``) added.

    Raises:
        ValueError: no such pair.
    """
    if not 0 <= index < len(result.pairs):
        raise ValueError(f"no pair {index} in this scan")
    pair = result.pairs[index]
    paths = result.pages[pair.left].path, result.pages[pair.right].path
    return normalized((*result.not_duplicates, paths))


def marking_page_against_cluster(result: ScanResult, page: int) -> PathPairs:
    """``result``'s ignore list with page ``page`` (index into ``result.pages``) marked "not a
    duplicate" of every other page of its keep cluster: the page then leaves the cluster (a
    kept page's cluster falls apart into what its other pages still link).

    Raises:
        ValueError: no such page, or it is in no keep cluster.
    """
    if not 0 <= page < len(result.pages):
        raise ValueError(f"no page {page} in this scan")
    cluster = keep_cluster_of_page(result, page)
    if cluster is None:
        raise ValueError(f"{result.pages[page].path} is in no keep cluster")
    path = result.pages[page].path
    return normalized((*result.not_duplicates, *((path, result.pages[q].path) for q in cluster.pages if q != page)))


def unmarking(result: ScanResult, pairs: Iterable[tuple[str, str]]) -> PathPairs:
    """``result``'s ignore list without ``pairs`` (in either order; pairs not in it are
    harmless) (tuple[tuple[str, str], ...])."""
    gone = set(normalized(pairs))
    return tuple(p for p in result.not_duplicates if p not in gone)


def with_not_duplicates(result: ScanResult, pairs: Iterable[tuple[str, str]]) -> ScanResult:
    """``result`` with ignore list ``pairs``: its pairs re-typed under its own thresholds (the
    marked ones ``DISTINCT``, the unmarked ones by their measures again), its groups, pair
    columns and keep clusters built now (off the window's thread).

    Returns:
        A new :class:`ScanResult` (``result`` itself when the list is unchanged).
    """
    marked = normalized(pairs)
    if marked == result.not_duplicates:
        return result
    new = reclassify(replace(result, not_duplicates=marked), result.thresholds)
    pair_columns(new).build_all()
    keep_clusters_of(new)
    return new


def renot(shown: ScanResult, scan: ScanResult, pairs: PathPairs, thresholds: Thresholds) -> ScanResult:
    """The result to show once the ignore list is ``pairs``: ``shown`` with it when ``shown``
    is classified under ``thresholds``, else the scan's own result ``scan`` re-classified under
    them with it (a threshold change not yet shown is not lost).

    Returns:
        A :class:`ScanResult` with its pair columns and keep clusters built.
    """
    if shown.thresholds == thresholds:
        return with_not_duplicates(shown, pairs)
    new = reclassify(replace(scan, not_duplicates=normalized(pairs)), thresholds)
    pair_columns(new).build_all()
    keep_clusters_of(new)
    return new


def ignore_list_csv(pairs: Iterable[tuple[str, str]]) -> str:
    """The ignore list as CSV: header ``left,right``, one pair per row, every cell
    spreadsheet-safe (:func:`~dedup_gui.core.safe_text.csv_text`: ``=HYPERLINK(...)`` is written
    ``'=HYPERLINK(...)``) (str)."""
    return csv_text(CSV_HEADER, normalized(pairs))


def read_ignore_list_csv(text: str) -> PathPairs:
    """The pairs of an ignore list CSV (as :func:`ignore_list_csv` writes, or a spreadsheet
    saves it: a BOM, other columns and blank rows are allowed; the apostrophe before a path
    that starts with a formula character is removed, :func:`~dedup_gui.core.safe_text.from_spreadsheet_cell`).

    Args:
        text: the file's text.

    Returns:
        The pairs, :func:`normalized` (tuple[tuple[str, str], ...]).

    Raises:
        ValueError: no ``left`` and ``right`` columns, or a row with an empty path, the same
            path twice, an absolute path or a ``..`` segment (no page of a scan has one: page
            paths are relative to the scanned folder and inside it); the message names the
            line; nothing is imported then.
    """
    reader = csv.DictReader(io.StringIO(text.removeprefix("\ufeff"), newline=""))
    fields = [(f or "").strip() for f in reader.fieldnames or []]
    if "left" not in fields or "right" not in fields:
        raise ValueError(f"an ignore list needs columns 'left' and 'right' (found: {', '.join(fields) or 'none'})")
    pairs = []
    for row in reader:
        cells = {(k or "").strip(): v for k, v in row.items() if isinstance(v, str)}
        left, right = (from_spreadsheet_cell(cells.get(c) or "") for c in CSV_HEADER)
        if not left and not right and not any(cells.values()):
            continue  # a blank row
        line = reader.line_num
        if not left or not right:
            raise ValueError(f"line {line}: empty 'left' or 'right'")
        if left == right:
            raise ValueError(f"line {line}: the same page twice ({left})")
        for path in (left, right):
            problem = _path_problem(path)
            if problem:
                raise ValueError(f"line {line}: {path} {problem}, not a page path inside the scanned folder")
        pairs.append((left, right))
    return normalized(pairs)


def _path_problem(path: str) -> str:
    """Why ``path`` can be no page path (an absolute path, a ``..`` segment), or ``""``."""
    if path.startswith(("/", "\\")) or PureWindowsPath(path).is_absolute():
        return "is an absolute path"
    if ".." in path.replace("\\", "/").split("/"):
        return "goes up a folder (..)"
    return ""


def csv_file_text(data: bytes) -> str:
    """The text of a CSV file's bytes, decoded as the scan decodes an undeclared page
    (:func:`~dedup_gui.core.pipeline.decoding.decode_html`: a BOM, UTF-16, UTF-8, else
    charset-normalizer's detection, Windows-1252 where about as likely, as browsers do): a
    spreadsheet's Latin-1 or Windows-1252 export reads as its text.

    Args:
        data: the file's bytes.

    Returns:
        The text (str).

    Raises:
        ValueError: bytes no encoding reads (counted), or NUL characters (a binary file).
    """
    decoded = decode_html(data)
    if decoded.replaced or "\x00" in decoded.text:
        raise ValueError("not text: neither UTF-8 nor another text encoding reads it (is it a CSV file?)")
    return decoded.text


def read_ignore_list_file(path: str | Path) -> PathPairs:
    """The pairs of the ignore list CSV file ``path`` (:func:`csv_file_text`, then
    :func:`read_ignore_list_csv`).

    Raises:
        OSError: the file cannot be read.
        ValueError: it is no text, or no ignore list (the message says why).
    """
    return read_ignore_list_csv(csv_file_text(Path(path).read_bytes()))


def split_by_pages(pairs: Iterable[tuple[str, str]], pages: Collection[str]) -> tuple[PathPairs, PathPairs]:
    """``pairs`` parted into those whose two paths are pages of the scan and those that name a
    path that is not (a list from another folder, a typo, a deleted page).

    Args:
        pairs: the imported pairs.
        pages: the scan's page paths (a set is fastest).

    Returns:
        ``(known, unknown)``, each :func:`normalized` (tuple[PathPairs, PathPairs]).
    """
    pairs = normalized(pairs)
    known = tuple(p for p in pairs if p[0] in pages and p[1] in pages)
    return known, tuple(p for p in pairs if not (p[0] in pages and p[1] in pages))
