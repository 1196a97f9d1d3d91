"""The pairs table's Type combo entries after the type filters: "Changed by the last
re-classification (9)", shown once a threshold change (or a mark) re-classified the pairs, gone
after a new scan; then "Differs from label (12)", shown while the scan has a labels file.  Their
counts are kept up to date.  The state (which pairs, the filters) is the pairs table's, in core
(:mod:`dedup_gui.core.views.changed_filter`, :mod:`dedup_gui.core.views.label_filter`)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QComboBox

from dedup_gui.core.views.changed_filter import changed_choice
from dedup_gui.core.views.label_filter import differs_choice
from dedup_gui.gui.tables.models import PairsModel

_TIP = ("The pairs whose type the last re-classification (a threshold change, a mark) changed; "
        "each Type cell's tooltip names the type before")  # fmt: skip
_DIFFERS_TIP = ("The labelled pairs whose type under the thresholds in force differs from the type "
                "the labels file gives them (the Label column)")  # fmt: skip
#: The item data role that names an extra entry ("changed", "differs").
_KEY_ROLE = Qt.ItemDataRole.UserRole + 7


class _ExtraEntry(QObject):
    """An entry after a pairs table's type filters, there while ``count()`` is not ``None``.

    Args:
        combo: the Type combo; its entries up to ``first`` are the type filters.
        model: the pairs model.
        first: the position of the first extra entry (int).
        key: the entry's name among the extra entries (str).
        count: the entry's count, ``None`` when it has no entry.
        text: the entry's text for a count.
        tip: the entry's tooltip.
        before: the extra entries that come before this one.
    """

    def __init__(self, combo: QComboBox, model: PairsModel, first: int, key: str,
                 count: Callable[[], int | None], text: Callable[[int], str], tip: str,
                 before: tuple[_ExtraEntry, ...] = ()) -> None:  # fmt: skip
        super().__init__(combo)
        self.combo, self.model, self.first, self.key = combo, model, first, key
        self._count, self._text, self._tip, self._before = count, text, tip, before
        # the entry comes after the first show: the combo widens to it (else "Changed by the la")
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        for signal in (model.modelReset, model.layoutChanged):
            signal.connect(self.refresh)
        self.refresh()

    @property
    def index(self) -> int:
        """Where the entry is, or goes, in the combo (int)."""
        return self.first + sum(1 for entry in self._before if entry.present())

    def present(self) -> bool:
        """Whether the combo has the entry (bool)."""
        index = self.index
        return index < self.combo.count() and self.combo.itemData(index, _KEY_ROLE) == self.key

    def is_entry(self, index: int) -> bool:
        """Whether combo entry ``index`` is this one (bool)."""
        return 0 <= index < self.combo.count() and self.combo.itemData(index, _KEY_ROLE) == self.key

    def refresh(self) -> None:
        """Add, relabel or remove the entry as the model's count says (no filter change)."""
        count = self._count()
        index = self.index
        self.combo.blockSignals(True)
        try:
            if count is None:
                if self.present():
                    if self.combo.currentIndex() == index:
                        self.combo.setCurrentIndex(0)  # the model dropped the filter with the scan
                    self.combo.removeItem(index)
            elif self.present():
                self.combo.setItemText(index, self._text(count))
            else:
                self.combo.insertItem(index, self._text(count))
                self.combo.setItemData(index, self.key, _KEY_ROLE)
                self.combo.setItemData(index, self._tip, Qt.ItemDataRole.ToolTipRole)
        finally:
            self.combo.blockSignals(False)


class ChangedEntry(_ExtraEntry):
    """Keeps the entry "Changed by the last re-classification (9)" of a pairs table's Type combo
    in step with its model.

    Args:
        combo: the Type combo; its entries up to ``index`` are the type filters.
        model: the pairs model.
        index: the position of the entry (after the type filters) (int).
    """

    def __init__(self, combo: QComboBox, model: PairsModel, index: int) -> None:
        super().__init__(combo, model, index, "changed", model.changed_count, changed_choice, _TIP)


class DiffersEntry(_ExtraEntry):
    """Keeps the entry "Differs from label (12)" of a pairs table's Type combo in step with its
    model: there while the scan has labels, after :class:`ChangedEntry`'s entry.

    Args:
        combo: the Type combo.
        model: the pairs model.
        changed: the combo's :class:`ChangedEntry`, whose entry comes first.
    """

    def __init__(self, combo: QComboBox, model: PairsModel, changed: ChangedEntry) -> None:
        super().__init__(combo, model, changed.first, "differs", model.differs_count, differs_choice,
                         _DIFFERS_TIP, (changed,))  # fmt: skip
