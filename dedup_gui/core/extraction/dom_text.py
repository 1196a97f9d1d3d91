"""Parsing a page and walking its tree: the lxml parse, the element sequence, the visible text.

One walk of the tree (:func:`lxml_facts`) gives what the scan keeps besides the main text: the
element names in document order (the layout representation of Di Lucca, Di Penta and Fasolino,
COMPSAC 2002), each element's parent and own text (for the main-content span,
:mod:`.template`), and the visible text, one block per line.  A bound from the tags alone
(:func:`may_nest_deeper_than`) tells whether a page may be nested deeper than lxml parses.
:func:`block_text` lays out the text of a lexbor (selectolax) tree's nodes the same way.
"""

from __future__ import annotations

import re
import sys

import lxml.etree
import lxml.html
import numpy as np

from dedup_gui.core.extraction.comment_threads import lxml_threads
from dedup_gui.core.gil_friendly import SUB_SLICE
from dedup_gui.core.text.tokens import drop_invisible, normalize_whitespace

_PARSER = lxml.html.HTMLParser(encoding="utf-8", huge_tree=True, remove_comments=True, remove_pis=True)
#: End tags of ``<body>`` and ``<html>``.  libxml2 (2.14) drops everything after ``</html>``, but
#: an HTML5 parser (a browser, lexbor) ignores these tags and reads on: a page whose included
#: header ends in ``</html>`` lost its article, everything after the header, in readability-lxml.
_STRAY_END_TAGS = re.compile(r"</(?:body|html)\s*>", re.IGNORECASE)
# Elements whose end starts a new line of main text.
_BLOCK_TAGS = frozenset(
    "p div br li ul ol h1 h2 h3 h4 h5 h6 tr table blockquote pre section article header footer "
    "aside nav dd dt dl figure figcaption hr address main form fieldset td th caption".split()
)
_SKIP_TEXT_TAGS = frozenset({"script", "style", "noscript", "template"})
_BREAK = "\x1e"  # ASCII record separator: marks a block boundary while text is collected
#: Elements whose text is never main content (for the main-content span), besides _SKIP_TEXT_TAGS.
_NOT_CONTENT_TAGS = frozenset({"head", "title", "annotation"})


def parse_html(text: str) -> lxml.html.HtmlElement | None:
    """Parse HTML text with lxml (huge trees allowed); ``None`` if there is no document.

    Args:
        text: decoded HTML.

    Returns:
        The root element, or ``None`` for an empty document.
    """
    # Removed as an HTML5 parser ignores them (_STRAY_END_TAGS); lxml closes both at the end.
    data = _STRAY_END_TAGS.sub("", text.replace("\x00", "")).encode("utf-8", "surrogatepass")
    if not data.strip():
        return None
    try:
        return lxml.html.document_fromstring(data, parser=_PARSER)
    except (lxml.etree.ParserError, ValueError):
        return None


def tag_sequence(root: lxml.html.HtmlElement | None) -> tuple[str, ...]:
    """Element names of the tree in document order, e.g. ``("html", "head", "title", ...)``,
    without the elements of comment threads (:mod:`.comment_threads`: no part of the layout).

    The names are interned: a page of 1,000 elements then holds a few dozen string objects, not
    1,000, and pickling (to the main process, to the cache) writes each name once.  At 100,000
    pages that is about 2.5 GB less memory.
    """
    if root is None:
        return ()
    return lxml_facts(root)[0]


def element_text(root: lxml.html.HtmlElement) -> str:
    """Visible text of an element, one block (paragraph, heading, list item...) per line."""
    parts: list[str] = []
    append, brk, block_tags, skip_tags = parts.append, _BREAK, _BLOCK_TAGS, _SKIP_TEXT_TAGS  # hot loop
    pre_depth = 0
    # iterwalk instead of recursion: nesting depth is unbounded with huge_tree.
    walker = lxml.etree.iterwalk(root, events=("start", "end"))
    for event, el in walker:
        tag = el.tag
        tag = tag.lower() if tag.__class__ is str else None
        if event == "start":
            if tag in skip_tags:
                walker.skip_subtree()  # its "end" event still comes and adds the tail
                continue
            if tag in block_tags:
                append(brk)
            if tag == "pre":
                pre_depth += 1
            text = el.text if tag is not None else None
        else:
            if tag == "pre":
                pre_depth -= 1
            if tag in block_tags:
                append(brk)
            text = el.tail if el is not root else None
        if text:
            text = text.replace(brk, " ")
            append(text.replace("\n", brk) if pre_depth else text)
    # Source line breaks are plain whitespace; only block boundaries (and <pre> lines) break.
    return _lines(parts)


#: libxml2's element depth limit with ``huge_tree`` (levels); a deeper page is cut there.
LXML_DEPTH_LIMIT = 2048


#: Comments and the contents of elements whose text is not markup, by the HTML5 tokenizer's
#: rules: a ``</x>`` in them closes nothing (a tester hid 100,000 of them in a comment before
#: 100,000 nested ``<div>``s).  ``<!-->`` and ``<!--->`` are whole comments, ``--!>`` also ends
#: one, and an unclosed comment or raw-text element runs to the end.  ``<noscript>`` is not here:
#: the parsers read it as markup (no scripting).
_NOT_MARKUP = re.compile(
    r"<!--(?:-?>|.*?(?:--!?>|\Z))"
    r"|<(script|style|textarea|title|xmp|noembed|noframes|iframe)(?=[\s/>])"
    r".*?(?:</\1(?=[\s/>])|\Z)"
    r"|<plaintext(?=[\s/>]).*",
    re.S | re.I,
)


def may_nest_deeper_than(text: str, levels: int) -> bool:
    """Whether elements of HTML ``text`` may nest more than ``levels`` deep: a bound from the
    tags alone, without parsing (0.3-0.5 ms for a typical page; lxml's parse takes 2 ms).

    Outside comments and raw-text elements (``<script>``, ``<style>``...), every ``<``
    followed by a letter counts as an element opened and every ``</`` followed by a letter as
    one closed, and the count never goes below zero.  Elements never closed (``<br>``,
    ``<img>``, an unclosed ``<p>``) only raise the bound.  It can still be fooled by end tags of
    elements that are not open (a parser ignores them) between the opening tags, e.g.
    ``"<div></b>" * 100000``; such a page then takes lexbor long to parse, and the per-page time
    limit of the scan stops it with an error that says so.

    Args:
        text: decoded HTML.
        levels: the depth (int).

    Returns:
        bool.
    """
    if text.count("<") <= levels:  # fewer tags than levels
        return False
    markup = _NOT_MARKUP.sub(" ", text)
    data = np.frombuffer(markup.encode("utf-8", "surrogatepass"), np.uint8)
    where = np.flatnonzero(data[:-2] == ord("<"))
    after = data[where + 1]
    letter = (after | 0x20) - ord("a") < 26  # ASCII letters (uint8 wraps below "a")
    closes = (after == ord("/")) & ((data[where + 2] | 0x20) - ord("a") < 26)
    steps = letter.astype(np.int32) - closes
    depth = np.cumsum(steps)
    # a close at depth 0 closes nothing: depth_t = S_t - min(0, min_k<=t S_k)
    depth -= np.minimum(np.minimum.accumulate(depth), 0)
    return bool(len(depth) and depth.max() > levels)


def _too_deep() -> bool:
    """Whether the last :func:`parse_html` stopped at libxml2's depth limit (its error log says
    "Excessive depth in document")."""
    return any("Excessive depth" in entry.message for entry in _PARSER.error_log)


def lxml_facts(root) -> tuple[tuple[str, ...], list[int], list[str], str]:
    """One walk of an lxml tree for what the scan keeps of it besides the main text.

    Args:
        root: the tree (:func:`parse_html`), or ``None``.

    Returns:
        ``(tags, parents, texts, visible)``: the element names in document order, comment
        threads left out (:func:`tag_sequence`); each element's parent index (-1 for the root) and own text
        (its text and its children's tails; ``""`` in elements whose text is not shown), for
        :func:`~dedup_gui.core.extraction.template.content_span`; and the body's visible text, one block
        per line (:func:`body_text`).
    """
    if root is None:
        return (), [], [], ""
    tags: list[str] = []
    parents: list[int] = []
    own: list[str] = []
    stack: list[int] = []  # indices of the open elements
    parts: list[str] = []  # the body's text, as element_text builds it
    hidden = quiet = pre_depth = 0  # open elements whose text is not shown / not content / open <pre>s
    dropped = 0  # open elements of a comment thread (comment_threads): not in the tag sequence
    threads = lxml_threads(root)
    body = -1  # index of the <body> element, while it is open
    seen_body = False
    # Inlined and with local names: this loop runs twice per element of every page scanned.
    intern, append_tag, append_parent, append_own, append_part = (
        sys.intern, tags.append, parents.append, own.append, parts.append)  # fmt: skip
    skip_tags, block_tags, not_content, brk = _SKIP_TEXT_TAGS, _BLOCK_TAGS, _NOT_CONTENT_TAGS, _BREAK

    for event, el in lxml.etree.iterwalk(root, events=("start", "end")):
        tag = el.tag
        tag = tag.lower() if tag.__class__ is str else None
        if event == "start":
            if tag is None:
                continue
            skip = tag in skip_tags
            hidden += skip
            quiet += skip or tag in not_content
            text = el.text
            if dropped or (threads and el in threads):
                dropped += 1  # a comment thread: its text is shown, its elements are no layout
            else:
                index = len(tags)
                append_tag(intern(tag))
                append_parent(stack[-1] if stack else -1)
                stack.append(index)
                append_own(text if text and not quiet else "")
            if tag == "body" and not seen_body and not dropped:
                body, seen_body = index, True
                if text and not hidden:
                    append_part(text.replace(brk, " "))
                continue
            if body >= 0 and hidden == skip:  # inside the body, not inside a hidden element
                if tag in block_tags:
                    append_part(brk)
                if tag == "pre":
                    pre_depth += 1
                if text and not skip:
                    text = text.replace(brk, " ")
                    append_part(text.replace("\n", brk) if pre_depth else text)
        else:
            in_body = body >= 0
            inside = dropped  # the node (element or comment) is in a thread, or is one
            if tag is not None:
                skip = tag in skip_tags
                hidden -= skip
                quiet -= skip or tag in not_content
                if dropped:
                    dropped -= 1
                    inside = dropped  # the thread's own tail is its parent's text
                elif stack.pop() == body:
                    body = -1
                    continue
                if in_body and not hidden:
                    if tag == "pre":
                        pre_depth -= 1
                    if tag in block_tags:
                        append_part(brk)
            tail = el.tail
            if tail:
                if stack and not quiet and not inside:
                    parent = stack[-1]
                    own[parent] = f"{own[parent]} {tail}" if own[parent] else tail
                if body >= 0 and not hidden:
                    tail = tail.replace(brk, " ")
                    append_part(tail.replace("\n", brk) if pre_depth else tail)
    visible = element_text(root) if not seen_body else _lines(parts)
    return tuple(tags), parents, own, visible


def _lines(parts: list[str]) -> str:
    """The text of ``parts`` (text pieces and :data:`_BREAK` marks), one whitespace-normalized
    block per line, empty blocks left out."""
    text = drop_invisible("".join(parts))
    lines = (
        " ".join(line.split()) if len(line) < SUB_SLICE else normalize_whitespace(line) for line in text.split(_BREAK)
    )
    return "\n".join(line for line in lines if line)


def body_text(root) -> str:
    """The visible text of lxml tree ``root``'s body (or of the whole tree), one block per line."""
    if root is None:
        return ""
    body = root.find(".//body")
    return element_text(body if body is not None else root)


def block_text(
    nodes: list, videos: frozenset | set = frozenset(), skip: frozenset | set = frozenset(), tails: bool = True
) -> str:
    """The visible text of lexbor nodes laid out like :func:`element_text` (each node followed
    by its tail): one block (paragraph, heading, list item...) per line.

    Args:
        nodes: lexbor nodes, in order.
        videos: nodes shown as the word "VIDEO" (readability keeps video frames so).
        skip: the ``mem_id`` of elements left out with their subtrees, as if removed.
        tails: whether each node's tail (the text right after it) is its text too (``False``: an
            element's own text only, as :func:`element_text` reads an lxml element).

    Returns:
        The text (str), whitespace collapsed, empty lines dropped.
    """
    parts: list[str] = []
    append = parts.append
    pre_depth = 0
    for root in nodes:
        node = root
        depth = 0  # below the root (0: the root itself)
        while True:
            tag = node.tag
            descend = False
            if tag == "-text":
                text = (node.text_content or "").replace(_BREAK, " ")
                append(text.replace("\n", _BREAK) if pre_depth else text)
            elif tag[0] != "-" and tag not in _SKIP_TEXT_TAGS and not (skip and node.mem_id in skip):
                if tag in _BLOCK_TAGS:
                    append(_BREAK)
                if tag == "pre":
                    pre_depth += 1
                if node in videos:
                    append("VIDEO")
                descend = True
            child = node.first_child if descend else None
            if child is not None:
                node = child
                depth += 1
                continue
            # Leave this node, and every ancestor whose last child it ends, up to the root.
            while True:
                if descend:
                    if tag == "pre":
                        pre_depth -= 1
                    if tag in _BLOCK_TAGS:
                        append(_BREAK)
                if not depth:  # (the root: its siblings are not its text)
                    node = None
                    break
                nxt = node.next
                if nxt is not None:
                    node = nxt
                    break
                node = node.parent
                depth -= 1
                tag, descend = node.tag, True
            if node is None:
                break
        tail = root.next if tails else None
        while tail is not None and tail.tag == "-text":
            text = (tail.text_content or "").replace(_BREAK, " ")
            append(text.replace("\n", _BREAK) if pre_depth else text)
            tail = tail.next
    # " ".join(line.split()) is normalize_whitespace: both split on str.isspace characters.
    lines = (" ".join(line.split()) for line in drop_invisible("".join(parts)).split(_BREAK))
    return "\n".join(line for line in lines if line)
