"""The scan pipeline: folder -> pages -> candidate pairs -> classified pairs -> clusters.

Long work reports to a :class:`~dedup_gui.core.progress.Progress` and stops with
:class:`~dedup_gui.core.progress.ScanCancelled` when it is cancelled.  A file that cannot be used
becomes a :class:`~dedup_gui.core.model.FileError` with its reason; the scan goes on.  The input
folder is only read.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path

from .candidates import candidate_pairs
from .classify import classify
from .cluster import build_clusters
from .features import load_page
from .loading import NotAPageError, PageReadError, SourceFile, discover
from .measures import pair_scores
from .model import DupType, FileError, Page, Pair, ScanResult, ScanSettings, Thresholds
from .progress import NullProgress, Progress, check_cancel

STAGE_READ = "reading pages"
STAGE_CANDIDATES = "finding candidate pairs"
STAGE_MEASURE = "comparing pairs"
#: Below this many files a process pool costs more to start than it saves.
POOL_MIN_FILES = 40


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


def _worker_count(settings: ScanSettings, n_files: int) -> int:
    if settings.workers > 0:
        return settings.workers
    return (os.cpu_count() or 1) if n_files >= POOL_MIN_FILES else 1


def _analyse_all(files: list[SourceFile], settings: ScanSettings, progress: Progress) -> list:
    total = len(files)
    results: list = [None] * total
    workers = _worker_count(settings, total)
    progress.update(STAGE_READ, 0, total)
    if workers <= 1:
        for i, source in enumerate(files):
            check_cancel(progress)
            results[i] = analyse_file(source, settings)
            progress.update(STAGE_READ, i + 1, total)
        return results
    # "spawn": forking a process that runs Qt threads can deadlock.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        pending = {pool.submit(analyse_file, source, settings): i for i, source in enumerate(files)}
        done_count = 0
        try:
            while pending:
                done, _ = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                for future in done:
                    i = pending.pop(future)
                    try:
                        results[i] = future.result()
                    except Exception as exc:  # a worker process died (e.g. killed for memory)
                        results[i] = FileError(files[i].path, f"could not be analysed: {type(exc).__name__}: {exc}")
                    done_count += 1
                progress.update(STAGE_READ, done_count, total)
                check_cancel(progress)
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    return results


def score_pairs(
    pages: list[Page],
    candidates: list[tuple[int, int]],
    thresholds: Thresholds,
    progress: Progress | None = None,
) -> list[Pair]:
    """Measure and classify candidate pairs.

    Args:
        pages: the pages.
        candidates: ``(i, j)`` page indices.
        thresholds: the classifier's thresholds.
        progress: progress to report to (optional).

    Returns:
        Pairs sorted most similar first: duplicates before distinct pairs, then by content
        similarity, layout similarity and path.
    """
    progress = progress or NullProgress()
    pairs = []
    total = len(candidates)
    step = max(1, total // 200)
    for n, (i, j) in enumerate(candidates):
        if n % step == 0:
            check_cancel(progress)
            progress.update(STAGE_MEASURE, n, total)
        scores = pair_scores(pages[i], pages[j])
        pairs.append(Pair(i, j, scores, classify(scores, thresholds)))
    progress.update(STAGE_MEASURE, total, total)
    return sort_pairs(pairs, pages)


def sort_pairs(pairs: list[Pair], pages: list[Page]) -> list[Pair]:
    """Pairs most similar first (duplicates, then content and layout similarity, then paths)."""
    return sorted(
        pairs,
        key=lambda p: (
            p.type is DupType.DISTINCT,
            -p.scores.content_similarity,
            -p.scores.layout_similarity,
            pages[p.left].path,
            pages[p.right].path,
        ),
    )


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
    found = discover(root)
    check_cancel(progress)
    pages: list[Page] = []
    errors = list(found.errors)
    skipped = list(found.skipped)
    for outcome in _analyse_all(found.files, settings, progress):
        if isinstance(outcome, Page):
            pages.append(outcome)
        elif isinstance(outcome, FileError):
            errors.append(outcome)
        else:
            skipped.append(outcome)
    progress.update(STAGE_CANDIDATES, 0, 1)
    candidates = candidate_pairs(pages, settings)
    check_cancel(progress)
    progress.update(STAGE_CANDIDATES, 1, 1)
    pairs = score_pairs(pages, candidates, thresholds, progress)
    clusters = build_clusters(len(pages), pairs)
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
    )
