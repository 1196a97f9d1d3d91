"""The engine on the real pages of ../shared (skipped with a reason where it is absent)."""

from pathlib import Path

from dedup_gui.core.evaluation.evaluate import evaluate, read_labels, score_labeled_pairs
from dedup_gui.core.model import DupType
from dedup_gui.core.pipeline.scan import scan_folder


def test_scan_of_the_real_corpus_uses_every_page(shared_dir: Path, tmp_path):
    result = scan_folder(shared_dir / "corpus")
    # 247 saved pages + 83 readability expected.html; none may be lost without a reason.
    html_files = [p for p in (shared_dir / "corpus").rglob("*.html")]
    assert len(result.pages) + len(result.errors) >= len(html_files)
    assert result.errors == [], result.errors
    # readability's expected.html is the article of its source.html in a bare skeleton: the
    # textbook content duplicate. Most of the 83 must come out so.
    content_pairs = {
        (result.pages[p.left].path, result.pages[p.right].path) for p in result.pairs if p.type is DupType.CONTENT
    }
    found = sum(1 for a, b in content_pairs if a.endswith("/expected.html") and b == a.replace("expected", "source"))
    assert found >= 60
    # Chinese GBK pages decode as GB18030; the only replacement characters are the 14 of two
    # cwced pages whose bytes are really corrupt, and each such page says so in its notes.
    gbk = [p for p in result.pages if p.encoding == "gb18030"]
    assert len(gbk) >= 20
    damaged = [p for p in gbk if "\ufffd" in p.main_text]
    assert sum(p.main_text.count("\ufffd") for p in gbk) <= 14
    assert all(any("undecodable" in n for n in p.notes) for p in damaged)
    # Pages that declare gb2312 but are UTF-8 (gne/tests__163__9.html) are read as UTF-8.
    by_path = {p.path: p for p in result.pages}
    assert by_path["gne/tests__163__9.html"].encoding == "utf-8"


def test_labelled_pairs_macro_f1(shared_dir: Path):
    labels_csv = shared_dir / "pairs" / "labels.csv"
    scored = score_labeled_pairs(read_labels(labels_csv), labels_csv.parent)
    assert all(not s.error for s in scored)
    ev = evaluate(scored)
    # Measured 0.960 at the defaults, no type below 0.926 (README, "Accuracy"); issue 15's
    # targets are macro-F1 >= 0.95 with no type below 0.92, so a drop under them is a regression.
    assert ev.macro_f1 >= 0.95
    assert min(ev.f1.values()) >= 0.92, ev.f1
    assert ev.f1[DupType.LAYOUT] >= 0.95
