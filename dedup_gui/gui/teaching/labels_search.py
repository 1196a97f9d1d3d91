"""The labels CSV that belongs to a scan, looked for off the GUI thread, for the method comparison
tab (:mod:`.methods_view`).

:func:`dedup_gui.core.evaluation.scan_labels.find_scan_labels` reads every CSV of up to 20 MB in the
scanned folder and its parent: on the GUI thread, a parent folder with large CSVs stalled the
window at every scan.  :class:`LabelsSearch` runs it on the thread pool through a
:class:`~dedup_gui.gui.inspector.jobs.LatestJob` (a newer scan supersedes an older search, whose
late answer is dropped), once per scan: a re-classification keeps the scan's pages list, and
with it the answer.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from dedup_gui.core.evaluation.scan_labels import ScanLabels, find_scan_labels
from dedup_gui.core.model import Page, ScanResult
from dedup_gui.gui.inspector.jobs import LatestJob

#: What the tab says while the search runs.
SEARCHING_NOTE = "labels: looking for a labels CSV in the scanned folder and its parent…"


def labels_note(found: ScanLabels | Exception | None) -> str:
    """The tab's line on a search's answer (str).

    Args:
        found: the labels file found, ``None`` if none fits, or the exception the search raised.
    """
    if isinstance(found, ScanLabels):
        within = "" if found.in_scan == found.pairs else f", {found.in_scan:,} of them in the scan"
        # "found beside the scanned folder" for ../labels.csv read as "in it" (a tester)
        where = "in the scanned folder's parent" if found.shown.startswith("../") else "in the scanned folder"
        return f"labels: {found.shown} ({found.pairs:,} pairs{within}), found {where}"
    if found is None:
        return (
            "labels: no labels CSV in the scanned folder or its parent names its pages; choose one with “Labels CSV…”"
        )
    return f"labels: could not look for a labels CSV ({found}); choose one with “Labels CSV…”"


class LabelsSearch(QObject):
    """Looks for a scan's labels CSV (:func:`~dedup_gui.core.evaluation.scan_labels.find_scan_labels`)
    on the thread pool, at most once per scan.

    Args:
        parent: the Qt parent (the view); the search object lives in the GUI thread.

    Signals:
        found(object): the newest scan's answer, in the GUI thread: a
            :class:`~dedup_gui.core.evaluation.scan_labels.ScanLabels`, ``None`` (no file fits), or
            the exception the search raised (not expected: unreadable files are passed over).

    Attributes:
        answer: the last answer delivered (as in ``found``); meaningful once :meth:`look` says so.
    """

    found = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._root: str | None = None
        # the scan's pages list, held and compared by identity: an id() alone could be reused
        # by the next scan's list once this one is freed
        self._pages: list[Page] | None = None
        self._done = False
        self.answer: ScanLabels | Exception | None = None
        self._job = LatestJob(self)
        self._job.finished.connect(self._deliver)
        self._job.failed.connect(self._deliver)

    def look(self, result: ScanResult) -> bool:
        """Start looking for ``result``'s labels unless this scan's search ran or runs already.

        Returns:
            ``True`` if the answer for this scan is known (:attr:`answer`); ``False`` if it comes
            later through ``found`` (bool).
        """
        if result.root == self._root and result.pages is self._pages:
            return self._done
        self._root, self._pages, self._done, self.answer = result.root, result.pages, False, None
        self._job.submit(find_scan_labels, result)
        return False

    def cancel(self) -> None:
        """Drop the running search's answer and forget the last scan."""
        self._root, self._pages, self._done = None, None, False
        self._job.cancel()

    def is_running(self) -> bool:
        """``True`` while the newest scan's search runs (bool)."""
        return self._job.is_running()

    def _deliver(self, answer: ScanLabels | Exception | None) -> None:
        self._done, self.answer = True, answer
        self.found.emit(answer)
