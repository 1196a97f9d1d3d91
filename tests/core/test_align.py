"""Sentence-aligned Levenshtein distance for long texts."""

import random

from dedup_gui.core.text.align import (
    EXACT_LIMIT,
    Opcode,
    align,
    levenshtein_distance,
    levenshtein_similarity,
    split_sentences,
)


def test_split_sentences_round_trips():
    text = "First one. Second!\n第一句。第二句！ tail"
    units = split_sentences(text)
    assert "".join(units) == text
    assert units[:3] == ["First one. ", "Second!\n", "第一句。"]


def _long_text(n_sentences, seed=7):
    rng = random.Random(seed)
    return "".join(
        "".join(chr(0x4E00 + rng.randrange(3000)) for _ in range(rng.randrange(20, 60))) + "。"
        for _ in range(n_sentences)
    )


def test_long_near_duplicates_get_the_exact_distance():
    a = _long_text(8000)
    assert len(a) > 3 * EXACT_LIMIT  # about 320,000 characters: the aligned path is taken
    b = list(a)
    # 150 substitutions, each in a different sentence: the true distance is exactly 150.
    positions = sorted({i for i in range(5, len(a), 2000) if b[i] != "。"})[:150]
    for i in positions:
        b[i] = "X"
    b = "".join(b)
    assert levenshtein_distance(a, b) == len(positions) == 150
    assert levenshtein_similarity(a, b) == 1 - 150 / len(a)


def test_insertion_near_the_start_does_not_shift_the_alignment():
    a = _long_text(6000)
    b = "插入的新句子。" + a  # 7 characters inserted at the start
    assert levenshtein_distance(a, b) == 7


def test_short_texts_are_exact():
    assert levenshtein_distance("kitten", "sitting") == 3
    assert levenshtein_similarity("", "") == 1.0


def test_align_opcodes():
    ops = align(["a", "b", "c"], ["a", "x", "c"])
    assert [(o.tag, o.a_start, o.a_end, o.b_start, o.b_end) for o in ops if o.tag == "equal"] == [
        ("equal", 0, 1, 0, 1),
        ("equal", 2, 3, 2, 3),
    ]


def test_a_long_list_without_punctuation_is_compared_item_by_item():
    # A tester's 9,000-item list (350,000 characters, no sentence ends) with one item renamed got
    # content similarity 0.000: it was one unit, too large to compare, so the whole length
    # counted as changed.  Content-defined word boundaries cut it into small units.
    from dedup_gui.core.text.align import LONG_UNIT, levenshtein_distance, plain_distance, split_units

    items = [f"item number {i} of the catalogue list" for i in range(9000)]
    a = " ".join(items)
    old, items[4500] = items[4500], "renamed entry of the catalogue list"
    b = " ".join(items)
    assert "".join(split_units(a)) == a and max(map(len, split_units(a))) < 10 * LONG_UNIT
    # the distance is that of the one renamed item, as an exact comparison would give
    assert levenshtein_distance(a, b) == plain_distance(old, items[4500]) > 0


def _covers(ops, a, b) -> bool:
    """The opcodes cover both sequences in order, equal runs are equal, none is empty."""
    pa = pb = 0
    for op in ops:
        if (op.a_start, op.b_start) != (pa, pb) or (op.a_start == op.a_end and op.b_start == op.b_end):
            return False
        if op.tag == "equal" and list(a[op.a_start : op.a_end]) != list(b[op.b_start : op.b_end]):
            return False
        pa, pb = op.a_end, op.b_end
    return (pa, pb) == (len(a), len(b))


def test_a_bounded_alignment_is_the_same_up_to_its_limit_and_cut_at_unique_items_beyond():
    from dedup_gui.core.text.align import align_bounded

    rng = random.Random(3)
    for _ in range(200):  # small alignments: exactly align()'s, whatever the limit
        a = [rng.randrange(6) for _ in range(rng.randrange(40))]
        b = [x if rng.random() < 0.7 else rng.randrange(6) for x in a]
        assert align_bounded(a, b, max_cells=len(a) * len(b)) == align(a, b)
        assert _covers(align_bounded(a, b, max_cells=4), a, b)  # cut into pieces: still a cover
    # 150,000 sentences, every other one changed: one rapidfuzz call would be 2.25e10 cells (5-10
    # s with the GIL held); cut at the unchanged (unique) sentences, each change is found alone.
    a = [f"Sentence number {i} is here. " for i in range(150_000)]
    b = [s.replace("here", "there") if i % 2 else s for i, s in enumerate(a)]
    ops = align_bounded(a, b)
    assert _covers(ops, a, b)
    assert [(o.a_start, o.a_end) for o in ops if o.tag == "replace"] == [(i, i + 1) for i in range(1, 150_000, 2)]
    # no unique item to cut at: the piece is one changed block
    assert align_bounded(["x", "y"] * 10, ["y", "x"] * 10, max_cells=4) == [
        Opcode("replace", 0, 20, 0, 20)]  # fmt: skip
