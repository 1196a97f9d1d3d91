"""The labelled pairs the classifier gets wrong: a CSV of them and a short list for the terminal.

``evaluate --wrong-csv FILE`` writes every one; ``evaluate --list-wrong`` prints the first ones
after the scores, as ``--list-below`` does for ``--extraction``.
"""

from __future__ import annotations

from dedup_gui.core.evaluation.evaluate import ScoredPair
from dedup_gui.core.model import DupType
from dedup_gui.core.number_format import format_score
from dedup_gui.core.safe_text import csv_text, terminal_text

#: Columns of the ``--wrong-csv`` file: the pair, its true and predicted type and the measures
#: the type rule reads (as PREDICTIONS.csv formats them).
WRONG_COLUMNS = [
    "left",
    "right",
    "true_type",
    "predicted_type",
    "content_similarity",
    "content_containment",
    "layout_similarity",
    "hamming_distance",
    "jaccard",
]
#: The most wrong pairs :func:`format_wrong` prints before "… and N more".
LIST_LIMIT = 20


def wrong_pairs(scored: list[ScoredPair]) -> list[ScoredPair]:
    """The scored pairs whose predicted type differs from their label, in the labels file's order.

    Args:
        scored: the pairs of :func:`~dedup_gui.core.evaluation.evaluate.score_labeled_pairs`.

    Returns:
        The misclassified ones (list of :class:`ScoredPair`); pairs without a label or without
        scores (a page could not be read) are left out, as :func:`.evaluate.evaluate` leaves
        them out of the confusion matrix.
    """
    return [s for s in scored if s.pair.label is not None and s.predicted is not None and s.predicted != s.pair.label]


def wrong_csv(wrong: list[ScoredPair]) -> str:
    """The CSV text of misclassified pairs: :data:`WRONG_COLUMNS`, similarities to 4 places.

    Args:
        wrong: pairs of :func:`wrong_pairs` (each has a label, scores and a prediction).

    Returns:
        The CSV text (str), spreadsheet-safe like every CSV the product writes
        (:func:`~dedup_gui.core.safe_text.csv_text`).
    """
    rows = []
    for s in wrong:
        assert s.scores is not None and s.predicted is not None and s.pair.label is not None  # wrong_pairs keeps these
        sc = s.scores
        rows.append([s.pair.left, s.pair.right, s.pair.label.value, s.predicted.value,
                     format_score(sc.content_similarity, 4), format_score(sc.content_containment, 4),
                     format_score(sc.layout_similarity, 4), str(sc.hamming_distance), format_score(sc.jaccard, 4)])  # fmt: skip
    return csv_text(WRONG_COLUMNS, rows)


def format_wrong(wrong: list[ScoredPair], csv_name: str = "", limit: int = LIST_LIMIT) -> str:
    """The misclassified pairs as a short plain-text list: a title line, then one line per pair
    (true -> predicted type, content similarity, containment, layout similarity, Hamming
    distance, the two paths), the first ``limit`` only.

    Args:
        wrong: pairs of :func:`wrong_pairs`.
        csv_name: the ``--wrong-csv`` file that holds them all (str; "" if none was given).
        limit: the most pairs listed (int).

    Returns:
        The text (str; paths through :func:`~dedup_gui.core.safe_text.terminal_text`), e.g. ``"2 labelled pairs predicted wrong (true -> predicted)"`` and the
        lines, ending in ``"… and 5 more in wrong.csv"`` (or ``"… and 5 more: give --wrong-csv
        FILE for all"``) when some are left out; ``"no labelled pair predicted wrong"`` if none.
    """
    if not wrong:
        return "no labelled pair predicted wrong"
    title = "labelled pair" if len(wrong) == 1 else "labelled pairs"
    lines = [f"{len(wrong)} {title} predicted wrong (true -> predicted; content sim, containment, layout sim, hamming)"]
    lines += [pair_line(s) for s in wrong[:limit]]
    more = len(wrong) - limit
    if more > 0:
        lines.append(
            f"  … and {more} more"
            + (f" in {terminal_text(csv_name)}" if csv_name else ": give --wrong-csv FILE for all")
        )
    return "\n".join(lines)


def pair_line(s: ScoredPair) -> str:
    """One scored labelled pair in a line: true -> predicted type, content similarity,
    containment, layout similarity, Hamming distance, the two paths (str; paths through
    :func:`~dedup_gui.core.safe_text.terminal_text`)."""
    assert s.scores is not None and s.predicted is not None and s.pair.label is not None
    sc = s.scores
    return (
        f"  {s.pair.label.value:>8} -> {s.predicted.value:<8}  {format_score(sc.content_similarity)} "
        f"{format_score(sc.content_containment)} {format_score(sc.layout_similarity)} {sc.hamming_distance:>2}  "
        f"{terminal_text(s.pair.left)}  {terminal_text(s.pair.right)}"
    )


def cell_pairs(scored: list[ScoredPair], true: DupType, predicted: DupType) -> list[ScoredPair]:
    """The labelled pairs of one confusion-matrix cell: labelled ``true``, predicted
    ``predicted``, in the labels file's order (list of :class:`ScoredPair`; pairs without a
    label or scores are in no cell)."""
    return [s for s in scored if s.scores is not None and s.pair.label is true and s.predicted is predicted]


def format_cell(pairs: list[ScoredPair], true: DupType, predicted: DupType) -> str:
    """The pairs of one confusion-matrix cell as text: a title line, e.g. ``"6 pairs labelled
    content, predicted partial (content sim, containment, layout sim, hamming, left, right)"``,
    then one :func:`pair_line` per pair, every one (str)."""
    noun = "pair" if len(pairs) == 1 else "pairs"
    title = (f"{len(pairs)} {noun} labelled {true.value}, predicted {predicted.value} "
             "(content sim, containment, layout sim, hamming, left, right)")  # fmt: skip
    return "\n".join([title, *(pair_line(s) for s in pairs)])
