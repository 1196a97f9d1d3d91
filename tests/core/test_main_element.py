"""The page's own main-content element (core/extraction/main_element.py) as extraction's last resort.

When Readability finds no article, the main text used to be the whole body's visible text: on a
documentation site's "404 - Not found" page that is the site's navigation menu, and every 404
page of the site became a full duplicate of the others (issue 20, shared/realsite).  A page that
marks its main content (``<main>``, narrowed to its one ``<article>``) now gets that element's
text, however short.
"""

from __future__ import annotations

import tarfile
from pathlib import Path

import pytest
from selectolax.lexbor import LexborHTMLParser

from dedup_gui.core.extraction.dom_text import parse_html
from dedup_gui.core.extraction.extract import extract
from dedup_gui.core.extraction.main_element import lexbor_main_element, lxml_main_element
from dedup_gui.core.model import ScanSettings
from dedup_gui.core.pipeline.features import page_from_bytes

# A documentation site's menu: 40 links, 80 words, none a paragraph Readability scores.
MENU = "".join(f'<li><a href="/guide/{i}/">Guide chapter {i}</a></li>' for i in range(40))
NOT_FOUND = (
    "<html><head><title>Example docs</title></head><body>"
    f'<header class="site-header"><a href="/">Example docs</a></header>'
    f'<main><nav class="sidebar"><ul>{MENU}</ul></nav>'
    "<article><h1>Page not found</h1></article></main>"
    "<footer><p>Copyright 2024 Example</p></footer></body></html>"
)


@pytest.mark.parametrize("extractor", ["fast", "readability"])
def test_a_tiny_article_beside_a_long_menu_is_the_main_text(extractor: str) -> None:
    # Readability finds no paragraph to score, so it finds no article; the page's own <article>
    # holds three words.  Before: the main text was the whole visible text, menu and all (86 tokens).
    found = extract(NOT_FOUND, extractor=extractor)
    assert found.main_text == "Page not found"
    assert found.notes == (f"{extractor} found no article: the main text is the whole text of the page's <article>",)


@pytest.mark.parametrize("extractor", ["fast", "readability"])
def test_the_tiny_page_has_no_usable_text(extractor: str) -> None:
    # Three tokens < min_tokens (8): the page takes part in no text comparison.
    settings = ScanSettings(extractor=extractor, use_cache=False)
    page = page_from_bytes("404.html", "/x/404.html", NOT_FOUND.encode(), settings)
    assert (page.has_text, page.word_count, page.main_text) == (False, 3, "Page not found")
    assert page.notes[-1] == "no usable main text (3 tokens < 8)"


@pytest.mark.parametrize("extractor", ["fast", "readability"])
def test_a_forum_table_in_main_keeps_its_posts_without_the_menu(extractor: str) -> None:
    # The last resort is still there for text Readability cannot score (cells under 25 characters), but
    # it is the <main>'s text (several articles are a list: the <main> holds them all).
    rows = "".join(f"<article><table><tr><td>user{i}: fixed it</td></tr></table></article>" for i in range(4))
    html = f"<html><body><nav><ul>{MENU}</ul></nav><main>{rows}</main></body></html>"
    found = extract(html, extractor=extractor)
    assert found.main_text == "\n".join(f"user{i}: fixed it" for i in range(4))
    assert found.notes == (f"{extractor} found no article: the main text is the whole text of the page's <main>",)


MARKED = [
    # (body, the text of the element the page marks, or None)
    ("<main><article>A</article></main>", "A"),
    ("<div role='Main'><p>R</p></div><aside><article>Teaser</article></aside>", "R"),  # role, any case
    ("<article>A<article>Comment</article></article>", "AComment"),  # a nested article is part of it
    ("<main>M<article>A</article><article>B</article></main>", "MAB"),  # several: the list's <main>
    ("<article>Outside</article><main>M</main>", "M"),  # an article outside the <main> does not count
    ("<main>A</main><main>B</main>", None),  # two mains: ambiguous
    ("<nav><main>N</main></nav><p>P</p>", None),  # a main inside a nav is not the page's
    ("<aside><article>Teaser</article></aside><p>P</p>", None),
    ("<div><p>P</p></div>", None),
    ("<main role='main'><article>A</article></main>", "A"),  # one element, listed once
]


@pytest.mark.parametrize(("body", "expected"), MARKED)
def test_both_parsers_mark_the_same_element(body: str, expected: str | None) -> None:
    html = f"<html><body>{body}</body></html>"
    node = lexbor_main_element(LexborHTMLParser(html))
    el = lxml_main_element(parse_html(html))
    assert (None if node is None else node.text()) == expected
    assert (None if el is None else el.text_content()) == expected


def test_the_real_sites_404_pages_have_no_usable_text(shared_dir: Path) -> None:
    # shared/realsite: Kube-OVN's docs (Material for MkDocs 8), whose 404 pages were reported as a
    # full duplicate (v1.10.x vs v1.11.x) and a layout duplicate (top level vs v1.10.x) with the
    # navigation menu as their main text.  The theme's article holds "404 - Not found".
    wanted = {"404.html", "v1.10.x/404.html"}  # the first two members of the archive: read quickly
    pages = {}
    with tarfile.open(shared_dir / "realsite" / "site.tar.xz") as archive:
        for member in archive:
            if member.name in wanted:
                data = archive.extractfile(member).read()
                pages[member.name] = page_from_bytes(member.name, member.name, data, ScanSettings(use_cache=False))
                if len(pages) == len(wanted):
                    break
    for page in pages.values():
        assert (page.main_text, page.has_text) == ("404 - Not found", False)
