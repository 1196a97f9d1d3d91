"""Remake the teaching window's screenshots in docs/screenshots/ (off screen).

Run from the repository root: ``python docs/make_teaching_screenshots.py [OUT_DIR]``.  The method
comparison uses ``../shared/pairs/labels.csv`` when it exists (233 labelled pairs of real pages,
some 30 seconds), else the bundled ``resources/samples/EXPECTED.csv``.  Chinese text needs a CJK
font on the machine (e.g. ``apt-get install fonts-noto-cjk``).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if "QT_QPA_PLATFORM" not in os.environ:  # off screen, on a 1920 x 1080 screen for the presentation mode
    _SCREEN = Path(tempfile.mkdtemp()) / "screen.json"
    _GEOMETRY = {"name": "screen", "x": 0, "y": 0, "width": 1920, "height": 1080, "logicalDpi": 96, "dpr": 1}
    _SCREEN.write_text(json.dumps({"screens": [_GEOMETRY]}))
    os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={_SCREEN}"
sys.path.insert(0, str(REPO))

from PySide6.QtCore import Qt, QThreadPool  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from dedup_gui.core.model import ScanSettings  # noqa: E402
from dedup_gui.core.pipeline.scan import scan_folder  # noqa: E402
from dedup_gui.gui.teaching import TeachingWindow  # noqa: E402
from dedup_gui.gui.teaching.simhash_view import TOY_TEXT  # noqa: E402

OUT = REPO / "docs" / "screenshots"
SAMPLES = REPO / "resources" / "samples"
SHARED_LABELS = REPO.parent / "shared" / "pairs" / "labels.csv"
SIZE = (1280, 860)


def settle(app: QApplication, window: TeachingWindow, timeout: float = 300.0) -> None:
    """Process events until no view is busy and the paints have settled."""
    end = time.monotonic() + timeout
    idle = 0
    while time.monotonic() < end and idle < 5:
        app.processEvents()
        QThreadPool.globalInstance().waitForDone(50)
        app.processEvents()
        idle = 0 if window.is_busy() else idle + 1  # busy covers the figures drawn off the GUI thread
    app.processEvents()


def shoot(app: QApplication, window: TeachingWindow, name: str) -> None:
    """Save an image of the whole teaching window."""
    settle(app, window)
    path = OUT / name
    window.grab().save(str(path))
    print(f"{path}: {window.width()}x{window.height()}")


def main() -> int:
    """Make every teaching screenshot; return 0."""
    app = QApplication.instance() or QApplication(sys.argv)
    global OUT
    if len(sys.argv) > 1:
        OUT = Path(sys.argv[1]).resolve()
    OUT.mkdir(parents=True, exist_ok=True)
    result = scan_folder(SAMPLES, ScanSettings(use_cache=False, workers=1))
    labels = SHARED_LABELS if SHARED_LABELS.is_file() else SAMPLES / "EXPECTED.csv"
    window = TeachingWindow(result, labels_csv=labels)
    window.resize(*SIZE)
    window.show()

    window.show_tab(0)
    view = window.simhash_view
    view.select_page("site/articles/spring-audax-2024.html")
    settle(app, window)
    view.go_to(12)
    shoot(app, window, "teaching-simhash.png")

    view.set_text(TOY_TEXT)
    view.set_eight_bit(True)
    settle(app, window)
    view.go_to(3)
    shoot(app, window, "teaching-simhash-8bit.png")

    window.show_tab(1)
    window.jaccard_view.show_toy()
    shoot(app, window, "teaching-jaccard-toy.png")
    window.jaccard_view.show_pages("site/articles/spring-audax-2023.html", "site/articles/spring-audax-2024.html")
    shoot(app, window, "teaching-jaccard.png")

    window.show_tab(2)
    window.hamming_view.select_pages("site/articles/spring-audax-2023.html", "site/articles/spring-audax-2024.html")
    shoot(app, window, "teaching-hamming.png")

    window.show_tab(3)
    shoot(app, window, "teaching-gallery.png")

    window.resize(1400, 980)
    window.show_tab(4)  # the first show runs the comparison
    shoot(app, window, "teaching-methods.png")

    window.resize(*SIZE)
    window.show_tab(0)
    view.set_eight_bit(False)
    view.select_page("zh/spring-tea-picking-utf8.html")
    settle(app, window)
    window.presentation.set_active(True)
    view.go_to(5)
    shoot(app, window, "teaching-presentation.png")
    window.show_tab(4)  # the method comparison as on a 1600 x 1000 projector
    window.setWindowState(Qt.WindowState.WindowNoState)
    window.resize(1600, 1000)
    settle(app, window)  # the chart is under the confusion matrix, the whole width: scrolled to it
    window.tabs.currentWidget().ensureWidgetVisible(window.methods_view.plot, 0, 0)
    shoot(app, window, "teaching-presentation-methods.png")
    window.show_tab(1)  # the Jaccard view and every tab's title, on 1280 x 800 and 1600 x 1000 projectors
    window.jaccard_view.show_pages("site/articles/spring-audax-2023.html", "site/articles/spring-audax-2024.html")
    for width, height in ((1280, 800), (1600, 1000)):
        window.resize(width, height)
        shoot(app, window, f"teaching-presentation-jaccard-{width}x{height}.png")
    window.resize(1280, 800)  # the SimHash and Hamming views whole, without scrolling, on a 1280 x 800 projector
    window.show_tab(0)
    view.select_page("site/articles/spring-audax-2024.html")
    settle(app, window)
    view.go_to(12)
    shoot(app, window, "teaching-presentation-simhash-1280x800.png")
    window.show_tab(2)
    window.hamming_view.select_pages("site/articles/spring-audax-2023.html", "site/articles/spring-audax-2024.html")
    shoot(app, window, "teaching-presentation-hamming-1280x800.png")
    window.presentation.set_active(False)
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
