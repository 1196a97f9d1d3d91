"""The window and the CLI count the same pages to read: files set aside before reading (too
large, plainly not pages) are not among them."""

from __future__ import annotations

import io

from dedup_gui.cli import TerminalProgress
from dedup_gui.core.model import ScanSettings
from dedup_gui.core.pipeline.scan import scan_folder
from dedup_gui.core.progress import STAGE_READ, EtaEstimator
from dedup_gui.gui.scan_status import ScanStatus


class Terminal(io.StringIO):
    def isatty(self):
        return True


class Both:
    """Forwards every report to the window's status and to the CLI's progress, keeping the
    window's label after each reading report."""

    def __init__(self, status: ScanStatus, terminal: TerminalProgress) -> None:
        self.status, self.terminal = status, terminal
        self.labels: list[str] = []

    def update(self, stage: str, done: int, total: int, detail: str = "") -> None:
        self.status.update_progress(stage, done, total, detail)
        self.terminal.last = 0.0  # past its 0.1 s throttle: every report is written
        self.terminal.update(stage, done, total, detail)
        if stage == STAGE_READ:
            self.labels.append(self.status.label.text())

    def work(self, stage: str, done: int, total: int) -> None:
        self.status.update_work(stage, done, total)
        self.terminal.work(stage, done, total)

    def cancelled(self) -> bool:
        return False


def test_the_window_and_the_cli_count_8_pages_to_read_beside_a_binary_and_a_too_large_file(qtbot, tmp_path):
    for i in range(8):
        (tmp_path / f"p{i}.html").write_text(f"<html><body><p>page number {i}, its own words</p></body></html>")
    (tmp_path / "blob").write_bytes(bytes(range(256)) * 3)  # binary, no page suffix, under the limit
    (tmp_path / "big.html").write_text("<html><body><p>" + "x" * 5000 + "</p></body></html>")
    status = ScanStatus(eta_factory=lambda: EtaEstimator(clock=lambda: 0.0))
    qtbot.addWidget(status)
    status.start(str(tmp_path))
    out = Terminal()
    both = Both(status, TerminalProgress(out))
    result = scan_folder(tmp_path, ScanSettings(workers=1, use_cache=False, max_file_bytes=1000), progress=both)
    # the outcomes are as before: 8 pages, the big one an error, the binary one skipped
    assert len(result.pages) == 8
    assert [e.path for e in result.errors] == ["big.html"] and "too large" in result.errors[0].reason
    assert "blob" in result.skipped
    # "Step 2 of 5, reading pages: 0 of 8": 8, not 10, as in the terminal
    assert both.labels[0].endswith("reading pages: 0 of 8") and "reading pages: 8 of 8" in both.labels[-1]
    assert "\rreading pages: 0 of 8" in out.getvalue() and "\rreading pages: 8 of 8\n" in out.getvalue()
    assert not any(" of 10" in label for label in both.labels)
