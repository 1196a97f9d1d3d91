"""The settings of a scan that differ from the defaults, in a few words for the window's status line.

The window remembers the thresholds and the "Use the Feature Cache" choice from one session to
the next; a count that differs from the command line's (run with the defaults) is explained
here rather than only by the panel's values.
"""

from __future__ import annotations

from dedup_gui.core.model import ScanSettings, Thresholds

#: The thresholds the Thresholds panel shows, with its words: (field, label, comparison).
PANEL_THRESHOLDS = (
    ("content_same", "content same", "≥"),
    ("content_partial", "content partial", "≥"),
    ("layout_same", "layout same", "≥"),
    ("hamming_k", "Hamming k", "≤"),
)


def changed_thresholds(thresholds: Thresholds) -> list[str]:
    """The panel's thresholds that differ from the defaults (:class:`Thresholds`\\ ()), e.g.
    ``["content partial ≥ 0.500"]`` (list of str, in the panel's order; similarities to 3
    places as the panel shows them, Hamming k in bits)."""
    default = Thresholds()
    out = []
    for name, label, sign in PANEL_THRESHOLDS:
        value = getattr(thresholds, name)
        if value != getattr(default, name):
            out.append(f"{label} {sign} {value:.3f}" if isinstance(value, float) else f"{label} {sign} {value}")
    return out


def settings_note(thresholds: Thresholds, settings: ScanSettings) -> str:
    """What a scan ran with that is not the default, for the status line after it.

    Args:
        thresholds: the thresholds the pairs' types were computed with.
        settings: the scan's settings (only ``use_cache`` is named: the extractor has its own
            menu and is named where it is chosen).

    Returns:
        ``""`` with the default thresholds and the cache on; else e.g. ``" (your thresholds:
        content partial ≥ 0.500, Reset to defaults in the Thresholds panel; feature cache
        off)"`` (str, with a leading space).
    """
    parts = []
    changed = changed_thresholds(thresholds)
    if changed:
        parts.append(f"your thresholds: {', '.join(changed)}, Reset to defaults in the Thresholds panel")
    if not settings.use_cache:
        parts.append("feature cache off")
    return f" ({'; '.join(parts)})" if parts else ""
