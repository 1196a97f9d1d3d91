"""Running a view's computation off the GUI thread; only the newest request's outcome arrives.

A view calls :meth:`LatestJob.submit` each time the selected pair changes.  The function runs on
Qt's global ``QThreadPool``; its outcome comes back to the GUI thread through a queued signal
and is dropped unless it belongs to the latest submission, so a slow comparison of an earlier
selection can never overwrite the current one.  A superseded submission also stops early: one
still waiting for a pool thread never starts, and one running sees its
:class:`~dedup_gui.core.progress.CancelToken` set, which a function submitted with
``stoppable=True`` checks in its loops.

Python's cyclic garbage collector runs in whichever thread happens to allocate; run in a pool
thread it may free Qt objects (a widget, a text cursor into a shown document) outside the GUI
thread, which crashes Qt.  Automatic collection is therefore paused while a job runs
(:func:`gc_pause`) and switched back on from the GUI thread when no job is running.  While it is
paused, the GUI thread collects only the young generations, often: a full collection walks every
object of the process (a 10,000-page scan's pages and pairs) and would freeze the window for
tenths of a second each time.

The GUI thread takes the GIL for every Python slot, paint override and model ``data()`` call, and
a thread that wants the GIL waits the interpreter's switch interval before the thread holding it
is asked to let go.  With Python's 5 ms, each such call made beside a running job could wait 5
ms: repainting the pairs table (some sixty calls) took 0.3 s.  The first job therefore lowers
the interval to :data:`SWITCH_INTERVAL`.
"""

from __future__ import annotations

import gc
import sys
import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, QThreadPool, QTimer, Signal

from dedup_gui.core.progress import CancelToken

#: While a job runs, the GUI thread collects the young generations this often (ms): often, so
#: that each collection walks only the objects made in the last tenth of a second.
YOUNG_COLLECT_INTERVAL_MS = 100
#: The generation those collections go up to: 1 collects generations 0 and 1, never the oldest.
YOUNG_GENERATION = 1
#: The interpreter's thread switch interval once background jobs run (s; Python's default is 5 ms).
#: 0.1 ms rather than 1 ms: opening the teaching window on a 600,000-character page, the GUI
#: thread's calls into Python beside the jobs kept it 1.7 s at 1 ms and 0.7 s at 0.1 ms.
SWITCH_INTERVAL = 0.0001


class _GcPause(QObject):
    """Counts running background jobs; automatic garbage collection is off while any runs.

    Jobs enter in their pool thread (:meth:`enter`) and leave through a queued signal, so
    collection is switched back on in the GUI thread, never in a pool thread (where the very
    next allocation could start a collection).  Created in the GUI thread; when the process
    ends (and the object is deleted) while a job still runs, that job's :meth:`leave` does
    nothing.

    While paused, a timer collects generations 0 and 1 from the GUI thread every
    :data:`YOUNG_COLLECT_INTERVAL_MS`: each such collection only walks what was allocated since
    the previous one, so it stays short however large the scan.  Cyclic garbage that survives
    into the oldest generation waits for the automatic collector, once the jobs are done.
    """

    _leave = Signal()
    _entered = Signal()

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self._running = 0
        self._was_enabled = False
        self._leave.connect(self._resume)  # queued when emitted from a pool thread
        # While paused, collect the young generations from the GUI thread now and then, so a
        # long scan cannot pile up short-lived cyclic garbage.
        self._timer = QTimer(self)
        self._timer.setInterval(YOUNG_COLLECT_INTERVAL_MS)
        self._timer.timeout.connect(self.collect_young)
        self._entered.connect(self._timer.start)  # queued from a pool thread: starts in the GUI thread

    def enter(self) -> None:
        """A job is about to start: disable automatic collection."""
        with self._lock:
            if self._running == 0:
                self._was_enabled = gc.isenabled()
                gc.disable()
                self._entered.emit()
            self._running += 1

    def leave(self) -> None:
        """A job ends (any thread): collection resumes in the GUI thread when none is left.

        Does nothing if this object was already deleted (the application is shutting down
        while the job ran on): there is no event loop left to resume collection in.
        """
        try:
            self._leave.emit()
        except RuntimeError:  # "Signal source has been deleted": at exit, nothing to resume
            pass

    @staticmethod
    def collect_young() -> int:
        """Collect generations 0 and 1 (never the oldest); call from the GUI thread.

        Returns:
            the number of unreachable objects found (int).
        """
        return gc.collect(YOUNG_GENERATION)

    def running(self) -> int:
        """Jobs between :meth:`enter` and the GUI thread's handling of their :meth:`leave` (int)."""
        return self._running

    def _resume(self) -> None:
        with self._lock:
            self._running -= 1
            if self._running == 0:
                self._timer.stop()
                if self._was_enabled:
                    gc.enable()


_gc_pause: _GcPause | None = None
_command_pool: QThreadPool | None = None

#: Threads of :func:`command_pool`: a re-classification, a copy and an export may run at once.
COMMAND_THREADS = 3


def command_pool() -> QThreadPool:
    """The thread pool of the commands the user waits for: re-classifications (a threshold
    change, Not a Duplicate, Keep This Page Instead), Copy the Kept Pages and Export.

    Apart from Qt's global pool, which has as many threads as cores (2 on a small machine) and
    where every view queues its computations (the map, the histogram, the inspector's tabs, the
    teaching views): a copy of 552 files queued there behind the map of 10,000 pairs took 4.7 s
    instead of 0.6 s, and a tester on a loaded machine waited 15 to 31 s for it, and seconds for
    each re-classification.  Created on first use (in the GUI thread), owned by the application,
    which waits for its threads when it ends (``QThreadPool``'s destructor).

    Returns:
        The pool (QThreadPool, :data:`COMMAND_THREADS` threads at most).
    """
    global _command_pool
    if _command_pool is None:
        _command_pool = QThreadPool(QCoreApplication.instance())
        _command_pool.setMaxThreadCount(COMMAND_THREADS)
    return _command_pool


def freeze_long_lived() -> None:
    """Move every object alive now out of the garbage collector's sight (``gc.freeze``).

    Call when a long-lived structure has just been built, such as a scan's result, which lives
    until the next scan.  Collection was paused while it was built, and the full collection
    that follows walks every object: 0.1 s on the GUI thread for a 10,000-page result, and it
    grows with the pages.  Frozen objects are still freed by reference counting when the
    result is dropped; only reference cycles among them would never be collected, and a
    result makes none (a collection at a 10,000-page result's arrival found no unreachable
    object).  Other garbage alive at that moment (the charts' redraws leave cyclic matplotlib
    objects) would be frozen with it and never freed: :func:`collect_unfrozen` clears it first,
    when a scan starts.
    """
    gc.freeze()


def collect_unfrozen() -> int:
    """A full collection of every object not frozen by :func:`freeze_long_lived`; call from the
    GUI thread when a scan starts, before collection pauses.

    The shown result is frozen, so this walks only what was made since it arrived (chart
    redraws, the inspector): milliseconds, not the 0.1 s per 10,000 pages of a full collection
    with the result in it.  Without it, the garbage of the redraws since the last result
    (tens of megabytes after a few rescans, a tester measured) would be frozen with the next
    result and never freed.

    Returns:
        the number of unreachable objects found (int).
    """
    return gc.collect()


def gc_pause() -> _GcPause:
    """The process's :class:`_GcPause` (created on first use, which must be in the GUI thread;
    it also lowers the switch interval to :data:`SWITCH_INTERVAL`, see the module doc)."""
    global _gc_pause
    if _gc_pause is None:
        _gc_pause = _GcPause()
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))
    return _gc_pause


class _Relay(QObject):
    """Carries a pool thread's outcome to a :class:`LatestJob`.  It outlives the job: when the
    view (and its job) is deleted while a submission runs, the pool thread still emits on a
    live object (emitting on the deleted job itself crashed the process), and Qt has dropped
    the connection to the deleted receiver, so the outcome goes nowhere.

    Its Qt parent is the application, not the job and not none: a parentless relay was owned
    by Python and, left in a reference cycle with its job's wrapper, destroyed by the cyclic
    garbage collector at whatever point the collector ran, once inside Qt's signal lock (a
    disconnect calling into Python), where its destructor waited for that lock for ever."""

    outcome = Signal(int, bool, object)  # generation, ok, value; emitted from a pool thread


class LatestJob(QObject):
    """Runs functions in the background and delivers the outcome of the newest one only.

    Args:
        parent: the Qt parent (the view); the job object lives in the GUI thread.
        pool: the thread pool to run on: ``None`` for Qt's global pool (the views'
            computations), :func:`command_pool` for a command the user waits for.

    Signals:
        finished(object): the newest submission's return value.
        failed(object): the exception the newest submission raised.
    """

    finished = Signal(object)
    failed = Signal(object)

    def __init__(self, parent: QObject | None = None, pool: QThreadPool | None = None) -> None:
        super().__init__(parent)
        self._pool = pool
        self._generation = 0
        self._pending = -1  # generation still running, or -1
        self._token = CancelToken()  # the newest submission's: set when it is superseded
        self._relay = _Relay(QCoreApplication.instance())  # see _Relay: never freed by the collector
        self._outcome = self._relay.outcome
        self._outcome.connect(self._deliver)  # queued: the receiver lives in the GUI thread

    @property
    def generation(self) -> int:
        """The number of the newest submission or cancel (int)."""
        return self._generation

    def is_running(self) -> bool:
        """``True`` while the newest submission has not delivered its outcome (bool)."""
        return self._pending == self._generation

    def submit(self, fn: Callable[..., Any], *args: Any, stoppable: bool = False) -> int:
        """Run ``fn(*args)`` on the thread pool, superseding any earlier submission: the
        earlier one's outcome is dropped, it is not started if it still waits for a pool
        thread, and its token is set (see ``stoppable``).

        Args:
            fn: a function that touches no widget (it runs outside the GUI thread).
            *args: its arguments.
            stoppable: also pass ``stop=`` the submission's
                :class:`~dedup_gui.core.progress.CancelToken`, set once a newer submission or
                :meth:`cancel` supersedes it; ``fn`` should check ``stop.is_set()`` in its loops
                and return early (what it returns then is dropped).

        Returns:
            The submission's generation number (int).
        """
        self._token.cancel()
        self._token = token = CancelToken()
        self._generation += 1
        generation = self._generation
        self._pending = generation
        relay = self._relay  # held by the closure: alive until the pool thread is done with it
        pause = gc_pause()
        pause.enter()  # here, not in the pool thread: its first allocation could start a collection

        def run() -> None:
            try:
                if token.is_set():
                    return  # superseded while it waited for a pool thread: nobody wants it
                try:
                    value, ok = (fn(*args, stop=token) if stoppable else fn(*args)), True
                except Exception as exc:  # delivered to the GUI thread, shown by the view
                    value, ok = exc, False
                try:
                    relay.outcome.emit(generation, ok, value)
                except RuntimeError:  # the relay's wrapper is gone (interpreter shutdown): nobody to tell
                    pass
                value = None  # no cycle exception -> traceback -> this frame -> exception
            finally:
                pause.leave()

        (self._pool or QThreadPool.globalInstance()).start(run)
        return generation

    def cancel(self) -> None:
        """Forget every running submission: their outcomes will be ignored, and they stop
        early (see :meth:`submit`)."""
        self._token.cancel()
        self._generation += 1

    def _deliver(self, generation: int, ok: bool, value: object) -> None:
        if generation != self._generation:
            return  # stale: a newer selection superseded it
        self._pending = -1
        (self.finished if ok else self.failed).emit(value)
