"""The fast main-content extractor: Readability's algorithm on the lexbor HTML5 parser.

This is a port of readability-lxml 0.9's ``Document.summary()`` (Arc90 Readability, the
algorithm of Firefox's Reader View) to the DOM of selectolax (Python bindings of the lexbor
HTML5 parser).  readability-lxml spends most of its time in Python over lxml (serializing every
``<div>`` to test it for blocks, cleaning the whole tree with lxml_html_clean, recomputing
text); here the same steps run on a tree that lexbor builds several times faster, with each
element's text length and link density computed once per stage, the candidates' from one
gathering that reads each piece of their text once (:mod:`.lexbor_lengths`), and an element's
text read with lexbor's own textContent (``text_lexbor()``: for an element the same text as
``text()``, a fifth faster).

The steps, in readability-lxml's order and with its patterns and numbers:

1. drop ``script``/``style``/``noscript``/``template``/``link`` elements, ``hidden`` elements,
   inline ``display: none``/``visibility: hidden`` elements, the overlays of
   :func:`dedup_gui.core.extraction.page_cleanup.drop_overlays` (which the default extractor also removes
   first; not one that holds most of the page),
   and - in the first, "ruthless" pass - the unlikely candidates (class/id naming comments,
   footers, menus, sidebars... unless it also names an article, body, column, content, main);
2. score every paragraph (``p``, ``pre``, ``td``, ``blockquote``, a ``div`` without block
   children, and the loose text of a ``div`` with block children) of 25 characters or more:
   1 + the number of comma-separated parts (the commas of other scripts too, in the paragraph's
   own text: :mod:`.readability_tuning`) + one point per 100 characters (at most 3), added to
   its parent and half of it to its grandparent, which start from their tag's and class/id's
   weight; then scale every score by 1 - link density;
3. take the best candidate (a low-link ``itemprop=articleBody`` first; an ``<article>`` inside
   it; the ``<article>`` with the most list text when the best sits in a form, aside or nav; the
   ``<main>`` around it when that is much longer), join the other segments of the same article
   (same content class), a standfirst/dek and an ``<h2>`` preamble, and the siblings that score
   at least a fifth of it or read like paragraphs;
4. clean the result: headings with a negative class weight or many links, "sign up" paragraphs,
   forms, non-video iframes, and the tables, lists, divs, asides, headers, footers and sections
   that look like link lists, image galleries, forms or empty boxes;
5. if the first pass kept less than 250 characters of HTML, run again without step 1's
   unlikely-candidate rule;
6. if the article of step 3 was a piece of the page (less than 0.4 of its text outside links),
   run again from the ancestor that holds the whole article, if there is one
   (:class:`~dedup_gui.core.extraction.readability_tuning.TunedDocument` does the same with readability-lxml);
7. take the article's furniture out (short captions, credits, promos, share bars, ad labels:
   :mod:`.page_cleanup`).

The text is then laid out like :func:`dedup_gui.core.extraction.extract.element_text`: one block per
line, whitespace collapsed, ``<pre>`` lines kept.

One pass (:class:`_Readability`) is built from modules of its own: the class-name patterns and
node helpers in :mod:`.readability_nodes`, the tree and its measures (text length, link density)
in :mod:`.readability_measures`, step 3 in :mod:`.readability_article`, step 4 in
:mod:`.readability_cleanup`; steps 1, 2, 5, 6 and 7 are here.

Known differences from readability-lxml: lexbor parses as browsers do (HTML5), libxml2 does not,
so misnested markup (a link around blocks, unclosed tables) can give a different tree and so a
different pick; and an empty element that readability would keep beside long siblings is
dropped (it has no text either way).  On 517 of the 525 pages of ``../shared`` (the corpus and
the generated pages of the labelled pairs) the text equals the default extractor's (normalized
Levenshtein similarity >= 0.99), and the macro-F1 on the labelled pairs is the same.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache, partial

from selectolax.lexbor import LexborHTMLParser, LexborNode

from dedup_gui.core.extraction.dom_text import block_text
from dedup_gui.core.extraction.lexbor_lengths import Summary, gather, summarize, summary_len
from dedup_gui.core.extraction.lexbor_lengths import clean_len as _clean_len
from dedup_gui.core.extraction.page_cleanup import drop_label_lines, lexbor_drop_overlays, lexbor_furniture
from dedup_gui.core.extraction.readability_article import ArticleChoice
from dedup_gui.core.extraction.readability_cleanup import ArticleCleanup
from dedup_gui.core.extraction.readability_nodes import MIN_LEN, in_tags, names_kind, names_weight, same_node
from dedup_gui.core.extraction.readability_tuning import (
    FRAGMENT_SHARE,
    extra_commas,
    has_extra_commas,
    lexbor_not_articles,
    lexbor_own_text,
)

_DISPLAY_NONE = re.compile(
    r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)", re.I
)

_DROP_TAGS = frozenset({"script", "style", "noscript", "template", "link"})
# Dropped for their tag, or checked for hidden / display: none / a dialog role.
_DROP_FIRST = (
    "script, style, noscript, template, link, [hidden], [style*=none i], [style*=hidden i], [role=dialog i], "
    "[role=alertdialog i], [aria-modal=true i]"
)
_DIV_BLOCKS = "blockquote, dl, div, img, ol, p, pre, table, ul"  # a <div> with none of these is a paragraph
_PARAGRAPH_PASS = f"{_DIV_BLOCKS}, td, a"  # the blocks, the paragraphs to score and the links
_FRAME_TAGS = frozenset({"main", "article", "math", "pre", "code"})
_SCORED = frozenset({"p", "pre", "td", "blockquote"})  # paragraphs whatever they hold
_INLINE = frozenset("a b cite code em font i small span strong sub sup u".split())
_RETRY_LENGTH = 250  # readability-lxml's retry_length


def readability_lexbor_text(html: str, tree: LexborHTMLParser | None = None) -> str:
    """Main-content text of a page with Readability's algorithm on the lexbor parser.

    A port of readability-lxml 0.9 (Arc90 Readability) to selectolax's lexbor DOM; see the
    module docstring for the steps and the known differences.  Nothing is fetched and no script
    runs: lexbor only parses.

    Args:
        html: decoded HTML of the whole page (NUL characters are dropped).
        tree: ``html`` already parsed by ``LexborHTMLParser`` (without its NULs), for the first
            pass; it is changed in place.  ``None``: parsed here.

    Returns:
        The main text, one block (paragraph, heading, list item...) per line, whitespace
        collapsed; "" if the page has no body or no text.

    Raises:
        ValueError: the page is over selectolax's input limit (2.5 GB).
        selectolax.lexbor.SelectolaxError: lexbor could not parse the document.
        (Both are rare; :func:`dedup_gui.core.extraction.extract.main_text` turns any error into a note.)
    """
    # Other scripts' commas score only on a page that has some (as TunedDocument scores them):
    # the page is searched for them once a paragraph has some.
    commas = cache(partial(has_extra_commas, html))
    text, fragment = _passes(html, tree, False, commas)
    if fragment:  # a piece of the article: again from the whole (readability_tuning)
        text = _passes(html, None, True, commas)[0]
    return text


def lexbor_input(html: str) -> bytes:
    """The UTF-8 bytes that lexbor parses for ``html``: encoded as selectolax encodes text (lone
    surrogates dropped), without NUL characters.  (A NUL is the only character whose UTF-8 holds
    a zero byte, and a byte search finds none faster than a search of the text.)"""
    data = html.encode("utf-8", "ignore")
    return data.replace(b"\x00", b"") if b"\x00" in data else data


def _passes(html: str, tree: LexborHTMLParser | None, whole: bool, commas: Callable[[], bool]) -> tuple[str, bool]:
    """The ruthless pass, and the second one if it found too little: ``(text, whether the
    article was a piece of the page)``; ``commas()``: whether the page has other scripts' commas."""
    for ruthless in (True, False):
        parsed = tree if ruthless and tree is not None else LexborHTMLParser(lexbor_input(html))
        one = _Readability(parsed, ruthless, whole, commas)
        found = one.run()
        if found is not None:
            return found, one.fragment
    return "", False


class _Readability(ArticleChoice, ArticleCleanup):
    """One pass of the algorithm over one freshly parsed page (the tree is changed in place); the
    arguments are :class:`~.readability_measures.PassMeasures`'s."""

    # -- 1. what never counts ----------------------------------------------------------------

    def drop_unwanted(self) -> None:
        body = self.body
        assert body is not None  # run() stops first on a page without one
        doomed, overlays = [], []
        for el in body.css(_DROP_FIRST):
            tag = el.tag
            if tag in ("body", "html"):
                continue
            attrs = el.attributes
            if tag not in _DROP_TAGS and "hidden" not in attrs:
                style = attrs.get("style")
                if not (style and _DISPLAY_NONE.search(style)):
                    if (attrs.get("role") or "").lower() in ("dialog", "alertdialog") or (
                        (attrs.get("aria-modal") or "").lower() == "true"
                    ):
                        overlays.append(el)
                    continue
            doomed.append(el)
        holds_frame: set | None = None  # elements that are or hold a main, article or math
        has_code = False  # the body has a <pre> or <code> (an unlikely candidate in one stays)
        unlikely: list = []
        named, frames = [], []  # elements with a class or id; main, article, math, pre, code
        last = None
        for el in body.css("[class], [id], main, article, math, pre, code"):  # (one selector pass)
            if el.mem_id != last:  # (lexbor lists an element once per selector it matches)
                last = el.mem_id
                named.append(el)  # (a frame without class and id has no name: it is passed over)
                if el.tag in _FRAME_TAGS:
                    frames.append(el)
        for el in named:
            attrs = el.attributes  # (its "id" is el.id: one call for both)
            ident, cls = attrs.get("id"), attrs.get("class")
            names = f"{ident or ''} {cls or ''}"
            kind = names_kind(names) if len(names) > 2 else 0
            if not kind or el.tag in ("body", "html"):
                continue
            if kind == 2:
                if not self.ruthless:
                    continue
                if holds_frame is None:
                    holds_frame = set()
                    for frame in frames:
                        if frame.tag in ("pre", "code"):
                            has_code = True
                            continue
                        node: LexborNode | None = frame
                        while node is not None and node not in holds_frame:
                            holds_frame.add(node)
                            node = node.parent
                if el in holds_frame or (has_code and in_tags(el, ("pre", "code"), self_too=True)):
                    continue
            if kind == 1:
                overlays.append(el)
            else:
                unlikely.append((el, names_weight(cls, ident)))  # (its class weight: never a body's)
        # Scripts and styles first: an overlay is kept when it holds most of the page's text,
        # an unlikely candidate when it holds most of its paragraphs (readability_tuning).
        for el in doomed:
            if el.tag in _DROP_TAGS:
                el.decompose(recursive=False)  # unlinks the element; its subtree stays valid
        size = lexbor_drop_overlays(overlays, body)  # (the body's size after, if it was measured)
        doomed.extend(lexbor_not_articles(unlikely, body, {} if size is None else {"size": size}))
        for el in doomed:
            if el.tag not in _DROP_TAGS:
                el.decompose(recursive=False)

    # -- 2. scores ---------------------------------------------------------------------------

    def paragraphs(self) -> list[tuple]:
        """``(text, parent, element, whole)`` of every paragraph readability scores (``element``
        for the tags that may hold other paragraphs, else ``None``; ``whole``: the element whose
        whole text ``text`` is, ``None`` for loose text)."""
        body = self.body
        assert body is not None  # run() stops first on a page without one
        has_block: set[int] = set()  # mem_id of the elements that hold a block
        scored, divs = [], []
        self.anchors = []
        for el in body.css(_PARAGRAPH_PASS):  # (one selector pass for the four lists)
            tag = el.tag
            if tag == "a":
                self.anchors.append(el)
                continue
            if tag in _SCORED:
                scored.append(el)
            elif tag == "div":
                divs.append(el)
            if tag != "td":
                p = el.parent
                while p is not None:
                    key = p.mem_id
                    if key in has_block:
                        break
                    has_block.add(key)
                    p = p.parent
        out: list[tuple[str, LexborNode | None, LexborNode | None, LexborNode | None]] = [
            (el.text_lexbor(), el.parent, el, el) for el in scored
        ]
        for div in divs:
            if div.mem_id not in has_block:
                self.as_paragraph.add(div)
                out.append((div.text_lexbor(), div.parent, None, div))
                continue
            # Loose text and inline elements between the blocks: each run becomes a <p>.
            runs = 0
            run: list[str] = []
            child = div.first_child
            while child is not None:
                tag = child.tag
                if tag == "-text":
                    run.append(child.text_content or "")
                elif tag in _INLINE and child.mem_id not in has_block:
                    run.append(child.text_lexbor())
                elif tag != "-comment" and run:
                    text = "".join(run)
                    if text.strip():
                        out.append((text, div, None, None))
                        runs += 1
                    run = []
                child = child.next
            text = "".join(run)
            if text.strip():
                out.append((text, div, None, None))
                runs += 1
            if runs:
                self.loose_runs[div] = runs
        return out

    def score(self, paragraphs) -> dict:
        candidates: dict = {}
        known: dict[int, Summary] = {}  # the paragraphs' texts, for gathering the candidates' lengths
        for text, parent, el, whole in paragraphs:
            if whole is None:
                length = _clean_len(text)
            else:
                summary = known[whole.mem_id] = summarize(text)
                length = summary_len(summary)
            if parent is None or length < MIN_LEN:
                continue
            grandparent = parent.parent
            for node in (parent, grandparent):
                if node is not None and node not in candidates:
                    candidates[node] = self.node_score(node)
            commas = text.count(",")
            # readability_tuning: other scripts' commas, in the paragraph's own text only
            if has_extra_commas(text) and self.other_commas():
                commas += extra_commas(text if el is None else lexbor_own_text(el))
            points = 1 + (commas + 1) + min(length / 100, 3)
            candidates[parent] += points
            if grandparent is not None:
                candidates[grandparent] += points / 2
        # Each candidate's text and links measured at once, each piece of text read once.
        gathered = gather(candidates, self.body, known, self.anchors)
        self._gathered, self._links = gathered.lengths, gathered.links
        self._text_len.update(gathered.link_lengths)
        for node in candidates:
            candidates[node] *= 1 - self.link_density(node)
        return candidates

    # -- text ----------------------------------------------------------------------------------

    def text(self, nodes: list) -> str:
        """The nodes' text laid out like extract.element_text (each node followed by its tail)."""
        return block_text(nodes, self.videos)

    # -- the pass ------------------------------------------------------------------------------

    def run(self) -> str | None:
        """The main text, or ``None`` when the ruthless pass found too little (run again)."""
        if self.body is None:
            return ""
        self.drop_unwanted()
        candidates = self.score(self.paragraphs())
        best = self.best(candidates)
        if best is None:
            if self.ruthless:
                return None
            nodes = [self.body]
        else:
            nodes = self.article(candidates, best)
            # (only the best block may have changed since it was measured: segments may have joined it)
            length = self.length_now(best)
            have = sum(self.readable(n) for n in nodes if not same_node(n, best)) + length * (
                1 - self.link_density(best, fresh=True, total=length)
            )
            # (the body's text length bounds its readable text: its links are measured only if needed)
            self.fragment = (
                not self.whole
                and have < FRAGMENT_SHARE * self.text_length(self.body)
                and have < FRAGMENT_SHARE * self.readable(self.body)
            )
        self.sanitize(nodes, candidates)
        nodes = [n for n in nodes if n.parent is not None or same_node(n, self.body)]
        furniture = lexbor_furniture(nodes)  # captions, credits, promos (page_cleanup)
        text = block_text(nodes, self.videos, {el.mem_id for el in furniture})  # the text without them
        # readability retries when the article's HTML is under 250 characters; its text is
        # shorter than its HTML, so only a short text needs the HTML measured.  (The text with
        # the furniture is never shorter than without: only a short one needs it read too.)
        if self.ruthless and len(text) < _RETRY_LENGTH:
            with_furniture = self.text(nodes) if furniture else text
            if len(with_furniture) < _RETRY_LENGTH and sum(len(n.html or "") for n in nodes) < _RETRY_LENGTH:
                return None
        for el in furniture:
            el.decompose(recursive=False)
        return drop_label_lines(text)
