"""The labels file that belongs to a scanned folder, for the teaching window's method comparison.

The rule: a CSV file in the scanned folder or in its parent folder (not below) is the scan's
labels when it reads as a ``LABELS.csv`` with the columns the comparison needs (``left``,
``right`` and ``type``, paths relative to its folder, at least one pair labelled;
:func:`dedup_gui.core.evaluation.evaluate.read_labels`), is not one of the scan's own
outputs (a PREDICTIONS.csv or pairs CSV, which carry the measures), and at least half of its
pairs name two pages of the scan.  Of several, the one with the most such pairs wins (the
scanned folder's before its parent's, then by name).  Scanning ``shared/pairs/pages`` finds
``shared/pairs/labels.csv`` (``pages/…`` paths); scanning the bundled samples finds their
``EXPECTED.csv``.  A list of pairs without types (a ``labels.csv`` of ``left,right`` beside a
``labels_full.csv`` that has them) is passed over: the comparison could not score it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from dedup_gui.core.evaluation.evaluate import LabeledPair, read_labels
from dedup_gui.core.model import ScanResult

#: Columns that mark a CSV as the app's own output (PREDICTIONS.csv, the scan's pairs CSV): its
#: types are predictions, not labels.
MEASURE_COLUMNS = ("content_similarity", "content_containment", "layout_similarity", "hamming_distance", "jaccard")
#: Files larger than this are not read as labels (bytes): a labels file is hand-made and small.
MAX_LABELS_BYTES = 20_000_000
#: The share of a file's pairs that must name two pages of the scan.
MIN_SHARE = 0.5


@dataclass(frozen=True)
class ScanLabels:
    """A labels file found for a scan.

    Attributes:
        path: the CSV file (absolute Path).
        shown: its path as written relative to the scanned folder (``"labels.csv"``,
            ``"../labels.csv"``).
        pairs: the labelled pairs in the file (int).
        in_scan: of those, the pairs both of whose pages are pages of the scan (int).
    """

    path: Path
    shown: str
    pairs: int
    in_scan: int


def _header(path: Path) -> list[str]:
    with open(path, encoding="utf-8-sig", errors="replace") as fh:
        return [c.strip().strip('"').lower() for c in fh.readline().split(",")]


def _scan_path(folder: Path, path: str, root: Path) -> str | None:
    """A labels path (relative to ``folder``) as a page path of the scan, or ``None`` if outside."""
    full = Path(os.path.normpath(folder / path))
    try:
        return full.relative_to(root).as_posix()
    except ValueError:
        return None


def _count(pairs: list[LabeledPair], folder: Path, root: Path, paths: set[str]) -> int:
    return sum(
        1 for p in pairs if _scan_path(folder, p.left, root) in paths and _scan_path(folder, p.right, root) in paths
    )


def find_scan_labels(result: ScanResult) -> ScanLabels | None:
    """The labels CSV of the scanned folder by the rule of this module, or ``None`` if none fits.

    Args:
        result: a finished scan (its ``root`` and page paths are used; errors count as pages).

    Returns:
        The :class:`ScanLabels`, or ``None``.  Files that cannot be read or are no labels
        file are passed over; nothing is written.
    """
    root = Path(os.path.normpath(os.path.abspath(result.root)))
    if not root.is_dir():  # a WARC file: its records have no paths a labels file names
        return None
    paths = {p.path for p in result.pages} | {e.path for e in result.errors}
    found: list[tuple[int, int, str, ScanLabels]] = []
    for rank, (folder, prefix) in enumerate(((root, ""), (root.parent, "../"))):
        try:
            candidates = sorted(p for p in folder.glob("*.csv") if p.is_file())
        except OSError:
            continue
        for path in candidates:
            try:
                if path.stat().st_size > MAX_LABELS_BYTES:
                    continue
                header = set(_header(path))
                if set(MEASURE_COLUMNS) & header or "type" not in header:  # output, or no types to score
                    continue
                pairs = read_labels(path)
            except (OSError, ValueError):
                continue
            if all(p.label is None for p in pairs):  # a type column left empty: nothing to score
                continue
            in_scan = _count(pairs, folder, root, paths)
            if pairs and in_scan >= 1 and in_scan >= MIN_SHARE * len(pairs):
                found.append((-in_scan, rank, path.name, ScanLabels(path, prefix + path.name, len(pairs), in_scan)))
    return min(found, key=lambda f: f[:3])[3] if found else None
