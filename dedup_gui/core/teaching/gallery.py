"""The four types gallery: one example pair of each duplicate type from a scan (teaching view)."""

from __future__ import annotations

from dedup_gui.core.model import TYPE_ORDER, DupType, Pair, ScanResult, Thresholds


def type_examples(result: ScanResult, include_distinct: bool = False) -> dict[DupType, Pair | None]:
    """One example pair per duplicate type: the scan's most similar pair of that type.

    Args:
        result: a finished scan (its pairs are sorted most similar first).
        include_distinct: also give a distinct candidate pair, for contrast.

    Returns:
        type -> pair, or ``None`` where the scan found no pair of that type, in
        :data:`~dedup_gui.core.model.TYPE_ORDER` (dict).
    """
    wanted = TYPE_ORDER if include_distinct else TYPE_ORDER[:4]
    examples: dict[DupType, Pair | None] = {t: None for t in wanted}
    for pair in result.pairs:
        if pair.type in examples and examples[pair.type] is None:
            examples[pair.type] = pair
    return examples


def type_pairs(result: ScanResult) -> dict[DupType, list[Pair]]:
    """Every pair of each of the four duplicate types, most similar first: the gallery's
    examples, "Another example" going down each list (the most similar pair can be a poor
    example: a layout duplicate at content similarity 0.913, Hamming 3 bits, looks like the same
    content).

    Args:
        result: a finished scan (its pairs are sorted most similar first).

    Returns:
        type -> its pairs (an empty list where the scan found none), in
        :data:`~dedup_gui.core.model.TYPE_ORDER` (dict).
    """
    pairs: dict[DupType, list[Pair]] = {t: [] for t in TYPE_ORDER[:4]}
    for pair in result.pairs:
        if pair.type in pairs:
            pairs[pair.type].append(pair)
    return pairs


def _threshold(value: float) -> str:
    """A threshold to 3 decimals, as every teaching view writes similarities: ``0.925``,
    ``0.200`` (str)."""
    return f"{value:.3f}"


def type_rule(thresholds: Thresholds) -> str:
    """The four-type rule of :func:`dedup_gui.core.pipeline.classify.classify` with the
    thresholds in use, and what layout similarity is
    (:meth:`dedup_gui.core.pipeline.measures.PairMeasures.__call__`), in two sentences (str).

    Args:
        thresholds: the scan's thresholds (the main window's).

    Example:
        >>> type_rule(Thresholds()).split(". ")[0]
        'Rule: content similarity ≥ 0.925 is the same content (full duplicate if layout similarity ≥ 0.700, else content duplicate); below it, containment ≥ 0.200 shares a part (layout duplicate if layout similarity ≥ 0.700, else partial duplicate); else distinct'
    """
    same, part, layout = (_threshold(v) for v in (thresholds.content_same, thresholds.content_partial,
                                                  thresholds.layout_same))  # fmt: skip
    return (
        f"Rule: content similarity ≥ {same} is the same content (full duplicate if layout similarity ≥ {layout}, "
        f"else content duplicate); below it, containment ≥ {part} shares a part (layout duplicate if layout "
        f"similarity ≥ {layout}, else partial duplicate); else distinct. Where a site's template is unknown "
        f"and Jaccard ≥ {_threshold(thresholds.same_min_jaccard)}, the higher of content similarity and "
        "containment is compared with the first threshold. Layout similarity: 1 − Levenshtein distance / "
        "longer length of the two templates' tag sequences (every element's name in document order, the "
        "main content's subtree, where found, counted as one element, comment threads left out)."
    )
