"""The thresholds panel: the classifier's four tunable thresholds, applied as they change.

Each change is announced after a short pause (so typing ``0.65`` re-classifies once, not three
times); the window then re-classifies every pair with
:func:`dedup_gui.core.pipeline.classify.reclassify`, without rescanning.

A number typed outside a box's range is clamped to the range (:mod:`.range_spin_boxes`) and
the panel says so (``notice``, which the window shows on its status line); thresholds that leave
a type (nearly) impossible (:func:`~dedup_gui.core.pipeline.classify.threshold_warnings`) are
named in a warning line under the boxes.
"""

from __future__ import annotations

import time
from dataclasses import replace

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import (
    QFormLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from dedup_gui.core.model import Thresholds
from dedup_gui.core.pipeline.classify import threshold_warnings
from dedup_gui.gui.range_spin_boxes import RangeDoubleSpinBox, RangeSpinBox

_DELAY_MS = 150  # wait for a pause in typing or spinning before re-classifying
_NAMES = {"content_same": "Content same", "content_partial": "Content partial", "layout_same": "Layout same",
          "hamming_k": "Hamming k"}  # fmt: skip

_HELP = {
    "content_same": "Content similarity (or containment, with Jaccard ≥ {j:g}) at or above which "
    "two main texts are the same content.",
    "content_partial": "Content containment (share of the smaller page's shingles found in the other) "
    "at or above which an important part of the content is shared.",
    "layout_same": "Layout similarity (the tag sequences of the templates: each page without its main "
    "content) at or above which two pages share a layout.",
    "hamming_k": "SimHash Hamming distance (bits) at or below which two fingerprints are near "
    "duplicates (Manku et al. 2007: k = 3). Drawn on the histogram; the scan's candidate "
    "search used the value in force when it ran.",
}


class ThresholdsPanel(QWidget):
    """Spin boxes for content same, content partial, layout same (0..1, step 0.005) and the
    Hamming k (0..64 bits), with "Reset to defaults" and a warning line for thresholds that
    leave a type (nearly) impossible.

    Args:
        thresholds: the values to show first (``None``: the defaults).
        parent: the Qt parent widget, or ``None``.

    Signals:
        thresholds_changed(object): the new :class:`Thresholds`, a short pause after the last
            edit (or at once after :meth:`set_thresholds` with ``emit=True`` or a reset).
        notice(str): a sentence for the status line, e.g. ``"Content same: 5000 is above its
            range 0.000 to 1.000: set to 1.000"`` when a typed number was clamped.
    """

    thresholds_changed = Signal(object)
    notice = Signal(str)

    def __init__(self, thresholds: Thresholds | None = None, parent=None) -> None:
        super().__init__(parent)
        self._base = thresholds or Thresholds()  # carries the fields the panel does not show
        self._notice: tuple[str, float] = ("", 0.0)  # the last clamped value's sentence, and when
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(_DELAY_MS)
        self._timer.timeout.connect(self._emit)

        def ratio_box(name: str) -> RangeDoubleSpinBox:
            box = RangeDoubleSpinBox()
            box.setRange(0.0, 1.0)
            box.setDecimals(3)
            box.setSingleStep(0.005)
            box.setAccelerated(True)
            box.setToolTip(_HELP[name].format(j=self._base.same_min_jaccard))
            box.valueChanged.connect(self._on_edit)
            box.clamped.connect(lambda typed, text, side: self._on_clamped(box, name, typed, text, side))
            return box

        self.content_same = ratio_box("content_same")
        self.content_partial = ratio_box("content_partial")
        self.layout_same = ratio_box("layout_same")
        self.hamming_k = RangeSpinBox()
        self.hamming_k.setRange(0, 64)
        self.hamming_k.setSuffix(" bits")
        self.hamming_k.valueChanged.connect(lambda k: self.hamming_k.setSuffix(" bit" if k == 1 else " bits"))
        self.hamming_k.setToolTip(_HELP["hamming_k"])
        self.hamming_k.valueChanged.connect(self._on_edit)
        self.hamming_k.clamped.connect(
            lambda typed, text, side: self._on_clamped(self.hamming_k, "hamming_k", typed, text, side)
        )
        self.warning = QLabel()
        self.warning.setObjectName("thresholds-warning")
        self.warning.setWordWrap(True)
        self.warning.setStyleSheet("QLabel#thresholds-warning { color: #b45309; }")  # amber: legible on light and dark
        self.warning.hide()
        self.reset_button = QPushButton("Reset to defaults")
        self.reset_button.clicked.connect(self.reset)
        note = QLabel("Changes re-classify every pair at once, without rescanning.")
        note.setWordWrap(True)
        note.setEnabled(False)  # the style's muted colour

        form = QFormLayout()
        form.addRow("Content same ≥", self.content_same)
        form.addRow("Content partial ≥", self.content_partial)
        form.addRow("Layout same ≥", self.layout_same)
        form.addRow("Hamming k ≤", self.hamming_k)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(form)
        layout.addWidget(self.warning)
        layout.addWidget(self.reset_button)
        layout.addWidget(note)
        layout.addStretch(1)
        self.set_thresholds(self._base)

    def thresholds(self) -> Thresholds:
        """The thresholds the boxes show (:class:`Thresholds`)."""
        return replace(
            self._base,
            content_same=round(self.content_same.value(), 3),
            content_partial=round(self.content_partial.value(), 3),
            layout_same=round(self.layout_same.value(), 3),
            hamming_k=self.hamming_k.value(),
        )

    def set_thresholds(self, thresholds: Thresholds, emit: bool = False) -> None:
        """Show ``thresholds``; announce them at once if ``emit``, else not at all."""
        self._base = thresholds
        boxes = (self.content_same, self.content_partial, self.layout_same, self.hamming_k)
        for box in boxes:
            box.blockSignals(True)
        self.content_same.setValue(thresholds.content_same)
        self.content_partial.setValue(thresholds.content_partial)
        self.layout_same.setValue(thresholds.layout_same)
        self.hamming_k.setValue(thresholds.hamming_k)
        for box in boxes:
            box.blockSignals(False)
        self._timer.stop()
        self._show_state()
        if emit:
            self._emit()

    def reset(self) -> None:
        """Go back to the documented defaults (:class:`Thresholds`\\ ()) and announce them."""
        self.set_thresholds(Thresholds(), emit=True)

    def is_pending(self) -> bool:
        """``True`` while an edit waits for its pause before being announced (bool)."""
        return self._timer.isActive()

    def warnings(self) -> list[str]:
        """The sentences the warning line shows (list[str], empty when it is hidden)."""
        return threshold_warnings(self.thresholds())

    def _show_state(self) -> None:
        """Enable "Reset to defaults" and fill the warning line for the values shown."""
        self.reset_button.setEnabled(self.thresholds() != Thresholds())
        warnings = self.warnings()
        self.warning.setText("\n".join(f"⚠ {w}" for w in warnings))
        self.warning.setVisible(bool(warnings))

    def _on_edit(self, _value) -> None:
        self._show_state()
        self._timer.start()

    def _on_clamped(self, box, name: str, typed: str, text: str, side: str) -> None:
        low, high = (box.textFromValue(v) for v in (box.minimum(), box.maximum()))
        said = f"{_NAMES[name]}: {typed} is {side} its range {low} to {high}{box.suffix()}: set to {text}{box.suffix()}"
        self._notice = (said, time.monotonic())
        self.notice.emit(said)

    def take_notice(self, within: float = 5.0) -> str:
        """The sentence of a value clamped in the last ``within`` seconds (str, ``""`` if none),
        once: the window says it again with the re-classification's end, which would replace it."""
        said, when = self._notice
        self._notice = ("", 0.0)
        return said if said and time.monotonic() - when < within else ""

    def _emit(self) -> None:
        self._timer.stop()
        self.thresholds_changed.emit(self.thresholds())
