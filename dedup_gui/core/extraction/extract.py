"""HTML text -> title, URL, main-content text and DOM tag sequence.

The main content is extracted with readability-lxml (a Python port of Arc90's Readability, the
algorithm behind Firefox's Reader View); the layout is the sequence of element names in document
order, the representation of Di Lucca, Di Penta and Fasolino ("An approach to identify duplicated
web pages", COMPSAC 2002).  Nothing is fetched and no script runs: lxml only parses.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass, replace
from urllib.parse import urljoin, urlsplit

import lxml.etree
import lxml.html
import readability.readability as _readability
from lxml_html_clean import Cleaner

from dedup_gui.core.extraction.attribute_bound import bound_attributes
from dedup_gui.core.extraction.comment_threads import lexbor_threads
from dedup_gui.core.extraction.dom_text import (  # noqa: F401  (re-exported: callers parse and walk pages through extract)
    _BLOCK_TAGS,
    _BREAK,
    _SKIP_TEXT_TAGS,
    LXML_DEPTH_LIMIT,
    _too_deep,
    block_text,
    body_text,
    element_text,
    lxml_facts,
    may_nest_deeper_than,
    parse_html,
    tag_sequence,
)
from dedup_gui.core.extraction.main_element import describe, lexbor_main_element, lxml_main_element
from dedup_gui.core.extraction.page_cleanup import drop_furniture, drop_label_lines, drop_overlays
from dedup_gui.core.extraction.readability_lexbor import LexborHTMLParser, lexbor_input, readability_lexbor_text
from dedup_gui.core.extraction.readability_tuning import TunedDocument, has_extra_commas
from dedup_gui.core.extraction.refresh import refresh_of
from dedup_gui.core.extraction.template import content_span, lexbor_outline
from dedup_gui.core.text.tokens import normalize_whitespace, tokenize

# readability-lxml cleans every page with lxml_html_clean's javascript=True, which walks every
# link of the page (3 ms of its 17 a page) to blank javascript: URLs and event handlers:
# attributes, never text, and nothing here runs or serves them.  The same cleaning without that
# step gives the same main text (checked on 914 pages: shared/corpus, shared/pairs and the real
# site of shared/realsite).
_readability.html_cleaner = Cleaner(**{**_readability.html_cleaner.__dict__, "javascript": False})

_SAVED_FROM = re.compile(r"<!--\s*saved from url=\(\d+\)\s*(\S+?)\s*-->", re.I)


# What readability-lxml's walks make lxml say (FutureWarning on an element's truth value) would
# reach the user's terminal once per page: silenced for its modules, here, once.  Not with
# catch_warnings() around each call, which swaps the process-wide filters and is not
# thread-safe (the Methods tab extracts on a worker thread while charts draw on others).
warnings.filterwarnings("ignore", module=r"(readability|dedup_gui\.core\.extraction\.readability_tuning)(\.|$)")


@dataclass(frozen=True)
class Extracted:
    """What extraction found in one page.

    Attributes:
        title: the page title, whitespace-normalized ("" if none).
        url: the page's own absolute address if the file tells it, else ``None``.
        main_text: main-content text, one paragraph per line.
        tag_sequence: element names in document order (lower case).
        notes: remarks for the user (e.g. that main-content extraction failed).
        content_span: the main-content subtree as a range of ``tag_sequence``
            (:func:`~dedup_gui.core.extraction.template.content_span`), or ``None``.
        visible_text: the whole page's visible text, one block per line (for learning the
            site's template: :mod:`dedup_gui.core.pipeline.site_template`).
        refresh: the address the page's ``<meta http-equiv="refresh">`` sends to, as written
            (:func:`~dedup_gui.core.extraction.refresh.page_refresh`; ``""`` if none): a
            client-side redirect.
        refresh_delay: the seconds that refresh waits (float; 0.0 without one).
    """

    title: str
    url: str | None
    main_text: str
    tag_sequence: tuple[str, ...]
    notes: tuple[str, ...] = ()
    content_span: tuple[int, int] | None = None
    visible_text: str = ""
    refresh: str = ""
    refresh_delay: float = 0.0


def page_title(root: lxml.html.HtmlElement | None) -> str:
    """The ``<title>`` text, else ``og:title``, whitespace-normalized ("" if neither)."""
    if root is None:
        return ""
    title = root.find(".//title")
    return _title_of(None if title is None else title.text_content(), _lxml_metas(root))


def page_url(root: lxml.html.HtmlElement | None, text: str) -> str | None:
    """The page's own address, from ``<link rel=canonical>``, ``og:url`` or the browser's
    ``<!-- saved from url=(NNNN)... -->`` comment, in that order; relative canonical links are
    resolved against the saved-from address.  Only http(s) addresses count.

    Returns:
        An absolute URL (str) or ``None``.
    """
    if root is None:
        return _url_of([], [], text)
    links = [(link.get("rel"), link.get("href")) for link in root.iter("link")]
    return _url_of(links, _lxml_metas(root), text)


def _lxml_metas(root: lxml.html.HtmlElement) -> list[tuple[str | None, str | None]]:
    return [(meta.get("property") or meta.get("name"), meta.get("content")) for meta in root.iter("meta")]


def _title_of(title: str | None, metas: list[tuple[str | None, str | None]]) -> str:
    """The title from the ``<title>`` text, else the ``og:title`` of ``(property or name,
    content)`` pairs (the rule of :func:`page_title`, for either parser's tree)."""
    if title is not None and title.strip():
        return normalize_whitespace(title)
    for key, content in metas:
        if (key or "").lower() == "og:title":
            return normalize_whitespace(content or "")
    return ""


def _url_of(links: list[tuple[str | None, str | None]], metas: list[tuple[str | None, str | None]],
            text: str) -> str | None:  # fmt: skip
    """The address of :func:`page_url` from ``(rel, href)`` of the ``<link>`` elements and
    ``(property or name, content)`` of the ``<meta>`` elements, for either parser's tree."""
    saved = _SAVED_FROM.search(text[:8192])
    saved_url = saved.group(1) if saved else None
    found: list[str] = []
    for rel, href in links:
        if "canonical" in (rel or "").lower().split() and href:
            found.append(href.strip())
    for key, content in metas:
        if (key or "").lower() == "og:url" and content:
            found.append(content.strip())
    if saved_url:
        found.append(saved_url)
    for url in found:
        try:
            if saved_url and not url.lower().startswith(("http://", "https://")):
                url = urljoin(saved_url, url)
            if url.lower().startswith(("http://", "https://")) and urlsplit(url).hostname:
                return url
        except ValueError:  # "https://[oops/": a malformed address is no address
            continue
    return None


def lexbor_page_facts(tree) -> tuple[str, list, list]:
    """What :func:`extract` takes from lxml's tree besides the outline, from a lexbor tree
    instead (the ``fast`` extractor parses each page once, with lexbor; the tag sequence comes
    from :func:`~dedup_gui.core.extraction.template.lexbor_outline`).

    Args:
        tree: a ``selectolax.lexbor.LexborHTMLParser`` not yet changed by extraction.

    Returns:
        ``(title, links, metas)``: the title as :func:`page_title` finds it; the ``(rel, href)``
        of each ``<link>`` and ``(property or name, content)`` of each ``<meta>`` for
        :func:`_url_of`.
    """
    metas = [(m.attributes.get("property") or m.attributes.get("name"), m.attributes.get("content"))
             for m in tree.css("meta")]  # fmt: skip
    links = [(n.attributes.get("rel"), n.attributes.get("href")) for n in tree.css("link")]
    title_node = tree.css_first("title")
    title = _title_of(None if title_node is None else title_node.text(), metas)
    return title, links, metas


#: The main-content extractors: name -> one-line description (for --help and the GUI).
#: Speeds are per page against readability-lxml; F1 is the macro-F1 on ../shared/pairs (README).
EXTRACTORS = {
    "fast": "Readability's algorithm on the lexbor HTML5 parser (selectolax): the default; as accurate as "
    "readability-lxml, about 6x faster",
    "readability": "readability-lxml (Arc90 Readability) on lxml: as accurate, slower",
    # Per whole page (what a scan runs: also title, URL, tag sequence) as for "fast": README's
    # extractor speed table, 5.9x to 6.2x readability-lxml's (its main text alone: about 9x).
    "resiliparse": "Resiliparse main-content extraction: less accurate (keeps comments, menus); "
    "about 6x faster than readability-lxml per page, as fast is",
}


def resiliparse_text(text: str) -> str:
    """Main-content text with Resiliparse (Bevendorff et al., "Elastic ChatNoir", ECIR 2018;
    the ``resiliparse`` package), one paragraph per line."""
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.html import HTMLTree

    plain = extract_plain_text(HTMLTree.parse(text), main_content=True, alt_texts=False, list_bullets=False)
    lines = (normalize_whitespace(line) for line in plain.splitlines())
    return "\n".join(line for line in lines if line)


def main_text(text: str, extractor: str = "readability", tree=None) -> tuple[str, tuple[str, ...]]:
    """Main-content text of a page with readability-lxml (or another of :data:`EXTRACTORS`).

    ``"readability"`` is readability-lxml on lxml's tree after
    :func:`~dedup_gui.core.extraction.page_cleanup.drop_overlays`, with the corrections of
    :class:`~dedup_gui.core.extraction.readability_tuning.TunedDocument`, and the article's furniture
    (captions, credits, promos, labels: :mod:`~dedup_gui.core.extraction.page_cleanup`) taken out;
    ``"fast"`` is the same algorithm on the lexbor parser
    (:func:`dedup_gui.core.extraction.readability_lexbor.readability_lexbor_text`); ``"resiliparse"`` is
    :func:`resiliparse_text`.

    Args:
        text: decoded HTML of the whole page.
        extractor: a key of :data:`EXTRACTORS`.
        tree: ``text`` already parsed with :func:`parse_html`, for readability, which changes it
            (``None``: parsed here).

    Returns:
        ``(main_text, notes)``: the text (one paragraph per line, "" if none) and remarks
        (e.g. why extraction failed).

    Raises:
        ValueError: ``extractor`` is not a key of :data:`EXTRACTORS`.  (Errors of the
            extractors themselves become a note, never an exception.)
    """
    if extractor == "fast":  # (lexbor_input drops the NULs)
        if _blank(text):
            return "", ()
        try:
            return readability_lexbor_text(text), ()
        except Exception as exc:  # a bad page must not stop the scan
            return "", (f"main-content extraction failed ({type(exc).__name__}: {exc})",)
    clean = text.replace("\x00", "")
    if not clean or clean.isspace():  # (not clean.strip(), without copying the page)
        return "", ()
    if extractor == "resiliparse":
        try:
            return resiliparse_text(clean), ()
        except Exception as exc:  # a bad page must not stop the scan
            return "", (f"main-content extraction failed ({type(exc).__name__}: {exc})",)
    if extractor != "readability":
        raise ValueError(f"unknown extractor {extractor!r}: use one of {', '.join(EXTRACTORS)}")
    # readability parses strings without huge_tree (libxml2 then stops at 256 levels of
    # nesting), so it gets a tree parsed here.
    if tree is None:
        tree = parse_html(clean)
    if tree is None:
        return "", ()
    drop_overlays(tree)
    try:
        summary = TunedDocument(tree, other_commas=has_extra_commas(clean)).summary(html_partial=True)
    except Exception as exc:  # readability raises its own Unparseable and lxml errors
        return "", (f"main-content extraction failed ({type(exc).__name__}: {exc})",)
    root = parse_html(summary)
    if root is None:
        return "", ()
    body = root.find(".//body")
    article = body if body is not None else root
    drop_furniture(article)
    return drop_label_lines(element_text(article)), ()


def _blank(text: str) -> bool:
    """Whether ``text`` is empty or whitespace once its NUL characters are dropped (``not
    text.replace("\\x00", "").strip()``, without a pass over a page that starts with markup)."""
    head = text[:256].lstrip()
    if head and head[0] != "\x00":
        return False
    return not text.replace("\x00", "").strip()


def _has_tokens(text: str, n: int) -> bool:
    """Whether ``text`` has at least ``n`` tokens (:func:`tokenize`), without tokenizing all of
    a long text: a prefix never has more tokens than the whole (a word cut at its end is still
    one word of the whole)."""
    return len(tokenize(text[:4096])) >= n or (len(text) > 4096 and len(tokenize(text)) >= n)


def extract(text: str, min_tokens: int = 8, extractor: str = "readability") -> Extracted:
    """Title, URL, main text and tag sequence of a decoded HTML page.

    When the extractor finds no article (fewer than ``min_tokens`` tokens) but the page has
    visible text, the whole visible text of the body is the main text, with a note saying so:
    a page of text that readability cannot score (forum posts, tables) is still compared.  A page
    that marks its main content (its ``<main>``, narrowed to its one ``<article>``:
    :mod:`~dedup_gui.core.extraction.main_element`) gets that element's whole text instead, however
    short: a "404 - Not found" article then has no usable text, not the site's navigation menu.

    ``"fast"`` parses the page once, with lexbor, for everything (:func:`lexbor_page_facts`);
    the others take the title, URL and tag sequence from lxml's tree.  Every extractor gets the
    page with its tags cut to their first 1,000 attributes
    (:func:`~dedup_gui.core.extraction.attribute_bound.bound_attributes`, with a note if any was).

    Args:
        text: the decoded HTML.
        min_tokens: the fewest tokens a usable main text has.
        extractor: the main-content extractor, a key of :data:`EXTRACTORS`.

    Returns:
        :class:`Extracted`.

    Raises:
        ValueError: ``extractor`` is not a key of :data:`EXTRACTORS`.
    """
    # Before any parse: a tag with 300,000 attributes would take the parsers minutes.
    text, notes = bound_attributes(text)
    root = None
    if extractor == "resiliparse" or (extractor == "fast" and may_nest_deeper_than(text, LXML_DEPTH_LIMIT)):
        root = parse_html(text)
        if _too_deep():
            # The lexbor and Resiliparse trees keep every level, and parsing or extraction slows
            # to a halt on a page nested 100,000 levels deep; lxml stops at its depth limit.
            notes += (
                f"nested too deeply for {extractor} (over {LXML_DEPTH_LIMIT} levels): extracted with readability",
            )
            extractor = "readability"
    if extractor == "fast":
        fast = _extract_fast(text, min_tokens)
        if fast is not None:
            return replace(fast, notes=(*notes, *fast.notes)) if notes else fast
        # lexbor failed on the page: lxml's tree, and the note main_text gives
    if root is None:
        root = parse_html(text)
    # Everything taken from the tree before readability changes it: then readability gets this
    # tree, not a second parse of the page.
    title, url = page_title(root), page_url(root, text)
    refresh, delay = ("", 0.0) if root is None else refresh_of((m.get("http-equiv"), m.get("content"))
                                                               for m in root.iter("meta"))  # fmt: skip
    tags, parents, texts, visible = lxml_facts(root)
    content, more = main_text(text, extractor, root if extractor == "readability" else None)
    content, found_notes = _whole_text_if_no_article(
        visible, content, min_tokens, extractor, lambda: _lxml_marked_text(parse_html(text))
    )
    return Extracted(
        title=title,
        url=url,
        main_text=content,
        tag_sequence=tags,
        notes=(*notes, *more, *found_notes),
        content_span=content_span(parents, texts, content) if content else None,
        visible_text=visible,
        refresh=refresh,
        refresh_delay=delay,
    )


def _whole_text_if_no_article(
    visible: str, content: str, min_tokens: int, extractor: str, marked: Callable[[], tuple[str, str] | None]
) -> tuple[str, tuple[str, ...]]:
    """``content``, or (with a note) when ``content`` has fewer than ``min_tokens`` tokens and
    the page's whole ``visible`` text has enough: the whole text of the element the page marks
    as its main content (``marked()``: ``(its name for the note, its text)``, ``None`` if the
    page marks none), else ``visible``.  (``marked`` parses the page again: extraction has
    changed the tree, and only these few pages need it.)"""
    if _has_tokens(content, min_tokens) or not _has_tokens(visible, min_tokens):
        return content, ()
    found = marked()
    if found is None:
        return visible, (f"{extractor} found no article: the main text is the whole visible text",)
    name, whole = found
    return whole, (f"{extractor} found no article: the main text is the whole text of the page's {name}",)


def _lxml_marked_text(root) -> tuple[str, str] | None:
    """``(name, text)`` of the element lxml tree ``root`` marks as its main content, or ``None``."""
    el = lxml_main_element(root)
    if el is None:
        return None
    return describe(el.tag.lower(), (el.get("role") or "").strip().lower()), element_text(el)


def _lexbor_marked_text(text: str) -> tuple[str, str] | None:
    """``(name, text)`` of the element page ``text`` marks as its main content (parsed with
    lexbor), or ``None``."""
    node = lexbor_main_element(LexborHTMLParser(lexbor_input(text)))
    if node is None:
        return None
    name = describe(node.tag, (node.attributes.get("role") or "").strip().lower())
    return name, block_text([node], tails=False)


def _extract_fast(text: str, min_tokens: int) -> Extracted | None:
    """:func:`extract` with ``"fast"`` on one lexbor parse; ``None`` if lexbor fails on the
    page (the caller then extracts as before, and says why)."""
    if _blank(text):
        return Extracted(title="", url=_url_of([], [], text), main_text="", tag_sequence=())
    try:
        tree = LexborHTMLParser(lexbor_input(text))
        title, links, metas = lexbor_page_facts(tree)
        refresh, delay = refresh_of((m.attributes.get("http-equiv"), m.attributes.get("content"))
                                    for m in tree.css("meta"))  # fmt: skip
        tags, parents, texts = lexbor_outline(tree.root, lexbor_threads(tree))  # before extraction changes the tree
        visible = block_text([tree.body]) if tree.body is not None else ""
        content = readability_lexbor_text(text, tree)
    except Exception:  # a bad page must not stop the scan
        return None
    notes: tuple[str, ...] = ()
    if not _has_tokens(content, min_tokens):  # rare: the whole visible text, as the others
        try:
            content, notes = _whole_text_if_no_article(
                visible, content, min_tokens, "fast", lambda: _lexbor_marked_text(text)
            )
        except Exception:  # a bad page must not stop the scan
            return None
    span = content_span(parents, texts, content) if content else None
    return Extracted(title=title, url=_url_of(links, metas, text), main_text=content, tag_sequence=tags, notes=notes,
                     content_span=span, visible_text=visible, refresh=refresh,
                     refresh_delay=delay)  # fmt: skip
