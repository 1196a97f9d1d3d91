"""Tags with a pathological number of attributes are cut before parsing: lxml and lexbor take
minutes on one element with 300,000 attributes (their work grows faster than the square)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from dedup_gui.core.extraction.attribute_bound import MAX_ATTRIBUTES, bound_attributes
from dedup_gui.core.model import ScanSettings
from dedup_gui.core.pipeline.decoding import decode_html
from dedup_gui.core.pipeline.features import load_path

ROOT = Path(__file__).resolve().parents[2]
ARTICLE = "<p>" + "The council reopened the library on Main Street with longer hours. " * 10 + "</p>"


def _attributes(n: int) -> list[str]:
    # Double-quoted values with spaces and ">", single-quoted values, bare names.
    return [(f'a{i}="v {i} >"', f"a{i}='w'", f"a{i}")[i % 3] for i in range(n)]


def _page(attributes: list[str]) -> str:
    return f"<html><head><title>Many</title></head><body><div {' '.join(attributes)}>{ARTICLE}</div></body></html>"


def test_a_tag_with_1500_attributes_keeps_its_first_1000_and_the_rest_of_the_page():
    text, notes = bound_attributes(_page(_attributes(1_500)))
    assert MAX_ATTRIBUTES == 1_000
    assert text == _page(_attributes(1_000))
    assert notes == ("an element with 1,500 attributes was cut to its first 1,000 before parsing",)


def test_attributes_are_counted_as_the_html5_tokenizer_reads_them():
    # No separator is needed after a quoted value; repeated names count (the parsers' work grows
    # with them too); "/" separates like a space; the tag's end stays.
    glued = "".join(f'a{i}="x"' for i in range(1_001))
    assert bound_attributes(f"<p {glued}/>")[0] == "<p " + "".join(f'a{i}="x"' for i in range(1_000)) + "/>"
    assert bound_attributes("<p" + " a" * 1_500 + ">t")[0] == "<p" + " a" * 1_000 + ">t"
    assert bound_attributes("<p" + "/a" * 1_001 + ">")[0] == "<p" + "/a" * 1_000 + ">"
    # Two such tags: one note for both.
    text, notes = bound_attributes("<p" + " a" * 1_001 + "><i" + " b" * 1_200 + ">")
    assert text == "<p" + " a" * 1_000 + "><i" + " b" * 1_000 + ">"
    assert notes == ("2 elements with up to 1,200 attributes were cut to their first 1,000 before parsing",)


@pytest.mark.parametrize(
    "html",
    [
        "<!-- <p" + " a" * 1_500 + "> -->",  # a comment
        "<script>var s = '<p" + " a" * 1_500 + ">';</script>",  # a script's text
        "<title><p" + " a" * 1_500 + "></title>",  # a title's text (RCDATA)
        '<img alt="<p' + " a" * 1_500 + '>">',  # a quoted attribute value
        "<p>" + " word" * 5_000 + "</p>",  # text
    ],
)
def test_what_is_not_a_tag_is_left_alone(html):
    text, notes = bound_attributes(html)
    assert text is html and notes == ()


def test_a_quote_in_a_script_does_not_hide_the_next_tag():
    html = '<script>var s = "<a v=\'";</script><p' + " a" * 1_500 + ">"
    assert bound_attributes(html)[0] == '<script>var s = "<a v=\'";</script><p' + " a" * 1_000 + ">"


def test_a_crowded_script_tag_is_cut_and_its_text_left_alone():
    html = "<script" + " a" * 1_001 + "><p" + " b" * 1_500 + "></script><i" + " c" * 1_001 + ">"
    text, notes = bound_attributes(html)
    assert text == "<script" + " a" * 1_000 + "><p" + " b" * 1_500 + "></script><i" + " c" * 1_000 + ">"
    assert notes == ("2 elements with up to 1,001 attributes were cut to their first 1,000 before parsing",)


@pytest.mark.parametrize(
    "before,after",
    [
        ("<script><!--<script></script><a v='</script>", "'"),  # "</script" in a double-escaped part ends nothing
        ("<script/>", "</script>"),  # libxml2: "<script/>" has no text (lexbor reads text up to "</script>")
    ],
)
def test_the_tags_lxml_reads_after_a_script_are_found(before, after):
    import lxml.html

    names = [f" a{i}" for i in range(1_500)]
    html = before + "<div" + "".join(names) + ">" + after
    (div,) = lxml.html.document_fromstring(html.encode()).iter("div")  # what lxml reads
    assert len(div.attrib) == 1_500
    assert bound_attributes(html)[0] == before + "<div" + "".join(names[:1_000]) + ">" + after


def _html_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.suffix.lower() in (".html", ".htm"))


def test_the_samples_are_unchanged():
    files = _html_files(ROOT / "resources" / "samples")
    assert len(files) >= 14
    for path in files:
        text = decode_html(path.read_bytes()).text
        assert bound_attributes(text) == (text, ()), path


def test_the_real_corpus_is_unchanged(shared_dir):
    files = _html_files(shared_dir / "corpus")
    assert len(files) >= 300
    for path in files:
        text = decode_html(path.read_bytes()).text
        assert bound_attributes(text)[0] is text, path


def test_the_rendered_view_says_what_was_cut(tmp_path):
    from dedup_gui.core.views.safe_html import prepare_page

    path = tmp_path / "many.html"
    path.write_text(_page([f'title="t{i}"' for i in range(1_500)]))
    prepared = prepare_page("many.html", str(path), str(tmp_path), 10**7)
    assert prepared.notes == ["an element with 1,500 attributes was cut to its first 1,000 before parsing"]
    assert "The council reopened the library" in prepared.html


# Each call on a page with one 300,000-attribute element, in its own process (a parse that
# runs for minutes cannot be stopped in this one).  Without the bound each takes minutes.
CALLS = {
    "readability": "print(load_path(path, replace(ScanSettings(), extractor='readability')).notes)",
    "fast": "print(load_path(path, replace(ScanSettings(), extractor='fast')).notes)",
    "resiliparse": "print(load_path(path, replace(ScanSettings(), extractor='resiliparse')).notes)",
    "clean_html": "print(len(clean_html(open(path).read())) > 0)",
    "page_layout": "print(page_layout(SimpleNamespace(path='p', abspath=path, has_text=False, tag_sequence=())).tags)",
}
PRELUDE = (
    "import sys\nfrom dataclasses import replace\nfrom types import SimpleNamespace\n"
    "from dedup_gui.core.pipeline.features import load_path\nfrom dedup_gui.core.views.layout_diff import page_layout\n"
    "from dedup_gui.core.model import ScanSettings\nfrom dedup_gui.core.views.safe_html import clean_html\n"
    "path = sys.argv[1]\n"
)


@pytest.fixture(scope="module")
def page_300k(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("attrs") / "300k.html"
    path.write_text(_page(_attributes(300_000)))
    return path


@pytest.mark.parametrize("call", sorted(CALLS))
def test_a_page_with_300000_attributes_on_one_element_is_analysed_in_seconds(call, page_300k):
    env = dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen")
    try:
        done = subprocess.run(
            [sys.executable, "-c", PRELUDE + CALLS[call], str(page_300k)],
            env=env, capture_output=True, text=True, timeout=20,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        pytest.fail(f"{call} took over 20 s on a page with one 300,000-attribute element")
    assert done.returncode == 0, done.stderr
    expected = {
        "clean_html": "True",
        "page_layout": "('html', 'head', 'title', 'body', 'div', 'p')",
    }.get(call, "('an element with 300,000 attributes was cut to its first 1,000 before parsing',)")
    assert done.stdout.strip() == expected


def test_the_scan_notes_the_cut(tmp_path):
    path = tmp_path / "many.html"
    path.write_text(_page(_attributes(1_500)))
    page = load_path(path, ScanSettings())
    assert page.notes == ("an element with 1,500 attributes was cut to its first 1,000 before parsing",)
    assert page.tag_sequence == ("html", "head", "title", "body", "div", "p")
