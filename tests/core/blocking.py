"""A guard for tests of code that must not block: run it in a thread with a time limit."""

from __future__ import annotations

import os
import threading

import pytest


def finishes_within(seconds: float, fn, unblock: os.PathLike | str | None = None):
    """Run ``fn()`` in a daemon thread and return its result (or raise its exception).

    Args:
        seconds: how long ``fn`` may take.
        fn: the call to make, without arguments.
        unblock: a FIFO that ``fn`` may be stuck opening or reading: on a timeout it is opened
            for writing and closed, so the stuck reader sees the end of the file and the thread
            ends instead of hanging the test run.

    Raises:
        pytest.fail.Exception: ``fn`` did not finish within ``seconds``.
    """
    outcome: dict = {}

    def run() -> None:
        try:
            outcome["result"] = fn()
        except BaseException as exc:  # handed to the test's thread
            outcome["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        if unblock is not None:
            try:
                os.close(os.open(unblock, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                pass
            thread.join(5)
        pytest.fail(f"blocked: did not finish within {seconds:g} s")
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("result")
