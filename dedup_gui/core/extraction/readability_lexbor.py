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
from functools import cache, lru_cache, partial

from selectolax.lexbor import LexborHTMLParser, LexborNode

from dedup_gui.core.extraction.dom_text import block_text
from dedup_gui.core.extraction.lexbor_lengths import Summary, gather, summarize, summary_len
from dedup_gui.core.extraction.lexbor_lengths import clean_len as _clean_len
from dedup_gui.core.extraction.page_cleanup import (
    _OVERLAY_HINT,
    drop_label_lines,
    is_overlay_name,
    lexbor_drop_overlays,
    lexbor_furniture,
)
from dedup_gui.core.extraction.readability_tuning import (
    FRAGMENT_SHARE,
    LEAD_LEVELS,
    LEAD_NOT_IN,
    extra_commas,
    has_extra_commas,
    is_lead_paragraph,
    lexbor_not_articles,
    lexbor_own_text,
    lexbor_sentence_lists,
    whole_article,
)
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
_POSITIVE = _words("article|body|content|entry|hentry|main|page|pagination|post|text|blog|story")
_NEGATIVE = _words(
    "combx|comment|com-|contact|foot|footer|footnote|masthead|media|meta|outbrain|promo|related|"
    "scroll|shoutbox|sidebar|sponsor|shopping|tags|tool|widget"
)
_EDITORIAL_LEAD = re.compile(r"(?:^|[\s_-])(?:subhead|story[\s_-]*lead|standfirst|dek|subtitle)(?:$|[\s_-])")
_DISPLAY_NONE = re.compile(
    r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)", re.I
)
_CALL_TO_ACTION = re.compile(r"^\s*(?:sign up|subscribe|download|get the latest)\b", re.I)
_SENTENCE_END = re.compile(r"\.( |$)")
_URL_HOST = re.compile(r"https?://([^/:?#]+)", re.I)

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
_TAG_SCORE = {"div": 5, "article": 5, "pre": 3, "td": 3, "blockquote": 3}
_TAG_SCORE.update(dict.fromkeys("address ol ul dl dd dt li form aside".split(), -3))
_TAG_SCORE.update(dict.fromkeys("h1 h2 h3 h4 h5 h6 th header footer nav".split(), -5))
_FRAMES = ("form", "aside", "nav")
_NOT_ELEMENTS = ("-text", "-comment")
_ABOVE_ARTICLE = frozenset({"body", "html", "-document"})  # never the whole article
_VIDEO_HOSTS = frozenset({"youtube.com", "www.youtube.com", "vimeo.com", "www.vimeo.com"})
_MIN_LEN = 25  # readability-lxml's min_text_length
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
        one = _Readability(html, ruthless, tree if ruthless else None, whole, commas)
        found = one.run()
        if found is not None:
            return found, one.fragment
    return "", False


@lru_cache(maxsize=1 << 16)
def _names_kind(names: str) -> int:
    """What an element's "id class" string says: 0 nothing, 1 an overlay, 2 an unlikely candidate."""
    lowered = names.lower()
    if _NAMES_HINT.search(lowered) is None:  # (most names: one search answers)
        return 0
    if is_overlay_name(names):
        return 1
    if _UNLIKELY.search(lowered) and not _MAYBE_CANDIDATE.search(lowered):
        return 2
    return 0


@lru_cache(maxsize=1 << 16)
def _weight(cls: str | None, ident: str | None) -> int:
    """readability's class weight: -25 for a negative and +25 for a positive class, and the same
    again for the id."""
    weight = 0
    for feature in (cls, ident):
        if feature:
            feature = feature.lower()
            if _NEGATIVE.search(feature):
                weight -= 25
            if _POSITIVE.search(feature):
                weight += 25
    return weight


def _class_weight(node) -> int:
    # readability gives <body> the id "readabilityBody" before scoring ("body" is a positive word)
    attrs = node.attributes
    return _weight(attrs.get("class"), "readabilityBody" if node.tag == "body" else attrs.get("id"))


def _classes(node) -> set[str]:
    return set((node.attributes.get("class") or "").split())


def _same(a, b) -> bool:
    """Whether two selectolax nodes are one node.  (``==`` compares serialized HTML, so two
    identical paragraphs would be "equal" and each test costs two serializations.)"""
    return a is not None and b is not None and a.mem_id == b.mem_id


def _ancestors(node) -> list:
    out = []
    p = node.parent
    while p is not None:
        out.append(p)
        p = p.parent
    return out


def _in_tags(node, tags, self_too: bool = False) -> bool:
    """Whether ``node`` (if ``self_too``) or one of its ancestors has one of ``tags``."""
    p = node if self_too else node.parent
    while p is not None:
        if p.tag in tags:
            return True
        p = p.parent
    return False


def _previous_element(node):
    prev = node.prev
    while prev is not None and prev.tag in _NOT_ELEMENTS:
        prev = prev.prev
    return prev


def _move(node, into, first: bool = False) -> None:
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


class _Readability:
    """One pass of the algorithm over one freshly parsed page (the tree is changed in place)."""

    def __init__(
        self,
        html: str,
        ruthless: bool,
        tree: LexborHTMLParser | None = None,
        whole: bool = False,
        commas: Callable[[], bool] = lambda: True,
    ):
        self.tree = tree if tree is not None else LexborHTMLParser(lexbor_input(html))
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
        return "p" if node in self.as_paragraph else node.tag

    def move(self, node, into, first: bool = False) -> None:
        """:func:`_move`, noting that the tree has changed."""
        self.changed = True
        _move(node, into, first)

    def node_score(self, node) -> float:
        return _class_weight(node) + _TAG_SCORE.get(self.tag(node), 0)

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
            kind = _names_kind(names) if len(names) > 2 else 0
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
                if el in holds_frame or (has_code and _in_tags(el, ("pre", "code"), self_too=True)):
                    continue
            if kind == 1:
                overlays.append(el)
            else:
                unlikely.append((el, _weight(cls, ident)))  # (its class weight: never a body's)
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
            if parent is None or length < _MIN_LEN:
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

    # -- 3. the article ------------------------------------------------------------------------

    def best(self, candidates: dict):
        if not candidates:
            return None
        ranked = sorted(candidates, key=candidates.__getitem__, reverse=True)
        best = ranked[0]
        for node in ranked:
            if "articleBody" in (node.attributes.get("itemprop") or "").split() and self.link_density(node) <= 0.1:
                best = node
                break
        nested = set(best.css("article"))
        if nested:
            for node in ranked:
                if (
                    node in nested
                    and not _same(node, best)
                    and self.text_length(node) >= 250
                    and candidates[node] >= candidates[best] * 0.25
                ):
                    best = node
                    break
        if self.whole:
            best = self.whole_article(candidates, best)
        best = self.semantic_article(candidates, best)
        return self.semantic_main(candidates, best)

    def readable(self, node) -> float:
        """Text length outside links (the first measure)."""
        return self.text_length(node) * (1 - self.link_density(node))

    def whole_article(self, candidates: dict, best):
        """The ancestor of ``best`` that holds the whole article
        (:func:`~dedup_gui.core.extraction.readability_tuning.whole_article`), scored as ``best`` at least."""
        chain = ((a, self.readable(a), self.link_density(a)) for a in _ancestors(best) if a.tag not in _ABOVE_ARTICLE)
        whole = whole_article(chain, self.readable(self.body))
        if whole is None:
            return best
        candidates[whole] = max(candidates.get(whole, self.node_score(whole)), candidates[best])
        return whole

    def semantic_article(self, candidates: dict, best):
        """A best candidate inside a form, aside or nav gives way to the ``<article>`` with the
        most list-item text, if that scores higher."""
        if not _in_tags(best, _FRAMES, self_too=True):
            return best
        found = []
        assert self.body is not None  # run() stops first on a page without one
        for article in self.body.css("article"):
            if _in_tags(article, _FRAMES, self_too=True):
                continue
            density = self.link_density(article)
            if density > 0.25:
                continue
            score = self.node_score(article)
            items = 0
            for li in article.css("li:not(:has(li))"):
                text = li.text()
                length = _clean_len(text)
                if length < _MIN_LEN or self.link_density(li) > 0.25:
                    continue
                items += 1
                score += 1 + (text.count(",") + 1) + min(length / 100, 3)
            if items:
                found.append((score * (1 - density), article))
        if not found:
            return best
        score, article = max(found, key=lambda pair: pair[0])
        if score <= candidates[best]:
            return best
        candidates[article] = score
        return article

    def semantic_main(self, candidates: dict, best):
        """Outside any ``<article>``, a ``<main>`` around the best candidate that has at least twice
        its text (and 500 characters) and few links takes its place."""
        main = None
        node = best
        while node is not None:
            if node.tag == "article":
                return best
            if main is None and node.tag == "main" and not _same(node, best):
                main = node
            node = node.parent
        if main is None or self.text_length(main) < max(500, self.text_length(best) * 2):
            return best
        if self.link_density(main) > 0.15:
            return best
        candidates[main] = self.node_score(main)
        return main

    def heading_preamble(self, candidates: dict, best, threshold: float) -> None:
        prev = _previous_element(best)
        if prev is None or prev in candidates:
            return
        if prev.tag != "h2" and prev.css_first("h2") is None:
            return
        if self.text_length(prev) < _MIN_LEN or self.link_density(prev) > 0.2:
            return
        candidates[prev] = threshold

    def merge_segments(self, candidates: dict, best, threshold: float) -> None:
        """Other blocks of the same article - same tag and content class, elsewhere in the same
        ``<article>``/``<main>`` or positively named frame - join the best one, in page order."""
        best_classes = _classes(best)
        content_classes = {c for c in best_classes if _POSITIVE.search(c.lower())}
        best_ancestors = _ancestors(best)
        frame = next((a for a in best_ancestors if a.tag in ("article", "main")), None)
        neutral = (
            not content_classes
            and best.tag != "article"
            and bool(best_classes)
            and frame is not None
            and frame.tag == "article"
        )
        if not content_classes and best.tag != "article" and not neutral:
            return
        segment_threshold = max(10, candidates[best] * 0.05) if neutral else threshold
        best_parent = best.parent
        around_best = set(best_ancestors)
        parent_classes = _classes(best_parent) if best_parent is not None else set()

        def matching(el) -> bool:
            if _same(el, best) or el not in candidates:
                return False
            classless_article = not content_classes and el.tag == "article"
            if candidates[el] < segment_threshold and not classless_article:
                return False
            if _same(el.parent, best_parent) or el.tag != best.tag:
                return False
            classes = _classes(el)
            if content_classes and not content_classes & classes:
                return False
            if neutral and classes != best_classes:
                return False
            if classless_article and (el.parent is None or not parent_classes & _classes(el.parent)):
                return False
            if self.link_density(el) > 0.2:
                return False
            return el not in around_best and best not in set(_ancestors(el))

        if frame is None:
            segments = [c for c in candidates if matching(c)]
            if not segments:
                return
            holders = set()
            for segment in segments:
                holders.update(_ancestors(segment))
            frame = next(
                (
                    a
                    for a in best_ancestors
                    if a in holders and _POSITIVE.search(f"{a.attributes.get('class') or ''} {a.id or ''}".lower())
                ),
                None,
            )
            if frame is None:
                return
        selected: set = set()
        before: list = []
        after: list = []
        after_best = False
        for el in frame.traverse():
            if el.tag in _NOT_ELEMENTS:
                continue
            if _same(el, best):
                after_best = True
                continue
            if not matching(el) or selected.intersection(_ancestors(el)):
                continue
            selected.add(el)
            group = after if after_best else before
            lead = self.quote_lead(el)
            if lead is not None:
                selected.add(lead)
                group.append(lead)
            group.append(el)
        for el in reversed(before):
            self.move(el, best, first=True)
        for el in after:
            self.move(el, best)

    def quote_lead(self, el):
        """The sentence ending in ":" that introduces a quoted block, if ``el`` quotes one."""
        if el.css_first("blockquote") is None:
            return None
        for container in (el, el.parent):
            if container is None:
                continue
            lead = _previous_element(container)
            if lead is None or _in_tags(lead, ("aside", "nav"), self_too=True):
                continue
            text = " ".join(lead.text().split())
            if len(text) >= _MIN_LEN and text.endswith(":"):
                return lead
        return None

    def editorial_leads(self, best) -> list:
        """Standfirsts, deks and subtitles before the best block in its ``<article>``/``<main>``."""
        best_ancestors = _ancestors(best)
        frame = next((a for a in best_ancestors if a.tag in ("article", "main")), None)
        if frame is None:
            return []
        around_best = set(best_ancestors)
        leads: list = []
        chosen: set = set()
        for el in frame.traverse():
            if _same(el, best):
                break
            if el in around_best or el.tag in _NOT_ELEMENTS:
                continue
            names = f"{el.attributes.get('class') or ''} {el.id or ''}"
            if len(names) < 3 or not _EDITORIAL_LEAD.search(names.lower()):
                continue
            if self.link_density(el) > 0.2 or chosen.intersection(_ancestors(el)):
                continue
            leads.append(el)
            chosen.add(el)
        return leads

    def lead_paragraph(self, best):
        """The lead paragraph right before the best block, outside it
        (:func:`~dedup_gui.core.extraction.readability_tuning.lead_paragraph_of`), or ``None``."""
        node = best
        for _ in range(LEAD_LEVELS):
            prev = _previous_element(node)
            while prev is not None and not _clean_len(prev.text()):
                prev = _previous_element(prev)
            if prev is not None:
                break
            node = node.parent
            if node is None or node.tag in _ABOVE_ARTICLE or node.tag in ("article", "main"):
                return None
        else:
            return None
        paragraphs = [prev] if prev.tag == "p" else prev.css("p")
        if len(paragraphs) != 1:
            return None
        lead = paragraphs[0]
        text = " ".join(lead.text().split())
        links = sum(_clean_len(a.text()) for a in lead.css("a"))
        weights = (_class_weight(prev), _class_weight(lead))
        framed = _in_tags(lead, LEAD_NOT_IN, self_too=True)
        return lead if is_lead_paragraph(text, _clean_len(prev.text()), links, weights, framed) else None

    def article(self, candidates: dict, best) -> list:
        """The best candidate (with what joins it) and the siblings that belong to the article."""
        lead = self.lead_paragraph(best)
        if lead is not None:
            self.move(lead, best, first=True)
        threshold = max(10, candidates[best] * 0.2)
        self.heading_preamble(candidates, best, threshold)
        self.merge_segments(candidates, best, threshold)
        for lead in reversed(self.editorial_leads(best)):
            self.move(lead, best, first=True)
        parent = best.parent
        if parent is None:
            return [best]
        kept = []
        sibling = parent.first_child
        while sibling is not None:
            if sibling.tag not in _NOT_ELEMENTS:
                keep = _same(sibling, best) or candidates.get(sibling, float("-inf")) >= threshold
                if not keep and self.tag(sibling) == "p":
                    first = sibling.first_child
                    leading = (first.text_content or "") if first is not None and first.tag == "-text" else ""
                    density = self.link_density(sibling)
                    if (len(leading) > 80 and density < 0.25) or (
                        len(leading) <= 80 and density == 0 and _SENTENCE_END.search(leading)
                    ):
                        keep = True
                if keep:
                    kept.append(sibling)
            sibling = sibling.next
        return kept

    # -- 4. cleaning ---------------------------------------------------------------------------

    def sanitize(self, nodes: list, candidates: dict) -> None:
        self.changed = True  # (from here on elements are removed)

        def select(selector: str) -> list:
            found = []
            for root in nodes:
                found.extend(root.css(selector))  # the root itself too, when it matches
            return found

        for heading in select("h1, h2, h3, h4, h5, h6"):
            if _class_weight(heading) < 0 or self.link_density(heading, fresh=True) > 0.33:
                heading.decompose(recursive=False)
        for p in select("p"):
            if _CALL_TO_ACTION.search(p.text_lexbor()) and self.link_density(p, fresh=True) > 0.2:
                p.decompose(recursive=False)
        for el in select("form, textarea"):
            el.decompose(recursive=False)
        for el in select("iframe"):
            host = _URL_HOST.match(el.attributes.get("src") or "")
            if host and host.group(1).lower() in _VIDEO_HOSTS:
                self.videos.add(el)
            else:
                el.decompose(recursive=False)
        preserved = self.preserved(nodes)
        for tag in ("table", "ul", "div", "aside", "header", "footer", "section"):
            for el in reversed(select(tag)):
                if el not in self.as_paragraph and el not in preserved:
                    self.clean_conditionally(el, candidates)

    def preserved(self, nodes: list) -> set:
        """Lists under a "Table of contents" heading, lists of sentences, and blocks introducing a quote."""
        keep: set = set()
        for root in nodes:
            for heading in root.css("h2, h3, h4"):
                if " ".join(heading.text().split()).lower() != "table of contents":
                    continue
                el = heading.next
                while el is not None and el.tag in _NOT_ELEMENTS:
                    el = el.next
                if el is not None and el.tag == "ul":
                    keep.update((el, *el.css("ul")))
            keep.update(lexbor_sentence_lists(root, _class_weight))
            for quote in root.css("blockquote"):
                # A block ending in ":" right before an element that holds a quote introduces
                # it: it and the divs and sections in it stay.
                for holder in _ancestors(quote):
                    lead = _previous_element(holder)
                    if lead is not None:
                        text = " ".join(lead.text().split())
                        if len(text) >= _MIN_LEN and text.endswith(":"):
                            keep.update(lead.css("div, section"))  # lead itself too, if it is one
                    if _same(holder, root):
                        break
        return keep

    @staticmethod
    def link_limit(el) -> float:
        """The link density above which a block without a positive class goes: lists and
        sections inside an article or main may have a few more links."""
        if el.tag in ("ul", "section") and _in_tags(el, ("main", "article")):
            return 0.25
        return 0.2

    def clean_conditionally(self, el, candidates: dict) -> None:
        weight = _class_weight(el)
        if weight + candidates.get(el, 0) < 0:
            el.decompose(recursive=False)
            return
        text = el.text_lexbor()
        if text.count(",") >= 10:
            return
        # Paragraphs (readability's <p>s: the divs it turns into ones, and their loose text
        # too), images, list items, inputs, embeds and links, from one selector pass.
        p = img = li = inputs = embeds = 0
        as_paragraph, loose_runs, el_id = self.as_paragraph, self.loose_runs, el.mem_id
        links = []
        for found in el.css("p, div, img, li, input, embed, a"):
            tag = found.tag
            if tag == "p":
                p += 1
            elif tag == "div":
                if found in as_paragraph and found.mem_id != el_id:
                    p += 1
                p += loose_runs.get(found, 0)
            elif tag == "a":
                links.append(found)
            elif tag == "img":
                img += 1
            elif tag == "li":
                li += 1
            elif tag == "embed":
                embeds += 1
            elif (found.attributes.get("type") or "").lower() != "hidden":  # input[type=hidden i]
                inputs += 1
        li -= 100
        length = _clean_len(text)
        density = self.link_density(el, fresh=True, total=length, links=links)
        remove = (
            (p and img > 1 + p * 1.3)
            or (li > p and el.tag not in ("ol", "ul"))
            or inputs > p / 3
            or (length < _MIN_LEN and (img == 0 or img > 2))
            or (weight < 25 and density > self.link_limit(el))
            or (weight >= 25 and density > 0.5)
            or (embeds == 1 and length < 75)
            or embeds > 1
            or not length
        )
        if remove:
            el.decompose(recursive=False)

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
            have = sum(self.readable(n) for n in nodes if not _same(n, best)) + length * (
                1 - self.link_density(best, fresh=True, total=length)
            )
            # (the body's text length bounds its readable text: its links are measured only if needed)
            self.fragment = (
                not self.whole
                and have < FRAGMENT_SHARE * self.text_length(self.body)
                and have < FRAGMENT_SHARE * self.readable(self.body)
            )
        self.sanitize(nodes, candidates)
        nodes = [n for n in nodes if n.parent is not None or _same(n, self.body)]
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
