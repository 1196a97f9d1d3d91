"""What Readability reads off one element, and the lexbor node helpers its passes share.

The class/id patterns and numbers are readability-lxml 0.9's (``readability/readability.py``,
after Arc90 Readability, the algorithm of Firefox's Reader View), matched on lower-cased names:
an element's names say whether it is an unlikely candidate (:func:`names_kind`) and weigh its
score (:func:`names_weight`, :func:`class_weight`).  The helpers walk and move selectolax's
lexbor nodes as readability-lxml walks and moves lxml's elements (an element's text that
follows it moves with it, as an lxml tail does).  Used by the fast extractor
(:mod:`.readability_lexbor`) and the steps it is built from (:mod:`.readability_measures`,
:mod:`.readability_article`, :mod:`.readability_cleanup`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from dedup_gui.core.extraction.page_cleanup import _OVERLAY_HINT, is_overlay_name
from dedup_gui.core.text.word_patterns import words_pattern


def _words(alternation: str) -> re.Pattern:
    """An alternation of literal words compiled as a prefix tree (searched faster: word_patterns)."""
    return re.compile(words_pattern(alternation.split("|")))


# readability-lxml 0.9's patterns (readability/readability.py), matched on lower-cased names.
_UNLIKELY_WORDS = (
    "combx|comment|community|disqus|extra|foot|header|menu|remark|rss|shoutbox|sidebar|sponsor|"
    "ad-break|agegate|pagination|pager|popup|tweet|twitter"
)
_UNLIKELY = _words(_UNLIKELY_WORDS)
_MAYBE_CANDIDATE = _words("and|article|body|column|content|main|shadow")
# Every name that is an overlay's or an unlikely candidate's holds one of these (lower case).
_NAMES_HINT = _words(f"{_UNLIKELY_WORDS}|{_OVERLAY_HINT.pattern}")
POSITIVE = _words("article|body|content|entry|hentry|main|page|pagination|post|text|blog|story")
_NEGATIVE = _words(
    "combx|comment|com-|contact|foot|footer|footnote|masthead|media|meta|outbrain|promo|related|"
    "scroll|shoutbox|sidebar|sponsor|shopping|tags|tool|widget"
)

NOT_ELEMENTS = ("-text", "-comment")  # lexbor's tags of the nodes that are not elements
MIN_LEN = 25  # readability-lxml's min_text_length


@lru_cache(maxsize=1 << 16)
def names_kind(names: str) -> int:
    """What an element's "id class" string says: 0 nothing, 1 an overlay
    (:func:`~dedup_gui.core.extraction.page_cleanup.is_overlay_name`), 2 an unlikely candidate
    (readability-lxml's ``unlikelyCandidatesRe`` and not its ``okMaybeItsACandidateRe``)."""
    lowered = names.lower()
    if _NAMES_HINT.search(lowered) is None:  # (most names: one search answers)
        return 0
    if is_overlay_name(names):
        return 1
    if _UNLIKELY.search(lowered) and not _MAYBE_CANDIDATE.search(lowered):
        return 2
    return 0


@lru_cache(maxsize=1 << 16)
def names_weight(cls: str | None, ident: str | None) -> int:
    """readability's class weight: -25 for a negative and +25 for a positive class, and the same
    again for the id (readability-lxml's ``class_weight``; ``None``: no such attribute)."""
    weight = 0
    for feature in (cls, ident):
        if feature:
            feature = feature.lower()
            if _NEGATIVE.search(feature):
                weight -= 25
            if POSITIVE.search(feature):
                weight += 25
    return weight


def class_weight(node) -> int:
    """readability's class weight of a lexbor element (:func:`names_weight` of its class and id;
    -50 to +50)."""
    # readability gives <body> the id "readabilityBody" before scoring ("body" is a positive word)
    attrs = node.attributes
    return names_weight(attrs.get("class"), "readabilityBody" if node.tag == "body" else attrs.get("id"))


def class_names(node) -> set[str]:
    """The class names of a lexbor element (an empty set if it has none)."""
    return set((node.attributes.get("class") or "").split())


def same_node(a, b) -> bool:
    """Whether two selectolax nodes are one node.  (``==`` compares serialized HTML, so two
    identical paragraphs would be "equal" and each test costs two serializations.)"""
    return a is not None and b is not None and a.mem_id == b.mem_id


def ancestors(node) -> list:
    """The ancestors of a lexbor node, its parent first (the document node last)."""
    out = []
    p = node.parent
    while p is not None:
        out.append(p)
        p = p.parent
    return out


def in_tags(node, tags, self_too: bool = False) -> bool:
    """Whether ``node`` (if ``self_too``) or one of its ancestors has one of ``tags``."""
    p = node if self_too else node.parent
    while p is not None:
        if p.tag in tags:
            return True
        p = p.parent
    return False


def previous_element(node):
    """The element before ``node`` among its siblings (text and comments skipped), or ``None``."""
    prev = node.prev
    while prev is not None and prev.tag in NOT_ELEMENTS:
        prev = prev.prev
    return prev


def move_with_tail(node, into, first: bool = False) -> None:
    """Move ``node`` into ``into`` as its first or last child, with the text that follows it (as
    lxml moves an element with its tail)."""
    moving = [node]
    nxt = node.next
    while nxt is not None and nxt.tag == "-text":
        moving.append(nxt)
        nxt = nxt.next
    anchor = None
    if first:  # before the first element child, after any leading text (lxml's insert(0, ...))
        anchor = into.first_child
        while anchor is not None and anchor.tag == "-text":
            anchor = anchor.next
    for n in moving:
        if anchor is not None:
            anchor.insert_before(n, move=True)
        else:
            into.insert_child(n, move=True)
