"""The scan pipeline: folder -> pages -> candidate pairs -> classified pairs -> clusters.

Long work reports to a :class:`~dedup_gui.core.progress.Progress` and stops with
:class:`~dedup_gui.core.progress.ScanCancelled` when it is cancelled.  A file that cannot be used
becomes a :class:`~dedup_gui.core.model.FileError` with its reason; the scan goes on.  The input
folder is only read.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from pathlib import Path

from .cache import FeatureCache
from .candidates import FULL_BUCKET_LIMIT, Candidates, find_candidates
from .classify import classify
from .cluster import build_clusters
from .features import load_page, read_visible_text, with_main_text
from .gil_friendly import sorted_in_slices
from .loading import NotAPageError, PageReadError, SourceFile, discover, followed_links_note, is_page_suffix
from .measures import pair_scores
from .model import DupType, FileError, Page, Pair, ScanResult, ScanSettings, Thresholds
from .progress import (  # the stage names stay part of this module's interface
    STAGE_CACHE,
    STAGE_CANDIDATES,
    STAGE_MEASURE,
    STAGE_READ,
    NullProgress,
    Progress,
    check_cancel,
)
from .site_template import SiteTemplates, strip_templates
from .subprocess_guard import exit_with_parent
from .walk import link_skip_reasons

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
    (:func:`~dedup_gui.core.subprocess_guard.exit_with_parent`), then :func:`_limit_memory`."""
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

    def _new_pool(self) -> ProcessPoolExecutor:
        # Workers die with the thread that started them (PR_SET_PDEATHSIG).  With "spawn" and
        # no max_tasks_per_child, Python 3.11 starts them in submit(), so in the thread calling
        # run(), which ends or kills this pool before it returns: the thread outlives them.
        pool = ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=self.context,
            initializer=_init_worker,
            initargs=(self.settings.page_memory_bytes, os.getpid()),
        )
        # Start every worker and let it import the engine before any page is timed, so the
        # per-page limit measures the page, not the seconds a new process takes to start.
        wait([pool.submit(_worker_ready) for _ in range(self.workers)], timeout=120)
        return pool

    def _kill(self) -> None:
        if self.pool is None:
            return
        for proc in list(getattr(self.pool, "_processes", {}).values()):
            try:
                proc.kill()
            except Exception:
                pass
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.pool = None

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
        try:
            while queue or solo or in_flight:
                check_cancel(progress)
                if self.pool is None:
                    self.pool = self._new_pool()
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
                done = set() if submit_failed else wait(in_flight, timeout=0.2, return_when=FIRST_COMPLETED)[0]
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
                    for i, _start, alone in in_flight.values():
                        (solo if alone else queue).append(i)
                    in_flight.clear()
                    self._kill()
                progress.update(STAGE_READ, done_count, total)
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
        done = 0
        try:
            for future in as_completed(futures):
                i = index[future.key]
                try:
                    results[i] = future.result()
                except Exception as exc:  # a worker died or the task failed
                    results[i] = FileError(files[i].path, f"could not be analysed on the cluster: {type(exc).__name__}: {exc}")
                done += 1
                progress.update(STAGE_READ, done, total)
                check_cancel(progress)
        except BaseException:
            client.cancel(futures)
            raise
    return results


def _analyse_all(files: list[SourceFile], settings: ScanSettings, progress: Progress, on_result=None) -> list:
    total = len(files)
    if settings.dask_scheduler and files:
        progress.update(STAGE_READ, 0, total)
        return _analyse_on_dask(files, settings, progress)
    workers = _worker_count(settings, total)
    progress.update(STAGE_READ, 0, total)
    # Only ``workers=1`` runs in this process.  Otherwise even a single file goes to a worker,
    # where the per-page time and memory limits apply: one pathological page (100,000 nested
    # elements) must not hang the scan.
    if settings.workers == 1 or total == 0:
        results: list = [None] * total
        for i, source in enumerate(files):
            check_cancel(progress)
            results[i] = analyse_file(source, settings)
            if on_result is not None:
                on_result(i, results[i])
            progress.update(STAGE_READ, i + 1, total)
        return results
    return _PagePool(files, settings, workers).run(progress, on_result)


def _analyse_with_cache(
    files: list[SourceFile], settings: ScanSettings, progress: Progress, cache: FeatureCache | None = None
) -> list:
    """Outcomes of :func:`analyse_file` for every file, in order, taking pages from the
    feature cache where it has them and storing the new ones (no cache: analyse all)."""
    if cache is None:
        return _analyse_all(files, settings, progress)
    outcomes: list = [None] * len(files)
    todo: list[int] = []
    for i, source in enumerate(files):
        if i % 64 == 0:
            check_cancel(progress)
            progress.update(STAGE_CACHE, i, len(files))
        outcomes[i] = cache.lookup(source.path, source.abspath)
        if outcomes[i] is None:
            todo.append(i)
        elif outcomes[i].size == 0 and not is_page_suffix(source.path):
            # The cache keys content alone, and an empty x.html is a page; an empty file without
            # a page suffix (emptied since the walk) is not (loading._check_is_html).
            outcomes[i] = source.path
    def keep(k: int, outcome) -> None:
        # Stored as each page finishes, so a cancelled scan keeps the pages it had analysed.
        if isinstance(outcome, Page):
            cache.store(outcome)

    fresh = _analyse_all([files[i] for i in todo], settings, progress, None if settings.dask_scheduler else keep)
    for i, outcome in zip(todo, fresh):
        outcomes[i] = outcome
        if settings.dask_scheduler and isinstance(outcome, Page):
            cache.store(outcome)
    return outcomes


def score_pairs(
    pages: list[Page],
    candidates: list[tuple[int, int]],
    thresholds: Thresholds,
    progress: Progress | None = None,
    cache: FeatureCache | None = None,
) -> list[Pair]:
    """Measure and classify candidate pairs.

    Args:
        pages: the pages.
        candidates: ``(i, j)`` page indices.
        thresholds: the classifier's thresholds.
        progress: progress to report to (optional).
        cache: a feature cache to take known pair measures from and store new ones in.

    Returns:
        Pairs sorted most similar first: duplicates before distinct pairs, then by content
        similarity, layout similarity and path.
    """
    progress = progress or NullProgress()
    pairs = []
    total = len(candidates)
    step = max(1, total // 200)

    def key(i: int, j: int) -> tuple[str, str]:
        # the file and the main text: a site's template, learned per scan, changes the text
        a, b = pages[i].sha1 + pages[i].text_hash, pages[j].sha1 + pages[j].text_hash
        return (a, b) if a < b else (b, a)

    known = cache.lookup_scores([key(i, j) for i, j in candidates]) if cache else {}
    fresh = []
    # The loop makes two objects per pair; with 100,000 pages in memory each full collection
    # walks them all, again and again.  Nothing here makes reference cycles: pause it.
    paused = gc.isenabled()
    gc.disable()
    try:
        for n, (i, j) in enumerate(candidates):
            if n % step == 0:
                check_cancel(progress)
                progress.update(STAGE_MEASURE, n, total)
            scores = known.get(key(i, j))
            if scores is None:
                scores = pair_scores(pages[i], pages[j])
                fresh.append((key(i, j), scores))
            elif scores.templates_known != (pages[i].template_known and pages[j].template_known):
                scores = replace(scores, templates_known=not scores.templates_known)  # learned per scan
            pairs.append(Pair(i, j, scores, classify(scores, thresholds)))
    finally:
        if paused:
            gc.enable()
    if cache:
        cache.store_scores(fresh)
    progress.update(STAGE_MEASURE, total, total)
    return sort_pairs(pairs, pages)


def sort_pairs(pairs: list[Pair], pages: list[Page]) -> list[Pair]:
    """Pairs most similar first (duplicates, then content and layout similarity, then paths).

    Args:
        pairs: the pairs (not changed).
        pages: the pages their indices refer to.

    Returns:
        a new list (list[Pair]), sorted without holding the GIL long (:func:`sorted_in_slices`).
    """
    return sorted_in_slices(
        pairs,
        key=lambda p: (
            p.type is DupType.DISTINCT,
            -p.scores.content_similarity,
            -p.scores.layout_similarity,
            pages[p.left].path,
            pages[p.right].path,
        ),
    )


def candidate_notes(candidates: Candidates, settings: ScanSettings) -> list[str]:
    """What the candidate stage decided that a user should know, in words (list[str])."""
    notes = []
    if candidates.mostly_boilerplate:
        n = candidates.mostly_boilerplate
        notes.append(
            f"{n:,} page{'s' if n != 1 else ''} had half of {'their' if n != 1 else 'its'} main text or more in "
            f"more than {settings.boilerplate_pages} pages; that text counted as boilerplate (template text) "
            "and made no candidate pair (the command line's --boilerplate-pages sets the number of pages)"
        )
    if candidates.identical_stars:
        n = candidates.identical_stars
        notes.append(
            f"{n:,} group{'s' if n != 1 else ''} of more than {FULL_BUCKET_LIMIT} pages with identical main text "
            f"(or identical bytes) {'were' if n != 1 else 'was'} paired as a star: each page with the group's "
            "first page, not every two"
        )
    if candidates.near_copy_stars:
        n = candidates.near_copy_stars
        notes.append(
            f"{n:,} group{'s' if n != 1 else ''} of more than {FULL_BUCKET_LIMIT} near-copies of one page "
            f"{'were' if n != 1 else 'was'} paired as a star: each copy with the group's first page, not every two"
        )
    return notes


def scan_folder(
    root: str | Path,
    settings: ScanSettings | None = None,
    thresholds: Thresholds | None = None,
    progress: Progress | None = None,
) -> ScanResult:
    """Scan a folder of saved pages and classify its duplicate pairs.

    Args:
        root: the folder (read only; never modified).
        settings: scan settings (defaults: :class:`ScanSettings`).
        thresholds: classifier thresholds (defaults: :class:`Thresholds`).
        progress: receives progress; may cancel (defaults: :class:`NullProgress`).

    Returns:
        The :class:`ScanResult`.

    Raises:
        NotADirectoryError: ``root`` is not a folder.
        OSError: ``root`` cannot be listed.
        ScanCancelled: the progress object reported a cancel.
    """
    settings = settings or ScanSettings()
    thresholds = thresholds or Thresholds()
    progress = progress or NullProgress()
    start = time.monotonic()
    found = discover(root, settings.follow_links)
    check_cancel(progress)
    pages: list[Page] = []
    errors = list(found.errors)
    skipped = list(found.skipped)
    cache = FeatureCache(settings, settings.cache_dir) if settings.use_cache else None
    try:
        for outcome in _analyse_with_cache(found.files, settings, progress, cache):
            if isinstance(outcome, Page):
                pages.append(outcome)
            elif isinstance(outcome, FileError):
                errors.append(outcome)
            else:
                skipped.append(outcome)
        learned = SiteTemplates()
        if settings.learn_templates:
            pages, learned = strip_templates(pages, lambda p, text, notes: with_main_text(p, text, notes, settings),
                                             lambda p: read_visible_text(p, settings))  # fmt: skip
        check_cancel(progress)
        progress.update(STAGE_CANDIDATES, 0, 1)
        candidates = find_candidates(pages, settings, lambda: check_cancel(progress))
        check_cancel(progress)
        progress.update(STAGE_CANDIDATES, 1, 1)
        pairs = score_pairs(pages, candidates.pairs, thresholds, progress, cache)
    finally:
        if cache is not None:
            cache.close()
    notes = [cache.problem] if cache is not None and cache.problem else []
    if learned.note():
        notes.append(learned.note())
    if settings.follow_links:
        notes.append(followed_links_note(found.followed_out))
    if not found.files:
        notes.append("no files that could be HTML pages were found in the folder")
    notes += candidate_notes(candidates, settings)
    clusters = build_clusters(len(pages), pairs)
    page_paths = [p.path for p in pages]  # in path order, as the files were
    return ScanResult(
        root=str(Path(root).resolve()),
        pages=pages,
        errors=sorted(errors, key=lambda e: e.path),
        pairs=pairs,
        clusters=clusters,
        thresholds=thresholds,
        settings=settings,
        skipped=sorted(skipped),
        elapsed=time.monotonic() - start,
        notes=notes,
        skip_reasons=link_skip_reasons(found, page_paths),
        also_at={p: found.also_at[p] for p in page_paths if p in found.also_at},
    )
