"""The pages table's status filter combo ("All statuses", "Redirects (213)", "No usable text
(4)"…): it shows the choices of the table state (:mod:`dedup_gui.core.views.status_filter`),
built again for each result, and passes the one picked to the model; the state stays in core."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox

from dedup_gui.gui.tables.models import PagesModel


class StatusCombo(QComboBox):
    """A combo over a :class:`PagesModel`'s status filter.

    Args:
        model: the pages model (its choices are read after each reset, when a result is shown).
        parent: the Qt parent widget, or ``None``.
    """

    def __init__(self, model: PagesModel, parent=None) -> None:
        super().__init__(parent)
        self.model_ = model
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.setToolTip("Show only the pages of one status: redirects, redirects that reach no page, "
                        "pages without usable text")  # fmt: skip
        model.modelReset.connect(self.refresh)
        self.currentIndexChanged.connect(self._on_changed)
        self.refresh()

    def refresh(self) -> None:
        """List the model's status choices (with their counts) and select the filter in force."""
        self.blockSignals(True)
        try:
            self.clear()
            for label, key in self.model_.status_choices():
                self.addItem(label, key)
            self.setCurrentIndex(max(self.findData(self.model_.status_filter()), 0))
        finally:
            self.blockSignals(False)

    def is_filtering(self) -> bool:
        """Whether a status other than "All statuses" is picked (bool)."""
        return self.model_.status_filter() is not None

    def show_all(self) -> None:
        """Pick "All statuses" (the model shows every page again)."""
        self.setCurrentIndex(0)

    def _on_changed(self, index: int) -> None:
        key = self.itemData(index) if index >= 0 else None
        if key != self.model_.status_filter():
            self.model_.set_status_filter(key)
