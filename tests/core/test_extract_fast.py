"""The fast extractor (``--extractor fast``): Readability's algorithm on the lexbor parser.

Each test is a small hand-made page for one rule of readability-lxml 0.9 that the port in
dedup_gui/core/extraction/readability_lexbor.py reproduces; where the test says so, the default extractor
(readability-lxml itself) gives the same text, which is the point of the port.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dedup_gui.core.extraction.extract import EXTRACTORS, extract, main_text
from dedup_gui.core.extraction.readability_lexbor import lexbor_input, readability_lexbor_text
from dedup_gui.core.model import ScanSettings

from .test_extract import ARTICLE_PAGE, ARTICLE_PARAGRAPHS, SCRIPT_STYLE_MARKERS

P = [
    (
        "The harbour authority confirmed on Tuesday that the old ferry terminal will close in March, "
        "after ninety years of service to the island."
    ),
    (
        "Passengers will move to the new pier on the east side of the bay, which has a covered waiting "
        "room, a cafe and step-free access to every boat."
    ),
    (
        "Local traders, who had asked for a later date, said the council had promised a shuttle bus "
        "between the two piers for the first summer."
    ),
]
ARTICLE = "".join(f"<p>{p}</p>" for p in P)
COMMENT = (
    "<p>Comment {i}: I have taken this ferry every week for years, and I will miss the old "
    "terminal, its clock, and its benches.</p>"
)


def page(body: str) -> str:
    return f"<!DOCTYPE html><html><head><title>t</title></head><body>{body}</body></html>"


def fast(html: str) -> list[str]:
    return readability_lexbor_text(html).split("\n")


def default(html: str) -> list[str]:
    return main_text(html)[0].split("\n")


def test_fast_is_an_extractor_choice() -> None:
    # the default first (ScanSettings().extractor): --help and the window list them in this order
    assert list(EXTRACTORS) == ["fast", "readability", "resiliparse"]
    assert ScanSettings().extractor == "fast"
    with pytest.raises(ValueError, match="unknown extractor"):
        main_text("<p>x</p>", "lexbor")


def test_article_page_same_as_readability() -> None:
    found = extract(ARTICLE_PAGE, extractor="fast")
    # The heading and the three paragraphs, one per line; no navigation, sidebar, footer,
    # script or style - exactly what readability-lxml gives (test_main_text_of_article_page).
    assert found.main_text.split("\n") == ["River cleanup draws hundreds", *ARTICLE_PARAGRAPHS]
    assert found.notes == ()
    for marker in SCRIPT_STYLE_MARKERS:
        assert marker not in found.main_text


def test_comment_section_longer_than_the_article_is_dropped() -> None:
    html = page(f'<div class="story">{ARTICLE}</div><div class="comments">' + "".join(
        COMMENT.format(i=i) for i in range(8)) + "</div>")  # fmt: skip
    # Eight comments outweigh the three paragraphs, but "comments" names an unlikely candidate,
    # which the first ("ruthless") pass removes before scoring.
    assert fast(html) == P == default(html)


def test_second_pass_keeps_an_unlikely_block_when_it_is_all_there_is() -> None:
    html = page(f'<div class="remark">{ARTICLE}</div>')
    # The ruthless pass drops the only block ("remark" is unlikely) and finds nothing; the
    # second pass, without that rule, finds the article.
    assert fast(html) == P == default(html)


def test_hidden_and_display_none_elements_never_count() -> None:
    filler = "paragraph text that is long enough to count for scoring."
    html = page(f'<article>{ARTICLE}<p hidden>HIDDEN {filler}</p><p style="color: red; display: none">NONE {filler}'
                f'</p><p style="visibility:hidden !important">INVISIBLE {filler}</p></article>')  # fmt: skip
    assert fast(html) == P == default(html)


def test_cookie_banner_longer_than_the_article_is_dropped() -> None:
    banner = "We use cookies to improve your experience, and partners use them too. " * 20
    html = page(f'<div class="cookie-consent">{banner}</div><div role="dialog"><p>{banner}</p></div>'
                f"<article>{ARTICLE}</article>")  # fmt: skip
    # The overlays of extract.drop_overlays (class word "cookie...", role=dialog) go first.
    assert fast(html) == P == default(html)


def test_div_without_blocks_scores_as_a_paragraph() -> None:
    html = page('<div class="x">' + "".join(f"<div>{p}</div>" for p in P) + "</div><div><div>Short one.</div></div>")
    # readability turns a <div> holding only text into a <p>; the three score for their parent.
    assert fast(html) == P == default(html)


def test_loose_text_between_line_breaks_scores() -> None:
    html = page(
        '<div id="post"><h3>Ferry</h3>' + "<br><br>".join(P) + '</div><ul><li><a href="/a">A link</a></li></ul>'
    )
    # The text beside the <h3> is wrapped in paragraphs by readability and scores for the div.
    assert fast(html) == ["Ferry", *P] == default(html)


def test_siblings_of_the_best_block() -> None:
    html = page(
        f'<div><div class="a"><p>{P[0]}</p><p>{P[1]}</p></div><p>It closes at noon. </p>'
        '<p><a href="/x">Read more about the ferries of the island and their long history here</a></p>'
        f'<div class="b"><p>{P[2]}</p></div></div>'
    )
    # <body> scores highest here (readability gives it the id "readabilityBody", a positive
    # name), so the whole body is the article, the link paragraph included.
    assert fast(html) == [P[0], P[1], "It closes at noon.",
                          "Read more about the ferries of the island and their long history here", P[2]]  # fmt: skip
    assert fast(html) == default(html)


def test_segments_of_one_article_are_joined_in_page_order() -> None:
    html = page(
        f'<div class="page"><div class="w1"><div class="article-text"><p>{P[0]}</p><p>{P[1]}</p></div></div>'
        '<div class="ad-slot"><p>Buy shoes now, today only, at half the usual price, while stocks last.</p></div>'
        f'<div class="w2"><div class="article-text"><p>{P[2]}</p></div></div></div>'
    )
    # The second "article-text" block is a segment of the same article: it joins the best one;
    # the advertisement between them does not.
    assert fast(html) == P == default(html)


def test_standfirst_and_h2_preamble_are_kept() -> None:
    standfirst = '<p class="standfirst">Ninety years of ferries end in March.</p>'
    lead = page(f'<article>{standfirst}<div class="body">{ARTICLE}</div></article>')
    assert fast(lead) == ["Ninety years of ferries end in March.", *P] == default(lead)
    heading = page(f'<div><h2>Terminal to close after ninety years</h2><div class="story">{ARTICLE}</div></div>')
    assert fast(heading) == ["Terminal to close after ninety years", *P] == default(heading)


def test_video_iframe_is_video_other_iframes_go() -> None:
    html = page(f'<article>{ARTICLE}<iframe src="https://www.youtube.com/embed/abc"></iframe>'
                '<iframe src="https://ads.example.com/x">AD FRAME</iframe></article>')  # fmt: skip
    # readability keeps YouTube and Vimeo players as the word "VIDEO".
    assert fast(html) == [*P, "VIDEO"] == default(html)


def test_link_list_inside_the_article_is_cleaned() -> None:
    links = "".join(f'<li><a href="/{i}">{t}</a></li>' for i, t in enumerate(["Ferry timetable", "New pier", "Fees"]))
    html = page(f"<article>{ARTICLE}<ul>{links}</ul><form><p>{P[0]}</p></form></article>")
    # The list is all links (link density 1 > 0.25) and forms always go.
    assert fast(html) == P == default(html)


def test_pre_keeps_its_lines() -> None:
    html = page(f"<article>{ARTICLE}<pre>line one\n  line two</pre></article>")
    assert fast(html) == [*P, "line one", "line two"] == default(html)


def test_best_block_in_a_form_gives_way_to_an_article_of_list_items() -> None:
    letter = "<p>Subscribe to our weekly letter {i} for news from the harbour and the pier.</p>"
    items = "".join(f"<li>{p}</li>" for p in P)
    html = page('<form class="newsletter"><div>' + "".join(letter.format(i=i) for i in range(2)) + "</div></form>"
                f"<article><ul>{items}</ul></article>")  # fmt: skip
    # List items are not scored paragraphs, so the newsletter's <div> scores highest (10.4);
    # but it sits in a <form>, and the <article> scores 20.1 with its list items (5 for the tag,
    # 4.4 + 5.4 + 5.3 for the items): the article's text is the main text.
    assert fast(html) == P == default(html)


def test_chinese_article() -> None:
    paragraphs = [
        "港务局周二证实，旧渡轮码头将于三月关闭，结束九十年的服务。乘客将转到海湾东侧的新码头，那里有带顶棚的候船室。",
        "当地商户曾要求推迟日期，他们说，议会已承诺在第一个夏天开通两个码头之间的穿梭巴士。",
    ]
    article = "".join(f"<p>{p}</p>" for p in paragraphs)
    html = page(f'<div class="nav"><a href="/">首页</a></div><div class="wrap"><article>{article}</article></div>')
    assert fast(html) == paragraphs == default(html)
    # Directly under <body>, the article's grandparent is the body, which readability favours
    # (it names it "readabilityBody"): then the whole body is the article, the menu included.
    bare = page(f'<div class="nav"><a href="/">首页</a></div><article>{article}</article>')
    assert fast(bare) == ["首页", *paragraphs] == default(bare)


def test_frameset_page_falls_back_to_the_document() -> None:
    html = ('<html><head><title>Larkmoor Wheelers</title></head><frameset cols="50%,50%"><frame src="a.html">'
            "</frameset></html>")  # fmt: skip
    # No <body>: readability reads the whole document, which is only the title.
    assert readability_lexbor_text(html) == "Larkmoor Wheelers" == main_text(html)[0]


@pytest.mark.parametrize("html", ["", "   ", "<html></html>", "<p>", "\x00\x00"])
def test_empty_pages(html: str) -> None:
    assert main_text(html, "fast") == ("", ())


def test_no_article_falls_back_to_the_whole_text_with_a_note() -> None:
    rows = "<tr><td>Posted by anna: fixed</td></tr><tr><td>Reply by ben: thanks, yes</td></tr>"
    html = f"<html><body><table>{rows}</table></body></html>"
    found = extract(html, extractor="fast")
    # Cells under 25 characters score nothing: as with readability, the whole visible text.
    assert found.main_text == "Posted by anna: fixed\nReply by ben: thanks, yes"
    assert found.notes == ("fast found no article: the main text is the whole visible text",)


def test_deep_nesting_and_nul_bytes() -> None:
    sentence = "Deep text is here and it has enough words to count as the main text."
    html = "<html><body>" + "<div>" * 400 + f"<p>{sentence}</p>" + "</div>" * 400 + "</body></html>"
    # 400 levels: the walks are iterative, so neither Python's recursion limit nor a parser
    # depth limit cuts the text.
    assert extract(html, extractor="fast").main_text == sentence
    assert readability_lexbor_text(page(ARTICLE.replace("Tuesday", "Tues\x00day"))).split("\n") == P


def test_a_huge_paragraph_is_extracted_whole() -> None:
    words = " ".join(f"word{i:06d}" for i in range(300_000))
    assert readability_lexbor_text(page(f"<article><p>{words}</p></article>")) == words


def test_labelled_pairs_macro_f1_with_the_fast_extractor(shared_dir: Path) -> None:
    from dedup_gui.core.evaluation.evaluate import evaluate, read_labels, score_labeled_pairs
    from dedup_gui.core.model import ScanSettings

    labels_csv = shared_dir / "pairs" / "labels.csv"
    settings = ScanSettings(workers=1, extractor="fast", use_cache=False)
    scored = score_labeled_pairs(read_labels(labels_csv), labels_csv.parent, settings=settings)
    assert all(not s.error for s in scored)
    # Measured 0.930, the default's figure (README, "Accuracy"); the goal is within 0.02 of it.
    assert evaluate(scored).macro_f1 >= 0.91


@pytest.mark.parametrize("extractor", ["readability", "fast"])
def test_token_count_looks_past_the_first_4096_characters(extractor: str) -> None:
    # extract() counts tokens in the first 4096 characters first and reads on only when they
    # hold too few: here they hold one word, and the seven after it make the 8 a main text
    # needs, so the article stays the main text (no fall-back to the whole page with the menu).
    paragraph = "x" * 5000 + " and then eight more words follow here"
    html = page(f'<nav><a href="/">Home</a> <a href="/news">News</a></nav><article><p>{paragraph}</p></article>')
    found = extract(html, extractor=extractor)
    assert (found.main_text, found.notes) == (paragraph, ())
    # One word fewer is too few: the last resort, the whole text of the page's <article> (its
    # marked main content: main_element), not the menu, with a note.
    short = html.replace(" here", "")
    found = extract(short, extractor=extractor)
    assert found.main_text == paragraph.replace(" here", "")
    assert found.notes == (f"{extractor} found no article: the main text is the whole text of the page's <article>",)


HEADS = [
    '<title>  Hello \n   World </title><meta property="og:title" content="OG">',  # <title> wins
    '<title> </title><meta name="og:title" content="From meta name">',  # blank <title>: og:title
    '<link rel="canonical" href="../b/c.html"><meta property="og:url" content="https://example.org/og/">',
    '<link rel="alternate canonical" href="https://example.org/c/"><meta property="og:url" content="x">',
    '<meta property="og:url" content="https://example.org/og/">',
    '<link rel="canonical" href="javascript:void(0)">',
    "",
]


@pytest.mark.parametrize("head", HEADS)
@pytest.mark.parametrize("saved_from", ["", "<!-- saved from url=(0022)https://example.org/a/ -->\n"])
def test_fast_takes_title_and_url_from_its_own_parse_by_the_same_rules(head: str, saved_from: str) -> None:
    # The fast extractor reads the title and URL from its lexbor tree (one parse, not two): the
    # rules of page_title and page_url must give the same answers as on lxml's tree.
    html = f"{saved_from}<!DOCTYPE html><html><head>{head}</head><body>{ARTICLE}</body></html>"
    found, reference = extract(html, extractor="fast"), extract(html)
    assert (found.title, found.url) == (reference.title, reference.url)


def test_fast_parses_an_ordinary_page_once(monkeypatch) -> None:
    import dedup_gui.core.extraction.extract as extract_module

    parsed = []
    real = extract_module.parse_html
    monkeypatch.setattr(extract_module, "parse_html", lambda text: parsed.append(1) or real(text))
    html = page("<table><tr><td>" + ARTICLE + "</td></tr></table>")
    found = extract(html, extractor="fast")
    assert parsed == []  # lxml is not used at all: lexbor gives everything
    # lexbor builds the tree as a browser does, with the implied <tbody> (libxml2 adds none)
    assert found.tag_sequence == ("html", "head", "title", "body", "table", "tbody", "tr", "td", "p", "p", "p")
    assert extract(html).tag_sequence == ("html", "head", "title", "body", "table", "tr", "td", "p", "p", "p")
    assert found.main_text == "\n".join(P)


def test_depth_bound_without_parsing() -> None:
    from dedup_gui.core.extraction.extract import may_nest_deeper_than

    assert not may_nest_deeper_than("<div>" * 5, 5)  # 5 tags cannot nest 6 deep
    assert may_nest_deeper_than("<div>" * 6, 5)
    assert not may_nest_deeper_than("<div></div>" * 100, 5)  # 100 siblings: depth 1
    assert may_nest_deeper_than("<div>" * 6 + "</div>" * 6, 5)  # closed only at the end
    assert may_nest_deeper_than("<br>" * 6, 5)  # void elements count as opened: an upper bound
    assert not may_nest_deeper_than("<!-- -->" * 6 + "< 1" * 6, 5)  # no letter after "<": no tag
    assert not may_nest_deeper_than("<p>深</p>" * 10, 5)  # non-ASCII text is fine


def test_depth_bound_ignores_end_tags_in_comments_scripts_and_at_depth_zero() -> None:
    from dedup_gui.core.extraction.extract import may_nest_deeper_than

    deep = "<div>" * 6
    # a tester hid end tags in a comment before a deep page: they close nothing
    assert may_nest_deeper_than("<!-- " + "</a>" * 6 + " -->" + deep, 5)
    assert may_nest_deeper_than("<script>var s = '" + "</a>" * 6 + "';</script>" + deep, 5)
    assert may_nest_deeper_than("</a>" * 6 + deep, 5)  # stray end tags at depth 0
    assert may_nest_deeper_than("</ " * 6 + deep, 5)  # "</" and no letter: no end tag
    assert not may_nest_deeper_than("<script>" + "<div>" * 6 + "</script><p>x</p>", 5)  # script text
    assert not may_nest_deeper_than("<!--" + "<div>" * 6 + "-->", 5)


@pytest.mark.parametrize(
    "prefix",
    [
        "<!-- a --!>",  # "--!>" ends a comment too
        "<!-->",  # a whole (empty) comment
        "<!--->",
        "<noscript></noscript>",  # markup, not raw text, for a parser without scripting
        "<script-x></script-x>",  # a custom element, not <script>
    ],
)
def test_depth_bound_follows_the_html5_comment_and_raw_text_rules(prefix: str) -> None:
    # A tester's prefixes that the first rules read as a comment or script running to the end,
    # hiding every <div> after them.
    from dedup_gui.core.extraction.extract import may_nest_deeper_than

    assert may_nest_deeper_than(prefix + "<div>" * 6, 5)
    assert not may_nest_deeper_than(prefix + "<div></div>" * 6, 5)


def test_lexbor_input_is_the_text_without_nuls_as_selectolax_encodes_it():
    # The parser gets the same bytes as before, when the text's NULs were dropped first and
    # selectolax encoded it (errors="ignore": a lone surrogate is dropped).
    for text in ["<p>a\x00b</p>", "\x00", "", "<p>\u00e9\u4e2d\ud800x</p>", "no nul"]:
        assert lexbor_input(text) == text.replace("\x00", "").encode("utf-8", "ignore")
    page = f"<html><body>{ARTICLE}</body></html>"
    with_nuls = page.replace("<p>", "<p>\x00").replace("island", "is\x00land")
    assert main_text(with_nuls, "fast") == main_text(page, "fast")
    assert main_text(" \x00\n\x00 ", "fast") == ("", ())


def test_overlays_removed_before_the_unlikely_test_are_subtracted_once():
    # The menu (an unlikely candidate) holds the page's only paragraph but less than a fifth of
    # the text left once the consent dialog is gone (202 of 1,060 characters): it goes, as it
    # went when the body was measured again.  The dialog is found three times (by its role, and
    # twice for its class and id) and holds another overlay: subtracting it more than once, or
    # its inner overlay too, would shrink the body to under 300 characters and keep the menu.
    menu = "Menu words " * 22 + "end."
    body_text = "<span>Body text without paragraphs, one sentence after another, all of it readable.</span> " * 13
    dialog = "Please accept our cookies and subscribe to the newsletter today, it is free. " * 6
    page = (
        f'<html><body><div class="menu"><p>{menu}</p></div><div>{body_text}</div>'
        f'<div role="dialog" class="modal" id="m"><div class="modal-content" id="c">{dialog}</div></div></body></html>'
    )
    text = readability_lexbor_text(page)
    assert "Menu words" not in text and "cookies" not in text
    assert text.startswith("Body text without paragraphs") and len(text) == 1013
