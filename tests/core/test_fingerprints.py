"""Tests of the fingerprints: tokens, SimHash, Hamming distance, shingles, Jaccard, MinHash."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from datasketch import LeanMinHash

from dedup_gui.core.fingerprints.shingles import (
    containment,
    intersection_size,
    jaccard,
    lean_minhash,
    minhash_signature,
    shingle_hashes,
)
from dedup_gui.core.fingerprints.simhash import (
    BITS,
    block_keys,
    hamming_distance,
    simhash_of_features,
    simhash_text,
    to_bits,
)
from dedup_gui.core.text.tokens import INVISIBLE, drop_invisible, normalize_whitespace, simhash_features, tokenize

REPO = Path(__file__).resolve().parents[2]

EN_TEXT = (
    "Near-duplicate web pages waste crawler bandwidth and index space. A SimHash fingerprint "
    "maps each page to 64 bits so that similar pages receive fingerprints that differ in only "
    "a few bit positions, which makes the search for near duplicates fast even among billions "
    "of pages crawled every day by a large search engine."
)


# --------------------------------------------------------------------------------------------
# tokens
# --------------------------------------------------------------------------------------------


def test_tokenize_words_lowercased_and_cjk_one_by_one() -> None:
    # Words are lower-cased; every CJK character is its own token; punctuation is dropped.
    assert tokenize("SimHash 指纹, by Charikar!") == ["simhash", "指", "纹", "by", "charikar"]


def test_tokenize_mixed_scripts() -> None:
    # Kana and Hangul are split per character like Han; "_" and "." separate words; "Über" is
    # lower-cased to "über" (a word of letters, not CJK).
    assert tokenize("Über 東京タワー 서울 foo_bar 3.14 重复网页") == [
        "über", "東", "京", "タ", "ワ", "ー", "서", "울", "foo", "bar", "3", "14", "重", "复", "网", "页",
    ]  # fmt: skip


def test_tokenize_empty_and_punctuation_only() -> None:
    assert tokenize("") == []
    assert tokenize("。，！ -- ...") == []


def test_normalize_whitespace() -> None:
    assert normalize_whitespace("  a\t\tb\n\n c \u3000") == "a b c"


def test_simhash_features_cjk_bigrams_with_tf() -> None:
    # "重复网页" -> bigrams 重复, 复网, 网页 (each once); "the" twice -> weight 2.
    assert simhash_features("重复网页 the the") == Counter({"the": 2, "重复": 1, "复网": 1, "网页": 1})


def test_simhash_features_repeated_bigram_and_single_character() -> None:
    # "网页网页" has bigrams 网页, 页网, 网页 -> 网页 weighs 2; a lone CJK character is a feature
    # of its own (it has no bigram); words are lower-cased.
    assert simhash_features("网页网页 我 IS is") == Counter({"网页": 2, "页网": 1, "我": 1, "is": 2})


# --------------------------------------------------------------------------------------------
# SimHash
# --------------------------------------------------------------------------------------------


def test_simhash_text_deterministic_and_64_bit() -> None:
    first = simhash_text(EN_TEXT)
    assert first == simhash_text(EN_TEXT)
    assert isinstance(first, int)
    assert 0 <= first < 2**64
    # 64-bit, not 32: across unrelated texts the top bit is used (a one-word text's fingerprint
    # is that word's MD5-based hash, whose bits are ~uniform).
    values = [simhash_text(f"word{i}") for i in range(32)]
    assert max(v.bit_length() for v in values) == 64


def test_simhash_text_same_in_another_process() -> None:
    # Fingerprints are stored in the feature cache: they must not depend on Python's per-process
    # string hash randomisation.
    code = "from dedup_gui.core.fingerprints.simhash import simhash_text; import sys; print(simhash_text(sys.argv[1]))"
    env = dict(os.environ, PYTHONHASHSEED="12345", PYTHONPATH=str(REPO))
    out = subprocess.run(
        [sys.executable, "-c", code, EN_TEXT], capture_output=True, text=True, env=env, cwd=REPO, check=True
    )
    assert int(out.stdout) == simhash_text(EN_TEXT)


def test_simhash_empty_is_zero() -> None:
    assert simhash_text("") == 0
    assert simhash_of_features({}) == 0


def test_simhash_near_duplicate_closer_than_distinct() -> None:
    near = EN_TEXT.replace("every day", "each day")
    other = "Shingling compares documents by the sets of their contiguous word sequences instead."
    d_near = hamming_distance(simhash_text(EN_TEXT), simhash_text(near))
    d_far = hamming_distance(simhash_text(EN_TEXT), simhash_text(other))
    # One word changed among 53: few bits differ (2 here); an unrelated text differs in about half (30 here).
    assert d_near <= 10
    assert d_far >= 20


def test_single_feature_fingerprint_ignores_its_weight() -> None:
    # With one feature, every bit is that feature's hash bit, whatever the weight.
    assert simhash_of_features({"a": 1}) == simhash_of_features({"a": 7}) == simhash_of_features({"a": 1000})


def test_weight_above_255_does_not_crash_and_weights_scale() -> None:
    # Regression: simhash 2.1 multiplies a uint8 bit array by weights above 50, which raises
    # OverflowError under NumPy 2 for weights above 255.  Weights are split into parts <= 50.
    big = simhash_of_features({"a": 300, "b": 200, "c": 150})
    assert 0 <= big < 2**64
    # Bit i is set when the features with bit i set hold more than half the total weight, so
    # scaling all weights by 50 changes nothing (6+4+3 is odd: no ties).
    assert big == simhash_of_features({"a": 6, "b": 4, "c": 3})
    # And the smaller features do matter (b + c outweigh a where they agree).
    assert big != simhash_of_features({"a": 1})


def test_simhash_of_features_counter_from_text() -> None:
    assert simhash_text(EN_TEXT) == simhash_of_features(simhash_features(EN_TEXT))


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (0b1011, 0b0001, 2),
        (0, 0, 0),
        (0, 2**64 - 1, 64),  # every bit differs
        (2**63, 0, 1),  # the top bit alone
        (0xFFFF_0000_FFFF_0000, 0x0000_FFFF_FFFF_0000, 32),  # two 16-bit halves differ
        (0x0123_4567_89AB_CDEF, 0x0123_4567_89AB_CDEF, 0),
    ],
)
def test_hamming_distance_known_values(a: int, b: int, expected: int) -> None:
    assert hamming_distance(a, b) == expected
    assert hamming_distance(b, a) == expected


def test_to_bits_most_significant_first() -> None:
    bits = to_bits(2**63 + 1)
    assert bits.dtype == np.uint8
    assert bits.shape == (64,)
    assert bits[0] == 1 and bits[-1] == 1 and bits[1:-1].sum() == 0


@pytest.mark.parametrize("k", [1, 2, 3, 4, 6])
def test_block_keys_cover_all_bits(k: int) -> None:
    rng = random.Random(k)
    fp = rng.getrandbits(BITS)
    keys = block_keys(fp, k)
    # k + 1 blocks, indexed 0..k, that together hold every bit of the fingerprint once.
    assert [index for index, _ in keys] == list(range(k + 1))
    bounds = [round(i * BITS / (k + 1)) for i in range(k + 2)]
    rebuilt = sum(value << bounds[index] for index, value in keys)
    assert rebuilt == fp


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_block_keys_pigeonhole(k: int) -> None:
    # Two fingerprints differing in exactly k bits: k changed bits fall into at most k of the
    # k + 1 blocks, so at least one block key is equal (Manku et al. 2007).
    rng = random.Random(20070508 + k)
    for _ in range(500):
        fp = rng.getrandbits(BITS)
        flip = rng.sample(range(BITS), k)
        other = fp
        for bit in flip:
            other ^= 1 << bit
        assert hamming_distance(fp, other) == k
        assert set(block_keys(fp, k)) & set(block_keys(other, k)), (hex(fp), flip)


def test_block_keys_pigeonhole_worst_case_one_bit_per_block() -> None:
    # k = 3: blocks are bits 0-15, 16-31, 32-47, 48-63.  Flipping one bit in each of three blocks
    # leaves exactly the fourth block equal.
    fp = 0x0123_4567_89AB_CDEF
    other = fp ^ (1 << 0) ^ (1 << 20) ^ (1 << 63)
    shared = set(block_keys(fp, 3)) & set(block_keys(other, 3))
    assert shared == {(2, 0x4567)}


def test_block_keys_four_bits_can_share_nothing() -> None:
    # The guarantee is exact: 4 differing bits (one per block) may share no key with k = 3.
    fp = 0
    other = (1 << 0) | (1 << 16) | (1 << 32) | (1 << 48)
    assert not set(block_keys(fp, 3)) & set(block_keys(other, 3))


# --------------------------------------------------------------------------------------------
# Shingles, Jaccard, containment
# --------------------------------------------------------------------------------------------


def test_shingle_hashes_sorted_unique_uint32() -> None:
    tokens = tokenize("a b c a b c a b")  # 2-shingles: ab bc ca ab bc ca ab -> 3 distinct
    hashes = shingle_hashes(tokens, 2)
    assert hashes.dtype == np.uint32
    assert len(hashes) == 3
    assert list(hashes) == sorted(set(hashes.tolist()))


def test_shingle_hashes_short_and_empty() -> None:
    # A text shorter than k is one shingle; no tokens gives no shingles.
    assert len(shingle_hashes(["only", "two"], 5)) == 1
    assert len(shingle_hashes([], 3)) == 0
    # Token boundaries matter: ["ab", "c"] and ["a", "bc"] are different shingles.
    assert not np.array_equal(shingle_hashes(["ab", "c"], 2), shingle_hashes(["a", "bc"], 2))


def test_jaccard_and_containment_hand_example() -> None:
    # 2-shingles of "a b c d e f": ab bc cd de ef (|A| = 5); of "d e f g h": de ef fg gh
    # (|B| = 4); shared: de, ef (|A ∩ B| = 2), so |A ∪ B| = 5 + 4 - 2 = 7.
    a = shingle_hashes(tokenize("a b c d e f"), 2)
    b = shingle_hashes(tokenize("d e f g h"), 2)
    assert (len(a), len(b), intersection_size(a, b)) == (5, 4, 2)
    assert jaccard(a, b) == pytest.approx(2 / 7)
    # Containment is relative to the smaller set B: 2 of its 4 shingles occur in A.
    assert containment(a, b) == pytest.approx(2 / 4)
    assert jaccard(b, a) == jaccard(a, b) and containment(b, a) == containment(a, b)


def test_jaccard_docstring_example_on_raw_hashes() -> None:
    a = np.array([1, 2, 3, 4, 5], np.uint32)
    b = np.array([4, 5, 6, 7], np.uint32)
    assert jaccard(a, b) == 2 / 7
    assert containment(a, b) == 0.5


def test_jaccard_edge_cases() -> None:
    empty = np.zeros(0, np.uint32)
    some = np.array([1, 2], np.uint32)
    assert jaccard(empty, empty) == 0.0
    assert jaccard(empty, some) == 0.0
    assert containment(empty, some) == 0.0
    assert jaccard(some, some) == 1.0
    assert containment(some, np.array([1, 2, 3], np.uint32)) == 1.0  # contained entirely


def test_chinese_shingles_are_character_ngrams() -> None:
    # Tokens are single characters, so 3-shingles are character trigrams: "重复网页检测" has 4.
    assert len(shingle_hashes(tokenize("重复网页检测"), 3)) == 4


# --------------------------------------------------------------------------------------------
# MinHash
# --------------------------------------------------------------------------------------------


def _text(rng: random.Random, n: int) -> list[str]:
    return [f"w{rng.randrange(100_000)}" for _ in range(n)]


def test_minhash_estimate_close_to_exact_jaccard() -> None:
    rng = random.Random(1997)
    shared, only_a, only_b = _text(rng, 2000), _text(rng, 1000), _text(rng, 1500)
    a = shingle_hashes(only_a + shared, 3)
    b = shingle_hashes(shared + only_b, 3)
    exact = jaccard(a, b)
    assert 0.3 < exact < 0.7  # a middle value, where the estimate's variance is largest
    sig_a, sig_b = minhash_signature(a, 256), minhash_signature(b, 256)
    assert sig_a.dtype == np.uint64 and sig_a.shape == (256,)
    estimate = lean_minhash(sig_a).jaccard(lean_minhash(sig_b))
    assert isinstance(lean_minhash(sig_a), LeanMinHash)
    # Standard error sqrt(J(1-J)/256) ~ 0.03: within 0.1 is more than 3 standard errors.
    assert abs(estimate - exact) < 0.1


def test_minhash_signature_deterministic_and_identical_sets() -> None:
    rng = random.Random(7)
    a = shingle_hashes(_text(rng, 500), 3)
    sig1, sig2 = minhash_signature(a, 128), minhash_signature(a.copy(), 128)
    # Fixed seed: the same set always gives the same signature (signatures are cached on disk).
    assert np.array_equal(sig1, sig2)
    assert lean_minhash(sig1).jaccard(lean_minhash(sig2)) == 1.0


def test_minhash_of_empty_set() -> None:
    sig = minhash_signature(shingle_hashes([], 3), 64)
    assert sig.shape == (64,) and sig.dtype == np.uint64


@pytest.mark.parametrize("k", [0, 1, 3, 6])
def test_block_key_table_encodes_block_keys(k: int) -> None:
    # The vectorized table (candidates' search) must hold the same blocks as block_keys.
    from dedup_gui.core.fingerprints.simhash import block_key_table

    rng = np.random.default_rng(k)
    fps = rng.integers(0, 2**63, size=50, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    table = block_key_table(fps, k)
    for fp, row in zip(fps.tolist(), table):
        assert row == [value * (k + 1) + i for i, value in block_keys(fp, k)]


def test_drop_invisible_drops_each_invisible_character_and_nothing_else() -> None:
    # drop_invisible looks for each character before replacing it (str.translate with a mapping
    # took 10 % of the fast extractor's time); the result must be translate's, character for
    # character, on ASCII, on text without the characters, and on text with each of them.
    for text in ("plain ascii", "中文，没有", "Wehr\u00adanlage\u200b Horka\u2060\ufeff", "\u00ad\u00ad", "a\u200cb"):
        assert drop_invisible(text) == text.translate(INVISIBLE)
    assert drop_invisible("Wehr\u00adanlage\u200b Horka\u2060\ufeff") == "Wehranlage Horka"
    assert drop_invisible("a\u200cb") == "a\u200cb"  # the zero width non-joiner stays
