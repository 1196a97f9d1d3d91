"""The Rendered tab and hostile pages: nothing outside the folder is drawn, nothing freezes the window."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QImage, QPainter, QTextDocument

from dedup_gui.core.model import ScanSettings
from dedup_gui.core.pipeline.scan import scan_folder
from dedup_gui.export.render_process import RenderService, _SafeDocument
from dedup_gui.gui.inspector.rendered_view import RenderedView
from tests.gui.stall import StallMeter
from tests.hostile import BODY, GREEN, RED, freezing_site, image_site

WAIT = 20_000
#: The longest the GUI thread may be kept from its event loop (the issue's promise), in seconds.
MAX_STALL = 0.2


pytestmark = pytest.mark.usefixtures("join_background_jobs")  # tests/gui/conftest.py


def colour_counts(image: QImage) -> tuple[int, int]:
    """Pixels of the test's red and green (within a small tolerance) in ``image``."""
    image = image.convertToFormat(QImage.Format.Format_RGB32)
    red = green = 0
    for y in range(image.height()):
        for x in range(image.width()):
            c = image.pixelColor(x, y)
            rgb = (c.red(), c.green(), c.blue())
            if all(abs(a - b) < 30 for a, b in zip(rgb, RED)):
                red += 1
            elif all(abs(a - b) < 30 for a, b in zip(rgb, GREEN)):
                green += 1
    return red, green


def rendered_view(qtbot, result, service: RenderService | None = None) -> RenderedView:
    view = RenderedView(service=service)
    qtbot.addWidget(view)
    view.resize(1000, 700)
    view.show()
    view.set_pair(result, result.pairs[0], result.thresholds)
    qtbot.waitUntil(lambda: not view.is_rendering(), timeout=WAIT)
    return view


def test_no_image_from_outside_the_folder_is_ever_drawn(qtbot, tmp_path):
    # Every way an outside red image reached the screen before: absolute path, file:// URL,
    # ../, a symlink inside the folder, SVG files and SVG data URLs that draw it.
    result = scan_folder(image_site(tmp_path), ScanSettings(workers=1, use_cache=False))
    assert len(result.pairs) == 1
    view = rendered_view(qtbot, result)
    red, green = colour_counts(view.grab().toImage())
    assert red == 0
    assert green >= 2 * 60 * 60  # the green image inside the folder is drawn on both sides
    requests = view.left.requests
    assert [r.url for r in requests if r.loaded] == ["img/green.png"]
    assert "1 of 10 images shown (not shown: 4 outside the scanned folder" in view.notes_label.text()


def test_the_document_never_lets_qt_load_a_src_itself(qtbot, tmp_path):
    # Qt reads a file: URL from disk whenever loadResource gives no usable answer; ours always
    # answers, with a blank image for anything not decided beforehand.
    red = tmp_path / "red.png"
    from tests.hostile import png_bytes

    red.write_bytes(png_bytes(40, 40, RED))
    doc = _SafeDocument([])
    answer = doc.loadResource(int(QTextDocument.ResourceType.ImageResource.value), QUrl.fromLocalFile(str(red)))
    assert isinstance(answer, QImage) and answer.size().width() == 1
    doc.setTextWidth(200)
    doc.setHtml(f"<p>x</p><img src='{QUrl.fromLocalFile(str(red)).toString()}'><img src='{red}'>")
    image = QImage(200, 200, QImage.Format.Format_RGB32)
    image.fill(0xFFFFFFFF)
    painter = QPainter(image)
    doc.drawContents(painter)
    painter.end()
    assert colour_counts(image)[0] == 0


def test_a_page_that_takes_too_long_is_stopped_and_the_next_is_drawn(qtbot, tmp_path):
    result = scan_folder(image_site(tmp_path), ScanSettings(workers=1, use_cache=False))
    slow = RenderService(timeout=0.01)  # every page is "too slow": its process is killed
    try:
        view = rendered_view(qtbot, result, slow)
        assert view.left.message.text().startswith("the page could not be drawn within 0.01 s")
        assert view.right.message.text().startswith("the page could not be drawn within 0.01 s")
        assert slow.starts == 2  # a new process for the second page
    finally:
        slow.close()
    view = rendered_view(qtbot, result)  # the shared service is unaffected
    assert view.left.page.rendered is not None and view.left.page.rendered.tiles


def test_hostile_pages_never_stall_the_window(qtbot, tmp_path):
    """Scan, then show every pair of the pages that once froze the window in every inspector
    tab, with a 10 ms timer on the GUI thread: no gap between its ticks may exceed 0.2 s, not
    counting the time the thread waited for a CPU (the machine may be busy with other jobs)."""
    from dedup_gui.gui.main_window import MainWindow

    site = freezing_site(tmp_path)
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1200, 800)
    window.show()
    meter = StallMeter()
    meter.doing = "scan"
    try:
        with qtbot.waitSignal(window.scan_ended, timeout=120_000):
            window.start_scan(site)
        result = window.result
        assert len(result.pairs) >= 5, [(e.path, e.reason) for e in result.errors]
        inspector = window.inspector
        for index, pair in enumerate(result.pairs):
            window.select_pair(index)
            for tab in range(inspector.count()):
                meter.doing = f"{result.pages[pair.left].path}, tab {inspector.tabText(tab)}"
                inspector.setCurrentIndex(tab)
                qtbot.waitUntil(lambda: not (inspector.text_diff_view.is_comparing()
                                             or inspector.layout_diff_view.is_comparing()
                                             or inspector.rendered_view.is_rendering()), timeout=WAIT)  # fmt: skip
                qtbot.wait(30)
        rendered = inspector.rendered_view
        assert rendered.left.page.rendered is not None or rendered.left.message.text()
    finally:
        worst = meter.worst()
        window.close()
    assert worst[0] < MAX_STALL, f"the GUI thread stalled {worst[0]:.3f} s during: {worst[1]}"


def test_the_rendered_pages_follow_the_width(qtbot, sample_scan):
    view = rendered_view(qtbot, sample_scan)
    first = view.left.page.rendered
    assert first is not None and abs(first.width - view.left.scroll.viewport().width()) < 40
    view.resize(700, 700)
    qtbot.waitUntil(lambda: view.left.page.rendered is not None and view.left.page.rendered.width < first.width - 50,
                    timeout=WAIT)  # fmt: skip
    assert view.left.page.rendered.height > first.height  # narrower: taller


RENDER_SCRIPT = """
import sys, time
from dedup_gui.export.render_process import RenderService

if __name__ == "__main__":
    service = RenderService()
    service.render("p.html", sys.argv[1], sys.argv[2], 10**7, 400)
    print(service._process.pid, flush=True)
    time.sleep(3600)
"""


def test_the_drawing_process_exits_when_the_window_process_is_killed(tmp_path):
    import os
    import signal
    import subprocess
    import sys

    psutil = pytest.importorskip("psutil")
    root = Path(__file__).resolve().parents[2]
    (tmp_path / "p.html").write_text(f"<html><body>{BODY}</body></html>", encoding="utf-8")
    (tmp_path / "run.py").write_text(RENDER_SCRIPT)
    env = dict(os.environ, PYTHONPATH=str(root))
    window = subprocess.Popen([sys.executable, str(tmp_path / "run.py"), str(tmp_path / "p.html"), str(tmp_path)],
                              cwd=root, env=env, stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        child = psutil.Process(int(window.stdout.readline()))
        assert child.is_running()
        os.kill(window.pid, signal.SIGKILL)
        window.wait()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                if child.status() == psutil.STATUS_ZOMBIE:
                    break
            except psutil.NoSuchProcess:
                break
            time.sleep(0.1)
        else:
            child.kill()
            pytest.fail("the drawing process outlived the window's process")
    finally:
        if window.poll() is None:
            window.kill()
            window.wait()


class _KillOnSend:
    """A pipe end that kills the drawing process with ``sig`` as the request is sent, so the
    window's side reads from a dead process (as when the system kills it for memory)."""

    def __init__(self, conn, pid: int, sig: int) -> None:
        self._conn, self._pid, self._sig = conn, pid, sig

    def send_bytes(self, data: bytes) -> None:
        import os

        self._conn.send_bytes(data)
        os.kill(self._pid, self._sig)

    def __getattr__(self, name):
        return getattr(self._conn, name)


@pytest.mark.parametrize(
    ("sig", "words"),
    [
        ("SIGKILL", "the drawing process was killed (SIGKILL), as the system does when it runs out of memory"),
        ("SIGSEGV", "the drawing process crashed (SIGSEGV) while drawing the page"),
        ("SIGTERM", "the drawing process was stopped from outside (SIGTERM)"),
    ],
)
def test_a_drawing_process_that_dies_is_reported_by_how_it_died_not_by_a_guess(tmp_path, sig, words):
    # Before, every death read "the page may need too much memory", even a crash or a kill from
    # outside; the exit code says which it was.
    import signal

    from dedup_gui.export.render_process import RenderError

    (tmp_path / "p.html").write_text(f"<html><body>{BODY}</body></html>", encoding="utf-8")
    service = RenderService()
    try:
        service._ensure()
        service._conn = _KillOnSend(service._conn, service._process.pid, getattr(signal, sig))
        with pytest.raises(RenderError) as caught:
            service.render("p.html", str(tmp_path / "p.html"), str(tmp_path), 10**7, 400)
        assert str(caught.value) == f"{words}; its text is in the Text diff tab"
        # the next page starts a new process and is drawn
        drawn = service.render("p.html", str(tmp_path / "p.html"), str(tmp_path), 10**7, 400)
        assert drawn.height > 0 and service.starts == 2
    finally:
        service.cancel()


def test_how_it_stopped_names_an_exit_code_and_a_broken_connection():
    from dedup_gui.export.render_process import how_it_stopped

    assert how_it_stopped(3) == "the drawing process exited with code 3 while drawing the page"
    assert how_it_stopped(None, EOFError()) == "the connection to the drawing process broke (EOFError)"
