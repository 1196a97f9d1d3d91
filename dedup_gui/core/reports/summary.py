"""The report's summary and fixed texts, typed, for every renderer of a report for people.

The HTML report (:mod:`dedup_gui.core.reports.html`) and the PDF report
(:mod:`dedup_gui.export.pdf`) lay out the same :class:`ReportSummary` (the heading, the counts,
the pairs-by-type table, thresholds and settings, the notes) and the same section titles and
sentences defined here, so the two cannot say different things.  Strings are plain, unescaped
text; each renderer escapes them for its markup.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from dedup_gui.core.model import TYPE_ORDER, DupType, Page, ScanResult
from dedup_gui.core.pipeline.keep_clusters import link_count
from dedup_gui.core.pipeline.redirects import MISSING_LABEL
from dedup_gui.core.reports.excerpt import DiffExcerpt
from dedup_gui.core.reports.model import KeepEntry, PairEntry, Report
from dedup_gui.core.reports.site_share import (
    DROP,
    KEEP,
    PageRow,
    SectionRow,
    duplicate_pages_by_type,
    page_duplicate_shares,
    page_rows,
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
    "pairs": "Duplicate pairs",
    "pages": "Pages with duplicated content",
    "clusters": "Near-duplicate groups",
    "unusable": "Files that could not be used",
    "engine": "For engineers: thresholds and scan settings",
}
#: Sentences of the sections, for every renderer.
KEEP_LEAD = "Keep clusters, and which page to keep."
#: The heading of the whole keep rule, after the keep plan.
KEEP_RULE_HEADING = "The keep rule in full"
NOTHING_TO_DROP = "Nothing to drop: no page is a full or content duplicate of another."
NO_GROUPS = "No groups: no duplicate pairs."
NO_DUPLICATES = "None."
NO_ERRORS = "None: every page file could be read."
NO_TEXT_HEADING = "Pages without usable main text"
NO_TEXT_NOTE = (
    "Read, but with too little main text to compare; they are never called duplicates on their (empty) text alone."
)
IDENTICAL_TEXTS = "The two main texts are identical."
MISSING_REDIRECTS_NOTE = (
    "Client-side redirects (meta refresh) whose target is inside the folder but no page there: a visitor "
    "who follows one finds nothing. Point each to an existing page, or remove it. They are not repeated "
    "among the pages without usable main text below."
)
LARGEST_KEEP_HEADING = "Largest keep clusters"
ACT_ON_HEADING = "Pages to act on"
ACT_ON_NOTE = (
    "The pages whose main content is most duplicated elsewhere, without the pages to keep: drop each "
    "duplicate in favour of the page to keep (a 301 redirect or a canonical link to it), and review the "
    "pages that share part of their text."
)
SECTIONS_HEADING = "By site section"
SECTIONS_NOTE = (
    "duplicated content: the share of the section's main text that also appears on other pages; "
    "kept: its pages kept as the copy of a keep cluster; to drop: its pages to drop in favour of a kept page "
    "(a section of kept pages holds the copies to keep, however much of its content is duplicated)."
)
PAGES_NOTE = (
    "Every page with content that also appears on another page, most duplicated first, with what to do: "
    "keep, drop (in favour of the page to keep) or review. Click a heading to sort; type in the boxes "
    "under the headings to filter."
)
PAIRS_TABLE_NOTE = (
    "content: content similarity; contained: content containment (how much of the shorter text is in the "
    "other); layout: layout similarity; Hamming: SimHash distance in bits. Click a heading to sort; type in "
    "the boxes under the headings to filter."
)
DETAIL_HEADING = "The most similar pairs of each type, in detail"
DETAIL_NOTE = "With their measures, why they are that type, and where their texts differ."
#: Rows of the site sections table and of the lists of files not used.
SECTION_ROWS = 200
FILE_ROWS = 2000
#: Largest keep clusters and pages to act on that the summary lists.
SUMMARY_KEEP = 10
SUMMARY_ACT_ON = 20
SUMMARY_BROKEN = 20
#: The client summary's lead for the redirects to no page.
BROKEN_SUMMARY_NOTE = "A visitor who follows one of these redirects finds no page: fix them first."
#: The four duplicate types in plain words, for a client: what it is and what to do.
TYPE_READING = {
    DupType.FULL: (
        "The same page twice: the same text in the same template, e.g. one page reachable at two "
        "addresses. Keep one; redirect the other to it (301) or point its canonical link to it."
    ),
    DupType.CONTENT: (
        "The same text in a different template, e.g. a print version, an old copy or a syndicated "
        "article. Keep one as the canonical page; point the others' canonical link to it, or remove them."
    ),
    DupType.LAYOUT: (
        "The same template with an important part of the text shared, e.g. thin pages that differ in a "
        "few lines. Give each page enough text of its own, or merge them into one. Versions of one "
        "document (v1/, v2/) share their text by nature: there, point the old versions' canonical links "
        "to the current one, or keep them out of the index."
    ),
    DupType.PARTIAL: (
        "Different pages that share an important part of their text, e.g. a quoted section or a repeated "
        "block. Often fine; check that the page search engines should show holds the text in full."
    ),
}
#: What the pages-to-act-on list says for each action.
ACTION_TEXT = {
    DROP: "drop: redirect it or point its canonical link to",
    "review": "review: make its text its own, or merge it",
    KEEP: "keep",
}


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
class KeepRow:
    """One of the largest keep clusters, for the summary.

    Attributes:
        id: the keep cluster's number.
        keep: the path of the page to keep; title: its title (may be empty).
        duplicates: how many pages to drop for it.
        links: how they duplicate it, e.g. ``"3 full duplicates, 1 with identical bytes"``
            (:func:`~dedup_gui.core.pipeline.keep_clusters.link_count`).
        reason: which part of the keep rule chose the kept page.
    """

    id: int
    keep: str
    title: str
    duplicates: int
    links: str
    reason: str


@dataclass(frozen=True)
class TypeReading:
    """One duplicate type in plain words, with how much of the site it touches.

    Attributes:
        type: the type; pairs: its pairs in the whole scan; page_share: the share of the pages
        with usable text in a pair of that type, [0, 1]; text: what it is and what to do.
    """

    type: DupType
    pairs: int
    page_share: float
    text: str


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
        readings: the four duplicate types in plain words (:class:`TypeReading`).
        keep_total: keep clusters in the whole scan; largest_keep: the :data:`SUMMARY_KEEP`
            largest (:class:`KeepRow`).
        pages: every page with duplicated content, most duplicated first
            (:class:`~dedup_gui.core.reports.site_share.PageRow`); act_on: the first
            :data:`SUMMARY_ACT_ON` of them that are not kept pages (pages to drop or review);
            act_on_total: how many such pages there are.
        broken_redirects: the first :data:`SUMMARY_BROKEN` redirects to no page, ``(path,
            where it leads)``; broken_total: how many there are (the urgent fix: a client read
            them at 95 % of the report, under the files not used).
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
    readings: tuple[TypeReading, ...] = ()
    keep_total: int = 0
    largest_keep: tuple[KeepRow, ...] = ()
    pages: tuple[PageRow, ...] = ()
    act_on: tuple[PageRow, ...] = ()
    act_on_total: int = 0
    broken_redirects: tuple[tuple[str, str], ...] = ()
    broken_total: int = 0

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
        *((Stat(s["redirect_pages"], "redirect pages"),) if s["redirect_pages"] else ()),
        *((Stat(s["redirects_to_missing"], "redirects to no page"),) if s["redirects_to_missing"] else ()),
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
    pairs_notes = pair_notes(report, report.listed_by_type)
    shares = page_duplicate_shares(r)
    site = site_duplicate_share(r, shares)
    headline = (
        f"{site:.0%} of this site's main content also appears on other pages of it "
        f"({sum(p.has_text for p in r.pages):,} pages with usable text)."
    )
    by_type = duplicate_pages_by_type(r)
    page_shares = tuple((t.label, share) for t, share in by_type.items())
    readings = tuple(TypeReading(t, s["pairs_by_type"][t.value], by_type[t], TYPE_READING[t]) for t in by_type)
    pages = tuple(page_rows(r, shares, report.keep_cluster_of))
    actionable = [row for row in pages if row.action != KEEP]
    broken = report.missing_redirects()
    return ReportSummary(
        readings=readings,
        keep_total=len(report.keep_clusters),
        largest_keep=tuple(keep_row(e) for e in report.keep_clusters[:SUMMARY_KEEP]),
        pages=pages,
        broken_redirects=tuple((p.path, x.note) for p, x in broken[:SUMMARY_BROKEN]),
        broken_total=len(broken),
        act_on=tuple(actionable[:SUMMARY_ACT_ON]),
        act_on_total=len(actionable),
        headline=headline,
        page_shares=page_shares,
        sections=tuple(section_rows(r, shares, report.keep_cluster_of)),
        heading=REPORT_HEADING,
        folder=r.root,
        made=f"Made {report.created_text} by dedup-gui {report.version} in a scan of {scan_time_text(r)}.",
        subset_note=subset_note,
        stats=stats,
        notes=tuple(s["notes"]),
        type_rows=rows,
        thresholds=tuple(report.threshold_rows()),
        settings=tuple(report.setting_rows()),
        pairs_notes=tuple(pairs_notes),
    )


def missing_redirects_heading(count: int) -> str:
    """The heading of the list of redirects to no page, with their number, as the window's status
    filter says it: ``"Redirects to no page (12)"`` (str)."""
    return f"{MISSING_LABEL} ({count:,})"


def pages_without_text_listed(report: Report) -> list[Page]:
    """The pages without usable main text that the reports list under their heading: without the
    redirects to no page, which have their own list above it (list[Page])."""
    listed = {page.path for page, _r in report.missing_redirects()}
    return [p for p in report.pages_without_text() if p.path not in listed]


def keep_row(entry: KeepEntry) -> KeepRow:
    """A keep cluster as the summary lists it (:class:`KeepRow`)."""
    links = Counter(link for _page, link in entry.duplicates)
    text = ", ".join(link_count(link, n) for link, n in links.most_common())
    k = entry.cluster
    return KeepRow(k.id, entry.keep.path, entry.keep.title, len(entry.duplicates), text, k.reason)


def shown_note(what: str, shown: int, total: int, exports: str = "the CSV, XLSX and JSON exports") -> str:
    """The line under a capped list (str), e.g. ``"Keep clusters: 10 of 25,000 shown (the largest);
    the CSV, XLSX and JSON exports hold all 25,000."``; ``what`` may end with a parenthesis
    saying which ones are shown."""
    return f"{what}: {shown:,} of {total:,} shown; {exports} hold all {total:,}."


def pair_notes(report: Report, listed_by_type: dict) -> list[str]:
    """The lines above the list of duplicate pairs (list[str]): the distinct pairs not listed,
    then, per type with pairs left out, "N of M shown" (:func:`listed_notes`).

    Args:
        report: the report.
        listed_by_type: duplicate type -> ``(pairs listed, pairs in all)``: the report's
            :attr:`~dedup_gui.core.reports.model.Report.listed_by_type`, or fewer where a
            renderer lists fewer (the PDF within its pages).
    """
    notes = []
    marked = sum(1 for p in report.result.pairs if p.not_duplicate)
    if marked:
        notes.append(
            f"{marked:,} pair{'s' if marked != 1 else ''} marked “not a duplicate” in the window (the ignore "
            f"list) count{'' if marked != 1 else 's'} as distinct, whatever their measures."
        )
    distinct_shown = sum(1 for p in report.pairs if p.type is DupType.DISTINCT)
    if distinct_shown:
        notes.append(f"{distinct_shown:,} distinct pairs are not listed.")
    return notes + listed_notes(listed_by_type)


def keep_total_note(s: ReportSummary) -> str:
    """The line under the largest keep clusters (str)."""
    return shown_note("Keep clusters (the largest)", len(s.largest_keep), s.keep_total,
                      "What to keep below and the keep CSV, XLSX and JSON exports")  # fmt: skip


def listed_notes(listed_by_type: dict) -> list[str]:
    """For each type with pairs left out, the line "N of M shown" (list[str]).

    Args:
        listed_by_type: duplicate type -> ``(pairs listed, pairs in all)``.
    """
    cut = [(t, listed, total) for t, (listed, total) in listed_by_type.items() if listed < total]
    if not cut:
        return []
    listed_all = sum(listed for listed, _total in listed_by_type.values())
    lead = (
        f"The report lists {listed_all:,} pairs, its limit, shared among the types so that each shows its "
        "most similar pairs:"
    )
    return [lead] + [
        shown_note(f"{t.label.capitalize()}s (the most similar)", listed, total) for t, listed, total in cut
    ]


def act_on_text(row: PageRow) -> str:
    """What to do with a page of the "pages to act on" list, in words (str; the page to keep
    follows for a page to drop)."""
    return ACTION_TEXT.get(row.action, row.action)


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


def skipped_sentence(result: ScanResult) -> str:
    """One sentence on the skipped files for reports ("" if none): how many were not pages
    and how many were skipped for a reason of their own (listed with
    :meth:`ScanResult.skipped_for_reasons`)."""
    if not result.skipped:
        return ""
    special = len(result.skipped_for_reasons())
    plain = len(result.skipped) - special
    parts = []
    if plain:
        parts.append(f"{plain:,} as not pages (style sheets, images, a browser's resource folders...)")
    if special:
        parts.append(f"{special:,} for the reasons listed (links to files or folders already read, loops...)")
    n = len(result.skipped)
    return f"{n:,} other file{'s were' if n != 1 else ' was'} skipped: " + "; ".join(parts) + "."


def scan_time_text(result: ScanResult) -> str:
    """The scan's wall time, with how many pages the feature cache gave ("4.8 s (946 of 946
    pages from the feature cache)"): a rescan's seconds alone read as the time a scan takes."""
    seconds = f"{result.elapsed:.1f} s"
    if not result.from_cache:
        return seconds
    return f"{seconds} ({result.from_cache:,} of {len(result.pages):,} pages from the feature cache)"


def broken_more_text(summary: ReportSummary) -> str:
    """Under the summary's redirects to no page, when not all are listed: where the rest are
    ("" when all are shown)."""
    shown, total = len(summary.broken_redirects), summary.broken_total
    return f"{shown:,} of {total:,} shown; all are listed under Files not used." if total > shown else ""
