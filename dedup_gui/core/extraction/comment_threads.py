"""Comment threads: the readers' comments under an article, left out of the page's layout.

A page saved after its comments loaded has hundreds or thousands more elements than the same page
saved before (a Lifehacker save in ``shared/pairs`` has 1,279 elements of comments, its twin 43):
their tag sequences then differ although the template is the same.  The layout measure
(:mod:`dedup_gui.core.extraction.template`) therefore leaves comment threads out of the tag
sequence, as Readability leaves them out of the main content.

An element is a comment thread the way Readability (Arc90; readability-lxml's ``class_weight``
and unlikely-candidate patterns) recognizes one: a container (:data:`THREAD_TAGS`) whose ``class``
or ``id`` names comments (:data:`COMMENT_WORDS`: ``comment``, ``disqus``, ``replies``...) and
whose class weight is negative: each of ``class`` and ``id`` counts -25 when it matches
Readability's negative pattern or a comment word and +25 when it matches its positive pattern.
So ``<div id="comments">`` and ``<section class="js_replies">`` are threads, and
``<article class="post hentry commented">`` (the article itself, +25 - 25) is not.
"""

from __future__ import annotations

import re

from readability.readability import REGEXES

#: The containers a comment thread is built of (never ``<html>``, ``<body>`` or ``<main>``, whose
#: classes may name the page's comment state, as WordPress's ``comments-open``).
THREAD_TAGS = frozenset({"div", "section", "aside", "article", "ol", "ul"})
#: Words of ``class`` / ``id`` that name comments (Readability's unlikely-candidate words for them).
COMMENT_WORDS = re.compile(r"comment|disqus|repl(?:y|ies)", re.I)
#: A CSS selector (lexbor) for the elements whose ``class`` or ``id`` hold a comment word.
COMMENT_SELECTOR = ", ".join(
    f"{tag}[{attr}*={word} i]"
    for tag in sorted(THREAD_TAGS)
    for attr in ("class", "id")
    for word in ("comment", "disqus", "repl")
)
_POSITIVE = REGEXES["positiveRe"]
_NEGATIVE = REGEXES["negativeRe"]


def is_comment_thread(tag: str, class_: str | None, id_: str | None) -> bool:
    """Whether an element is a comment thread (the rule of the module docstring).

    Args:
        tag: the element's name, lower case.
        class_: its ``class`` attribute (``None`` if absent).
        id_: its ``id`` attribute (``None`` if absent).

    Returns:
        bool.
    """
    if tag not in THREAD_TAGS:
        return False
    named = False
    weight = 0
    for feature in (class_, id_):
        if not feature:
            continue
        comment = COMMENT_WORDS.search(feature) is not None
        named |= comment
        if comment or _NEGATIVE.search(feature):
            weight -= 25
        if _POSITIVE.search(feature):
            weight += 25
    return named and weight < 0


def lxml_threads(root) -> set:
    """The outermost and nested comment threads of an lxml tree (a set of its elements; an
    element's proxy stays the same while this set holds it, so ``el in threads`` works during a
    walk of the tree).

    Args:
        root: an lxml tree (``lxml.html.HtmlElement``), or ``None``.
    """
    if root is None:
        return set()
    return {
        el
        for el in root.iter(*THREAD_TAGS)
        if (el.get("class") or el.get("id")) and is_comment_thread(el.tag.lower(), el.get("class"), el.get("id"))
    }


def lexbor_threads(tree) -> set[int]:
    """The ``mem_id`` of each comment thread of a lexbor tree (selectolax), found with lexbor's
    C selector engine.

    Args:
        tree: a ``selectolax.lexbor.LexborHTMLParser``.
    """
    found: set[int] = set()
    for node in tree.css(COMMENT_SELECTOR):
        attrs = node.attributes
        if is_comment_thread(node.tag.lower(), attrs.get("class"), attrs.get("id")):
            found.add(node.mem_id)
    return found
