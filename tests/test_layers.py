"""The layer rules that import-linter cannot state: the export may use Qt, but no widgets."""

import ast
from pathlib import Path

from .conftest import REPO


def test_the_export_imports_no_qt_widgets():
    # The PDF is laid out by QTextDocument with a QGuiApplication (offscreen): a widget import
    # would need a QApplication and a screen in a headless export.
    found = []
    for path in sorted((REPO / "dedup_gui" / "export").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            names += [a.name for a in node.names] if isinstance(node, ast.Import) else []
            found += [f"{Path(path).name}: {n}" for n in names if n.startswith("PySide6.QtWidgets")]
    assert found == []
