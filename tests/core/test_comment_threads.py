"""Tests of dedup_gui.core.extraction.comment_threads: which elements are comment threads."""

from __future__ import annotations

import pytest
from selectolax.lexbor import LexborHTMLParser

from dedup_gui.core.extraction.comment_threads import is_comment_thread, lexbor_threads, lxml_threads
from dedup_gui.core.extraction.dom_text import parse_html


@pytest.mark.parametrize(
    ("tag", "class_", "id_", "expected"),
    [
        ("div", None, "comments", True),  # WordPress: <div id="comments" class="comments-area">
        ("div", "comments-area", "comments", True),
        ("section", " js_replies ", None, True),  # Kinja (Lifehacker): "replies" names comments
        ("div", None, "disqus_thread", True),
        ("ol", "comment-list", None, True),
        # The article itself: "commented" (-25) but also "post hentry" (+25), weight 0.
        ("article", "post hentry js_post_item commented", None, False),
        ("div", "post-comments", None, False),  # "post" +25, "comment" -25: weight 0
        ("div", "post-comments", "comments", True),  # the id tips it: -25
        ("body", "single comments-open", None, False),  # a state of the page, not a thread
        ("a", "comment-link", None, False),  # not a container
        ("div", "sidebar", None, False),  # negative, but names no comments
    ],
)
def test_comment_thread_rule(tag: str, class_: str | None, id_: str | None, expected: bool) -> None:
    # Readability's class weight (readability-lxml's patterns) with comment words as negative.
    assert is_comment_thread(tag, class_, id_) is expected


def test_both_parsers_find_the_same_threads() -> None:
    html = (
        "<body><article class='post hentry commented'><p>x</p></article>"
        "<DIV ID='Comments'><ol class='comment-list'><li>c</li></ol></DIV>"
        "<aside class='widget'></aside><section class='Disqus'></section></body>"
    )
    lxml_found = sorted((el.tag, el.get("id") or el.get("class")) for el in lxml_threads(parse_html(html)))
    tree = LexborHTMLParser(html)
    by_id = {node.mem_id: node for node in tree.css("*")}
    lexbor_found = sorted((by_id[m].tag, by_id[m].id or by_id[m].attributes["class"]) for m in lexbor_threads(tree))
    assert lxml_found == lexbor_found == [("div", "Comments"), ("ol", "comment-list"), ("section", "Disqus")]
