"""Progress while pages are slow (issue 20): the report names the pages in flight, with their
size and how long they have been going, and the time-left estimate is withdrawn while no page
finishes; before, a scan stuck on two 21 MB pages said "reading pages: 0 of 7" for 36 s."""

from __future__ import annotations

import dataclasses
import re
import threading
import time

import pytest

from dedup_gui.core.model import Page, ScanSettings, Thresholds
from dedup_gui.core.pipeline import executors, measures, scan
from dedup_gui.core.pipeline.executors import _PagePool, analyse_all
from dedup_gui.core.pipeline.loading import discover
from dedup_gui.core.progress import STAGE_READ, EtaEstimator, InFlight, ScanCancelled, format_size, in_flight_text

from .pool_tasks import slow_on_marked_files
from .views_fixtures import page


class Recorder:
    """A progress that keeps every report with the outcomes known when it came."""

    def __init__(self, finished: list[str]) -> None:
        self.finished = finished
        self.reports: list[tuple[str, int, int, str, tuple[str, ...]]] = []

    def update(self, stage, done, total, detail=""):
        self.reports.append((stage, done, total, detail, tuple(self.finished)))

    def cancelled(self):
        return False


def _folder(tmp_path):
    for i in range(3):
        (tmp_path / f"ok{i}.html").write_text(f"<html><body><p>{f'page {i} words ' * 20}</p></body></html>")
    body = "<p>" + "a big page's words " * 1300 + "</p>"  # 25,000 bytes with the frame
    page = f"<html><body>{body}</body></html>"
    (tmp_path / "slow.html").write_text(page + " " * (25_000 - len(page)))
    return discover(tmp_path).files


SLOW_DETAIL = re.compile(r"still reading slow\.html \(25 kB\) for \d s")


def test_sizes_and_the_in_flight_text_read_as_people_say_them():
    assert [format_size(n) for n in (850, 1500, 12_345, 2_400_000, 21_000_000, 1_300_000_000)] == [
        "850 bytes", "1.5 kB", "12 kB", "2.4 MB", "21 MB", "1.3 GB",
    ]  # fmt: skip
    items = [
        InFlight("big-b.html", 21_000_000, 101.0),
        InFlight("big-a.html", 21_000_000, 100.0),
        InFlight("warc.gz#42", None, 103.0),
        InFlight("x.html", 900, 104.0),
    ]
    # Longest-running first, at most three named, a WARC record has no size.
    assert in_flight_text(items, 112.5) == (
        "still reading big-a.html (21 MB) for 12 s, big-b.html (21 MB) for 11 s, warc.gz#42 for 9 s, and 1 more"
    )
    assert in_flight_text([], 112.5) == ""


def test_the_eta_is_withdrawn_while_no_item_finishes():
    # Five small pages in 0.1 s, then two huge ones for half a minute: the old estimator
    # counted the small pages' rate down to "less than a second left" for the whole wait.
    now = [0.0]
    eta = EtaEstimator(clock=lambda: now[0], min_seconds=0.0, min_fraction=0.0, smoothing=0.0, settle=0.0)
    for done in range(1, 6):
        now[0] = done * 0.02
        eta.eta(STAGE_READ, done, 7)
    assert eta.eta(STAGE_READ, 5, 7) == pytest.approx(0.04)  # 2 left at 50 pages/s
    now[0] = 3.0
    assert eta.eta(STAGE_READ, 5, 7) is None  # 2.9 s without a page: stalled, no figure
    now[0] = 30.0
    assert eta.eta(STAGE_READ, 6, 7) == pytest.approx(29.9)  # 1 left; the wait is in the rate


def test_a_slow_page_in_a_worker_process_is_named_before_it_finishes(tmp_path, monkeypatch):
    files = _folder(tmp_path)
    monkeypatch.setattr(executors, "SLOW_ITEM_SECONDS", 0.3)  # the page sleeps 0.8 s
    finished: list[str] = []
    progress = Recorder(finished)
    results = _PagePool(files, ScanSettings(), workers=2, task=slow_on_marked_files).run(
        progress, on_result=lambda i, _outcome: finished.append(files[i].path)
    )
    assert all(isinstance(r, Page) for r in results)
    named = [r for r in progress.reports if SLOW_DETAIL.fullmatch(r[3])]
    assert named, progress.reports  # the old loop reported counts only
    assert all("slow.html" not in r[4] for r in named)  # each came while the page was in flight
    assert progress.reports[-1][1:4] == (4, 4, "")  # finished: nothing in flight to name


def test_a_slow_page_read_in_this_process_is_named_and_cancel_does_not_wait_for_it(tmp_path, monkeypatch):
    files = _folder(tmp_path)
    monkeypatch.setattr(executors, "SLOW_ITEM_SECONDS", 0.3)
    release = threading.Event()
    real = executors.analyse_file

    def slow(source, settings):
        if source.path == "slow.html":
            release.wait(10)  # a huge page, until the test has seen it named
        return real(source, settings)

    monkeypatch.setattr(executors, "analyse_file", slow)

    class CancelOnceNamed(Recorder):
        def cancelled(self):
            return any(SLOW_DETAIL.fullmatch(r[3]) for r in self.reports)

    progress = CancelOnceNamed([])
    start = time.monotonic()
    try:
        with pytest.raises(ScanCancelled):
            analyse_all(files, ScanSettings(workers=1), progress)
        waited = time.monotonic() - start
    finally:
        release.set()
    named = next(r for r in progress.reports if r[3])
    assert named[:3] == (STAGE_READ, 3, 4)  # ok0-2 done, slow.html (4th in path order) running
    assert waited < 2.0  # cancelled within a poll of the naming, not after the page


class _Cancelling(Recorder):
    """A recorder whose cancel flag the test sets."""

    def __init__(self) -> None:
        super().__init__([])
        self.stop = threading.Event()

    def cancelled(self):
        return self.stop.is_set()


def test_comparing_two_huge_texts_names_them_and_cancel_does_not_wait(monkeypatch):
    # After reading two 21 MB pages, "finding candidate pairs: 1 of 1" stood for 12 s while their
    # texts were measured, and Cancel waited for the measure. The stage now names the pair in
    # flight and stops at once when cancelled (the measure running finishes on its own).
    release = threading.Event()

    def slow_similarity(a, b):
        release.wait(10)
        return 0.5

    monkeypatch.setattr(measures, "text_similarity", slow_similarity)
    monkeypatch.setattr(scan, "SLOW_ITEM_SECONDS", 0.3)
    pages = [dataclasses.replace(page(name), sha1=str(i) * 40, text_hash=str(i) * 40)
             for i, name in enumerate(("big-a.html", "big-b.html"))]  # fmt: skip
    progress = _Cancelling()
    outcome: list = []
    worker = threading.Thread(target=lambda: outcome.append(_run(scan.score_pairs, pages, progress)))
    worker.start()
    deadline = time.monotonic() + 5
    while not any(r[3] for r in progress.reports) and time.monotonic() < deadline:
        time.sleep(0.05)
    details = [r for r in progress.reports if r[3]]
    assert details and re.fullmatch(r"still comparing the texts of big-a\.html and big-b\.html for \d s", details[0][3])
    assert details[0][:3] == ("comparing pairs", 0, 1)
    progress.stop.set()
    stopped = time.monotonic()
    worker.join(5)
    assert time.monotonic() - stopped < 1.0 and outcome == ["cancelled"]  # not waiting for the measure
    release.set()


def _run(score_pairs, pages, progress) -> str:
    try:
        score_pairs(pages, [(0, 1)], Thresholds(), progress)
    except ScanCancelled:
        return "cancelled"
    return "finished"
