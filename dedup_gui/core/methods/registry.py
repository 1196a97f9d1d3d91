"""Every dedup method of the engine, once: its name, rule and source, and how it judges a pair.

One :class:`MethodSpec` per method, in one table (:func:`method_specs`).  Two users read it, so
they cannot drift apart:

* the inspector's Fingerprints view (:func:`pair_methods`): each method's values for the two
  pages and its own verdict at its default threshold, so a user sees where methods disagree;
* the method comparison (:mod:`dedup_gui.core.evaluation.method_eval`): each method's value on
  labelled pairs, scored at its default and over a threshold sweep.

A method's :attr:`MethodSpec.compare` gives a :class:`Measurement` (the value its threshold is
applied to, plus the texts the inspector shows).  The value is ``None`` where the method cannot
call the pair a duplicate (a page without usable main text, an unknown URL).  The methods'
default thresholds live here (the classifier's live in :class:`~dedup_gui.core.model.Thresholds`,
and the methods built on its measures take their defaults from there).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from dedup_gui.core.fingerprints.shingles import containment, intersection_size, jaccard, lean_minhash
from dedup_gui.core.fingerprints.simhash import hamming_distance
from dedup_gui.core.methods.bloom import bloom_similarity
from dedup_gui.core.methods.chunking import chunk_hash_set
from dedup_gui.core.methods.featurestrings import DEFAULT_WIDTH, feature_jaccard, feature_set
from dedup_gui.core.methods.imatch import CollectionIdf, IMatchSignature, page_signature
from dedup_gui.core.methods.urls import PageUrl, compare_urls, page_url
from dedup_gui.core.model import DupType, Page, PairScores, Thresholds
from dedup_gui.core.number_format import format_score
from dedup_gui.core.pipeline.features import normalized_text

#: Jaccard similarity at or above which shingling calls two pages near duplicates (0.9, the
#: value SEO crawlers use for "near duplicate content").
JACCARD_NEAR_DUPLICATE = 0.9
#: Jaccard similarity of the feature-string sets (:mod:`.featurestrings`) at or above which two
#: pages are near duplicates.  Measured on shared/pairs: about the best F1 for "same content"
#: (full or content duplicate) against the rest (README.md, "Methods compared").
FEATURE_STRING_DUPLICATE = 0.5
#: Estimated Jaccard similarity of the content-defined chunk sets (:mod:`.chunking`, through
#: Bloom filters, :mod:`.bloom`; Broder and Mitzenmacher 2004) at or above which two pages are
#: near duplicates; measured the same way.
CHUNK_DUPLICATE = 0.5
#: False-positive rate the chunk-set Bloom filters are sized for.
CHUNK_BLOOM_FP_RATE = 0.01
#: Similarity thresholds swept by the comparison: 0.1, 0.15, ..., 0.95.
SIMILARITY_SWEEP = tuple(round(0.1 + 0.05 * i, 2) for i in range(18))
#: Hamming distances swept (bits): 0 .. 20.
HAMMING_SWEEP = tuple(range(21))


@dataclass(frozen=True)
class PageInputs:
    """What the methods need of one page beyond :class:`~dedup_gui.core.model.Page`, computed
    once per page (chunking a long text takes seconds).

    Attributes:
        page: the page.
        features: its feature strings (:func:`~dedup_gui.core.methods.featurestrings.feature_set`).
        chunks: hashes of its content-defined chunks (:func:`~dedup_gui.core.methods.chunking.chunk_hash_set`).
        imatch: its I-Match signature.
        url: its known URL, or ``None``.
    """

    page: Page
    features: frozenset[str]
    chunks: set[int]
    imatch: IMatchSignature
    url: PageUrl | None


def page_inputs(page: Page, idf: CollectionIdf | None = None) -> PageInputs:
    """The :class:`PageInputs` of a page.

    Args:
        page: the page.
        idf: collection statistics for I-Match (``None``: keep every term, see :mod:`.imatch`).
    """
    text = normalized_text(page.main_text)
    return PageInputs(page, feature_set(text), chunk_hash_set(text), page_signature(page, idf), page_url(page))


@dataclass(frozen=True)
class PairInputs:
    """A pair as the methods see it.

    Attributes:
        a, b: the two pages' inputs.
        scores: the classifier's measures of the pair (needed by the methods built on them:
            content similarity, containment, the classifier); ``None`` where not computed.
        predicted: the classifier's type for the pair, or ``None``.
    """

    a: PageInputs
    b: PageInputs
    scores: PairScores | None = None
    predicted: DupType | None = None

    @property
    def both_have_text(self) -> bool:
        """``True`` when both pages have usable main text (bool)."""
        return self.a.page.has_text and self.b.page.has_text


@dataclass(frozen=True)
class Measurement:
    """One method's reading of a pair.

    Attributes:
        value: what the threshold applies to (a yes/no method gives 1.0 or 0.0); ``None`` when
            the method cannot call the pair a duplicate.
        left, right: the two pages' values as text (hashes in hex, counts...).
        measure: the pair's measure as text (e.g. ``"Hamming distance 2 bits"``).
        applicable: ``False`` when the method cannot judge the pair at all (URL dedup of pages
            whose URL is unknown).
    """

    value: float | None
    left: str = ""
    right: str = ""
    measure: str = ""
    applicable: bool = True


@dataclass(frozen=True)
class MethodSpec:
    """One dedup method.

    Attributes:
        key: its name on the command line (``--methods simhash,shingles``).
        name: its name in tables and charts.
        measure: what its value is (e.g. ``"Hamming distance (bits)"``).
        default: the default threshold.
        higher_is_duplicate: ``True`` when a pair is a duplicate at ``value >= threshold``,
            ``False`` when at ``value <= threshold`` (Hamming distance).
        sweep: thresholds swept; empty for yes/no methods (value 1 = duplicate, threshold 1).
        rule: the default rule in words, with its source.
        compare: ``PairInputs -> Measurement``.
        needs_scores: ``True`` for the methods read from the classifier's measures of the pair
            (:attr:`PairInputs.scores`); the inspector's list leaves them out.
    """

    key: str
    name: str
    measure: str
    default: float
    higher_is_duplicate: bool
    sweep: tuple[float, ...]
    rule: str
    compare: Callable[[PairInputs], Measurement] = field(repr=False, compare=False)
    needs_scores: bool = False

    def is_duplicate(self, value: float | None, threshold: float) -> bool:
        """The method's verdict for a value at a threshold (``None`` is never a duplicate)."""
        if value is None:
            return False
        return value >= threshold if self.higher_is_duplicate else value <= threshold

    def label(self, threshold: float) -> str:
        """A threshold as the method's rule writes it, e.g. ``"k <= 3"`` or ``">= 0.900"`` (a
        similarity in [0, 1] to 3 places, as everywhere in the window)."""
        if not self.sweep:
            return "yes/no"
        if self.key == "simhash":
            return f"k <= {threshold:g}"
        return f">= {threshold:.3f}"


def _same(x: object, y: object) -> str:
    return "identical" if x == y else "different"


def _bytes(p: PairInputs) -> Measurement:
    a, b = p.a.page, p.b.page
    return Measurement(float(a.sha1 == b.sha1), a.sha1, b.sha1, _same(a.sha1, b.sha1))


def _text(p: PairInputs) -> Measurement:
    a, b = p.a.page, p.b.page
    same = p.both_have_text and a.text_hash == b.text_hash
    return Measurement(float(same), a.text_hash, b.text_hash, _same(a.text_hash, b.text_hash))


def _text_value(p: PairInputs, value: float) -> float | None:
    """Text methods never call a pair a duplicate when a page has no usable main text."""
    return value if p.both_have_text else None


def _simhash(p: PairInputs) -> Measurement:
    a, b = p.a.page, p.b.page
    ham = hamming_distance(a.simhash, b.simhash)
    return Measurement(_text_value(p, float(ham)), a.simhash_hex, b.simhash_hex, f"Hamming distance {ham} bits")


def _shingles(p: PairInputs) -> Measurement:
    sa, sb = p.a.page.shingles, p.b.page.shingles
    jac = jaccard(sa, sb)
    shared = f"{intersection_size(sa, sb):,} shared; Jaccard {format_score(jac)}, containment {format_score(containment(sa, sb))}"
    return Measurement(_text_value(p, jac), f"{len(sa):,} shingles", f"{len(sb):,} shingles", shared)


def _minhash(p: PairInputs) -> Measurement:
    a, b = p.a.page, p.b.page
    estimate = float(lean_minhash(a.minhash).jaccard(lean_minhash(b.minhash))) if p.both_have_text else 0.0
    return Measurement(
        _text_value(p, estimate),
        f"min hash[0] = {int(a.minhash[0]):08x}",
        f"min hash[0] = {int(b.minhash[0]):08x}",
        f"estimated Jaccard {format_score(estimate)} ({len(a.minhash)} permutations)",
    )


def _scores(p: PairInputs) -> PairScores:
    if p.scores is None:
        raise ValueError("this method reads the classifier's measures: give PairInputs.scores")
    return p.scores


def _content(p: PairInputs) -> Measurement:
    sim = _scores(p).content_similarity
    return Measurement(_text_value(p, sim), measure=f"content similarity {format_score(sim)}")


def _containment(p: PairInputs) -> Measurement:
    share = _scores(p).content_containment
    return Measurement(_text_value(p, share), measure=f"content containment {format_score(share)}")


def _imatch(p: PairInputs) -> Measurement:
    sa, sb = p.a.imatch, p.b.imatch

    def shown(sig: IMatchSignature) -> str:
        return f"{sig.digest} ({len(sig.kept):,} terms)" if sig.digest else "no signature (no term kept)"

    same = sa.matches(sb)
    verdict = "identical" if same else "different"
    return Measurement(_text_value(p, float(same)), shown(sa), shown(sb), f"{verdict}; terms kept: {sa.band}")


def _featurestrings(p: PairInputs) -> Measurement:
    fa, fb = p.a.features, p.b.features
    fj = feature_jaccard(fa, fb)
    return Measurement(
        _text_value(p, fj),
        f"{len(fa):,} feature strings",
        f"{len(fb):,} feature strings",
        f"{len(fa & fb):,} shared; Jaccard {format_score(fj)} (full stops, {DEFAULT_WIDTH} characters each side)",
    )


def _cdc(p: PairInputs) -> Measurement:
    ca, cb = p.a.chunks, p.b.chunks
    sim = bloom_similarity(ca, cb, CHUNK_BLOOM_FP_RATE)
    return Measurement(
        _text_value(p, sim.jaccard),
        f"{len(ca):,} chunks",
        f"{len(cb):,} chunks",
        f"estimated Jaccard {format_score(sim.jaccard)} from Bloom filters of m = {sim.m:,} bits, k = {sim.k} (TTTD chunks)",
    )


def _url(p: PairInputs) -> Measurement:
    urls = compare_urls(p.a.url, p.b.url)
    value = float(urls.duplicate) if urls.known else None
    return Measurement(value, urls.left or "unknown", urls.right or "unknown", urls.reason, applicable=urls.known)


def _classifier(p: PairInputs) -> Measurement:
    if p.predicted is None:
        raise ValueError("the classifier method needs PairInputs.predicted")
    return Measurement(float(p.predicted is not DupType.DISTINCT), measure=f"classified {p.predicted.label}")


def method_specs(thresholds: Thresholds | None = None) -> dict[str, MethodSpec]:
    """Every method, in table order, with defaults taken from ``thresholds``.

    Args:
        thresholds: the classifier's thresholds (SimHash k, content similarity and
            containment defaults, and the classifier itself); :class:`Thresholds` by default.

    Returns:
        key -> :class:`MethodSpec` (dict, ordered).
    """
    t = thresholds or Thresholds()
    specs = [
        MethodSpec("bytes", "exact bytes (SHA-1)", "identical bytes", 1, True, (), "identical file bytes", _bytes),
        MethodSpec("text", "normalized text (SHA-1)", "identical normalized main text", 1, True, (),
                   "identical whitespace-normalized, case-folded main text", _text),
        MethodSpec("simhash", "SimHash (64-bit)", "Hamming distance (bits)", t.hamming_k, False, HAMMING_SWEEP,
                   f"Hamming distance <= {t.hamming_k} bits (Manku et al. 2007)", _simhash),
        MethodSpec("shingles", "shingles (Jaccard)", "Jaccard similarity", JACCARD_NEAR_DUPLICATE, True,
                   SIMILARITY_SWEEP, f"Jaccard >= {JACCARD_NEAR_DUPLICATE} (Broder 1997; SEO crawlers)", _shingles),
        MethodSpec("minhash", "MinHash (estimated Jaccard)", "estimated Jaccard similarity", JACCARD_NEAR_DUPLICATE,
                   True, SIMILARITY_SWEEP, f"estimate >= {JACCARD_NEAR_DUPLICATE} (Broder 1997; datasketch)", _minhash),
        MethodSpec("content", "content similarity", "normalized Levenshtein similarity", t.content_same, True,
                   SIMILARITY_SWEEP, f"similarity >= {t.content_same:g} (the classifier's 'same content')", _content,
                   needs_scores=True),
        MethodSpec("containment", "content containment", "share of the smaller page's shingles",
                   t.content_partial, True, SIMILARITY_SWEEP,
                   f"containment >= {t.content_partial:g} (the classifier's 'important part shared')", _containment,
                   needs_scores=True),
        MethodSpec("imatch", "I-Match", "identical signature", 1, True, (),
                   "identical SHA-1 of the terms with 0.2 <= nidf < 1 (Chowdhury et al. 2002)", _imatch),
        MethodSpec("featurestrings", "feature strings", "Jaccard of the feature-string sets", FEATURE_STRING_DUPLICATE,
                   True, SIMILARITY_SWEEP, f"Jaccard >= {FEATURE_STRING_DUPLICATE} (Wu, Chen and Ma 2003)",
                   _featurestrings),
        MethodSpec("cdc", "content-defined chunks (Bloom)", "estimated Jaccard of the chunk sets", CHUNK_DUPLICATE,
                   True, SIMILARITY_SWEEP, f"estimate >= {CHUNK_DUPLICATE} (Eshghi and Tang 2005)", _cdc),
        MethodSpec("url", "URL (normalized, mirrors)", "same normalized URL or mirror path", 1, True, (),
                   "same normalized URL, or the same path on mirror hosts", _url),
        MethodSpec("classifier", "four-type classifier", "any type but distinct", 1, True, (),
                   "classified full, content, layout or partial", _classifier, needs_scores=True),
    ]  # fmt: skip
    return {s.key: s for s in specs}


#: Every method key, in table order.
METHOD_KEYS: tuple[str, ...] = tuple(method_specs())


@dataclass(frozen=True)
class MethodResult:
    """One method's view of a pair, as the inspector shows it.

    Attributes:
        method: the method's name (:attr:`MethodSpec.name`, e.g. ``"SimHash (64-bit)"``).
        left, right: the two pages' values as text (hashes in hex, counts...).
        measure: the pair's measure as text (e.g. ``"Hamming distance 2 bits"``).
        duplicate: the method's verdict at its default threshold.
        rule: the threshold rule in words, with its source (:attr:`MethodSpec.rule`).
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
    """Apply each method that works from the two pages alone to a pair.

    Args:
        a, b: the two pages.
        thresholds: thresholds (for the SimHash k); defaults to :class:`Thresholds`.
        idf: collection statistics for I-Match (:meth:`CollectionIdf.from_pages` of the scan's
            pages, computed once per scan); without them I-Match keeps every term of the two
            pages, and its row says so.

    Returns:
        One :class:`MethodResult` per method of :func:`method_specs` without
        ``needs_scores``, in table order: exact bytes, normalized text, SimHash, shingles,
        MinHash, I-Match, feature strings, content-defined chunks, URL.
    """
    pair = PairInputs(page_inputs(a, idf), page_inputs(b, idf))
    out = []
    for spec in method_specs(thresholds).values():
        if spec.needs_scores:
            continue
        m = spec.compare(pair)
        verdict = spec.is_duplicate(m.value, spec.default)
        out.append(MethodResult(spec.name, m.left, m.right, m.measure, verdict, spec.rule, m.applicable))
    return out
