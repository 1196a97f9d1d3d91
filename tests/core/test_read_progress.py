"""What the reading stage's progress says besides its count: the pages the feature cache had,
and the worker processes starting (seconds with the count at 0, unexplained before)."""

from __future__ import annotations

from dedup_gui.core.model import ScanSettings
from dedup_gui.core.pipeline.cache import FeatureCache
from dedup_gui.core.pipeline.executors import analyse_all, starting_text
from dedup_gui.core.pipeline.loading import discover
from dedup_gui.core.pipeline.scan import analyse_files
from dedup_gui.core.progress import STAGE_CACHE, STAGE_READ, NullProgress

PAGE = "<html><head><title>Page {n}</title></head><body><p>Words of page {n}, its own words.</p></body></html>"


class Recorder:
    """A progress that keeps every report as ``(stage, done, total, detail)``."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, int, int, str]] = []

    def update(self, stage: str, done: int, total: int, detail: str = "") -> None:
        self.seen.append((stage, done, total, detail))

    def cancelled(self) -> bool:
        return False


def _pages(folder, names):
    folder.mkdir(exist_ok=True)
    for n in names:
        (folder / f"p{n}.html").write_text(PAGE.format(n=n), encoding="utf-8")


def test_the_reading_count_says_how_many_more_the_cache_had(tmp_path):
    # After a cancelled scan, the next one said "reading pages: 0 of 946" where the first had
    # said 1,422: the 476 pages already in the feature cache were not counted, nor said.
    folder = tmp_path / "site"
    _pages(folder, range(4))
    settings = ScanSettings(workers=1, cache_dir=str(tmp_path / "cache"))
    with FeatureCache(settings, settings.cache_dir) as cache:
        analyse_files(discover(folder).files, settings, NullProgress(), cache)
    _pages(folder, range(4, 6))  # two new pages: four are in the cache
    progress = Recorder()
    with FeatureCache(settings, settings.cache_dir) as cache:
        analyse_files(discover(folder).files, settings, progress, cache)
    note = "4 more found in the feature cache"
    assert progress.seen == [(STAGE_CACHE, 0, 6, ""), (STAGE_READ, 0, 2, note), (STAGE_READ, 1, 2, note),
                             (STAGE_READ, 2, 2, note)]  # fmt: skip


def test_a_cold_scan_has_no_cache_note(tmp_path):
    folder = tmp_path / "site"
    _pages(folder, range(2))
    settings = ScanSettings(workers=1, cache_dir=str(tmp_path / "cache"))
    progress = Recorder()
    with FeatureCache(settings, settings.cache_dir) as cache:
        analyse_files(discover(folder).files, settings, progress, cache)
    assert [s for s in progress.seen if s[0] == STAGE_READ] == [(STAGE_READ, i, 2, "") for i in range(3)]


def test_the_workers_starting_are_said_while_the_count_is_at_zero(tmp_path):
    # Starting the worker processes took 2-6 s on a busy machine with "reading pages: 0 of 946"
    # and nothing else on the line.
    folder = tmp_path / "site"
    _pages(folder, range(2))
    progress = Recorder()
    analyse_all(discover(folder).files, ScanSettings(workers=2), progress)
    assert progress.seen[0] == (STAGE_READ, 0, 2, "starting 2 worker processes")
    assert progress.seen[-1][:3] == (STAGE_READ, 2, 2)


def test_the_starting_text_counts_seconds():
    assert starting_text(2, 0.4) == "starting 2 worker processes"
    assert starting_text(1, 3.7) == "starting 1 worker process for 3 s"
