"""A page's text as a plain-text pane shows it, in pieces Qt lays out in good time.

``QPlainTextEdit`` costs the GUI thread about 4 µs per block (paragraph) to fill and lays out a
whole block whenever any of it is visible, and Qt's line breaking is quadratic in a run with no
break opportunity (a 300,000-character word: 4-5 s; a page of 300,000 short lines: 2 s to fill).
So the text shown is cut to :data:`TEXT_LIMIT` characters and no block is much longer than
:data:`BLOCK_CHARS`:

* each paragraph (line) of the text is followed by a blank line, as before (the teaching
  window's text box: by nothing, ``blank_lines=False``); a text of more than
  :data:`MAX_PARAGRAPHS` paragraphs has them as line separators (U+2028, which Qt breaks the
  line at without starting a block), with a block ending every :data:`BLOCK_CHARS` or so;
* a longer paragraph has a block end at a space (the space is shown as the line end) or, with
  no space (a long word, CJK or Thai text), one inserted before a character that is not a
  combining mark.

:class:`QtPositions` maps Python offsets of the text to positions in the pane, so highlights
stay exact.  Nothing here touches Qt: the work is plain string operations, linear in C.
"""

from __future__ import annotations

import re
import unicodedata

import numpy as np

#: Characters of a text shown (and compared) at most; the JSON export has the whole texts.
TEXT_LIMIT = 2_000_000
#: A block (Qt paragraph) ends after about this many characters: laying one out costs up to
#: 20 ms for text with many combining marks, and one is laid out whole.
BLOCK_CHARS = 1_000
#: A text with more paragraphs than this shows them as line separators inside blocks of about
#: :data:`BLOCK_CHARS` (a block per paragraph costs 4 µs each to fill: 0.3 s per 100,000).
MAX_PARAGRAPHS = 2_000
#: A paragraph is followed by a blank line: a line end then an empty line.
PARAGRAPH_END = "\n\n"
#: The same with line separators, inside a block; :data:`BLOCK_END` ends the block there.
GROUPED_PARAGRAPH_END = "\u2028\u2028"
BLOCK_END = "\u2028\n"
#: Combining characters looked past (at most) for a place to insert a block end.
_MARKS_SKIPPED = 64
_OTHER_SPACE = re.compile(r"[^\S\n]")


class QtPositions:
    """Maps Python offsets in a text to positions in the pane showing :func:`pane_text`.

    A position is a UTF-16 unit of the shown string: a character outside the Basic Multilingual
    Plane takes two, a paragraph end two (the blank line), an inserted block end one.

    Args:
        extra: sorted Python offsets after which the pane has one more position than the text
            (an offset listed twice counts twice) (numpy int64 array).
        length: the length of the text shown (characters; offsets beyond map to its end).

    Example:
        >>> positions = pane_text("ab\\ncd")[1]
        >>> positions(4), positions(99)
        (5, 6)
    """

    def __init__(self, extra: np.ndarray | None = None, length: int = 0) -> None:
        self._extra = np.zeros(0, np.int64) if extra is None else extra
        self.length = length

    def __call__(self, offset: int) -> int:
        """The pane position of Python offset ``offset`` (int)."""
        offset = min(offset, self.length)
        return offset + int(np.searchsorted(self._extra, offset, "left"))

    def many(self, offsets: np.ndarray) -> np.ndarray:
        """The pane positions of many offsets at once (numpy int64 array)."""
        offsets = np.minimum(np.asarray(offsets, np.int64), self.length)
        return offsets + np.searchsorted(self._extra, offsets, "left")


def pane_text(text: str, limit: int = TEXT_LIMIT, blank_lines: bool = True) -> tuple[str, QtPositions]:
    """The string a pane shows for ``text`` and its :class:`QtPositions` (see the module doc).

    A text of at most :data:`MAX_PARAGRAPHS` paragraphs of at most :data:`BLOCK_CHARS`
    characters is shown as it always was: ``"\\r"`` (which Qt would merge with a following
    ``"\\n"``) as a space, and a blank line after each paragraph.

    Args:
        text: the text (e.g. a page's main text).
        limit: characters shown at most.
        blank_lines: a blank line after each paragraph; ``False``: paragraphs as single lines.

    Returns:
        ``(shown, positions)`` (tuple[str, QtPositions]).
    """
    text = text[:limit].replace("\r", " ")
    grouped = text.count("\n") > MAX_PARAGRAPHS
    if blank_lines:
        sep, block_end = (GROUPED_PARAGRAPH_END if grouped else PARAGRAPH_END), BLOCK_END
    else:
        sep, block_end = ("\u2028" if grouped else "\n"), "\n"
    out: list[str] = []
    inserted: list[int] = []
    done = 0  # text[:done] is in out
    block = 0  # where the block being filled starts (a Python offset)
    while len(text) - block > BLOCK_CHARS:
        window = block + BLOCK_CHARS
        if not grouped:
            end = text.find("\n", block, window)
            if end >= 0:  # a paragraph end is a block end already
                block = end + 1
                continue
        else:
            end = text.rfind("\n", block, window)
            if end >= 0:  # the last paragraph end in reach ends the block
                out += [text[done:end].replace("\n", sep), block_end]
                done = block = end + 1
                continue
        space = text.rfind(" ", block + 1, window)
        if space < 0:
            match = _OTHER_SPACE.search(text, block + 1, window)
            space = match.start() if match else -1
        if space >= 0:  # the space is shown as the block's end
            out += [text[done:space].replace("\n", sep), "\n"]
            done = block = space + 1
            continue
        at = window  # no space: a block end inserted, not between a letter and its marks
        while at < min(len(text), window + _MARKS_SKIPPED) and unicodedata.category(text[at])[0] == "M":
            at += 1
        out += [text[done:at].replace("\n", sep), "\n"]
        inserted.append(at - 1)
        done = block = at
    out.append(text[done:].replace("\n", sep))
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), np.uint32)
    wide = np.flatnonzero(((codes == 10) & blank_lines) | (codes > 0xFFFF))
    extra = np.sort(np.concatenate([wide, np.asarray(inserted, np.int64)])) if inserted else wide.astype(np.int64)
    return "".join(out), QtPositions(extra, len(text))


def displayed(text: str, limit: int = TEXT_LIMIT, blank_lines: bool = True) -> str:
    """The text as a pane's ``toPlainText()`` gives it back (line separators as ``"\\n"``) (str)."""
    return pane_text(text, limit, blank_lines)[0].replace("\u2028", "\n")
