"""The list of misclassified labelled pairs that ``evaluate --list-wrong`` prints."""

from dedup_gui.core.evaluation.evaluate import LabeledPair, ScoredPair
from dedup_gui.core.evaluation.wrong_pairs import format_wrong, wrong_csv, wrong_pairs
from dedup_gui.core.model import DupType, PairScores


def scores(sim: float) -> PairScores:
    return PairScores(content_similarity=sim, content_containment=0.5, layout_similarity=0.25, hamming_distance=3,
                      jaccard=0.4, identical_bytes=False, both_have_text=True)  # fmt: skip


def scored(n_wrong: int) -> list[ScoredPair]:
    right = [ScoredPair(LabeledPair("a.html", "b.html", DupType.FULL), scores(1.0), DupType.FULL)]
    unlabelled = [ScoredPair(LabeledPair("c.html", "d.html", None), scores(0.1), DupType.DISTINCT)]
    unread = [ScoredPair(LabeledPair("e.html", "f.html", DupType.FULL), None, None, "e.html: not found")]
    wrong = [
        ScoredPair(LabeledPair(f"w{i}.html", "x.html", DupType.CONTENT), scores(0.5), DupType.PARTIAL)
        for i in range(n_wrong)
    ]
    return right + unlabelled + unread + wrong


def test_only_labelled_scored_pairs_with_another_prediction_are_wrong():
    assert [s.pair.left for s in wrong_pairs(scored(2))] == ["w0.html", "w1.html"]


def test_the_list_stops_at_twenty_and_names_the_csv_for_the_rest():
    wrong = wrong_pairs(scored(23))
    lines = format_wrong(wrong, "wrong.csv").splitlines()
    assert len(lines) == 1 + 20 + 1  # title, 20 pairs, the rest
    assert lines[1] == "   content -> partial   0.500 0.500 0.250  3  w0.html  x.html"
    assert lines[-1] == "  … and 3 more in wrong.csv"
    assert format_wrong(wrong).splitlines()[-1] == "  … and 3 more: give --wrong-csv FILE for all"
    assert format_wrong([]) == "no labelled pair predicted wrong"


def test_the_csv_has_one_row_per_wrong_pair_with_both_types():
    text = wrong_csv(wrong_pairs(scored(1)))
    assert text.splitlines() == [
        "left,right,true_type,predicted_type,content_similarity,content_containment,layout_similarity,"
        "hamming_distance,jaccard",
        "w0.html,x.html,content,partial,0.5000,0.5000,0.2500,3,0.4000",
    ]


def test_the_list_and_the_csv_cut_measures_as_the_window_and_the_reports_do():
    # A new user read 0.273 in --list-wrong for a pair the pairs table showed as 0.272 (content
    # similarity 0.272935): every output now cuts, never rounds up.
    pair = ScoredPair(LabeledPair("g.html", "h.html", DupType.DISTINCT), scores(0.272935), DupType.LAYOUT)
    assert format_wrong([pair]).splitlines()[1].startswith("  distinct -> layout    0.272 ")
    assert wrong_csv([pair]).splitlines()[1].split(",")[4] == "0.2729"
