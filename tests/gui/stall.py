"""A watchdog for the GUI thread: the longest time its event loop was kept from a 10 ms timer."""

from __future__ import annotations

import time

from PySide6.QtCore import QTimer


class StallMeter:
    """Ticks every 10 ms on the GUI thread and records each gap between ticks, less the time the
    thread waited for a CPU (Linux schedstat; the machine may be busy with other jobs)."""

    def __init__(self) -> None:
        self.gaps: list[tuple[float, str]] = []
        self.doing = "starting"
        self._last, self._wait = time.monotonic(), self._cpu_wait()
        self.timer = QTimer()
        self.timer.setInterval(10)
        self.timer.timeout.connect(self._tick)
        self.timer.start()

    @staticmethod
    def _cpu_wait() -> float:
        try:
            with open("/proc/thread-self/schedstat") as fh:
                return int(fh.read().split()[1]) / 1e9
        except (OSError, ValueError, IndexError):
            return 0.0

    def _tick(self) -> None:
        now, wait = time.monotonic(), self._cpu_wait()
        self.gaps.append((now - self._last - (wait - self._wait), self.doing))
        self._last, self._wait = now, wait

    def worst(self) -> tuple[float, str]:
        """The longest gap and what was being done (tuple[float, str])."""
        self.timer.stop()
        return max(self.gaps)
