"""Running the per-page stage: in this process, in a pool of worker processes, or on Dask.

Each page is one task (:func:`analyse_file`), which never raises for a bad file.  The pool
gives each page a time limit and each worker a memory cap and a lower CPU priority, and its
workers exit when the scanning process dies; a Dask cluster runs the same task where the files
are on a shared file system.  :func:`analyse_all` picks one by the scan settings.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool

from dedup_gui.core.model import FileError, Page, ScanSettings
from dedup_gui.core.pipeline.features import load_page
from dedup_gui.core.pipeline.loading import NotAPageError, PageReadError, SourceFile
from dedup_gui.core.pipeline.subprocess_guard import exit_with_parent
from dedup_gui.core.progress import (
    SLOW_ITEM_SECONDS,
    STAGE_READ,
    InFlight,
    Progress,
    check_cancel,
    in_flight_text,
    report_work,
)

#: The longest wait for a new pool's workers to start and import the engine (seconds).
POOL_START_SECONDS = 120.0

#: The longest wait for a killed worker process to be reaped (seconds; SIGKILL takes milliseconds).
KILL_JOIN_SECONDS = 2.0

#: How much lower the worker processes' CPU priority is than the scanning process's (Unix nice).
WORKER_NICENESS = 5


def analyse_file(source: SourceFile, settings: ScanSettings) -> Page | FileError | str:
    """Analyse one file; never raises for a bad file.

    Returns:
        The :class:`Page`; a :class:`FileError` with the reason it cannot be used; or the
        file's path (str) when it is not a page at all (skipped, not an error).
    """
    try:
        return load_page(source, settings)
    except NotAPageError:
        return source.path
    except PageReadError as exc:
        return FileError(source.path, str(exc))
    except MemoryError:
        return FileError(source.path, "ran out of memory while analysing the page")
    except Exception as exc:  # one bad file must never stop the scan
        return FileError(source.path, f"could not be analysed: {type(exc).__name__}: {exc}")


#: The reading step's work for a file, beyond its bytes (bytes): the time a page takes is
#: nearly proportional to its size plus this.  Fitted on the real site's cold scan (1,422 pages,
#: 83 MB): 0.7 ms per page and 0.24 s per MB, i.e. a page costs about 3 kB of reading.  Its 175
#: tiny redirect pages are read in a blink; counted as pages, they made early estimates 20-30 %
#: short.
PAGE_OVERHEAD_BYTES = 3_000


class ReadWork:
    """The reading step's work in bytes (:data:`PAGE_OVERHEAD_BYTES` per file plus its size from
    the walk), reported beside the count of files (:func:`~dedup_gui.core.progress.report_work`).

    A file of unknown size (a WARC record) counts as the mean of the known sizes, or as the
    overhead alone when none is known.

    Args:
        files: the files of the step, indexed as the runner indexes them.
    """

    def __init__(self, files: list[SourceFile]) -> None:
        known = [f.size for f in files if f.size is not None]
        typical = sum(known) // len(known) if known else 0
        self.units = [PAGE_OVERHEAD_BYTES + (typical if f.size is None else f.size) for f in files]
        self.total = sum(self.units)
        self.done = 0

    def finish(self, i: int) -> None:
        """Count file ``i`` as read."""
        self.done += self.units[i]

    def report(self, progress: Progress, done: int, detail: str = "") -> None:
        """Report the work done, then ``done`` of the files with ``detail`` (:data:`STAGE_READ`)."""
        report_work(progress, STAGE_READ, self.done, self.total)
        progress.update(STAGE_READ, done, len(self.units), detail)


#: Seconds between two looks at the pages in flight: progress is reported again (the seconds
#: of a slow page count up) and Cancel is honoured within this time.
POLL_SECONDS = 0.2


class SlowPages:
    """Names the pages that have been in flight for :data:`SLOW_ITEM_SECONDS` or more, for the
    ``detail`` of a progress report (:func:`~dedup_gui.core.progress.in_flight_text`).

    Args:
        files: the pages of the stage, indexed as the runner indexes them.
    """

    def __init__(self, files: list[SourceFile]) -> None:
        self.files = files
        self._sizes: dict[int, int | None] = {}

    def size(self, i: int) -> int | None:
        """The size of page ``i`` in bytes, looked up once (int), or ``None`` for a WARC record
        or a file that cannot be looked at."""
        if i not in self._sizes:
            source = self.files[i]
            try:
                self._sizes[i] = None if source.record is not None else os.stat(source.abspath).st_size
            except OSError:
                self._sizes[i] = None
        return self._sizes[i]

    def detail(self, running: Iterable[tuple[int, float]], now: float) -> str:
        """The detail for the pages ``running`` as ``(index, start time)`` (``time.monotonic``
        seconds) at ``now`` (str; ``""`` when none is slow yet)."""
        slow = [(i, start) for i, start in running if now - start >= SLOW_ITEM_SECONDS]
        return in_flight_text([InFlight(self.files[i].path, self.size(i), start) for i, start in slow], now)


def starting_text(workers: int, seconds: float) -> str:
    """The detail of a report while the worker processes start, e.g. ``"starting 2 worker
    processes"``, then ``"starting 2 worker processes for 3 s"`` (str).

    Args:
        workers: how many start (int).
        seconds: since they were asked to (float; below one, not said).
    """
    text = f"starting {workers} worker process{'es' if workers != 1 else ''}"
    return text + (f" for {int(seconds)} s" if seconds >= 1 else "")


#: The most worker processes per core (:func:`max_workers`).
WORKERS_PER_CORE = 4


def max_workers() -> int:
    """The most worker processes a scan starts, whatever ``ScanSettings.workers`` asks (int):
    :data:`WORKERS_PER_CORE` per core.  The per-page work is CPU-bound, so more only take memory:
    hundreds of workers, each loading the engine, would exhaust the machine."""
    return WORKERS_PER_CORE * (os.cpu_count() or 1)


def _worker_count(settings: ScanSettings, n_files: int) -> int:
    if settings.workers > 0:
        return min(settings.workers, max_workers())
    return max(1, min(os.cpu_count() or 1, n_files))


def _limit_memory(limit_bytes: int) -> None:
    """Pool initializer: cap the worker's address space, so a page that explodes in memory
    raises MemoryError in its worker instead of exhausting the machine, and lower the worker's
    CPU priority by :data:`WORKER_NICENESS`.

    With one worker per core, the workers would otherwise compete as equals for the cores with
    the process that started them, which in the window runs the GUI thread.  At a lower
    priority they still use every idle cycle.
    """
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))
    except (ImportError, ValueError, OSError):
        pass  # not on this platform, or not allowed: run without the cap
    try:
        os.nice(WORKER_NICENESS)
    except (AttributeError, OSError):
        pass  # no nice() on this platform: same priority as the caller


def _init_worker(limit_bytes: int, parent_pid: int) -> None:
    """Pool initializer: exit when the scanning process ``parent_pid`` dies
    (:func:`~dedup_gui.core.pipeline.subprocess_guard.exit_with_parent`), then :func:`_limit_memory`."""
    exit_with_parent(parent_pid)
    _limit_memory(limit_bytes)


def _worker_ready() -> bool:
    """A no-op task: running it means a worker process has started and imported the engine."""
    return True


class _PagePool:
    """Runs :func:`analyse_file` in worker processes with a per-page time limit.

    At most one task per worker is in flight, so the time since submission is the time the page
    has been running.  A page over the limit gets a :class:`FileError`; its pool is killed and
    rebuilt and the other pages in flight are run again.  If a worker dies (killed for memory,
    a crash in a C library), the pages that were in flight are run again one at a time, so
    only the page that kills a worker alone is reported.
    """

    def __init__(self, files: list[SourceFile], settings: ScanSettings, workers: int, task=None) -> None:
        self.task = task or analyse_file  # a module-level function(SourceFile, ScanSettings)
        self.files = files
        self.settings = settings
        self.workers = workers
        self.context = multiprocessing.get_context("spawn")  # forking beside Qt threads can deadlock
        self.pool: ProcessPoolExecutor | None = None

    def _new_pool(self, progress: Progress, done: int = 0, work: ReadWork | None = None) -> ProcessPoolExecutor:
        """Start :attr:`pool` and wait until every worker has imported the engine, so that the
        per-page limit measures the page, not the seconds a new process takes to start.

        The wait looks at ``progress`` every :data:`POLL_SECONDS`: starting the workers takes
        seconds on a busy machine, and a Cancel meanwhile must not wait for them.

        Args:
            progress: reported to while the workers start (:func:`starting_text`); may cancel.
            done: pages of the stage done so far (int; the count of those reports).
            work: the step's work in bytes, reported too (``None``: a new count of the files).

        Returns:
            The new pool (also :attr:`pool`).

        Raises:
            ScanCancelled: ``progress`` was cancelled (the new pool is left for :meth:`run`
                to kill).
        """
        # Workers die with the thread that started them (PR_SET_PDEATHSIG).  With "spawn" and
        # no max_tasks_per_child, Python 3.11 starts them in submit(), so in the thread calling
        # run(), which ends or kills this pool before it returns: the thread outlives them.
        self.pool = ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=self.context,
            initializer=_init_worker,
            initargs=(self.settings.page_memory_bytes, os.getpid()),
        )
        starting = {self.pool.submit(_worker_ready) for _ in range(self.workers)}
        work = work or ReadWork(self.files)
        began = time.monotonic()
        deadline = began + POOL_START_SECONDS
        while starting and time.monotonic() < deadline:
            check_cancel(progress)
            starting = wait(starting, timeout=POLL_SECONDS)[1]
            if starting:  # seconds on a busy machine, the count at 0: say why
                work.report(progress, done, starting_text(self.workers, time.monotonic() - began))
        return self.pool

    def _kill(self) -> None:
        if self.pool is None:
            return
        processes = list(getattr(self.pool, "_processes", {}).values())
        for proc in processes:
            try:
                proc.kill()
            except Exception:
                pass
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.pool = None
        for proc in processes:  # reaped here (SIGKILL ends them at once): none outlives run()
            try:
                proc.join(KILL_JOIN_SECONDS)
            except Exception:
                pass

    def run(self, progress: Progress, on_result=None) -> list:
        """Analyse every file; ``on_result(i, outcome)`` is called as each one finishes (so a
        cancelled scan keeps what it did).  Returns the outcomes in file order."""
        total = len(self.files)
        results: list = [None] * total
        queue = list(range(total))
        queue.reverse()  # pop() from the end takes files in order
        solo: list[int] = []  # pages to retry alone after a worker died
        in_flight: dict = {}
        done_count = 0
        limit = self.settings.page_timeout
        slow = SlowPages(self.files)
        work = ReadWork(self.files)
        try:
            while queue or solo or in_flight:
                check_cancel(progress)
                if self.pool is None:
                    self.pool = self._new_pool(progress, done_count, work)
                capacity = 1 if solo else self.workers
                source = solo if solo else queue
                submit_failed = False
                while source and len(in_flight) < capacity:
                    i = source.pop()
                    try:
                        future = self.pool.submit(self.task, self.files[i], self.settings)
                    except BrokenProcessPool:  # a worker died since the last round
                        source.append(i)
                        submit_failed = True
                        break
                    in_flight[future] = (i, time.monotonic(), source is solo)
                done = set() if submit_failed else wait(in_flight, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)[0]
                failed: list[int] = []
                for future in done:
                    i, _start, alone = in_flight.pop(future)
                    try:
                        results[i] = future.result()
                        if on_result is not None:
                            on_result(i, results[i])
                    except Exception as exc:
                        if not alone:
                            failed.append(i)  # maybe another page killed the pool: retry alone
                            continue
                        results[i] = FileError(
                            self.files[i].path,
                            f"the process analysing it died ({type(exc).__name__}); "
                            "the page may need more memory than the per-page limit",
                        )
                    done_count += 1
                    work.finish(i)
                if failed or submit_failed:
                    # The pool is broken: every page still in flight fails with it; retry alone.
                    failed += [i for i, _start, _alone in in_flight.values()]
                    in_flight.clear()
                    self._kill()
                    solo.extend(failed)
                now = time.monotonic()
                late = [(f, v) for f, v in in_flight.items() if now - v[1] > limit]
                if late:
                    for future, (i, _start, _alone) in late:
                        del in_flight[future]
                        results[i] = FileError(
                            self.files[i].path,
                            f"analysis took longer than the per-page time limit of {limit:g} s (--page-timeout)",
                        )
                        done_count += 1
                        work.finish(i)
                    for i, _start, alone in in_flight.values():
                        (solo if alone else queue).append(i)
                    in_flight.clear()
                    self._kill()
                running = [(i, start) for i, start, _alone in in_flight.values()]
                work.report(progress, done_count, slow.detail(running, now))
        finally:
            if self.pool is not None:
                if in_flight or queue or solo:
                    self._kill()
                else:
                    self.pool.shutdown(wait=True)
                self.pool = None
        return results


#: How long a Dask scan waits for a first worker to connect to the scheduler (seconds).
DASK_WORKER_WAIT = 30.0


def _analyse_on_dask(files: list[SourceFile], settings: ScanSettings, progress: Progress) -> list:
    """Run :func:`analyse_file` for every file on a Dask distributed cluster.

    The workers must see the files at the same paths (a shared or network file system) and
    have dedup-gui installed.  Results come back in file order, so the rest of the scan is
    identical to a local one.
    """
    try:
        from dask.distributed import Client, as_completed
    except ImportError as exc:
        raise RuntimeError("--dask-scheduler needs the 'distributed' package: pip install 'dedup-gui[dask]'") from exc
    total = len(files)
    results: list = [None] * total
    with Client(settings.dask_scheduler, timeout=30) as client:
        # With no worker the pages would wait forever, silently: wait a little, then say so.
        try:
            client.wait_for_workers(1, timeout=DASK_WORKER_WAIT)
        except Exception as exc:  # TimeoutError, in whichever form this distributed raises it
            raise ConnectionError(
                f"no Dask worker is connected to the scheduler at {settings.dask_scheduler} "
                f"(waited {DASK_WORKER_WAIT:g} s); start one with: dask worker {settings.dask_scheduler}"
            ) from exc
        # Every worker must be able to load the engine; if one cannot, every page would fail
        # with the same error: say it once instead.
        try:
            client.run(_worker_ready)
        except Exception as exc:
            raise ConnectionError(  # an OSError, as when the scheduler cannot be reached
                f"the Dask workers at {settings.dask_scheduler} cannot run dedup-gui "
                f"({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else 'no detail'}); "
                "install dedup-gui, the same version as here, on every worker"
            ) from exc
        futures = client.map(analyse_file, files, settings=settings, pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        work = ReadWork(files)
        done = 0
        try:
            for future in as_completed(futures):
                i = index[future.key]
                try:
                    results[i] = future.result()
                except Exception as exc:  # a worker died or the task failed
                    results[i] = FileError(
                        files[i].path, f"could not be analysed on the cluster: {type(exc).__name__}: {exc}"
                    )
                done += 1
                work.finish(i)
                work.report(progress, done)
                check_cancel(progress)
        except BaseException:
            client.cancel(futures)
            raise
    return results


def analyse_all(files: list[SourceFile], settings: ScanSettings, progress: Progress, on_result=None) -> list:
    total = len(files)
    if settings.dask_scheduler and files:
        ReadWork(files).report(progress, 0)
        return _analyse_on_dask(files, settings, progress)
    workers = _worker_count(settings, total)
    pool = settings.workers != 1 and total > 0
    ReadWork(files).report(progress, 0, starting_text(workers, 0.0) if pool else "")
    # Only ``workers=1`` runs in this process.  Otherwise even a single file goes to a worker,
    # where the per-page time and memory limits apply: one pathological page (100,000 nested
    # elements) must not hang the scan.
    if not pool:
        return _analyse_here(files, settings, progress, on_result)
    return _PagePool(files, settings, workers).run(progress, on_result)


def _in_daemon_thread(source: SourceFile, settings: ScanSettings) -> Future:
    """Start :func:`analyse_file` on ``source`` in a daemon thread; return its future.

    A daemon thread, not a ``ThreadPoolExecutor``'s, whose threads are joined when Python
    exits: Ctrl+C on a huge page must end the program at once, not after the page."""
    future: Future = Future()

    def run() -> None:
        if future.set_running_or_notify_cancel():
            try:
                future.set_result(analyse_file(source, settings))
            except BaseException as exc:  # handed to the waiting thread, which raises it
                future.set_exception(exc)

    threading.Thread(target=run, name="dedup-page", daemon=True).start()
    return future


def _analyse_here(files: list[SourceFile], settings: ScanSettings, progress: Progress, on_result=None) -> list:
    """Analyse the pages one at a time in this process (``workers=1``: no time or memory limit).

    Each page runs in a helper thread while this one looks at it every :data:`POLL_SECONDS`,
    so a slow page is named in the progress and Cancel is honoured at once; a cancelled page
    finishes in the background and its outcome is dropped.
    """
    results: list = [None] * len(files)
    slow = SlowPages(files)
    work = ReadWork(files)
    for i, source in enumerate(files):
        check_cancel(progress)
        start = time.monotonic()
        future = _in_daemon_thread(source, settings)
        while True:
            try:
                results[i] = future.result(timeout=POLL_SECONDS)
                break
            except TimeoutError:
                check_cancel(progress)
                work.report(progress, i, slow.detail([(i, start)], time.monotonic()))
        if on_result is not None:
            on_result(i, results[i])
        work.finish(i)
        work.report(progress, i + 1)
    return results
