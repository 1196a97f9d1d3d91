"""The reading step's progress in bytes (its share of the bar and its time left follow the bytes
read, not the count of pages), the stage weights, and the files set aside before reading."""

from __future__ import annotations

import pytest

from dedup_gui.core.model import ScanSettings
from dedup_gui.core.pipeline.executors import PAGE_OVERHEAD_BYTES, analyse_all
from dedup_gui.core.pipeline.loading import discover
from dedup_gui.core.pipeline.prescreen import screen_files
from dedup_gui.core.progress import (
    SCAN_STAGES,
    STAGE_CACHE,
    STAGE_CANDIDATES,
    STAGE_MEASURE,
    STAGE_READ,
    STAGE_TEMPLATES,
    OverallProgress,
    StageNote,
    stage_count_text,
)


class Recording:
    """A progress that keeps every report and every work report, in order."""

    def __init__(self) -> None:
        self.events: list[tuple] = []

    def update(self, stage: str, done: int, total: int, detail: str = "") -> None:
        self.events.append(("update", stage, done, total))

    def work(self, stage: str, done: int, total: int) -> None:
        self.events.append(("work", stage, done, total))

    def cancelled(self) -> bool:
        return False


def page(text: str, pad: int = 0) -> str:
    return f"<html><head><title>{text}</title></head><body><p>{text} {'x' * pad}</p></body></html>"


def mixed_folder(tmp_path):
    """8 pages, a binary file without a page suffix and a page over a 1,000-byte limit."""
    for i in range(8):
        (tmp_path / f"p{i}.html").write_text(page(f"page number {i}"))
    (tmp_path / "blob").write_bytes(bytes(range(256)) * 3)  # binary, no suffix, under the limit
    (tmp_path / "big.html").write_text(page("big", pad=2000))
    return tmp_path


def test_the_reading_step_reports_its_bytes_before_each_count(tmp_path):
    # A small page and one 100 times its size: after the small one, 1 of 2 pages are read but
    # only a sliver of the bytes; the bar and the time left follow the bytes (the real site's
    # 175 tiny redirect pages made early estimates 20-30 % short when pages were counted).
    (tmp_path / "a.html").write_text(page("small"))
    (tmp_path / "b.html").write_text(page("large", pad=100_000))
    files = discover(tmp_path).files
    sizes = [(tmp_path / f.path).stat().st_size for f in files]
    assert [f.size for f in files] == sizes  # the walk keeps each file's size
    total = sum(sizes) + 2 * PAGE_OVERHEAD_BYTES
    progress = Recording()
    analyse_all(files, ScanSettings(workers=1), progress)
    works = [e[2:] for e in progress.events if e[0] == "work"]
    assert works[0] == (0, total) and works[-1] == (total, total)
    assert (sizes[0] + PAGE_OVERHEAD_BYTES, total) in works  # after a.html, the first in order
    assert all(a[0] <= b[0] for a, b in zip(works, works[1:]))
    # each count comes right after its work, so a consumer pairs them
    assert progress.events[-2:] == [("work", STAGE_READ, total, total), ("update", STAGE_READ, 2, 2)]


def test_a_stage_note_passes_the_work_on():
    inner = Recording()
    StageNote(inner, STAGE_READ, "5 more found in the feature cache").work(STAGE_READ, 10, 40)
    assert inner.events == [("work", STAGE_READ, 10, 40)]


def test_the_bar_follows_the_reading_steps_bytes():
    progress = OverallProgress([(STAGE_READ, 1.0), (STAGE_MEASURE, 1.0)])
    progress.update(STAGE_READ, 0, 2, work=(0, 1000))
    # one page of two read, but 900 of its 1,000 bytes: 90 % of the step's half of the bar
    assert progress.update(STAGE_READ, 1, 2, work=(900, 1000)) == pytest.approx(0.45)
    assert progress.update(STAGE_READ, 2, 2, work=(1000, 1000)) == pytest.approx(0.5)


def test_the_stage_weights_sum_to_one_and_fit_the_measured_stage_times():
    weights = dict(SCAN_STAGES)
    assert sum(weights.values()) == pytest.approx(1.0)
    # A hand-made trace of a cold scan (no cache) of the real site with the measured stage
    # times: reading 21.9 s, the template 2.9 s, candidates 0.1 s, comparing pairs 12.8 s
    # (37.7 s).  Reported every 0.1 s at a steady pace within each stage, the bar must never
    # go back and must be within 5 points of the share of the time gone at every stage's start.
    # The old weights (0.05, 0.65, 0.05, 0.05, 0.20) put comparing's start at 79 %, with 66 % of the time gone.
    stages = [(STAGE_READ, 21.9), (STAGE_TEMPLATES, 2.9), (STAGE_CANDIDATES, 0.1), (STAGE_MEASURE, 12.8)]
    total_time = sum(seconds for _n, seconds in stages)
    progress = OverallProgress([(n, w) for n, w in SCAN_STAGES if n != STAGE_CACHE])
    fractions, elapsed = [], 0.0
    for name, seconds in stages:
        steps = max(1, round(seconds * 10))
        first = progress.update(name, 0, steps)
        assert first == pytest.approx(elapsed / total_time, abs=0.05), name
        for k in range(1, steps + 1):
            fractions.append(progress.update(name, k, steps))
        elapsed += seconds
    assert all(a <= b for a, b in zip(fractions, fractions[1:]))
    assert fractions[-1] == pytest.approx(1.0)


def test_too_large_and_binary_files_are_set_aside_before_reading(tmp_path):
    files = discover(mixed_folder(tmp_path)).files
    assert len(files) == 10  # the walk cannot tell them apart by name
    screened = screen_files(files, max_bytes=1000)
    assert [f.path for f in screened.files] == [f"p{i}.html" for i in range(8)]
    assert screened.skipped == ["blob"]
    size = (tmp_path / "big.html").stat().st_size
    assert [(e.path, e.reason) for e in screened.errors] == [
        ("big.html", f"too large: {size:,} bytes > limit of 1,000 bytes (--max-file-mb)")
    ]


def test_the_count_text_is_the_same_for_the_window_and_the_cli():
    assert stage_count_text(STAGE_READ, 1234, 10000) == "reading pages: 1,234 of 10,000"
    assert stage_count_text(STAGE_CANDIDATES, 0, 0) == STAGE_CANDIDATES
