"""Worker processes end when the scanning process dies (kill -9, out of memory, a crash of the
window), even one busy in a long computation: they must not keep the machine's cores."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

psutil = pytest.importorskip("psutil")

ROOT = Path(__file__).resolve().parents[2]

# A scan of two pages that never end, by two workers, in its own process.
SCRIPT = """
import sys
from dataclasses import replace

from dedup_gui.core.pipeline.loading import discover
from dedup_gui.core.model import ScanSettings
from dedup_gui.core.progress import NullProgress
from dedup_gui.core.pipeline.executors import _PagePool
from tests.core.pool_tasks import block_on_marked_files

if __name__ == "__main__":
    settings = replace(ScanSettings(), page_timeout=3600.0)
    _PagePool(discover(sys.argv[1]).files, settings, workers=2, task=block_on_marked_files).run(NullProgress())
"""


def _gone(proc) -> bool:
    try:
        return proc.status() == psutil.STATUS_ZOMBIE  # dead, only waiting for whoever reaps orphans
    except psutil.NoSuchProcess:
        return True


def test_workers_exit_when_the_scanning_process_is_killed(tmp_path):
    pages, marks = tmp_path / "pages", tmp_path / "marks"
    pages.mkdir()
    marks.mkdir()
    for name in ("busy.html", "sleep.html"):
        (pages / name).write_text("<html><body><p>a page that never ends</p></body></html>")
    (tmp_path / "scan.py").write_text(SCRIPT)
    env = dict(os.environ, PYTHONPATH=str(ROOT), DEDUP_TEST_MARKS=str(marks))
    scanner = subprocess.Popen([sys.executable, str(tmp_path / "scan.py"), str(pages)], cwd=ROOT, env=env)
    children = []
    try:
        deadline = time.monotonic() + 120  # starting workers takes seconds on a busy machine
        while len(os.listdir(marks)) < 2:
            assert scanner.poll() is None, "the scan ended early"
            assert time.monotonic() < deadline, "the workers never started their pages"
            time.sleep(0.1)
        children = psutil.Process(scanner.pid).children(recursive=True)
        in_pages = {int(name.split("-")[1]) for name in os.listdir(marks)}
        assert in_pages <= {c.pid for c in children}  # both workers, in their pages now
        time.sleep(0.5)  # the busy one is deep in its C call
        os.kill(scanner.pid, signal.SIGKILL)
        scanner.wait()
        deadline = time.monotonic() + 5
        while not all(_gone(c) for c in children) and time.monotonic() < deadline:
            time.sleep(0.1)
        # Every process the scan started (both workers, multiprocessing's resource tracker).
        assert [c.pid for c in children if not _gone(c)] == []
    finally:
        for proc in [*children, psutil.Process(scanner.pid) if scanner.poll() is None else None]:
            if proc is not None and not _gone(proc):
                proc.kill()
        scanner.wait()


def _run_guarded(parent_pid_expression: str) -> subprocess.CompletedProcess:
    code = (
        "import os\n"
        "from dedup_gui.core.pipeline.subprocess_guard import exit_with_parent\n"
        f"print(exit_with_parent({parent_pid_expression}))\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_process_whose_parent_already_died_exits_at_once():
    # The parent died before prctl: the process's parent is no longer the pid it was given.
    alive = _run_guarded("os.getppid()")
    assert (alive.returncode, alive.stdout) == (0, "('pdeathsig',)\n")  # not a multiprocessing child
    orphan = _run_guarded("os.getppid() + 1_000_000")
    assert (orphan.returncode, orphan.stdout) == (1, "")
