"""A prefix-tree pattern finds a word where the plain alternation of the same words does."""

from __future__ import annotations

import random
import re

import pytest

from dedup_gui.core.text.word_patterns import words_pattern

# Readability's negative class words: prefixes of one another (foot, footer, footnote; com-,
# combx, comment), a "-" to escape, and words sharing first letters.
WORDS = (
    "combx comment com- contact foot footer footnote masthead media meta outbrain promo related "
    "scroll shoutbox sidebar sponsor shopping tags tool widget a.b"
).split()


def test_prefix_tree():
    assert words_pattern(["comment", "community", "combx"]) == "com(?:bx|m(?:ent|unity))"
    assert words_pattern(["foot", "footer", "footnote"]) == "foot(?:er|note)?"
    assert words_pattern(["ab", "abc"]) == "abc?"


def test_same_matches_as_the_alternation():
    # On texts made of the words, their pieces and other characters, both find a word at the
    # same place or both find none.  ("a.b" checks the escaping: "axb" is no match.)
    plain = re.compile("|".join(map(re.escape, WORDS)))
    tree = re.compile(words_pattern(WORDS))
    rnd = random.Random(7)
    pieces = [*WORDS, *(w[: len(w) // 2] for w in WORDS), " ", "-", "x", "axb", "Foot"]
    texts = ["".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 6))) for _ in range(5000)]
    for text in texts:
        a, b = plain.search(text), tree.search(text)
        assert (a is None) == (b is None), text
        assert a is None or a.start() == b.start(), text


def test_bad_words():
    with pytest.raises(ValueError, match="empty word"):
        words_pattern(["a", ""])
    with pytest.raises(ValueError, match="no word"):
        words_pattern([])
