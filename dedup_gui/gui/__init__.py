"""The Qt front end: the inspector window over the engine in :mod:`dedup_gui.core`.

Widgets and models only; every computation is a call into ``core``.  The window starts in
:func:`dedup_gui.gui.app.run_gui`; this package module holds only what the command line needs
without loading Qt.
"""

from __future__ import annotations

from pathlib import Path

#: The bundled folder of sample pages, scanned when the GUI starts without a folder.
SAMPLES_DIR = Path(__file__).resolve().parents[2] / "resources" / "samples"

#: Views ``--screenshot`` can photograph (``--view NAME``): the whole window, a top tab, a side
#: panel, or an inspector tab.
SCREENSHOT_VIEWS: tuple[str, ...] = (
    "window", "pairs", "pages", "errors", "histogram", "map", "clusters", "thresholds",
    "text-diff", "layout-diff", "rendered", "fingerprints", "why",
)  # fmt: skip
