"""Paths shortened to a width in pixels: the one rule of the tables, the cluster trees and the
inspector's labels; a function that draws a cell's path so; and delegates that cut a column's
text at its end (and a cluster tree's page rows by the path rule)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem

from dedup_gui.core.pipeline.languages import is_language_folder
from dedup_gui.core.site_paths import is_index_name
from dedup_gui.core.views.path_segments import PathCut
from dedup_gui.core.views.paths import document_label

_MIDDLE = Qt.TextElideMode.ElideMiddle
#: The letters (with the "…") a title's document name keeps beside its first folder, at least.
_TITLE_NAME_LETTERS = 12
#: The share of a narrow path cell's room its document's name keeps before folders that tell it apart.
_DOCUMENT_SHARE = 0.3
#: A tree's top-level row's ``(prefix, path)`` (``("#1 ", "advance/x/index.html")``): a title
#: that names a document, drawn by :class:`GroupTreeDelegate` as the prefix and the path elided
#: by :func:`elide_path` when the title does not fit.
TITLE_PATH_ROLE = Qt.ItemDataRole.UserRole + 1
#: A tree's page row's shorter label that still tells it from its cluster's other pages
#: (:func:`~dedup_gui.core.views.paths.compact_member_labels`), drawn by
#: :class:`GroupTreeDelegate` when the whole label does not fit.
COMPACT_LABEL_ROLE = Qt.ItemDataRole.UserRole + 2


def elide_path(path: str, metrics: QFontMetrics, width: int, start: int = 0) -> str:
    """``path`` shortened to fit ``width`` pixels, keeping its first folder and its file name
    whole while they fit: the folders between them give way from the front, whole, while the
    last ones fit (``v1.11/…/guide/install/index.html``, ``v1.11/…/install/index.html``), then
    are elided from the middle; with no room for that, the folders as one are elided from the
    middle (``site/ar…es/river-trail.html``), then dropped (``…/river-trail.html``); only a file
    name wider than the column is itself elided in the middle.  The tables show paths without
    the folders all pages share, so their first folder is where the pages differ
    (``docs/v1.10/…``, ``docs/v1.11/…``), and the file name is what differs in one folder: both
    stay readable in a narrow column.

    A folder's index page (:data:`~dedup_gui.core.site_paths.INDEX_NAMES`) that does not fit
    whole is named by its folder, as its address is (``v1.10/…/install/``): "index.html" is the
    name of every page of a mirrored site and told none apart ("v1.10/…/index.html" on every
    row).

    A file name too wide for its room gives way by ``start`` (where the part that tells it
    from the other names begins, :func:`~dedup_gui.core.views.paths.distinct_starts`): its
    shared start is cut, that part kept (``o__gne__…other__1.html``; see :func:`elide_name`).

    Args:
        path: a relative path with ``/`` separators.
        metrics: the font metrics of the text.
        width: the room, in pixels.
        start: where the distinguishing part of the file name begins (an index into the file
            name; 0: the name is elided in its middle).

    Returns:
        The text to draw (str).
    """
    if metrics.horizontalAdvance(path) <= width:
        return path
    folder, sep, name = path.rpartition("/")
    if sep and folder and is_index_name(name):
        parent, parent_sep, last = folder.rpartition("/")
        return _elide(parent, parent_sep, last + "/", metrics, width, 0)
    return _elide(folder, sep, name, metrics, width, start)


def elide_name(name: str, start: int, metrics: QFontMetrics, width: int) -> str:
    """A file name shortened to ``width`` pixels keeping its part from ``start`` on (the part
    that tells it from the other names): the shared start before it is cut at its end
    (``o__gne__…other__1.html``), or dropped (``…other__1.html``); only when that part alone
    does not fit is it elided in its middle (``…oth…html``).  With ``start`` 0, the name is
    elided in its middle as Qt does (str).

    Args:
        name: a file name (or an index page's folder name and ``/``).
        start: an index into ``name``.
        metrics: the font metrics of the text.
        width: the room, in pixels.
    """
    if metrics.horizontalAdvance(name) <= width:
        return name
    if not 0 < start < len(name):
        return metrics.elidedText(name, _MIDDLE, width)
    head, tail = name[:start], name[start:]
    room = width - metrics.horizontalAdvance(tail)
    ellipsis = metrics.horizontalAdvance("…")
    if room < ellipsis:  # the distinguishing part alone is too wide
        return "…" + metrics.elidedText(tail, _MIDDLE, max(width - ellipsis, 0))
    return metrics.elidedText(head, Qt.TextElideMode.ElideRight, room) + tail


def elide_cut(cut: PathCut, metrics: QFontMetrics, width: int) -> str:
    """A path shortened to ``width`` pixels keeping the parts that tell it apart
    (:class:`~dedup_gui.core.views.path_segments.PathCut`, from the table): the folders that tell
    it from the pair's other page and from the column's other paths of its document, in the
    cut's order, while the document keeps :data:`_DOCUMENT_SHARE` of the room; the document in
    the rest (whole, or cut by its distinguishing part, ``cha…join-subnet/``); then, with room
    left, the shared folders; each run of cut folders as ``…`` (``v1.10.x/zh/…/vpc-peering/``).
    The path rule (:func:`elide_path`) kept the first folder and the name only, and at 1024x640
    read "v1.10.x/…/vpc-peering/" for both the ``zh`` and the ``en`` copy (str).

    Args:
        cut: the path's parts and their order.
        metrics: the font metrics of the text.
        width: the room, in pixels.
    """
    every = cut.shown(range(len(cut.folders)))
    if metrics.horizontalAdvance(every) <= width:
        return every
    advance = metrics.horizontalAdvance
    reserve = min(advance(cut.document), int(width * _DOCUMENT_SHARE))
    kept: list[int] = []
    for i in cut.order[: cut.needed]:  # greedy: a long folder that does not fit leaves room for the next
        if advance(cut.shown_name([*kept, i], "")) + reserve <= width:
            kept.append(i)
    if advance(cut.shown(kept)) > width:  # the document cut to the room left
        head = cut.shown_name(kept, "") if cut.folders else ""
        return head + elide_name(cut.document, cut.start, metrics, width - advance(head))
    for i in cut.order:  # room left: the other folders, shared ones last
        if i not in kept and advance(cut.shown([*kept, i])) <= width:
            kept.append(i)
    return cut.shown(kept)


def elide_title_path(path: str, metrics: QFontMetrics, width: int) -> str:
    """A document's path in a title, shortened to ``width`` pixels: :func:`elide_path` while
    that keeps the document's own name whole (``advance/…/accelerate-ebpf/``), else the first
    folder and that name elided in its middle (``zh/…/accel…ebpf/``) while the name keeps half
    the room and :data:`_TITLE_NAME_LETTERS` letters, else the name alone so elided (``accelera…ebpf/``): in a title the name tells
    clusters apart ("advance/ac…f/" on many titles told none apart) (str).

    Args:
        path: a relative path with ``/`` separators.
        metrics: the font metrics of the text.
        width: the room, in pixels.
    """
    shown = elide_path(path, metrics, width)
    label = document_label(path)
    cut = label.rstrip("/").rfind("/") + 1
    name = label[cut:]  # "accelerate-ebpf/" or "page.html"
    if name in shown or not cut:
        return shown
    # the first folder too ("zh/…/acc…ebpf/" and "advance/acc…ebpf/" are two documents) while
    # the name keeps half the room
    first = label.partition("/")[0]
    head = first + ("/" if cut == len(first) + 1 else "/…/")
    room = width - metrics.horizontalAdvance(head)
    shown_name = metrics.elidedText(name, _MIDDLE, room)
    # the name keeps a dozen letters too: "#1 advance/acc…pf/" read worse than "#1 acceler…h-ebpf/"
    if room >= width // 2 and len(shown_name) >= min(len(name), _TITLE_NAME_LETTERS):
        return head + shown_name
    return metrics.elidedText(name, _MIDDLE, width)


def _elide(folder: str, sep: str, name: str, metrics: QFontMetrics, width: int, start: int) -> str:
    # ``name`` is a file name, or a folder's name and "/" (an index page); ``start`` where the
    # part that tells the name apart begins
    path = folder + sep + name
    if metrics.horizontalAdvance(path) <= width:
        return path
    name_width = metrics.horizontalAdvance(sep + name)
    ellipsis = metrics.horizontalAdvance("…")
    if not sep or name_width + ellipsis > width:
        shown = _first_folder_and_name(folder, sep, name, metrics, width, start)
        if shown:
            return shown
        if not sep:
            return elide_name(name, start, metrics, width)
        if start:
            return "…/" + elide_name(name, start, metrics, max(width - metrics.horizontalAdvance("…/"), 0))
        return metrics.elidedText("…/" + name, _MIDDLE, width)
    head, inner_sep, middle = _head_and_rest(folder)
    if "/" in head and metrics.horizontalAdvance(f"{head}/…{sep}{name}") > width:
        head, inner_sep, middle = folder.partition("/")  # no room for the language folder too
    inner = middle.split("/") if inner_sep else []
    # whole folders before cut ones: the first folder, the last folders that fit, the name
    # ("v1.11/…/install/index.html": the last folder often tells pages of one folder apart)
    for keep in range(len(inner) - 1, 0, -1):
        shown = f"{head}/…/{'/'.join(inner[-keep:])}{sep}{name}"
        if metrics.horizontalAdvance(shown) <= width:
            return shown
    if inner_sep:  # the first folder whole, the ones after it elided
        room = width - name_width - metrics.horizontalAdvance(head + inner_sep)
        if room >= ellipsis:
            return head + inner_sep + metrics.elidedText(middle, _MIDDLE, room) + sep + name
    if name.endswith("/"):  # an index page's folder: its slug's two ends beside the first folder
        shown = _first_folder_and_name(folder, sep, name, metrics, width, 0)
        if shown:
            return shown
    return metrics.elidedText(folder, _MIDDLE, width - name_width) + sep + name


def _first_folder_and_name(folder: str, sep: str, name: str, metrics: QFontMetrics, width: int, start: int) -> str:
    # the first folder tells versions apart: kept whole, the name elided in its middle
    # ("v1.10/…/acc…ebpf/") or by its distinguishing part (elide_name); "" when the two do not
    # fit with a few letters of the name
    first, inner, _rest = _head_and_rest(folder)
    head = (first + ("/…/" if inner else "/")) if sep else ""
    room = width - metrics.horizontalAdvance(head)
    if not head or room < metrics.horizontalAdvance("ab…z/"):
        return ""
    return head + elide_name(name, start, metrics, room)


def _head_and_rest(folder: str) -> tuple[str, str, str]:
    # the first folder, with a language folder after it ("v1.10.x/zh"): both tell copies of a
    # page apart ("v1.10.x/advance/x/" and "v1.10.x/zh/advance/x/" read alike without it)
    head, sep, rest = folder.partition("/")
    lang, lang_sep, after = rest.partition("/")
    if lang_sep and is_language_folder(lang):
        return f"{head}/{lang}", lang_sep, after
    return head, sep, rest


def short_path(path: str) -> str:
    """The shortest form :func:`elide_path` keeps whole: the first folder, ``…`` and the file
    name (``v1.11/…/page.html``), or for an index page its folder (``v1.11/…/install/``), or
    the path itself when it has at most one folder (str)."""
    head, sep, rest = path.partition("/")
    folders, _sep, name = rest.rpartition("/")
    if is_index_name(name) and folders:
        return f"{head}/…/{folders.rpartition('/')[2]}/" if "/" in folders else f"{head}/{folders}/"
    return f"{head}/…/{name}" if sep and folders else path


def paint_path(painter, option: QStyleOptionViewItem, start: int = 0, cut: PathCut | None = None) -> None:
    """Draw a view's cell whose text is a path, shortened by :func:`elide_path` to the cell's
    width (less the style's text margins), not by the view's own elision.

    Args:
        painter: the ``QPainter`` the delegate was given.
        option: the cell's style option, already filled by ``initStyleOption`` (its font and
            font metrics those of the cell: the kept page's bold row measures bold); changed
            here (its text).
        start: where the distinguishing part of the file name begins (:func:`elide_path`).
        cut: the parts of the path that tell it apart, from the table (:func:`elide_cut`, in
            place of :func:`elide_path`; ``None``: the path rule).
    """
    style = option.widget.style() if option.widget is not None else QApplication.style()
    # the style's text margin on each side (PM_FocusFrameHMargin + 1), and 2 pixels of slack
    margin = 2 * (style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, option.widget) + 1) + 2
    room = option.rect.width() - margin
    if cut is not None and option.fontMetrics.horizontalAdvance(option.text) > room:
        option.text = elide_cut(cut, option.fontMetrics, room)
    else:
        option.text = elide_path(option.text, option.fontMetrics, room, start)
    style.drawControl(QStyle.ControlElement.CE_ItemViewItem, option, painter, option.widget)


class ElideRightDelegate(QStyledItemDelegate):
    """Draws a column's text cut at its end ("Keep cluster 5 (longest main…"): for text that
    starts with what matters and whose whole text is in the tooltip, where the view's middle
    elision would cut the word that matters.

    Args:
        parent: the view.
        top_level_only: only a tree's top-level rows (its group titles; the rows under them,
            paths, keep the view's own elision).
    """

    def __init__(self, parent=None, top_level_only: bool = False) -> None:
        super().__init__(parent)
        self._top_level_only = top_level_only

    def initStyleOption(self, option: QStyleOptionViewItem, index) -> None:  # noqa: N802 (Qt API)
        """The default style option, with right elision (where it applies)."""
        super().initStyleOption(option, index)
        if not self._top_level_only or not index.parent().isValid():
            option.textElideMode = Qt.TextElideMode.ElideRight


class GroupTreeDelegate(ElideRightDelegate):
    """The first column of a cluster tree: its top-level rows (group titles, "Keep cluster 5
    (longest main…") cut at their end, its page rows (paths) drawn by :func:`elide_path`
    ("v1.10.x/…/accele…-ebpf/"), as the tables draw paths: the view's middle elision cut the
    document's name and kept "index.html" ("v1.10.x/a…ndex.html" on every row of a mirrored
    site).  A row's whole path is in its tooltip (the models give it).

    Args:
        parent: the tree view.
    """

    def __init__(self, parent=None) -> None:
        super().__init__(parent, top_level_only=True)

    def paint(self, painter, option: QStyleOptionViewItem, index) -> None:
        """Draw a page row's path with :func:`paint_path`; a top-level row as
        :class:`ElideRightDelegate` does, or, for a title that names a document
        (:data:`TITLE_PATH_ROLE`) and does not fit, its prefix and the document's path elided by
        :func:`elide_path` ("#1 advance/acc…ebpf/": cut at its end, every title read "#1 advance/acc…")."""
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        style = opt.widget.style() if opt.widget is not None else QApplication.style()
        margin = 2 * (style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, opt.widget) + 1) + 2
        room = opt.rect.width() - margin
        if index.parent().isValid():
            compact = index.data(COMPACT_LABEL_ROLE)
            if compact and opt.fontMetrics.horizontalAdvance(opt.text) > room:
                opt.text = compact  # "…10.x/zh/": the part that tells the pages apart
            paint_path(painter, opt)
            return
        parts = index.data(TITLE_PATH_ROLE)
        if parts is None:
            super().paint(painter, option, index)
            return
        if opt.fontMetrics.horizontalAdvance(opt.text) > room:
            opt.text = elide_title(*parts, opt.fontMetrics, room)
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)


def elide_title(prefix: str, path: str, suffix: str, metrics: QFontMetrics, width: int) -> str:
    """A title ``prefix + path + suffix`` (``"#3 "``, ``"ops/recover-db/index.html"``,
    ``" in v1.16.x, v1.17.x"``) shortened to ``width`` pixels: the prefix whole, the path by
    :func:`elide_title_path`, given at least half of the room, and the suffix in the rest, cut
    at its end, or left out when not even its first folders fit (str).

    Args:
        prefix: the title's number.
        path: the document's path (an index page is named by its folder).
        suffix: what tells the cluster from others of the document (``""``: none).
        metrics: the font metrics of the text.
        width: the room, in pixels.
    """
    room = width - metrics.horizontalAdvance(prefix)
    if suffix:
        path_room = max(room // 2, room - metrics.horizontalAdvance(suffix))
        path_room = min(path_room, metrics.horizontalAdvance(document_label(path)))
        tail = metrics.elidedText(suffix, Qt.TextElideMode.ElideRight, room - path_room)
        first = " ".join(suffix.split(" ")[:3])  # " in v1.10.x–v1.13.x"
        if metrics.horizontalAdvance(tail) >= metrics.horizontalAdvance(first):
            return prefix + elide_title_path(path, metrics, path_room) + tail
    return prefix + elide_title_path(path, metrics, room)
