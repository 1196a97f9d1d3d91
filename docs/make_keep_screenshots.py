"""Remake the keep screenshots in docs/screenshots/ (off screen): the keep clusters with a page
kept by the user's choice (``keep-clusters.png``) and the Re-prioritize dialog
(``reprioritize.png``), on the sample pages.

Run from the repository root: ``python docs/make_keep_screenshots.py``.  The user's settings
and decisions are kept in a temporary folder, never in the user's own.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "docs" / "screenshots"
SAMPLES = REPO / "resources" / "samples"


def main() -> int:
    """Make both screenshots; return 0."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    home = tempfile.mkdtemp(prefix="dedup-gui-shots-")
    os.environ["XDG_CONFIG_HOME"] = home  # decisions and settings beside, not in the user's
    os.environ["XDG_CACHE_HOME"] = home
    from PySide6.QtCore import QEventLoop, QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from dedup_gui.core.model import ScanSettings
    from dedup_gui.gui.main_window import MainWindow
    from dedup_gui.gui.settings import AppSettings

    app = QApplication.instance() or QApplication(sys.argv)
    settings = AppSettings(QSettings(str(Path(home) / "settings.ini"), QSettings.Format.IniFormat))
    win = MainWindow(settings=ScanSettings(workers=1, use_cache=False), app_settings=settings)
    win.resize(1400, 860)
    win.show()

    def wait(condition) -> None:
        while not condition():
            loop = QEventLoop()
            QTimer.singleShot(50, loop.quit)
            loop.exec()

    win.start_scan(str(SAMPLES))
    wait(lambda: win.result is not None and not win.is_busy())
    river = next(i for i, p in enumerate(win.result.pages) if p.path == "site/articles/river-trail.html")
    win.keep_page_instead(river)  # the user's choice: the site's copy rather than the mirror's
    wait(lambda: not win.is_busy() and win.result.keep_policy.chosen)
    view = win.clusters_view
    view.setParent(None)  # out of its dock, at a size of its own
    view.resize(760, 330)
    view.show()
    view.tree.expandAll()
    view.highlight_page(river)
    app.processEvents()
    view.grab().save(str(OUT / "keep-clusters.png"))

    win.open_reprioritize()
    dialog = win.reprioritize_dialog
    dialog.criteria.setCurrentRow(2)
    dialog.up_button.click()  # longest main content above the version folders
    dialog.pattern_edit.setText("site/*")
    dialog.add_folder("site/articles")
    dialog.resize(740, 500)
    app.processEvents()
    dialog.grab().save(str(OUT / "reprioritize.png"))
    dialog.reject()
    win.close()
    print(f"wrote {OUT / 'keep-clusters.png'} and {OUT / 'reprioritize.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
