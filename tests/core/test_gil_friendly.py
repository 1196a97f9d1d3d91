"""The scan's long steps leave the GIL to other threads (the window's GUI thread) and its worker
processes leave the CPU to the process that started them; results are unchanged."""

from __future__ import annotations

import multiprocessing
import os
import random
import re
from concurrent.futures import ProcessPoolExecutor

from rapidfuzz.distance import Levenshtein

from dedup_gui.core.gil_friendly import sorted_in_slices
from dedup_gui.core.pipeline.executors import WORKER_NICENESS, _limit_memory
from dedup_gui.core.pipeline.measures import layout_similarity, tag_string
from dedup_gui.core.pipeline.scan import sort_pairs
from dedup_gui.core.text.align import GIL_FREE_MIN_PRODUCT, levenshtein_similarity, plain_distance


def test_sorted_in_slices_is_sorted_and_stable():
    rng = random.Random(4)
    items = [(rng.randrange(40), i) for i in range(5_000)]
    for slice_size in (1, 7, 1_000, 10_000):
        assert sorted_in_slices(items, key=lambda x: x[0], slice_size=slice_size) == sorted(items, key=lambda x: x[0])
    assert sorted_in_slices([], key=abs) == []


def test_sort_pairs_keeps_the_scan_order(sample_scan):
    pairs = list(reversed(sample_scan.pairs))
    expected = sorted(pairs, key=lambda p: (p.type.value == "distinct", -p.scores.content_similarity,
                                            -p.scores.layout_similarity, sample_scan.pages[p.left].path,
                                            sample_scan.pages[p.right].path))  # fmt: skip
    assert sort_pairs(pairs, sample_scan.pages) == expected == sample_scan.pairs


def test_long_comparisons_give_the_same_distances_without_the_gil():
    rng = random.Random(1)
    short_a, short_b = "kitten sat", "sitting sat"
    long_a = "".join(rng.choice("abcd efgh.") for _ in range(4_000))
    long_b = long_a[:1_500] + "inserted text" + long_a[1_700:]
    assert len(long_a) * len(long_b) >= GIL_FREE_MIN_PRODUCT  # takes the GIL-free path
    for a, b in ((short_a, short_b), (long_a, long_b), ("", long_b)):
        assert plain_distance(a, b) == Levenshtein.distance(a, b)
    assert levenshtein_similarity(long_a, long_b) == 1 - Levenshtein.distance(long_a, long_b) / len(long_a)


def test_long_layouts_give_the_same_similarity_without_the_gil():
    rng = random.Random(2)
    tags = ["div", "p", "a", "span", "li", "custom-element"]
    a = [rng.choice(tags) for _ in range(4_000)]
    b = a[:2_000] + [rng.choice(tags) for _ in range(300)] + a[2_100:]
    expected = float(Levenshtein.normalized_similarity(tag_string(a), tag_string(b)))
    assert layout_similarity(a, b) == expected
    assert layout_similarity([], []) == 1.0


def test_worker_processes_run_at_a_lower_priority():
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=context, initializer=_limit_memory, initargs=(4 * 1024**3,)) as pool:
        worker_niceness = pool.submit(os.nice, 0).result(timeout=120)
    assert worker_niceness == min(19, os.nice(0) + WORKER_NICENESS)


def test_operations_in_slices_give_the_one_call_results():
    # Each cuts a long C call (a regex over 6 MB of text, a sort or a set of a million items)
    # into short ones; the result must not depend on where the slices end.
    from dedup_gui.core.gil_friendly import finditer_in_slices, set_in_slices, sorted_in_slices, sub_in_slices
    from dedup_gui.core.methods.featurestrings import _STOP_RUN

    rng = random.Random(5)
    space = re.compile(r"\s+")
    for _ in range(500):
        text = "".join(rng.choice("ab .。\n\t1．x ") for _ in range(rng.randrange(300)))
        size = rng.randrange(1, 40)
        assert sub_in_slices(space, " ", text, size) == space.sub(" ", text)
        assert [m.span() for m in finditer_in_slices(_STOP_RUN, text, size)] == [
            m.span() for m in _STOP_RUN.finditer(text)
        ]
        words = text.split()
        assert sorted_in_slices(words, slice_size=size) == sorted(words)
        assert set_in_slices(words, size) == set(words)

    # The methods' long texts take the sliced paths (whitespace, stop search, CJK runs, chunk
    # hashes, term sets and sorts); the values are those of the straightforward computations.
    import hashlib

    from dedup_gui.core.methods.chunking import chunk_hash_set, chunks
    from dedup_gui.core.methods.featurestrings import feature_strings
    from dedup_gui.core.methods.imatch import imatch_signature
    from dedup_gui.core.text.tokens import normalize_whitespace, tokenize

    rng = random.Random(6)
    words = ["".join(rng.choice("abcdefghij") for _ in range(rng.randrange(2, 9))) for _ in range(50_000)]
    text = "  ".join(w + ("." if i % 17 == 0 else "") for i, w in enumerate(words)) + " 春眠不觉晓" * 30_000
    assert normalize_whitespace(text) == " ".join(text.split())
    tokens = tokenize(text)
    assert tokens[-150_000:] == list("春眠不觉晓" * 30_000)  # a 150,000-character CJK run, one token each
    assert [f.position for f in feature_strings(text)] == [m.start() for m in re.finditer(r"\.(?![^\W_])", text)]
    assert chunk_hash_set(text) == {c.hash for c in chunks(text)}
    terms = sorted(set(tokens))
    assert len(terms) > 20_000  # sorted and collected in slices
    signature = imatch_signature(tokens)
    assert signature.kept == tuple(terms)
    assert signature.digest == hashlib.sha1(" ".join(terms).encode("utf-8")).hexdigest()
