"""Fixtures for the GUI tests: a hand-built ScanResult and a controllable fake scan."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from PySide6.QtCore import QEvent, Qt, QThreadPool
from PySide6.QtWidgets import QLineEdit

from dedup_gui.core.model import (
    Cluster,
    DupType,
    FileError,
    Page,
    Pair,
    PairScores,
    ScanResult,
    ScanSettings,
    Thresholds,
)
from dedup_gui.core.progress import ScanCancelled
from dedup_gui.gui.inspector.jobs import command_pool
from dedup_gui.gui.teaching import TeachingWindow


def make_page(path: str, words: int, simhash: int, title: str = "", text: str | None = None,
              has_text: bool = True, url: str | None = None) -> Page:  # fmt: skip
    """A Page with the given visible features and dummy fingerprints."""
    return Page(
        path=path,
        abspath=f"/scan/{path}",
        size=1000,
        sha1="0" * 40,
        encoding="utf-8",
        encoding_source="meta",
        title=title,
        url=url,
        main_text=text if text is not None else f"main text of {path}",
        text_hash="0" * 40,
        tag_sequence=("html", "body"),
        simhash=simhash,
        shingles=np.zeros(0, np.uint32),
        minhash=np.zeros(128, np.uint64),
        word_count=words,
        has_text=has_text,
    )


def scores(content: float, hamming: int, jaccard: float = 0.5, layout: float = 0.5,
           containment: float = 0.5) -> PairScores:  # fmt: skip
    """PairScores with the given values."""
    return PairScores(content, containment, layout, hamming, jaccard)


@pytest.fixture(autouse=True)
def _isolated_settings(tmp_path, monkeypatch):
    """Keep every test's remembered settings (QSettings) in its own file, never the user's."""
    from PySide6.QtCore import QStandardPaths

    from dedup_gui.gui.settings import SETTINGS_ENV

    path = tmp_path / "settings" / "dedup-gui.ini"
    path.parent.mkdir()
    monkeypatch.setenv(SETTINGS_ENV, str(path))
    QStandardPaths.setTestModeEnabled(True)
    yield path


@pytest.fixture(scope="session", autouse=True)
def _guard_none_refcount():
    """Apply the PySide6 6.12.0 / CPython 3.11 guard for the whole GUI test session."""
    from dedup_gui.gui.compat import guard_none_refcount

    guard_none_refcount()


@pytest.fixture(name="make_page")
def make_page_fixture():
    """The :func:`make_page` builder, for tests that build their own pages."""
    return make_page


@pytest.fixture
def result() -> ScanResult:
    """Five pages (one without text), two file errors, one pair of each type.

    The first pair in the result is distinct, so "select the first non-distinct pair" is
    tested.  Word counts and Hamming distances sort differently as text than as numbers.
    """
    pages = [
        make_page("a/alpha.html", 1500, 0x0123456789ABCDEF, "Alpha", "Alpha text\nsecond paragraph"),
        make_page("a/beta.html", 120, 0x0123456789ABCDEE, "Beta", "Beta text"),
        make_page("b/gamma.html", 9, 0xFFFF000000000000, "Gamma"),
        make_page("b/delta.html", 40, 0x1, "Delta", url="https://example.org/delta"),
        make_page("c/empty.html", 0, 0, "", "", has_text=False),
    ]
    pairs = [
        Pair(3, 4, scores(0.050, 33), DupType.DISTINCT),
        Pair(0, 1, scores(0.990, 2, 0.950, 0.980, 0.990), DupType.FULL),
        Pair(0, 2, scores(0.950, 10), DupType.CONTENT),
        Pair(1, 2, scores(0.600, 20), DupType.LAYOUT),
        Pair(2, 3, scores(0.400, 25), DupType.PARTIAL),
    ]
    clusters = [
        Cluster(
            1, (0, 1, 2, 3), frozenset({DupType.FULL, DupType.CONTENT, DupType.LAYOUT, DupType.PARTIAL})
        ),  # fmt: skip
    ]
    return ScanResult(
        root="/scan",
        pages=pages,
        errors=[
            FileError("broken.html", "could not be decoded"),
            FileError("huge.html", "too large (60 MB)"),
        ],  # fmt: skip
        pairs=pairs,
        clusters=clusters,
        thresholds=Thresholds(),
        settings=ScanSettings(),
    )


class FakeScan:
    """A scan function that reports ``steps`` progress updates, ``delay`` seconds apart, and
    returns ``result``; it honours cancel like the engine and records how it ended.

    Args:
        result: what the scan returns.
        steps: progress updates before returning.
        delay: seconds between updates.
        error: raised instead of returning, if given.
    """

    def __init__(self, result: ScanResult, steps: int = 3, delay: float = 0.0,
                 error: Exception | None = None) -> None:  # fmt: skip
        self.result = result
        self.steps = steps
        self.delay = delay
        self.error = error
        self.calls: list[str] = []
        self.outcomes: list[str] = []
        self.started = threading.Event()
        self.thread_names: list[str] = []

    def __call__(self, root, settings, thresholds, progress) -> ScanResult:
        self.calls.append(str(root))
        self.thread_names.append(threading.current_thread().name)
        self.started.set()
        try:
            for i in range(self.steps):
                if progress.cancelled():
                    raise ScanCancelled("cancelled by the user")
                progress.update("reading pages", i, self.steps)
                time.sleep(self.delay)
            if self.error is not None:
                raise self.error
        except ScanCancelled:
            self.outcomes.append("cancelled")
            raise
        except Exception:
            self.outcomes.append("failed")
            raise
        self.outcomes.append("finished")
        return self.result


@pytest.fixture
def fake_scan(result):
    """A factory of :class:`FakeScan` objects returning the hand-built result by default."""

    def make(**kwargs) -> FakeScan:
        kwargs.setdefault("result", result)
        return FakeScan(**kwargs)

    return make


def open_scanned(qtbot, fake_scan, folder, result: ScanResult, timeout: int = 60_000):
    """A shown main window that has "scanned" ``folder`` into ``result`` (a fake scan), idle."""
    from dedup_gui.gui.main_window import MainWindow

    win = MainWindow(scan_fn=fake_scan(result=result))
    qtbot.addWidget(win)
    win.show()
    with qtbot.waitSignal(win.scan_ended, timeout=timeout):
        win.start_scan(folder)
    qtbot.waitUntil(lambda: not win.is_busy(), timeout=timeout)
    return win


class ClaimingLineEdit(QLineEdit):
    """A line edit that claims every Ctrl key in ShortcutOverride, as X11's claims Ctrl+E ("end
    of line"); the offscreen platform's claims none, so window-shortcut tests use this one."""

    def event(self, e):
        """Accept a Ctrl key's ShortcutOverride (the shortcut never sees it); the rest as usual."""
        if e.type() == QEvent.Type.ShortcutOverride and e.modifiers() & Qt.KeyboardModifier.ControlModifier:
            e.accept()
            return True
        return super().event(e)


@pytest.fixture
def join_background_jobs():
    """Let no background computation outlive its test: after it, wait for Qt's global thread
    pool and the commands' pool (60 s at most each).  A test module takes it with
    ``pytestmark = pytest.mark.usefixtures("join_background_jobs")``."""
    yield
    QThreadPool.globalInstance().waitForDone(60_000)
    command_pool().waitForDone(60_000)


@pytest.fixture
def blocked_global_pool():
    """Every thread of Qt's global pool busy until the test ends, as when the map of 10,000
    pairs and the inspector's tabs compute there (a view's jobs queue behind them)."""
    pool = QThreadPool.globalInstance()
    release = threading.Event()
    started = threading.Semaphore(0)

    def block():
        started.release()
        release.wait(60)

    for _ in range(pool.maxThreadCount()):
        pool.start(block)
    for _ in range(pool.maxThreadCount()):
        assert started.acquire(timeout=60)
    yield
    release.set()


@pytest.fixture
def site(tmp_path):
    """A folder ``site`` with one page ``a.html`` (the decisions tests' scanned folder; their scan
    is faked, so the page's text does not matter)."""
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "a.html").write_text("<p>a</p>")
    return folder


@pytest.fixture
def teach(qtbot, sample_scan):
    """A shown teaching window on the bundled samples' scan, its views settled (the teacher's
    walkthrough tests)."""
    window = TeachingWindow(sample_scan)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=60_000)
    return window
