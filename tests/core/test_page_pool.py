"""The per-page time limit and crash isolation of the worker pool: one bad page never stops or
stalls the others."""

from dataclasses import replace

from dedup_gui.core.model import FileError, Page, ScanSettings
from dedup_gui.core.pipeline.executors import _PagePool
from dedup_gui.core.pipeline.loading import discover
from dedup_gui.core.progress import NullProgress

from .pool_tasks import die_on_marked_files, hang_on_marked_files


def _folder(tmp_path, bad_names):
    for i in range(6):
        (tmp_path / f"ok{i}.html").write_text(f"<html><body><p>{f'page {i} words ' * 20}</p></body></html>")
    for name in bad_names:
        (tmp_path / name).write_text("<html><body><p>whatever</p></body></html>")
    return discover(tmp_path).files


def test_a_hanging_page_is_cut_off_and_the_rest_is_analysed(tmp_path):
    files = _folder(tmp_path, ["hang.html"])
    settings = replace(ScanSettings(), page_timeout=3.0)
    results = _PagePool(files, settings, workers=2, task=hang_on_marked_files).run(NullProgress())
    by_path = {f.path: r for f, r in zip(files, results)}
    assert isinstance(by_path["hang.html"], FileError)
    assert "per-page time limit of 3 s" in by_path["hang.html"].reason
    assert all(isinstance(by_path[f"ok{i}.html"], Page) for i in range(6))


def test_a_page_that_kills_its_worker_is_reported_alone(tmp_path):
    files = _folder(tmp_path, ["die.html"])
    results = _PagePool(files, ScanSettings(), workers=2, task=die_on_marked_files).run(NullProgress())
    by_path = {f.path: r for f, r in zip(files, results)}
    assert isinstance(by_path["die.html"], FileError)
    assert "died" in by_path["die.html"].reason
    # The pages that were in flight with it when the pool broke are retried and succeed.
    assert all(isinstance(by_path[f"ok{i}.html"], Page) for i in range(6))


def test_the_time_limit_does_not_count_worker_start_up(tmp_path):
    # Starting a worker and importing the engine takes seconds on a busy machine; with a
    # 1.5 s limit ordinary small pages must still pass, since workers are started first.
    files = _folder(tmp_path, [])
    settings = replace(ScanSettings(), page_timeout=1.5)
    results = _PagePool(files, settings, workers=2).run(NullProgress())
    assert all(isinstance(r, Page) for r in results), results
