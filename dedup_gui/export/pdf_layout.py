"""Keep the PDF report's headings with what follows them.

Qt's rich-text layout (``QTextDocument``) honours ``page-break-before``/``page-break-after:
always`` only: CSS ``break-after: avoid`` and ``page-break-inside: avoid`` are ignored, so a
heading and its first line could sit at the bottom of one page and the text it heads on the
next ("Pages to act on" on page 1, its sentence on page 2).  :func:`keep_headings_with_next`
does what ``break-after: avoid`` would: after layout, a heading whose following lines would
cross a page boundary starts a new page (``QTextBlockFormat.PageBreak_AlwaysBefore``).
"""

from __future__ import annotations

#: Blocks after a heading kept on its page: the heading's sentence, then the first cells of a
#: table (a header row and the first row of a three-column table).
FOLLOWING_BLOCKS = 5
#: A heading with more than this share of a page to keep together is left where it is (moving
#: it would leave most of a page empty).
MOST_OF_PAGE = 0.4


def keep_headings_with_next(doc, page_height: float, levels: tuple[int, ...] = (2, 3)) -> int:
    """Move each heading that would be parted from the text after it to the next page.

    For every heading (``<h2>``, ``<h3>``: :meth:`QTextBlockFormat.headingLevel` in ``levels``)
    the heading and the :data:`FOLLOWING_BLOCKS` blocks after it (its sentence, then the first
    table cells, which are blocks too) must end on the page where the heading starts; when they
    do not, and together they take at most :data:`MOST_OF_PAGE` of a page, the heading gets a
    page break before it.  Headings are taken in document order, so each sees the layout that
    the earlier breaks made.

    Args:
        doc: a laid-out ``QTextDocument`` whose page size is set (its layout paginates).
        page_height: the height of one page in the document's units (float, as
            ``doc.pageSize().height()``).
        levels: the heading levels to keep with their text (tuple of int).

    Returns:
        How many headings were moved to a new page (int).
    """
    from PySide6.QtGui import QTextCursor, QTextFormat

    layout = doc.documentLayout()
    moved = 0
    block = doc.begin()
    while block.isValid():
        if block.blockFormat().headingLevel() in levels:
            top = layout.blockBoundingRect(block).top()
            bottom = layout.blockBoundingRect(block).bottom()
            after = block.next()
            for _ in range(FOLLOWING_BLOCKS):
                if not after.isValid():
                    break
                bottom = max(bottom, layout.blockBoundingRect(after).bottom())
                after = after.next()
            page = int(top // page_height)
            crosses = bottom - 1 > (page + 1) * page_height
            at_top = top - page * page_height < 1
            if crosses and not at_top and bottom - top <= MOST_OF_PAGE * page_height:
                fmt = block.blockFormat()
                fmt.setPageBreakPolicy(QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore)
                QTextCursor(block).setBlockFormat(fmt)
                # lay the rest out anew: Qt's incremental relayout after a format change left the
                # blocks after a table unpainted
                doc.markContentsDirty(block.position(), doc.characterCount() - block.position())
                moved += 1
        block = block.next()
    return moved
