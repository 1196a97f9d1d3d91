"""The Jaccard view's Venn diagram: two circles drawn to scale (areas proportional to the set sizes,
:func:`dedup_gui.core.teaching.venn.venn_circles`) with each region's count inside it, or beside
the circles where it does not fit."""

from __future__ import annotations

import itertools

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPalette, QPen
from PySide6.QtWidgets import QWidget

from dedup_gui.core.teaching.jaccard_steps import SetComparison
from dedup_gui.core.teaching.venn import venn_circles
from dedup_gui.gui.teaching.widgets import blend

#: Elements drawn inside the Venn diagram's regions at most (the toy example has 5 and 4).
VENN_ELEMENTS = 6
#: The smallest share of the widget's font size the elements are written in (else cut with "…";
#: an element is never broken between its words).
ELEMENT_MIN_SCALE = 0.55
A_COLOR = QColor("#1565c0")
B_COLOR = QColor("#d84315")


class VennWidget(QWidget):
    """Two overlapping circles A and B with the count of each region (only A, both, only B);
    in the toy example the elements themselves are written in their regions.

    Args:
        parent: the Qt parent widget, or ``None``.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._comparison: SetComparison | None = None
        self._show_elements = False
        #: the smallest size the elements are written at (points): presentation mode sets
        #: LEGIBLE_POINTS, 0 leaves :data:`ELEMENT_MIN_SCALE` of the font alone the limit
        self.least_points = 0.0
        self._cache: tuple | None = None
        self.setMinimumSize(320, 200)

    def set_comparison(self, comparison: SetComparison | None, show_elements: bool = False) -> None:
        """Show ``comparison`` (or nothing); ``show_elements`` writes the elements in the regions."""
        self._comparison, self._show_elements = comparison, show_elements
        self._cache = None
        self.update()

    def region_counts(self) -> tuple[int, int, int]:
        """``(only A, both, only B)`` as drawn (tuple of int)."""
        c = self._comparison
        return (len(c.only_a), len(c.intersection), len(c.only_b)) if c else (0, 0, 0)

    def sizeHint(self) -> QSize:  # noqa: N802
        """A wide, low diagram (QSize)."""
        return QSize(520, 260)

    def circles(self) -> tuple[float, float, float, float, float]:
        """Where the circles are drawn: ``(centre x of A, centre x of B, centre y, radius of A,
        radius of B)`` in pixels, areas to scale (:func:`~dedup_gui.core.teaching.venn.venn_circles`),
        leaving room beside and under them for the counts that do not fit inside their regions
        (:meth:`region_labels`)."""
        return self._geometry()[0]

    def _circles(self, margins: tuple[float, float, float]) -> tuple[float, float, float, float, float]:
        """The circles with ``(left, right, bottom)`` pixels kept free for outside labels."""
        c = self._comparison
        if c is None:
            return 0.0, 0.0, 0.0, 0.0, 0.0
        ra, rb, d = venn_circles(len(c.a), len(c.b), len(c.intersection))
        bold = QFont(self.font())
        bold.setBold(True)
        w, h = self.width(), self.height()
        ml, mr, mb = margins
        left, right = min(-ra, d - rb), max(ra, d + rb)
        top = QFontMetricsF(bold).height() + 6  # room for the names above the circles
        room_w, room_h = w - 16 - ml - mr, h - top - 8 - mb
        unit = max(1.0, min(room_w / max(right - left, 1e-9), room_h / max(2 * max(ra, rb), 1e-9)))
        x0 = ml + 8 + (room_w - (right - left) * unit) / 2
        cxa = x0 - left * unit
        cy = top + 4 + room_h / 2
        return cxa, cxa + d * unit, cy, ra * unit, rb * unit

    def _geometry(self) -> tuple[tuple[float, float, float, float, float], list, list]:
        """The circles, the region labels and the captions (:meth:`captions`), cached for the
        widget's size, font and sets: the circles are laid out once with no margins and, if a
        count does not fit inside its region or a label lost its name, again with room for it
        outside or for the captions' row."""
        key = (self.width(), self.height(), self.font().key(), id(self._comparison), self._show_elements)
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        circles = self._circles((0.0, 0.0, 0.0))
        labels = self._place_labels(circles)
        outside = [(head, name) for head, _label, _rect, _items, inside, name in labels if not inside]
        # a row under the circles for the names of regions labelled with their count alone
        captions_h = QFontMetricsF(self.font()).height() + 4 if any("\n" not in lb[1] for lb in labels) else 0.0
        if outside or captions_h:
            ml = mr = mb = 0.0
            for head, name in outside:
                if name == "only in A":
                    ml = head.width() + 6
                elif name == "only in B":
                    mr = head.width() + 6
                else:
                    mb = head.height() + 4
            circles = self._circles((ml, mr, mb + captions_h))
            labels = self._place_labels(circles)
        captions = self._captions(circles, labels)
        self._cache = (key, (circles, labels, captions))
        return circles, labels, captions

    def captions(self) -> list[tuple[QRectF, str]]:
        """The names of the regions whose label is the count alone, in a row under the circles,
        each under its count (pushed apart where they would touch): ``(where, name)`` left to
        right (list).  Presenting, the regions were too small for "249\nonly in A" and only the
        counts were drawn: the students saw three numbers and no word of what they count."""
        return self._geometry()[2]

    def _captions(self, circles: tuple[float, float, float, float, float], labels: list) -> list[tuple[QRectF, str]]:
        unnamed = [(head, name) for head, label, _rect, _items, _inside, name in labels if "\n" not in label]
        if not unnamed:
            return []
        fm = QFontMetricsF(self.font())
        _cxa, _cxb, cy, ra, rb = circles
        # under the circles, and under the shared count where that stands outside, under the lens
        below = max([cy + max(ra, rb) + 2] + [lb[0].bottom() + 2 for lb in labels if not lb[4] and lb[0].top() > cy])
        rects = []
        for head, name in unnamed:
            width = fm.horizontalAdvance(name) + 8
            rects.append(QRectF(head.center().x() - width / 2, below, width, fm.height()))
        for a, b in itertools.pairwise(rects):  # apart, left to right
            if b.left() < a.right() + 4:
                b.moveLeft(a.right() + 4)
        shift = min(0.0, self.width() - rects[-1].right())  # inside the widget, the left edge first
        shift = max(shift, -rects[0].left())
        for rect in rects:
            rect.translate(shift, 0.0)
        return [(rect, name) for rect, (_head, name) in zip(rects, unnamed, strict=True)]

    def names(self) -> tuple[str, str]:
        """The names drawn above the circles, e.g. ``("A: 423", "B: 423")``."""
        c = self._comparison
        return (f"A: {len(c.a):,}", f"B: {len(c.b):,}") if c else ("", "")

    def name_rects(self) -> tuple[QRectF, QRectF]:
        """Where the names of A and B are drawn: above the left and right halves of their circles,
        and pushed apart where they would touch (two circles nearly on top of each other)."""
        bold = QFont(self.font())
        bold.setBold(True)
        fm = QFontMetricsF(bold)
        cxa, cxb, cy, ra, rb = self.circles()
        top = cy - max(ra, rb) - fm.height() - 4
        wa, wb = (fm.horizontalAdvance(name) + 8 for name in self.names())
        gap = fm.horizontalAdvance("  ")
        xa, xb = cxa - ra * 0.5 - wa / 2, cxb + rb * 0.5 - wb / 2
        overlap = xa + wa + gap - xb
        if overlap > 0:
            xa, xb = xa - overlap / 2, xb + overlap / 2
        return QRectF(xa, top, wa, fm.height()), QRectF(xb, top, wb, fm.height())

    def paintEvent(self, event) -> None:  # noqa: N802
        """Draw the circles to scale, their names and sizes, and each region's count (or elements)."""
        c = self._comparison
        if c is None:
            return
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        cxa, cxb, cy, ra, rb = self.circles()
        text = self.palette().color(QPalette.ColorRole.WindowText)
        base = self.palette().color(QPalette.ColorRole.Base)
        for cx, r, color in ((cxa, ra, A_COLOR), (cxb, rb, B_COLOR)):
            fill = blend(base, color, 0.18)
            fill.setAlpha(170)
            painter.setBrush(fill)
            painter.setPen(QPen(color, 2.5))
            painter.drawEllipse(QPointF(cx, cy), r, r)
        bold = QFont(self.font())
        bold.setBold(True)
        painter.setFont(bold)
        for rect, name, color in zip(self.name_rects(), self.names(), (A_COLOR, B_COLOR), strict=True):
            painter.setPen(color)
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, name)
        for head, label, _rect, _items in self.region_labels():
            painter.setPen(text)
            painter.setFont(bold)
            painter.drawText(head, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop, label)
        painter.setFont(self.font())
        painter.setPen(text)
        for rect, name in self.captions():
            painter.drawText(rect, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop, name)
        for body, items in self.element_rects():
            painter.setFont(self.element_font(items, body.width()))
            lines = self.element_lines(items, body.width(), body.height())
            painter.drawText(body, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop, "\n".join(lines))
        painter.end()

    def element_rects(self) -> list[tuple[QRectF, tuple[str, ...]]]:
        """Where the toy's elements are written, region by region, left to right: under the
        region's label, the region's width, or wider where its widest element needs more at
        :data:`ELEMENT_MIN_SCALE` of the font: "only in A" then grows to the left (out of the
        lens's way), "only in B" to the right, the shared ones on both sides; empty unless the
        elements are shown (list of (QRectF, elements))."""
        if not self._show_elements:
            return []
        cxa, cxb, _cy, ra, rb = self.circles()
        lens = (max(cxa - ra, cxb - rb) + min(cxa + ra, cxb + rb)) / 2
        small = QFont(self.font())
        size = small.pointSizeF() if small.pointSizeF() > 0 else 10.0
        small.setPointSizeF(size * self._least_scale(size))
        fm = QFontMetricsF(small)
        out = []
        for head, _label, rect, items in self.region_labels():
            if not items:
                continue
            need = max(fm.horizontalAdvance(item) for item in items[:VENN_ELEMENTS]) + 2
            width = max(rect.width(), need)
            if rect.center().x() < lens - 1:
                left = rect.right() - width
            elif rect.center().x() > lens + 1:
                left = rect.left()
            else:
                left = rect.center().x() - width / 2
            left = min(max(left, 0.0), max(0.0, self.width() - width))  # inside the widget
            out.append((QRectF(left, head.bottom() + 2, width, rect.bottom() - head.bottom() - 2), items))
        return out

    def element_lines(self, items: tuple[str, ...], width: float, height: float = 0.0) -> list[str]:
        """A region's elements as drawn in :meth:`element_font`: the first
        :data:`VENN_ELEMENTS`, one whole element a line, then "…".  An element is never broken
        between its words (the toy's "flower indeed" was split over two lines); one still too
        wide for the region's ``width`` (pixels) at the smallest font is cut at its end with
        "…", not clipped mid-letter at the region's edges.  Given a ``height`` (pixels), only the
        lines that fit it, the last of them "…" where elements are left out (presenting, the toy's
        sixth shared shingle was cut in half at the region's bottom) (list[str])."""
        fm = QFontMetricsF(self.element_font(items, width))
        shown = VENN_ELEMENTS
        if height > 0:
            fits = max(1, int(height // fm.lineSpacing()))
            if min(len(items), VENN_ELEMENTS) + (len(items) > VENN_ELEMENTS) > fits:
                shown = fits - 1
        lines = [fm.elidedText(item, Qt.TextElideMode.ElideRight, width) for item in items[:shown]]
        return lines + (["…"] if len(items) > shown else [])

    def _least_scale(self, size: float) -> float:
        """The smallest share of a font of ``size`` points the elements are written at: at
        least :data:`ELEMENT_MIN_SCALE`, and at least :attr:`least_points` (presenting, the
        toy's shingles were 10 pixels at 0.55 of the font)."""
        return min(1.0, max(ELEMENT_MIN_SCALE, self.least_points / max(size, 1e-9)))

    def element_font(self, items: tuple[str, ...], width: float) -> QFont:
        """The font a region's elements are written in: the widget's, made smaller (down to
        :data:`ELEMENT_MIN_SCALE` of its size) until the widest element shown fits ``width``
        (pixels); presentation mode's large font cut the toy's shingles ("flowe…", "too …")."""
        font = QFont(self.font())
        shown = items[:VENN_ELEMENTS]
        widest = max((QFontMetricsF(font).horizontalAdvance(item) for item in shown), default=0.0)
        if widest > width > 0:
            size = font.pointSizeF() if font.pointSizeF() > 0 else float(font.pixelSize())
            scale = (width - 1) / widest
            least = self._least_scale(size)
            while True:  # a font's advance is not quite proportional to its size (hinting)
                scale = max(least, scale)
                if font.pointSizeF() > 0:
                    font.setPointSizeF(size * scale)
                else:
                    font.setPixelSize(max(1, int(size * scale)))
                fm = QFontMetricsF(font)
                if scale <= least or max(fm.horizontalAdvance(item) for item in shown) <= width:
                    return font
                scale *= 0.97
        return font

    def region_labels(self) -> list[tuple[QRectF, str, QRectF, tuple[str, ...]]]:
        """Each region's label as drawn: ``(where, text, the region's box, its elements)``, left
        to right.  A region that does not exist (a circle inside the other, nothing only in it)
        has none.

        The toy example's labels (the count and the name, the elements under them) stand at the
        top of their regions.  A pair of pages' labels ("227\nonly in A", or the count alone
        where that does not fit) stand at the circles' middle height, where each region is
        widest, and only where the whole label lies inside its region (at k = 1 "77 only in A"
        sat on circle B's outline); one that fits nowhere inside stands outside: the count only
        in A at the left of circle A, only in B at the right of circle B, the shared count
        under the lens, with room kept for it."""
        return [label[:4] for label in self._geometry()[1]]

    def _regions(self, circles: tuple[float, float, float, float, float]) -> list[tuple[QRectF, tuple, str]]:
        c = self._comparison
        if c is None:
            return []
        cxa, cxb, cy, ra, rb = circles
        edges = sorted((cxa - ra, cxa + ra, cxb - rb, cxb + rb))
        spans = ((edges[0], edges[1]), (edges[1], edges[2]), (edges[2], edges[3]))
        tall = max(ra, rb) * 1.4
        inside = {"only in A": cxb - rb <= cxa - ra and cxa + ra <= cxb + rb,  # A drawn inside B: no such region
                  "only in B": cxa - ra <= cxb - rb and cxb + rb <= cxa + ra}  # fmt: skip
        return [
            (QRectF((x1 + x2) / 2 - max(x2 - x1, 70) / 2, cy - tall / 2, max(x2 - x1, 70), tall), tuple(items), name)
            for (x1, x2), items, name in zip(
                spans, (c.only_a, c.intersection, c.only_b), ("only in A", "A ∩ B", "only in B"), strict=True
            )
            if items or not inside.get(name)
        ]

    def _place_labels(self, circles: tuple[float, float, float, float, float], allow_inside: bool = True) -> list:
        """``(where, text, region box, elements, inside, region name)`` per region (see
        :meth:`region_labels`)."""
        regions = self._regions(circles)
        bold = QFont(self.font())
        bold.setBold(True)
        fm = QFontMetricsF(bold)
        if self._show_elements:
            return [(head, label, rect, items, True, name) for (head, label, rect, items), (_r, _i, name)
                    in zip(self._top_labels(regions, fm), regions, strict=True)]  # fmt: skip
        cxa, cxb, cy, ra, rb = circles
        out = []
        for rect, items, name in regions:
            placed = None
            for label in (f"{len(items):,}\n{name}", f"{len(items):,}"):
                lines = label.split("\n")
                width = max(fm.horizontalAdvance(line) for line in lines) + 6
                head = QRectF(rect.center().x() - width / 2, cy - fm.height() * len(lines) / 2, width,
                              fm.height() * len(lines))  # fmt: skip
                if allow_inside and in_region(head, name, circles):
                    placed = (head, label, rect, items, True, name)
                    break
            if placed is None:  # outside, the count alone
                label = f"{len(items):,}"
                width = fm.horizontalAdvance(label) + 6
                if name == "only in A":
                    head = QRectF(cxa - ra - 4 - width, cy - fm.height() / 2, width, fm.height())
                elif name == "only in B":
                    head = QRectF(cxb + rb + 4, cy - fm.height() / 2, width, fm.height())
                else:
                    head = QRectF(rect.center().x() - width / 2, cy + max(ra, rb) + 2, width, fm.height())
                placed = (head, label, rect, items, False, name)
            out.append(placed)
        return out

    def _top_labels(self, regions: list, fm: QFontMetricsF) -> list[tuple[QRectF, str, QRectF, tuple[str, ...]]]:
        """The toy example's labels at the top of their regions, the elements under them: the
        count and the name between the edges that bound the region, where those labels would
        run into each other the count alone, pushed apart if need be."""
        for named in (True, False):
            labels = [f"{len(items):,}\n{name}" if named else f"{len(items):,}" for _r, items, name in regions]
            heads = []
            for (rect, _items, _name), label in zip(regions, labels, strict=True):
                width = max(fm.horizontalAdvance(line) for line in label.split("\n")) + 6
                heads.append(QRectF(rect.center().x() - width / 2, rect.top(), width, fm.height() * (1 + named)))
            if all(a.right() <= b.left() for a, b in zip(heads, heads[1:])):
                break
        else:  # the counts alone still touch: side by side about their middle
            middle = (heads[0].left() + heads[-1].right()) / 2
            x = middle - sum(h.width() + 4 for h in heads) / 2
            for head in heads:
                head.moveLeft(x)
                x += head.width() + 4
        return [
            (head, label, rect, items) for head, label, (rect, items, _n) in zip(heads, labels, regions, strict=True)
        ]


def in_region(rect: QRectF, region: str, circles: tuple[float, float, float, float, float], pad: float = 3.0) -> bool:
    """Whether ``rect`` lies wholly in a Venn region, ``pad`` pixels clear of the outlines.

    Args:
        rect: a label's rectangle (pixels).
        region: ``"only in A"``, ``"A ∩ B"`` or ``"only in B"``.
        circles: ``(centre x of A, centre x of B, centre y, radius of A, radius of B)``.
        pad: the clearance from every outline (pixels).

    Returns:
        ``True`` if every corner is inside the circles the region lies in and no point of the
        rectangle is inside (or within ``pad`` of) the circle it lies outside of (bool).
    """
    cxa, cxb, cy, ra, rb = circles
    corners = [(rect.left(), rect.top()), (rect.right(), rect.top()), (rect.left(), rect.bottom()),
               (rect.right(), rect.bottom())]  # fmt: skip

    def inside(cx: float, r: float) -> bool:
        return all((x - cx) ** 2 + (y - cy) ** 2 <= (r - pad) ** 2 for x, y in corners)

    def clear_of(cx: float, r: float) -> bool:
        nx, ny = min(max(cx, rect.left()), rect.right()), min(max(cy, rect.top()), rect.bottom())
        return (nx - cx) ** 2 + (ny - cy) ** 2 >= (r + pad) ** 2

    if region == "only in A":
        return inside(cxa, ra) and clear_of(cxb, rb)
    if region == "only in B":
        return inside(cxb, rb) and clear_of(cxa, ra)
    return inside(cxa, ra) and inside(cxb, rb)
