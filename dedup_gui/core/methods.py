"""Every dedup method of the engine applied to one pair, for the inspector's Fingerprints view.

Each method gives the two pages' values and its own verdict (duplicate or not) at its default
threshold, so a user can see where the methods agree and where they do not.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import Page, Thresholds
from .shingles import containment, intersection_size, jaccard, lean_minhash
from .simhash import hamming_distance

#: Jaccard similarity at or above which shingling calls two pages near duplicates (0.9, the
#: value SEO crawlers use for "near duplicate content").
JACCARD_NEAR_DUPLICATE = 0.9


@dataclass(frozen=True)
class MethodResult:
    """One method's view of a pair.

    Attributes:
        method: the method's name (e.g. ``"SimHash (64-bit)"``).
        left, right: the two pages' values as text (hashes in hex, counts...).
        measure: the pair's measure as text (e.g. ``"Hamming distance 2 bits"``).
        duplicate: the method's verdict at its default threshold.
        rule: the threshold rule in words (e.g. ``"<= 3 bits (Manku et al. 2007)"``).
    """

    method: str
    left: str
    right: str
    measure: str
    duplicate: bool
    rule: str


def pair_methods(a: Page, b: Page, thresholds: Thresholds | None = None) -> list[MethodResult]:
    """Apply each method of the engine to a pair of pages.

    Args:
        a, b: the two pages.
        thresholds: thresholds (for the SimHash k); defaults to :class:`Thresholds`.

    Returns:
        One :class:`MethodResult` per method, in a fixed order.
    """
    t = thresholds or Thresholds()
    out = [
        MethodResult(
            "exact bytes (SHA-1)",
            a.sha1,
            b.sha1,
            "identical" if a.sha1 == b.sha1 else "different",
            a.sha1 == b.sha1,
            "identical hashes",
        ),
        MethodResult(
            "normalized main text (SHA-1)",
            a.text_hash,
            b.text_hash,
            "identical" if a.text_hash == b.text_hash else "different",
            a.has_text and b.has_text and a.text_hash == b.text_hash,
            "identical hashes of the whitespace-normalized, case-folded main text",
        ),
    ]
    ham = hamming_distance(a.simhash, b.simhash)
    both = a.has_text and b.has_text
    out.append(
        MethodResult(
            "SimHash (64-bit)",
            a.simhash_hex,
            b.simhash_hex,
            f"Hamming distance {ham} bits",
            both and ham <= t.hamming_k,
            f"<= {t.hamming_k} bits (Manku, Jain and Das Sarma 2007)",
        )
    )
    inter = intersection_size(a.shingles, b.shingles)
    jac = jaccard(a.shingles, b.shingles)
    out.append(
        MethodResult(
            "shingles (Jaccard)",
            f"{len(a.shingles):,} shingles",
            f"{len(b.shingles):,} shingles",
            f"{inter:,} shared; Jaccard {jac:.3f}, containment {containment(a.shingles, b.shingles):.3f}",
            both and jac >= JACCARD_NEAR_DUPLICATE,
            f"Jaccard >= {JACCARD_NEAR_DUPLICATE} (Broder 1997)",
        )
    )
    estimate = lean_minhash(a.minhash).jaccard(lean_minhash(b.minhash)) if both else 0.0
    out.append(
        MethodResult(
            f"MinHash ({len(a.minhash)} permutations)",
            f"min hash[0] = {int(a.minhash[0]):08x}",
            f"min hash[0] = {int(b.minhash[0]):08x}",
            f"estimated Jaccard {estimate:.3f}",
            both and estimate >= JACCARD_NEAR_DUPLICATE,
            f"estimate >= {JACCARD_NEAR_DUPLICATE} (Broder 1997; datasketch)",
        )
    )
    return out
