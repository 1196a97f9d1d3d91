"""Rendered tab: both pages drawn side by side, simplified and safe.

``QTextBrowser`` has no JavaScript engine and no network access of its own; on top of that the
HTML is cleaned (:mod:`.safe_html`), links never navigate, and :meth:`SafeBrowser.loadResource`
loads nothing but image files inside the scanned folder (and inline ``data:`` raster images).
Every other request gets an empty answer, which also stops ``QTextDocument``'s own fallback
from reading arbitrary local files.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from PySide6.QtCore import QByteArray, Qt, QUrl
from PySide6.QtGui import QImage, QTextDocument
from PySide6.QtWidgets import QSplitter, QTextBrowser, QVBoxLayout, QWidget

from dedup_gui.core.loading import PageReadError
from dedup_gui.core.model import Page, Pair, ScanResult, Thresholds

from .jobs import LatestJob
from .safe_html import data_image_bytes, local_image_path, render_html
from .widgets import pair_pages, plain_label

#: Images loaded per page at most (each is decoded in the GUI thread).
MAX_IMAGES = 200

NOTICE = (
    "Simplified, script-free rendering: scripts, styles, frames, forms and embedded objects are "
    "removed, links do not navigate, only images stored inside the scanned folder are shown, and "
    "nothing is fetched from the network."
)


@dataclass(frozen=True)
class ResourceRequest:
    """One resource the renderer asked for, and whether it got it.

    Attributes:
        url: the URL as requested (str).
        kind: the ``QTextDocument.ResourceType`` value (int; 2 = image).
        loaded: ``True`` when content was returned.
        reason: why (``"image inside the scanned folder"``, ``"inline image"``, or the refusal).
    """

    url: str
    kind: int
    loaded: bool
    reason: str


class SafeBrowser(QTextBrowser):
    """A ``QTextBrowser`` that never navigates and loads only local images under a root folder.

    Args:
        parent: the Qt parent widget, or ``None``.

    Attributes:
        requests: every :class:`ResourceRequest` since the last :meth:`show_page`.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.requests: list[ResourceRequest] = []
        self._loaded = 0
        self._root: str | None = None
        self._base = QUrl()

    def show_page(self, html: str, page_abspath: str, root: str) -> None:
        """Render cleaned ``html`` of the page at ``page_abspath``, allowing images under ``root``."""
        self.requests, self._loaded = [], 0
        self._root = root
        self._base = QUrl.fromLocalFile(os.path.dirname(page_abspath) + os.sep)
        self.document().clear()  # also drops resources cached for the previous page
        self.document().setBaseUrl(self._base)
        self.setHtml(html)

    def show_message(self, text: str) -> None:
        """Show ``text`` (plain, e.g. an error) instead of a page."""
        self.requests, self._loaded = [], 0
        self._root = None
        self.document().clear()
        self.setPlainText(text)

    def loadResource(self, kind: int, url: QUrl):  # noqa: N802 (Qt override)
        """Return an image inside the scanned folder, or an empty byte array for anything else.

        Args:
            kind: the ``QTextDocument.ResourceType`` requested.
            url: the resource's URL (relative ones are resolved against the page's folder).

        Returns:
            A ``QImage``, or an empty ``QByteArray`` (never ``None``: ``QTextDocument`` would then
            read local files itself, wherever they are).
        """
        kind = int(getattr(kind, "value", kind))
        if self._loaded >= MAX_IMAGES:
            image, reason = None, f"more than {MAX_IMAGES} images"
        else:
            image, reason = self._image(kind, url)
        self._loaded += image is not None
        self.requests.append(ResourceRequest(url.toString(), kind, image is not None, reason))
        return image if image is not None else QByteArray()

    def _image(self, kind: int, url: QUrl) -> tuple[QImage | None, str]:
        if kind != QTextDocument.ResourceType.ImageResource.value:
            return None, "not an image"
        if url.scheme().lower() == "data":
            data = data_image_bytes(url.toString(QUrl.ComponentFormattingOption.FullyEncoded))
            image = QImage.fromData(data) if data else QImage()
            return (image, "inline image") if not image.isNull() else (None, "not an inline raster image")
        if url.isRelative():
            url = self._base.resolved(url)
        if url.scheme().lower() != "file" or url.host() or self._root is None:
            return None, "not a local file"
        path = local_image_path(url.toLocalFile(), self._root)
        if path is None:
            return None, "not an image file inside the scanned folder"
        image = QImage(path)
        return (image, "image inside the scanned folder") if not image.isNull() else (None, "unreadable image")

    def doSetSource(self, name: QUrl, kind=QTextDocument.ResourceType.UnknownResource) -> None:  # noqa: N802
        """Ignore every navigation request (links, ``setSource``): the shown page never changes."""


def render_pair(a: Page, b: Page, max_bytes: int) -> list[tuple[str | None, list[str] | str]]:
    """Cleaned HTML of both pages, or each side's read error (runs off the GUI thread).

    Returns:
        Two items ``(html, notes)``, or ``(None, message)`` for a page that cannot be read.
    """
    out: list[tuple[str | None, list[str] | str]] = []
    for page in (a, b):
        try:
            out.append(render_html(page, max_bytes))
        except PageReadError as exc:
            out.append((None, f"{page.path} cannot be read again: {exc}"))
    return out


class RenderedView(QWidget):
    """The two pages rendered side by side in :class:`SafeBrowser` panes, with a safety notice.

    Args:
        parent: the Qt parent widget, or ``None``.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._key: tuple | None = None
        self._pages: tuple[Page, Page] | None = None
        self._root = ""
        self._job = LatestJob(self)
        self._job.finished.connect(self._show_html)
        self._job.failed.connect(lambda exc: self._show_messages(f"The pages could not be rendered: {exc}"))
        self.notice_label = plain_label(NOTICE, muted=True, wrap=True)
        self.notes_label = plain_label(muted=True, wrap=True)
        self.left_name, self.right_name = (plain_label(bold=True, clip=True, path=True) for _ in range(2))
        self.left_browser, self.right_browser = SafeBrowser(), SafeBrowser()
        splitter = QSplitter(Qt.Orientation.Horizontal)
        for name, browser in ((self.left_name, self.left_browser), (self.right_name, self.right_browser)):
            side = QWidget()
            column = QVBoxLayout(side)
            column.setContentsMargins(0, 0, 0, 0)
            column.setSpacing(2)
            column.addWidget(name)
            column.addWidget(browser, 1)
            splitter.addWidget(side)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.notice_label)
        layout.addWidget(self.notes_label)
        layout.addWidget(splitter, 1)
        self.setMinimumSize(560, 300)
        self.clear()

    def set_pair(self, result: ScanResult | None, pair: Pair | None, thresholds: Thresholds | None = None) -> None:
        """Start reading and cleaning both pages in the background, then render them.

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
        self.left_name.setText(f"left: {a.path}")
        self.right_name.setText(f"right: {b.path}")
        self._show_messages("rendering…")
        self._job.submit(render_pair, a, b, result.settings.max_file_bytes)

    def clear(self) -> None:
        """Show no pair (and ignore a rendering still being prepared)."""
        self._job.cancel()
        self._key, self._pages = None, None
        self.left_name.setText("left: no pair selected")
        self.right_name.setText("right: no pair selected")
        self._show_messages("")

    def is_rendering(self) -> bool:
        """``True`` while the shown pair's pages are being read and cleaned (bool)."""
        return self._job.is_running()

    def _show_messages(self, text: str) -> None:
        self.notes_label.hide()
        for browser in (self.left_browser, self.right_browser):
            browser.show_message(text)

    def _show_html(self, sides: list) -> None:
        notes = []
        for page, browser, (html, extra) in zip(self._pages, (self.left_browser, self.right_browser), sides):
            if html is None:
                browser.show_message(extra)
                continue
            browser.show_page(html, page.abspath, self._root)
            notes += [f"{page.path}: {note}" for note in extra]
            if not browser.toPlainText().strip() and "<img" not in html:
                browser.show_message("(nothing to show once scripts, frames and embedded objects are removed)")
        self.notes_label.setText("; ".join(notes))
        self.notes_label.setVisible(bool(notes))
