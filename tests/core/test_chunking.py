"""Content-defined chunking: hand-computed hashes and boundaries, and boundaries that stay put
after an insertion near the start."""

import random

import pytest

from dedup_gui.core.methods.chunking import ChunkParams, chunk_boundaries, chunk_hash_set, chunks, rolling_hashes

# Small numbers for hand computation: window 2, base 10, modulus 1000, codes a=97 .. d=100.
#   h[0] = 97                       ("a", window not yet full)
#   h[1] = 97*10 + 98  = 1068 -> 68 ("ab")
#   h[2] = 98*10 + 99  = 1079 -> 79 ("bc")
#   h[3] = 99*10 + 100 = 1090 -> 90 ("cd")
SMALL = ChunkParams(window=2, base=10, modulus=1000, divisor=10, backup_divisor=5, min_size=1, max_size=10)


def test_rolling_hash_by_hand():
    assert rolling_hashes("abcd", SMALL) == [97, 68, 79, 90]
    assert rolling_hashes(b"abcd", SMALL) == [97, 68, 79, 90]


def test_boundaries_by_hand():
    # divisor 10: a boundary where h % 10 == 9, i.e. after "c" (79).
    assert chunk_boundaries("abcd", SMALL) == [3, 4]
    assert [(c.start, c.end) for c in chunks("abcd", SMALL)] == [(0, 3), (3, 4)]
    # min_size 4: no boundary before 4 characters.
    assert chunk_boundaries("abcd", ChunkParams(**{**SMALL.__dict__, "min_size": 4})) == [4]
    assert chunk_boundaries("", SMALL) == []


def test_tttd_backup_boundary_at_max_size():
    # window 1: h[i] is the code itself, 97 .. 104 for "abcdefgh".  The main divisor (1000)
    # never hits; the backup divisor 50 hits at "c" (99 % 50 == 49).  max_size 5: the first
    # chunk reaches 5 characters without a main boundary and is cut at the backup, after "c";
    # the second runs to the end of the text.
    p = ChunkParams(window=1, base=10, modulus=1000, divisor=1000, backup_divisor=50, min_size=1, max_size=5)
    assert chunk_boundaries("abcdefgh", p) == [3, 8]
    # Without a backup boundary the chunk is cut at max_size.
    no_backup = ChunkParams(**{**p.__dict__, "backup_divisor": 1000})
    assert chunk_boundaries("abcdefgh", no_backup) == [5, 8]


def _text(seed: int = 7, words: int = 2000) -> str:
    rng = random.Random(seed)
    vocab = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 9))) for _ in range(400)]
    return " ".join(rng.choice(vocab) for _ in range(words))


@pytest.mark.parametrize("where", [0, 10, 40])
def test_boundaries_stay_put_after_an_insertion_near_the_start(where):
    text = _text()
    before = chunk_boundaries(text)
    inserted = text[:where] + "NEW WORDS " + text[where:]
    after = chunk_boundaries(inserted)
    shift = len("NEW WORDS ")
    # Every boundary after the first two chunks is found again, moved by the insertion's length.
    assert [b + shift for b in before[2:]] == after[-len(before[2:]) :]
    assert len(after) - len(before) in (-1, 0, 1)
    # So all chunks but the first one or two are shared.
    a, b = chunk_hash_set(text), chunk_hash_set(inserted)
    assert len(a - b) <= 2 and len(b - a) <= 2


def test_default_chunks_respect_the_size_limits():
    text = _text(words=3000)
    bounds = chunk_boundaries(text)
    sizes = [end - start for start, end in zip([0, *bounds], bounds)]
    p = ChunkParams()
    assert all(p.min_size <= s <= p.max_size for s in sizes[:-1]) and sizes[-1] <= p.max_size
    assert bounds[-1] == len(text)
    assert 40 <= sum(sizes) / len(sizes) <= 80  # about a sentence (min 27 + divisor 32 expected)


def test_chinese_text_is_chunked_by_characters():
    text = "重复网页检测是搜索引擎的基本问题。" * 40
    found = chunks(text)
    assert "".join(text[c.start : c.end] for c in found) == text


def test_bad_parameters():
    with pytest.raises(ValueError):
        ChunkParams(min_size=100, max_size=50)
    with pytest.raises(ValueError):
        ChunkParams(divisor=16, backup_divisor=32)
    with pytest.raises(ValueError):
        ChunkParams(window=0)
