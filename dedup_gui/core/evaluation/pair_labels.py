"""A labels CSV (:mod:`.scan_labels`) read against a scan: its pairs by the scan's page paths,
for the pairs table's "Label" column (:mod:`dedup_gui.core.views.label_filter`), and a
labelled pair of the method comparison found among the scan's candidate pairs.

A labels file names pages relative to its own folder (``pages/a.html`` beside the scanned
folder ``pages``); the scan names them relative to the scanned folder (``a.html``): the
functions here translate.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from dedup_gui.core.evaluation.evaluate import read_labels
from dedup_gui.core.model import DupType, ScanResult
from dedup_gui.core.views.label_filter import PairKey, pair_key
from dedup_gui.core.views.selection import find_pair


def scan_path(labels_csv: str | Path, path: str, root: str | Path) -> str | None:
    """A path of the labels file (relative to its folder) as a page path of the scan (relative
    to ``root``, ``/`` separators), or ``None`` when it lies outside the scanned folder.

    Args:
        labels_csv: the labels file.
        path: a ``left`` or ``right`` cell of it (``/`` or ``\\`` separators).
        root: the scanned folder.

    Example:
        >>> scan_path("/d/labels.csv", "pages/a.html", "/d/pages")
        'a.html'
    """
    folder = Path(os.path.abspath(labels_csv)).parent
    full = Path(os.path.normpath(folder / path.replace("\\", "/")))
    try:
        return full.relative_to(Path(os.path.normpath(os.path.abspath(root)))).as_posix()
    except ValueError:
        return None


def outside_scan_note(labels_csv: str | Path, pairs: list, root: str | Path | None) -> str:
    """A note when no labelled pair of a labels file lies in the scanned folder ("" otherwise, or
    without a scan): the method comparison scores the file's own pages, and its figures, shown in
    the window of that scan, read as the scan's (a tester).

    Args:
        labels_csv: the labels file.
        pairs: its labelled pairs (objects with ``left`` and ``right`` paths, as the file writes them).
        root: the scanned folder, or ``None``.
    """
    if root is None or not pairs:
        return ""
    for pair in pairs:
        if scan_path(labels_csv, pair.left, root) is not None and scan_path(labels_csv, pair.right, root) is not None:
            return ""
    return "; none of its pages is in the scanned folder: these figures are of the file's own pages, not of the scan"


def read_scan_labels(labels_csv: str | Path, root: str | Path) -> dict[PairKey, DupType]:
    """The labelled pairs of a labels file whose two pages lie in the scanned folder, by
    :func:`pair_key` of their scan paths (pairs without a type are left out).

    Args:
        labels_csv: the labels CSV (columns ``left``, ``right``, ``type``;
            :func:`~dedup_gui.core.evaluation.evaluate.read_labels`).
        root: the scanned folder.

    Returns:
        dict[PairKey, DupType]; a pair labelled twice keeps its last label.

    Raises:
        OSError: the file cannot be read.
        ValueError: it is no labels file (:func:`~dedup_gui.core.evaluation.evaluate.read_labels`).
    """
    out: dict[PairKey, DupType] = {}
    for labelled in read_labels(labels_csv):
        left, right = scan_path(labels_csv, labelled.left, root), scan_path(labels_csv, labelled.right, root)
        if labelled.label is not None and left is not None and right is not None:
            out[pair_key(left, right)] = labelled.label
    return out


@dataclass(frozen=True)
class LabelledPairPlace:
    """Where a labelled pair is among a scan's pairs.

    Attributes:
        record: its index in ``result.pairs`` (int), or ``None`` when it is not a pair of the scan.
        message: what to tell the user: which pair is shown, or why none is (str).
    """

    record: int | None
    message: str


def locate_labelled_pair(result: ScanResult | None, labels_csv: str | Path, left: str, right: str) -> LabelledPairPlace:
    """Find the labelled pair ``left``, ``right`` (paths of the labels file) among the scan's
    candidate pairs.

    Args:
        result: the scan the window shows, or ``None``.
        labels_csv: the labels file the paths are relative to.
        left, right: the pair's paths as the labels file writes them.

    Returns:
        A :class:`LabelledPairPlace`: the record and ``"Showing the labelled pair a.html and
        b.html"``, or no record and why: no scan, a page outside the scanned folder or not
        one of its pages, or a pair the scan never compared ("not a candidate pair": its
        pages were too different to be compared, or the scan compared only near ones).
    """
    name = f"{left} and {right}"
    if result is None:
        return LabelledPairPlace(None, f"The labelled pair {name} cannot be shown: no scan is shown.")
    paths = [scan_path(labels_csv, p, result.root) for p in (left, right)]
    pages = {p.path for p in result.pages}
    missing = [shown for shown, path in zip((left, right), paths, strict=True) if path is None or path not in pages]
    if missing:
        return LabelledPairPlace(
            None, f"The labelled pair {name} is not in this scan: {' and '.join(missing)} is not one of its pages."
        )
    assert paths[0] is not None and paths[1] is not None  # none missing
    record = find_pair(result, paths[0], paths[1])
    if record is None:
        return LabelledPairPlace(
            None,
            f"The labelled pair {paths[0]} and {paths[1]} was not a candidate pair in this scan "
            "(the scan never compared its pages), so the pairs table has no row for it.",
        )
    return LabelledPairPlace(record, f"Showing the labelled pair {paths[0]} and {paths[1]}.")
