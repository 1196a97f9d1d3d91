"""Shingles, Jaccard and MinHash step by step: the 2/7 example and MinHash convergence."""

import numpy as np
import pytest

from dedup_gui.core.fingerprints.shingles import jaccard, lean_minhash, shingle_hashes
from dedup_gui.core.teaching.jaccard_steps import (
    TOY_A,
    TOY_B,
    TOY_TEXT_A,
    TOY_TEXT_B,
    compare_sets,
    minhash_convergence,
    minhash_signature_of,
    shingle_comparison,
    signature_convergence,
    text_shingles,
    toy_example,
)
from dedup_gui.core.text.tokens import tokenize


def test_the_toy_example_is_two_sevenths():
    c = toy_example()
    assert (len(c.a), len(c.b), len(c.intersection), c.union_size) == (5, 4, 2, 7)
    assert c.intersection == ("is a", "a flower")
    assert c.only_a == ("a rose", "rose is", "flower indeed") and c.only_b == ("flower too", "too red")
    assert c.jaccard == 2 / 7 and c.fraction == "2/7"
    assert c.containment == 2 / 4
    # The toy sets are the 2-word shingles of two short texts.
    assert tuple(text_shingles(TOY_TEXT_A, 2)) == TOY_A and tuple(text_shingles(TOY_TEXT_B, 2)) == TOY_B
    assert shingle_comparison(TOY_TEXT_A, TOY_TEXT_B, k=2).jaccard == 2 / 7


def test_shingles_of_chinese_are_character_grams():
    assert text_shingles("重复网页检测", k=3) == ["重复网", "复网页", "网页检", "页检测"]
    assert text_shingles("SimHash 指纹", k=2) == ["simhash 指", "指纹"]
    assert text_shingles("", k=4) == [] and text_shingles("one two", k=4) == ["one two"]
    with pytest.raises(ValueError):
        text_shingles("x", k=0)


def test_readable_shingles_agree_with_the_engines_hashed_ones():
    a = "Near duplicate pages differ in a few words, and shingles see how many words they share."
    b = "Near duplicate pages differ in some words, and shingles see how many words they share."
    c = shingle_comparison(a, b, k=4)
    ha, hb = shingle_hashes(tokenize(a), 4), shingle_hashes(tokenize(b), 4)
    # 16 and 15 tokens: 13 and 12 shingles; those overlapping "a few" / "some" differ, the two
    # before and the six after are shared: 8 / (13 + 12 - 8) = 8/17.
    assert (len(c.a), len(c.b)) == (len(ha), len(hb)) == (13, 12)
    assert len(c.intersection) == 8 and c.fraction == "8/17"
    assert c.jaccard == jaccard(ha, hb) == 8 / 17


def test_minhash_converges_to_the_jaccard_similarity():
    conv = minhash_convergence(TOY_A, TOY_B, num_perm=1024)
    assert [n for n, _ in conv] == list(range(1, 1025))
    errors = [abs(est - 2 / 7) for _, est in conv]
    assert errors[-1] < 0.03
    # More permutations, smaller error: the last half is far closer than the first 16.
    assert np.mean(errors[512:]) < np.mean(errors[:16]) / 2
    same = minhash_signature_of(TOY_A, 64)
    assert all(est == 1.0 for _, est in signature_convergence(same, same))
    with pytest.raises(ValueError):
        signature_convergence(same, same[:10])


def test_convergence_of_two_pages_ends_at_the_engines_estimate(sample_scan):
    pages = {p.path: p for p in sample_scan.pages}
    a, b = pages["site/articles/spring-audax-2023.html"], pages["site/articles/spring-audax-2024.html"]
    conv = signature_convergence(a.minhash, b.minhash)
    assert len(conv) == len(a.minhash)
    assert conv[-1][1] == pytest.approx(lean_minhash(a.minhash).jaccard(lean_minhash(b.minhash)))


def test_compare_sets_of_empty_sets():
    c = compare_sets([], [])
    assert c.jaccard == 0.0 and c.containment == 0.0 and c.union_size == 0


def test_a_longer_minhash_run_extends_a_shorter_one():
    # A teacher went from 256 to 2048 permutations and the curve changed (0.339 at 256, then
    # 0.289): datasketch draws all n multipliers and then all n offsets, so MinHash(num_perm=n)
    # for another n had other permutations.  The first 256 must be the same whatever the total.
    short = minhash_convergence(TOY_A, TOY_B, num_perm=256)
    long = minhash_convergence(TOY_A, TOY_B, num_perm=2048)
    assert long[:256] == short
    assert (minhash_signature_of(TOY_A, 16) == minhash_signature_of(TOY_A, 2048)[:16]).all()
    with pytest.raises(ValueError, match="1 .. 2048"):
        minhash_signature_of(TOY_A, 2049)
