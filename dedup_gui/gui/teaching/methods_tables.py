"""The method comparison tab's tables (:mod:`.methods_view`): every method's precision, recall
and F1 at its threshold in use, and the four-type classifier's confusion matrix with its
per-type scores, rounded as the CLI's ``evaluate`` prints them (3 decimals)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem

from dedup_gui.core.evaluation.evaluate import Evaluation, score_text
from dedup_gui.core.evaluation.method_eval import MethodsReport, precision_text
from dedup_gui.core.model import TYPE_ORDER
from dedup_gui.core.views.relations import display_relations
from dedup_gui.gui.teaching.widgets import blend

#: The methods table's columns ("in use": the threshold the window's settings give, as the CLI says).
METHOD_HEADERS = ("method", "in use", "precision", "recall", "F1", "TP", "FP", "FN", "TN", "best", "best F1")
#: What each column of the methods table means, its header's tooltip: F1 and the four counts
#: were nowhere defined on screen.
METHOD_HEADER_TIPS = {
    "method": "The method; its rule and source in each name's tooltip.",
    "in use": "The threshold the window's settings give (a yes/no method has none).",
    "precision": "Precision = TP / (TP + FP): the share of the pairs called duplicates that are.",
    "recall": "Recall = TP / (TP + FN): the share of the duplicate pairs found.",
    "F1": "F1 = 2 × precision × recall / (precision + recall), their harmonic mean: 1 is perfect, 0 none right.",
    "TP": "True positives: duplicate pairs the method calls duplicates.",
    "FP": "False positives: distinct pairs the method calls duplicates.",
    "FN": "False negatives: duplicate pairs the method misses.",
    "TN": "True negatives: distinct pairs the method calls distinct.",
    "best": "The threshold of the sweep with the highest F1 on these labels.",
    "best F1": "F1 at the best threshold (fitted to these labels: expect less on others).",
}
#: The confusion matrix's summary terms, the summary's tooltip.
SUMMARY_TIP = (
    "Accuracy: the share of pairs given their labelled type. P: precision, R: recall, "
    "F1 = 2 × P × R / (P + R), for pairs of each labelled type; macro-F1: the mean of the types' F1."
)
_GOOD = QColor("#c8e6c9")
_BAD = QColor("#ffcdd2")


def results_table(headers: Sequence[str]) -> QTableWidget:
    """A read-only table with these column headers, rows selected whole, each header named in
    :data:`METHOD_HEADER_TIPS` with its definition as tooltip (QTableWidget)."""
    table = QTableWidget(0, len(headers))
    table.setHorizontalHeaderLabels(list(headers))
    for col, name in enumerate(headers):
        if name in METHOD_HEADER_TIPS:
            table.horizontalHeaderItem(col).setToolTip(METHOD_HEADER_TIPS[name])
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    return table


def fill_methods_table(t: QTableWidget, report: MethodsReport) -> None:
    """One row per method of ``report``: its threshold in use, P, R, F1 (shaded), the counts,
    and its best sweep threshold and F1."""
    t.setRowCount(len(report.specs))
    for row, spec in enumerate(report.specs):
        d, b = report.defaults[spec.key], report.best[spec.key]
        values = [spec.name, display_relations(spec.label(d.threshold)), precision_text(d), f"{d.recall:.3f}", f"{d.f1:.3f}",
                  str(d.tp), str(d.fp), str(d.fn), str(d.tn),
                  display_relations(spec.label(b.threshold)) if spec.sweep else "", f"{b.f1:.3f}" if spec.sweep else ""]  # fmt: skip
        for col, value in enumerate(values):
            item = QTableWidgetItem(value)
            if col == 0:
                item.setToolTip(f"{spec.name}: {display_relations(spec.rule)}")  # our own text, not page-derived
            else:
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            if col == 4:
                item.setBackground(blend(QColor("#ffffff"), QColor("#66bb6a"), d.f1))
                item.setForeground(QColor("#000000"))
            t.setItem(row, col, item)
    # no resizeColumnsToContents: it would fix the stretched name column's width until the next resize


def fill_confusion_table(t: QTableWidget, ev: Evaluation) -> str:
    """The confusion matrix (rows labelled, columns predicted, and each type's recall).

    Returns:
        The summary under it: pairs, accuracy, macro-F1, then each labelled type's precision,
        recall and F1, to 3 decimals as the CLI (str).
    """
    names = [d.value for d in TYPE_ORDER]
    t.setColumnCount(len(names) + 1)
    t.setRowCount(len(names))
    t.setHorizontalHeaderLabels(names + ["recall"])
    t.setVerticalHeaderLabels(names)
    bold = QFont()
    bold.setBold(True)
    for r, true in enumerate(TYPE_ORDER):
        for c, predicted in enumerate(TYPE_ORDER):
            n = ev.confusion[true][predicted]
            item = QTableWidgetItem(str(n))
            item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            if n:
                item.setBackground(_GOOD if r == c else _BAD)
                item.setForeground(QColor("#000000"))
                item.setFont(bold)
                item.setToolTip(f"Click to list the {n} pair{'' if n == 1 else 's'} labelled {true.value}, "
                                f"predicted {predicted.value}")  # fmt: skip
            t.setItem(r, c, item)
        recall = QTableWidgetItem(score_text(ev.recall[true], bool(ev.support[true])))
        recall.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
        t.setItem(r, len(names), recall)
    t.resizeColumnsToContents()
    per_type = "  ".join(
        f"{d.value}: P {ev.precision[d]:.3f} R {ev.recall[d]:.3f} F1 {ev.f1[d]:.3f}"
        for d in TYPE_ORDER
        if ev.support[d]
    )
    return f"{ev.n:,} pairs · accuracy {ev.accuracy:.3f} · macro-F1 {ev.macro_f1:.3f}\n{per_type}"


def confusion_counts(t: QTableWidget) -> list[list[int]]:
    """The confusion matrix as shown in ``t``: rows labelled, columns predicted, in type order
    (list of lists; empty before a run)."""
    k = len(TYPE_ORDER)
    if t.rowCount() < k:
        return []
    return [[int(t.item(r, c).text()) for c in range(k)] for r in range(k)]
