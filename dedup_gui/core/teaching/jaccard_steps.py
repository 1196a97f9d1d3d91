"""Shingles, Jaccard similarity and MinHash step by step, for the teaching views.

Broder ("On the resemblance and containment of documents", 1997): a text's shingles are its
runs of k consecutive tokens; the resemblance of two texts is the Jaccard similarity
``|A ∩ B| / |A ∪ B|`` of their shingle sets.  MinHash estimates it without comparing the sets:
under a random permutation of all shingles, the smallest element of A and of B coincide with
probability exactly J, so the share of agreeing minima over n permutations converges to J
(standard error ``sqrt(J (1 - J) / n)``).  The MinHash signatures here come from datasketch, as
the engine's do (:mod:`.shingles`).

The shingles shown are readable strings built from the engine's tokens
(:func:`dedup_gui.core.text.tokens.tokenize`): words joined by spaces, CJK characters joined
directly.  The engine stores their 32-bit CRC-32 hashes instead; the counts agree unless two
shingles collide.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from datasketch import MinHash

from dedup_gui.core.fingerprints.shingles import MINHASH_SCHEME, MINHASH_SEED
from dedup_gui.core.gil_friendly import set_in_slices, unique_in_slices
from dedup_gui.core.text.tokens import CJK_RANGES, tokenize

#: The toy example: the 2-token shingles (TOY_K) of two short texts, |A| = 5, |B| = 4,
#: |A ∩ B| = 2, so J = 2 / 7.
TOY_K = 2
TOY_TEXT_A = "a rose is a flower indeed"
TOY_TEXT_B = "is a flower too red"
TOY_A = ("a rose", "rose is", "is a", "a flower", "flower indeed")
TOY_B = ("is a", "a flower", "flower too", "too red")
#: The shingle sizes the toy example offers (tokens, inclusive): 1 is a bag of words, 8 more
#: than the default sentences have.
TOY_K_RANGE = (1, 8)

#: Most MinHash permutations the teaching views use (the Jaccard view's largest choice): the
#: permutations are the first n of this many, so a longer run extends a shorter one.
MAX_PERMUTATIONS = 2048

#: What MinHash is, in two sentences, for the Jaccard view's tooltips (Broder 1997).
MINHASH_DEFINITION = (
    "MinHash (Broder 1997): hash every shingle with one random hash function and keep the smallest "
    "value, the set's minimum; two sets have the same minimum with probability exactly their Jaccard "
    "similarity J. With n such functions (permutations), the share of equal minima estimates J, "
    "within about sqrt(J (1 − J) / n)."
)

_CJK_CHAR = re.compile(f"[{CJK_RANGES}]")


def _is_cjk(token: str) -> bool:
    return len(token) == 1 and _CJK_CHAR.fullmatch(token) is not None


def _join(tokens: Sequence[str]) -> str:
    out = tokens[0]
    for prev, tok in itertools.pairwise(tokens):
        out += tok if _is_cjk(prev) and _is_cjk(tok) else " " + tok
    return out


def text_shingles(text: str, k: int = 4) -> list[str]:
    """The distinct k-token shingles of a text, in order of first appearance.

    Args:
        text: any text (e.g. a page's main text).
        k: tokens per shingle (>= 1); a text shorter than k tokens is one shingle.

    Returns:
        Readable shingles (list[str]).

    Raises:
        ValueError: k is below 1.

    Example:
        >>> text_shingles("a rose is a rose", k=2)
        ['a rose', 'rose is', 'is a']
        >>> text_shingles("重复网页", k=2)
        ['重复', '复网', '网页']
    """
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    tokens = tokenize(text)
    if not tokens:
        return []
    if len(tokens) < k:
        return [_join(tokens)]
    # one gram at a time: a list of 600,000 token lists kept the garbage collector busy on the
    # window's GUI thread
    return unique_in_slices(_join(tokens[i : i + k]) for i in range(len(tokens) - k + 1))


@dataclass(frozen=True)
class SetComparison:
    """Two sets laid out for the Jaccard view.

    Attributes:
        a, b: the two sets' elements, in the order given (duplicates dropped).
        intersection: elements in both, in A's order.
        only_a, only_b: elements in one set only.
        union_size: ``|A ∪ B|``.
        jaccard: ``|A ∩ B| / |A ∪ B|`` in [0, 1] (0 when both are empty).
        containment: ``|A ∩ B| / min(|A|, |B|)`` in [0, 1] (0 when one is empty).
    """

    a: tuple[str, ...]
    b: tuple[str, ...]
    intersection: tuple[str, ...]
    only_a: tuple[str, ...]
    only_b: tuple[str, ...]
    union_size: int
    jaccard: float
    containment: float

    @property
    def fraction(self) -> str:
        """The Jaccard similarity as a fraction with thousands separators, e.g. ``"2/7"``,
        ``"3,274/3,421"`` (str): the counts beside it have them."""
        return f"{len(self.intersection):,}/{self.union_size:,}"


def compare_sets(a: Iterable[str], b: Iterable[str]) -> SetComparison:
    """Intersection, union and Jaccard similarity of two sets, keeping the elements for display.

    Example:
        >>> toy_example().fraction
        '2/7'
    """
    # in slices: a long page's 600,000 shingles held the GIL 0.1 s per call
    a_t, b_t = tuple(unique_in_slices(a)), tuple(unique_in_slices(b))
    in_b = set_in_slices(list(b_t))
    in_a = set_in_slices(list(a_t))
    inter = tuple(x for x in a_t if x in in_b)
    union = len(a_t) + len(b_t) - len(inter)
    smaller = min(len(a_t), len(b_t))
    return SetComparison(
        a=a_t,
        b=b_t,
        intersection=inter,
        only_a=tuple(x for x in a_t if x not in in_b),
        only_b=tuple(x for x in b_t if x not in in_a),
        union_size=union,
        jaccard=len(inter) / union if union else 0.0,
        containment=len(inter) / smaller if smaller else 0.0,
    )


def toy_comparison(text_a: str = TOY_TEXT_A, text_b: str = TOY_TEXT_B, k: int = TOY_K) -> SetComparison:
    """The toy example on sentences the teacher types, at a shingle size the teacher chooses:
    the k-token shingle sets of the two sentences compared (:func:`shingle_comparison`).  With
    the defaults it is :func:`toy_example` (|A| = 5, |B| = 4, J = 2/7).

    Args:
        text_a, text_b: the two sentences (str; empty gives an empty set).
        k: tokens per shingle, in :data:`TOY_K_RANGE`.

    Returns:
        :class:`SetComparison`.

    Raises:
        ValueError: k is outside :data:`TOY_K_RANGE`.

    Example:
        >>> toy_comparison(k=1).fraction  # words: a, is and flower in both, of 7
        '3/7'
    """
    low, high = TOY_K_RANGE
    if not low <= k <= high:
        raise ValueError(f"the toy's k must be {low} .. {high}, got {k}")
    return shingle_comparison(text_a, text_b, k)


def measure_notes(k: int) -> str:
    """What the Jaccard view's measures are, one line each: what a token is, containment as the
    symmetric form of Broder's one-sided containment, and the content similarity the four-type
    rule uses for main texts (:func:`dedup_gui.core.pipeline.measures.text_similarity`), which is
    not a shingle measure.

    Args:
        k: the scan's tokens per shingle (``ScanSettings.shingle_size``).

    Returns:
        Three lines (str).
    """
    return "\n".join((
        "Token: a word; in Chinese, Japanese or Korean text, one character (a shingle is a character k-gram).",
        "Containment: the symmetric form of Broder's one-sided c(A, B) = |A ∩ B| / |A| (Broder 1997); "
        f"the scan uses k = {k}.",
        "Content similarity (the four-type rule's measure for main texts): 1 − Levenshtein distance / max length, "
        "in characters.",
    ))  # fmt: skip


def short_text_note(shingle_sets: Sequence[Sequence[str]], k: int, names: Sequence[str] = ("A", "B")) -> str:
    """Say which texts have fewer than k tokens, whose one shingle is then the whole text
    (:func:`text_shingles`); a list of one short shingle read like a bug without it.

    Only a set of one shingle is looked at (its tokens counted), never the whole text again: a
    long page's text is tokenized once, by :func:`text_shingles`.

    Args:
        shingle_sets: each text's shingles (:func:`text_shingles`).
        k: tokens per shingle (>= 1).
        names: each text's name, in the same order.

    Returns:
        e.g. ``"A is shorter than k = 5 tokens: the whole text is one shingle."``, or ``""``
        when every text has at least k tokens (or none: an empty text has no shingle) (str).

    Example:
        >>> short_text_note([text_shingles("a rose is a rose", 5), text_shingles("a rose", 5)], 5)
        'B is shorter than k = 5 tokens: the whole text is one shingle.'
        >>> short_text_note([["a rose"], ["is"]], 5)
        'A and B are shorter than k = 5 tokens: each whole text is one shingle.'
    """
    short = [name for name, shingles in zip(names, shingle_sets) if len(shingles) == 1
             and len(tokenize(shingles[0])) < k]  # fmt: skip
    if not short:
        return ""
    if len(short) == 1:
        return f"{short[0]} is shorter than k = {k} tokens: the whole text is one shingle."
    return f"{' and '.join(short)} are shorter than k = {k} tokens: each whole text is one shingle."


def toy_example() -> SetComparison:
    """The blackboard example: |A| = 5, |B| = 4, |A ∩ B| = 2, J = 2/7 (:data:`TOY_A`, :data:`TOY_B`)."""
    return compare_sets(TOY_A, TOY_B)


def shingle_comparison(text_a: str, text_b: str, k: int = 4) -> SetComparison:
    """Compare the k-token shingle sets of two texts (see :func:`text_shingles`)."""
    return compare_sets(text_shingles(text_a, k), text_shingles(text_b, k))


@functools.cache
def _permutation_pool() -> np.ndarray:
    """The parameters of :data:`MAX_PERMUTATIONS` datasketch permutations (seed
    :data:`MINHASH_SEED`), a ``2 x MAX_PERMUTATIONS`` array.  datasketch draws all the
    multipliers and then all the offsets, so ``MinHash(num_perm=n)`` for two values of n share
    no offsets past the first; slicing one pool keeps the first n permutations the same for
    every n."""
    return MinHash(num_perm=MAX_PERMUTATIONS, seed=MINHASH_SEED, scheme=MINHASH_SCHEME).permutations


def minhash_signature_of(items: Iterable[str], num_perm: int = 128) -> np.ndarray:
    """datasketch MinHash signature of a set of strings (SHA-1 of their UTF-8, the engine's seed
    and scheme), under the first ``num_perm`` permutations of one fixed pool: the signature for
    n permutations is the first n minima of the signature for any larger n.

    Args:
        items: the set's elements (str).
        num_perm: permutations, 1 .. :data:`MAX_PERMUTATIONS`.

    Returns:
        ``np.uint64`` array of ``num_perm`` minima.

    Raises:
        ValueError: ``num_perm`` outside 1 .. :data:`MAX_PERMUTATIONS`.
    """
    if not 1 <= num_perm <= MAX_PERMUTATIONS:
        raise ValueError(f"num_perm must be 1 .. {MAX_PERMUTATIONS}, got {num_perm}")
    mh = MinHash(num_perm=num_perm, seed=MINHASH_SEED, scheme=MINHASH_SCHEME,
                 permutations=_permutation_pool()[:, :num_perm])  # fmt: skip
    for item in items:
        mh.update(item.encode("utf-8"))
    return np.asarray(mh.hashvalues, dtype=np.uint64)


def signature_convergence(sig_a: np.ndarray, sig_b: np.ndarray) -> list[tuple[int, float]]:
    """The MinHash estimate as permutations are added: after n permutations, the share of the
    first n minima that agree.

    Args:
        sig_a, sig_b: two signatures of equal length (e.g. two pages' ``Page.minhash``).

    Returns:
        ``[(n, estimate), ...]`` for n = 1 .. len (list of (int, float)).

    Raises:
        ValueError: the signatures differ in length.
    """
    if len(sig_a) != len(sig_b):
        raise ValueError(f"signatures differ in length: {len(sig_a)} vs {len(sig_b)}")
    agree = np.cumsum(np.asarray(sig_a) == np.asarray(sig_b))
    return [(n, float(agree[n - 1]) / n) for n in range(1, len(agree) + 1)]


def minhash_convergence(a: Iterable[str], b: Iterable[str], num_perm: int = 128) -> list[tuple[int, float]]:
    """MinHash estimates of the Jaccard similarity of two sets of strings for 1 .. num_perm
    permutations (see :func:`signature_convergence`)."""
    return signature_convergence(minhash_signature_of(a, num_perm), minhash_signature_of(b, num_perm))
