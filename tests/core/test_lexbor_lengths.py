"""The candidates' text and link lengths gathered in one pass equal measuring each candidate."""

from __future__ import annotations

from itertools import product

from selectolax.lexbor import LexborHTMLParser

from dedup_gui.core.extraction.lexbor_lengths import EMPTY, clean_len, concat, gather, summarize, summary_len

# Pieces that meet at word boundaries, inside words, and at whitespace of several kinds
# (no-break space, ideographic space): every concatenation of two or three of them.
PIECES = ["", " ", "\n\t", "ab", "a b", " ab", "ab ", "\xa0", "x\u3000y", "  c  "]


def test_summaries_compose_exactly():
    # The length of a concatenation follows from its parts' summaries, whatever the parts.
    for parts in [*product(PIECES, repeat=2), *product(PIECES, repeat=3)]:
        summary = EMPTY
        for part in parts:
            summary = concat(summary, summarize(part))
        whole = "".join(parts)
        assert summary == summarize(whole), parts
        assert summary_len(summary) == clean_len(whole) == len(" ".join(whole.split())), parts


def test_clean_len():
    assert clean_len("  two\n\n words ") == 9
    assert clean_len(" \t") == 0


PAGE = """<html><head><title>T</title></head><body>
<p>Directly in the body, so that html is a candidate too: <a href="/1">a link</a>, more words.</p>
<div id="main"> lead <!-- a comment --><span>in</span>line
  <div class="post"><p>First paragraph, long enough to score, with <a href="/2">two</a>
  <a href="/3">links</a> in it.</p><p>Second<b>word</b>joined paragraph text of some length.</p>
  <ul><li><a href="/4">a list link</a></li></ul><svg><a href="/5"><text>svg link</text></a></svg></div>
  <div class="empty"><p> </p></div>
</div>
<nav><a href="/6">menu link outside every candidate</a></nav>
</body></html>"""


def _candidates(tree):
    """Parents and grandparents of the paragraphs, as readability takes them."""
    found = {}
    for p in tree.body.css("p"):
        for node in (p.parent, p.parent.parent):
            found[node.mem_id] = node
    return list(found.values())


def test_gather_equals_measuring_each_candidate():
    tree = LexborHTMLParser(PAGE)
    candidates = _candidates(tree)
    assert "html" in {c.tag for c in candidates}  # (the case where the body is not the top)
    known = {p.mem_id: summarize(p.text()) for p in tree.body.css("p")}
    gathered = gather(candidates, tree.body, known)
    for node in [*candidates, tree.body]:
        assert gathered.lengths[node.mem_id] == clean_len(node.text()), node.tag
    with_text = [c for c in candidates if clean_len(c.text())]
    inside_body = [c for c in with_text if c.tag != "html"]
    for node in inside_body:
        expected = sum(clean_len(a.text()) for a in node.css("a"))
        assert gathered.links[node.mem_id] == expected, node.attributes
    # Each link once, counted in the body's total (before the fix, the body's subtree was
    # walked twice when html was a candidate, and every link counted twice).
    body_links = sum(clean_len(a.text()) for a in tree.body.css("a"))
    assert gathered.links[tree.body.mem_id] == body_links == 66
    # Links outside every candidate with text are not measured; those inside are, each once.
    menu = tree.css_first("nav a")
    assert menu.mem_id in gathered.link_lengths  # (html is a candidate with text: all are inside)
    assert len(gathered.link_lengths) == 6


def test_links_outside_candidates_are_not_measured():
    tree = LexborHTMLParser(PAGE)
    post = tree.css_first("div.post")
    candidates = [post, post.parent]
    gathered = gather(candidates, tree.body, {})
    menu = tree.css_first("nav a")
    assert menu.mem_id not in gathered.link_lengths
    assert sorted(gathered.link_lengths.values()) == [3, 5, 8, 11]
    assert tree.body.mem_id not in gathered.links  # not inside a candidate: left to measure
    assert gathered.links[post.mem_id] == 27
    assert gathered.lengths[tree.body.mem_id] == clean_len(tree.body.text())


def test_empty_candidate_has_no_links_measured():
    tree = LexborHTMLParser('<body><div><div class="x"> <a href="/">\n</a> </div></div><p>text</p></body>')
    inner = tree.css_first("div.x")
    gathered = gather([inner], tree.body, {})
    assert gathered.lengths[inner.mem_id] == 0
    assert gathered.link_lengths == {} and gathered.links == {}
