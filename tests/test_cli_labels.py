"""``classify`` and ``evaluate`` on labels files as users write them, and their warnings."""

import csv
import shutil

import pytest

from .conftest import SAMPLES
from .test_cli import run

MIRROR = ("site/articles/river-trail.html", "mirror/larkmoor-wheelers.example.org/articles/river-trail.html")
PRINT = ("site/articles/night-ride-safety.html", "print/night-ride-safety.html")  # a content duplicate
OTHER = ("site/articles/river-trail.html", "site/articles/winter-maintenance.html")  # distinct


def labels_file(tmp_path, header: str, rows: list[tuple[str, str, str]], sep: str = ",", name="labels.csv"):
    """A labels CSV in ``tmp_path`` naming a copy of the sample pages beside it (a labels file
    is read only inside its own folder)."""
    if not (tmp_path / "samples").exists():
        shutil.copytree(SAMPLES, tmp_path / "samples")
    lines = [header] + [sep.join((f"samples/{left}", f"samples/{right}", kind)) for left, right, kind in rows]
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def no_page_read(monkeypatch):
    """Fail the test if a page is read: these files must be refused from their header."""

    def read(*args, **kwargs):
        raise AssertionError("a page was read before the labels file was checked")

    monkeypatch.setattr("dedup_gui.core.evaluation.evaluate.read_labeled_pages", read)


def test_inverted_thresholds_are_a_warning_not_an_error():
    # Content partial above content same: layout and partial duplicates vanished without a word.
    proc = run("evaluate", "--pairs", SAMPLES / "EXPECTED.csv", "--content-same", "0.5", "--content-partial", "0.99")
    assert proc.returncode == 0
    assert (
        "warning: Content partial (0.99) is above Content same (0.50): no pair can be a layout or partial "
        "duplicate unless its content containment reaches 0.99 while its content similarity stays below 0.50 "
        "(a short page inside a longer one)\n"
    ) in proc.stderr
    assert "macro-F1:" in proc.stdout  # it still ran
    assert "warning: Content" not in run("evaluate", "--pairs", SAMPLES / "EXPECTED.csv").stderr


def test_types_without_labelled_pairs_show_a_dash_and_macro_f1_says_what_it_averages(tmp_path):
    # The content pair labelled "full": content is predicted once and labelled never; layout,
    # partial are neither labelled nor predicted.  They printed 0.000 0.000 0.000 beside macro-F1.
    labels = labels_file(tmp_path, "left,right,type", [(*MIRROR, "full"), (*PRINT, "full"), (*OTHER, "distinct")])
    proc = run("evaluate", "--pairs", labels)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    table = lines[lines.index("type        precision   recall      F1  support") :]
    assert table[1:6] == [
        "full            1.000    0.500   0.667        2",
        "content         0.000        –   0.000        0",  # predicted once, wrongly: counts as F1 0
        "layout              –        –       –        0",
        "partial             –        –       –        0",
        "distinct        1.000    1.000   1.000        1",
    ]
    # (2/3 + 0 + 1) / 3 = 0.556: the mean over full, content and distinct only
    assert table[7:] == [
        "macro-F1: 0.556   accuracy: 0.667",
        "macro-F1 is the mean F1 of the 3 types in the labels or the predictions "
        "(a type with F1 – is in neither and left out)",
        "–: undefined (precision of a type never predicted, recall of a type never labelled)",
    ]


def test_a_header_without_rows_says_so(tmp_path, no_page_read):
    labels = labels_file(tmp_path, "left,right,type", [])
    for command in (["evaluate"], ["classify", "-o", tmp_path / "p.csv"]):
        proc = run(*command, "--pairs", labels)
        assert proc.returncode == 1
        assert proc.stderr == f"error: {labels}: the file has a header but no rows: no pair to score\n"
    assert not (tmp_path / "p.csv").exists()


def test_evaluate_without_a_type_column_fails_before_reading_the_pages(tmp_path, no_page_read):
    # It read every page (about 10 s on 362 pages) before saying there was nothing to compare.
    labels = labels_file(tmp_path, "left,right,note", [(*MIRROR, "x")])
    proc = run("evaluate", "--pairs", labels)
    assert proc.returncode == 1
    assert proc.stderr == (
        f"error: {labels}: needs a 'type' column with each pair's true type to evaluate "
        "(found: 'left', 'right', 'note')\n"
    )
    proc = run("evaluate", "--pairs", labels, "--methods", "simhash")  # the method comparison too
    assert proc.returncode == 1 and "needs a 'type' column" in proc.stderr


@pytest.mark.parametrize(
    "header,sep",
    [("Left,Right,Type", ","), (" left , RIGHT ,type ", ","), ("left;right;type", ";"), ("Left\tRight\tType", "\t")],
)
def test_headers_are_read_without_case_and_spaces_and_the_separator_is_found(tmp_path, header, sep):
    labels = labels_file(tmp_path, header, [(*MIRROR, "full"), (*OTHER, "distinct")], sep=sep)
    proc = run("evaluate", "--pairs", labels)
    assert proc.returncode == 0, proc.stderr
    # the settings line first (evaluate names what produced its figures), then the count
    assert proc.stdout.splitlines()[1] == "pairs evaluated: 2" and "macro-F1: 1.000" in proc.stdout
    assert proc.stdout.startswith("settings: extractor fast;")


def test_a_header_read_as_one_column_asks_about_the_separator(tmp_path, no_page_read):
    labels = tmp_path / "labels.csv"
    labels.write_text('"left;right;type"\n"a.html;b.html;full"\n', encoding="utf-8")  # quoted whole: one column
    proc = run("evaluate", "--pairs", labels)
    assert proc.returncode == 1
    assert proc.stderr == (
        f"error: {labels}: needs columns 'left' and 'right' (found: 'left;right;type'): is the file separated by ';'?\n"
    )


def test_evaluate_lists_and_writes_the_pairs_it_gets_wrong(tmp_path):
    # The print copy is a content duplicate labelled "full": the one wrong pair.  Before, the
    # scores said one pair was wrong and nothing said which.
    labels = labels_file(tmp_path, "left,right,type", [(*MIRROR, "full"), (*PRINT, "full"), (*OTHER, "distinct")])
    wrong = tmp_path / "wrong.csv"
    proc = run("evaluate", "--pairs", labels, "--wrong-csv", wrong, "--list-wrong")
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(wrong.open(encoding="utf-8")))
    assert [(r["left"], r["right"], r["true_type"], r["predicted_type"]) for r in rows] == [
        (f"samples/{PRINT[0]}", f"samples/{PRINT[1]}", "full", "content")
    ]
    assert set(rows[0]) >= {"content_similarity", "content_containment", "layout_similarity", "hamming_distance"}
    lines = proc.stdout.splitlines()
    start = lines.index(
        "1 labelled pair predicted wrong (true -> predicted; content sim, containment, layout sim, hamming)"
    )
    assert lines[start + 1].startswith("      full -> content ")
    assert lines[start + 1].endswith(f"samples/{PRINT[0]}  samples/{PRINT[1]}")
    assert lines[start + 2] == f"wrote 1 wrong pair to {wrong}"
    # without --list-wrong the list is not printed (as --list-below of --extraction)
    assert "predicted wrong" not in run("evaluate", "--pairs", labels).stdout


def test_wrong_pair_options_go_with_pairs_and_a_csv(tmp_path, no_page_read):
    labels = labels_file(tmp_path, "left,right,type", [(*PRINT, "full")])
    proc = run("evaluate", "--extraction", "--list-wrong")
    assert proc.returncode == 1 and "--wrong-csv and --list-wrong list labelled pairs" in proc.stderr
    proc = run("evaluate", "--pairs", labels, "--wrong-csv", tmp_path / "wrong.txt")
    assert proc.returncode == 1 and "--wrong-csv must end in .csv" in proc.stderr


def test_classify_keeps_the_true_type_beside_the_predicted_one(tmp_path):
    # classify -o wrote the predicted type in place of the label and lost it; the label is now
    # kept in true_type (last column: the older columns stay where they were).
    labels = labels_file(tmp_path, "left,right,type", [(*PRINT, "full"), (*OTHER, "")])
    out = tmp_path / "pred.csv"
    assert run("classify", "--pairs", labels, "-o", out).returncode == 0
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert [(r["type"], r["true_type"]) for r in rows] == [("content", "full"), ("distinct", "")]
    assert list(rows[0])[-2:] == ["error", "true_type"]


def test_a_labels_file_is_read_only_inside_its_folder_and_a_partial_score_fails(tmp_path):
    # A labels file naming /etc/hostname and ../../etc/passwd had them opened (refused only as
    # "not an HTML page") and exited 0 with "macro-F1: 1.000" for the one pair it could read.
    labels = labels_file(tmp_path, "left,right,type", [(*MIRROR, "full")])
    with labels.open("a", encoding="utf-8") as f:
        f.write(f"samples/{MIRROR[0]},/etc/hostname,distinct\n")
        f.write(f"samples/{MIRROR[0]},samples/../../../../etc/passwd,distinct\n")
    proc = run("evaluate", "--pairs", labels)
    assert proc.returncode == 1
    outside = "outside the labels file's folder (through .., an absolute path or a link): not read"
    assert f"warning: not scored: /etc/hostname: {outside}" in proc.stderr
    assert f"warning: not scored: samples/../../../../etc/passwd: {outside}" in proc.stderr
    assert "error: 2 of 3 labelled pairs could not be scored (the warnings above); the output covers the other 1" in (
        proc.stderr
    )
    assert "pairs evaluated: 1 (skipped 2)" in proc.stdout
    # classify, over the same file, writes its predictions with an error cell for each pair it
    # could not score and exits 1 as evaluate does (it exited 0: a tester's script took the file
    # for complete)
    out = tmp_path / "pred.csv"
    proc = run("classify", "--pairs", labels, "-o", out)
    assert proc.returncode == 1
    assert "error: 2 of 3 labelled pairs could not be scored" in proc.stderr
    assert [bool(r["error"]) for r in csv.DictReader(out.open(encoding="utf-8"))] == [False, True, True]
