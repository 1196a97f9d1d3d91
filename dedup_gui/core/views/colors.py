"""The colour of each duplicate type, shared by the charts, the tables and the reports (no
matplotlib: a report or a table that only colours a label does not load it)."""

from __future__ import annotations

from dedup_gui.core.model import DupType

#: One colour per type (CSS hex colours; the matplotlib "tab10" hues).
TYPE_COLORS = {
    DupType.FULL: "#d62728",
    DupType.CONTENT: "#ff7f0e",
    DupType.LAYOUT: "#1f77b4",
    DupType.PARTIAL: "#9467bd",
    DupType.DISTINCT: "#8c8c8c",
}
