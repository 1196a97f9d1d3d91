"""The pairs table's Type combo entry "Changed by the last re-classification (9)": shown once a
threshold change (or a mark) re-classified the pairs, its count kept up to date, gone after a
new scan.  The state (which pairs, the filter) is the pairs table's, in core
(:mod:`dedup_gui.core.views.changed_filter`)."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QComboBox

from dedup_gui.core.views.changed_filter import changed_choice
from dedup_gui.gui.tables.models import PairsModel

_TIP = ("The pairs whose type the last re-classification (a threshold change, a mark) changed; "
        "each Type cell's tooltip names the type before")  # fmt: skip


class ChangedEntry(QObject):
    """Keeps the last entry of a pairs table's Type combo in step with its model.

    Args:
        combo: the Type combo; its entries up to ``index`` are the type filters.
        model: the pairs model.
        index: the position of the entry (after the type filters) (int).
    """

    def __init__(self, combo: QComboBox, model: PairsModel, index: int) -> None:
        super().__init__(combo)
        self.combo, self.model, self.index = combo, model, index
        # the entry comes after the first show: the combo widens to it (else "Changed by the la")
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        for signal in (model.modelReset, model.layoutChanged):
            signal.connect(self.refresh)
        self.refresh()

    def is_entry(self, index: int) -> bool:
        """Whether combo entry ``index`` is this one (bool)."""
        return index == self.index and self.combo.count() > self.index

    def refresh(self) -> None:
        """Add, relabel or remove the entry as the model's count says (no filter change)."""
        count = self.model.changed_count()
        self.combo.blockSignals(True)
        try:
            if count is None:
                if self.combo.count() > self.index:
                    if self.combo.currentIndex() == self.index:
                        self.combo.setCurrentIndex(0)  # the model dropped the filter with the scan
                    self.combo.removeItem(self.index)
            elif self.combo.count() > self.index:
                self.combo.setItemText(self.index, changed_choice(count))
            else:
                self.combo.addItem(changed_choice(count))
                self.combo.setItemData(self.index, _TIP, Qt.ItemDataRole.ToolTipRole)
        finally:
            self.combo.blockSignals(False)
