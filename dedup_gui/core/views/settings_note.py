"""The settings of a scan that differ from the defaults, in a few words for the window's status line.

The window remembers the thresholds and the "Use the Feature Cache" choice from one session to
the next; a count that differs from the command line's (run with the defaults) is explained
here rather than only by the panel's values.  A scan setting chosen after the scan (Scan >
Main-Content Extractor) applies at the next one: the note says so for as long as the results
shown were made otherwise.
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


#: The extractors' names in the status line (keys of
#: :data:`~dedup_gui.core.extraction.extract.EXTRACTORS`; an unknown one is named by its key).
EXTRACTOR_NAMES = {"fast": "fast", "readability": "readability-lxml", "resiliparse": "Resiliparse"}

#: The scan settings other than the extractor that change what a scan finds, so that a change
#: applies only at the next scan (the feature cache, the workers and the time limits do not).
RESCAN_FIELDS = (
    "max_file_bytes", "min_tokens", "shingle_size", "num_perm", "lsh_threshold",
    "candidate_containment", "boilerplate_pages", "learn_templates", "follow_links",
)  # fmt: skip


def pending_settings(made_with: ScanSettings, chosen: ScanSettings) -> str:
    """Say that the results shown were made with other scan settings than those chosen, which
    apply only at the next scan: a choice in Scan > Main-Content Extractor changes nothing
    shown until a rescan, and a transient message was easy to miss.

    Args:
        made_with: the settings of the scan whose results are shown (``result.settings``).
        chosen: the settings the next scan uses (the session's).

    Returns:
        ``""`` when nothing that needs a rescan differs; else e.g. ``"results made with fast;
        Resiliparse applies at the next scan (F5)"``, or ``"results made with other scan
        settings; yours apply at the next scan (F5)"`` for settings the window does not name (str).
    """
    if made_with.extractor != chosen.extractor:
        old, new = (EXTRACTOR_NAMES.get(s.extractor, s.extractor) for s in (made_with, chosen))
        return f"results made with {old}; {new} applies at the next scan (F5)"
    if any(getattr(made_with, f) != getattr(chosen, f) for f in RESCAN_FIELDS):
        return "results made with other scan settings; yours apply at the next scan (F5)"
    return ""


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


def settings_note(thresholds: Thresholds, settings: ScanSettings, chosen: ScanSettings | None = None) -> str:
    """What a scan ran with that is not the default, for the status line after it, and the
    scan settings chosen since that apply only at the next scan (:func:`pending_settings`).

    Args:
        thresholds: the thresholds the pairs' types were computed with.
        settings: the scan's settings (``use_cache`` is named; the extractor only when it
            differs from ``chosen``'s).
        chosen: the settings the next scan uses; ``None``: the scan's own (nothing pending).

    Returns:
        ``""`` with the default thresholds and the cache on; else e.g. ``" (your thresholds:
        content partial ≥ 0.500; feature cache off)"`` or ``" (results made with fast; Resiliparse applies at the next scan (F5))"``
        (str, with a leading space).
    """
    parts = []
    changed = changed_thresholds(thresholds)
    if changed:
        # no "Reset to defaults in the Thresholds panel": the panel's button is beside the line,
        # and the longer note cut the line's group count at 1280 px (a tester)
        parts.append(f"your thresholds: {', '.join(changed)}")
    if not settings.use_cache:
        parts.append("feature cache off")
    pending = pending_settings(settings, chosen if chosen is not None else settings)
    if pending:
        parts.append(pending)
    return f" ({'; '.join(parts)})" if parts else ""
