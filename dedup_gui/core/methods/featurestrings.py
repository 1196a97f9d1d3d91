"""Feature strings around full stops, the Chinese web-page dedup method.

After Wu Pingbo, Chen Qunxiu and Ma Liang, "基于特征串的大规模中文网页快速去重算法研究"
(Fast duplicate detection of large-scale Chinese web pages based on feature strings), Journal of
Chinese Information Processing (中文信息学报) 17(2), 2003: a sentence-ending full stop is rare
and its surroundings are specific, so the few characters either side of each full stop make a
compact signature of a page's text.  Two pages are compared by the sets of their feature strings.

The rules used here:

* full stops are ``。`` (U+3002), ``．`` (U+FF0E) and ``｡`` (U+FF61) always, and ``.`` when no
  letter or digit follows it (so ``3.14``, ``example.com`` and ``v1.2`` are not sentence ends);
  a run of stops (``...``) counts once;
* the feature string of a stop is the ``width`` non-whitespace characters before it followed by
  the ``width`` non-whitespace characters after it, without the stop itself; near the start or
  end of the text, or next to another stop, a side may be shorter (stops are not taken as
  context);
* similarity is the Jaccard similarity of the two sets of feature strings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dedup_gui.core.gil_friendly import finditer_in_slices

#: Characters either side of a full stop (the default width L).
DEFAULT_WIDTH = 2

_STOP_RUN = re.compile(r"(?:[。．｡]|\.(?![^\W_]))+")


@dataclass(frozen=True)
class FeatureString:
    """One full stop and the feature string around it.

    Attributes:
        position: offset of the (first) stop character in the text.
        before: up to ``width`` non-whitespace characters before it.
        after: up to ``width`` non-whitespace characters after it.
    """

    position: int
    before: str
    after: str

    @property
    def text(self) -> str:
        """The feature string: ``before + after`` (str)."""
        return self.before + self.after


def _context(text: str, start: int, step: int, width: int, stops: bytearray) -> str:
    chars: list[str] = []
    i = start
    while 0 <= i < len(text) and len(chars) < width:
        if stops[i]:
            break
        if not text[i].isspace():
            chars.append(text[i])
        i += step
    return "".join(reversed(chars)) if step < 0 else "".join(chars)


def feature_strings(text: str, width: int = DEFAULT_WIDTH) -> list[FeatureString]:
    """Every full stop of a text with the characters either side of it, in text order.

    Args:
        text: a page's main text.
        width: characters taken on each side (L >= 1).

    Returns:
        list[:class:`FeatureString`]; stops with no character on either side are left out.

    Raises:
        ValueError: width is below 1.

    Example:
        >>> [f.text for f in feature_strings("今天天气很好。我们去公园散步。")]
        ['很好我们', '散步']
    """
    if width < 1:
        raise ValueError(f"width must be >= 1, got {width}")
    runs = [(m.start(), m.end()) for m in finditer_in_slices(_STOP_RUN, text)]
    stops = bytearray(len(text))  # 1 at each stop character (a set of millions of ints held the GIL 0.3 s)
    for start, end in runs:
        stops[start:end] = b"\x01" * (end - start)
    out = []
    for start, end in runs:
        before = _context(text, start - 1, -1, width, stops)
        after = _context(text, end, 1, width, stops)
        if before or after:
            out.append(FeatureString(start, before, after))
    return out


def feature_set(text: str, width: int = DEFAULT_WIDTH) -> frozenset[str]:
    """The set of feature strings of a text (frozenset[str])."""
    return frozenset(f.text for f in feature_strings(text, width))


def feature_jaccard(a: frozenset[str] | set[str], b: frozenset[str] | set[str]) -> float:
    """Jaccard similarity of two feature-string sets, in [0, 1] (0 when both are empty)."""
    union = len(a | b)
    return len(a & b) / union if union else 0.0
