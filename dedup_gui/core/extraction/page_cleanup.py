"""What a page's markup says is not its content: overlays, and the furniture of an article.

Two kinds of element are taken out around main-content extraction, for both extractors
(readability-lxml on lxml's tree, and the lexbor port of :mod:`.readability_lexbor`):

- **Overlays** (cookie banners, consent dialogs, modals, pop-ups), before extraction: they can
  hold more text than a short article, and Readability then takes them for it.  An overlay is
  named so by a class/id word (``cookie-notice``, ``modal-dialog``, ``popup``) or by its role
  (``role="dialog"``/``"alertdialog"``, ``aria-modal="true"``).  A word that only says a
  container's *state* (``modal-enabled``, ``modal-open``, ``cookies-accepted``: classes that
  scripts put on the element that shows a modal, often the article's own container) does not
  make an overlay, and no element that holds most of the page's paragraphs and most of its
  text is ever an overlay: it holds the article, and a reader that removed it would show almost
  nothing.  (A cookie banner longer than a short article is one block of text, or a few.)
- **Furniture** of the article, after extraction, from the extracted article only: captions
  and image credits (``<figcaption>``, class/id words caption, credit), promos, "related"
  boxes, newsletter boxes, share bars and ad labels (class/id words promo, related, newsletter,
  share, social, ad...), and elements hidden from readers (``aria-hidden="true"``), each only
  when it is short (:data:`FURNITURE_MAX_CHARS`), so that article text named oddly stays; and
  lines that are only a user-interface label ("Advertisement", "toggle caption", "DON'T MISS").
  Readability.js treats ``aria-hidden`` elements as invisible too (``_isProbablyVisible``).
  Larger **boxes** go too, up to :data:`BOX_MAX_SHARE` of the article's text: ``<aside>`` and
  ``<footer>`` elements (Readability.js's ``_prepArticle`` removes them from its article),
  "related" boxes (``jp-relatedposts``, ``relatedArticles``: Readability.js's
  ``unlikelyCandidates`` names them) and author boxes (class/id words author, bio:
  Readability.js takes the byline out as metadata); a box that holds most of the article is
  the article and stays.
"""

from __future__ import annotations

import re
from functools import lru_cache

from lxml import etree

# A class or id word that starts so names an overlay: "cookie-notice", "modal-dialog", "popup".
OVERLAY_PREFIXES = ("cookie", "consent", "gdpr", "cmp-", "modal", "popup", "pop-up", "newsletter-popup",
                    "newsletter-modal", "subscribe-modal", "subscribe-popup")  # fmt: skip
# Parts of such a word that say a state of the element, not what it is ("modal-enabled").
_STATE_PARTS = frozenset(
    "active accepted allowed closed dismissed disabled enabled given hidden init initialized "
    "loaded on off open opened ready shown visible".split()
)
_PARTS = re.compile(r"[-_]+")
# Every name that is_overlay_name accepts holds one of these (lower case): most names hold none,
# and one search in C answers for them.
_OVERLAY_HINT = re.compile(r"cookie|consent|gdpr|cmp|modal|popup|pop-up")
#: An element holding more than this share of the page's text and of its paragraphs (blocks of
#: :data:`PARAGRAPH_CHARS` or more) is never removed as an overlay.
MOST_OF_PAGE = 0.5
PARAGRAPH_CHARS = 25  # Readability's shortest scored paragraph
#: The blocks that count as paragraphs (the innermost ones).
PARAGRAPH_TAGS = ("p", "pre", "li", "blockquote", "td", "dd")
#: Furniture longer than this (characters other than whitespace) is left in place.
FURNITURE_MAX_CHARS = 250
# Class/id word parts (split at "-", "_" and lower-to-upper case changes) that name furniture.
_FURNITURE_PARTS = frozenset(
    "ad ads advert adverts advertisement advertising caption captions credit credits newsletter "
    "promo promos promotion share sharing social".split()
)
#: A box (aside, footer, "related" or author box) is left in place when it holds more than this
#: share of the article's text (characters other than whitespace), or more than
#: :data:`FURNITURE_MAX_CHARS` when the article is short.
BOX_MAX_SHARE = 0.3
_BOX_TAGS = frozenset({"aside", "footer"})
# Class/id word parts that name a box; a part that starts with "related" ("relatedposts") too.
_BOX_PARTS = frozenset("author authors bio related".split())
# Parts that make the word a flag about the element ("o-section--has-ads", "no-caption").
_FLAG_PARTS = _STATE_PARTS | {"has", "is", "no", "with", "without"}
_CAMEL = re.compile(r"([a-z0-9])([A-Z])")
# Lines that are only a label of the page's interface (compared lower case, ends stripped of
# punctuation, typographic apostrophes made straight).
_LABEL_LINES = frozenset({
    "ad", "advertisement", "advertising", "sponsored", "sponsored content", "skip advertisement",
    "story continues below advertisement", "continue reading the main story", "toggle caption",
    "hide caption", "show caption", "enlarge this image", "don't miss", "do not miss", "read more",
    "continue reading", "share this article", "share this", "share", "copy link", "like this",
})  # fmt: skip
_LABEL_TRIM = " \t.,:;!?…-–—|•·»«>"
# Labels of the taxonomy and counter lines that blogs and CMSs print under a post ("Tags: a, b",
# "Categories: News", "Filed under: ...", "Aufrufe: 1120"), lower case, in a few languages.
_META_LABELS = frozenset({
    "tags", "tagged", "tagged with", "tagged as", "category", "categories", "filed under", "posted in",
    "topics", "keywords", "views", "schlagwörter", "schlagworte", "stichwörter", "stichworte",
    "kategorie", "kategorien", "aufrufe", "étiquettes", "catégories", "catégorie", "mots-clés",
    "etiquetas", "categorías", "categoría", "tag", "etichette", "categorie",
})  # fmt: skip
# "label: value", the label one to three words.
_FIELD = re.compile(r"^\s*([^\W\d][\w'’.-]*(?:\s+[\w'’.-]+){0,2})\s*:(?:\s|$)")
#: A trailing meta line longer than this (characters) is text, and stays.
META_LINE_MAX_CHARS = 200


@lru_cache(maxsize=1 << 16)
def is_overlay_name(names: str) -> bool:
    """Whether an element's "id class" string names an overlay: a word that starts with one of
    :data:`OVERLAY_PREFIXES` (or is ``cmp``) and has no part that names a state.

    Args:
        names: the id and class attribute values joined by a space.

    Returns:
        bool.

    Example:
        >>> is_overlay_name("x cookie-banner"), is_overlay_name("box article modal-enabled")
        (True, False)
    """
    lowered = names.lower()
    if _OVERLAY_HINT.search(lowered) is None:
        return False
    for word in lowered.split():
        parts = _PARTS.split(word)
        if word == "cmp" or (word.startswith(OVERLAY_PREFIXES) and not _STATE_PARTS.intersection(parts)):
            return True
        # a namespaced modal ("vjs-modal-overlay", "c-modal"): "modal" as a later part of the word
        if "modal" in parts[1:] and _FLAG_PARTS.isdisjoint(parts):
            return True
    return False


@lru_cache(maxsize=1 << 16)
def furniture_kind(names: str) -> int:
    """What an element's "id class" string names: 2 a box (:data:`_BOX_PARTS`, or a part that
    starts with "related"), 1 other furniture (:func:`is_furniture_name`), 0 neither; a word
    with a flag part (has, is, no, with, or a state) names nothing.

    Example:
        >>> furniture_kind("jp-relatedposts"), furniture_kind("TestReport__AuthorBox"), furniture_kind("credit")
        (2, 2, 1)
    """
    kind = 0
    if not names.islower():  # (a string without capitals has no camel case to split)
        names = _CAMEL.sub(r"\1-\2", names)
    for word in names.lower().split():
        parts = _PARTS.split(word) if "-" in word or "_" in word else (word,)
        if not _FLAG_PARTS.isdisjoint(parts):
            continue
        if not _BOX_PARTS.isdisjoint(parts) or any(part.startswith("related") for part in parts):
            return 2
        if not _FURNITURE_PARTS.isdisjoint(parts):
            kind = 1
    return kind


def is_furniture_name(names: str) -> bool:
    """Whether an element's "id class" string names article furniture or a box: a word with a
    part in the furniture words (caption, credit, promo, related, newsletter, share, social,
    ad...) or the box words (author, byline, bio), and none that makes it a flag (has, is, no,
    with, or a state like open, enabled); :func:`furniture_kind` says which.

    Example:
        >>> is_furniture_name("toggle-caption"), is_furniture_name("photoCredit"), is_furniture_name("has-ads")
        (True, True, False)
    """
    return furniture_kind(names) > 0


def is_label_line(line: str) -> bool:
    """Whether a line of main text is only an interface label ("Advertisement", "toggle
    caption", "DON'T MISS", "Read more")."""
    return len(line) < 40 and line.replace("\u2019", "'").strip(_LABEL_TRIM).lower() in _LABEL_LINES


def is_meta_line(line: str) -> bool:
    """Whether a line of main text is a post's metadata: a taxonomy or counter field
    (``Tags: python, docker``, ``Kategorien: News``, ``Aufrufe: 1120``: a label of
    :data:`_META_LABELS`, a colon and a value), or a chain of two or more ``label: value`` fields
    separated by ``|`` (``Aufrufe: 1120 | Hinzugefügt von: Posh | Rating: 0.0/0``), or a bar
    of three or more short ``|``-separated links (``Kommentarfeed | Kommentare geschlossen |
    Trackback-URL``); at most
    :data:`META_LINE_MAX_CHARS` characters.  (trafilatura leaves such lines out of the main text
    too; its evaluation snippets list them as not content.)

    Example:
        >>> is_meta_line("Tags: python, docker"), is_meta_line("Email: kim@example.org")
        (True, False)
    """
    if len(line) > META_LINE_MAX_CHARS:
        return False
    field = _FIELD.match(line)
    if field is None:
        return _is_link_bar(line)
    if field.group(1).lower() in _META_LABELS:
        return True
    parts = [part for part in line.split("|") if part.strip()]
    return len(parts) >= 2 and all(_FIELD.match(part) for part in parts)


#: A part of a ``|``-separated bar of a post's links: one to three words, no sentence.
_BAR_ITEM = re.compile(r"[^\W\d][\w'’.-]*(?:\s+[\w'’.-]+){0,2}")


def _is_link_bar(line: str) -> bool:
    """A bar of three or more short ``|``-separated items (``Kommentarfeed | Kommentare
    geschlossen | Trackback-URL``): the links a blog prints under a post, not its text."""
    parts = [part.strip() for part in line.split("|")]
    return len(parts) >= 3 and all(_BAR_ITEM.fullmatch(part) for part in parts)


def drop_label_lines(text: str) -> str:
    """``text`` without the lines that :func:`is_label_line` calls labels, and without the
    metadata lines (:func:`is_meta_line`) that end it."""
    lines = text.split("\n")
    kept = [line for line in lines if not is_label_line(line)]
    end = len(kept)
    while end and is_meta_line(kept[end - 1]):
        end -= 1
    if end and end < len(kept):
        kept = kept[:end]  # (a text of metadata alone stays: it is all there is)
    return text if len(kept) == len(lines) else "\n".join(kept)


def _not_articles(overlays: list, body, size, paragraphs) -> list:
    """The ``overlays`` that do not hold more than :data:`MOST_OF_PAGE` of both the ``body``'s
    text and its paragraphs, as measured by the functions ``size`` and ``paragraphs`` (the
    paragraphs only when the text does: they take longer to count)."""
    if not overlays:
        return []
    total = size(body)
    page_paragraphs = None
    out = []
    for el in overlays:
        if size(el) > MOST_OF_PAGE * total:
            if page_paragraphs is None:
                page_paragraphs = paragraphs(body)
            if paragraphs(el) > MOST_OF_PAGE * page_paragraphs:
                continue
        out.append(el)
    return out


def _size(text: str) -> int:
    """Characters other than whitespace."""
    return len("".join(text.split()))


class PrefixSize:
    """The size (characters other than whitespace) of a long text, counted from its start only
    as far as a comparison needs: sizes add up, so a prefix's is a lower bound of the whole's.

    Attributes:
        size: the size of the part counted so far (int).
    """

    def __init__(self, text: str):
        self._text = text
        self._counted = 0  # characters counted
        self.size = 0

    def within(self, length: int, share: float) -> bool:
        """Whether ``length <= share * size`` for the whole text's size, counting on (in
        doubling slices) only until it holds; when it does not, the whole text is counted.

        Args:
            length: the quantity compared (characters).
            share: the share of the size it may reach.

        Returns:
            bool (when False, :attr:`size` is the whole text's).
        """
        step = 4096
        while length > share * self.size and self._counted < len(self._text):
            self.size += _size(self._text[self._counted : self._counted + step])
            self._counted += step
            step *= 2
        return length <= share * self.size


# -- lxml (readability-lxml's tree) -------------------------------------------------------------


def _lxml_text(el) -> str:
    return etree.tostring(el, method="text", encoding="unicode", with_tail=False)


def lxml_size(el) -> int:
    """Characters other than whitespace in an lxml element's text, script and style text left out
    (serialised as text in C, then the scripts' and styles' text taken off: an XPath excluding
    them took 1.4 ms a page, 7 % of a documentation page's extraction)."""
    size = _size(_lxml_text(el))
    for hidden in el.iterdescendants("script", "style"):
        size -= _size(_lxml_text(hidden))
    return size


def _lxml_paragraphs(el) -> int:
    """Blocks of :data:`PARAGRAPH_CHARS` characters or more in ``el``, innermost ones only."""
    return sum(
        next(p.iterdescendants(*PARAGRAPH_TAGS), None) is None and lxml_size(p) >= PARAGRAPH_CHARS
        for p in el.iter(*PARAGRAPH_TAGS)
    )


#: The elements (in document order) that :func:`_lxml_is_overlay_name` and :func:`_lxml_furniture_kind`
#: may accept: only these carry the attributes they read.
_OVERLAY_MARKED = etree.XPath("descendant-or-self::*[@id or @class or @role or @aria-modal]")
#: Elements that may be dialogs by their ARIA role or ``aria-modal`` (few on any page).
_ARIA_MARKED = etree.XPath("descendant-or-self::*[@role or @aria-modal]")
_FURNITURE_MARKED = etree.XPath(
    "descendant::*[@id or @class or @aria-hidden or self::figcaption or self::aside or self::footer]"
)


def _lxml_is_dialog(el) -> bool:
    role = (el.get("role") or "").lower()
    return role in ("dialog", "alertdialog") or (el.get("aria-modal") or "").lower() == "true"


def _lxml_is_overlay_name(el) -> bool:
    names = f"{el.get('id') or ''} {el.get('class') or ''}"
    return len(names) > 2 and is_overlay_name(names)


def drop_overlays(root) -> int:
    """Remove cookie banners, consent dialogs, modals and pop-ups from an lxml tree, in place.

    An element is an overlay if it has ``role="dialog"``/``"alertdialog"`` or
    ``aria-modal="true"``, or an id/class word of :func:`is_overlay_name` (not "overlay" or
    "paywall": cards and paywalled articles use those for the content itself); but not if it
    holds more than :data:`MOST_OF_PAGE` of the body's text and of its paragraphs (a container
    of the article marked with a modal's class), and never ``<html>``, ``<head>`` or ``<body>``
    (some sites put ``modal-open`` on the body).

    Args:
        root: an lxml element (the document).

    Returns:
        The number of elements removed (int).
    """
    # Only elements with one of the attributes can be overlays; XPath finds them in C.
    dialogs = {el for el in _ARIA_MARKED(root) if _lxml_is_dialog(el)}
    found = [el for el in _OVERLAY_MARKED(root) if el.tag.lower() not in ("html", "body", "head")
             and (el in dialogs or _lxml_is_overlay_name(el))]  # fmt: skip
    if not found:
        return 0
    body = root.find(".//body")
    return _drop_outermost(_not_articles(found, body if body is not None else root, lxml_size, _lxml_paragraphs))


def _drop_outermost(doomed: list) -> int:
    """Drop each lxml element of ``doomed`` that is not inside another one (that one goes with
    its subtree); returns how many were dropped (int)."""
    doomed_set = set(doomed)
    removed = 0
    for el in doomed:
        if el.getparent() is not None and not any(a in doomed_set for a in el.iterancestors()):
            el.drop_tree()
            removed += 1
    return removed


def _furniture_max(kind: int, article_size: int) -> float:
    """The most characters an element of furniture ``kind`` (:func:`furniture_kind`) may hold
    to be removed from an article of ``article_size`` characters (-1: it is not furniture)."""
    if kind == 2:
        return max(FURNITURE_MAX_CHARS, BOX_MAX_SHARE * article_size)
    return FURNITURE_MAX_CHARS if kind else -1


def _lxml_furniture_kind(el) -> int:
    tag = el.tag
    if tag in _BOX_TAGS:
        return 2
    if tag == "figcaption" or (el.get("aria-hidden") or "").lower() == "true":
        return 1
    names = f"{el.get('id') or ''} {el.get('class') or ''}"
    return furniture_kind(names) if len(names) > 2 else 0


def drop_furniture(root) -> int:
    """Remove the article furniture of this module's docstring from an extracted article (an
    lxml element), in place: each furniture element whose text is at most
    :data:`FURNITURE_MAX_CHARS` characters, each box at most :data:`BOX_MAX_SHARE` of the
    article's; ``root`` itself stays.

    Returns:
        The number of elements removed (int).
    """
    found = [(el, kind) for el in _FURNITURE_MARKED(root)
             for kind in (_lxml_furniture_kind(el),) if kind]  # fmt: skip
    if not found:
        return 0
    article_size = lxml_size(root) if any(kind == 2 for _, kind in found) else 0
    return _drop_outermost([el for el, kind in found if lxml_size(el) <= _furniture_max(kind, article_size)])


# -- lexbor (the fast extractor's tree) ---------------------------------------------------------


def lexbor_size(node) -> int:
    """Characters other than whitespace in a lexbor node's text (scripts must be gone already)."""
    return _size(node.text_lexbor())


def _lexbor_paragraphs(node) -> int:
    """:func:`_lxml_paragraphs` for a lexbor node (whose ``css`` matches the node itself too)."""
    selector = ", ".join(PARAGRAPH_TAGS)
    return sum(len(p.css(selector)) == 1 and lexbor_size(p) >= PARAGRAPH_CHARS for p in node.css(selector))


def lexbor_drop_overlays(overlays: list, body) -> int | None:
    """Remove from a lexbor tree the nodes named or marked as overlays, but for those holding
    more than :data:`MOST_OF_PAGE` of the ``body``'s text and of its paragraphs (scripts and
    styles already removed), as :func:`drop_overlays`.

    Returns:
        The body's :func:`lexbor_size` once they are gone when it was measured to decide (the
        size measured less the removed overlays': sizes add up), else ``None``.
    """
    sizes: dict[int, int] = {}  # mem_id -> lexbor_size, with the overlays still in

    def size(node) -> int:
        n = sizes.get(node.mem_id)
        if n is None:
            n = sizes[node.mem_id] = lexbor_size(node)
        return n

    removed = _not_articles(overlays, body, size, _lexbor_paragraphs)
    after = None
    if body.mem_id in sizes:
        after = sizes[body.mem_id] - sum(sizes[el.mem_id] for el in _lexbor_outermost(removed, body))
    for el in removed:
        el.decompose(recursive=False)
    return after


def _lexbor_outermost(nodes: list, root) -> list:
    """The lexbor nodes in ``root``'s subtree that are not inside another of ``nodes``, each
    once (lexbor lists an element once per selector it matches)."""
    unique = {node.mem_id: node for node in nodes}
    root_id = root.mem_id
    out = []
    for node in unique.values():
        up = node.parent
        while up is not None and up.mem_id != root_id and up.mem_id not in unique:
            up = up.parent
        if up is not None and up.mem_id == root_id:
            out.append(node)
    return out


def _lexbor_furniture_kind(node) -> int:
    tag = node.tag
    if tag in _BOX_TAGS:
        return 2
    attrs = node.attributes
    if tag == "figcaption" or (attrs.get("aria-hidden") or "").lower() == "true":
        return 1
    names = f"{attrs.get('id') or ''} {attrs.get('class') or ''}"
    return furniture_kind(names) if len(names) > 2 else 0


def lexbor_furniture(nodes: list) -> list:
    """The furniture that :func:`drop_furniture` removes from an extracted article, for the
    lexbor nodes of the article (the nodes themselves stay), without removing it: the
    outermost elements to remove, in document order.

    Returns:
        The elements (list of lexbor nodes).
    """
    found = []
    for root in nodes:
        last = root.mem_id  # (the root stays; lexbor lists an element once per selector it matches)
        for el in root.css("figcaption, aside, footer, [aria-hidden], [class], [id]"):
            if el.mem_id != last:
                last = el.mem_id
                kind = _lexbor_furniture_kind(el)
                if kind:
                    found.append((el, kind))
    if not found:
        return []
    article_size = sum(map(lexbor_size, nodes)) if any(kind == 2 for _, kind in found) else 0
    doomed = [el for el, kind in found if lexbor_size(el) <= _furniture_max(kind, article_size)]
    doomed_ids = {el.mem_id for el in doomed}
    outermost = []
    for el in doomed:
        parent = el.parent
        while parent is not None and parent.mem_id not in doomed_ids:
            parent = parent.parent
        if parent is None:  # (an element inside one removed goes with it)
            outermost.append(el)
    return outermost
