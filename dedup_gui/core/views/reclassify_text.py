"""The status line's words while a re-classification runs and once its result is shown.

A threshold change, Not a Duplicate, Keep This Page Instead and Re-prioritize re-classify the
scan off the GUI thread (seconds for 10,000 pairs on a busy machine); the status line says
so from the start (:func:`reclassifying_text`, with a busy bar) until every view shows the new
result, then says what changed (:func:`reclassified_text`).  No Qt here.
"""

from __future__ import annotations

from dedup_gui.core.model import ScanResult
from dedup_gui.core.views.changed_filter import previous_types


def reclassifying_text(pairs: int, doing: str = "") -> str:
    """The status line while ``pairs`` pairs are re-classified, e.g. ``"Re-classifying 10,170
    pairs…"`` or, with ``doing`` ``"Marking a.html and b.html not a duplicate"``, ``"Marking
    a.html and b.html not a duplicate: re-classifying 10,170 pairs…"`` (str)."""
    what = f"re-classifying {pairs:,} pair{'' if pairs == 1 else 's'}…"
    return f"{doing}: {what}" if doing else what[:1].upper() + what[1:]


def changed_pairs(old: ScanResult | None, new: ScanResult) -> int:
    """How many pairs of ``new`` have another type, or another "not a duplicate" mark, than the
    same pair of ``old`` (a re-classification keeps the pairs and their order); every pair
    when ``old`` is ``None`` or has other pairs (int)."""
    # the pairs table's "changed" filter lists the same pairs (changed_filter.previous_types)
    changed = None if old is None else previous_types(old.pairs, new.pairs)
    return len(new.pairs) if changed is None else len(changed)


def reclassified_text(done: str, changed: int) -> str:
    """The status line once a re-classified result is shown: ``done`` (what was asked, e.g.
    ``"Marked a.html and b.html not a duplicate (saved for rescans)"``) and how many pairs
    changed type, e.g. ``"…: 12 pairs re-classified"`` or ``"…: no pair changed type"`` (str)."""
    counted = "no pair changed type" if changed == 0 else f"{changed:,} pair{'' if changed == 1 else 's'} re-classified"
    return f"{done}: {counted}"


def kept_instead_text(path: str, previous: str | None, cluster_id: int) -> str:
    """The status line once "Keep This Page Instead" is shown: which page is kept now, in place
    of which, in which keep cluster, e.g. ``"Kept v1.10/a.html instead of v1.16/a.html: the
    kept page of keep cluster 5 (your choice, saved for rescans)"`` (str).  The pairs' count
    (:func:`reclassified_text`) said "no pair changed type": true, and nothing about the choice.

    Args:
        path: the page now kept.
        previous: the page kept before, or ``None`` (unknown, or the same page).
        cluster_id: the number of its keep cluster in the new result.
    """
    instead = f" instead of {previous}" if previous and previous != path else ""
    return f"Kept {path}{instead}: the kept page of keep cluster {cluster_id} (your choice, saved for rescans)"
