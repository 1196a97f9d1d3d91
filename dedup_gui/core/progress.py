"""How long jobs report progress and learn that they were cancelled.

The engine calls :meth:`Progress.update` as it goes and stops with :class:`ScanCancelled` when
:meth:`Progress.cancelled` says so.  The GUI passes an object that forwards to Qt signals, the
CLI one that prints to the terminal, tests :class:`NullProgress`.
"""

from __future__ import annotations

import threading
import time
from typing import Protocol


class ScanCancelled(Exception):
    """Raised inside the engine when the user cancelled the job."""


class Progress(Protocol):
    """What a long job reports to."""

    def update(self, stage: str, done: int, total: int) -> None:
        """Report that ``done`` of ``total`` items of ``stage`` (e.g. ``"reading pages"``) are done."""

    def cancelled(self) -> bool:
        """Return ``True`` once the user asked to stop."""


class NullProgress:
    """A progress that ignores updates and is never cancelled."""

    def update(self, stage: str, done: int, total: int) -> None:
        """Ignore the update."""

    def cancelled(self) -> bool:
        """Never cancelled: return ``False``."""
        return False


class CancelToken:
    """A thread-safe cancel flag that a progress object can consult.

    Example:
        >>> token = CancelToken()
        >>> token.cancel(); token.is_set()
        True
    """

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        """Ask the job to stop at its next check."""
        self._event.set()

    def is_set(self) -> bool:
        """Return ``True`` once :meth:`cancel` was called."""
        return self._event.is_set()


class EtaEstimator:
    """Estimates the remaining time of a stage from its rate so far.

    Args:
        clock: a monotonic clock in seconds (for tests); defaults to ``time.monotonic``.
    """

    def __init__(self, clock=time.monotonic) -> None:
        self._clock = clock
        self._stage: str | None = None
        self._start = 0.0

    def eta(self, stage: str, done: int, total: int) -> float | None:
        """Return the estimated seconds left in ``stage`` (float), or ``None`` if unknown yet."""
        now = self._clock()
        if stage != self._stage:
            self._stage, self._start = stage, now
            return None
        if done <= 0 or total <= 0 or done > total:
            return None
        elapsed = now - self._start
        return elapsed / done * (total - done)


def check_cancel(progress: Progress) -> None:
    """Raise :class:`ScanCancelled` if ``progress`` was cancelled."""
    if progress.cancelled():
        raise ScanCancelled("cancelled by the user")
