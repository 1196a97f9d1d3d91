"""Readability's text lengths of a lexbor tree's candidate blocks, each piece of text read once.

Readability (readability-lxml's ``score_paragraphs``, ported in :mod:`.readability_lexbor`)
scales each candidate block's score by its link density: the length of its links' text over the
length of its text, both measured as ``len(clean(text))`` (whitespace runs collapsed to one
space, ends stripped).  The candidates nest - a paragraph's parent and grandparent are both
candidates, and so are the grandparent's parent and its parent when they hold paragraphs of
their own - so measuring each candidate's text (``node.text()``, then splitting it into words)
reads the same text three times on an average page, and finding each candidate's links
(``node.css("a")``) walks the same subtrees again.

Here each piece of text is read once, in one gathering over the candidates:

- the clean length of a concatenation follows from a :func:`summarize` of each part (its
  characters other than whitespace, its words, and whether it starts and ends with such a
  character: :func:`concat`), so each candidate's length is composed from its children's, the
  texts of the paragraphs already read for scoring being reused;
- the links are found with one selector pass over the body, each link's length added to the
  nearest candidate around it, and each candidate's link length is the sum over its subtree.

The lengths are exactly those that measuring each candidate would give (the summaries compose
exactly); :class:`Gathered` says which elements they cover.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

#: ``(characters other than whitespace, words, starts with one, ends with one, not empty)``
Summary = tuple[int, int, bool, bool, bool]
#: The summary of ``""``.
EMPTY: Summary = (0, 0, False, False, False)
_SPACE: Summary = (0, 0, False, False, True)  # the summary of whitespace


def clean_len(text: str) -> int:
    """Length of ``text`` with whitespace runs collapsed and ends stripped: readability's
    ``len(clean(text))``, except that readability leaves runs of no-break spaces alone.  (The
    words' lengths and the spaces between them: the joined string is never built.)

    Args:
        text: any text.

    Returns:
        The length (int, characters).
    """
    words = text.split()
    return sum(map(len, words)) + len(words) - 1 if words else 0


def summarize(text: str) -> Summary:
    """What :func:`concat` needs to know of ``text`` (see :data:`Summary`); whitespace is what
    ``str.split`` splits at.

    Example:
        >>> summarize(" two words"), summarize("  ")
        ((8, 2, False, True, True), (0, 0, False, False, True))
    """
    words = text.split()
    if not words:
        return (0, 0, False, False, True) if text else EMPTY
    return sum(map(len, words)), len(words), not text[0].isspace(), not text[-1].isspace(), True


def concat(a: Summary, b: Summary) -> Summary:
    """The summary of the concatenation of two texts from theirs: the last word of ``a`` and the
    first of ``b`` are one word when nothing separates them.

    Example:
        >>> concat(summarize("one tw"), summarize("o three")) == summarize("one two three")
        True
    """
    if not b[4]:
        return a
    if not a[4]:
        return b
    return a[0] + b[0], a[1] + b[1] - (a[3] and b[2]), a[2], b[3], True


def summary_len(summary: Summary) -> int:
    """:func:`clean_len` of the text that ``summary`` summarizes."""
    chars, words = summary[0], summary[1]
    return chars + words - 1 if words else 0


@dataclass
class Gathered:
    """What :func:`gather` measured.

    Attributes:
        lengths: ``mem_id`` -> :func:`clean_len` of the text, for each candidate, the body, and
            each element between a candidate and the body (its ancestors up to the body).
        links: ``mem_id`` -> the sum of :func:`clean_len` of the text of each ``<a>`` element in
            its subtree (itself too, as lexbor's ``css("a")`` finds them), for each element of
            ``lengths`` in the body (the body too) that is, or is inside, a candidate whose text
            is not empty.
        link_lengths: ``mem_id`` -> :func:`clean_len` of the text of each ``<a>`` element inside
            such a candidate: the links that measuring those candidates' link densities would
            measure.
    """

    lengths: dict[int, int] = field(default_factory=dict)
    links: dict[int, int] = field(default_factory=dict)
    link_lengths: dict[int, int] = field(default_factory=dict)


def gather(candidates: Collection, body, known: dict[int, Summary], links: list | None = None) -> Gathered:
    """Text lengths and link lengths of the candidate blocks of one lexbor tree, composed from
    their parts (the module docstring).

    Args:
        candidates: the candidate elements (selectolax ``LexborNode``), inside the body or its
            ancestors.
        body: the tree's body element (or the root element when there is none).
        known: ``mem_id`` -> :func:`summarize` of the whole text of elements already read (the
            scored paragraphs), reused instead of reading them again.
        links: the body's ``<a>`` elements as ``body.css("a")`` finds them now, if already
            found (``None``: found here).

    Returns:
        :class:`Gathered`, for the tree as it is (measures of a tree changed afterwards are not
        those of the changed tree).
    """
    body_id = body.mem_id
    wanted = {node.mem_id for node in candidates}
    # The candidates, the body, and the elements between: each one's parent is in the set too,
    # but for the body and the topmost elements above it.
    nodes: dict[int, object] = {}
    parent_of: dict[int, int] = {}
    for start in (*candidates, body):
        node = start
        while node is not None:
            key = node.mem_id
            if key in nodes:
                break
            nodes[key] = node
            up = node.parent
            if up is not None:
                parent_of[key] = up.mem_id
            if key == body_id:
                break
            node = up
    tops = [node for key, node in nodes.items() if parent_of.get(key) not in nodes]
    out = Gathered()
    order = _compose(tops, nodes, known, out.lengths)
    _add_links(body.css("a") if links is None else links, order, nodes, parent_of, body.mem_id, wanted, out)
    return out


def _compose(tops: list, nodes: dict, known: dict[int, Summary], lengths: dict[int, int]) -> list[int]:
    """Fill ``lengths`` for every element of ``nodes`` by one walk down from ``tops``, reading
    the text of each child outside ``nodes`` once (``known`` summaries reused); returns the
    elements of ``nodes`` in pre-order."""
    order: list[int] = []
    for top in tops:
        top_id = top.mem_id
        order.append(top_id)
        # [node's mem_id, next child to read, summary so far]
        stack: list[list] = [[top_id, top.first_child, EMPTY]]
        while stack:
            frame = stack[-1]
            child = frame[1]
            if child is None:
                stack.pop()
                lengths[frame[0]] = summary_len(frame[2])
                if stack:
                    stack[-1][2] = concat(stack[-1][2], frame[2])
                continue
            frame[1] = child.next
            tag = child.tag
            if tag == "-text":
                text = child.text_content
                if not text:
                    continue
                part = _SPACE if text.isspace() else summarize(text)  # (the spaces between elements)
            elif tag is None or tag[0] == "-":  # comments, doctypes: no text
                continue
            else:
                key = child.mem_id
                if key in nodes:
                    order.append(key)
                    stack.append([key, child.first_child, EMPTY])
                    continue
                part = known.get(key) or summarize(child.text_lexbor())
            frame[2] = concat(frame[2], part)
    return order


def _add_links(anchors: list, order: list[int], nodes: dict, parent_of: dict[int, int], body_id: int,
               wanted: set[int], out: Gathered) -> None:  # fmt: skip
    """Fill ``out.links`` and ``out.link_lengths`` (:class:`Gathered`) from the body's ``<a>``
    elements (``anchors``); ``order``: the elements of ``nodes`` in pre-order."""
    lengths = out.lengths
    # Inside a candidate with text: the links that measuring the candidates' densities reads.
    inside: dict[int, bool] = {}
    for key in order:
        inside[key] = (key in wanted and lengths[key] > 0) or inside.get(parent_of.get(key, -1), False)
    under_body: set[int] = set()  # the elements of nodes in the body (itself too)
    for key in order:
        if key == body_id or parent_of.get(key) in under_body:
            under_body.add(key)
    if not any(inside[key] for key in under_body):
        return
    direct = dict.fromkeys(under_body, 0)  # each one's links whose nearest element of nodes it is
    link_lengths = out.link_lengths
    for a in anchors:
        node = a
        while node.mem_id not in nodes:
            node = node.parent
        key = node.mem_id
        if inside[key]:
            n = link_lengths[a.mem_id] = clean_len(a.text_lexbor())
            direct[key] += n
    links = out.links
    for key in reversed(order):  # children before their parents
        if key in under_body and inside[key]:
            total = links[key] = links.get(key, 0) + direct[key]
            up = parent_of.get(key, -1)
            if up in under_body and inside[up]:
                links[up] = links.get(up, 0) + total
