"""Rendered tab: both pages drawn side by side, simplified and safe.

The window never lays out a page itself: a separate process (:mod:`dedup_gui.export.render_process`)
reads each page, cleans it (:mod:`dedup_gui.core.views.safe_html`: no script, style, frame, form,
SVG or remote resource; images only from inside the scanned folder), lays it out at this view's
width and sends it back as PNG tiles, which :class:`TiledPage` shows as they scroll into view.
A page that takes too long is stopped and reported; nothing on the page can stall this thread.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Callable

from PySide6.QtCore import QEvent, QPoint, QRect, QSize, Qt, QTimer
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QScrollArea, QSplitter, QStackedWidget, QVBoxLayout, QWidget

from dedup_gui.core.model import Page, Pair, ScanResult, Thresholds
from dedup_gui.core.views.safe_html import ResourceRequest
from dedup_gui.export.render_process import (
    TILE_HEIGHT,
    RenderCancelled,
    Rendered,
    RenderError,
    RenderService,
    render_service,
)
from dedup_gui.gui.inspector.jobs import LatestJob
from dedup_gui.gui.inspector.widgets import TAB_MIN_HEIGHT, pair_pages, plain_label

NOTICE = (
    "Simplified, script-free rendering, drawn in a separate process: scripts, styles, frames, forms, "
    "SVG and embedded objects are removed, links do not navigate, only PNG, JPEG, GIF and WebP images "
    "stored inside the scanned folder are shown, and nothing is fetched from the network."
)
#: Decoded tiles kept per page (each about 3 MB at 800 pixels wide).
TILE_CACHE = 8
#: A width change smaller than this (logical pixels) does not draw the pages again.
WIDTH_SLACK = 16
#: Width used before the view has been shown (logical pixels).
DEFAULT_WIDTH = 600


class TiledPage(QWidget):
    """A drawn page: its PNG tiles, decoded only when they scroll into view.

    Args:
        parent: the Qt parent widget, or ``None``.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rendered: Rendered | None = None
        self._decoded: OrderedDict[int, QImage] = OrderedDict()
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)

    def set_rendered(self, rendered: Rendered | None) -> None:
        """Show ``rendered`` (or nothing)."""
        self.rendered = rendered
        self._decoded.clear()
        self.resize(self.sizeHint())
        self.updateGeometry()
        self.update()

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt API)
        """The drawn page's size in logical pixels (QSize)."""
        r = self.rendered
        return QSize(r.width, r.drawn_height) if r is not None else QSize(0, 0)

    def tile(self, index: int) -> QImage:
        """Tile ``index``, decoded (kept among the last :data:`TILE_CACHE` used)."""
        image = self._decoded.pop(index, None)
        if image is None:
            image = QImage.fromData(self.rendered.tiles[index], "PNG")
            image.setDevicePixelRatio(self.rendered.dpr)
        self._decoded[index] = image
        while len(self._decoded) > TILE_CACHE:
            self._decoded.popitem(last=False)
        return image

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt API)
        """Paint the tiles that intersect the exposed area, on white."""
        painter = QPainter(self)
        painter.fillRect(event.rect(), QColor("white"))
        r = self.rendered
        if r is not None and r.tiles:
            exposed: QRect = event.rect()
            first = max(0, exposed.top() // TILE_HEIGHT)
            last = min(len(r.tiles) - 1, exposed.bottom() // TILE_HEIGHT)
            for i in range(first, last + 1):
                painter.drawImage(QPoint(0, i * TILE_HEIGHT), self.tile(i))
        painter.end()


class _Side(QWidget):
    """One page's column: its name, then the drawn page or a message."""

    def __init__(self) -> None:
        super().__init__()
        self.name = plain_label(bold=True, clip=True, path=True)
        self.page = TiledPage()
        self.scroll = QScrollArea()
        self.scroll.setWidget(self.page)
        self.scroll.setWidgetResizable(False)
        self.scroll.viewport().setStyleSheet("background: white")  # the page's own background
        self.message = plain_label(wrap=True)
        self.message.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.scroll)
        self.stack.addWidget(self.message)
        self.requests: list[ResourceRequest] = []
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        column.addWidget(self.name)
        column.addWidget(self.stack, 1)

    def show_rendered(self, rendered: Rendered) -> None:
        self.requests = [ResourceRequest(*r) for r in rendered.requests]
        if rendered.empty:
            self.show_message("(nothing to show once scripts, frames and embedded objects are removed)")
            return
        self.page.set_rendered(rendered)
        self.scroll.verticalScrollBar().setValue(0)
        self.stack.setCurrentWidget(self.scroll)

    def show_message(self, text: str) -> None:
        self.page.set_rendered(None)
        self.message.setText(text)
        self.stack.setCurrentWidget(self.message)


def render_pair(service: RenderService, pages: tuple[Page, Page], root: str, max_bytes: int, width: int,
                dpr: float, font: str, follow_links: bool = False,
                wanted: Callable[[], bool] = lambda: True) -> list[Rendered | str]:  # fmt: skip
    """Draw both pages (runs off the GUI thread; the drawing itself in the drawing process).

    Args:
        service: the drawing service.
        pages: the two pages.
        root: the scanned folder (images must lie inside it).
        max_bytes: the largest page file read (bytes).
        width: the layout width (logical pixels).
        dpr: the screen's device pixel ratio.
        font: the default font (``QFont.toString()``).
        follow_links: the scan followed links out of the folder (its pages may lie outside).
        wanted: ``False`` once a newer request superseded this one (checked before each page,
            so a superseded request never holds the drawing process).

    Returns:
        For each page, its :class:`Rendered`, or the message to show instead (str).

    Raises:
        RenderCancelled: a newer pair superseded this one.
    """
    out: list[Rendered | str] = []
    for page in pages:
        if not wanted():
            raise RenderCancelled("superseded by a newer request")
        try:
            out.append(service.render(page.path, page.abspath, root, max_bytes, width, dpr, font, follow_links))
        except RenderCancelled:
            raise
        except RenderError as exc:
            out.append(str(exc))
    return out


def resource_summary(requests: list[ResourceRequest]) -> str:
    """One line on a page's images: how many are shown, and why the others are not (str)."""
    if not requests:
        return ""
    shown = sum(r.loaded for r in requests)
    refused = Counter(r.reason for r in requests if not r.loaded)
    text = f"{shown} of {len(requests)} image{'s' if len(requests) != 1 else ''} shown"
    if refused:
        text += " (not shown: " + ", ".join(f"{n} {why}" for why, n in refused.most_common()) + ")"
    return text


class RenderedView(QWidget):
    """The two pages drawn side by side, with a safety notice and what was left out.

    Args:
        parent: the Qt parent widget, or ``None``.
        service: the drawing service (:func:`~dedup_gui.export.render_process.render_service` if ``None``).
    """

    def __init__(self, parent: QWidget | None = None, service: RenderService | None = None) -> None:
        super().__init__(parent)
        self.service = service or render_service()
        self._key: tuple | None = None
        self._pages: tuple[Page, Page] | None = None
        self._root = ""
        self._max_bytes = 0
        self._follow_links = False
        self._width = 0
        self._job = LatestJob(self)
        self._job.finished.connect(self._show)
        self._job.failed.connect(self._failed)
        self._resize_timer = QTimer(self)
        self._resize_timer.setSingleShot(True)
        self._resize_timer.setInterval(250)
        self._resize_timer.timeout.connect(self._redraw_if_resized)
        self.notice_label = plain_label(NOTICE, muted=True, wrap=True)
        self.notes_label = plain_label(muted=True, wrap=True)
        self.left, self.right = _Side(), _Side()
        self.left_name, self.right_name = self.left.name, self.right.name
        self.left.stack.installEventFilter(self)  # its width sets the layout width
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.left)
        splitter.addWidget(self.right)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.notice_label)
        layout.addWidget(self.notes_label)
        layout.addWidget(splitter, 1)
        self.setMinimumSize(560, TAB_MIN_HEIGHT)
        self.clear()

    def set_pair(self, result: ScanResult | None, pair: Pair | None, thresholds: Thresholds | None = None) -> None:
        """Start drawing both pages in the background, then show them.

        Args:
            result: the scan the pair belongs to (its root bounds what images may load).
            pair: the pair, or ``None`` to clear the view.
            thresholds: unused; for a uniform API.
        """
        if result is None or pair is None:
            self.clear()
            return
        a, b = pair_pages(result, pair)
        key = (result.root, a.path, b.path, a.sha1, b.sha1)
        if key == self._key:
            return
        self._key, self._pages, self._root = key, (a, b), result.root
        self._max_bytes = result.settings.max_file_bytes
        self._follow_links = result.settings.follow_links
        self.left_name.setText(f"left: {a.path}")
        self.right_name.setText(f"right: {b.path}")
        self._draw()

    def _draw(self) -> None:
        if self._pages is None:
            return
        self.service.cancel()  # a drawing of the previous pair or width is of no use now
        self._width = self._layout_width()
        self._show_messages("rendering…")
        job, generation = self._job, self._job.generation + 1
        job.submit(render_pair, self.service, self._pages, self._root, self._max_bytes, self._width,
                   self.devicePixelRatioF(), self.font().toString(), self._follow_links,
                   lambda: job.generation == generation)  # fmt: skip

    def _layout_width(self) -> int:
        self.layout().activate()  # a view just shown has not placed its panes yet
        # the stack's width, not the viewport's: a hidden page of the stack is not resized
        scroll = self.left.scroll
        inner = self.left.stack.width() - 2 * scroll.frameWidth() - scroll.verticalScrollBar().sizeHint().width()
        return max(200, inner) if self.isVisible() and inner > 50 else DEFAULT_WIDTH

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt API)
        """When the pane changes width, draw the pages again once resizing pauses."""
        if event.type() == QEvent.Type.Resize and self._pages is not None:
            self._resize_timer.start()
        return False

    def _redraw_if_resized(self) -> None:
        if self._pages is not None and abs(self._layout_width() - self._width) > WIDTH_SLACK:
            self._draw()

    def clear(self) -> None:
        """Show no pair (and stop a drawing still in progress)."""
        self._job.cancel()
        self.service.cancel()
        self._key, self._pages = None, None
        self.left_name.setText("left: no pair selected")
        self.right_name.setText("right: no pair selected")
        self._show_messages("")

    def is_rendering(self) -> bool:
        """``True`` while the shown pair's pages are being drawn (bool)."""
        return self._job.is_running()

    def _show_messages(self, text: str) -> None:
        self.notes_label.hide()
        for side in (self.left, self.right):
            side.requests = []
            side.show_message(text)

    def _failed(self, exc: object) -> None:
        if not isinstance(exc, RenderCancelled):
            self._show_messages(f"The pages could not be rendered: {exc}")

    def _show(self, sides: list) -> None:
        notes = []
        for page, side, outcome in zip(self._pages, (self.left, self.right), sides):
            if isinstance(outcome, str):
                side.show_message(outcome)
                continue
            side.show_rendered(outcome)
            summary = resource_summary(side.requests)
            notes += [f"{page.path}: {note}" for note in ([summary] if summary else []) + outcome.notes]
        self.notes_label.setText("\n".join(notes))
        self.notes_label.setVisible(bool(notes))
