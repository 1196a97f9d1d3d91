"""The pairs whose type the last re-classification changed, for the pairs table's filter.

After a threshold change (or a "not a duplicate" mark) the status line says "Thresholds
applied: 9 pairs re-classified"; the pairs table's Type combo then offers "Changed by the last
re-classification (9)", and the Type cell of each such pair names its previous type in its
tooltip.  No Qt here; :class:`~dedup_gui.core.views.tables.PairsTable` holds the state.
"""

from __future__ import annotations

from collections.abc import Sequence

from dedup_gui.core.model import Pair

#: The Type combo's entry, before its count.
CHANGED_LABEL = "Changed by the last re-classification"
#: A marked pair's type says so briefly (as the Type cell: ``"distinct (marked by you)"``).
MARKED_SHORT = "marked by you"


def type_text(pair: Pair) -> str:
    """A pair's type as the Type cell says it: ``"content duplicate"``, or ``"distinct (marked by you)"``
    for a pair the user marked not a duplicate (str)."""
    return f"{pair.type.label} ({MARKED_SHORT})" if pair.not_duplicate else pair.type.label


def previous_types(old: Sequence[Pair], new: Sequence[Pair]) -> dict[int, str] | None:
    """The pairs of ``new`` whose type or "not a duplicate" mark differs from the same pair of
    ``old``, with the type they had (a re-classification keeps the pairs and their order).

    Args:
        old: the pairs shown before the re-classification.
        new: the re-classified pairs.

    Returns:
        ``{index in new: previous type text}`` (:func:`type_text`), or ``None`` when the two
        are not the same pairs (another scan: nothing to compare).
    """
    if len(old) != len(new):
        return None
    out = {}
    for i, (a, b) in enumerate(zip(old, new, strict=True)):
        if (a.left, a.right) != (b.left, b.right):
            return None
        if a.type is not b.type or a.not_duplicate != b.not_duplicate:
            out[i] = type_text(a)
    return out


def changed_choice(count: int) -> str:
    """The Type combo's entry for ``count`` changed pairs, e.g. ``"Changed by the last
    re-classification (9)"`` (str)."""
    return f"{CHANGED_LABEL} ({count:,})"


def changed_tooltip(now: str, before: str) -> str:
    """The Type cell's tooltip of a changed pair, e.g. ``"partial duplicate; content duplicate
    before the last re-classification"`` (str)."""
    return f"{now}; {before} before the last re-classification"
