"""The PDF report: the HTML report's content, laid out by Qt and written by Qt's own PDF writer.

It lives outside :mod:`dedup_gui.core`, which never imports Qt; it renders the same
:class:`~dedup_gui.core.reports.model.Report` as the HTML report: the summary with settings and
thresholds, the two charts (PNG at 200 dpi), the keep clusters (what to keep and what to drop),
the near-duplicate groups, every duplicate pair with its measures, explanation and diff excerpt,
and the files that could not be used.
Every page has a footer with its number.

Fonts: Qt embeds (subsets of) the fonts it draws with, so the PDF reads the same anywhere.
Chinese text uses the bundled subset of Noto Sans CJK SC (``resources/fonts``), so a fresh
machine with no CJK font still renders it, and the system's Simplified Chinese font, if any, for
rarer characters.  Page strings are HTML-escaped before Qt's rich-text parser sees them, so a title
holding ``<img src=...>`` stays text and never makes Qt load a file.

Without a running Qt application one is created on the ``offscreen`` platform (no display
needed), unless ``QT_QPA_PLATFORM`` says otherwise.
"""

from __future__ import annotations

import html
import io
import os
from collections.abc import Sequence
from dataclasses import dataclass, fields
from pathlib import Path

from dedup_gui.core.model import TYPE_ORDER, DupType
from dedup_gui.core.pipeline.classify import containment_text
from dedup_gui.core.pipeline.keep_clusters import link_label
from dedup_gui.core.progress import NullProgress, Progress, check_cancel
from dedup_gui.core.reports.excerpt import Segment
from dedup_gui.core.reports.model import GROUPS_NOTE, Chart, PairEntry, Report, report_charts, why_text
from dedup_gui.core.reports.site_share import PageRow
from dedup_gui.core.reports.summary import (
    ACT_ON_HEADING,
    ACT_ON_NOTE,
    IDENTICAL_TEXTS,
    KEEP_LEAD,
    LARGEST_KEEP_HEADING,
    NO_DUPLICATES,
    NO_ERRORS,
    NO_GROUPS,
    NO_TEXT_HEADING,
    NO_TEXT_NOTE,
    NOTHING_TO_DROP,
    SECTIONS,
    SECTIONS_HEADING,
    act_on_text,
    clip,
    excerpt_counts,
    keep_total_note,
    missing_excerpt_text,
    pair_notes,
    report_summary,
    shown_note,
)
from dedup_gui.core.safe_text import show_control_characters
from dedup_gui.core.views.colors import TYPE_COLORS

#: The bundled CJK fallback font (a subset of Noto Sans CJK SC; see resources/fonts/README.md).
CJK_FALLBACK_FONT = Path(__file__).resolve().parents[2] / "resources" / "fonts" / "NotoSansCJKsc-Subset-Regular.otf"
#: System CJK families tried first, best first (full coverage beats the bundled subset).
CJK_FAMILIES = (
    "Noto Sans CJK SC",
    "Source Han Sans SC",
    "Source Han Sans CN",
    "Noto Sans SC",
    "WenQuanYi Micro Hei",
    "WenQuanYi Zen Hei",
    "Microsoft YaHei",
    "PingFang SC",
    "SimHei",
    "AR PL UMing CN",
)
SANS_FAMILIES = ("DejaVu Sans", "Noto Sans", "Liberation Sans", "Arial", "Helvetica")
MONO_FAMILIES = ("DejaVu Sans Mono", "Noto Sans Mono", "Liberation Mono", "Consolas", "Courier New")
#: Resolution of the layout (dots per inch): fine enough that text positions are exact.
RESOLUTION = 300
#: Font size of body text (points).
BODY_PT = 8.5
STAGE = "writing the PDF"
#: Most pages of a PDF report by default (``scan --pdf-pages`` changes it).
MAX_PAGES = 30

_app = None  # the QGuiApplication this module created, kept alive for later exports
_bundled: str | None = None  # family name of the registered bundled CJK font ("" if unreadable)


@dataclass(frozen=True)
class PdfFonts:
    """The font families a PDF report uses.

    Attributes:
        sans: families for text, in order: the Latin family, then the CJK families.
        mono: families for paths, in order.
        cjk: the CJK families, in order: the bundled subset first (its character map is
            one-to-one, so the PDF's text layer copies and searches as the right characters),
            then the system's Simplified Chinese font, if any, for characters the subset lacks.
    """

    sans: tuple[str, ...]
    mono: tuple[str, ...]
    cjk: tuple[str, ...]


def ensure_app():
    """Return the running ``QGuiApplication``, creating one (offscreen) if none runs.

    Returns:
        The application object.

    Raises:
        RuntimeError: a non-GUI ``QCoreApplication`` runs, which cannot draw fonts.
    """
    global _app
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtGui import QGuiApplication

    app = QCoreApplication.instance()
    if app is None:
        # A PDF needs fonts, not a screen: the offscreen platform works on a machine without one.
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        _app = QGuiApplication(["dedup-gui-pdf"])
        return _app
    if not isinstance(app, QGuiApplication):
        raise RuntimeError("the PDF report needs a QGuiApplication, but a plain QCoreApplication is running")
    return app


def _bundled_family() -> str | None:
    """Register the bundled CJK subset once; its family name, or ``None`` if it cannot be read."""
    global _bundled
    from PySide6.QtGui import QFontDatabase

    if _bundled is None:
        font_id = QFontDatabase.addApplicationFont(str(CJK_FALLBACK_FONT))
        loaded = QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
        _bundled = loaded[0] if loaded else ""
    return _bundled or None


def pdf_fonts() -> PdfFonts:
    """Choose the report's fonts.  Needs a ``QGuiApplication`` (see :func:`ensure_app`).

    Chinese text is drawn with the bundled subset of Noto Sans CJK SC, which every machine has,
    and, for characters outside it, with the system's Simplified Chinese font if there is one.

    Returns:
        The :class:`PdfFonts`.

    Raises:
        RuntimeError: neither the bundled font nor a system font for Chinese can be used.
    """
    from PySide6.QtGui import QFontDatabase

    families = set(QFontDatabase.families())
    chinese = [f for f in QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese)
               if not QFontDatabase.isPrivateFamily(f)]  # fmt: skip
    bundled = _bundled_family()
    system = next((f for f in CJK_FAMILIES if f in chinese), None)
    if system is None:
        system = next((f for f in chinese if f != bundled and "Mono" not in f), None)
    cjk = tuple(f for f in (bundled, system) if f)
    if not cjk:
        raise RuntimeError(f"no font for Chinese text: the bundled {CJK_FALLBACK_FONT} cannot be read")
    sans = tuple(f for f in SANS_FAMILIES if f in families)[:1]
    mono = tuple(f for f in MONO_FAMILIES if f in families)[:1]
    return PdfFonts((*sans, *cjk), (*mono, *sans, *cjk), cjk)


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

    pairs_per_type: int = 40
    keep_clusters: int = 60
    keep_pages: int = 12
    groups: int = 60
    pages: int = 200
    sections: int = 60
    files: int = 200

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
        o.append(f"<tr>{self.th('type')}{self.th('pairs', 'align=right')}{self.th('pages in one', 'align=right')}"
                 f"{self.th('what it means, what to do')}</tr>")  # fmt: skip
        o += [
            f"<tr><td width='16%'>{self.badge(row.type)}</td><td align='right' width='8%'>{row.pairs:,}</td>"
            f"<td align='right' width='10%'>{row.page_share:.0%}</td><td>{_e(row.text)}</td></tr>"
            for row in s.readings
        ]
        o.append("</table>")
        o.append(self.h3(LARGEST_KEEP_HEADING))
        if s.largest_keep:
            o.append(self.table())
            o.append(f"<tr>{self.th('#')}{self.th('page to keep')}{self.th('duplicates', 'align=right')}"
                     f"{self.th('how they duplicate it')}{self.th('kept because')}</tr>")  # fmt: skip
            o += [
                f"<tr><td align='right' width='5%'>{k.id}</td><td>{self.mono(k.keep)}<br>{_e(clip(k.title, 120))}</td>"
                f"<td align='right' width='10%'>{k.duplicates:,}</td><td width='22%'>{_e(k.links)}</td>"
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
            o.append(self.table("80%"))
            o.append(f"<tr>{self.th('section')}{self.th('pages', 'align=right')}"
                     f"{self.th('duplicate pages', 'align=right')}{self.th('duplicated content', 'align=right')}</tr>")  # fmt: skip
            rows = s.sections[: self.budget.sections]
            o += [
                f"<tr><td>{_e(clip(row.section))}</td><td align='right'>{row.pages:,}</td>"
                f"<td align='right'>{row.duplicate_pages:,}</td><td align='right'>{row.duplicate_share:.0%}</td></tr>"
                for row in rows
            ]
            o.append("</table>")
            if len(s.sections) > len(rows):
                o.append(f"<p>{self.muted(_e(shown_note('Sections', len(rows), len(s.sections))))}</p>")
        o.append(self.table())
        o.append("<tr>" + "".join(
            f"<td bgcolor='#f6f8fa'><span style='font-size:15pt; font-weight:700'>{st.value:,}</span><br>{self.muted(_e(st.label))}</td>"
            for st in s.stats) + "</tr></table>")  # fmt: skip
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
        o.append(f"<p>{self.muted(f'<b>{_e(KEEP_LEAD)}</b> ' + _e(rep.keep_rule))}</p>")
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
        else:
            o.append(f"<p>{_e(NOTHING_TO_DROP)}</p>")
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
        no_text = rep.pages_without_text()
        if no_text:
            o.append(self.h3(NO_TEXT_HEADING))
            o.append("<p>" + self.muted(_e(NO_TEXT_NOTE)) + "</p>")
            o += [f"<p>{self.page_block(p)}</p>" for p in no_text[: b.files]]
            self.cap_note("Pages without text", b.files, len(no_text))
        if r.skipped:
            o.append("<p>" + self.muted(_e(r.skipped_sentence())) + "</p>")
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
            f"content similarity <b>{sc.content_similarity:.4f}</b> · content containment <b>{sc.content_containment:.4f}</b>"
            f" ({_e(containment_text(sc))})"
            f" · layout similarity <b>{sc.layout_similarity:.4f}</b> · Hamming distance <b>{sc.hamming_distance}</b> bits"
            f" · Jaccard <b>{sc.jaccard:.4f}</b> · identical bytes <b>{'yes' if sc.identical_bytes else 'no'}</b>"
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


def pdf_bytes(report: Report, progress: Progress | None = None, max_pages: int = MAX_PAGES) -> bytes:
    """Lay out and write a report as PDF, in at most ``max_pages`` pages.

    The lists (pairs in detail per type, keep clusters, groups, pages, files) start at
    :class:`PdfBudget` scaled by ``max_pages / 30`` and are shortened, all in proportion, until
    the document fits; each shortened list ends with "N of M shown; the CSV, XLSX and JSON
    exports hold all M".  Should even the shortest lists not fit (a tiny limit), the pages past
    the limit are left out.

    Args:
        report: from :func:`dedup_gui.core.reports.model.build_report`.
        progress: receives ``"writing the PDF"`` progress per page; may cancel.
        max_pages: the most pages (int >= 1; default :data:`MAX_PAGES`).

    Returns:
        The PDF file's bytes (A4, numbered pages "Page i of n", fonts embedded).

    Raises:
        ScanCancelled: ``progress`` was cancelled.
        RuntimeError: no usable Qt GUI application or no font for Chinese text.
        ValueError: ``max_pages`` is below 1.
    """
    if max_pages < 1:
        raise ValueError(f"a PDF needs at least one page, not {max_pages}")
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QRectF, QSizeF, Qt, QUrl
    from PySide6.QtGui import QFont, QImage, QPageLayout, QPageSize, QPainter, QPdfWriter, QTextDocument

    progress = progress or NullProgress()
    ensure_app()
    fonts = pdf_fonts()
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buf)
    writer.setResolution(RESOLUTION)
    writer.setPageLayout(
        QPageLayout(
            QPageSize(QPageSize.PageSizeId.A4),
            QPageLayout.Orientation.Portrait,
            QMarginsF(15, 14, 15, 12),
            QPageLayout.Unit.Millimeter,
        )
    )
    writer.setTitle(report.title)
    writer.setCreator(f"dedup-gui {report.version}")
    area = writer.pageLayout().paintRectPixels(RESOLUTION)
    footer_h = round(16 * RESOLUTION / 72)
    body = QSizeF(area.width(), area.height() - footer_h)

    doc = QTextDocument()
    doc.documentLayout().setPaintDevice(writer)  # lay text out at the writer's resolution
    doc.setDocumentMargin(0)
    base = QFont()
    base.setFamilies(list(fonts.sans))
    base.setPointSizeF(BODY_PT)
    doc.setDefaultFont(base)
    doc.setPageSize(body)

    charts = []
    for chart in report_charts(report):
        png = io.BytesIO()
        chart.figure.savefig(png, format="png", dpi=200)
        image = QImage.fromData(png.getvalue(), "PNG")
        # <img> sizes are CSS pixels (1/96 inch), which Qt scales to the writer's resolution.
        w = body.width() * 96 / RESOLUTION * (1.0 if chart.name == "histogram" else 0.62)  # the map is square-ish
        charts.append((chart, round(w), round(w * image.height() / max(1, image.width()))))
        doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(f"chart-{chart.name}.png"), image)
    budget = PdfBudget().scaled(max_pages / MAX_PAGES)
    while True:
        check_cancel(progress)
        doc.setHtml(_Html(report, fonts, body.width(), budget).build(charts))
        pages = doc.pageCount()
        # the summary, charts and appendix are fixed; the lists shrink together, a bit more than
        # the share of pages over the limit, until they fit or cannot shrink further
        smaller = budget.scaled(min(0.8, max_pages / pages * 0.9))
        if pages <= max_pages or smaller == budget:
            break
        budget = smaller
    pages = min(pages, max_pages)
    painter = QPainter()
    if not painter.begin(writer):
        raise RuntimeError("Qt could not start the PDF writer")
    try:
        footer_font = QFont(base)
        footer_font.setPointSizeF(7)
        label = f"dedup-gui report · {report.result.root}"
        for i in range(pages):
            check_cancel(progress)
            progress.update(STAGE, i, pages)
            if i:
                writer.newPage()
            painter.save()
            painter.translate(0, -i * body.height())
            doc.drawContents(painter, QRectF(0, i * body.height(), body.width(), body.height()))
            painter.restore()
            painter.setFont(footer_font)
            painter.setPen(Qt.GlobalColor.darkGray)
            line_y = body.height() + footer_h * 0.25
            painter.drawLine(0, round(line_y), round(body.width()), round(line_y))
            box = QRectF(0, line_y, body.width(), footer_h * 0.75)
            page_text = f"Page {i + 1} of {pages}"
            metrics = painter.fontMetrics()
            room = round(body.width() - metrics.horizontalAdvance(page_text) - RESOLUTION // 4)
            painter.drawText(box, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                             metrics.elidedText(label, Qt.TextElideMode.ElideMiddle, room))  # fmt: skip
            painter.drawText(box, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, page_text)
        progress.update(STAGE, pages, pages)
    finally:
        painter.end()
    buf.close()
    return bytes(data.data())
