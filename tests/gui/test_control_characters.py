"""A right-to-left override (U+202E) or another control character in a file name or title is
shown as a ``<U+202E>`` marker wherever the window shows page paths, as the tables show it:
the inspector's headers, the clusters trees, the teaching window's page choosers and labels.
Drawn raw, ``x\\u202e.html`` was shown reversed ("txt.exe" spoofing)."""

from __future__ import annotations

import dataclasses

import pytest
from PySide6.QtCore import QModelIndex
from PySide6.QtWidgets import QLabel

from dedup_gui.gui.teaching import TeachingWindow
from tests.gui.conftest import open_scanned

LONG = 60_000
RLO = "\u202e"
NAME = f"a/x{RLO}lmth.exe"  # drawn raw: "a/xexe.html"
SHOWN = "a/x<U+202E>lmth.exe"


pytestmark = pytest.mark.usefixtures("join_background_jobs")  # tests/gui/conftest.py


@pytest.fixture
def hostile(result):
    """The hand-built result with page 0 renamed to :data:`NAME` and titled with a U+202E."""
    pages = list(result.pages)
    pages[0] = dataclasses.replace(pages[0], path=NAME, abspath=f"/scan/{NAME}", title=f"Alpha {RLO}olleh")
    return dataclasses.replace(result, pages=pages)


def texts(model, parent: QModelIndex | None = None) -> list[str]:
    """Every display text of a tree model, depth first (list[str])."""
    parent = parent if parent is not None else QModelIndex()
    out = []
    for r in range(model.rowCount(parent)):
        for c in range(model.columnCount(parent)):
            out.append(str(model.index(r, c, parent).data() or ""))
        out += texts(model, model.index(r, 0, parent))
    return out


def test_the_inspector_headers_and_cluster_trees_show_markers(qtbot, fake_scan, tmp_path, hostile):
    win = open_scanned(qtbot, fake_scan, tmp_path, hostile, LONG)
    assert win.pairs_panel.select_record(1)  # alpha (renamed) - beta, a full duplicate
    inspector = win.inspector
    for view in (inspector.text_diff_view, inspector.rendered_view):
        inspector.setCurrentWidget(view)
        assert (view.left_name.text(), view.right_name.text()) == (
            f"left: {SHOWN}",
            "right: a/beta.html",
        )
    inspector.setCurrentWidget(inspector.why_view)
    assert inspector.why_view.heading_label.text().startswith(f"Why {SHOWN} and a/beta.html are classified as")
    labels = [label.text() + label.toolTip() for label in inspector.findChildren(QLabel)]
    assert not [text for text in labels if RLO in text]
    for model in (win.clusters_view.model, win.clusters_view.keep_model):
        shown = texts(model)
        assert not [text for text in shown if RLO in text]
        assert any(SHOWN.split("/")[-1] in text for text in shown)
    win.close()


def test_the_teaching_windows_page_choosers_and_labels_show_markers(qtbot, hostile):
    win = TeachingWindow(hostile)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(lambda: not win.is_busy(), timeout=LONG)
    chooser = win.jaccard_view.page_a
    items = [chooser.itemText(i) for i in range(chooser.count())]
    assert SHOWN in items and not [item for item in items if RLO in item]
    chooser.select_path(NAME)  # the page itself is still chosen by its real path
    assert chooser.page() is hostile.pages[0]
    qtbot.waitUntil(lambda: not win.is_busy(), timeout=LONG)
    labels = [label.text() + label.toolTip() for label in win.findChildren(QLabel)]
    assert not [text for text in labels if RLO in text]
    win.close()
