"""The clusters view: a tree of the keep clusters (the default; model in :mod:`.keep_clusters_model`)
or of the near-duplicate groups (union-find groups; model in :mod:`.groups_model`), and their
pages, with a switch between the two, a one-line summary, and the page rows' context menu.

A near-duplicate group joins pages by any chain of duplicate pairs, so it says nothing about what
to keep; the keep clusters (:mod:`dedup_gui.core.pipeline.keep_clusters`) do: a page to keep and
its full or content duplicates to drop.
"""

from __future__ import annotations

from PySide6.QtCore import (
    QEvent,
    QItemSelectionModel,
    QModelIndex,
    QPoint,
    Qt,
    Signal,
)
from PySide6.QtGui import QAction, QFont, QFontMetrics, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from dedup_gui.core.model import ScanResult
from dedup_gui.gui.elide import GroupTreeDelegate
from dedup_gui.gui.file_actions import file_menu
from dedup_gui.gui.plain import SafeLabel
from dedup_gui.gui.tables.groups_model import ClustersModel
from dedup_gui.gui.tables.keep_clusters_model import KeepClustersModel

#: The "Keep" column's widest (pixels): room for "drop 1,234", "kept" and "drop #1,234"; the
#: page names take the room, and the line under the tree says each row in full.
_KEEP_WIDTH = 90
#: The tree's indentation per level (pixels; Qt's default is 20).
_INDENTATION = 12
#: The least width of the names' column (pixels) before the keep clusters' "Pages" column gives
#: its room to it: its count is the "Keep" column's "drop N" plus one (and in the tooltip).  In a
#: 1024x640 window the names got 112 px and every title read "#1 acc…pf/".
_MIN_NAMES_WIDTH = 130
#: The shortcut of "Keep This Page Instead" (the window's Decide menu holds the action).
KEEP_INSTEAD_SHORTCUT = "Ctrl+K"
#: The shortcut of "Not a Duplicate" (Decide menu): a pair, or a page against its keep cluster.
NOT_DUPLICATE_SHORTCUT = "Ctrl+D"
#: The shortcuts of Decide > Next Cluster and Previous Cluster (the inspector's text diff has
#: F8 and Alt+Down/Up for its changes; no window action uses Ctrl+Down/Up).
NEXT_CLUSTER_SHORTCUT = "Ctrl+Down"
PREVIOUS_CLUSTER_SHORTCUT = "Ctrl+Up"


class ClustersView(QWidget):
    """The cluster tree with a switch above it: the keep clusters (what to keep and what to drop,
    :class:`~dedup_gui.gui.tables.keep_clusters_model.KeepClustersModel`; the default) or the
    near-duplicate groups (:class:`~dedup_gui.gui.tables.groups_model.ClustersModel`), and a
    one-line summary.

    The page rows' context menu (right click, the menu key or Shift+F10) offers "Keep This Page
    Instead" for a page of a keep cluster, and the file actions.

    Args:
        parent: the Qt parent widget, or ``None``.

    Attributes:
        model: the near-duplicate groups (:class:`ClustersModel`), loaded in either mode.
        keep_model: the keep clusters (:class:`KeepClustersModel`), loaded in either mode.

    Signals:
        cluster_chosen(int, int): the user selected a near-duplicate group (its id, -1) or one
            of its pages (group id, page index).  Not emitted by :meth:`highlight_cluster`.
        keep_cluster_chosen(int, int): the user selected a keep cluster (its id, -1) or one of
            its pages (keep cluster id, page index).
        keep_instead_requested(int): "Keep This Page Instead" on a page (its index).
        not_duplicate_requested(int): "Not a Duplicate of Its Keep Cluster" on a page (its index).
    """

    cluster_chosen = Signal(int, int)
    keep_cluster_chosen = Signal(int, int)
    keep_instead_requested = Signal(int)
    not_duplicate_requested = Signal(int)

    #: The switch's entries: mode key, label.
    MODES = (("keep", "Keep clusters"), ("groups", "Near-duplicate groups"))

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.model = ClustersModel(self)
        self.keep_model = KeepClustersModel(self)
        self._result: ScanResult | None = None
        self.mode_combo = QComboBox()
        for _key, label in self.MODES:
            self.mode_combo.addItem(label)
        self.mode_combo.setToolTip(
            "Keep clusters: a page to keep and its full or content duplicates to drop.\n"
            "Near-duplicate groups: pages joined by any chain of duplicate pairs, for browsing."
        )
        self.mode_combo.currentIndexChanged.connect(lambda i: self.set_mode(self.MODES[i][0]))
        self.summary_label = QLabel()
        self.summary_label.setTextFormat(Qt.TextFormat.PlainText)
        self.summary_label.setWordWrap(True)  # its width is not the panel's least width
        self.tree = QTreeView()
        self.tree.setUniformRowHeights(True)  # fast at thousands of clusters
        # a page row is indented twice (the root's decoration, then its level): at 20 px a
        # 1024x640 window's panel left 55 px for "v1.10.x/zh/"
        self.tree.setIndentation(_INDENTATION)
        self.tree.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.tree.setAllColumnsShowFocus(True)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._show_context_menu)
        menu_key = QAction("Context menu", self.tree)
        menu_key.setShortcut(QKeySequence("Shift+F10"))
        menu_key.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        menu_key.triggered.connect(lambda: self._show_context_menu(QPoint(-1, -1)))
        self.tree.addAction(menu_key)
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setResizeContentsPrecision(200)  # rows measured when sizing a column
        # a keep cluster's title and rule, a group's title and types: cut at their end; the
        # page rows' paths keep their first folder and document name (as in the tables)
        self.tree.setItemDelegateForColumn(0, GroupTreeDelegate(self.tree))
        self.tree.viewport().installEventFilter(self)  # _make_room
        self._quiet = False
        self._mode = ""
        self._pages_width = 0  # the "Pages" column's width when last shown (_make_room)
        top = QHBoxLayout()
        top.addWidget(self.mode_combo)
        top.addWidget(self.summary_label, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(self.tree, 1)
        #: The current row in full (its whole path, what to keep and why), word-wrapped and
        #: selectable: the tree's columns are narrow in a side panel.
        self.details = SafeLabel("")
        self.details.setObjectName("details")
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.details)
        self.set_mode("keep")
        self.set_result(None)

    # --- mode -----------------------------------------------------------------------------------

    def mode(self) -> str:
        """``"keep"`` (keep clusters) or ``"groups"`` (near-duplicate groups) (str)."""
        return self._mode

    def set_mode(self, mode: str) -> None:
        """Show the keep clusters (``"keep"``) or the near-duplicate groups (``"groups"``).

        Raises:
            ValueError: another ``mode``.
        """
        keys = [key for key, _label in self.MODES]
        if mode not in keys:
            raise ValueError(f"no cluster view mode {mode!r}; use one of {', '.join(keys)}")
        if mode == self._mode:
            return
        self._mode = mode
        if self.mode_combo.currentIndex() != keys.index(mode):
            self.mode_combo.setCurrentIndex(keys.index(mode))
        self.tree.setModel(self.keep_model if mode == "keep" else self.model)
        self.tree.selectionModel().currentRowChanged.connect(self._on_current_changed)
        self.tree.selectionModel().currentRowChanged.connect(self._update_details)
        self._update_details(self.tree.currentIndex())
        header = self.tree.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in range(1, self.tree.model().columnCount()):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
        self._fit_count_columns()
        self._update_summary()

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt API)
        """When the tree's viewport is resized (the panel, or its scroll bar shown or hidden),
        give a narrow names' column the "Pages" column's room (:meth:`_make_room`)."""
        if watched is self.tree.viewport() and event.type() == QEvent.Type.Resize:
            self._make_room()
        return super().eventFilter(watched, event)

    def _make_room(self) -> None:
        """In keep mode, hide the "Pages" column while the names' column would be narrower than
        :data:`_MIN_NAMES_WIDTH` with it, show it otherwise (and always in groups mode)."""
        header = self.tree.header()
        if not header.isSectionHidden(1):
            self._pages_width = header.sectionSize(1)  # a hidden section's size reads 0
        others = sum(header.sectionSize(c) for c in range(2, header.count()))
        narrow = self.tree.viewport().width() - others - self._pages_width < _MIN_NAMES_WIDTH
        if header.isSectionHidden(1) != (self._mode == "keep" and narrow):
            header.setSectionHidden(1, self._mode == "keep" and narrow)

    def current_model(self) -> ClustersModel | KeepClustersModel:
        """The model the tree shows (:attr:`keep_model` or :attr:`model`)."""
        return self.keep_model if self._mode == "keep" else self.model

    # --- result ---------------------------------------------------------------------------------

    def set_result(self, result: ScanResult | None) -> None:
        """Show the keep clusters and the groups of ``result`` (or none)."""
        self._result = result
        self._quiet = True
        try:
            self.model.set_result(result)
            self.keep_model.set_result(result)
        finally:
            self._quiet = False
        self._fit_count_columns()
        self._update_summary()
        self._update_details(self.tree.currentIndex())

    def _update_summary(self) -> None:
        result = self._result
        if result is None:
            self.summary_label.setText("No scan result yet")
        elif self._mode == "keep":
            clusters = self.keep_model.clusters()
            n, drops = len(clusters), sum(len(k.duplicates) for k in clusters)
            self.summary_label.setText(f"{n:,} keep cluster{'' if n == 1 else 's'}: {drops:,} page"
                                       f"{'' if drops == 1 else 's'} to drop")  # fmt: skip
        else:
            pages = sum(len(c.pages) for c in result.clusters)
            n = len(result.clusters)
            self.summary_label.setText(
                f"{n:,} near-duplicate group{'' if n == 1 else 's'} of {pages:,} page{'' if pages == 1 else 's'}"
            )

    def _fit_count_columns(self) -> None:
        # The "Pages", "Duplicate" (keep mode) and "Keep" columns get the width of their widest
        # cluster-row text, measured here with the font: resizeColumnToContents() would ask the
        # Python model for 200 rows x every role, tenths of a second when a large result arrives.
        plain = self.tree.fontMetrics()
        metrics = {1: plain, 2: plain, 3: plain}
        header = self.tree.header()
        padding = 2 * (self.tree.style().pixelMetric(self.tree.style().PixelMetric.PM_FocusFrameHMargin) + 1)
        padding += plain.averageCharWidth() // 2  # the style's item margin: a pixel short elided "keep #2…"
        if self._mode == "keep":
            texts = self.keep_model.widest_texts()
            bold = QFont(self.tree.font())
            bold.setBold(True)
            metrics[3] = QFontMetrics(bold)  # the kept page's "kept" is bold ("Duplicate" is empty there)
            padding += metrics[3].averageCharWidth()  # bold text is drawn with a wider margin
        else:
            summaries = self.model.summaries()
            texts = {
                1: {f"{len(s.cluster.pages):,}" for s in summaries},
                # and, for the page rows, the longest advice a page can get
                2: {self.model.drop_text(s.cluster.id) for s in summaries} | self.model.widest_advice(),
            }
        for column, values in texts.items():
            width = max((metrics[column].horizontalAdvance(text) for text in values), default=0) + padding
            width = max(width, header.sectionSizeHint(column))
            # the page names get the room
            header.resizeSection(column, min(width, _KEEP_WIDTH) if column == len(texts) else width)
            if column == 1:
                self._pages_width = width
        self._make_room()

    def cluster_count(self) -> int:
        """Near-duplicate groups of the result shown (int)."""
        return self.model.rowCount()

    def keep_cluster_count(self) -> int:
        """Keep clusters of the result shown (int)."""
        return self.keep_model.rowCount()

    # --- selection ------------------------------------------------------------------------------

    def _select_quietly(self, index: QModelIndex) -> None:
        self._quiet = True
        try:
            selection = self.tree.selectionModel()
            if index.isValid():
                flags = (QItemSelectionModel.SelectionFlag.ClearAndSelect
                         | QItemSelectionModel.SelectionFlag.Rows)  # fmt: skip
                selection.setCurrentIndex(index, flags)
                self.tree.scrollTo(index)
            else:
                selection.clear()
        finally:
            self._quiet = False

    def highlight_cluster(self, cluster_id: int | None) -> None:
        """Select near-duplicate group ``cluster_id``'s row (scrolling to it) without announcing
        it, in the groups mode; ``None`` clears the selection."""
        if self._mode == "groups":
            self._select_quietly(QModelIndex() if cluster_id is None else self.model.cluster_index(cluster_id))

    def highlight_pair(self, cluster_id: int | None, left: int, right: int) -> None:
        """Show where a selected pair lies, without announcing it: its near-duplicate group
        ``cluster_id`` in the groups mode; in the keep mode, the keep cluster holding both pages
        ``left`` and ``right`` (indices into ``result.pages``), or no selection.  A row already
        in that cluster stays selected."""
        if self._mode == "groups":
            if cluster_id is None or self.highlighted_cluster() != cluster_id:
                self.highlight_cluster(cluster_id)
            return
        keep = self.keep_model.keep_cluster_of(left)
        if keep is None or keep is not self.keep_model.keep_cluster_of(right):
            self._select_quietly(QModelIndex())
        elif self.highlighted_keep_cluster() != keep.id:
            self._select_quietly(self.keep_model.cluster_index(keep.id))

    def highlight_page(self, page: int) -> None:
        """Select page ``page``'s row in its keep cluster (keep mode; scrolling to it) without
        announcing it."""
        if self._mode == "keep":
            self._select_quietly(self.keep_model.page_index(page))

    def step_cluster(self, step: int) -> bool:
        """Move to the next (``step`` 1) or previous (-1) cluster of the tree shown and select
        its first page (in the keep mode, the page kept), expanded and scrolled to; the
        cluster is announced as a click on it would be, so the tables follow.  Without a
        current row, the first (or last) cluster; from a cluster row, Next enters that cluster.

        Returns:
            ``False`` when there is no cluster, or none further that way (bool).
        """
        model = self.current_model()
        count = model.rowCount()
        if count == 0:
            return False
        current = self.tree.currentIndex()
        if not current.isValid():
            row = 0 if step > 0 else count - 1
        elif current.parent().isValid():  # a page row: its cluster's neighbour
            row = current.parent().row() + step
        else:  # a cluster row (the selected pair's, say): Next enters it
            row = current.row() + (0 if step > 0 else step)
        if not 0 <= row < count:
            return False
        top = model.index(row, 0)
        self.tree.expand(top)
        target = model.index(0, 0, top) if model.rowCount(top) else top
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        self.tree.selectionModel().setCurrentIndex(target, flags)
        self.tree.scrollTo(target)
        return True

    def highlighted_cluster(self) -> int | None:
        """The id of the near-duplicate group of the current row (groups mode), or ``None``."""
        if self._mode != "groups":
            return None
        summary = self.model.cluster_at(self.tree.currentIndex())
        return None if summary is None else summary.cluster.id

    def highlighted_keep_cluster(self) -> int | None:
        """The id of the keep cluster of the current row (keep mode), or ``None``."""
        if self._mode != "keep":
            return None
        cluster = self.keep_model.cluster_at(self.tree.currentIndex())
        return None if cluster is None else cluster.id

    def current_page(self) -> int | None:
        """The page of the current row (index into ``result.pages``), or ``None`` for a cluster
        row or no row."""
        return self.current_model().page_at(self.tree.currentIndex())

    def _update_details(self, current: QModelIndex, _previous: QModelIndex | None = None) -> None:
        self.details.setText(self.current_model().details(current))
        self.details.setVisible(current.isValid())

    def _on_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self._quiet or not current.isValid():
            return
        page = self.current_model().page_at(current)
        if self._mode == "keep":
            self.keep_cluster_chosen.emit(self.keep_model.cluster_at(current).id, -1 if page is None else page)
        else:
            summary = self.model.cluster_at(current)
            self.cluster_chosen.emit(summary.cluster.id, -1 if page is None else page)

    # --- context menu ---------------------------------------------------------------------------

    _deciding = True  # the menu's decisions are offered (off while the window scans)

    def set_deciding_enabled(self, enabled: bool) -> None:
        """Offer "Keep This Page Instead" and "Not a Duplicate of Its Keep Cluster" in the
        context menu (``True``), or show them disabled (``False``, while a scan runs)."""
        self._deciding = bool(enabled)

    def context_menu(self, page: int) -> QMenu:
        """The context menu of page ``page``'s row: "Keep This Page Instead" (``objectName``
        ``keep-instead``; disabled for the page kept or a page in no keep cluster), "Not a
        Duplicate of Its Keep Cluster" (``not-duplicate``; disabled for a page in no keep
        cluster), both disabled by :meth:`set_deciding_enabled`, then the file actions (:func:`~dedup_gui.gui.file_actions.file_menu`)."""
        menu = file_menu([self._result.pages[page].abspath] if self._result is not None else [], self)
        first = menu.actions()[0] if menu.actions() else None
        keep = self.keep_model.keep_cluster_of(page)
        action = QAction("Keep This Page Instead" if keep is None or keep.keep != page else "This Page Is Kept", menu)
        action.setObjectName("keep-instead")
        action.setShortcut(QKeySequence(KEEP_INSTEAD_SHORTCUT))
        action.setEnabled(keep is not None and keep.keep != page and self._deciding)
        action.triggered.connect(lambda: self.keep_instead_requested.emit(page))
        menu.insertAction(first, action)
        ignore = QAction("Not a Duplicate of Its Keep Cluster", menu)
        ignore.setObjectName("not-duplicate")
        ignore.setShortcut(QKeySequence(NOT_DUPLICATE_SHORTCUT))
        ignore.setStatusTip("Mark this page not a duplicate of any other page of its keep cluster")
        ignore.setEnabled(keep is not None and self._deciding)
        ignore.triggered.connect(lambda: self.not_duplicate_requested.emit(page))
        menu.insertAction(first, ignore)
        menu.insertSeparator(first)
        return menu

    def _show_context_menu(self, pos: QPoint) -> None:
        index = self.tree.indexAt(pos)
        if not index.isValid():  # the keyboard's menu key: the current row
            index = self.tree.currentIndex()
            rect = self.tree.visualRect(index)
            pos = rect.center() if rect.isValid() else QPoint(0, 0)
        page = self.current_model().page_at(index)
        if page is None:
            return
        menu = self.context_menu(page)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(self.tree.viewport().mapToGlobal(pos))
