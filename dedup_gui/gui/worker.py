"""Running a scan off the GUI thread, with progress signals and cancel.

:class:`ScanThread` calls the engine's ``scan_folder`` in a ``QThread`` with a
:class:`QtProgress`, whose :meth:`~QtProgress.update` emits a Qt signal (delivered queued to
the GUI thread) and whose :meth:`~QtProgress.cancelled` reads a
:class:`~dedup_gui.core.progress.CancelToken`.  Every signal carries the scan's id, so the
window can ignore a scan it has superseded.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QThread, Signal

from dedup_gui.core.model import ScanResult, ScanSettings, Thresholds
from dedup_gui.core.pipeline.scan import scan_folder as engine_scan_folder
from dedup_gui.core.progress import CancelToken, Progress, ScanCancelled
from dedup_gui.gui.inspector.jobs import gc_pause

#: The signature of ``dedup_gui.core.pipeline.scan.scan_folder``.
ScanFunction = Callable[[str | Path, ScanSettings | None, Thresholds | None, Progress | None], ScanResult]


def scan_folder(
    root: str | Path,
    settings: ScanSettings | None = None,
    thresholds: Thresholds | None = None,
    progress: Progress | None = None,
) -> ScanResult:
    """Run the engine's :func:`dedup_gui.core.pipeline.scan.scan_folder`.

    Returns:
        the :class:`ScanResult`.  Raises ``ScanCancelled`` when ``progress`` is cancelled.
    """
    return engine_scan_folder(root, settings=settings, thresholds=thresholds, progress=progress)


class QtProgress(QObject):
    """A :class:`~dedup_gui.core.progress.Progress` that forwards updates as a Qt signal.

    Updates are throttled: one per ``min_interval`` seconds, plus the first of each stage and
    the last (``done >= total``), so a scan of 100,000 files does not flood the event loop.

    Args:
        scan_id: the id the signal carries (int).
        token: the :class:`CancelToken` that :meth:`cancelled` reads.
        min_interval: seconds between two forwarded updates of the same stage (float).
        clock: a monotonic clock in seconds (for tests).

    Signals:
        updated(int, str, int, int, str): scan id, stage, done, total, and the detail (the
            slow items in flight, ``""`` for none; see ``core.progress.Progress.update``).
        worked(int, str, object, object): scan id, stage, and the stage's work done and total
            (ints; the reading step's bytes, see ``core.progress.report_work``), emitted just
            before the ``updated`` of the same moment, for a stage that reports its work.
    """

    updated = Signal(int, str, int, int, str)
    worked = Signal(int, str, object, object)  # object: byte counts overflow a Qt int

    def __init__(
        self,
        scan_id: int,
        token: CancelToken,
        min_interval: float = 0.05,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self._scan_id = scan_id
        self._token = token
        self._min_interval = min_interval
        self._clock = clock
        self._stage: str | None = None
        self._last = 0.0
        self._work: tuple[str, int, int] | None = None  # the latest work report, until forwarded

    def update(self, stage: str, done: int, total: int, detail: str = "") -> None:
        """Emit :attr:`updated` unless an update of this stage was emitted very recently."""
        now = self._clock()
        if stage != self._stage or done >= total or now - self._last >= self._min_interval:
            self._stage, self._last = stage, now
            if self._work is not None and self._work[0] == stage:
                self.worked.emit(self._scan_id, *self._work)
            self.updated.emit(self._scan_id, stage, done, total, detail)

    def work(self, stage: str, done: int, total: int) -> None:
        """Keep the stage's work (``core.progress.report_work``) to be emitted as :attr:`worked`
        with the next update that is forwarded."""
        self._work = (stage, done, total)

    def cancelled(self) -> bool:
        """Return ``True`` once the token was cancelled (bool)."""
        return self._token.is_set()


class ScanThread(QThread):
    """A thread that scans one folder once.

    Args:
        scan_id: an id the window gives this scan; every signal carries it (int).
        root: the folder to scan.
        settings: scan settings, or ``None`` for the engine's defaults.
        thresholds: classifier thresholds, or ``None`` for the defaults.
        scan_fn: the scan function (tests pass a fake); defaults to :func:`scan_folder`.

    Signals:
        succeeded(int, object): scan id and the :class:`ScanResult`.
        failed(int, str, str): scan id, a one-line message and the traceback.
        cancelled(int): scan id; the scan stopped because :meth:`cancel` was called.
        The progress signal is :attr:`progress` ``.updated``.
    """

    succeeded = Signal(int, object)
    failed = Signal(int, str, str)
    cancelled = Signal(int)

    def __init__(
        self,
        scan_id: int,
        root: str | Path,
        settings: ScanSettings | None = None,
        thresholds: Thresholds | None = None,
        scan_fn: ScanFunction | None = None,
    ) -> None:
        super().__init__()
        self.scan_id = scan_id
        self.setObjectName(f"scan-{scan_id}")
        self.root = str(root)
        self.token = CancelToken()
        self.progress = QtProgress(scan_id, self.token)
        self._settings = settings
        self._thresholds = thresholds
        self._scan_fn = scan_fn

    def cancel(self) -> None:
        """Ask the scan to stop at the engine's next check; :attr:`cancelled` follows."""
        self.token.cancel()

    def start(self, *args) -> None:
        """Start the thread (call from the GUI thread).  Automatic garbage collection pauses
        while the scan runs, as for every background job (see ``inspector.jobs.gc_pause``):
        a collection inside this thread could free Qt objects outside the GUI thread."""
        pause = gc_pause()
        pause.enter()
        self.finished.connect(pause.leave)  # queued: collection resumes in the GUI thread
        super().start(*args)

    def run(self) -> None:
        """Run the scan (in the new thread) and emit exactly one of the outcome signals."""
        scan_fn = self._scan_fn or scan_folder
        try:
            result = scan_fn(self.root, self._settings, self._thresholds, self.progress)
        except ScanCancelled:
            self.cancelled.emit(self.scan_id)
        except Exception as exc:  # an engine error must never take the window down
            self.failed.emit(self.scan_id, f"{type(exc).__name__}: {exc}", traceback.format_exc())
        else:
            if self.token.is_set():  # finished just as the user cancelled: honour the cancel
                self.cancelled.emit(self.scan_id)
            else:
                self.succeeded.emit(self.scan_id, result)
