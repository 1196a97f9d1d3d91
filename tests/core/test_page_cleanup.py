"""Overlays and article furniture (dedup_gui/core/extraction/page_cleanup.py), in both extractors.

Each page is small and hand-made for one failure of issue 15 seen on a real page; the same text
is expected from the default extractor (readability-lxml) and from ``fast`` (the lexbor port).
"""

from __future__ import annotations

import pytest
from selectolax.lexbor import LexborHTMLParser

from dedup_gui.core.extraction.dom_text import block_text
from dedup_gui.core.extraction.extract import extract
from dedup_gui.core.extraction.page_cleanup import (
    PrefixSize,
    drop_label_lines,
    is_furniture_name,
    is_label_line,
    is_meta_line,
    is_overlay_name,
    lexbor_furniture,
)

from .test_extract_fast import ARTICLE, P

EXTRACTORS = ["readability", "fast"]


def page(body: str) -> str:
    return f"<!DOCTYPE html><html><head><title>t</title></head><body>{body}</body></html>"


def trending(n: int) -> str:
    items = "".join(
        f'<li><a href="/t{i}">Trending story {i}</a><p>A summary of trending story {i}, which everyone, it seems, '
        "is reading today.</p></li>"
        for i in range(n)
    )
    return f'<div class="trending"><h3>Trending now</h3><ul>{items}</ul></div>'


def lines(html: str, extractor: str) -> list[str]:
    return extract(html, extractor=extractor).main_text.split("\n")


def test_overlay_names_are_what_an_element_is_not_its_state() -> None:
    assert is_overlay_name("cookie-banner") and is_overlay_name("x modal-dialog") and is_overlay_name("cmp")
    assert is_overlay_name("popupOverlay") and is_overlay_name("gdpr_notice")
    # Classes that scripts put on the element that shows a modal (often the article's own
    # container, or the body) say its state: not an overlay.
    for names in ("box article modal-enabled", "modal-open", "cookies-accepted", "popup-active", "has-modal"):
        assert not is_overlay_name(names), names


@pytest.mark.parametrize("extractor", EXTRACTORS)
def test_a_namespaced_modal_inside_the_article_leaves_it(extractor: str) -> None:
    # A video player's caption-settings dialog (<div class="vjs-text-track-settings
    # vjs-modal-overlay">), inside the article: "modal" is the second part of the class word.
    # Its "Text Color White Black ... Reset Done" stayed in the main text.
    settings = (
        '<div class="vjs-caption-settings vjs-modal-overlay"><span>Captions Settings Dialog</span>'
        "<p>Text Color White Black Red Green Blue Yellow Magenta Cyan Transparency Opaque Semi-Opaque</p>"
        "<p>Font Size 50% 75% 100% 125% 150% 175% 200% 300% 400% Reset restore all settings Done</p></div>"
    )
    html = page(f"<article><h1>Ferry</h1>{ARTICLE.replace('</p>', '</p>' + settings, 1)}</article>")
    assert lines(html, extractor) == ["Ferry", *P]
    assert is_overlay_name("vjs-modal-overlay") and is_overlay_name("c-modal")
    assert not is_overlay_name("c-modal-open") and not is_overlay_name("no-modal")


@pytest.mark.parametrize("extractor", EXTRACTORS)
def test_article_container_with_a_modal_state_class_is_not_an_overlay(extractor: str) -> None:
    # A New York Post page: the article's container is <div class="box article modal-enabled">.
    # Its "modal" word made it an overlay, so it was removed, and a list of trending stories
    # became the main text (two articles of the site were then full duplicates).
    html = page(f'<div class="box article modal-enabled"><h1>Ferry</h1>{ARTICLE}</div>{trending(8)}')
    assert lines(html, extractor) == ["Ferry", *P]


@pytest.mark.parametrize("extractor", EXTRACTORS)
def test_an_overlay_named_element_holding_most_of_the_page_is_the_article(extractor: str) -> None:
    # "modal" names an overlay, but this one holds three of the page's five paragraphs and most
    # of its text: a reader that removed it would show the trending box alone.  (A cookie banner
    # longer than the article is still removed: it is one block, not most of the paragraphs;
    # test_hostile_input.)
    html = page(f'<div id="site"><div id="reader" class="modal"><h1>Ferry</h1>{ARTICLE}</div>{trending(2)}</div>')
    assert lines(html, extractor) == ["Ferry", *P]


def test_furniture_names_and_label_lines() -> None:
    for names in ("toggle-caption", "credit", "photoCredit", "podcast-promo", "newsletter-signup", "share-bar",
                  "related_links", "ad-slot", "wp-caption-text"):  # fmt: skip
        assert is_furniture_name(names), names
    # Flags and words that merely contain a furniture word are not furniture.
    for names in ("o-section--has-ads", "no-caption", "header", "shadow", "shared-content", "loaded"):
        assert not is_furniture_name(names), names
    assert is_label_line("Advertisement") and is_label_line("DON’T MISS") and is_label_line("toggle caption")
    assert not is_label_line("Read more about the ferries of the island here")
    assert drop_label_lines("A\nADVERTISEMENT\nB") == "A\nB"


@pytest.mark.parametrize("extractor", EXTRACTORS)
def test_captions_credits_promos_and_labels_leave_the_main_text(extractor: str) -> None:
    # Lines of an NPR-like page that kept a page and its clean copy apart: an image credit, the
    # caption toggle, a podcast promo, a newsletter box, "Advertisement", "DON'T MISS", a share
    # label hidden from screen readers.  A long block in an element named "share-..." is
    # article text and stays: only short furniture goes.
    long_block = ("The ferry company said the new timetable, " * 8).strip()
    html = page(
        f"<article><h1>Ferry</h1><p>{P[0]}</p>"
        '<figure><img src="pier.jpg"><figcaption>The new pier. Photo: Jane Doe/Getty Images</figcaption></figure>'
        '<div class="credit-caption"><span class="caption-text">The old terminal in 1950.</span>'
        '<b class="toggle-caption">toggle caption</b></div>'
        f"<p>{P[1]}</p><p>Advertisement</p>"
        '<div class="podcast-promo"><p>Listen to Short Wave on Spotify, Apple Podcasts and Google Podcasts.</p></div>'
        '<p class="newsletter-signup">Get the island news in your inbox every morning.</p>'
        "<p>DON'T MISS</p>"
        '<span aria-hidden="true">Share this story</span>'
        f'<p>{P[2]}</p><div class="share-wrapper"><p>{long_block}</p></div></article>'
    )
    assert lines(html, extractor) == ["Ferry", *P, long_block]


@pytest.mark.parametrize("extractor", EXTRACTORS)
def test_asides_footers_related_and_author_boxes_leave_the_main_text(extractor: str) -> None:
    # Boxes seen inside real articles (a WordPress post's Jetpack "related" box with excerpts, a
    # review's author box, a news page's table-of-contents aside, a "filed under" footer): each
    # is longer than a caption (over 250 characters, so the short-furniture rule keeps it) but a
    # small part of the article, and a person cutting out the article leaves it out.
    # Readability.js removes <aside> and <footer> from its article and names "related" boxes
    # unlikely candidates.
    excerpt = "The harbour authority opened a consultation on the future of the old ferry terminal building. "
    related = "".join(f"<p><a href='/r{i}'>Related story {i}</a></p><p>{excerpt}</p>" for i in range(3))
    long_p = ("The ferry company said the new timetable starts in spring, with more boats at weekends. " * 12).strip()
    html = page(
        f"<article><h1>Ferry</h1>{ARTICLE}"
        "<aside class='toc'><p>In this article: the terminal, the pier, the timetable, and what the "
        "passengers said about the move to the new pier on the east side of the bay.</p></aside>"
        f"<p>{long_p}</p>"
        f"<div id='jp-relatedposts' class='jp-relatedposts'><h3>Related</h3>{related}</div>"
        "<div class='TestReport__AuthorBox'><p>Jane Doe is the island correspondent of the paper. "
        "She has covered the harbour, the ferries and the island council for twenty years, and before "
        "that she wrote about shipping for a trade magazine. She lives in the old town with two cats "
        "and a boat that rarely leaves the harbour.</p></div>"
        "<footer><p>Filed under: Island, Ferries, Harbour, Transport, Council, Timetables, Travel</p></footer>"
        "</article>"
    )
    assert lines(html, extractor) == ["Ferry", *P, long_p]


@pytest.mark.parametrize("extractor", EXTRACTORS)
def test_lead_paragraph_before_the_body_block_joins_the_article(extractor: str) -> None:
    # A standfirst set apart from the body, one level out (dw.com's p.intro beside the div that
    # wraps the body; psl.eu's "chapo" block): readability keeps long paragraphs beside its best
    # block, not one beside the block's parent, and the lead was lost.  Empty boxes between
    # (a share bar, a picture frame) do not separate it.
    lead = (
        "The island council has voted to keep the old ferry terminal as a museum. Building work "
        "starts next year and is paid for by the harbour fund."
    )
    html = page(
        "<div class='col'><h1>Ferry terminal</h1>"
        "<p class='byline'>Island Post | 04.05.2015 at 13h36 | by Jane Doe and the island desk team</p>"
        f"<p class='intro'>{lead}</p><div class='share'></div><div class='pic'><img src='a.jpg'></div>"
        f"<div class='group'><div class='longText'>{ARTICLE}</div></div>"
        "<div class='group'><h4>More</h4><a href='/x'>Another story</a></div></div>"
    )
    assert lines(html, extractor) == [lead, *P]
    # A summary box ("Summary:", "摘要：") repeats the article (a teaser): not a lead.
    assert lines(html.replace(lead, f"Summary: {lead}"), extractor) == P


def test_trailing_taxonomy_and_field_lines_are_not_article_text() -> None:
    # "Tags: ..." and "Categories: ..." under a post (pluralsight.com), and a chain of
    # "label: value" fields (schleifen.ucoz.de) are the CMS's metadata; trafilatura's evaluation
    # lists them as not content.  A field line inside the text, or one that is not metadata
    # ("Email: ...", a product's "Lieferbar: 12 ml, 125 ml"), stays.
    text = "Tags: intro\nBody text.\nLieferbar: 12 ml, 125 ml\nTags: python, docker\nCategories: practices"
    assert drop_label_lines(text) == "Tags: intro\nBody text.\nLieferbar: 12 ml, 125 ml"
    assert drop_label_lines("Body.\nAufrufe: 1120 | Hinzugefügt von: Posh | Rating: 0.0/0") == "Body."
    assert drop_label_lines("Body.\nEmail: kim@example.org") == "Body.\nEmail: kim@example.org"
    assert drop_label_lines("Tags: python") == "Tags: python"  # nothing else: it is all there is


@pytest.mark.parametrize("extractor", EXTRACTORS)
def test_trailing_meta_lines_leave_both_extractors(extractor: str) -> None:
    html = page(f"<article><h1>Ferry</h1>{ARTICLE}<p>Tags: ferries, harbour, island</p>"
                "<p>Categories: Transport</p></article>")  # fmt: skip
    assert lines(html, extractor) == ["Ferry", *P]


def test_furniture_found_without_removing_it_and_the_text_without_it() -> None:
    # lexbor_furniture names the outermost furniture (the caption inside the promo box goes with
    # it) and removes nothing; block_text leaving it out gives the text that removing it gives.
    # (The fast extractor reads the article's text once so, and again with the furniture only
    # when the text is short enough to make readability retry.)
    page = (
        "<body><div id='a'><p>First paragraph of the article, long enough.</p>"
        "<figure><img src='x.jpg'><figcaption>Photo: someone</figcaption></figure>"
        "<div class='promo'>Subscribe <span class='credit'>now</span></div>"
        "<p>Second<b>paragraph</b> with <i>words</i>.</p></div>tail</body>"
    )
    tree = LexborHTMLParser(page)
    nodes = [tree.css_first("#a")]
    found = lexbor_furniture(nodes)
    assert [el.tag for el in found] == ["figcaption", "div"]
    with_it = block_text(nodes)
    assert with_it == (
        "First paragraph of the article, long enough.\nPhoto: someone\nSubscribe now\nSecondparagraph with words.\ntail"
    )
    without = block_text(nodes, skip={el.mem_id for el in found})
    assert block_text(nodes) == with_it  # nothing removed yet
    for el in found:
        el.decompose(recursive=False)
    assert (
        without
        == block_text(nodes)
        == "First paragraph of the article, long enough.\nSecondparagraph with words.\ntail"
    )


def test_prefix_size_counts_only_as_far_as_the_comparison_needs() -> None:
    # 10,000 words of 4 letters: 40,000 characters other than whitespace.  A length of 100 is
    # within a fifth of it after the first slice; 8,000 needs the whole text, and 8,001 is not
    # within it (the whole counted: size is the text's).  Sizes add up across slices that cut
    # words: the result is the whole text's size whatever the slices.
    text = "word " * 10_000
    prefix = PrefixSize(text)
    assert prefix.within(100, 0.2) and prefix.size == 3_277  # the first 4,096 characters: 819 words and a "w"
    assert prefix.within(8_000, 0.2) and prefix.size == 40_000
    assert not prefix.within(8_001, 0.2) and prefix.size == 40_000
    spaced = PrefixSize(" a" * 3_000 + "  ")
    assert not spaced.within(601, 0.2) and spaced.size == 3_000


def test_a_blog_posts_link_bar_and_like_this_heading_leave_the_end_of_the_main_text():
    # The labelled pair g0159 (a German blog post) ended its main text with
    # "Tags: Bilt, Cent, Eimsbüttel / Kommentarfeed | Kommentare geschlossen | Trackback-URL /
    # Like this:": the link bar and WordPress's "Like this:" heading kept the tags line in too.
    text = (
        "Gut investierte 20 Cent, wenn auch das Bilt kein Meisterwerk war!\n"
        "Tags: Bilt, Cent, Eimsbüttel\n"
        "Kommentarfeed | Kommentare geschlossen | Trackback-URL\n"
        "Like this:"
    )
    assert drop_label_lines(text) == "Gut investierte 20 Cent, wenn auch das Bilt kein Meisterwerk war!"
    # a sentence with bars in it, and a two-item line, are text
    assert not is_meta_line("We went to Paris | then on to Rome | and then home again to rest.")
    assert not is_meta_line("Paris | Rome")
