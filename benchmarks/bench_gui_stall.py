"""GUI responsiveness benchmark: how long the window's event loop stalls during a real scan.

    QT_QPA_PLATFORM=offscreen XDG_CACHE_HOME=/tmp/stallcache \\
        python benchmarks/bench_gui_stall.py /tmp/bench-1000 [--no-cache] [--clear-cache]

It opens the real :class:`~dedup_gui.gui.main_window.MainWindow` off screen and starts a scan
of the folder through :meth:`MainWindow.start_scan`, the same call File > Open Folder, a recent
folder, a dropped folder and Scan > Rescan make.  A ``QTimer`` on the GUI thread ticks every
``--tick`` ms and records the gap between consecutive ticks: a gap well over the tick is time
the event loop could not run (no repaint, no input).  The scan's current stage is recorded from
the scan thread itself (a direct connection to its progress signal), so each stall is
attributed to the stage that was running when it happened.

Two phases are reported separately:

* **during the scan**: from :meth:`start_scan` until the scan thread hands its result over;
* **when the result arrives**: from then until the window has shown it and every background
  view job is done, plus ``--settle`` seconds.

For each phase it prints the number of ticks, the longest gap and its stage, the 99th
percentile gap and the number of gaps over 100 ms.  It also prints the garbage collections
(their longest pause, and whether on the GUI thread), how often the progress bar moved backwards
(a bar that restarts per stage does), when the first ETA was shown and how far the ETAs were
from each stage's real end.

``--cache`` (the default, as in the window) uses the feature cache in the user's cache folder:
set ``XDG_CACHE_HOME`` to keep the benchmark's cache apart, and ``--clear-cache`` for a cold
start.  ``--no-cache`` reads and compares everything.

``--profile FILE`` writes a cProfile of the GUI thread (only; the scan thread is not profiled)
to FILE, to find which slot a stall is in.
"""

from __future__ import annotations

import argparse
import bisect
import gc
import itertools
import os
import platform
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

#: A gap above this counts as a stall (ms): the issue's goal.
STALL_MS = 100.0


class StageLog:
    """Stage changes as (time, stage), appended from the scan thread.

    Attributes:
        times: ``time.perf_counter()`` of each change (list[float], ascending).
        stages: the stage entered at that time (list[str]).
    """

    def __init__(self) -> None:
        self.times: list[float] = []
        self.stages: list[str] = []
        self._lock = threading.Lock()

    def record(self, _scan_id: int, stage: str, _done: int, _total: int) -> None:
        """Slot for ``QtProgress.updated`` (direct connection: runs in the scan thread)."""
        with self._lock:
            if not self.stages or self.stages[-1] != stage:
                self.times.append(time.perf_counter())
                self.stages.append(stage)

    def mark(self, stage: str) -> None:
        """Record a phase change that is not a progress stage (e.g. the result arriving)."""
        with self._lock:
            self.times.append(time.perf_counter())
            self.stages.append(stage)

    def during(self, start: float, end: float) -> str:
        """The stages that ran during [start, end], joined with " -> " (str)."""
        i = max(0, bisect.bisect_right(self.times, start) - 1)
        j = bisect.bisect_right(self.times, end)
        names = self.stages[i:j] if self.stages else []
        if self.times and start < self.times[0]:
            names = ["starting"] + names
        return " -> ".join(names) or "starting"


class StallSampler(threading.Thread):
    """Samples the Python stacks of the GUI thread and of the other threads while the heartbeat
    is late, to say what a stall is made of (``--stacks``).

    A stall caused by the GUI thread's own Python work shows that work on the GUI thread's
    stack; a stall where the GUI thread shows no Python frame of its own (it is in the event
    loop, waiting for the GIL) points at another thread holding the GIL.

    Args:
        last_tick: a callable returning the ``perf_counter`` time of the latest tick (float).
        late: seconds after the latest tick from which the GUI thread counts as stalled.
    """

    def __init__(self, last_tick, late: float = 0.06) -> None:
        super().__init__(daemon=True, name="stall-sampler")
        self._last_tick = last_tick
        self._late = late
        self._stop = threading.Event()
        self._gui = threading.main_thread().ident
        self.samples: dict[str, int] = {}

    def run(self) -> None:
        """Sample every 10 ms until :meth:`stop`."""
        import traceback

        while not self._stop.wait(0.01):
            if time.perf_counter() - self._last_tick() < self._late:
                continue
            frames = sys._current_frames()
            parts = []
            for ident, frame in frames.items():
                if ident == threading.get_ident():
                    continue
                name = "GUI" if ident == self._gui else next(
                    (t.name for t in threading.enumerate() if t.ident == ident), str(ident))  # fmt: skip
                stack = traceback.extract_stack(frame)[-4:]
                where = " < ".join(f"{Path(f.filename).name}:{f.lineno} {f.name}" for f in reversed(stack))
                parts.append(f"[{name}] {where}")
            key = "\n        ".join(sorted(parts, key=lambda p: not p.startswith("[GUI]")))
            self.samples[key] = self.samples.get(key, 0) + 1

    def stop(self) -> None:
        """End the sampling."""
        self._stop.set()

    def print_top(self, n: int = 8) -> None:
        """Print the ``n`` most frequent stacks seen during stalls (10 ms per sample)."""
        print(f"stacks during stalls (samples of 10 ms, top {n}):")
        for key, count in sorted(self.samples.items(), key=lambda kv: -kv[1])[:n]:
            print(f"  {count:5d} x {key}")


def parse_eta(text: str) -> float | None:
    """The seconds of an "about 1 h 2 min left" / "about 3 min 5 s left" / "about 9 s left" in a
    status text (float), or ``None``."""
    import re

    found = re.search(r"about (?:(\d+) h ?)?(?:(\d+) min ?)?(?:(\d+) s )?left", text)
    if not found:
        return None
    h, m, sec = (int(g) if g else 0 for g in found.groups())
    return 3600 * h + 60 * m + sec


def eta_report(samples: list[tuple[float, float, str]], log: StageLog) -> None:
    """Print how far the shown ETAs were from the real end of their stage.

    For each stage of 5 s or more with ETAs: when the first one appeared (seconds into the
    stage), and at 10, 25, 50 and 75 % of the stage's duration the time left that was shown
    against the time that was really left (the stage's end is the next stage's start).
    """
    for k, (stage, start) in enumerate(zip(log.stages, log.times)):
        end = log.times[k + 1] if k + 1 < len(log.times) else None
        if end is None or end - start < 5:
            continue
        mine = [(t, eta) for t, eta, _text in samples if start <= t < end]
        if not mine:
            print(f"  {stage} ({end - start:.0f} s): no ETA shown")
            continue
        marks = []
        for share in (0.10, 0.25, 0.50, 0.75):
            at = start + share * (end - start)
            shown = [(t, eta) for t, eta in mine if t <= at]
            if shown:
                t, eta = shown[-1]
                eta -= at - t  # the label counts down between updates
                marks.append(f"{share:.0%}: {max(0.0, eta):.0f} s shown / {end - at:.0f} s real")
            else:
                marks.append(f"{share:.0%}: none")
        print(f"  {stage} ({end - start:.0f} s): first ETA after {mine[0][0] - start:.1f} s "
              f"({mine[0][1]:.0f} s shown / {end - mine[0][0]:.0f} s real); " + "; ".join(marks))  # fmt: skip


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (0..100) of ``values`` by nearest rank (float); 0 when empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))
    return ordered[k]


def gui_thread_waits() -> float | None:
    """Seconds the calling thread has spent runnable but waiting for a CPU (Linux
    ``/proc/thread-self/schedstat``, second field), or ``None`` where that is not available."""
    try:
        with open("/proc/thread-self/schedstat") as fh:
            return int(fh.read().split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return None


def report(name: str, gaps: list[tuple[float, float]], log: StageLog, waits: dict[float, float]) -> None:
    """Print the tick statistics of one phase.

    Args:
        name: the phase's name.
        gaps: (start, end) of each gap between ticks, ``perf_counter`` seconds.
        log: the stage log, to say where the longest stall was.
        waits: tick time -> the GUI thread's total CPU-queue wait then (seconds), to tell a
            stall the operating system caused (no free core) from one of the program's.
    """

    def queued(gap: tuple[float, float]) -> str:
        if gap[0] not in waits or gap[1] not in waits:
            return ""
        return f" ({(waits[gap[1]] - waits[gap[0]]) * 1000:.0f} ms of it waiting for a CPU)"

    ms = [(b - a) * 1000 for a, b in gaps]
    print(f"  {name}:")
    if not gaps:
        print("    no ticks")
        return
    worst = max(range(len(ms)), key=ms.__getitem__)
    over = [(m, g) for m, g in zip(ms, gaps) if m > STALL_MS]
    print(f"    ticks {len(ms):,}, span {gaps[-1][1] - gaps[0][0]:.1f} s")
    print(f"    longest gap {ms[worst]:.0f} ms{queued(gaps[worst])}, in: {log.during(*gaps[worst])}")
    print(f"    p99 gap {percentile(ms, 99):.0f} ms, median {percentile(ms, 50):.0f} ms")
    print(f"    gaps > {STALL_MS:.0f} ms: {len(over)}")
    if over and waits:
        cpu_bound = sum(1 for m, g in over if g[0] in waits and g[1] in waits
                        and m - (waits[g[1]] - waits[g[0]]) * 1000 <= STALL_MS)  # fmt: skip
        print(f"      of which {cpu_bound} would be under {STALL_MS:.0f} ms without the wait for a free CPU")
        rest = sorted(((m, g) for m, g in over if g[0] in waits and g[1] in waits
                       and m - (waits[g[1]] - waits[g[0]]) * 1000 > STALL_MS), key=lambda mg: -mg[0])  # fmt: skip
        for m, g in rest[:5]:
            print(f"      not from CPU waits: {m:.0f} ms{queued(g)}, in: {log.during(*g)}")
    by_stage: dict[str, list[float]] = {}
    for m, g in over:
        by_stage.setdefault(log.during(*g), []).append(m)
    for stage, values in sorted(by_stage.items(), key=lambda kv: -max(kv[1])):
        print(f"      {len(values):4d} x, max {max(values):.0f} ms: {stage}")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; returns the exit code (0, or 1 if the scan did not finish)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="the folder to scan")
    parser.add_argument(
        "--cache",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="use the feature cache (default: on, as in the window)",
    )
    parser.add_argument("--clear-cache", action="store_true", help="delete the feature cache first (a cold cache)")
    parser.add_argument("--tick", type=float, default=10.0, help="heartbeat interval, ms (default 10)")
    parser.add_argument(
        "--settle", type=float, default=3.0, help="seconds to keep ticking after the result is shown (default 3)"
    )
    parser.add_argument("--timeout", type=float, default=3600.0, help="give up after this many seconds")
    parser.add_argument("--profile", type=Path, help="write a cProfile of the GUI thread here")
    parser.add_argument(
        "--stacks",
        action="store_true",
        help="sample every thread's Python stack while the heartbeat is late, and print the commonest",
    )
    args = parser.parse_args(argv)

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEventLoop, Qt, QTimer
    from PySide6.QtWidgets import QApplication

    from dedup_gui.core.model import ScanSettings
    from dedup_gui.core.pipeline.cache import clear_cache, default_cache_dir
    from dedup_gui.gui.app import freeze_startup_objects
    from dedup_gui.gui.compat import guard_none_refcount
    from dedup_gui.gui.main_window import MainWindow
    from dedup_gui.gui.settings import AppSettings

    guard_none_refcount()
    app = QApplication.instance() or QApplication(sys.argv[:1])
    if args.clear_cache:
        clear_cache()
    settings = ScanSettings(use_cache=args.cache)
    window = MainWindow(settings=settings, app_settings=AppSettings(enabled=False))
    window.show()
    app.processEvents()
    freeze_startup_objects()  # as run_gui() does before its first scan

    log = StageLog()
    ticks: list[float] = []
    waits: dict[float, float] = {}  # tick time -> the GUI thread's CPU-queue wait so far (s)
    bar_backwards = [0, -1.0]  # count, last fraction
    first_eta: list[float] = []
    eta_samples: list[tuple[float, float, str]] = []  # (time, seconds left shown, label)
    marks: dict[str, float] = {}

    def tick() -> None:
        now = time.perf_counter()
        ticks.append(now)
        wait = gui_thread_waits()
        if wait is not None:
            waits[now] = wait
        bar = window.scan_status.progress_bar
        if bar.isVisible() and bar.maximum() > 0:
            fraction = bar.value() / bar.maximum()
            if fraction < bar_backwards[1] - 1e-9:
                bar_backwards[0] += 1
            bar_backwards[1] = fraction
        text = window.scan_status.label.text()
        if "left" in text:
            if not first_eta:
                first_eta.append(now)
            seconds = parse_eta(text)
            if seconds is not None and (not eta_samples or eta_samples[-1][2] != text):
                eta_samples.append((now, seconds, text))

    timer = QTimer()
    timer.setTimerType(Qt.TimerType.PreciseTimer)
    timer.setInterval(max(1, round(args.tick)))
    timer.timeout.connect(tick)

    def ended(outcome: str) -> None:
        marks["shown"] = time.perf_counter()
        log.mark("result shown")
        marks["outcome"] = outcome  # type: ignore[assignment]

    window.scan_ended.connect(ended)
    collections: list[tuple[int, float, float, bool]] = []  # generation, start, seconds, GUI thread
    gc_start: dict[int, float] = {}

    def on_gc(phase: str, info: dict) -> None:
        now = time.perf_counter()
        if phase == "start":
            gc_start[threading.get_ident()] = now
        else:
            began = gc_start.pop(threading.get_ident(), now)
            collections.append(
                (info["generation"], began, now - began, threading.current_thread() is threading.main_thread())
            )

    gc.callbacks.append(on_gc)
    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()

    sampler = None
    if args.stacks:
        sampler = StallSampler(lambda: ticks[-1] if ticks else time.perf_counter())
        sampler.start()
    timer.start()
    start = time.perf_counter()
    window.start_scan(args.folder)
    thread = window._thread
    direct = Qt.ConnectionType.DirectConnection
    thread.progress.updated.connect(log.record, direct)
    thread.succeeded.connect(lambda *_: (marks.setdefault("result", time.perf_counter()), log.mark("result arriving")),
                             direct)  # fmt: skip

    # The real event loop (exec), not a processEvents() loop: a poll timer watches for the end.
    loop = QEventLoop()
    deadline = start + args.timeout
    state = {"settle_end": None}

    def poll() -> None:
        now = time.perf_counter()
        if now > deadline:
            loop.quit()
        elif "shown" not in marks:
            return
        elif state["settle_end"] is None:
            if not window.is_busy():
                log.mark("idle after the scan")
                state["settle_end"] = now + args.settle
        elif now >= state["settle_end"]:
            loop.quit()

    poller = QTimer()
    poller.setInterval(50)
    poller.timeout.connect(poll)
    poller.start()
    loop.exec()
    poller.stop()
    timer.stop()
    gc.callbacks.remove(on_gc)
    if sampler is not None:
        sampler.stop()
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(str(args.profile))
    end = time.perf_counter()

    result = window.result
    pages = len(result.pages) + len(result.errors) if result is not None else 0
    print(f"GUI stall benchmark: {args.folder}, cache {'on' if args.cache else 'off'}"
          f"{' (cleared first)' if args.clear_cache else ''}, cache dir {default_cache_dir()}")  # fmt: skip
    print(f"machine: {os.cpu_count()} cores, Python {platform.python_version()}, tick {args.tick:g} ms")
    if marks.get("outcome") == "failed" and window.error_box is not None:
        print(window.error_box.detailedText(), file=sys.stderr)
    print(f"outcome: {marks.get('outcome', 'timed out')} ({window.scan_status.label.text()}); files {pages:,}, "
          f"pairs {len(result.pairs) if result else 0:,}")  # fmt: skip
    scan_end = marks.get("result", end)
    print(f"wall time: scan {scan_end - start:.1f} s, result shown after {marks.get('shown', end) - scan_end:.2f} s more,"
          f" total {end - start:.1f} s")  # fmt: skip
    gaps = list(itertools.pairwise(ticks))
    print(f"ticks: {len(ticks):,} (one every {args.tick:g} ms asked)")
    report("during the scan", [g for g in gaps if g[1] <= scan_end], log, waits)
    report("when the result arrives / is shown", [g for g in gaps if g[1] > scan_end], log, waits)
    for generation in (0, 1, 2):
        runs = [c for c in collections if c[0] == generation]
        if runs:
            longest = max(runs, key=lambda c: c[2])
            phase = "during the scan" if longest[1] < scan_end else "after the result arrived"
            print(
                f"garbage collections of generation {generation}: {len(runs)}, "
                f"{sum(1 for c in runs if c[3])} on the GUI thread, longest {longest[2] * 1000:.0f} ms ({phase})"
            )
    print(f"progress bar moved backwards {bar_backwards[0]} times")
    print(f"first ETA shown {first_eta[0] - start:.1f} s after the start" if first_eta else "no ETA was shown")
    print("ETA accuracy per stage (shown time left vs the stage's real end):")
    eta_report(eta_samples, log)
    if sampler is not None:
        sampler.print_top()
    window.close()
    return 0 if marks.get("outcome") == "finished" else 1


if __name__ == "__main__":
    sys.exit(main())
