"""A page's template: its DOM outside the main-content subtree.

The layout measure of DESIGN.md is the Levenshtein similarity of tag sequences (Di Lucca, Di Penta
and Fasolino, COMPSAC 2002), taken over the page's *template*: the element sequence with the
main-content block collapsed to one placeholder element (:data:`CONTENT_TAG`).  The article's
own markup and length then no longer count as layout: two pages of one template have the same
layout whatever their lengths, and the bare article differs from the same article inside its
site.  (On the real documentation site in ``shared/realsite``, two skeletons of one theme share
86-99 % of their tags, two of different themes 55-65 %; with the article left in, 64-75 %.)

Which subtree is the main content: the element whose subtree best covers the extracted main
text, that is, maximizes (tokens of main-text blocks - tokens of other blocks) inside it.  A
block (an element's own text and its children's tails) counts as main text when at least half
of its word 3-grams occur in the main text.  This works with any extractor and either parser:
the tree is given as a pre-order list of parent indices and own texts
(:func:`dedup_gui.core.extraction.dom_text.lxml_facts`, :func:`lexbor_outline`), the order of the scan's tag
sequence.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence, Set

from dedup_gui.core.gil_friendly import set_in_slices
from dedup_gui.core.text.tokens import tokenize

#: The element that stands for the main-content subtree in a template tag sequence.
CONTENT_TAG = "#content"
#: Elements whose text is never shown (their text is neither content nor template).
_HIDDEN = frozenset({"script", "style", "noscript", "template", "head", "title", "meta", "link", "annotation"})
#: A block counts as main text when at least this share of its word 3-grams is in the main text.
MATCH_SHARE = 0.5


#: At most this many of a block's word 3-grams are looked up (evenly spaced): enough to tell
#: main text from other text, and a long paragraph costs no more than a short one.
SAMPLE_GRAMS = 24


def _grams(tokens: list[str], most: int = 0) -> list[int]:
    if len(tokens) < 3:
        return [hash(tuple(tokens))] if tokens else []
    starts: Sequence[int] = range(len(tokens) - 2)
    if most and len(starts) > most:
        step = len(starts) / most
        starts = [int(k * step) for k in range(most)]
    return [hash((tokens[i], tokens[i + 1], tokens[i + 2])) for i in starts]


def content_span(parents: Sequence[int], texts: Sequence[str], main_text: str) -> tuple[int, int] | None:
    """The main-content subtree as a range of a page's pre-order element list.

    Args:
        parents: for each element in document (pre-)order, the index of its parent element
            (-1 for the root); the tree's elements in the order of the page's tag sequence.
        texts: each element's own text: its text and the tails of its children (str; ``""`` for
            elements whose text is not shown).
        main_text: the extracted main-content text.

    Returns:
        ``(start, end)``: the subtree of element ``start`` is elements ``start`` to ``end - 1``;
        ``None`` when no element holds main text (no text, or a main text found nowhere).
    """
    n = len(parents)
    if n == 0 or not main_text.strip():
        return None
    known = set_in_slices(_grams(tokenize(main_text)))  # other threads get the GIL meanwhile
    score = [0] * n  # Python lists: per-item numpy indexing cost more than the sums themselves
    for i, text in enumerate(texts):
        if not text or text.isspace():
            continue
        tokens = tokenize(text)
        if not tokens:
            continue
        grams = _grams(tokens, SAMPLE_GRAMS)
        hits = sum(1 for g in grams if g in known)
        score[i] = len(tokens) if hits >= MATCH_SHARE * len(grams) else -len(tokens)
    total = score[:]
    size = [1] * n
    for i in range(n - 1, 0, -1):  # children come after their parent in pre-order
        p = parents[i]
        if p >= 0:
            total[p] += total[i]
            size[p] += size[i]
    best_score = max(total)
    if best_score <= 0:
        return None
    best = n - 1 - total[::-1].index(best_score)  # the deepest of equally good subtrees
    return best, best + size[best]


def template_tags(tags: Sequence[str], span: tuple[int, int] | None) -> tuple[str, ...]:
    """A tag sequence with the main-content subtree collapsed to :data:`CONTENT_TAG`.

    Args:
        tags: the page's element names in document order.
        span: the main-content range (:func:`content_span`), or ``None`` (the whole page is
            then its own template: nothing is known to be content).

    Returns:
        The template's tag sequence (tuple[str, ...]).
    """
    if span is None:
        return tuple(tags)
    start, end = span
    return (*tags[:start], CONTENT_TAG, *tags[end:])


def lexbor_outline(root, threads: Set[int] = frozenset()) -> tuple[tuple[str, ...], list[int], list[str]]:
    """Element names, parent indices and own texts of a lexbor (selectolax) tree's elements, in
    document order, from one walk of the tree.

    Lexbor builds the tree as browsers do, so it has the ``<tbody>`` a browser inserts, which
    libxml2 does not.  The elements of comment threads are left out, as
    :func:`~dedup_gui.core.extraction.dom_text.lxml_facts` leaves them out of lxml's tree.

    Args:
        root: the tree's root node (``LexborHTMLParser.root``), not yet changed by extraction.
        threads: the ``mem_id`` of each comment thread
            (:func:`~dedup_gui.core.extraction.comment_threads.lexbor_threads`).

    Returns:
        ``(tags, parents, texts)``: the element names (lower case, interned: the page's tag
        sequence), each element's parent index (-1 for the root) and own text (``""`` for
        elements whose text is not shown), for :func:`content_span`.
    """
    tags: list[str] = []
    parents: list[int] = []
    texts: list[list[str]] = []
    hidden: list[bool] = []
    if root is None:
        return (), parents, []
    index: dict[int, int] = {}
    dropped: set[int] = set()  # mem_id of each element inside a comment thread
    intern = sys.intern
    for node in root.traverse(include_text=True):
        tag = node.tag
        if tag == "-text":
            owner = index.get(node.parent.mem_id) if node.parent is not None else None
            if owner is not None and not hidden[owner]:
                texts[owner].append(node.text_content or "")
            continue
        if tag[0] in "-!":
            continue
        up = node.parent
        mem_id = node.mem_id
        if threads and (mem_id in threads or (up is not None and up.mem_id in dropped)):
            dropped.add(mem_id)
            continue
        index[mem_id] = len(parents)
        parents.append(index.get(up.mem_id, -1) if up is not None else -1)
        texts.append([])
        tag = intern(tag.lower())
        tags.append(tag)
        hidden.append(tag in _HIDDEN)
    return tuple(tags), parents, [" ".join(t) for t in texts]
