"""One pass of the fast extractor over one page: its tree, its state and its measures.

:class:`PassMeasures` holds what a pass of Readability (readability-lxml 0.9's
``Document.summary()``, after Arc90 Readability, ported to lexbor in :mod:`.readability_lexbor`)
knows about its tree: the flags of the pass, the ``<div>``s that readability would turn into
paragraphs, and each element's text length and link density (readability-lxml's
``text_length`` and ``get_link_density``), measured once per stage and kept, the candidates'
taken from the gathering of :mod:`.lexbor_lengths`.  The steps of the pass build on it:
choosing the article (:mod:`.readability_article`) and cleaning it (:mod:`.readability_cleanup`).
"""

from __future__ import annotations

from collections.abc import Callable

from selectolax.lexbor import LexborHTMLParser

from dedup_gui.core.extraction.lexbor_lengths import clean_len as _clean_len
from dedup_gui.core.extraction.readability_nodes import class_weight, move_with_tail

_TAG_SCORE = {"div": 5, "article": 5, "pre": 3, "td": 3, "blockquote": 3}
_TAG_SCORE.update(dict.fromkeys("address ol ul dl dd dt li form aside".split(), -3))
_TAG_SCORE.update(dict.fromkeys("h1 h2 h3 h4 h5 h6 th header footer nav".split(), -5))


class PassMeasures:
    """The tree of one pass of the algorithm over one page (changed in place), and its measures.

    Args:
        tree: the page freshly parsed by ``LexborHTMLParser`` (a pass changes it).
        ruthless: whether the pass drops the unlikely candidates (readability's first pass).
        whole: whether the article starts from the ancestor that holds all of it
            (:func:`~dedup_gui.core.extraction.readability_tuning.whole_article`).
        commas: whether the page has commas of other scripts (asked only when needed:
            :mod:`.readability_tuning`).
    """

    def __init__(
        self,
        tree: LexborHTMLParser,
        ruthless: bool,
        whole: bool = False,
        commas: Callable[[], bool] = lambda: True,
    ):
        self.tree = tree
        self.other_commas = commas  # whether the page has commas of other scripts (readability_tuning)
        self.whole = whole  # start from the whole article (readability_tuning.whole_article)
        self.fragment = False  # the article built was a piece of the page
        # readability falls back to the whole document when there is no <body> (a frameset)
        self.body = self.tree.body or self.tree.root
        self.ruthless = ruthless
        self._text_len: dict[int, int] = {}  # mem_id -> text length (the first measure)
        self._link_density: dict[int, float] = {}  # mem_id -> link density (the first measure)
        # Lengths and link lengths gathered while scoring (lexbor_lengths), true until the tree changes.
        self._gathered: dict[int, int] = {}
        self._links: dict[int, int] = {}
        self.changed = False  # the tree has changed since it was scored (moves, removals)
        self.as_paragraph: set = set()  # <div>s without blocks, which readability turns into <p>
        self.loose_runs: dict = {}  # <div> -> how many runs of loose text readability wraps in <p>
        self.videos: set = set()  # video iframes, which readability keeps with the text "VIDEO"
        self.anchors: list = []  # the body's <a> elements when its paragraphs are found

    # -- measures ----------------------------------------------------------------------------

    def text_length(self, node) -> int:
        """The node's text length (characters, whitespace runs collapsed, ends stripped: ``clean_len``),
        the first measure kept: the length the scoring gathered, or the node's text as it is now."""
        key = node.mem_id  # (int keys: a node key costs a call of LexborNode.__eq__ per lookup)
        n = self._text_len.get(key)
        if n is None:
            n = None if self.changed else self._gathered.get(key)
            self._text_len[key] = n = _clean_len(node.text_lexbor()) if n is None else n
        return n

    def length_now(self, node) -> int:
        """The node's text length in the tree as it is now (nothing kept)."""
        if not self.changed:
            n = self._text_len.get(node.mem_id)
            if n is None:
                n = self._gathered.get(node.mem_id)
            if n is not None:
                return n
        return _clean_len(node.text_lexbor())

    def link_density(self, node, fresh: bool = False, total: int | None = None, links: list | None = None) -> float:
        """Share of the node's text inside links; ``fresh`` measures the tree as it is now
        (cleaning removes elements), otherwise the first measure is kept; ``total``: the node's
        text length now, if known (with ``fresh``); ``links``: its ``<a>`` elements now, if known."""
        density = None if fresh else self._link_density.get(node.mem_id)
        if density is None:
            if total is None:
                total = self.length_now(node) if fresh else self.text_length(node)
            if total:
                # (the gathered link lengths: their links' lengths are all kept already)
                known = None if self.changed else self._links.get(node.mem_id)
                if known is None:
                    lengths, known = self._text_len, 0
                    for a in node.css("a") if links is None else links:
                        key = a.mem_id
                        n = lengths.get(key)
                        if n is None:
                            n = lengths[key] = _clean_len(a.text_lexbor())
                        known += n
                density = known / total
            else:
                density = 0.0
            if not fresh:
                self._link_density[node.mem_id] = density
        return density

    def tag(self, node) -> str:
        """The node's tag as readability sees it: ``"p"`` for a ``<div>`` without blocks."""
        return "p" if node in self.as_paragraph else node.tag

    def move(self, node, into, first: bool = False) -> None:
        """:func:`~dedup_gui.core.extraction.readability_nodes.move_with_tail`, noting that the tree
        has changed."""
        self.changed = True
        move_with_tail(node, into, first)

    def node_score(self, node) -> float:
        """A candidate's starting score: its class weight and its tag's (readability-lxml's
        ``score_node``: +5 a div, -5 a heading...)."""
        return class_weight(node) + _TAG_SCORE.get(self.tag(node), 0)

    def readable(self, node) -> float:
        """Text length outside links (the first measure)."""
        return self.text_length(node) * (1 - self.link_density(node))
