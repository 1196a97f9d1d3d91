"""The PDF report's document: the report as Qt rich text (Qt's HTML subset), for
:func:`dedup_gui.export.pdf.pdf_bytes` to lay out and write.

Every string from a page is HTML-escaped before Qt's rich-text parser sees it.  How much of each
list it prints is a :class:`PdfBudget`, which ``pdf_bytes`` shrinks until the PDF fits its pages.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass, fields

from dedup_gui.core.model import TYPE_ORDER, DupType
from dedup_gui.core.number_format import format_score
from dedup_gui.core.pipeline.classify import containment_text
from dedup_gui.core.pipeline.keep_clusters import LINK_NOTE, link_label
from dedup_gui.core.pipeline.redirects import MISSING_LABEL
from dedup_gui.core.reports.excerpt import Segment
from dedup_gui.core.reports.model import GROUPS_NOTE, Chart, PairEntry, Report, why_text
from dedup_gui.core.reports.site_share import PageRow
from dedup_gui.core.reports.summary import (
    ACT_ON_HEADING,
    ACT_ON_NOTE,
    BROKEN_SUMMARY_NOTE,
    IDENTICAL_TEXTS,
    KEEP_LEAD,
    KEEP_RULE_HEADING,
    LARGEST_KEEP_HEADING,
    MISSING_REDIRECTS_NOTE,
    NO_DUPLICATES,
    NO_ERRORS,
    NO_GROUPS,
    NO_TEXT_HEADING,
    NO_TEXT_NOTE,
    NOTHING_TO_DROP,
    SECTIONS,
    SECTIONS_HEADING,
    SECTIONS_NOTE,
    act_on_text,
    broken_more_text,
    clip,
    excerpt_counts,
    keep_total_note,
    missing_excerpt_text,
    missing_redirects_heading,
    pages_without_text_listed,
    pair_notes,
    report_summary,
    shown_note,
    skipped_sentence,
)
from dedup_gui.core.safe_text import show_control_characters
from dedup_gui.core.views.colors import TYPE_COLORS
from dedup_gui.export.pdf_fonts import (  # noqa: F401  (re-exported: the PDF's fonts)
    CJK_FALLBACK_FONT,
    PdfFonts,
    ensure_app,
    pdf_fonts,
)

#: Font size of body text (points).
BODY_PT = 8.5
#: Count boxes per row of the summary's counts (A4 width holds five 15 pt numbers unbroken).
STATS_PER_ROW = 5


def _e(value: object) -> str:
    return "" if value is None else html.escape(show_control_characters(str(value)), quote=True)


def _families_css(families: Sequence[str]) -> str:
    return ", ".join(f"'{f}'" for f in families)


@dataclass(frozen=True)
class PdfBudget:
    """How much of each list the PDF prints; :func:`pdf_bytes` shrinks it until the PDF fits its
    page limit.

    Attributes:
        pairs_per_type: pairs of each type in detail (most similar first).
        keep_clusters: keep clusters (largest first); keep_pages: pages listed per keep cluster
            or near-duplicate group.
        groups: near-duplicate groups; pages: rows of the pages table; sections: rows of the
            site sections table; files: files not used (and pages without text) listed.
    """

    pairs_per_type: int = 20
    keep_clusters: int = 30
    keep_pages: int = 10
    groups: int = 30
    pages: int = 100
    sections: int = 40
    files: int = 100

    def scaled(self, factor: float) -> PdfBudget:
        """The budget with every list ``factor`` times as long (at least 1 each; ``PdfBudget``)."""
        return PdfBudget(*(max(1, int(getattr(self, f.name) * factor)) for f in fields(self)))


class _Html:
    """Builds the Qt rich-text HTML (Qt's HTML subset: tables, spans, basic CSS; lengths in CSS
    pixels of 1/96 inch)."""

    def __init__(self, report: Report, fonts: PdfFonts, width_px: float, budget: PdfBudget | None = None) -> None:
        self.report = report
        self.budget = budget or PdfBudget()
        self.fonts = fonts
        self.width = width_px
        self.out: list[str] = []

    def px(self, points: float) -> int:
        """A length in points as the CSS pixels Qt's rich text takes (1 px = 1/96 inch; Qt scales
        them to the paint device's resolution)."""
        return max(1, round(points * 96 / 72))

    def mono(self, text: str, size: float = BODY_PT - 0.5) -> str:
        return f'<span style="font-family:{_families_css(self.fonts.mono)}; font-size:{size}pt">{_e(text)}</span>'

    def muted(self, text_html: str, size: float = BODY_PT - 1) -> str:
        return f"<span style='color:#59636e; font-size:{size}pt'>{text_html}</span>"

    def badge(self, dup: DupType) -> str:
        return (
            f"<span style='background-color:{TYPE_COLORS[dup]}; color:#ffffff; font-weight:600'>"
            f"&nbsp;{_e(dup.label).replace(' ', '&nbsp;')}&nbsp;</span>"
        )

    def table(self, width: str = "100%") -> str:
        return (
            f"<table width='{width}' border='1' cellspacing='0' cellpadding='{self.px(3)}' "
            "style='border-collapse:collapse; border-color:#d1d9e0; border-style:solid'>"
        )

    def th(self, text: str, attrs: str = "") -> str:
        return f"<th bgcolor='#f6f8fa' align='left' {attrs}>{_e(text)}</th>"

    def page_block(self, page, label: str | None = None) -> str:
        parts = []
        if label:
            parts.append(self.muted(_e(label.upper()), BODY_PT - 2))
        parts.append(self.mono(page.path))
        if page.title:
            parts.append(_e(clip(page.title)))
        if page.url:
            parts.append(self.muted(_e(clip(page.url))))
        return "<br>".join(parts)

    def segments(self, segs: tuple[Segment, ...], side: str) -> str:
        style = (
            "background-color:#ffd7d5; color:#82071e; text-decoration:line-through"
            if side == "a"
            else "background-color:#ccffd8; color:#055d20"
        )
        return "".join(f"<span style='{style}'>{_e(s.text)}</span>" if s.changed else _e(s.text) for s in segs)

    def build(self, charts: list[tuple[Chart, int, int]]) -> str:
        """The whole document; ``charts`` are ``(chart, width, height)`` in device pixels, their
        images added to the document as ``chart-NAME.png``."""
        rep, r = self.report, self.report.result
        s = report_summary(rep)
        o = self.out
        o.append(f"<html><body style='font-size:{BODY_PT}pt'>")
        o.append(f"<h1 style='font-size:17pt; margin-bottom:{self.px(2)}px'>{_e(s.heading)}</h1>")
        o.append(f"<p style='margin:0'>{self.mono(s.folder, BODY_PT)}</p>")
        o.append(f"<p style='margin-top:{self.px(2)}px'>" + self.muted(_e(s.made)) + "</p>")
        if s.subset_note:
            o.append(f"<p style='background-color:#fff8c5'>{_e(s.subset_note)}</p>")
        # Summary
        o.append(self.h2(SECTIONS["summary"], first=True))
        o.append(f"<p><b>{_e(s.headline)}</b></p>")
        o.append(self.table())
        o.append(f"<tr>{self.th('type')}{self.th('pairs', 'align=right')}{self.th('pages in such a pair', 'align=right')}"
                 f"{self.th('what it means, what to do')}</tr>")  # fmt: skip
        o += [
            f"<tr><td width='21%'>{self.badge(row.type)}</td><td align='right' width='8%'>{row.pairs:,}</td>"
            f"<td align='right' width='10%'>{row.page_share:.0%}</td><td>{_e(row.text)}</td></tr>"
            for row in s.readings
        ]
        o.append("</table>")
        if s.broken_total:
            o.append(self.h3(missing_redirects_heading(s.broken_total)))
            o.append(f"<p>{self.muted(_e(BROKEN_SUMMARY_NOTE))}</p>")
            o += [f"<p>{self.mono(p)}<br>{self.muted(_e(n))}</p>" for p, n in s.broken_redirects]
            if broken_more_text(s):
                o.append(f"<p>{self.muted(_e(broken_more_text(s)))}</p>")
        o.append(self.h3(LARGEST_KEEP_HEADING))
        if s.largest_keep:
            o.append(self.table())
            o.append(f"<tr>{self.th('#')}{self.th('page to keep')}{self.th('duplicates', 'align=right')}"
                     f"{self.th('how they duplicate it')}{self.th('kept because')}</tr>")  # fmt: skip
            o += [
                f"<tr><td align='right' width='5%'>{k.id}</td><td>{self.mono(k.keep)}<br>{_e(clip(k.title, 120))}</td>"
                f"<td align='right' width='12%'>{k.duplicates:,}</td><td width='22%'>{_e(k.links)}</td>"
                f"<td width='16%'>{_e(k.reason)}</td></tr>"
                for k in s.largest_keep
            ]
            o.append("</table>")
            if s.keep_total > len(s.largest_keep):
                o.append(f"<p>{self.muted(_e(keep_total_note(s)))}</p>")
        else:
            o.append(f"<p>{_e(NOTHING_TO_DROP)}</p>")
        o.append(self.h3(ACT_ON_HEADING))
        o.append(f"<p>{self.muted(_e(ACT_ON_NOTE))}</p>")
        self.page_table(s.act_on, len(s.act_on), s.act_on_total, "Pages to act on (the most duplicated)")
        if len(s.sections) > 1:
            o.append(self.h3(SECTIONS_HEADING))
            o.append(f"<p>{self.muted(_e(SECTIONS_NOTE))}</p>")
            o.append(self.table("80%"))
            o.append(f"<tr>{self.th('section')}{self.th('pages', 'align=right')}"
                     f"{self.th('duplicate pages', 'align=right')}{self.th('kept', 'align=right')}"
                     f"{self.th('to drop', 'align=right')}{self.th('duplicated content', 'align=right')}</tr>")  # fmt: skip
            rows = s.sections[: self.budget.sections]
            o += [
                f"<tr><td>{_e(clip(row.section))}</td><td align='right'>{row.pages:,}</td>"
                f"<td align='right'>{row.duplicate_pages:,}</td><td align='right'>{row.kept:,}</td>"
                f"<td align='right'>{row.to_drop:,}</td><td align='right'>{row.duplicate_share:.0%}</td></tr>"
                for row in rows
            ]
            o.append("</table>")
            if len(s.sections) > len(rows):
                o.append(f"<p>{self.muted(_e(shown_note('Sections', len(rows), len(s.sections))))}</p>")
        o.append(self.table())
        # at most STATS_PER_ROW boxes a row, each number unbroken: ten or more boxes in one row
        # broke "10,133" over two lines
        for start in range(0, len(s.stats), STATS_PER_ROW):
            cells = s.stats[start : start + STATS_PER_ROW]
            o.append("<tr>" + "".join(
                f"<td bgcolor='#f6f8fa' width='{100 // STATS_PER_ROW}%'><span style='font-size:15pt; font-weight:700; "
                f"white-space:nowrap'>{st.value:,}</span><br>{self.muted(_e(st.label))}</td>"
                for st in cells) + "<td></td>" * (STATS_PER_ROW - len(cells)) + "</tr>")  # fmt: skip
        o.append("</table>")
        o += [f"<p>Note: {_e(note)}</p>" for note in s.notes]
        o.append(self.h3("Pairs by type"))
        o.append(self.table("70%"))
        head = "".join(self.th(h) for h in ("type", "content", "layout")) + self.th("pairs", "align='right'")
        if s.subset:
            head += self.th("in this report", "align='right'")
        o.append(f"<tr>{head}</tr>")
        for row in s.type_rows:
            extra = f"<td align='right'>{row.shown:,}</td>" if row.shown is not None else ""
            o.append(
                f"<tr><td><span style='color:{TYPE_COLORS[row.type]}'>&#9632;</span> {_e(row.type.label)}</td>"
                f"<td>{_e(row.content)}</td><td>{_e(row.layout)}</td><td align='right'>{row.pairs:,}</td>{extra}</tr>"
            )
        o.append("</table>")
        # Charts
        o.append(self.h2(SECTIONS["charts"], page_break=True))
        for chart, w, h in charts:
            o.append(f"<p align='center'><img src='chart-{chart.name}.png' width='{w}' height='{h}'></p>")
            o.append(f"<p>{self.muted(f'<b>{_e(chart.title)}.</b> {_e(chart.caption)}')}</p>")
        # What to keep
        b = self.budget
        o.append(self.h2(SECTIONS["keep"], page_break=True))
        o.append(f"<p><b>{_e(KEEP_LEAD)}</b> {_e(rep.keep_rule_line)}</p>")  # the advice first, in one line
        keep_mark = "<span style='background-color:#1a7f37; color:#ffffff; font-weight:600'>&nbsp;keep&nbsp;</span>"
        drop_mark = "<span style='background-color:#8c959f; color:#ffffff'>&nbsp;drop&nbsp;</span>"
        if rep.keep_clusters:
            o.append(self.table())
            o.append(f"<tr>{self.th('#')}{self.th('pages')}{self.th('kept because')}{self.th('group')}</tr>")
            for entry in rep.keep_clusters[: b.keep_clusters]:
                items = [f"{keep_mark} {self.page_block(entry.keep)}"]
                items += [
                    f"{drop_mark} {self.muted(_e(link_label(link)))}<br>{self.page_block(page)}"
                    for page, link in entry.duplicates[: b.keep_pages]
                ]
                if len(entry.duplicates) > b.keep_pages:
                    items.append(self.muted(_e(shown_note("Pages to drop", b.keep_pages, len(entry.duplicates)))))
                k = entry.cluster
                o.append(
                    f"<tr><td align='right' width='5%'>{k.id}</td><td>{'<br><br>'.join(items)}</td>"
                    f"<td width='16%'>{_e(k.reason)}</td><td align='right' width='7%'>{'' if k.group is None else k.group}</td></tr>"
                )
            o.append("</table>")
            self.cap_note("Keep clusters (the largest)", b.keep_clusters, len(rep.keep_clusters))
            o.append(f"<p>{self.muted(_e(LINK_NOTE), BODY_PT - 1.5)}</p>")
        else:
            o.append(f"<p>{_e(NOTHING_TO_DROP)}</p>")
        # the whole rule, a smaller note at the end of the section
        o.append(f"<p>{self.muted(f'<b>{_e(KEEP_RULE_HEADING)}.</b> ' + _e(rep.keep_rule), BODY_PT - 1.5)}</p>")
        # Pairs: each type's most similar, in detail
        o.append(self.h2(SECTIONS["pairs"], page_break=True))
        taken = dict.fromkeys(rep.listed_by_type, 0)
        shown_pairs = []
        for entry in rep.duplicates:
            if taken.get(entry.pair.type, 0) < b.pairs_per_type:
                taken[entry.pair.type] += 1
                shown_pairs.append(entry)
        listed = {t: (taken[t], total) for t, (_n, total) in rep.listed_by_type.items()}
        o += [f"<p>{self.muted(_e(note))}</p>" for note in pair_notes(rep, listed)]
        if not rep.duplicates:
            o.append(f"<p>{_e(NO_DUPLICATES)}</p>")
        for entry in shown_pairs:
            self.pair(entry)
        # Pages with duplicated content
        o.append(self.h2(SECTIONS["pages"]))
        self.page_table(s.pages, b.pages, len(s.pages), "Pages (the most duplicated)")
        # Near-duplicate groups
        o.append(self.h2(SECTIONS["clusters"]))
        o.append(f"<p>{self.muted(_e(GROUPS_NOTE))}</p>")
        if rep.clusters:
            o.append(self.table())
            o.append(f"<tr>{self.th('#')}{self.th('types')}{self.th('pages')}</tr>")
            for group in rep.clusters[: b.groups]:
                items = [self.mono(page.path) for page in group.pages[: b.keep_pages]]
                types = " ".join(self.badge(t) for t in TYPE_ORDER if t in group.cluster.types)
                more = len(group.pages) - len(items)
                extra = f"<br>{self.muted(_e(f'and {more:,} more'))}" if more > 0 else ""
                o.append(
                    f"<tr><td align='right' width='5%'>{group.cluster.id}</td><td width='20%'>{types}</td>"
                    f"<td>{'<br>'.join(items)}{extra}</td></tr>"
                )
            o.append("</table>")
            self.cap_note("Near-duplicate groups", b.groups, len(rep.clusters))
        else:
            o.append(f"<p>{_e(NO_GROUPS)}</p>")
        # Unusable files
        o.append(self.h2(SECTIONS["unusable"]))
        if r.errors:
            o.append(self.table())
            o.append(f"<tr>{self.th('file')}{self.th('reason')}</tr>")
            o += [
                f"<tr><td width='45%'>{self.mono(x.path)}</td><td>{_e(x.reason)}</td></tr>" for x in r.errors[: b.files]
            ]
            o.append("</table>")
            self.cap_note("Files not used", b.files, len(r.errors))
        else:
            o.append(f"<p>{_e(NO_ERRORS)}</p>")
        missing = rep.missing_redirects()
        if missing:
            o.append(self.h3(missing_redirects_heading(len(missing))))
            o.append("<p>" + self.muted(_e(MISSING_REDIRECTS_NOTE)) + "</p>")
            o += [f"<p>{self.page_block(p)}<br>{self.muted(_e(x.note))}</p>" for p, x in missing[: b.files]]
            self.cap_note(MISSING_LABEL, b.files, len(missing))
        no_text = pages_without_text_listed(rep)
        if no_text:
            o.append(self.h3(NO_TEXT_HEADING))
            o.append("<p>" + self.muted(_e(NO_TEXT_NOTE)) + "</p>")
            leads = {r.pages[i].path: x.note for i, x in rep.redirects().items()}
            o += [
                f"<p>{self.page_block(p)}{'<br>' + self.muted(_e(leads[p.path])) if p.path in leads else ''}</p>"
                for p in no_text[: b.files]
            ]
            self.cap_note("Pages without text", b.files, len(no_text))
        if r.skipped:
            o.append("<p>" + self.muted(_e(skipped_sentence(r))) + "</p>")
            o += [
                f"<p>{self.muted(_e(path + ': ' + reason))}</p>" for path, reason in r.skipped_for_reasons()[: b.files]
            ]
        # Appendix for engineers
        o.append(self.h2(SECTIONS["engine"], page_break=True))
        for title, rows in (("Thresholds", s.thresholds), ("Scan settings", s.settings)):
            o.append(self.h3(title))
            o.append(self.table())
            for name, value, meaning in rows:
                o.append(
                    f"<tr><td width='24%'>{self.mono(name)}</td><td width='14%' align='right'>{_e(value)}</td>"
                    f"<td>{self.muted(_e(meaning))}</td></tr>"
                )
            o.append("</table>")
        o.append("</body></html>")
        return "\n".join(o)

    def cap_note(self, what: str, limit: int, total: int) -> None:
        """Add the line "N of M shown; the exports hold all M" when ``limit`` cuts a list."""
        if total > limit:
            self.out.append(f"<p>{self.muted(_e(shown_note(what, limit, total)))}</p>")

    def page_table(self, rows: Sequence[PageRow], limit: int, total: int, what: str) -> None:
        """A table of pages with duplicated content (page, duplicated content, what to do)."""
        if not rows:
            self.out.append(f"<p>{self.muted('None.')}</p>")
            return
        self.out.append(self.table())
        self.out.append(
            f"<tr>{self.th('page')}{self.th('duplicated content', 'align=right')}{self.th('what to do')}</tr>"
        )
        self.out += [
            f"<tr><td width='42%'>{self.mono(row.path)}</td><td align='right' width='12%'>{row.duplicate_share:.0%}</td>"
            f"<td>{_e(act_on_text(row))} {self.mono(row.keep)}</td></tr>"
            for row in rows[:limit]
        ]
        self.out.append("</table>")
        self.cap_note(what, min(limit, len(rows)), total)

    def h2(self, text: str, first: bool = False, page_break: bool = False) -> str:
        brk = "page-break-before:always; " if page_break else ""
        top = 0 if page_break or first else self.px(12)
        return f"<h2 style='{brk}font-size:13pt; margin-top:{top}px; margin-bottom:{self.px(5)}px'>{_e(text)}</h2>"

    def h3(self, text: str) -> str:
        return f"<h3 style='font-size:10pt; margin-top:{self.px(9)}px; margin-bottom:{self.px(3)}px'>{_e(text)}</h3>"

    def pair(self, e: PairEntry) -> None:
        o = self.out
        sc = e.pair.scores
        cluster = f" · group {e.cluster}" if e.cluster is not None else ""
        o.append(
            f"<p style='margin-top:{self.px(10)}px; margin-bottom:{self.px(3)}px'>{self.badge(e.pair.type)} "
            f"<b>Pair {e.number}</b>{_e(cluster)}</p>"
        )
        o.append(self.table())
        o.append(
            f"<tr><td width='50%'>{self.page_block(e.left, 'left')}</td><td width='50%'>{self.page_block(e.right, 'right')}</td></tr>"
        )
        measures = (
            f"content similarity <b>{format_score(sc.content_similarity, 4)}</b> · content containment <b>{format_score(sc.content_containment, 4)}</b>"
            f" ({_e(containment_text(sc))})"
            f" · layout similarity <b>{format_score(sc.layout_similarity, 4)}</b> · Hamming distance <b>{sc.hamming_distance}</b> bit{'' if sc.hamming_distance == 1 else 's'}"
            f" · Jaccard <b>{format_score(sc.jaccard, 4)}</b> · identical bytes <b>{'yes' if sc.identical_bytes else 'no'}</b>"
        )
        o.append(f"<tr><td colspan='2' bgcolor='#f6f8fa'>{measures}</td></tr>")
        o.append(f"<tr><td colspan='2'>{self.muted('Why: ' + _e(why_text(e.why)))}</td></tr>")
        ex = e.excerpt
        if ex is None:
            why = missing_excerpt_text(e, self.report.excerpt_limit)
            o.append(f"<tr><td colspan='2'>{self.muted(_e(why))}</td></tr>")
        elif ex.identical:
            o.append(f"<tr><td colspan='2'>{self.muted(_e(IDENTICAL_TEXTS))}</td></tr>")
        else:
            for spot in ex.spots:
                o.append(f"<tr><td>{self.segments(spot.a, 'a')}</td><td>{self.segments(spot.b, 'b')}</td></tr>")
            note = f"{excerpt_counts(ex)} Struck red: only in the left page; green: only in the right page." + "".join(
                f" {n}." for n in ex.notes
            )
            o.append(f"<tr><td colspan='2'>{self.muted(_e(note))}</td></tr>")
        o.append("</table>")
