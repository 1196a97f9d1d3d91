"""No page-derived string is ever shown as rich text: labels, tooltips, items, headers, message boxes.

Qt shows a label's or tooltip's text as HTML whenever ``Qt.mightBeRichText`` says it looks like
HTML, so a crawl folder named ``<img src="/home/me/secret.png">`` once drew that file in a
tooltip.  These tests scan a folder whose path, file names and titles are such markup, open every
view, and check every string the window holds.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtWidgets import QAbstractItemView, QLabel, QMessageBox, QTabBar, QWidget

from dedup_gui.gui.main_window import MainWindow
from tests.hostile import BODY, RED, png_bytes

LONG = 120_000


def hostile_folder(tmp_path: Path) -> tuple[Path, str]:
    """A folder whose own path, file names and page titles are image markup pointing at a red
    image outside it.  Returns the folder and the markup."""
    red = tmp_path / "outside" / "red.png"
    red.parent.mkdir()
    red.write_bytes(png_bytes(40, 40, RED))
    markup = f'<img src="{red}">'
    folder = Path(str(tmp_path / "crawl") + "/" + markup)  # '<img src="' / tmp / ... / 'red.png">'
    folder.mkdir(parents=True)
    title = markup.replace("<", "&lt;").replace(">", "&gt;")
    for name in ("<b>a.html", "<i>b.html"):
        (folder / name).write_text(f"<html><head><title>{title}</title></head><body>{BODY}</body></html>",
                                   encoding="utf-8")  # fmt: skip
    return folder, markup


def rich_strings(root: QWidget) -> list[str]:
    """Every string under ``root`` that Qt would draw as HTML and that carries the test's markup."""
    found = []

    def check(where: str, text, plain_format: bool = False) -> None:
        marked = isinstance(text, str) and any(tag in text for tag in ("<img", "<b>", "<i>"))
        if marked and GuiQt.mightBeRichText(text) and not plain_format:
            found.append(f"{where}: {text[:80]}")

    for widget in [root, *root.findChildren(QWidget)]:
        name = f"{type(widget).__name__} {widget.objectName()}"
        check(f"tooltip of {name}", widget.toolTip())
        if isinstance(widget, QLabel):
            check(f"text of {name}", widget.text(), widget.textFormat() == Qt.TextFormat.PlainText)
        if isinstance(widget, QMessageBox):
            check(f"message {name}", widget.text(), widget.textFormat() == Qt.TextFormat.PlainText)
        if isinstance(widget, QTabBar):
            for i in range(widget.count()):
                check(f"tab tooltip of {name}", widget.tabToolTip(i))
        if isinstance(widget, QAbstractItemView) and widget.model() is not None:
            model = widget.model()
            for column in range(model.columnCount()):
                check(f"header tooltip of {name}", model.headerData(column, Qt.Orientation.Horizontal,
                                                                    Qt.ItemDataRole.ToolTipRole))  # fmt: skip
            stack = [QModelIndex()]
            while stack:
                parent = stack.pop()
                for row in range(min(model.rowCount(parent), 50)):
                    for column in range(model.columnCount(parent)):
                        index = model.index(row, column, parent)
                        check(f"item tooltip in {name}", model.data(index, Qt.ItemDataRole.ToolTipRole))
                    stack.append(model.index(row, 0, parent))
    return found


def test_no_page_string_is_rich_text_anywhere_in_the_window(qtbot, tmp_path):
    folder, markup = hostile_folder(tmp_path)
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1200, 800)
    window.show()
    with qtbot.waitSignal(window.scan_ended, timeout=LONG):
        window.start_scan(folder)
    result = window.result
    assert len(result.pages) == 2 and result.pages[0].title == markup  # the markup did reach the window
    assert window.select_pair(0)
    inspector = window.inspector
    for tab in range(inspector.count()):
        inspector.setCurrentIndex(tab)
        qtbot.waitUntil(lambda: not (inspector.text_diff_view.is_comparing()
                                     or inspector.layout_diff_view.is_comparing()
                                     or inspector.rendered_view.is_rendering()), timeout=LONG)  # fmt: skip
        assert rich_strings(window) == []
    for tab in range(window.tabs.count()):
        window.tabs.setCurrentIndex(tab)
        qtbot.wait(20)
        assert rich_strings(window) == []
    # the path label's tooltip repeats the path, escaped
    tip = inspector.rendered_view.left_name.toolTip()
    assert "left: &lt;b&gt;a.html" in tip
    window.close()


def test_message_boxes_show_a_folder_name_as_plain_text(qtbot, tmp_path):
    folder, markup = hostile_folder(tmp_path)
    window = MainWindow()
    qtbot.addWidget(window)
    missing = folder / "gone"
    window.open_recent(str(missing))  # "Folder not found"
    boxes = [box for box in window.findChildren(QMessageBox) if box.isVisible()]
    assert boxes and markup in boxes[-1].text()
    assert boxes[-1].textFormat() == Qt.TextFormat.PlainText
    for box in boxes:
        box.close()
    window.close()
