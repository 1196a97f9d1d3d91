"""The four types gallery: one example pair of each duplicate type from a scan (teaching view)."""

from __future__ import annotations

from dedup_gui.core.model import TYPE_ORDER, DupType, Pair, ScanResult


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
