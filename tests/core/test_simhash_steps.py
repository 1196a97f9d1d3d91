"""SimHash step by step: the 8-bit worked example by hand, and equality with the engine."""

import pytest
from simhash import Simhash

from dedup_gui.core.fingerprints.simhash import hamming_distance, simhash_of_features, simhash_text
from dedup_gui.core.teaching.simhash_steps import feature_hash, hamming_steps, simhash_steps, text_simhash_steps
from dedup_gui.core.text.tokens import simhash_features

# "the cat sat on the mat": five features, "the" twice.  8-bit mode: the last byte of each MD5.
#   feature  weight  MD5[-1]  bits (MSB first)   contribution (+w for 1, -w for 0)
#   the      2       0x57     0 1 0 1 0 1 1 1    -2 +2 -2 +2 -2 +2 +2 +2
#   cat      1       0xd8     1 1 0 1 1 0 0 0    +1 +1 -1 +1 +1 -1 -1 -1
#   sat      1       0x6c     0 1 1 0 1 1 0 0    -1 +1 +1 -1 +1 +1 -1 -1
#   on       1       0x50     0 1 0 1 0 0 0 0    -1 +1 -1 +1 -1 -1 -1 -1
#   mat      1       0x88     1 0 0 0 1 0 0 0    +1 -1 -1 -1 +1 -1 -1 -1
#   sums                                        -2 +4 -4 +2  0  0 -2 -2
#   sign (1 where the sum is > 0; ties -> 0)      0  1  0  1  0  0  0  0   = 0x50
WORKED = {"the": 2, "cat": 1, "sat": 1, "on": 1, "mat": 1}


def test_the_8_bit_worked_example():
    s = simhash_steps(WORKED, bits=8)
    assert [st.hash for st in s.steps] == [0x57, 0xD8, 0x6C, 0x50, 0x88]
    assert s.steps[0].hash_bits == (0, 1, 0, 1, 0, 1, 1, 1)
    assert s.steps[0].contribution == (-2, 2, -2, 2, -2, 2, 2, 2)
    assert s.steps[1].sums == (-1, 3, -3, 3, -1, 1, 1, 1)  # after "the" and "cat"
    assert s.sums == (-2, 4, -4, 2, 0, 0, -2, -2)
    assert s.fingerprint_bits == (0, 1, 0, 1, 0, 0, 0, 0)
    assert s.fingerprint == 0x50 and s.hex == "50"
    # The simhash package agrees, tie rule included (ones > total weight / 2).
    assert Simhash(WORKED, f=8).value == 0x50


def test_a_blackboard_example_with_the_teachers_own_hashes():
    toy = {"a": 0b11110000, "b": 0b10101010}
    s = simhash_steps({"a": 2, "b": 1}, bits=8, hash_func=lambda f, bits: toy[f])
    # a (w 2): +2 +2 +2 +2 -2 -2 -2 -2;  b (w 1): +1 -1 +1 -1 +1 -1 +1 -1
    assert s.sums == (3, 1, 3, 1, -1, -3, -1, -3)
    assert s.fingerprint == 0b11110000


@pytest.mark.parametrize(
    "text",
    [
        "The quick brown fox jumps over the lazy dog. The dog sleeps.",
        "重复网页检测是搜索引擎的基本问题，重复网页浪费存储空间。",
        " ".join(["spam"] * 120 + ["eggs"] * 7 + ["ham"]),  # weights above simhash's 50 cut-off
    ],
)
def test_64_bit_steps_equal_the_engine(text):
    features = simhash_features(text)
    s = simhash_steps(features, bits=64)
    assert s.fingerprint == simhash_of_features(features) == simhash_text(text)
    assert text_simhash_steps(text).fingerprint == simhash_text(text)
    # Each bit is decided on its own, so a narrower fingerprint is the bottom bits of the wide one.
    assert simhash_steps(features, bits=8).fingerprint == s.fingerprint & 0xFF
    assert simhash_steps(features, bits=16).fingerprint == s.fingerprint & 0xFFFF


def test_steps_on_a_sample_page_reproduce_its_fingerprint(sample_scan):
    page = next(p for p in sample_scan.pages if p.path == "site/articles/river-trail.html")
    s = text_simhash_steps(page.main_text)
    assert s.fingerprint == page.simhash
    weights = [st.weight for st in s.steps]
    assert weights == sorted(weights, reverse=True)  # heaviest feature first
    assert s.steps[-1].sums == s.sums


def test_feature_hash_is_the_tail_of_md5():
    assert feature_hash("cat", 8) == 0xD8
    assert feature_hash("cat", 64) == 0x5EA758BD8352FCD8


def test_hamming_steps_mark_the_differing_bits():
    h = hamming_steps(0b10110000, 0b10011000, bits=8)
    assert h.a_bits == (1, 0, 1, 1, 0, 0, 0, 0)
    assert h.b_bits == (1, 0, 0, 1, 1, 0, 0, 0)
    assert h.differing == (2, 4) and h.distance == 2
    a, b = simhash_text("a rose is a rose"), simhash_text("a rose is a flower")
    assert hamming_steps(a, b).distance == hamming_distance(a, b)


def test_bad_arguments():
    with pytest.raises(ValueError):
        simhash_steps(WORKED, bits=12)
    with pytest.raises(ValueError):
        simhash_steps({"x": 0}, bits=8)
    assert simhash_steps({}, bits=8).fingerprint == 0


@pytest.mark.parametrize("bits", [8, 64])
@pytest.mark.parametrize("n", [0, 1, 31, 32, 33, 95, 16_384 + 40])
def test_every_step_equals_a_running_sum_by_hand(bits, n):
    # The steps are made on demand from a checkpoint every 32 features (and the checkpoints in
    # chunks of 16,384 rows): each must still be the plain running sum, at every boundary.
    import random

    rng = random.Random(n * bits)
    features = [(f"f{i}", rng.randrange(1, 300)) for i in range(n)]
    s = simhash_steps(features, bits=bits)
    sums = [0] * bits
    expected = []
    for feature, weight in features:
        value = feature_hash(feature, bits)
        sums = [x + (weight if (value >> (bits - 1 - b)) & 1 else -weight) for b, x in enumerate(sums)]
        expected.append(tuple(sums))
    assert len(s.steps) == n
    checked = sorted({*range(min(n, 70)), *range(max(0, n - 70), n), *rng.sample(range(n), min(n, 50))})
    for i in checked:
        assert s.steps[i].sums == expected[i], i
        assert s.steps[i - n].sums == expected[i]  # negative indices
    assert s.sums == (expected[-1] if n else (0,) * bits)
    assert [st.feature for st in s.steps[:3]] == [f for f, _ in features[:3]]
    with pytest.raises(IndexError):
        s.steps[n]


def test_a_huge_page_keeps_no_step_objects():
    # 200,000 features: the steps were 200,000 objects of three 64-tuples (about 300 MB, freed
    # in one piece on the window's GUI thread); now the features, weights and hashes, and the
    # sums every 32 steps.
    import sys

    s = simhash_steps([(f"w{i}", 1 + i % 7) for i in range(200_000)], bits=64)
    kept = s.steps._checkpoints.nbytes + sys.getsizeof(s.steps._hashes) + sys.getsizeof(s.steps._weights)
    assert kept < 10_000_000
    assert s.steps[-1].sums == s.sums and s.steps[123_456].weight == 1 + 123_456 % 7
