"""I-Match: one SHA-1 signature per document over its terms of mid-range collection IDF.

After Chowdhury, Frieder, Grossman and McCabe, "Collection statistics for fast duplicate
document detection", ACM TOIS 20(2), 2002.  The collection's statistics decide which terms
carry a document's identity: very common terms (low IDF) say little, and terms found in one
document only say nothing that another document could share, while making a copy with a
changed date or typo look different.  I-Match therefore keeps a document's unique terms whose
IDF lies in a band, sorts them and hashes them with SHA-1; documents with equal signatures are
duplicates, found in one hash-table pass.

Here, with N documents and a term in n of them:

* ``idf = ln(N / n)`` and ``nidf = idf / ln(N)`` (the normalized IDF of the paper, in [0, 1]:
  0 for a term in every document, 1 for a term in exactly one);
* the default band keeps ``0.2 <= nidf < 1.0``: terms in more than N^0.8 documents are dropped
  as too common, and terms in a single document as too rare.  The paper compares several such
  filters by their IDF; these cut-offs are ours.  On ``shared/pairs`` (362 pages) every lower
  cut-off from 0 to 0.3 gives the same verdicts, and dropping the single-document terms
  (nidf = 1) is what lets a copy with a changed date or session string keep its signature
  (README.md, "Methods compared");
* the signature is the SHA-1 hex digest of the sorted kept terms joined by single spaces
  (UTF-8); a document with no kept term has no signature and matches nothing;
* terms are the engine's tokens (:func:`dedup_gui.core.text.tokens.tokenize`): lower-cased words,
  and single characters for Chinese, Japanese and Korean text.

Without collection statistics (two pages alone) every term has nidf 0 or 1, so no band can
separate them: :func:`imatch_signature` then keeps all unique terms (signature equality becomes
token-set equality) and says so in its ``band`` field.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from dedup_gui.core.gil_friendly import set_in_slices, sorted_in_slices
from dedup_gui.core.model import Page
from dedup_gui.core.text.tokens import tokenize

#: The default band of normalized IDF, ``low <= nidf < high``.
DEFAULT_LOW = 0.2
DEFAULT_HIGH = 1.0


@dataclass(frozen=True)
class CollectionIdf:
    """Document frequencies of a collection, for I-Match's term filter.

    Attributes:
        documents: number of documents N.
        df: term -> number of documents containing it.

    Build it with :meth:`from_token_sets` or :meth:`from_pages`.
    """

    documents: int
    df: dict[str, int]

    @classmethod
    def from_token_sets(cls, docs: Iterable[Iterable[str]]) -> CollectionIdf:
        """Collection statistics of token sequences (one per document).

        Example:
            >>> idf = CollectionIdf.from_token_sets([["a", "b"], ["a", "c"], ["a", "a"]])
            >>> idf.documents, idf.df["a"], idf.df["b"]
            (3, 3, 1)
        """
        df: Counter[str] = Counter()
        n = 0
        for tokens in docs:
            df.update(set(tokens))
            n += 1
        return cls(n, dict(df))

    @classmethod
    def from_pages(cls, pages: Iterable[Page]) -> CollectionIdf:
        """Collection statistics of the pages that have usable main text."""
        return cls.from_token_sets(tokenize(p.main_text) for p in pages if p.has_text)

    def idf(self, term: str) -> float:
        """``ln(N / n)`` for a term in n documents; a term the collection lacks counts as n = 1."""
        return math.log(self.documents / max(1, self.df.get(term, 0))) if self.documents else 0.0

    def nidf(self, term: str) -> float:
        """Normalized IDF ``idf / ln(N)`` in [0, 1] (0.0 for a collection of one document)."""
        top = math.log(self.documents) if self.documents > 1 else 0.0
        return self.idf(term) / top if top else 0.0


@dataclass(frozen=True)
class IMatchSignature:
    """A document's I-Match signature and how it was made (for the teaching views).

    Attributes:
        digest: SHA-1 hex digest of the kept terms, or ``None`` when no term was kept.
        kept: the kept terms, sorted (what the digest covers).
        too_common: unique terms dropped for ``nidf < low``.
        too_rare: unique terms dropped for ``nidf >= high``.
        unique_terms: the document's unique terms in all.
        band: the kept terms in words, e.g. ``"0.2 <= nidf < 1 (362 documents)"`` or
            ``"every term (no collection statistics)"``.
    """

    digest: str | None
    kept: tuple[str, ...]
    too_common: int
    too_rare: int
    unique_terms: int
    band: str

    def matches(self, other: IMatchSignature) -> bool:
        """``True`` when both have a signature and the signatures are equal."""
        return self.digest is not None and self.digest == other.digest


def signature_of_terms(terms: Iterable[str]) -> str | None:
    """SHA-1 hex digest of the sorted unique terms joined by spaces, ``None`` for no terms.

    Example:
        >>> signature_of_terms(["cat", "a", "cat"]) == hashlib.sha1(b"a cat").hexdigest()
        True
    """
    kept = sorted_in_slices(list(set_in_slices(list(terms))))
    return hashlib.sha1(" ".join(kept).encode("utf-8")).hexdigest() if kept else None


def imatch_signature(
    tokens: Sequence[str],
    idf: CollectionIdf | None = None,
    low: float = DEFAULT_LOW,
    high: float = DEFAULT_HIGH,
) -> IMatchSignature:
    """The I-Match signature of one document.

    Args:
        tokens: the document's tokens (:func:`dedup_gui.core.text.tokens.tokenize`).
        idf: the collection's statistics; ``None`` keeps every term (no band, see the module
            docstring).
        low, high: the band ``low <= nidf < high``.

    Returns:
        An :class:`IMatchSignature`.

    Raises:
        ValueError: the band is empty or outside [0, 1].
    """
    if not 0.0 <= low < high <= 1.0:
        raise ValueError(f"the band needs 0 <= low < high <= 1, got low={low}, high={high}")
    unique = set_in_slices(list(tokens))
    if idf is None:
        kept = sorted_in_slices(list(unique))
        return IMatchSignature(signature_of_terms(kept), tuple(kept), 0, 0, len(unique),
                               "every term (no collection statistics)")  # fmt: skip
    common = rare = 0
    kept = []
    for term in unique:
        value = idf.nidf(term)
        if value < low:
            common += 1
        elif value >= high:
            rare += 1
        else:
            kept.append(term)
    kept = sorted_in_slices(kept)
    band = f"{low:g} <= nidf < {high:g} ({idf.documents:,} documents)"
    return IMatchSignature(signature_of_terms(kept), tuple(kept), common, rare, len(unique), band)


def page_signature(page: Page, idf: CollectionIdf | None = None, low: float = DEFAULT_LOW,
                   high: float = DEFAULT_HIGH) -> IMatchSignature:  # fmt: skip
    """The I-Match signature of a page's main text (no signature for a page without text)."""
    tokens = tokenize(page.main_text) if page.has_text else []
    return imatch_signature(tokens, idf, low, high)


def imatch_groups(pages: Sequence[Page], idf: CollectionIdf | None = None) -> list[tuple[int, ...]]:
    """Groups of pages with equal I-Match signatures, the method's one-pass duplicate clusters.

    Args:
        pages: the collection.
        idf: its statistics; computed from ``pages`` when ``None``.

    Returns:
        Tuples of page indices (ascending), groups of two or more, largest first.
    """
    idf = idf or CollectionIdf.from_pages(pages)
    by_digest: dict[str, list[int]] = {}
    for i, page in enumerate(pages):
        digest = page_signature(page, idf).digest
        if digest is not None:
            by_digest.setdefault(digest, []).append(i)
    groups = [tuple(g) for g in by_digest.values() if len(g) > 1]
    return sorted(groups, key=lambda g: (-len(g), g))
