"""The scan pipeline: folder -> pages -> candidate pairs -> classified pairs -> clusters.

Long work reports to a :class:`~dedup_gui.core.progress.Progress` and stops with
:class:`~dedup_gui.core.progress.ScanCancelled` when it is cancelled.  A file that cannot be used
becomes a :class:`~dedup_gui.core.model.FileError` with its reason; the scan goes on.  The input
folder is only read.
"""

from __future__ import annotations

import gc
import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from functools import partial
from pathlib import Path

from dedup_gui.core.gil_friendly import sorted_in_slices
from dedup_gui.core.model import DupType, FileError, Page, Pair, ScanResult, ScanSettings, Thresholds
from dedup_gui.core.pipeline.cache import FeatureCache
from dedup_gui.core.pipeline.candidates import FULL_BUCKET_LIMIT, Candidates, find_candidates
from dedup_gui.core.pipeline.classify import classify
from dedup_gui.core.pipeline.cluster import build_clusters
from dedup_gui.core.pipeline.executors import (  # noqa: F401  (re-exported: the per-page stage's names stay importable from here)
    WORKERS_PER_CORE,
    analyse_all,
    analyse_file,
    max_workers,
)
from dedup_gui.core.pipeline.features import read_visible_text, with_main_text, with_record
from dedup_gui.core.pipeline.loading import (
    Discovery,
    SourceFile,
    discover,
    display_path,
    followed_links_note,
    is_page_suffix,
)
from dedup_gui.core.pipeline.measures import PairMeasurer
from dedup_gui.core.pipeline.prescreen import screen_files
from dedup_gui.core.pipeline.site_template import SiteTemplates, strip_templates
from dedup_gui.core.pipeline.site_versions import read_version_aliases
from dedup_gui.core.pipeline.walk import is_warc_name, link_skip_reasons
from dedup_gui.core.pipeline.warc import expand_archives
from dedup_gui.core.progress import (  # the stage names stay part of this module's interface
    SLOW_ITEM_SECONDS,
    STAGE_CACHE,
    STAGE_CANDIDATES,
    STAGE_MEASURE,
    STAGE_READ,
    STAGE_TEMPLATES,
    InFlight,
    NullProgress,
    Progress,
    StageNote,
    check_cancel,
    in_flight_text,
)


def analyse_files(
    files: list[SourceFile], settings: ScanSettings, progress: Progress, cache: FeatureCache | None = None
) -> list:
    """The per-page stage of a scan: the outcome of :func:`analyse_file` for every file, in
    order (in worker processes as ``settings`` says), taking pages from the feature cache where
    it has them and storing the new ones (no cache: analyse all).

    Args:
        files: the files to read.
        settings: the scan settings (extractor, workers, limits).
        progress: receives the stages' progress; may cancel.
        cache: an open :class:`FeatureCache`, or ``None``.

    Returns:
        list: per file a :class:`Page`, a :class:`FileError`, or its path (str) when it is not a
        page.

    Raises:
        ScanCancelled: ``progress`` was cancelled.
    """
    if cache is None:
        return analyse_all(files, settings, progress)
    outcomes: list = [None] * len(files)
    todo: list[int] = []
    for i, source in enumerate(files):
        if i % 64 == 0:
            check_cancel(progress)
            progress.update(STAGE_CACHE, i, len(files))
        if source.record is not None:
            found = cache.lookup_key(source.path, source.abspath, source.record.key)
            outcomes[i] = with_record(found, source) if found is not None else None
        else:
            outcomes[i] = cache.lookup(source.path, source.abspath)
        if outcomes[i] is None:
            todo.append(i)
        elif outcomes[i].size == 0 and not is_page_suffix(source.path) and source.record is None:
            # The cache keys content alone, and an empty x.html is a page; an empty file without
            # a page suffix (emptied since the walk) is not (loading._check_is_html).
            outcomes[i] = source.path

    def keep(k: int, outcome) -> None:
        # Stored as each page finishes, so a cancelled scan keeps the pages it had analysed.
        if isinstance(outcome, Page):
            cache.store(outcome)

    # "reading pages: 0 of 946" after a scan of 1,422 files puzzles without the rest's count
    cached = len(files) - len(todo)
    note = f"{cached:,} more found in the feature cache" if cached and todo else ""
    reading = StageNote(progress, STAGE_READ, note)
    fresh = analyse_all([files[i] for i in todo], settings, reading, None if settings.dask_scheduler else keep)
    for i, outcome in zip(todo, fresh):
        outcomes[i] = outcome
        if settings.dask_scheduler and isinstance(outcome, Page):
            cache.store(outcome)
    return outcomes


def pair_cache_key(a: Page, b: Page) -> tuple[str, str]:
    """The feature cache's key of a pair's measures: each page's file hash and main-text hash
    (a site's template, learned per scan, changes the main text of the same file), in order.

    Returns:
        ``(key_a, key_b)`` with ``key_a <= key_b`` (tuple[str, str]).
    """
    ka, kb = a.sha1 + a.text_hash, b.sha1 + b.text_hash
    return (ka, kb) if ka <= kb else (kb, ka)


#: Candidate pairs whose texts are measured together (:meth:`PairMeasurer.prepare`): large
#: enough to keep every core busy, small enough for a cancel to be felt within a second or two.
MEASURE_BATCH = 256


def _measure_threads() -> int:
    """Threads for the pair measures: one per core this process may use (int)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


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
        return pair_cache_key(pages[i], pages[j])

    known = cache.lookup_scores([key(i, j) for i, j in candidates]) if cache else {}
    measure = PairMeasurer()
    fresh = []
    # The loop makes two objects per pair; with 100,000 pages in memory each full collection
    # walks them all, again and again.  Nothing here makes reference cycles: pause it.
    paused = gc.isenabled()
    gc.disable()
    pool = ThreadPoolExecutor(max_workers=_measure_threads(), thread_name_prefix="pair-measures")
    try:
        for n, (i, j) in enumerate(candidates):
            if n % step == 0:
                check_cancel(progress)
                progress.update(STAGE_MEASURE, n, total)
            if n % MEASURE_BATCH == 0:  # the next batch's text distances, on every core
                check_cancel(progress)
                batch = candidates[n : n + MEASURE_BATCH]
                watch = partial(_watch_measures, progress, n, total)
                measure.prepare([(pages[a], pages[b]) for a, b in batch if key(a, b) not in known], pool, watch)
            scores = known.get(key(i, j))
            if scores is None:
                scores = measure(pages[i], pages[j])
                fresh.append((key(i, j), scores))
            elif scores.templates_known != (pages[i].template_known and pages[j].template_known):
                scores = replace(scores, templates_known=not scores.templates_known)  # learned per scan
            pairs.append(Pair(i, j, scores, classify(scores, thresholds)))
    finally:
        # not waiting: on cancel, a measure of two huge texts still running finishes on its own
        pool.shutdown(wait=False, cancel_futures=True)
        if paused:
            gc.enable()
    if cache:
        cache.store_scores(fresh)
    progress.update(STAGE_MEASURE, total, total)
    return sort_pairs(pairs, pages)


def _watch_measures(
    progress: Progress, done: int, total: int, running: list[tuple[Page, Page]], started: float
) -> None:
    """While a batch's texts are measured: stop on cancel, and once it has taken
    :data:`SLOW_ITEM_SECONDS`, name the pairs still measured (two 21 MB texts take seconds, with
    the count standing still)."""
    check_cancel(progress)
    now = time.monotonic()
    if now - started >= SLOW_ITEM_SECONDS:
        items = [InFlight(f"{a.path} and {b.path}", None, started) for a, b in running]
        progress.update(STAGE_MEASURE, done, total, in_flight_text(items, now, verb="comparing the texts of"))


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


def _discover(root: str | Path, settings: ScanSettings) -> Discovery:
    """The walk of ``root``: a folder's (:func:`discover`), or a WARC file alone."""
    path = Path(root)
    if path.is_file() and is_warc_name(path.name):
        return Discovery([SourceFile(display_path(path.name), str(path.resolve()))], [], [])
    return discover(root, settings.follow_links)


def scan_folder(
    root: str | Path,
    settings: ScanSettings | None = None,
    thresholds: Thresholds | None = None,
    progress: Progress | None = None,
) -> ScanResult:
    """Scan a folder of saved pages (or one WARC file) and classify its duplicate pairs.

    WARC files (``.warc``, ``.warc.gz``) in the folder, or given as ``root``, are read record
    by record (:mod:`dedup_gui.core.pipeline.warc`): their HTML records are pages.

    Args:
        root: the folder, or a WARC file (read only; never modified).
        settings: scan settings (defaults: :class:`ScanSettings`).
        thresholds: classifier thresholds (defaults: :class:`Thresholds`).
        progress: receives progress; may cancel (defaults: :class:`NullProgress`).

    Returns:
        The :class:`ScanResult`.

    Raises:
        NotADirectoryError: ``root`` is neither a folder nor a WARC file.
        OSError: ``root`` cannot be listed.
        ScanCancelled: the progress object reported a cancel.
    """
    settings = settings or ScanSettings()
    thresholds = thresholds or Thresholds()
    progress = progress or NullProgress()
    start = time.monotonic()
    found = _discover(root, settings)
    check_cancel(progress)
    archives = expand_archives(found.files, settings.max_file_bytes, lambda: check_cancel(progress))
    # files too large or plainly not pages are set aside unread: the reading step counts the rest
    screened = screen_files(archives.files, settings.max_file_bytes, lambda: check_cancel(progress))
    pages: list[Page] = []
    errors = list(found.errors) + archives.errors + screened.errors
    skipped = list(found.skipped) + archives.skipped + screened.skipped
    cache = FeatureCache(settings, settings.cache_dir) if settings.use_cache else None
    try:
        for outcome in analyse_files(screened.files, settings, progress, cache):
            if isinstance(outcome, Page):
                pages.append(outcome)
            elif isinstance(outcome, FileError):
                errors.append(outcome)
            else:
                skipped.append(outcome)
        learned = SiteTemplates()
        if settings.learn_templates:
            # seconds on a big site: a step of its own that counts pages, not a bar standing still
            pages, learned = strip_templates(pages, lambda p, text, notes: with_main_text(p, text, notes, settings),
                                             lambda p: read_visible_text(p, settings, str(root)),
                                             lambda: check_cancel(progress),
                                             partial(progress.update, STAGE_TEMPLATES))  # fmt: skip
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
    notes += archives.notes
    version_aliases, version_notes = read_version_aliases(str(root), found.skipped)
    notes += version_notes
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
        from_cache=cache.hits if cache is not None else 0,
        notes=notes,
        skip_reasons={**link_skip_reasons(found, page_paths), **archives.skip_reasons},
        also_at={p: found.also_at[p] for p in page_paths if p in found.also_at},
        star_groups=candidates.star_groups,
        link_folders=dict(found.link_folders),
        version_aliases=version_aliases,
    )
