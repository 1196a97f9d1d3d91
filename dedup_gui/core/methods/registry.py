"""Every dedup method of the engine applied to one pair, for the inspector's Fingerprints view.

Each method gives the two pages' values and its own verdict (duplicate or not) at its default
threshold, so a user can see where the methods agree and where they do not.  The methods'
default thresholds live here (the classifier's live in :class:`~dedup_gui.core.model.Thresholds`);
:mod:`.method_eval` measures each method at its default and over a sweep.
"""

from __future__ import annotations

from dataclasses import dataclass

from dedup_gui.core.fingerprints.shingles import containment, intersection_size, jaccard, lean_minhash
from dedup_gui.core.fingerprints.simhash import hamming_distance
from dedup_gui.core.methods.bloom import bloom_similarity
from dedup_gui.core.methods.chunking import chunk_hash_set
from dedup_gui.core.methods.featurestrings import DEFAULT_WIDTH, feature_jaccard, feature_set
from dedup_gui.core.methods.imatch import CollectionIdf, page_signature
from dedup_gui.core.methods.urls import compare_urls, page_url
from dedup_gui.core.model import Page, Thresholds
from dedup_gui.core.pipeline.features import normalized_text

#: Jaccard similarity at or above which shingling calls two pages near duplicates (0.9, the
#: value SEO crawlers use for "near duplicate content").
JACCARD_NEAR_DUPLICATE = 0.9
#: Jaccard similarity of the feature-string sets (:mod:`.featurestrings`) at or above which two
#: pages are near duplicates.  Measured on shared/pairs: about the best F1 for "same content"
#: (full or content duplicate) against the rest (README.md, "Methods compared").
FEATURE_STRING_DUPLICATE = 0.5
#: Estimated Jaccard similarity of the content-defined chunk sets (:mod:`.chunking`, through
#: Bloom filters, :mod:`.bloom`) at or above which two pages are near duplicates; measured
#: the same way.
CHUNK_DUPLICATE = 0.5
#: False-positive rate the chunk-set Bloom filters are sized for.
CHUNK_BLOOM_FP_RATE = 0.01


@dataclass(frozen=True)
class MethodResult:
    """One method's view of a pair.

    Attributes:
        method: the method's name (e.g. ``"SimHash (64-bit)"``).
        left, right: the two pages' values as text (hashes in hex, counts...).
        measure: the pair's measure as text (e.g. ``"Hamming distance 2 bits"``).
        duplicate: the method's verdict at its default threshold.
        rule: the threshold rule in words (e.g. ``"<= 3 bits (Manku et al. 2007)"``).
        applicable: ``False`` when the method cannot judge the pair (URL dedup of pages whose
            URL is unknown); ``duplicate`` is then ``False``.
    """

    method: str
    left: str
    right: str
    measure: str
    duplicate: bool
    rule: str
    applicable: bool = True


def pair_methods(
    a: Page, b: Page, thresholds: Thresholds | None = None, idf: CollectionIdf | None = None
) -> list[MethodResult]:
    """Apply each method of the engine to a pair of pages.

    Args:
        a, b: the two pages.
        thresholds: thresholds (for the SimHash k); defaults to :class:`Thresholds`.
        idf: collection statistics for I-Match (:meth:`CollectionIdf.from_pages` of the scan's
            pages, computed once per scan); without them I-Match keeps every term of the two
            pages, and its row says so.

    Returns:
        One :class:`MethodResult` per method, in a fixed order: exact bytes, normalized text,
        SimHash, shingles, MinHash, I-Match, feature strings, content-defined chunks, URL.
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
    out.append(_imatch(a, b, idf))
    text_a, text_b = normalized_text(a.main_text), normalized_text(b.main_text)
    fa, fb = feature_set(text_a), feature_set(text_b)
    fj = feature_jaccard(fa, fb)
    out.append(
        MethodResult(
            f"feature strings (full stops, {DEFAULT_WIDTH} characters each side)",
            f"{len(fa):,} feature strings",
            f"{len(fb):,} feature strings",
            f"{len(fa & fb):,} shared; Jaccard {fj:.3f}",
            both and fj >= FEATURE_STRING_DUPLICATE,
            f"Jaccard >= {FEATURE_STRING_DUPLICATE} (Wu, Chen and Ma 2003)",
        )
    )
    ca, cb = chunk_hash_set(text_a), chunk_hash_set(text_b)
    sim = bloom_similarity(ca, cb, CHUNK_BLOOM_FP_RATE)
    out.append(
        MethodResult(
            "content-defined chunks (TTTD, Bloom filter)",
            f"{len(ca):,} chunks",
            f"{len(cb):,} chunks",
            f"estimated Jaccard {sim.jaccard:.3f} from Bloom filters of m = {sim.m:,} bits, k = {sim.k}",
            both and sim.jaccard >= CHUNK_DUPLICATE,
            f"estimate >= {CHUNK_DUPLICATE} (Eshghi and Tang 2005; Broder and Mitzenmacher 2004)",
        )
    )
    ua, ub = page_url(a), page_url(b)
    urls = compare_urls(ua, ub)
    out.append(
        MethodResult(
            "URL (normalized; mirror hosts)",
            urls.left or "unknown",
            urls.right or "unknown",
            urls.reason,
            urls.duplicate,
            "same normalized URL, or the same path on mirror hosts (RFC 3986 normalization)",
            applicable=urls.known,
        )
    )
    return out


def _imatch(a: Page, b: Page, idf: CollectionIdf | None) -> MethodResult:
    sa, sb = page_signature(a, idf), page_signature(b, idf)

    def shown(sig) -> str:
        return f"{sig.digest} ({len(sig.kept):,} terms)" if sig.digest else "no signature (no term kept)"

    same = sa.matches(sb)
    return MethodResult(
        "I-Match (SHA-1 of mid-IDF terms)",
        shown(sa),
        shown(sb),
        "identical" if same else "different",
        same,
        f"identical signatures; terms kept: {sa.band} (Chowdhury et al. 2002)",
    )
