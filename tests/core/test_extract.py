"""Tests of dedup_gui.core.extraction.extract on hand-made HTML: title, URL, tag sequence, main text."""

from __future__ import annotations

import pytest

from dedup_gui.core.extraction.extract import element_text, extract, page_title, page_url, parse_html, tag_sequence
from dedup_gui.core.text.tokens import tokenize

SAVED_FROM = "<!-- saved from url=(0022)https://example.org/a/ -->\n"  # 22 = len of the URL


def head_page(head: str, body: str = "<p>x</p>", prefix: str = "") -> str:
    return f"{prefix}<!DOCTYPE html><html><head>{head}</head><body>{body}</body></html>"


# --------------------------------------------------------------------------------------------
# Title
# --------------------------------------------------------------------------------------------


def test_title_from_title_element_whitespace_normalized() -> None:
    html = head_page('<title>  Hello \n   World </title><meta property="og:title" content="OG">')
    # <title> wins over og:title; runs of whitespace collapse to one space.
    assert extract(html).title == "Hello World"


def test_title_falls_back_to_og_title() -> None:
    html = head_page('<meta property="og:title" content="  Open  Graph title ">')
    assert extract(html).title == "Open Graph title"


def test_empty_title_element_falls_back_to_og_title() -> None:
    # A blank <title> is no title: og:title is used.
    html = head_page('<title> </title><meta name="og:title" content="From meta name">')
    assert page_title(parse_html(html)) == "From meta name"


def test_no_title_is_empty_string() -> None:
    assert extract(head_page("")).title == ""
    assert page_title(None) == ""


def test_cjk_title() -> None:
    assert extract(head_page("<title>网页去重 — 简介</title>")).title == "网页去重 — 简介"


# --------------------------------------------------------------------------------------------
# URL
# --------------------------------------------------------------------------------------------


def test_url_from_canonical() -> None:
    html = head_page('<link rel="canonical" href="https://example.org/canonical/">')
    assert extract(html).url == "https://example.org/canonical/"


def test_url_from_og_url() -> None:
    html = head_page('<meta property="og:url" content="https://example.org/og/">')
    assert extract(html).url == "https://example.org/og/"


def test_url_from_saved_from_comment() -> None:
    # The browser's "saved from" comment (before the doctype) gives the address.
    html = head_page("<title>t</title>", prefix=SAVED_FROM)
    assert extract(html).url == "https://example.org/a/"


def test_url_precedence_canonical_then_og_then_saved_from() -> None:
    canonical = '<link rel="canonical" href="https://example.org/canonical/">'
    og = '<meta property="og:url" content="https://example.org/og/">'
    # All three: canonical first (the site's own statement of the page's address).
    assert extract(head_page(og + canonical, prefix=SAVED_FROM)).url == "https://example.org/canonical/"
    # No canonical: og:url before the saved-from comment.
    assert extract(head_page(og, prefix=SAVED_FROM)).url == "https://example.org/og/"


def test_relative_canonical_resolved_against_saved_from() -> None:
    html = head_page('<link rel="canonical" href="../b/c.html">', prefix=SAVED_FROM)
    # urljoin("https://example.org/a/", "../b/c.html") == "https://example.org/b/c.html".
    assert extract(html).url == "https://example.org/b/c.html"
    html = head_page('<link rel="canonical" href="/root.html">', prefix=SAVED_FROM)
    assert extract(html).url == "https://example.org/root.html"


def test_relative_canonical_without_base_is_skipped() -> None:
    # Nothing to resolve against: the relative link is no address; og:url is used instead.
    html = head_page(
        '<link rel="canonical" href="/only/relative"><meta property="og:url" content="https://example.org/og/">'
    )
    assert extract(html).url == "https://example.org/og/"
    assert extract(head_page('<link rel="canonical" href="/only/relative">')).url is None


def test_non_http_urls_do_not_count() -> None:
    html = head_page('<link rel="canonical" href="javascript:void(0)">')
    assert page_url(parse_html(html), html) is None
    html = head_page("<title>t</title>", prefix="<!-- saved from url=(0021)file:///C:/page.html -->\n")
    assert page_url(parse_html(html), html) is None


def test_no_url() -> None:
    assert extract(head_page("<title>t</title>")).url is None


# --------------------------------------------------------------------------------------------
# Tag sequence
# --------------------------------------------------------------------------------------------


def test_tag_sequence_exact_for_tiny_document() -> None:
    html = "<html><head><title>T</title></head><body><div><p>a<b>b</b></p><!-- c --><br></div></body></html>"
    # Elements in document order, lower case; comments are not elements.
    assert extract(html).tag_sequence == ("html", "head", "title", "body", "div", "p", "b", "br")


def test_tag_sequence_adds_implied_elements_and_lowercases() -> None:
    # lxml's HTML parser supplies the implied <html> and <body>, as browsers do.
    assert tag_sequence(parse_html("<P>hi<BR>")) == ("html", "body", "p", "br")


def test_tag_sequence_of_nothing() -> None:
    assert tag_sequence(parse_html("")) == ()
    assert extract("").tag_sequence == ()


def _blog_page(comments: str) -> str:
    """A blog post with its comment thread: ``comments`` is the thread's inside."""
    article = "".join(f"<p>Paragraph {i} of the post, with words enough to be read as prose.</p>" for i in range(8))
    return (
        "<html><head><title>Post</title></head><body><header><nav><a href='/'>Home</a></nav></header>"
        f"<div class='main'><article class='post hentry commented'><h1>Post</h1>{article}</article>"
        f"<section class='js_replies'><div class='replies-wrapper'>{comments}</div></section>"
        f"<div id='comments' class='comments-area'>{comments}</div>"
        "</div><footer><p>Footer</p></footer></body></html>"
    )


LOADED_COMMENTS = "".join(
    f"<article class='reply'><header><img src='a.png'><a href='/u{i}'>user{i}</a></header>"
    f"<div class='body'><p>Comment number {i} says something.</p></div><ul><li>Like</li></ul></article>"
    for i in range(40)
)


@pytest.mark.parametrize("extractor", ["readability", "fast"])
def test_loaded_comments_are_no_part_of_the_layout(extractor: str) -> None:
    # A page saved after its 40 comments loaded has the layout of the same page saved before
    # they loaded: comment threads (class "js_replies", id "comments") are not in the tag
    # sequence; the article, whose class says "commented" but also "post hentry", stays.  (The
    # old code gave the loaded page 663 elements, the bare one 23, and their templates a layout
    # similarity of 0.71, barely above the 0.7 line of "same layout".)
    bare = extract(_blog_page(""), extractor=extractor)
    loaded = extract(_blog_page(LOADED_COMMENTS), extractor=extractor)
    head = ("html", "head", "title", "body", "header", "nav", "a", "div", "article", "h1")
    assert loaded.tag_sequence == bare.tag_sequence == (*head, *["p"] * 8, "footer", "p")
    assert loaded.content_span == bare.content_span == (8, 18)  # the article
    assert "Comment number 39 says something." in loaded.visible_text  # still text of the page


# --------------------------------------------------------------------------------------------
# Main text
# --------------------------------------------------------------------------------------------

ARTICLE_PARAGRAPHS = [
    "More than three hundred volunteers gathered on Saturday morning along the banks of the Mill "
    "River, armed with gloves, grabbers and a fleet of borrowed canoes, to pull a decade of litter "
    "out of the water.",
    "Organisers said the group removed nearly two tonnes of rubbish, including forty shopping "
    "trolleys, several bicycles, and, to the surprise of everyone on the north bank, an upright piano.",
    "The city council has promised to fund new bins at the three busiest footpaths, and the "
    "volunteers plan to return in the autumn, when the water is low, to reach the channels they "
    "could not get to this time.",
]
NAV_TEXTS = ["Home", "Local news", "Sport pages", "Contact the desk", "Mayor opens library", "Privacy policy"]
SCRIPT_STYLE_MARKERS = ["UA-SECRET-SCRIPT", "INLINE-SCRIPT-TEXT", "inline-style-marker", "font-family", "track()"]

ARTICLE_PAGE = f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>River cleanup draws hundreds | Springfield Gazette</title>
<style>body {{ font-family: Georgia; }} .ad {{ display: none }}</style>
<script>var trackingId = "UA-SECRET-SCRIPT"; function track() {{ return 1; }}</script>
</head>
<body>
<header><div class="logo">Springfield Gazette</div>
<nav class="menu"><ul><li><a href="/">Home</a></li><li><a href="/news">Local news</a></li>
<li><a href="/sport">Sport pages</a></li><li><a href="/contact">Contact the desk</a></li></ul></nav></header>
<div id="main"><article class="post">
<h1>River cleanup draws hundreds</h1>
<p>{ARTICLE_PARAGRAPHS[0]}</p>
<script>document.write("INLINE-SCRIPT-TEXT");</script>
<p>{ARTICLE_PARAGRAPHS[1]}</p>
<style>.inline-style-marker {{ color: red }}</style>
<p>{ARTICLE_PARAGRAPHS[2]}</p>
</article></div>
<aside class="sidebar"><h3>Most read</h3><ul><li><a href="/x">Mayor opens library</a></li>
<li><a href="/y">Bakery wins prize</a></li></ul></aside>
<footer><p>Copyright 2024 Springfield Gazette. All rights reserved.</p><a href="/privacy">Privacy policy</a></footer>
</body></html>"""


def test_main_text_of_article_page() -> None:
    found = extract(ARTICLE_PAGE)
    # Readability keeps the article (heading and its three paragraphs, one per line) and drops
    # the navigation, the sidebar and the footer.
    assert found.main_text.split("\n") == ["River cleanup draws hundreds", *ARTICLE_PARAGRAPHS]
    for nav in NAV_TEXTS:
        assert nav not in found.main_text
    assert found.notes == ()
    assert found.title == "River cleanup draws hundreds | Springfield Gazette"


def test_script_and_style_never_in_main_text_readability_path() -> None:
    text = extract(ARTICLE_PAGE).main_text
    for marker in SCRIPT_STYLE_MARKERS:
        assert marker not in text


def test_script_and_style_never_in_main_text_fallback_path() -> None:
    # A forum-like table where readability finds only the reply (the post is mostly links, and
    # too few of the page's words lie outside links for the table to be the whole article):
    # the whole visible text is used, and script, style and noscript contents are still left
    # out (their tails are kept).
    html = (
        '<html><body><table><tr><td>Posted by <a href="/u/anna">anna</a>: <a href="/r">the new release</a>'
        '<script>alert("FALLBACK-SCRIPT")</script> fixes <a href="/b">the login bug</a>.</td></tr>'
        "<tr><td><style>td { color: red }</style>Reply by ben: thanks, confirmed here too"
        "<noscript>NOSCRIPT-TEXT</noscript>.</td></tr></table></body></html>"
    )
    found = extract(html)
    assert found.main_text == (
        "Posted by anna: the new release fixes the login bug.\nReply by ben: thanks, confirmed here too."
    )
    assert found.notes == ("readability found no article: the main text is the whole visible text",)


def test_element_text_skips_script_keeps_tail_and_drops_comments() -> None:
    root = parse_html("<div>before<script>bad()</script> after<!-- hidden comment --> end</div>")
    assert element_text(root) == "before after end"


def test_element_text_one_block_per_line() -> None:
    root = parse_html("<body><h1>Title</h1><p>One <b>bold</b> word.</p><ul><li>a</li><li>b</li></ul></body>")
    assert element_text(root) == "Title\nOne bold word.\na\nb"


# Regression: a newline in the HTML source inside a paragraph is whitespace, not a break.


def test_element_text_source_newline_inside_paragraph_is_a_space() -> None:
    root = parse_html("<body><p>One <b>bold</b>\n  word.</p></body>")
    # In HTML a newline in text is whitespace: one paragraph, one line.  Actual: "One bold\nword.".
    assert element_text(root) == "One bold word."


def test_hard_wrapped_article_paragraph_stays_one_line() -> None:
    html = ARTICLE_PAGE.replace("banks of the Mill River, armed", "banks of the Mill\n      River, armed")
    # A browser renders the same page as before; the main text should be the same.  Actual: the
    # first paragraph is split after "banks of the Mill".
    assert extract(html).main_text.split("\n") == ["River cleanup draws hundreds", *ARTICLE_PARAGRAPHS]


def test_page_nested_300_elements_deep_yields_its_text() -> None:
    sentence = "Deep text is here and it has enough words to count as the main text."
    html = "<html><body>" + "<div>" * 300 + f"<p>{sentence}</p>" + "</div>" * 300 + "</body></html>"
    found = extract(html)
    # No recursion limit and no parser depth limit cut it off: the text is there, and every
    # element is in the tag sequence (html, body, 300 div, p).
    assert found.main_text == sentence
    assert len(found.tag_sequence) == 303


def test_readability_works_on_deeply_nested_article() -> None:
    nav = '<nav><a href="/">Home</a> <a href="/news">Local news</a></nav>'
    body = "".join(f"<p>{p}</p>" for p in ARTICLE_PARAGRAPHS)
    html = "<html><head><title>T</title></head><body>" + nav + "<div>" * 300 + body + "</div>" * 300 + "</body></html>"
    found = extract(html)
    # Same article as test_main_text_of_article_page, only deeper: the same main text, no nav.
    # Actual: "Home Local news" is the first line and notes says "readability found no article".
    assert found.main_text.split("\n") == ARTICLE_PARAGRAPHS
    assert found.notes == ()


def test_empty_document() -> None:
    found = extract("")
    assert (found.title, found.url, found.main_text, found.tag_sequence) == ("", None, "", ())


def test_nul_bytes_do_not_break_parsing() -> None:
    found = extract("<html><head><title>A\x00B</title></head><body><p>x</p></body></html>")
    assert found.title == "AB"


@pytest.mark.parametrize("extractor", ["fast", "resiliparse"])
def test_a_page_nested_100000_levels_deep_falls_back_to_readability(extractor) -> None:
    # A tester's page of 100,000 nested <div>s never finished with the lexbor and Resiliparse
    # extractors (their trees keep every level); lxml stops at 2048 levels, so readability is used.
    page = "<html><body>" + "<div>" * 100_000 + "<p>" + "word " * 50 + "</p>" + "</div>" * 100_000 + "</body></html>"
    result = extract(page, extractor=extractor)
    assert result.notes[0] == f"nested too deeply for {extractor} (over 2048 levels): extracted with readability"
    shallow = "<html><body><div><p>" + "word " * 50 + "</p></div></body></html>"
    assert not extract(shallow, extractor=extractor).notes  # an ordinary page keeps its extractor


@pytest.mark.parametrize("extractor", ["readability", "fast"])
def test_soft_hyphens_and_zero_width_spaces_never_split_words(extractor):
    # A German page (trafilatura's wehranlage-horka test page) hyphenates with &shy;: the main
    # text kept U+00AD, so "Wehr&shy;anlage" was two tokens and no phrase of it matched.
    words = "Die Wehr&shy;anlage bei Horka wurde im Jahr 1928 er&shy;richtet und zuletzt sa&#8203;niert. "
    html = f"<html><body><article><h1>Horka</h1><p>{words * 6}</p></article></body></html>"
    text = extract(html, extractor=extractor).main_text
    assert "Wehranlage bei Horka" in text and "errichtet" in text and "saniert" in text
    assert not any(ch in text for ch in "\u00ad\u200b\u2060\ufeff")
    assert "wehranlage" in tokenize(text)


@pytest.mark.parametrize("extractor", ["readability", "fast"])
def test_mathml_annotations_are_not_text_of_the_content_span(extractor: str) -> None:
    # A Wikipedia article (t-SNE in shared/corpus) carries each formula's TeX source in a MathML
    # <annotation> inside a hidden span, which browsers do not show and the main text leaves out.
    # Counted as page text outside the main text, the TeX outweighed the article's paragraphs,
    # and the content span was the references list alone: the same page with a few paragraphs
    # changed then had another template (layout similarity 0.2 instead of 1.0).
    prose = "The algorithm builds a probability distribution over pairs of objects and keeps neighbours close. "
    tex = (
        "{\\displaystyle p_{j\\mid i}={\\frac {\\exp(-\\lVert x_{i}-x_{j}\\rVert ^{2}/2\\sigma _{i}^{2})}{\\sum _{k}}}} "
        * 3
    )
    math = (
        "<span style='display: none'><math><semantics><mi>p</mi>"
        f"<annotation encoding='application/x-tex'>{tex}</annotation></semantics></math></span>"
    )
    refs = "".join(
        f"<li>Reference {i}: a long paper on visualising data with stochastic neighbour embedding.</li>"
        for i in range(4)
    )
    html = (
        "<html><head><title>t</title></head><body><div id='nav'><a href='/'>Home</a></div>"
        f"<div id='content'><p>{prose}</p>{math}<p>{prose}</p>{math}<div class='reflist'><ol>{refs}</ol></div></div>"
        "</body></html>"
    )
    found = extract(html, extractor=extractor)
    assert "Reference 3" in found.main_text and "displaystyle" not in found.main_text
    start, end = found.content_span
    assert found.tag_sequence[start - 1] == "a"  # div#content, right after the nav's link
    assert (start, end) == (6, len(found.tag_sequence))


def test_readability_runs_without_swapping_the_process_wide_warning_filters(monkeypatch):
    # catch_warnings() around each readability call swapped the filters of the whole process,
    # which is not thread-safe: the Methods tab extracts on a worker thread while charts, on
    # other threads, rely on their own filters.  Readability's warnings are silenced once, by
    # module, instead.
    import warnings

    from dedup_gui.core.extraction.extract import extract

    def refuse(*_args, **_kwargs):
        raise AssertionError("catch_warnings() swaps the process-wide warning filters")

    page = "<html><body><article><p>" + "A sentence of the article, long enough. " * 20 + "</p></article></body></html>"
    monkeypatch.setattr(warnings, "catch_warnings", refuse)
    assert "A sentence of the article" in extract(page, extractor="readability").main_text
    monkeypatch.undo()
    # a warning said from readability's modules (as lxml's FutureWarning is) is ignored; in a
    # fresh interpreter, as the app runs (pytest resets filters added while it collects tests)
    import subprocess
    import sys

    script = (
        "import warnings\n"
        "import dedup_gui.core.extraction.extract\n"
        "for m in ('readability.readability', 'dedup_gui.core.extraction.readability_tuning', 'other.module'):\n"
        "    warnings.warn_explicit('said by ' + m, FutureWarning, 'x.py', 1, module=m)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert [line for line in done.stderr.splitlines() if "said by" in line] == [
        "x.py:1: FutureWarning: said by other.module"
    ]


@pytest.mark.parametrize("extractor", ["readability", "fast"])
def test_a_stray_html_end_tag_does_not_end_the_page(extractor):
    # A site's included header ends in </html> before the article (a gov.cn page of
    # ../shared/pairs). libxml2 drops everything after </html>, so readability-lxml's main text
    # was the header's menu; browsers and lexbor ignore the tag and read on.
    article = "第十届全国人民代表大会常务委员会第二十八次会议，听取了财政部部长的说明，并对议案进行了审议。" * 3
    html = (
        "<html><head><title>t</title></head><body><div class='nav'><a href='/'>首页</a> | <a href='/en'>EN</a></div>"
        f"</body></HTML >\n<!--end header--><div class='content'><p>{article}</p></div></body></html>"
    )
    assert extract(html, extractor=extractor).main_text == article
    assert tag_sequence(parse_html(html))[-3:] == ("a", "div", "p")  # the menu's last link, the article
