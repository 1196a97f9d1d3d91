"""The element a page itself marks as its main content: its ``<main>``, narrowed to its ``<article>``.

When Readability finds no article (:func:`dedup_gui.core.extraction.extract.extract`'s last
resort), the main text is the whole text of this element rather than of the whole body.
Readability (readability-lxml, Readability.js) takes the body as its last resort because a page
of text it cannot score (forum posts, a table) is still text; but a page that marks its main
content says where that text is.  A documentation theme's "404 - Not found" page is the case in
point: its article holds three words, and the body's text is the site's navigation menu, which
Readability never takes for an article (it drops menus as unlikely candidates and as link lists).

The rule follows the HTML Living Standard (WHATWG, "4.3.1 The article element", "4.4.14 The
main element"; WAI-ARIA's ``role="main"`` landmark): ``<main>`` "represents the dominant
contents of the document" and there is at most one that is not hidden; ``<article>`` is "a
complete, or self-contained, composition".  So:

1. the page's main element is its one ``<main>`` (or ``role="main"`` element), the outermost if
   they nest; none if it has none or several (an ambiguous page keeps the body);
2. within it (or within the body, if there is none), the one outermost ``<article>``, if there
   is exactly one (several articles are a list of posts: the main element holds them all);
3. elements inside ``<nav>``, ``<aside>``, ``<header>`` or ``<footer>`` never count (the standard
   does not allow a ``<main>`` there, and an ``<article>`` there is a teaser or a widget).

The rule is the same for lexbor (selectolax) and lxml trees (:func:`lexbor_main_element`,
:func:`lxml_main_element`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

_Node = TypeVar("_Node")

#: Sectioning elements whose content is never the page's main content.
_NOT_MAIN = frozenset({"nav", "aside", "header", "footer"})
#: The CSS selector of the candidates (lexbor), in document order.
_CANDIDATES = "main, [role=main i], article"


def _marked_main(
    candidates: Sequence[_Node], tag: Callable[[_Node], str], role: Callable[[_Node], str],
    parent: Callable[[_Node], _Node | None], key: Callable[[_Node], object],
) -> _Node | None:  # fmt: skip
    """The rule of the module docstring over one parser's nodes.

    Args:
        candidates: the page's ``<main>``, ``<article>`` and ``role`` elements, in document order.
        tag: an element's lower-case tag name.
        role: an element's ``role`` attribute, lower case (``""`` if none).
        parent: an element's parent (``None`` at the root).
        key: what tells two elements apart (lexbor's ``mem_id``: its ``==`` compares serialized HTML).

    Returns:
        The marked element, or ``None`` when the page marks none (or several).
    """

    def is_main(node: _Node) -> bool:
        return tag(node) == "main" or role(node) == "main"

    def ancestors(node: _Node):
        up = parent(node)
        while up is not None:
            yield up
            up = parent(up)

    mains, articles = [], []
    for node in candidates:
        if is_main(node):
            mains.append(node)
        elif tag(node) == "article":
            articles.append(node)
    scope, outer = None, []
    if mains:
        outer = [m for m in mains if not any(is_main(a) or tag(a) in _NOT_MAIN for a in ancestors(m))]
        if len(outer) != 1:
            return None  # several main elements (or only ones in a nav, aside...): ambiguous
        scope = key(outer[0])
    inside = []
    for art in articles:
        above = list(ancestors(art))
        if any(tag(a) == "article" or tag(a) in _NOT_MAIN for a in above):
            continue  # a nested article (a comment) or a teaser in a sidebar
        if scope is None or any(key(a) == scope for a in above):
            inside.append(art)
    if len(inside) == 1:
        return inside[0]
    return outer[0] if outer else None


def lexbor_main_element(tree):
    """The element ``tree`` marks as its main content (the rule of the module docstring).

    Args:
        tree: a ``selectolax.lexbor.LexborHTMLParser``.

    Returns:
        A ``LexborNode``, or ``None`` when the page marks none (or several).
    """
    seen: set[int] = set()
    nodes = []
    for node in tree.css(_CANDIDATES):  # (lexbor lists an element once per selector it matches)
        if node.mem_id not in seen:
            seen.add(node.mem_id)
            nodes.append(node)
    return _marked_main(
        nodes,
        lambda n: n.tag,
        lambda n: (n.attributes.get("role") or "").strip().lower(),
        lambda n: n.parent,
        lambda n: n.mem_id,
    )


def lxml_main_element(root):
    """The element lxml tree ``root`` marks as its main content (the rule of the module docstring).

    Args:
        root: an ``lxml.html`` tree (:func:`~dedup_gui.core.extraction.dom_text.parse_html`), or ``None``.

    Returns:
        An ``lxml.html.HtmlElement``, or ``None`` when the page marks none (or several).
    """
    if root is None:
        return None
    return _marked_main(
        root.xpath("//main | //*[@role] | //article"),
        lambda el: el.tag.lower() if isinstance(el.tag, str) else "",
        lambda el: (el.get("role") or "").strip().lower(),
        lambda el: el.getparent(),
        lambda el: el,
    )


def describe(tag: str, role: str) -> str:
    """How a note names the marked element: ``<main>``, ``<article>`` or ``<div role="main">``."""
    return f"<{tag}>" if tag in ("main", "article") else f'<{tag} role="{role}">'
