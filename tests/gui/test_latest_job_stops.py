"""A view job superseded by a newer one stops early (its result would be thrown away), and the
newest job's result is the one delivered."""

from __future__ import annotations

import threading
import time

from PySide6.QtCore import QThreadPool

from dedup_gui.gui.inspector.jobs import LatestJob

STEPS = 500  # the first job's whole work: 500 steps of 10 ms, 5 s


def test_a_superseded_job_stops_early_and_the_newest_result_is_shown(qtbot):
    pool = QThreadPool()
    pool.setMaxThreadCount(2)
    job = LatestJob(pool=pool)
    done = []

    def first(stop):
        for _ in range(STEPS):
            if stop.is_set():
                return "first, stopped"
            done.append(1)
            time.sleep(0.01)
        return "first"

    job.submit(first, stoppable=True)
    qtbot.waitUntil(lambda: len(done) >= 3, timeout=10_000)  # running, not merely queued
    with qtbot.waitSignal(job.finished, timeout=10_000) as delivered:
        job.submit(lambda stop: "second", stoppable=True)
    assert delivered.args == ["second"]
    assert pool.waitForDone(2_000)  # the first job ended within 2 s of being superseded, not after 5 s
    assert len(done) < STEPS // 2
    qtbot.wait(50)  # a late outcome of the first job would arrive now: it must not be shown
    assert not job.is_running()


def test_a_superseded_job_still_waiting_for_a_thread_never_starts(qtbot):
    pool = QThreadPool()
    pool.setMaxThreadCount(1)
    job = LatestJob(pool=pool)
    release = threading.Event()
    pool.start(lambda: release.wait(10))  # the only thread is busy: the jobs below wait
    started = []

    def older():
        started.append("older")
        return "older"

    def newer():
        started.append("newer")
        return "newer"

    job.submit(older)
    job.submit(newer)
    with qtbot.waitSignal(job.finished, timeout=10_000) as delivered:
        release.set()
    assert delivered.args == ["newer"]
    assert pool.waitForDone(5_000)
    assert started == ["newer"]  # the older one was never run: its result had no use
