"""The extraction benchmark: scores on hand-made texts, ground truth found by folder layout."""

import json
from pathlib import Path

import pytest

from dedup_gui.core.evaluation.extraction_eval import (
    GROUPS,
    PageScore,
    Score,
    format_table,
    format_worst,
    run_extractor,
    score_page,
    snippet_scores,
    summarize,
    token_scores,
)
from dedup_gui.core.evaluation.ground_truth import TruthPage, language_group, load_ground_truth


def approx(p, r, f):
    return Score(pytest.approx(p), pytest.approx(r), pytest.approx(f))


def test_token_scores_count_a_bag_of_words():
    # truth a b c d, extraction a b x: 2 shared tokens of 3 extracted and of 4 true
    assert token_scores("a b x", "a b c d") == approx(2 / 3, 1 / 2, 4 / 7)
    # a multiset, not a set: "the" twice in the truth, three times extracted = 2 hits and 1 extra
    assert token_scores("the the the cat dog", "the the cat") == approx(3 / 5, 1.0, 0.75)
    # words are lower-cased and punctuation is no token
    assert token_scores("HELLO, world!!", "hello world") == approx(1.0, 1.0, 1.0)


def test_cjk_text_is_scored_by_character():
    # 重 复 网 页 against 重 复 页 面: three characters shared of four on each side
    assert token_scores("重复页面", "重复网页") == approx(3 / 4, 3 / 4, 3 / 4)
    # one wrong character costs one token, not the whole unspaced sentence
    assert token_scores("SimHash 指纹很好", "SimHash 指纹很棒") == approx(4 / 5, 4 / 5, 4 / 5)


def test_empty_texts_are_defined():
    assert token_scores("", "") == Score(1.0, 1.0, 1.0)  # nothing to find, nothing found
    assert token_scores("...", "—") == Score(1.0, 1.0, 1.0)  # no tokens on either side
    assert token_scores("", "some truth") == Score(0.0, 0.0, 0.0)  # found nothing
    assert token_scores("some text", "") == Score(0.0, 0.0, 0.0)  # found text where there is none


def test_snippets_are_scored_as_trafilatura_does():
    withs = ["Salzburg liebt seine Radfahrer.", "Puls einsaugen zu lassen."]
    withouts = ["Mit unserem Newsletter", "Datenschutz"]
    # one "with" found across a line break (whitespace is normalized), one missing, one "without" found
    text = "Salzburg liebt\n  seine Radfahrer.\nMit unserem Newsletter erhalten Sie..."
    assert snippet_scores(text, withs, withouts) == approx(1 / 2, 1 / 2, 1 / 2)  # tp 1, fp 1, fn 1
    assert snippet_scores(" ".join(withs), withs, withouts) == approx(1.0, 1.0, 1.0)
    # case-sensitive substrings, as trafilatura matches them: no hit, no false positive
    assert snippet_scores("salzburg liebt seine radfahrer.", withs, withouts) == approx(0.0, 0.0, 0.0)


def test_language_group_from_the_tag_or_the_text():
    assert language_group("en-US", "") == "English"
    assert language_group("zh-TW", "") == language_group("ja", "") == "CJK"
    assert language_group("fr", "the of and the of and") == "other"  # the tag wins over the text
    assert language_group(None, "The dog ran to the house and it was happy.") == "English"
    assert language_group(None, "Una solución no violenta para la cuestión mapuche en el sur.") == "other"
    assert language_group(None, "宇航员在太空中喝酒会怎么样 NASA") == "CJK"
    assert language_group(None, "The dog ran to the house.", "rtl") == "other"


def _write(path: Path, text: str, encoding: str = "utf-8") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode(encoding))


ARTICLE = "<p>" + "The dog ran to the house and it was happy there. " * 10 + "</p>"


@pytest.fixture
def corpus(tmp_path):
    """A small folder with each of the three layouts, a page without truth and a broken file."""
    root = tmp_path / "corpus"
    _write(
        root / "rb" / "page-a" / "source.html", f"<html><body><nav>Home</nav><article>{ARTICLE}</article></body></html>"
    )
    _write(root / "rb" / "page-a" / "expected.html", f"<div id='readability-page-1'>{ARTICLE}<p>Second line.</p></div>")
    _write(root / "rb" / "page-a" / "expected-metadata.json", json.dumps({"title": "A", "lang": "en"}))
    _write(root / "rb" / "page-b" / "source.html", "<html><body><p>重复网页的检测</p></body></html>")
    _write(root / "rb" / "page-b" / "expected.html", "<div><p>重复网页的检测</p></div>")  # no metadata: from the text
    _write(root / "rb" / "page-c" / "source.html", "<html><body><p>x</p></body></html>")
    _write(root / "rb" / "page-c" / "expected.html", "<p>x</p>")
    _write(root / "rb" / "page-c" / "expected-metadata.json", "{not json")
    _write(root / "cw" / "x1.html", "<html><meta charset=gbk><body><p>中文正文</p></body></html>", "gbk")
    _write(root / "cw" / "cleaned" / "x1.txt", "中文正文")
    _write(root / "cw" / "x2.html", "<html><body><p>no cleaned text</p></body></html>")
    _write(root / "cw" / "author" / "x1.txt", "someone")
    _write(root / "tf" / "a.html", "<html><body><p>Salzburg liebt seine Radfahrer.</p></body></html>")
    _write(root / "tf" / "b.html", "<html><body><p>not listed</p></body></html>")
    entries = {"https://a": {"file": "a.html", "with": ["Salzburg liebt"], "without": ["Newsletter"]},
               "https://m": {"file": "missing.html", "with": ["x"], "without": []}}  # fmt: skip
    _write(root / "tf" / "eval.json", json.dumps(entries))
    _write(root / "gne" / "z.html", "<html><body><p>no ground truth</p></body></html>")
    return root


def test_ground_truth_is_found_by_folder_layout(corpus):
    before = sorted((p, p.stat().st_mtime_ns) for p in corpus.rglob("*"))
    truth = load_ground_truth(corpus)
    pages = {p.name: p for p in truth.pages}
    assert list(pages) == ["cw/x1.html", "rb/page-a", "rb/page-b", "tf/a.html"]
    a = pages["rb/page-a"]
    assert (a.source, a.language, a.path) == ("readability", "English", corpus / "rb" / "page-a" / "source.html")
    # the truth is expected.html's visible text, one block per line
    assert a.truth == ARTICLE[3:-4].strip() + "\nSecond line."
    assert (pages["rb/page-b"].language, pages["rb/page-b"].truth) == ("CJK", "重复网页的检测")
    x1 = pages["cw/x1.html"]
    assert (x1.source, x1.language, x1.truth) == ("cleaned", "CJK", "中文正文")
    assert "中文正文" in x1.html  # decoded from GBK
    tf = pages["tf/a.html"]
    assert (tf.source, tf.language, tf.group) == ("snippets", None, "snippets")
    assert (tf.with_snippets, tf.without_snippets) == (("Salzburg liebt",), ("Newsletter",))
    assert sorted(p.relative_to(corpus).as_posix() for p in truth.unlabelled) == [
        "cw/x2.html", "gne/z.html", "rb/page-c/source.html", "tf/b.html"]  # fmt: skip
    # the broken metadata and the missing listed file are reported, not fatal
    assert len(truth.problems) == 2
    assert truth.problems[0].startswith("rb/page-c: ") and "missing.html" in truth.problems[1]
    assert sorted((p, p.stat().st_mtime_ns) for p in corpus.rglob("*")) == before  # only read


def test_no_folder_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="not a folder"):
        load_ground_truth(tmp_path / "nowhere")


def test_run_extractor_scores_pages_and_groups(corpus):
    pages = load_ground_truth(corpus).pages
    truths = {p.html: p.truth for p in pages}

    def extractor(html):
        if "Salzburg" in html:
            return "Salzburg liebt seine Radfahrer. Newsletter"  # snippets: tp 1, fp 1 -> P 0.5, R 1
        if "中文" in html:
            raise RuntimeError("broken")  # an error is the page's result: an empty text
        return truths[html]

    result = run_extractor(pages, extractor, "fake")
    assert [r.error for r in result.pages] == ["RuntimeError: broken", "", "", ""]
    groups = result.groups
    assert (groups["English"].pages, groups["English"].f1) == (1, 1.0)
    assert (groups["CJK"].pages, groups["CJK"].f1) == (2, 0.5)  # page-b perfect, x1 failed
    assert (groups["snippets"].precision, groups["snippets"].recall) == (0.5, 1.0)
    assert groups["snippets"].f1 == pytest.approx(2 / 3)
    assert groups["other"].pages == 0
    assert groups["overall"].pages == 4
    assert groups["overall"].f1 == pytest.approx((0 + 1 + 1 + 2 / 3) / 4)  # token and snippet pages alike
    assert result.pages_per_second > 0
    table = format_table([result])
    assert (
        "| extractor | English (1) | CJK (2) | other (0) | snippets (1) | overall (4) | pages/s | CPU ms/page |"
        in table
    )
    assert 0 < result.cpu_seconds == sum(r.cpu_seconds for r in result.pages)
    assert "| fake | 1.000 | 0.500 | - | 0.667 | 0.667 |" in table
    worst = format_worst(result, 0.7).splitlines()
    assert worst[0] == "fake: 2 pages with F1 < 0.7"
    assert worst[1].startswith("  cw/x1.html  [CJK]  F1 0.000") and worst[1].endswith("(RuntimeError: broken)")


def test_the_shared_corpus_ground_truth(shared_dir):
    truth = load_ground_truth(shared_dir / "corpus")
    sources = [p.source for p in truth.pages]
    # 83 readability test pages, 35 cwced pages with cleaned text, 59 trafilatura pages listed in its JSON
    assert (sources.count("readability"), sources.count("cleaned"), sources.count("snippets")) == (83, 35, 59)
    assert not truth.problems
    pages = {p.name: p for p in truth.pages}
    # pages without a lang in their metadata get it from their text
    assert {pages[f"readability/{n}"].language for n in ("gmw", "qq", "youth", "hukumusume")} == {"CJK"}
    assert (pages["readability/la-nacion"].language, pages["readability/cnn"].language) == ("other", "English")
    assert {p.language for p in truth.pages if p.source == "cleaned"} == {"CJK"}
    assert set(GROUPS) == {"English", "CJK", "other", "snippets", "overall"}


def test_speed_against_the_reference_is_in_cpu_time() -> None:
    # Wall time varies with the other jobs on a loaded machine: the ratio is of CPU time.  Here
    # the reference took 2 s of wall clock and 1 s of CPU, the other 1 s and 0.25 s: 4x, not 2x.
    page = TruthPage("p.html", Path("p.html"), "<p>x</p>", "readability", "English", "x")
    ref = summarize("ref", [PageScore(page, score_page(page, "x"), 2.0, "", 1.0)])
    other = summarize("other", [PageScore(page, score_page(page, "x"), 1.0, "", 0.25)])
    table = format_table([ref, other], "ref").splitlines()
    assert table[0].endswith("| pages/s | CPU ms/page | speed vs ref (CPU) |")
    assert table[2].endswith("| 0.5 | 1000.0 | 1.0x |")
    assert table[3].endswith("| 1.0 | 250.0 | 4.0x |")
