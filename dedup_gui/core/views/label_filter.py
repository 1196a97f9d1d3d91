"""The human labels of a scan's pairs in the pairs table: its "Label" column and its Type combo
entry "Differs from label (N)" (as :mod:`.changed_filter` for "Changed by the last
re-classification (N)").  The labels are read by
:func:`dedup_gui.core.evaluation.pair_labels.read_scan_labels`; no Qt here, and
:class:`~dedup_gui.core.views.tables.PairsTable` holds the state.
"""

from __future__ import annotations

from dedup_gui.core.model import DupType

#: The Type combo's entry, before its count.
DIFFERS_LABEL = "Differs from label"
#: A pair's two page paths (relative to the scanned folder), in sorted order: the key of a label.
PairKey = tuple[str, str]


def pair_key(left: str, right: str) -> PairKey:
    """The key of the pair of pages ``left`` and ``right`` in either order (tuple[str, str])."""
    return (left, right) if left <= right else (right, left)


def differs_choice(count: int) -> str:
    """The Type combo's entry for ``count`` pairs whose type differs from their label, e.g.
    ``"Differs from label (12)"`` (str)."""
    return f"{DIFFERS_LABEL} ({count:,})"


def label_tooltip(label: DupType, predicted: DupType) -> str:
    """The Label cell's tooltip: the label, and the predicted type when it differs, e.g.
    ``"labelled full duplicate in the labels file; the thresholds give partial duplicate"`` (str)."""
    said = f"labelled {label.label} in the labels file"
    return said if label is predicted else f"{said}; the thresholds give {predicted.label}"


def label_line(label: DupType, given: DupType) -> str:
    """The inspector's "Why this type" line for a labelled pair: the label, and whether it
    agrees with the type given, e.g. ``"Labelled: partial duplicate (differs from the type
    given)"`` or ``"Labelled: full duplicate (agrees)"`` (str).

    Args:
        label: the pair's type in the labels file.
        given: the type the thresholds in force give it (distinct for a pair marked not a duplicate).
    """
    return f"Labelled: {label.label} ({'agrees' if label is given else 'differs from the type given'})"
