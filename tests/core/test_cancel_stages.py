"""Cancel takes effect within a fraction of a second in every long stage of a scan, and leaves
no worker process behind.

Each stage is made slow on purpose (a mocked slow step, or worker processes that take seconds
to start), the scan is cancelled as the stage begins, and the time from the cancel to
``ScanCancelled`` is measured.  The bound, :data:`BOUND` seconds, is loose for a loaded
two-core machine; the code before the fix took the whole slowed stage (4 s or more) in the
worker start-up and template stages.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace

import pytest

from dedup_gui.core.model import ScanSettings
from dedup_gui.core.pipeline import executors, scan, site_template
from dedup_gui.core.pipeline.executors import _PagePool
from dedup_gui.core.pipeline.loading import discover
from dedup_gui.core.progress import (
    STAGE_CANDIDATES,
    STAGE_MEASURE,
    STAGE_READ,
    STAGE_TEMPLATES,
    CancelToken,
    ScanCancelled,
)
from tests.core.pool_tasks import hang_on_marked_files

psutil = pytest.importorskip("psutil")

#: Seconds from the cancel to the scan's end that every stage must keep (the engine looks every
#: 0.2 s or every 8 pages; the rest is slack for a busy machine).
BOUND = 1.5


class CancelAt:
    """A progress that cancels (and notes the time) at the first update ``when`` accepts."""

    def __init__(self, when) -> None:
        self.when = when
        self.token = CancelToken()
        self.at: float | None = None

    def update(self, stage: str, done: int, total: int, detail: str = "") -> None:
        if self.at is None and self.when(stage, done, total, detail):
            self.at = time.monotonic()
            self.token.cancel()

    def cancelled(self) -> bool:
        return self.token.is_set()


def _workers() -> set[int]:
    """This process's live worker processes (spawned pool workers, not the resource tracker)."""
    found = set()
    for child in psutil.Process().children(recursive=True):
        try:
            if child.status() != psutil.STATUS_ZOMBIE and "resource_tracker" not in " ".join(child.cmdline()):
                found.add(child.pid)
        except psutil.NoSuchProcess:
            pass
    return found


def _site(folder, n: int = 40, copies: int = 2):
    """``n`` pages of one site (one folder), each text written ``copies`` times: identical texts
    make candidate pairs and pairs to measure."""
    folder.mkdir()
    for i in range(n):
        words = " ".join(f"w{i}x{k}" for k in range(80))
        for c in range(copies):
            (folder / f"p{i:03d}-{c}.html").write_text(
                f"<html><head><title>Page {i}</title></head><body><nav>Home About Contact</nav>"
                f"<article><h1>Page {i}</h1><p>{words}</p></article></body></html>"
            )
    return folder


def _scan_cancelled(folder, progress: CancelAt) -> float:
    """Scan ``folder`` in this process (one worker), expecting the cancel; seconds it took."""
    settings = replace(ScanSettings(), workers=1, use_cache=False)
    with pytest.raises(ScanCancelled):
        scan.scan_folder(folder, settings, None, progress)
    assert progress.at is not None, "the stage was never reached"
    return time.monotonic() - progress.at


def test_cancel_during_template_learning_is_felt_at_once(tmp_path, monkeypatch):
    # 80 pages at 0.1 s each: 8 s of template learning; the old code looked at the cancel only after it
    folder = _site(tmp_path / "site")
    done = []
    real = site_template.main_line_hashes

    def slow(text):
        time.sleep(0.1)
        done.append(1)
        return real(text)

    monkeypatch.setattr(site_template, "main_line_hashes", slow)
    took = _scan_cancelled(folder, CancelAt(lambda s, d, t, detail: s == STAGE_TEMPLATES))
    assert took < BOUND
    assert len(done) < 80  # stopped part-way, not at the stage's end


def test_cancel_during_candidate_search_is_felt_at_once(tmp_path, monkeypatch):
    folder = _site(tmp_path / "site")
    real = scan.find_candidates

    def slow(pages, settings, check=None):
        for _ in range(40):  # 4 s of work that looks at the cancel between steps
            time.sleep(0.1)
            if check is not None:
                check()
        return real(pages, settings, check)

    monkeypatch.setattr(scan, "find_candidates", slow)
    took = _scan_cancelled(folder, CancelAt(lambda s, d, t, detail: s == STAGE_CANDIDATES and not detail))
    assert took < BOUND


def test_cancel_while_pairs_are_measured_is_felt_at_once(tmp_path, monkeypatch):
    folder = _site(tmp_path / "site")
    real = scan.PairMeasurer.__call__

    def slow(self, a, b):
        time.sleep(0.1)  # 40 pairs: 4 s
        return real(self, a, b)

    monkeypatch.setattr(scan.PairMeasurer, "__call__", slow)
    took = _scan_cancelled(folder, CancelAt(lambda s, d, t, detail: s == STAGE_MEASURE and d > 0))
    assert took < BOUND


class SlowStartPool(ProcessPoolExecutor):
    """A process pool whose workers take 5 s to start (their initializer sleeps), as when a
    loaded machine spawns the workers and they import the engine."""

    def __init__(self, **kwargs) -> None:
        kwargs.update(initializer=time.sleep, initargs=(5.0,))
        super().__init__(**kwargs)


def test_cancel_while_the_worker_processes_start_is_felt_at_once_and_leaves_none(tmp_path, monkeypatch):
    folder = _site(tmp_path / "site", n=4, copies=1)
    before = _workers()
    monkeypatch.setattr(executors, "ProcessPoolExecutor", SlowStartPool)
    progress = CancelAt(lambda s, d, t, detail: False)
    timer = threading.Timer(0.3, lambda: progress.update(STAGE_READ, 0, 0, "now"))  # while they start
    progress.when = lambda s, d, t, detail: detail == "now"
    timer.start()
    with pytest.raises(ScanCancelled):
        _PagePool(discover(folder).files, ScanSettings(), workers=2).run(progress)
    took = time.monotonic() - progress.at
    assert took < BOUND  # the old code waited for the workers to start: 5 s
    assert _workers() - before == set()  # killed and reaped before run() returned


def test_cancel_while_pages_are_read_leaves_no_worker(tmp_path):
    # pages that never end: only the cancel ends the stage, and it must end their workers too
    folder = tmp_path / "hang"
    folder.mkdir()
    for i in range(2):
        (folder / f"hang{i}.html").write_text("<html><body><p>never read to the end</p></body></html>")
    before = _workers()
    progress = CancelAt(lambda s, d, t, detail: False)
    settings = replace(ScanSettings(), page_timeout=3600.0)
    pool = _PagePool(discover(folder).files, settings, workers=2, task=hang_on_marked_files)
    timer = threading.Timer(1.0, lambda: progress.update(STAGE_READ, 0, 0, "now"))
    progress.when = lambda s, d, t, detail: detail == "now"
    timer.start()
    with pytest.raises(ScanCancelled):
        pool.run(progress)
    assert time.monotonic() - progress.at < BOUND
    assert _workers() - before == set()  # no worker left busy in its page
