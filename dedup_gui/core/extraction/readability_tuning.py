"""Two corrections to Readability's choice of the article, for both of our extractors.

readability-lxml (and our lexbor port of it, :mod:`.readability_lexbor`) gets two kinds of page
wrong that a reader would not:

- **Commas of other scripts.**  A paragraph scores one point per comma-separated part, and
  only the ASCII comma counts: Chinese prose, whose clauses end in ``，`` and ``、``, scores as if
  it had none, and loses to a data table or a link list.  Here the commas that Readability.js
  counts (``REGEXPS.commas``: Latin, Arabic ``،``, the fullwidth ``，`` and others) and the
  ideographic comma ``、`` add their points too.  They are counted in a paragraph's own text only
  (not in the paragraphs nested in it, which score on their own): a table cell holding a whole
  article would otherwise score all its commas a second time for its row, and the row, with its
  menus, would beat the article.
- **An article in pieces.**  Readability scores a paragraph for its parent and grandparent only,
  so an article whose text lies in many small blocks (a how-to's steps, a post of list items, a
  page that is itself a bare article, like the ``expected.html`` files of Readability's own
  tests) can lose to one of its pieces: the extraction of such a page was one line of 106
  characters.  When the article (the best block with the siblings joined to it) holds less than
  :data:`FRAGMENT_SHARE` of the page's readable text (text outside links), the extraction is
  run again from the lowest ancestor of the best block that holds at least
  :data:`WHOLE_SHARE` of it and has a link density of at most :data:`WHOLE_LINK_DENSITY`, if
  there is one below ``<body>`` (the body as the article would leave the page no template, and
  the layout of two such pages could not be compared).  This is Readability.js's reasoning that
  the top candidate's ancestors may hold "more content lurking in other places that we want to
  unify in" (``_grabArticle``), made a rule about the page's text.

- **The article named like a menu.**  Readability's first pass removes every element whose
  class or id has a word of its "unlikely candidates" (``menu``, ``comment``, ``sidebar``,
  ``extra``...) and none of its "maybe candidates"; a shop page whose description sits in its
  ``tab-menu--product`` box then loses it, and the product's short teaser becomes the
  article.  An element that holds more than :data:`ARTICLE_SHARE` of the page's paragraph text
  (innermost blocks of 25 characters or more: :func:`lxml_paragraph_chars`), and more than
  :data:`ARTICLE_MIN_TEXT_SHARE` of its text, holds the article and stays, unless its class
  weight is negative (``comments``, ``related``: a long comment thread still goes).  This is the rule that keeps an overlay-named container of the article
  (:mod:`.page_cleanup`), for Readability's other name rule.

- **Lists of sentences.**  readability-lxml removes from the article every ``<ul>`` with more
  than a fifth of its text in links, which takes out a post's list of the bugs fixed, of the
  articles it cites, or of its sources, each item a linked sentence.  Readability.js exempts
  lists from that rule altogether (``_cleanConditionally``: ``!isList && linkDensity > 0.2``);
  here only a list of sentences is kept (:func:`is_sentence_list`: items of
  :data:`SENTENCE_ITEM_CHARS` characters or more on average), so that a menu of short links
  inside the article's block still goes.

readability-lxml is used as it is, through :class:`TunedDocument`, a subclass that overrides
five of its methods and adds to their results, and applies readability-lxml's own
unlikely-candidate rule (its patterns, ``REGEXES``) with the exception above.
"""

from __future__ import annotations

import re

import lxml.etree
from readability import Document
from readability.readability import REGEXES

from dedup_gui.core.extraction.page_cleanup import PARAGRAPH_CHARS, PARAGRAPH_TAGS, PrefixSize, lexbor_size, lxml_size

#: Commas other than ASCII's that score: Readability.js's ``REGEXPS.commas`` and ``、``.
#: (The common CJK ones first: :func:`has_extra_commas` stops at the first found.)
EXTRA_COMMAS = "\uff0c\u3001\u060c\ufe50\ufe10\ufe11\u2e41\u2e34\u2e32"
#: An article with less than this share of the page's readable text may be a piece of it.
FRAGMENT_SHARE = 0.4
#: The whole article: the lowest ancestor holding at least this share of the readable text...
WHOLE_SHARE = 0.8
#: ...with at most this share of its text in links.
WHOLE_LINK_DENSITY = 0.25
#: An unlikely candidate holding more than this share of the page's paragraph text stays.
ARTICLE_SHARE = 0.5
#: ...and more than this share of the page's text (a description box beside a shop's price
#: list and menus holds a third of it).
ARTICLE_MIN_TEXT_SHARE = 0.2
#: A list whose items have at least this many characters on average is a list of sentences.
SENTENCE_ITEM_CHARS = 40
# Scored blocks whose commas count for themselves, not for an element they are nested in.
NESTED_BLOCKS = frozenset({"p", "pre", "td", "blockquote", "div"})


#: How many levels up from the best candidate a lead paragraph is looked for (its previous
#: element with text at the first level that has one).
LEAD_LEVELS = 3
#: The fewest characters of a lead paragraph (readability's sibling rule keeps a ``<p>`` of
#: more than 80 characters beside the best candidate).
LEAD_MIN_CHARS = 80
#: A lead paragraph inside (or being) one of these is not the article's.
LEAD_NOT_IN = ("aside", "nav", "footer", "form")


_SENTENCE_END = re.compile(r"[.!?…。！？][\"”»’)]?(?:\s|$)")
# A paragraph that starts with a short label and a colon ("摘要：", "Summary:") is a summary box
# that repeats the article (a page's teaser), not its lead.
_LABELLED = re.compile(r"^[^\s:：]{1,12}\s?[:：]")


def is_lead_paragraph(text: str, holder_length: int, links: int, weights: tuple[int, ...], framed: bool) -> bool:
    """Whether the one ``<p>`` of the element just before the best candidate (that element, or
    one of its ancestors' previous element with text, up to :data:`LEAD_LEVELS` levels, within
    the same ``<article>``/``<main>``) is the article's lead paragraph - a standfirst or intro
    set apart from the body (``p.intro``, ``div.chapo > p``) - and so joins the article.

    Readability keeps a long paragraph that is a sibling of the best candidate; a lead that sits
    one or two levels further out (the body wrapped in its own ``div``) it loses.  A lead is the
    whole text of the element before the body, of :data:`LEAD_MIN_CHARS` characters or more and
    with a sentence in it (a byline or dateline has none), with at most a fifth of it in links,
    named nothing negative, and outside asides, navigation, footers and forms; one that starts with
    a label ("Summary:", "摘要：") is a summary box, not a lead.

    Args:
        text: the paragraph's text, whitespace runs collapsed to one space and ends stripped.
        holder_length: the same for the element before the body that holds it (the paragraph
            itself, or an element around it).
        links: the length of its text inside links.
        weights: the class weights (readability's) of the holder and the paragraph.
        framed: whether the paragraph is in (or is) one of :data:`LEAD_NOT_IN`.

    Returns:
        bool.
    """
    length = len(text)
    return (
        length >= LEAD_MIN_CHARS
        and holder_length == length
        and _SENTENCE_END.search(text) is not None
        and _LABELLED.match(text) is None
        and links <= 0.2 * length
        and min(weights) >= 0
        and not framed
    )


def extra_commas(text: str) -> int:
    """The commas of :data:`EXTRA_COMMAS` in ``text`` (int); 0 at once for ASCII text."""
    return 0 if text.isascii() else sum(map(text.count, EXTRA_COMMAS))


def has_extra_commas(text: str) -> bool:
    """Whether ``text`` (e.g. a whole page) has any comma of :data:`EXTRA_COMMAS`.  (One
    substring search per comma: four times faster than one search for the character class.)"""
    return not text.isascii() and any(comma in text for comma in EXTRA_COMMAS)


def is_sentence_list(text: str, items: int) -> bool:
    """Whether a list of ``items`` items (``<li>``, nested ones too) with the text ``text`` is a
    list of sentences: at least two items, of :data:`SENTENCE_ITEM_CHARS` characters or more on
    average (whitespace runs counted as one).  Such a list is kept in the article whatever its
    link density (the module docstring)."""
    return items >= 2 and len(" ".join(text.split())) >= SENTENCE_ITEM_CHARS * items


# The innermost paragraph blocks, found by lexbor's selector engine in C.
_LEXBOR_INNERMOST = ":is({0}):not(:has({0}))".format(", ".join(PARAGRAPH_TAGS))


def lxml_paragraph_chars(el) -> int:
    """Characters other than whitespace in the paragraphs of lxml element ``el`` (itself too):
    the innermost blocks of :data:`~.page_cleanup.PARAGRAPH_TAGS` with
    :data:`~.page_cleanup.PARAGRAPH_CHARS` characters or more (int)."""
    total = 0
    for p in el.iter(*PARAGRAPH_TAGS):
        if next(p.iterdescendants(*PARAGRAPH_TAGS), None) is None:
            size = lxml_size(p)
            total += size if size >= PARAGRAPH_CHARS else 0
    return total


def lexbor_paragraph_chars(node) -> int:
    """:func:`lxml_paragraph_chars` for a lexbor node (scripts and styles already removed)."""
    total = 0
    for p in node.css(_LEXBOR_INNERMOST):  # (the node itself too, when it is one)
        size = lexbor_size(p)
        total += size if size >= PARAGRAPH_CHARS else 0
    return total


def holds_article(el, body, size, paragraph_chars, page: dict, bound=None) -> bool:
    """Whether element ``el`` holds the article (the module docstring): more than
    :data:`ARTICLE_SHARE` of the page's paragraph text, for either parser's tree.  Only an element
    with more than :data:`ARTICLE_MIN_TEXT_SHARE` of the body's text is measured further (few
    are), so the page's paragraphs are counted only on the pages that need it.

    Args:
        el: the element.
        body: the page's body element.
        size: the function giving an element's characters other than whitespace.
        paragraph_chars: the function giving an element's paragraph characters
            (:func:`lxml_paragraph_chars` or :func:`lexbor_paragraph_chars`).
        page: the body's measures kept across the calls for one tree (pass ``{}`` at first).
        bound: a quicker function giving at least ``size`` (optional).

    Returns:
        bool.
    """
    if "size" not in page:
        page["size"] = size(body)
    if bound is not None and bound(el) <= ARTICLE_MIN_TEXT_SHARE * page["size"]:
        return False  # (most are short: their exact size is not needed)
    el_size = size(el)
    if el_size <= ARTICLE_MIN_TEXT_SHARE * page["size"]:
        return False
    if "paragraphs" not in page:
        page["paragraphs"] = paragraph_chars(body)
    limit = ARTICLE_SHARE * page["paragraphs"]
    return page["paragraphs"] > 0 and el_size > limit and paragraph_chars(el) > limit


def lexbor_not_articles(unlikely: list, body, page: dict) -> list:
    """The unlikely candidates of a lexbor tree that go: those with a negative class weight,
    and those that do not hold the article (:func:`holds_article`).  The body's size is counted
    only as far as each candidate needs (:class:`~.page_cleanup.PrefixSize`: most are under a
    fifth of a part of the body), unless ``page`` has it.

    Args:
        unlikely: ``(node, class weight)`` of each unlikely candidate.
        body: the body node (scripts, styles and overlays removed).
        page: the body's measures (:func:`holds_article`), ``{}`` or with its ``"size"``.

    Returns:
        The nodes to remove (list), in the order of ``unlikely``.
    """
    bounds: dict[int, int] = {}

    def bound(node) -> int:  # (at least its lexbor_size: the text's length, whitespace and all)
        n = bounds.get(node.mem_id)
        if n is None:
            n = bounds[node.mem_id] = len(node.text_lexbor())
        return n

    prefix = None
    out = []
    for el, weight in unlikely:
        if weight >= 0 and "size" not in page:
            prefix = prefix or PrefixSize(body.text_lexbor())
            if prefix.within(bound(el), ARTICLE_MIN_TEXT_SHARE):
                out.append(el)  # (holds_article's first test, decided on part of the body)
                continue
            page["size"] = prefix.size  # (the whole body's)
        if weight < 0 or not holds_article(el, body, lexbor_size, lexbor_paragraph_chars, page, bound):
            out.append(el)
    return out


def lexbor_sentence_lists(root, class_weight) -> list:
    """The ``<ul>`` lexbor nodes in ``root`` (itself too) that are lists of sentences
    (:func:`is_sentence_list`) with a class weight (the function ``class_weight``) of 0 or more."""
    return [ul for ul in root.css("ul") if class_weight(ul) >= 0 and is_sentence_list(ul.text(), len(ul.css("li")))]


def whole_article(ancestors, total: float):
    """The ancestor that holds the whole article, or ``None``.

    Args:
        ancestors: ``(node, readable, link_density)`` of the best block's ancestors, nearest
            first, as an iterable (evaluated lazily, so that far ancestors are never measured
            when a near one decides); ``readable`` is its text length outside links.
        total: the readable text length of the page's body.

    Returns:
        The first node holding at least :data:`WHOLE_SHARE` of ``total``, if its link density
        is at most :data:`WHOLE_LINK_DENSITY`; else ``None``.
    """
    for node, readable, density in ancestors:
        if readable >= WHOLE_SHARE * total:
            return node if density <= WHOLE_LINK_DENSITY else None
    return None


def lxml_own_text(el) -> str:
    """The text of an lxml element outside the :data:`NESTED_BLOCKS` nested in it."""
    parts: list[str] = []
    walker = lxml.etree.iterwalk(el, events=("start", "end"))
    for event, node in walker:
        if event == "start":
            if node is not el and (not isinstance(node.tag, str) or node.tag in NESTED_BLOCKS):
                walker.skip_subtree()  # its "end" event still comes, for the tail
                continue
            if node.text:
                parts.append(node.text)
        elif node is not el and node.tail:
            parts.append(node.tail)
    return "".join(parts)


def lexbor_own_text(node) -> str:
    """The text of a lexbor node outside the :data:`NESTED_BLOCKS` nested in it."""
    parts: list[str] = []
    stack = [node.first_child]
    while stack:
        child = stack.pop()
        while child is not None:
            tag = child.tag
            if tag == "-text":
                parts.append(child.text_content or "")
            elif tag[0] != "-" and tag not in NESTED_BLOCKS and child.first_child is not None:
                stack.append(child.next)
                child = child.first_child
                continue
            child = child.next
    return "".join(parts)


class TunedDocument(Document):
    """readability-lxml's ``Document`` with this module's corrections.

    Args:
        input: as for ``Document`` (here: a parsed lxml tree).
        other_commas: whether the page has commas of :data:`EXTRA_COMMAS` at all (when not,
            scoring is readability-lxml's own); other keyword arguments go to ``Document``.
    """

    def __init__(self, input, other_commas: bool = False, **kwargs):
        super().__init__(input, **kwargs)
        self._score_extra_commas = other_commas
        self._fragment = False  # the last article built was a piece of the page
        self._whole = False  # this run starts from the whole article

    def summary(self, html_partial: bool = False, keep_all_images: bool = False) -> str:
        """readability-lxml's summary; run again from the whole article when the first run's
        article was a piece of the page (the module docstring).  Each run parses the input
        afresh (readability-lxml copies the tree it is given), so the second sees the page
        unchanged."""
        self._fragment = self._whole = False
        article = super().summary(html_partial=html_partial, keep_all_images=keep_all_images)
        if self._fragment:
            self._whole = True
            article = super().summary(html_partial=html_partial, keep_all_images=keep_all_images)
        return article

    @staticmethod
    def _readable(el) -> int:
        """Text length outside links, whitespace runs counted as one character (as the lexbor
        port measures it; readability-lxml's own measure runs three regular expressions per
        link, a third of its time on a page of many links)."""
        links = "".join(el.xpath(".//a//text()"))
        return len(" ".join(el.text_content().split())) - len(" ".join(links.split()))

    @staticmethod
    def _link_density(el, readable: int) -> float:
        length = len(" ".join(el.text_content().split()))
        return 1 - readable / length if length else 0.0

    def _body(self):
        body = self.html.find(".//body")
        return body if body is not None else self.html

    def _lead_paragraph(self, best):
        """The lead paragraph right before ``best`` (:func:`is_lead_paragraph`), or ``None``."""

        def clean_len(el) -> int:
            return len(" ".join(el.text_content().split()))

        def previous(el):
            el = el.getprevious()
            while el is not None and (not isinstance(el.tag, str) or not clean_len(el)):
                el = el.getprevious()
            return el

        node, prev = best, None
        for _ in range(LEAD_LEVELS):
            prev = previous(node)
            if prev is not None:
                break
            node = node.getparent()
            if node is None or node.tag in ("body", "html", "article", "main"):
                return None
        if prev is None:
            return None
        paragraphs = [prev] if prev.tag == "p" else prev.findall(".//p")
        if len(paragraphs) != 1:
            return None
        lead = paragraphs[0]
        text = " ".join(lead.text_content().split())
        links = sum(clean_len(a) for a in lead.iter("a"))
        weights = (self.class_weight(prev), self.class_weight(lead))
        framed = any(el.tag in LEAD_NOT_IN for el in (lead, *lead.iterancestors()))
        return lead if is_lead_paragraph(text, clean_len(prev), links, weights, framed) else None

    def get_article(self, candidates, best_candidate, html_partial=False):
        """readability-lxml's article, with the lead paragraph just before the best candidate
        first in it (:func:`is_lead_paragraph`), noting whether it is a piece of the page."""
        best = best_candidate["elem"]
        lead = self._lead_paragraph(best)
        if lead is not None:
            best.insert(0, lead)  # (lxml moves it, with its tail)
        body = self._body()
        length = len(" ".join(body.text_content().split()))
        article = super().get_article(candidates, best_candidate, html_partial=html_partial)
        if self._whole:
            return article
        # The article's blocks were moved out of the body: the body's readable text before is
        # what is left in it and the article's (measured only when its text length allows).
        have = self._readable(article)
        self._fragment = have < FRAGMENT_SHARE * length and have < FRAGMENT_SHARE * (self._readable(body) + have)
        return article

    def remove_unlikely_candidates(self):
        """readability-lxml's removal of unlikely candidates (its patterns and conditions), except
        for an element with a class weight of 0 or more that holds the article
        (:func:`holds_article`, the module docstring)."""
        page: dict = {}
        body = self._body()
        for elem in self.html.findall(".//*"):
            names = f"{elem.get('class', '')} {elem.get('id', '')}"
            if (
                len(names) < 2
                or not REGEXES["unlikelyCandidatesRe"].search(names)
                or REGEXES["okMaybeItsACandidateRe"].search(names)
                or elem.tag in ("html", "body")
                or elem.xpath("ancestor-or-self::pre | ancestor-or-self::code")
                or elem.xpath("descendant-or-self::main | descendant-or-self::article | descendant-or-self::math")
            ):
                continue
            if self.class_weight(elem) >= 0 and holds_article(elem, body, lxml_size, lxml_paragraph_chars, page):
                continue
            elem.drop_tree()

    def select_best_candidate(self, candidates):
        """readability-lxml's best candidate; in the second run, the whole article's element."""
        self._fragment = False  # (a pass without a best candidate builds no article)
        best = super().select_best_candidate(candidates)
        if not self._whole or best is None:
            return best
        total = self._readable(self._body())
        chain = (
            (el, readable, self._link_density(el, readable))
            for el in best["elem"].iterancestors()
            if el.tag not in ("body", "html")
            for readable in (self._readable(el),)
        )
        whole = whole_article(chain, total)
        if whole is None:
            return best
        found = candidates.get(whole) or self.score_node(whole)
        found["content_score"] = max(found["content_score"], best["content_score"])
        candidates[whole] = found
        return found

    def get_preserved_elements(self, node):
        """readability-lxml's preserved elements (tables of contents, quote leads), and the
        lists of sentences (:func:`is_sentence_list`) whose class weight is not negative."""
        allowed = super().get_preserved_elements(node)
        for el in self.tags(node, "ul"):
            if is_sentence_list(el.text_content(), len(el.findall(".//li"))) and self.class_weight(el) >= 0:
                allowed[el] = True
        return allowed

    def score_paragraphs(self):
        """readability-lxml's scores, plus the points of the other commas (the module
        docstring): for each scored paragraph, its own text's extra commas count for its parent
        and half for its grandparent, scaled like the rest by 1 - link density."""
        candidates = super().score_paragraphs()
        if not self._score_extra_commas:
            return candidates
        density: dict = {}

        def add(el, points: float) -> None:
            if el not in density:
                density[el] = self.get_link_density(el)
            candidates[el]["content_score"] += points * (1 - density[el])

        for elem in self.tags(self.html, "p", "pre", "td", "blockquote"):
            text = elem.text_content()
            points = extra_commas(text)
            parent = elem.getparent()
            # (the length as readability-lxml's clean() leaves it, give or take a line break)
            if not points or parent is None or len(" ".join(text.split())) < self.min_text_length:
                continue
            if next(elem.iterdescendants(*NESTED_BLOCKS), None) is not None:
                points = extra_commas(lxml_own_text(elem))
            if points:
                add(parent, points)
                grandparent = parent.getparent()
                if grandparent is not None:
                    add(grandparent, points / 2)
        return candidates
