"""The main window and the human labels of its scan: the labels CSV of the scanned folder
(:func:`~dedup_gui.core.evaluation.scan_labels.find_scan_labels`, looked for off the GUI thread
after every scan, as the method comparison looks for it) or the one the method comparison ran
on gives the pairs table its "Label" column and its "Differs from label (N)" filter; and a
labelled pair of the method comparison's confusion matrix is shown here
(:meth:`WindowLabels.show_labelled_pair`).

A mixin of :class:`~dedup_gui.gui.main_window.MainWindow` (kept apart so that the window module
holds the views and their synchronization).
"""

from __future__ import annotations

from pathlib import Path

from dedup_gui.core.evaluation.pair_labels import locate_labelled_pair, read_scan_labels
from dedup_gui.core.evaluation.scan_labels import ScanLabels
from dedup_gui.gui.teaching.labels_search import LabelsSearch


class WindowLabels:
    """The main window's labels: a mixin before ``QMainWindow`` in
    :class:`~dedup_gui.gui.main_window.MainWindow`, which sets the views and ``result`` these
    methods use, and calls :meth:`_connect_labels` once its views exist."""

    def _connect_labels(self) -> None:
        self.labels_search = LabelsSearch(self)
        self.labels_search.found.connect(self._labels_found)
        self.pairs_model.modelReset.connect(self._look_for_labels)  # a new scan's result

    def _look_for_labels(self) -> None:
        if self.result is None:
            self.labels_search.cancel()
            return
        self.labels_search.look(self.result)  # once per scan; a rescan keeps the labels meanwhile

    def _labels_found(self, answer: ScanLabels | Exception | None) -> None:
        if isinstance(answer, ScanLabels):
            self.use_labels(answer.path, quiet=True)
        elif self.pairs_model.has_labels() and self.result is not None:
            self.pairs_model.set_labels(None)  # the rescanned folder's labels file is gone

    def use_labels(self, labels_csv: str | Path, quiet: bool = False) -> str:
        """Give the pairs table the labels of ``labels_csv`` (paths relative to its folder) for
        the pairs of the scan shown: its Label column and "Differs from label (N)" filter.

        Args:
            labels_csv: a labels CSV (columns left, right, type).
            quiet: say nothing in the status line when it went well (bool).

        Returns:
            What the status line says (str), e.g. ``"Labels: labels.csv labels 120 pairs of the
            scan; 7 pairs' types differ from their labels"``; a file that cannot be read or
            names no page of the scan changes nothing and says so.
        """
        if self.result is None:
            return ""
        name = Path(labels_csv).name
        try:
            labels = read_scan_labels(labels_csv, self.result.root)
        except (OSError, ValueError) as exc:
            said = f"Labels: could not read {name}: {exc}"
            self.statusBar().showMessage(said, 10000)
            return said
        if not labels:
            said = f"Labels: {name} labels no pair of this scan's pages"
            self.statusBar().showMessage(said, 10000)
            return said
        self.pairs_model.set_labels(labels, self.result.root)
        self._show_pair(self.pairs_panel.current_record())  # "Why this type" names its label
        differ = self.pairs_model.differs_count() or 0
        said = (f"Labels: {name} labels {len(labels):,} pairs of the scan's pages; "
                f"{differ:,} candidate pairs' types differ from their labels")  # fmt: skip
        if not quiet:
            self.statusBar().showMessage(said, 10000)
        return said

    def show_labelled_pair(self, labels_csv: Path, left: str, right: str) -> str:
        """Select the labelled pair ``left``, ``right`` (paths of ``labels_csv``) in the pairs
        table, which the inspector then shows; the filters that hid it are cleared (the status
        line says so).  A pair the scan never compared, or pages not in the scan, change
        nothing: the status line says why.

        Returns:
            What the status line says (str).
        """
        place = locate_labelled_pair(self.result, labels_csv, left, right)
        said = place.message
        if place.record is not None:
            hidden = self.pairs_model.row_of(place.record) < 0
            if not self.select_pair(place.record):
                said = f"{said[:-1]}, but the pairs table could not select it."
            elif hidden:
                said = f"{said[:-1]} (the table's filters hid it and were cleared)."
            self.raise_()
            self.activateWindow()
        self.statusBar().showMessage(said, 15000)
        return said
