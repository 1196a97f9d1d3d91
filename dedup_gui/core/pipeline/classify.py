"""The four duplicate types: the decision rule, its explanation in words, and re-classification.

A pair is classified from three measures (DESIGN.md):

=========================  ===========================  ==================
content                    layout same                  layout different
=========================  ===========================  ==================
same                       full (1)                     content (2)
partly same (containment)  layout (3)                   partial (4)
no important part shared   distinct                     distinct
=========================  ===========================  ==================

"Same content" means content similarity >= ``content_same``: both texts nearly equal, in both
directions.  Only where the scan could not learn a page's site template (too few pages of its
site in the folder, or pages read one by one, as ``evaluate`` does) may containment stand in:
content containment >= ``content_same`` with Jaccard similarity >= ``same_min_jaccard`` (there
the longer text may be the same article with template text the extractor kept; the Jaccard guard
keeps a short page inside a long one from counting as the same).  "Partly the same" means
content containment >= ``content_partial``.  "Same layout" means layout similarity >=
``layout_same``.  Byte-identical files are full duplicates; pages without usable main text are
never duplicates of anything, not even when their files are identical (empty placeholders, a
site's 404 page copied into each version folder): there is no content to duplicate.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from dedup_gui.core.columns import TYPE_CODE as _CODE
from dedup_gui.core.columns import pair_columns
from dedup_gui.core.model import TYPE_ORDER, DupType, Pair, PairScores, ScanResult, Thresholds
from dedup_gui.core.number_format import format_score
from dedup_gui.core.pipeline.cluster import build_clusters
from dedup_gui.core.pipeline.not_duplicates import NOT_DUPLICATE_REASON, marked_rows


def content_evidence(s: PairScores, t: Thresholds) -> float:
    """The content figure the rule compares with ``content_same`` ([0, 1]): the content
    similarity; where the site's template is unknown and the shingle sets overlap enough
    (Jaccard >= ``same_min_jaccard``), the containment if it is higher (it stands in for the
    similarity: the longer text may be the same article with template text left in); 1.0 for
    identical bytes.  The content/layout map draws pairs at this figure, so each lies in the
    region of its type."""
    if s.identical_bytes:
        return 1.0
    if not s.templates_known and s.jaccard >= t.same_min_jaccard:
        return max(s.content_similarity, s.content_containment)
    return s.content_similarity


def _same_content(s: PairScores, t: Thresholds) -> bool:
    return content_evidence(s, t) >= t.content_same


def containment_text(scores: PairScores) -> str:
    """Which page's content lies inside the other, in words: ``"left is 96 % inside right"``.

    Args:
        scores: the pair's measures.

    Returns:
        The sentence (str); for pages with as many shingles, ``"96 % of either page is in the
        other"``; ``""`` when the pages' texts were not compared.
    """
    if not scores.both_have_text and not scores.identical_bytes:
        return ""
    value = round(scores.content_containment * 100)
    value = 99 if value == 100 and scores.content_containment < 1.0 else value  # never round a difference away
    share = f"{value} %"
    if scores.contained_side == "left":
        return f"left is {share} inside right"
    if scores.contained_side == "right":
        return f"right is {share} inside left"
    return f"{share} of the shorter page is in the other (the two are about as long)"


def classify(scores: PairScores, thresholds: Thresholds) -> DupType:
    """Classify a pair into one of the four duplicate types or ``distinct``.

    Args:
        scores: the pair's measures.
        thresholds: the decision thresholds.

    Returns:
        The :class:`DupType`.
    """
    if not scores.both_have_text:  # not even identical copies: there is no content to duplicate
        return DupType.DISTINCT
    if scores.identical_bytes:
        return DupType.FULL
    same_layout = scores.layout_similarity >= thresholds.layout_same
    if _same_content(scores, thresholds):
        return DupType.FULL if same_layout else DupType.CONTENT
    if scores.content_containment >= thresholds.content_partial:
        return DupType.LAYOUT if same_layout else DupType.PARTIAL
    return DupType.DISTINCT


def _shown(value: float) -> str:
    """A threshold as the panel shows it, without a third decimal that is 0: ``0.50``, ``0.925``."""
    text = f"{value:.3f}"
    return text[:-1] if text.endswith("0") else text


def threshold_warnings(thresholds: Thresholds) -> list[str]:
    """Thresholds that leave a type (nearly) impossible under :func:`classify`, in words.

    They are allowed (a user may want exactly that) but rarely meant: ``content_partial``
    above ``content_same`` (the bar for sharing a part is higher than the bar for the same
    content), or ``content_same``, ``content_partial`` or ``layout_same`` at 0 (every measure
    reaches it).

    Args:
        thresholds: the thresholds to check.

    Returns:
        One sentence per problem (list[str], empty when none), naming the thresholds as the
        window's Thresholds panel does, e.g. ``"Content partial (0.99) is above Content same
        (0.50): ..."``.
    """
    t = thresholds
    out = []
    if t.content_same == 0:  # says more than the inversion would (no similarity is below 0)
        out.append("Content same is 0: every pair of pages with text is a full or content duplicate")
    elif t.content_partial > t.content_same:
        out.append(
            f"Content partial ({_shown(t.content_partial)}) is above Content same ({_shown(t.content_same)}): "
            f"no pair can be a layout or partial duplicate unless its content containment reaches "
            f"{_shown(t.content_partial)} while its content similarity stays below {_shown(t.content_same)} "
            "(a short page inside a longer one)"
        )
    elif t.content_partial == 0:
        out.append("Content partial is 0: no pair of pages with text is distinct")
    if t.layout_same == 0:
        out.append("Layout same is 0: every pair shares a layout, so none is a content or partial duplicate")
    return out


def explain(scores: PairScores, thresholds: Thresholds) -> list[str]:
    """The classification in words: each measure against its threshold, then the verdict.

    Args:
        scores: the pair's measures.
        thresholds: the decision thresholds.

    Returns:
        Sentences (list[str]), the last one naming the type, e.g.
        ``"same content and different layout => content duplicate"``.
    """
    t = thresholds
    verdict = classify(scores, t)
    if not scores.both_have_text:
        identical = " (the files are identical, but there is no content to duplicate)" if scores.identical_bytes else ""
        return [
            f"at least one page has no usable main text, so their texts are not compared{identical}",
            f"=> {verdict.label}",
        ]
    if scores.identical_bytes:
        return ["the two files have identical bytes", f"=> {verdict.label}"]
    lines = []
    same = _same_content(scores, t)
    cmp = ">=" if scores.content_similarity >= t.content_same else "<"
    lines.append(f"content similarity {format_score(scores.content_similarity)} {cmp} {t.content_same:.3f}")
    if scores.content_similarity < t.content_same and same:
        lines.append(
            f"content containment {format_score(scores.content_containment)} >= {t.content_same:.3f} "
            f"({containment_text(scores)}) and Jaccard {format_score(scores.jaccard)} >= {t.same_min_jaccard:.3f}: "
            "the scan did not learn these pages' site template, so containment stands in for similarity "
            "(the longer text may be the same article with template text the extractor kept)"
        )
    if not same and scores.templates_known and scores.content_containment >= t.content_same:
        why_not = (
            "one text inside a longer one is not the same content"
            if scores.contained_side
            else "shingles shared both ways are not the same text, so content similarity (the texts "
            "compared word by word: reordered, repeated or changed words) decides"
        )
        lines.append(
            f"content containment {format_score(scores.content_containment)} >= {t.content_same:.3f} "
            f"({containment_text(scores)}), but the scan learned both pages' site template: {why_not}"
        )
    if same:
        content_words = "same content"
    else:
        cmp = ">=" if scores.content_containment >= t.content_partial else "<"
        lines.append(
            f"content containment {format_score(scores.content_containment)} {cmp} {t.content_partial:.3f} ({containment_text(scores)})"
        )
        content_words = (
            "an important part of the content is shared"
            if scores.content_containment >= t.content_partial
            else "no important part of the content is shared"
        )
    same_layout = scores.layout_similarity >= t.layout_same
    cmp = ">=" if same_layout else "<"
    lines.append(
        f"layout similarity {format_score(scores.layout_similarity)} {cmp} {t.layout_same:.3f} (templates: the pages "
        "without their main content)"
    )
    layout_words = "same layout" if same_layout else "different layout"
    lines.append(f"{content_words} and {layout_words} => {verdict.label}")
    return lines


def explain_pair(pair: Pair, thresholds: Thresholds) -> list[str]:
    """:func:`explain` for a pair of a scan: for a pair the user marked "not a duplicate"
    (:attr:`~dedup_gui.core.model.Pair.not_duplicate`), what the measures alone say, then
    that the mark makes it distinct.

    Args:
        pair: the pair.
        thresholds: the decision thresholds.

    Returns:
        Sentences (list[str]), the last one naming the pair's type, e.g.
        ``"marked not a duplicate by you => distinct"``.
    """
    lines = explain(pair.scores, thresholds)
    if not pair.not_duplicate:
        return lines
    measured = classify(pair.scores, thresholds)
    return [
        *lines[:-1],
        f"the measures alone say: {measured.label}",
        f"{NOT_DUPLICATE_REASON} => {DupType.DISTINCT.label}",
    ]


def type_codes(columns, thresholds: Thresholds) -> np.ndarray:
    """:func:`classify` for every pair at once, on NumPy columns.

    Args:
        columns: the pairs' :class:`~dedup_gui.core.columns.PairColumns`.
        thresholds: the decision thresholds.

    Returns:
        Type codes (``np.int8``, shape (n,)): each pair's type as its index in
        :data:`~dedup_gui.core.model.TYPE_ORDER`, as :func:`classify` gives it.
    """
    c = columns
    t = thresholds
    same_layout = c.layout_similarity >= t.layout_same
    same = (c.content_similarity >= t.content_same) | (
        ~c.templates_known & (c.content_containment >= t.content_same) & (c.jaccard >= t.same_min_jaccard)
    )
    partly = c.content_containment >= t.content_partial
    code = np.full(c.n, _CODE[DupType.DISTINCT], dtype=np.int8)
    code[partly] = np.where(same_layout[partly], _CODE[DupType.LAYOUT], _CODE[DupType.PARTIAL])
    code[same] = np.where(same_layout[same], _CODE[DupType.FULL], _CODE[DupType.CONTENT])
    code[c.identical_bytes] = _CODE[DupType.FULL]
    code[~c.both_have_text] = _CODE[DupType.DISTINCT]
    return code


def reclassify(result: ScanResult, thresholds: Thresholds) -> ScanResult:
    """Re-classify every pair of a scan under new thresholds, without rescanning.

    Candidate pairs were generated with the scan's own settings, so lowering thresholds far
    below the candidate generator's reach cannot find pairs that were never candidates.  The
    pairs of ``result.not_duplicates`` (the user's ignore list) are ``DISTINCT`` with
    :attr:`~dedup_gui.core.model.Pair.not_duplicate` set, whatever the thresholds; the other
    pairs lose the mark.  ``reclassify(replace(result, not_duplicates=...), result.thresholds)``
    therefore applies a new ignore list.

    Args:
        result: a finished scan.
        thresholds: the new thresholds.

    Returns:
        A new :class:`ScanResult` with re-typed pairs and re-built clusters.
    """

    # On columns, so that a million pairs take a fraction of a second: only the pairs whose type
    # changes get new objects, and the new result shares the measure columns.
    columns = pair_columns(result)
    codes = type_codes(columns, thresholds)
    marked = marked_rows(result, columns)
    codes[marked] = _CODE[DupType.DISTINCT]
    pairs = list(result.pairs)
    for i in np.flatnonzero((codes != columns.type_code) | (marked != columns.not_duplicate)).tolist():
        p = pairs[i]
        pairs[i] = Pair(p.left, p.right, p.scores, TYPE_ORDER[codes[i]], bool(marked[i]))
    clusters = build_clusters(len(result.pages), pairs)
    new = replace(result, pairs=pairs, clusters=clusters, thresholds=thresholds)
    pair_columns(new, columns.with_types(pairs, codes, marked))
    return new
