"""The report's summary and fixed texts, typed, for every renderer of a report for people.

The HTML report (:mod:`dedup_gui.core.reports.html`) and the PDF report
(:mod:`dedup_gui.export.pdf`) lay out the same :class:`ReportSummary` (the heading, the counts,
the pairs-by-type table, thresholds and settings, the notes) and the same section titles and
sentences defined here, so the two cannot say different things.  Strings are plain, unescaped
text; each renderer escapes them for its markup.
"""

from __future__ import annotations

from dataclasses import dataclass

from dedup_gui.core.model import TYPE_ORDER, DupType
from dedup_gui.core.reports.excerpt import DiffExcerpt
from dedup_gui.core.reports.model import PairEntry, Report
from dedup_gui.core.reports.site_share import (
    SectionRow,
    duplicate_pages_by_type,
    page_duplicate_shares,
    section_rows,
    site_duplicate_share,
)

#: The heading of a report for people.
REPORT_HEADING = "Duplicate pages report"
#: Longest title or URL printed (characters); longer ones are cut with an ellipsis.
MAX_LABEL = 300
#: What each type means, for the "pairs by type" table: ``(content, layout)``.
TYPE_MEANING = {
    DupType.FULL: ("same", "same"),
    DupType.CONTENT: ("same", "different"),
    DupType.LAYOUT: ("important part shared", "same"),
    DupType.PARTIAL: ("important part shared", "different"),
    DupType.DISTINCT: ("no important part shared", "any"),
}

#: The sections, in order: anchor id -> title.
SECTIONS = {
    "summary": "Summary",
    "charts": "Charts",
    "keep": "What to keep",
    "clusters": "Near-duplicate groups",
    "pairs": "Duplicate pairs",
    "unusable": "Files that could not be used",
    "engine": "For engineers: thresholds and scan settings",
}
#: Sentences of the sections, for every renderer.
KEEP_LEAD = "Keep clusters, and which page to keep."
NOTHING_TO_DROP = "Nothing to drop: no page is a full or content duplicate of another."
NO_GROUPS = "No groups: no duplicate pairs."
NO_DUPLICATES = "None."
NO_ERRORS = "None: every page file could be read."
NO_TEXT_HEADING = "Pages without usable main text"
NO_TEXT_NOTE = (
    "Read, but with too little main text to compare; they are never called duplicates on their (empty) text alone."
)
IDENTICAL_TEXTS = "The two main texts are identical."


def clip(text: str | None, limit: int = MAX_LABEL) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis (unescaped str; ``None`` -> ``""``)."""
    text = text or ""
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class Stat:
    """One count of the summary, e.g. ``Stat(14, "pages")``."""

    value: int
    label: str


@dataclass(frozen=True)
class TypeRow:
    """One row of the pairs-by-type table.

    Attributes:
        type: the duplicate type.
        content, layout: what the type means for content and for layout.
        pairs: pairs of that type in the whole scan.
        shown: pairs of that type in the report's subset (``None`` when the report shows all).
    """

    type: DupType
    content: str
    layout: str
    pairs: int
    shown: int | None


@dataclass(frozen=True)
class ReportSummary:
    """What a report for people says before its sections of groups and pairs.

    Attributes:
        heading: the document's heading.
        folder: the scanned folder.
        made: when, by what version and how long the scan took, as a sentence.
        subset_note: the sentence saying the report shows a filtered subset, or ``None``.
        stats: the counts of the whole scan, in display order.
        notes: the scan's notes.
        type_rows: the pairs-by-type table, in :data:`TYPE_ORDER`.
        thresholds, settings: ``(name, value, meaning)`` rows.
        pairs_notes: the sentences above the list of duplicate pairs (distinct pairs not listed,
            pairs left out by the limit).
        headline: the client summary's one sentence (Siteliner's measure): how much of the
            site's main content is duplicated on other pages.
        page_shares: ``(type label, share of pages)`` rows: the pages in a pair of each type.
        sections: the site sections, most duplicated content first
            (:class:`~dedup_gui.core.reports.site_share.SectionRow`).
    """

    heading: str
    folder: str
    made: str
    subset_note: str | None
    stats: tuple[Stat, ...]
    notes: tuple[str, ...]
    type_rows: tuple[TypeRow, ...]
    thresholds: tuple[tuple[str, str, str], ...]
    settings: tuple[tuple[str, str, str], ...]
    pairs_notes: tuple[str, ...]
    headline: str = ""
    page_shares: tuple[tuple[str, float], ...] = ()
    sections: tuple[SectionRow, ...] = ()

    @property
    def subset(self) -> bool:
        """``True`` when the report shows a filtered subset of the pairs (bool)."""
        return self.subset_note is not None


def report_summary(report: Report) -> ReportSummary:
    """The :class:`ReportSummary` of a report.

    Args:
        report: from :func:`dedup_gui.core.reports.model.build_report`.

    Returns:
        The summary (counts of the whole scan even when the report shows a subset).
    """
    r = report.result
    s = report.summary()
    subset_note = (
        f"This report shows the {len(report.pairs):,} of {len(r.pairs):,} compared pairs that the filters "
        "selected; the summary counts the whole scan."
        if report.subset
        else None
    )
    dup_total = sum(n for t, n in s["pairs_by_type"].items() if t != "distinct")
    stats = (
        Stat(s["pages"], "pages"),
        Stat(s["pages_without_text"], "without usable text"),
        Stat(s["errors"], "files not usable"),
        Stat(s["skipped"], "other files skipped"),
        Stat(s["pairs_compared"], "pairs compared"),
        Stat(dup_total, "duplicate pairs"),
        Stat(s["clusters"], "near-duplicate groups"),
        Stat(s["keep_clusters"], "keep clusters"),
        Stat(s["pages_to_drop"], "pages to drop"),
    )
    shown = report.shown_type_counts()
    rows = tuple(
        TypeRow(t, *TYPE_MEANING[t], s["pairs_by_type"][t.value], shown[t] if report.subset else None)
        for t in TYPE_ORDER
    )
    pairs_notes = []
    distinct_shown = sum(1 for p in report.pairs if p.type is DupType.DISTINCT)
    if distinct_shown:
        pairs_notes.append(f"{distinct_shown:,} distinct pairs are not listed.")
    for t, (listed, total) in report.listed_by_type.items():
        if listed < total:
            pairs_notes.append(
                f"{t.label.capitalize()}s: the {listed:,} most similar of {total:,} are listed; "
                f"the CSV, XLSX and JSON exports hold all {total:,}."
            )
    shares = page_duplicate_shares(r)
    site = site_duplicate_share(r, shares)
    headline = (
        f"{site:.0%} of this site's main content also appears on other pages of it "
        f"({sum(p.has_text for p in r.pages):,} pages with usable text)."
    )
    page_shares = tuple((t.label, share) for t, share in duplicate_pages_by_type(r).items())
    return ReportSummary(
        headline=headline,
        page_shares=page_shares,
        sections=tuple(section_rows(r, shares)),
        heading=REPORT_HEADING,
        folder=r.root,
        made=f"Made {report.created_text} by dedup-gui {report.version} in a scan of {s['seconds']:.1f} s.",
        subset_note=subset_note,
        stats=stats,
        notes=tuple(s["notes"]),
        type_rows=rows,
        thresholds=tuple(report.threshold_rows()),
        settings=tuple(report.setting_rows()),
        pairs_notes=tuple(pairs_notes),
    )


def missing_excerpt_text(entry: PairEntry, limit: int) -> str:
    """Why a pair shows no diff excerpt (str): a page without text, or past the excerpt limit
    (``limit`` diff excerpts in all, shared among the types, the most similar pairs first)."""
    if not entry.pair.scores.both_have_text:
        return "No diff: at least one page has no usable main text."
    return f"No diff excerpt: the report has {limit:,} in all, for the most similar pairs of each type."


def excerpt_counts(excerpt: DiffExcerpt) -> str:
    """The excerpt's changed places and unchanged shares as a sentence (str), e.g.
    ``"2 changed places; unchanged: 91.0% of the left text, 88.5% of the right."``"""
    shown = len(excerpt.spots)
    total = excerpt.total_spots
    more = (
        f"{shown} of {total} changed places shown"
        if total > shown
        else f"{total} changed place{'s' if total != 1 else ''}"
    )
    return f"{more}; unchanged: {excerpt.shared_a:.1%} of the left text, {excerpt.shared_b:.1%} of the right."
