"""How long jobs report progress and learn that they were cancelled.

The engine calls :meth:`Progress.update` as it goes and stops with :class:`ScanCancelled` when
:meth:`Progress.cancelled` says so.  The GUI passes an object that forwards to Qt signals, the
CLI one that prints to the terminal, tests :class:`NullProgress`.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np


class ScanCancelled(Exception):
    """Raised inside the engine when the user cancelled the job."""


class Progress(Protocol):
    """What a long job reports to."""

    def update(self, stage: str, done: int, total: int, detail: str = "") -> None:
        """Report that ``done`` of ``total`` items of ``stage`` (e.g. ``"reading pages"``) are done.

        ``detail`` says, for people, what the stage is busy with when that is worth saying
        (items that are slow, see :func:`in_flight_text`), e.g. ``"still reading big.html
        (21 MB) for 12 s"``; ``""`` when there is nothing to add.  Stages that have slow items
        report again every fraction of a second with the same ``done``, so the detail's
        seconds count up.
        """

    def cancelled(self) -> bool:
        """Return ``True`` once the user asked to stop."""


#: The optional method of a :class:`Progress` that takes a stage's work in units finer than its
#: items (see :func:`report_work`).
WORK_METHOD = "work"


def report_work(progress: Progress, stage: str, done: int, total: int) -> None:
    """Tell ``progress`` how much of ``stage``'s work is done, in units that measure the time
    items take better than their count (the reading step: bytes of the files, plus
    a per-file overhead), just before the stage's :meth:`Progress.update` with the item count.

    A progress object that wants these defines ``work(stage, done, total)`` (the GUI's, the
    CLI's) and bases the stage's share of the bar and its time-left estimate on them; others
    need not (the method is optional, so every progress object stays a :class:`Progress`).

    Args:
        progress: the progress reported to.
        stage: the stage (str).
        done: units done (int >= 0).
        total: the stage's units (int; 0 or less: unknown, the item count is used).
    """
    tell = getattr(progress, WORK_METHOD, None)
    if tell is not None:
        tell(stage, done, total)


def stage_count_text(stage: str, done: int, total: int) -> str:
    """A stage and its count for people, as the window and the CLI both show it, e.g.
    ``"reading pages: 1,234 of 10,000"``; the stage alone when its count is unknown
    (``total <= 0``) (str).

    The count is of the items the stage handles: for the reading step, the files it reads
    (files set aside unread, too large or plainly not pages, are not among them).

    Args:
        stage: the stage's name (str).
        done: items done (int).
        total: the stage's items (int).
    """
    return f"{stage}: {done:,} of {total:,}" if total > 0 else stage


class NullProgress:
    """A progress that ignores updates and is never cancelled."""

    def update(self, stage: str, done: int, total: int, detail: str = "") -> None:
        """Ignore the update."""

    def cancelled(self) -> bool:
        """Never cancelled: return ``False``."""
        return False


class StageNote:
    """A progress that passes every report on to another, with ``note`` put before the detail of
    ``stage``'s reports, e.g. "476 more found in the feature cache" beside "reading pages: 0 of
    946": a second scan of 1,422 files said "0 of 946" for seconds, unexplained.

    Args:
        progress: the progress reported to (and asked about cancels).
        stage: the stage whose reports get the note (str).
        note: the words (str; ``""`` adds nothing).
    """

    def __init__(self, progress: Progress, stage: str, note: str) -> None:
        self.progress = progress
        self.stage = stage
        self.note = note

    def update(self, stage: str, done: int, total: int, detail: str = "") -> None:
        """Pass the report on, the note put before the detail of :attr:`stage`'s reports."""
        if stage == self.stage and self.note:
            detail = f"{self.note}; {detail}" if detail else self.note
        self.progress.update(stage, done, total, detail)

    def work(self, stage: str, done: int, total: int) -> None:
        """Pass the stage's work on (:func:`report_work`)."""
        report_work(self.progress, stage, done, total)

    def cancelled(self) -> bool:
        """Whether the progress passed to was cancelled (bool)."""
        return self.progress.cancelled()


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


#: Seconds an item must have been in flight before progress names it (:func:`in_flight_text`):
#: a couple of seconds, so ordinary pages, done in a fraction of one, never flicker by.
SLOW_ITEM_SECONDS = 2.0

#: How many times the recent time per item a stage may go without finishing one before its
#: time-left estimate is withdrawn (:class:`EtaEstimator`).
STALL_FACTOR = 3.0

#: Seconds of the slices whose rates :class:`EtaEstimator` compares (one slice, the fastest, is
#: left out of its rate).
RATE_SLICE = 1.0

#: How far (a share of it) a stage's first time-left estimate may be from the one made
#: ``settle`` seconds before, counted down, for it to be shown (:class:`EtaEstimator`).
SETTLE_TOLERANCE = 0.2

#: The most items :func:`in_flight_text` names; the rest are counted.
MAX_NAMED_ITEMS = 3


def format_size(size: int) -> str:
    """A size in bytes for people, in SI units as file managers show them: ``"850 bytes"``,
    ``"12 kB"``, ``"2.4 MB"``, ``"21 MB"``, ``"1.3 GB"`` (str).

    Args:
        size: bytes (int >= 0).
    """
    if size < 1000:
        return f"{size} bytes"
    value = float(size)
    for unit in ("kB", "MB", "GB", "TB"):
        value /= 1000
        if value < 999.5 or unit == "TB":
            break
    return f"{value:.1f} {unit}" if value < 9.95 else f"{value:.0f} {unit}"


@dataclass(frozen=True)
class InFlight:
    """An item a stage started and has not finished, for :func:`in_flight_text`.

    Attributes:
        name: what to call it, e.g. the page's path relative to the scanned folder (str).
        size: its size in bytes, or ``None`` when not known (a WARC record).
        started: when it started, on the ``time.monotonic`` clock (float seconds).
    """

    name: str
    size: int | None
    started: float


def in_flight_text(items: Sequence[InFlight], now: float, verb: str = "reading") -> str:
    """Say which items a stage is still busy with, the longest-running first, e.g.
    ``"still reading big-a.html (21 MB) for 12 s, big-b.html (21 MB) for 11 s"``; at most
    :data:`MAX_NAMED_ITEMS` are named, then ``", and 2 more"`` (str; ``""`` for no items).

    The caller passes the items worth naming (those in flight for :data:`SLOW_ITEM_SECONDS`
    or more): while they run, the count of finished items does not move, and without this
    the user cannot tell a slow page from a hung scan.

    Args:
        items: the items in flight.
        now: the current time on the clock of ``InFlight.started`` (float seconds).
        verb: what the stage does to an item (str, e.g. ``"reading"``).
    """
    if not items:
        return ""
    ordered = sorted(items, key=lambda item: (item.started, item.name))
    named = []
    for item in ordered[:MAX_NAMED_ITEMS]:
        size = f" ({format_size(item.size)})" if item.size is not None else ""
        named.append(f"{item.name}{size} for {max(0, int(now - item.started))} s")
    more = len(ordered) - len(named)
    return f"still {verb} " + ", ".join(named) + (f", and {more} more" if more else "")


class EtaEstimator:
    """Estimates the seconds left in a stage, for people: nothing until the rate is known, then
    a figure that counts down smoothly instead of jumping with every update.

    * The rate is measured from the stage's first finished item on, so the start-up before it
      (worker processes starting, the first page's imports) does not inflate early estimates.
    * It is the rate over the last ``window`` seconds, so it follows a stage whose speed changes
      (the first pages of a scan are slower: worker processes start, the parser warms up; a
      minute's window said "10 s" with 4 s left).
    * That rate is a trimmed mean (the fastest slice left out) of the rates of the window's
      one-second slices (:data:`RATE_SLICE`), the count read between reports by linear
      interpolation: a burst of fast items (a real site's 175 tiny redirect pages, read in a
      tenth of a second) fills one slice and is left out.  The window's plain rate counted it,
      and said "about 11 s left" with 22 s left at page 480 of 1,422.
    * No estimate is given until the stage has run ``min_seconds`` since that first item and
      done ``min_fraction`` of its items, or has run ``patience`` seconds (a huge stage).
    * The first figure is shown once it has settled: it agrees, within :data:`SETTLE_TOLERANCE`,
      with the one made ``settle`` seconds before, counted down.  On the real site's scans the
      first figures, made while the rate was still falling, were 30-60 % short.
    * The returned figure counts down between updates and moves towards each new raw estimate
      with the time constant ``smoothing``.
    * No estimate is given while the stage is stalled: no item has finished for ``stall``
      seconds and for three times the recent time per item.  A stage waiting on a few huge
      items (two 21 MB pages after five small ones) has no rate to go by; the rate of the items
      before them counted down to "less than a second left" for half a minute.

    Args:
        clock: a monotonic clock in seconds (for tests); defaults to ``time.monotonic``.
        min_seconds: seconds of a stage's measured work before any estimate (float).
        min_fraction: share of a stage's items done before any estimate ([0, 1], float).
        patience: seconds after which an estimate is given even below ``min_fraction`` (float).
        window: seconds of recent updates the rate is measured over (float).
        smoothing: time constant of the smoothing, seconds (float; 0 = no smoothing).
        stall: seconds without a finished item after which the stage may count as stalled
            (float; defaults to :data:`SLOW_ITEM_SECONDS`, when progress starts naming the
            items in flight).
        settle: seconds the first estimate must hold (see above) before it is shown (float;
            0 = shown at once).
    """

    def __init__(
        self,
        clock=time.monotonic,
        min_seconds: float = 3.0,
        min_fraction: float = 0.01,
        patience: float = 20.0,
        window: float = 8.0,
        smoothing: float = 2.0,
        stall: float | None = None,
        settle: float = 2.0,
    ) -> None:
        self._clock = clock
        self.min_seconds = min_seconds
        self.min_fraction = min_fraction
        self.patience = patience
        self.window = window
        self.smoothing = smoothing
        self.stall = SLOW_ITEM_SECONDS if stall is None else stall
        self.settle = settle
        self._raws: deque[tuple[float, float]] = deque()  # (when, raw estimate) before one is shown
        self._stage: str | None = None
        self._samples: deque[tuple[float, int]] = deque()
        self._first: tuple[float, int] | None = None
        self._shown: tuple[float, float] | None = None  # (estimate, when)

    def eta(self, stage: str, done: int, total: int) -> float | None:
        """Return the estimated seconds left in ``stage`` (float >= 0), or ``None`` while it is
        not known well enough yet.

        Args:
            stage: the stage's name; a new name starts a new estimate.
            done: items of the stage done so far (int), or its work in finer units when it
                reports one (:func:`report_work`: the reading step's bytes).
            total: the stage's items, or work units (int; 0 or less: unknown, gives ``None``).
        """
        now = self._clock()
        if stage != self._stage:
            self._stage = stage
            self._samples.clear()
            self._first = self._shown = None
            self._raws.clear()
        if total <= 0 or done <= 0 or done > total:
            return None
        if done == total:
            return 0.0
        if self._first is None:
            self._first = (now, done)  # the rate is timed from here: start-up is excluded
        samples = self._samples
        if not samples or done > samples[-1][1]:
            samples.append((now, done))
        while len(samples) > 2 and samples[1][0] <= now - self.window:
            samples.popleft()  # keep one sample at or before the window's start
        run = now - self._first[0]
        share = (done - self._first[1]) / total
        if run < self.min_seconds or (share < self.min_fraction and run < self.patience):
            return None
        (t0, d0), (t1, d1) = samples[0], samples[-1]
        if d1 <= d0 or t1 <= t0:
            return self._countdown(now)
        if now - t1 > max(self.stall, STALL_FACTOR * (t1 - t0) / (d1 - d0)):
            self._shown = None  # stalled: the old rate says nothing; start afresh after it
            return None
        rate = self._rate(max(t0, now - self.window, self._first[0]), t1)
        if rate <= 0:
            return self._countdown(now)
        raw = (total - done) / rate
        if self._shown is None and not self._settled(now, raw):
            return None
        if self._shown is None or self.smoothing <= 0:
            estimate = raw
        else:
            predicted = self._countdown(now)
            assert predicted is not None  # there is a shown estimate
            pull = 1.0 - math.exp(-(now - self._shown[1]) / self.smoothing)
            estimate = predicted + pull * (raw - predicted)
        self._shown = (estimate, now)
        return estimate

    def _settled(self, now: float, raw: float) -> bool:
        """Whether ``raw`` (seconds) agrees, within :data:`SETTLE_TOLERANCE` of it, with the raw
        estimate made :attr:`settle` seconds or more before ``now``, counted down since (bool);
        ``True`` at once when :attr:`settle` is 0."""
        if self.settle <= 0:
            return True
        self._raws.append((now, raw))
        earlier = [(t, r) for t, r in self._raws if t <= now - self.settle]
        while len(self._raws) > 1 and self._raws[1][0] <= now - self.settle:
            self._raws.popleft()  # keep the latest one old enough
        if not earlier:
            return False
        then, before = earlier[-1]
        return abs(raw - (before - (now - then))) <= SETTLE_TOLERANCE * raw

    def _rate(self, start: float, end: float) -> float:
        """Items per second from ``start`` to ``end`` (float seconds on the clock): the trimmed
        mean of the one-second slices' rates, counted back from ``end``, without the fastest;
        the plain rate when fewer than three whole slices fit (float, >= 0)."""
        times = [t for t, _d in self._samples]
        counts = [d for _t, d in self._samples]
        rates = []
        edge = end
        while edge - RATE_SLICE >= start - 1e-9:
            later = float(np.interp(edge, times, counts))
            rates.append((later - float(np.interp(edge - RATE_SLICE, times, counts))) / RATE_SLICE)
            edge -= RATE_SLICE
        if len(rates) < 3:
            span = end - start
            return (
                (float(np.interp(end, times, counts)) - float(np.interp(start, times, counts))) / span
                if span > 0
                else 0.0
            )
        return (sum(rates) - max(rates)) / (len(rates) - 1)

    def _countdown(self, now: float) -> float | None:
        """The last estimate, less the time since it was made (``None`` if there was none)."""
        if self._shown is None:
            return None
        return max(0.0, self._shown[0] - (now - self._shown[1]))


#: The scan's stages, in order, with the share of the whole scan's progress bar each one
#: nominally takes (see :class:`OverallProgress`).  The names are the ones the scan reports.
STAGE_CACHE = "looking up the feature cache"
STAGE_READ = "reading pages"
#: Counts the pages whose main text had the site's template taken out (the seconds of this step,
#: 5 s on a real site of 1,422 pages; the learning before it takes a fraction of one).
STAGE_TEMPLATES = "learning each site's template"
STAGE_CANDIDATES = "finding candidate pairs"
STAGE_MEASURE = "comparing pairs"
#: The weights are the stages' measured shares of a cold scan's time (2-core machine, no
#: cache): reading 51-59 / 66 / 92 %, the template 8-11 / 1 / 1 %, candidates under 1 %,
#: comparing pairs 33-39 / 32 / 7 % on the real site (1,422 pages, 10,133 pairs; 5 scans), the
#: labelled pairs' pages (362 pages, 479 pairs) and the corpus (330, 90); looking up a cold
#: cache took 0.2 % of the real site's scan, a warm one 6 %.  They follow the real site, whose
#: pages are many and alike; a folder of few pairs (the corpus) compares in less than its share.
#: They sum to 1.
SCAN_STAGES: tuple[tuple[str, float], ...] = (
    (STAGE_CACHE, 0.02),
    (STAGE_READ, 0.56),
    (STAGE_TEMPLATES, 0.07),
    (STAGE_CANDIDATES, 0.01),
    (STAGE_MEASURE, 0.34),
)


class OverallProgress:
    """One figure for a job of several stages, which never goes backwards.

    Each stage takes a share of the bar.  When a stage starts, it gets its nominal weight's part
    of what is left of the bar, among itself and the stages still to come; a stage that is
    skipped leaves its share to the later ones.  The reading stage's weight shrinks to the
    share of the files it has to read after a cache lookup (a warm cache reads few files).
    A stage that is not in the plan is added after the current one, with the smallest weight.

    Args:
        stages: ``(name, weight)`` in the order the job runs them (weights > 0, any scale);
            defaults to :data:`SCAN_STAGES`.

    Example:
        >>> p = OverallProgress([("a", 1.0), ("b", 1.0)])
        >>> p.update("a", 5, 10), p.update("a", 10, 10), p.update("b", 2, 4)
        (0.25, 0.5, 0.75)
    """

    def __init__(self, stages: Sequence[tuple[str, float]] = SCAN_STAGES) -> None:
        self._names = [name for name, _w in stages]
        self._weights = {name: float(w) for name, w in stages}
        self._current: str | None = None
        self._start = 0.0  # the bar's fraction when the current stage started
        self._span = 0.0  # the current stage's share of the bar
        self._fraction = 0.0
        self._cache_files = 0  # files the cache stage looked up (the read stage's reference)
        self._last_total = 0

    @property
    def fraction(self) -> float:
        """The job's progress so far, in [0, 1] (float)."""
        return self._fraction

    def step(self, stage: str) -> tuple[int, int]:
        """``(number, count)`` of ``stage`` among the planned stages, e.g. ``(2, 4)``; stages
        not seen yet but planned count too (tuple[int, int])."""
        if stage not in self._names:
            return (len(self._names) + 1, len(self._names) + 1)
        return (self._names.index(stage) + 1, len(self._names))

    def update(self, stage: str, done: int, total: int, work: tuple[int, int] | None = None) -> float:
        """Take a progress report and return the job's overall fraction done, in [0, 1].

        Args:
            stage: the stage reporting.
            done: its items done (int).
            total: its items (int; 0 or less while unknown: the stage counts as just started).
            work: ``(done, total)`` of the stage's work in finer units (:func:`report_work`;
                the reading step's bytes), which the stage's share of the bar follows instead
                of the items; ``None``, or a total of 0, for none.
        """
        if stage != self._current:
            self._enter(stage, total)
        if work is not None and work[1] > 0:
            done, total = work
        part = min(1.0, max(0.0, done / total)) if total > 0 else 0.0
        self._fraction = max(self._fraction, min(1.0, self._start + self._span * part))
        return self._fraction

    def _enter(self, stage: str, total: int) -> None:
        if stage not in self._names:
            at = self._names.index(self._current) + 1 if self._current in self._names else 0
            self._names.insert(at, stage)
            self._weights[stage] = min(self._weights.values(), default=1.0)
        if self._current == STAGE_CACHE:
            self._cache_files = self._last_total
        previous = self._names.index(self._current) if self._current in self._names else -1
        self._current = stage
        self._last_total = total
        index = self._names.index(stage)
        index = max(index, previous)  # a stage seen again (a second pass): carry on from there
        weight = self._weights[stage]
        if stage == STAGE_READ and self._cache_files > 0 and total >= 0:
            weight *= min(1.0, total / self._cache_files)
        rest = weight + sum(self._weights[n] for n in self._names[index + 1 :])
        self._start = self._fraction
        self._span = (1.0 - self._fraction) * (weight / rest if rest > 0 else 1.0)


def check_cancel(progress: Progress) -> None:
    """Raise :class:`ScanCancelled` if ``progress`` was cancelled."""
    if progress.cancelled():
        raise ScanCancelled("cancelled by the user")
