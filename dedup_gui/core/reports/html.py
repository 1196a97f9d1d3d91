"""The HTML report: one self-contained file that works offline and explains itself.

Safety, since page content is untrusted (DESIGN.md):

* every string that comes from a page or the file system (titles, URLs, texts, paths, reasons)
  goes through :func:`html.escape`, so markup in a page title shows as text;
* the report holds one script, a constant of our own that sorts and filters the tables
  (:mod:`dedup_gui.core.reports.table_script`; no page string is ever placed in it: it reads the
  table cells), no event handler attributes, and a Content-Security-Policy
  (``default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'sha256-...'``)
  that allows that script alone, by its hash, and forbids every remote load;
* the charts are inline SVG drawn by matplotlib from numbers and fixed labels only; their text
  is drawn as paths, their ids are prefixed per chart, and :func:`chart_svg` refuses an SVG
  with a script, an event handler or a reference outside itself.
"""

from __future__ import annotations

import io
import re

from dedup_gui.core.model import DupType
from dedup_gui.core.number_format import format_score
from dedup_gui.core.pipeline.classify import containment_text
from dedup_gui.core.pipeline.keep_clusters import LINK_NOTE
from dedup_gui.core.reports.excerpt import DiffExcerpt, Segment
from dedup_gui.core.reports.html_tables import (
    act_on_table,
    detailed_numbers,
    esc,
    groups_table,
    keep_plan_table,
    pages_table,
    pairs_table,
)
from dedup_gui.core.reports.model import GROUPS_NOTE, PairEntry, Report, report_charts, why_text
from dedup_gui.core.reports.summary import (  # noqa: F401  (TYPE_MEANING, MAX_LABEL and clip are re-exported)
    ACT_ON_HEADING,
    ACT_ON_NOTE,
    BROKEN_SUMMARY_NOTE,
    DETAIL_HEADING,
    DETAIL_NOTE,
    FILE_ROWS,
    IDENTICAL_TEXTS,
    KEEP_LEAD,
    KEEP_RULE_HEADING,
    LARGEST_KEEP_HEADING,
    MAX_LABEL,
    MISSING_REDIRECTS_NOTE,
    NO_DUPLICATES,
    NO_ERRORS,
    NO_GROUPS,
    NO_TEXT_HEADING,
    NO_TEXT_NOTE,
    NOTHING_TO_DROP,
    PAGES_NOTE,
    PAIRS_TABLE_NOTE,
    SECTION_ROWS,
    SECTIONS,
    SECTIONS_HEADING,
    SECTIONS_NOTE,
    TYPE_MEANING,
    ReportSummary,
    broken_more_text,
    clip,
    excerpt_counts,
    keep_total_note,
    missing_excerpt_text,
    missing_redirects_heading,
    pages_without_text_listed,
    report_summary,
    shown_note,
    skipped_sentence,
)
from dedup_gui.core.reports.table_script import TABLE_SCRIPT, script_hash
from dedup_gui.core.views.colors import TYPE_COLORS

CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"

_STYLE = """
:root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--soft:#f6f8fa;--accent:#0969da}
*{box-sizing:border-box}
body{margin:0;color:var(--fg);background:#fff;font:15px/1.5 system-ui,-apple-system,"Segoe UI",
"Noto Sans","DejaVu Sans","Noto Sans CJK SC","Microsoft YaHei","PingFang SC",sans-serif}
main{max-width:1180px;margin:0 auto;padding:24px 28px 48px}
header.top{border-bottom:3px solid var(--fg);padding-bottom:12px;margin-bottom:8px}
h1{font-size:28px;margin:0 0 4px}
h2{font-size:21px;margin:36px 0 12px;padding-bottom:4px;border-bottom:1px solid var(--line)}
h3{font-size:16px;margin:20px 0 8px}
.folder{font:14px/1.4 ui-monospace,"DejaVu Sans Mono",monospace;overflow-wrap:anywhere;margin:0}
.meta,.note{color:var(--muted);font-size:13px;margin:4px 0}
nav.toc{font-size:14px;margin-top:8px}
nav.toc a{color:var(--accent);text-decoration:none;margin-right:14px}
.filter{background:#fff8c5;border:1px solid #d4a72c;padding:6px 10px;border-radius:6px;font-size:14px}
.stats{display:flex;flex-wrap:wrap;gap:10px;margin:8px 0 16px}
.stat{border:1px solid var(--line);border-radius:8px;padding:8px 14px;min-width:118px;background:var(--soft)}
.stat b{display:block;font-size:24px;font-variant-numeric:tabular-nums}
.stat span{color:var(--muted);font-size:13px}
table{border-collapse:collapse;margin:4px 0 12px}
th,td{border:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
th{background:var(--soft);font-weight:600}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.two{display:flex;flex-wrap:wrap;gap:24px}
.two>div{flex:1 1 420px}
table.settings td:first-child{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:13px}
table.settings td:last-child{color:var(--muted);font-size:13px}
.swatch{display:inline-block;width:12px;height:12px;border-radius:2px;margin-right:6px;vertical-align:-1px}
.badge{display:inline-block;color:#fff;border-radius:10px;padding:0 9px;font-size:13px;font-weight:600}
.keep{background:#1a7f37}.dup{background:#8c959f}
.link{color:var(--muted);font-size:13px}
figure{margin:12px 0 20px;border:1px solid var(--line);border-radius:8px;padding:10px;background:#fff}
figure svg{display:block;width:100%;height:auto;max-width:860px;margin:0 auto}
#chart-map svg{max-width:600px}
figcaption{color:var(--muted);font-size:13px;margin-top:6px}
.path{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:13px;overflow-wrap:anywhere}
.ptitle{overflow-wrap:anywhere}
.url{color:var(--muted);font-size:13px;overflow-wrap:anywhere}
ul.pages{list-style:none;margin:0;padding:0}
ul.pages li{margin:0 0 6px}
article.pair{border:1px solid var(--line);border-radius:8px;padding:10px 14px;margin:0 0 16px;break-inside:avoid}
article.pair h3{margin:0 0 8px;font-size:15px}
.pages2{display:grid;grid-template-columns:1fr 1fr;gap:6px 18px;margin-bottom:6px}
.pages2>div{min-width:0}
.side{color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.04em}
table.measures{width:100%}
table.measures th{font-size:12px;font-weight:600;color:var(--muted)}
.why{font-size:13px;color:var(--muted);margin:0 0 8px}
table.diff{width:100%;table-layout:fixed}
table.diff td{font-size:13.5px;line-height:1.55;overflow-wrap:anywhere}
del{background:#ffd7d5;color:#82071e;text-decoration:line-through;text-decoration-color:#cf222e80}
ins{background:#ccffd8;color:#055d20;text-decoration:none}
footer{margin-top:40px;border-top:1px solid var(--line);padding-top:8px;color:var(--muted);font-size:12px}
section+section{content-visibility:auto;contain-intrinsic-size:auto 3000px}
p.headline{font-size:18px;margin:4px 0 12px}
table.reading td:last-child{font-size:14px}
.scroll{max-height:70vh;overflow:auto;border:1px solid var(--line);border-radius:6px;margin:4px 0 4px}
.scroll table{margin:0;width:100%}
.scroll thead th,.scroll thead td{position:sticky;top:0;z-index:1}
.scroll tr.filters td{top:34px;background:#fff;padding:2px 4px}
.scroll tr.filters input,.scroll tr.filters select{width:100%;min-width:60px;font:inherit;font-size:13px}
table.sortable td{font-size:13.5px}
button.sort{all:unset;cursor:pointer;display:block}
button.sort:focus-visible{outline:2px solid var(--accent)}
th[aria-sort=ascending] button.sort::after{content:" \25B2";font-size:10px}
th[aria-sort=descending] button.sort::after{content:" \25BC";font-size:10px}
p.count{color:var(--muted);font-size:12px;margin:0 0 12px}
details.note summary{cursor:pointer}
@media print{.scroll{max-height:none;overflow:visible}main{max-width:none;padding:0}nav.toc{display:none}h2{break-after:avoid}}
"""


# A reference may point inside the SVG (#id) or be an inline PNG: matplotlib embeds one when a
# map of many points is rasterized (the CSP allows data: images; nothing is fetched).
_UNSAFE_SVG = re.compile(
    r"<script|<foreignObject|\son[a-z]+\s*=|href\s*=\s*\"(?!#|data:image/png;base64,)|url\((?!#)", re.IGNORECASE
)


def chart_svg(figure, prefix: str) -> str:
    """A matplotlib figure as inline SVG markup, safe to place in the report.

    Args:
        figure: a matplotlib ``Figure``.
        prefix: prepended to every id in the SVG (and every reference to one), so two charts in
            one page never share an id.

    Returns:
        The ``<svg>...</svg>`` element (str), without XML declaration, DOCTYPE or metadata.

    Raises:
        ValueError: the SVG holds a script, an event handler, a foreign object or a reference
            outside itself (it never should: the charts hold numbers and fixed labels only).
    """
    import matplotlib

    buf = io.StringIO()
    # Text as paths (no fonts needed to view, no text to escape); a fixed hash salt so the same
    # scan gives the same file.
    with matplotlib.rc_context({"svg.fonttype": "path", "svg.hashsalt": "dedup-gui"}):
        figure.savefig(buf, format="svg", metadata={"Date": None})
    svg = buf.getvalue()
    svg = svg[svg.index("<svg") :]
    svg = re.sub(r"<metadata>.*?</metadata>\s*", "", svg, flags=re.DOTALL)
    svg = re.sub(r'\sxmlns:xlink="[^"]*"', "", svg, count=1)
    svg = svg.replace("xlink:href=", "href=")  # SVG 2; no xlink namespace needed inline
    seen: dict[str, int] = {}

    def new_id(m: re.Match) -> str:
        # The charts tag bars with gids ("all", a type) that matplotlib writes as ids, many times
        # over; ids must be unique in a page, so repeats get a number (references point to the
        # first, which keeps its name).
        name = m.group(1)
        seen[name] = seen.get(name, 0) + 1
        suffix = "" if seen[name] == 1 else f"-{seen[name]}"
        return f'id="{prefix}-{name}{suffix}"'

    svg = re.sub(r'\bid="([^"]+)"', new_id, svg)
    svg = re.sub(r'href="#([^"]+)"', lambda m: f'href="#{prefix}-{m.group(1)}"', svg)
    svg = re.sub(r"url\(#([^)]+)\)", lambda m: f"url(#{prefix}-{m.group(1)})", svg)
    if _UNSAFE_SVG.search(svg):
        raise ValueError("chart SVG holds a script, an event handler or an outside reference")
    return svg.strip()


def _segments(segs: tuple[Segment, ...], tag: str) -> str:
    return "".join(f"<{tag}>{esc(s.text)}</{tag}>" if s.changed else esc(s.text) for s in segs)


def excerpt_html(excerpt: DiffExcerpt | None, entry: PairEntry, limit: int) -> str:
    """The side-by-side diff excerpt of one pair (HTML str): deleted or replaced text of the left
    page in ``<del>``, inserted or replacing text of the right page in ``<ins>``, all escaped."""
    if excerpt is None:
        return f"<p class='note'>{esc(missing_excerpt_text(entry, limit))}</p>"
    if excerpt.identical:
        return f"<p class='note'>{esc(IDENTICAL_TEXTS)}</p>"
    rows = "".join(f"<tr><td>{_segments(s.a, 'del')}</td><td>{_segments(s.b, 'ins')}</td></tr>" for s in excerpt.spots)
    note = (
        f"{esc(excerpt_counts(excerpt))} "
        "<del>Struck</del>: only in the left page; <ins>green</ins>: only in the right page."
    )
    extra = "".join(f" {esc(n)}." for n in excerpt.notes)
    return (
        "<table class='diff'><colgroup><col><col></colgroup>"
        f"<tr><th>left</th><th>right</th></tr>{rows}</table><p class='note'>{note}{extra}</p>"
    )


def _page_cell(page, label: str | None = None) -> str:
    parts = []
    if label:
        parts.append(f"<div class='side'>{esc(label)}</div>")
    parts.append(f"<div class='path'>{esc(page.path)}</div>")
    if page.title:
        parts.append(f"<div class='ptitle'>{esc(clip(page.title))}</div>")
    if page.url:
        parts.append(f"<div class='url'>{esc(clip(page.url))}</div>")
    return "".join(parts)


def _note_div(note: str | None) -> str:
    """A page's redirect note under its cell in a list of pages ("" for none)."""
    return f"<div class='note'>{esc(note)}</div>" if note else ""


def _badge(dup: DupType) -> str:
    return f"<span class='badge' style='background:{TYPE_COLORS[dup]}'>{esc(dup.label).replace(' ', '&nbsp;')}</span>"


#: Shorter link texts of the table of contents.
_TOC = {"unusable": "Files not used", "engine": "Engine settings"}


def _h2(section: str) -> str:
    return f"<h2>{esc(SECTIONS[section])}</h2>"


def html_from_report(report: Report, charts: bool = True) -> str:
    """Render a :class:`~dedup_gui.core.reports.model.Report` as a self-contained HTML page.

    Args:
        report: what to show.
        charts: include the two charts (inline SVG).

    Returns:
        The HTML document (str): the client summary first, then the charts, the keep plan, the
        duplicate pairs (a sortable table, then the most similar of each type in detail), the
        pages with duplicated content, the near-duplicate groups, the files not used, and the
        engine's settings last; the tables capped as :mod:`~dedup_gui.core.reports.html_tables`
        says.  One inline script, the constant :data:`~dedup_gui.core.reports.table_script.TABLE_SCRIPT`,
        sorts and filters the tables; the Content-Security-Policy allows it by its hash alone.
    """
    r = report.result
    s = report_summary(report)
    out: list[str] = [
        "<!DOCTYPE html>",
        "<html lang='en'><head><meta charset='utf-8'>",
        f'<meta http-equiv="Content-Security-Policy" content="{csp()}">',
        "<meta name='referrer' content='no-referrer'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<meta name='generator' content='dedup-gui {esc(report.version)}'>",
        f"<title>{esc(report.title)}</title>",
        f"<style>{_STYLE}</style>",
        "</head><body><main>",
        f"<header class='top'><h1>{esc(s.heading)}</h1>",
        f"<p class='folder'>{esc(s.folder)}</p>",
        f"<p class='meta'>{esc(s.made)}</p>",
        (
            "<nav class='toc'>"
            + "".join(f"<a href='#{key}'>{esc(_TOC.get(key, title))}</a>" for key, title in SECTIONS.items())
            + "</nav></header>"
        ),
    ]
    if s.subset_note:
        out.append(f"<p class='filter'>{esc(s.subset_note)}</p>")
    out += _summary(s)
    # Charts
    out.append(f"<section id='charts'>{_h2('charts')}")
    if charts:
        for chart in report_charts(report):
            out.append(
                f"<figure id='chart-{chart.name}' aria-label='{esc(chart.title)}'>{chart_svg(chart.figure, chart.name)}"
                f"<figcaption><b>{esc(chart.title)}.</b> {esc(chart.caption)}</figcaption></figure>"
            )
    else:
        out.append("<p class='note'>Charts left out.</p>")
    out.append("</section>")
    # What to keep: the keep plan, one row per page to drop
    out.append(f"<section id='keep'>{_h2('keep')}")
    # the advice first, in one line; the whole rule (1,700 characters) folded after the plan
    out.append(f"<p><b>{esc(KEEP_LEAD)}</b> {esc(report.keep_rule_line)}</p>")
    out.append(keep_plan_table(report) if report.keep_clusters else f"<p>{esc(NOTHING_TO_DROP)}</p>")
    if report.keep_clusters:
        out.append(f"<p class='note'>{esc(LINK_NOTE)}</p>")
    out.append(
        f"<details class='note'><summary>{esc(KEEP_RULE_HEADING)}</summary><p class='note'>{esc(report.keep_rule)}</p>"
        "</details>"
    )
    out.append("</section>")
    # Pairs: the table of every listed pair, then the most similar of each type in detail
    out.append(f"<section id='pairs'>{_h2('pairs')}")
    out += [f"<p class='note'>{esc(note)}</p>" for note in s.pairs_notes]
    if not report.duplicates:
        out.append(f"<p>{esc(NO_DUPLICATES)}</p>")
    detailed = detailed_numbers(report)
    if report.duplicates:
        out.append(f"<p class='note'>{esc(PAIRS_TABLE_NOTE)}</p>")
    out.append(pairs_table(report, detailed))
    if detailed:
        out.append(f"<h3>{esc(DETAIL_HEADING)}</h3><p class='note'>{esc(DETAIL_NOTE)}</p>")
    for e in report.duplicates:
        if e.number in detailed:
            out.append(_pair_article(e, report.excerpt_limit))
    out.append("</section>")
    # Pages with duplicated content
    out.append(f"<section id='pages'>{_h2('pages')}<p class='note'>{esc(PAGES_NOTE)}</p>")
    out.append(pages_table(s.pages))
    out.append("</section>")
    # Near-duplicate groups
    out.append(f"<section id='clusters'>{_h2('clusters')}")
    out.append(f"<p class='note'>{esc(GROUPS_NOTE)}</p>")
    out.append(groups_table(report) if report.clusters else f"<p>{esc(NO_GROUPS)}</p>")
    out.append("</section>")
    # Unusable files
    out.append(f"<section id='unusable'>{_h2('unusable')}")
    if r.errors:
        out.append("<table><tr><th>file</th><th>reason</th></tr>")
        out += [f"<tr><td class='path'>{esc(x.path)}</td><td>{esc(x.reason)}</td></tr>" for x in r.errors[:FILE_ROWS]]
        out.append("</table>")
        if len(r.errors) > FILE_ROWS:
            out.append(f"<p class='note'>{esc(shown_note('Files not used', FILE_ROWS, len(r.errors)))}</p>")
    else:
        out.append(f"<p>{esc(NO_ERRORS)}</p>")
    missing = report.missing_redirects()
    if missing:
        out.append(
            f"<h3 id='missing-redirects'>{esc(missing_redirects_heading(len(missing)))}</h3>"
            f"<p class='note'>{esc(MISSING_REDIRECTS_NOTE)}</p><ul class='pages'>"
        )
        out += [f"<li>{_page_cell(p)}{_note_div(x.note)}</li>" for p, x in missing[:FILE_ROWS]]
        out.append("</ul>")
    no_text = pages_without_text_listed(report)
    if no_text:
        out.append(f"<h3>{esc(NO_TEXT_HEADING)}</h3><p class='note'>{esc(NO_TEXT_NOTE)}</p><ul class='pages'>")
        leads = {r.pages[i].path: x.note for i, x in report.redirects().items()}
        out += [f"<li>{_page_cell(p)}{_note_div(leads.get(p.path))}</li>" for p in no_text[:FILE_ROWS]]
        out.append("</ul>")
        if len(no_text) > FILE_ROWS:
            out.append(f"<p class='note'>{esc(shown_note('Pages without text', FILE_ROWS, len(no_text)))}</p>")
    if r.skipped:
        out.append(f"<p class='note'>{esc(skipped_sentence(r))}</p>")
        special = r.skipped_for_reasons()
        if special:
            out.append("<ul class='pages'>")
            out += [f"<li>{esc(path)}: {esc(reason)}</li>" for path, reason in special[:FILE_ROWS]]
            out.append("</ul>")
    out.append("</section>")
    # Appendix for engineers: the engine's thresholds and settings
    out.append(f"<section id='engine'>{_h2('engine')}<div class='two'><div><h3>Thresholds</h3><table class='settings'>")
    out += [f"<tr><td>{esc(k)}</td><td class='n'>{esc(v)}</td><td>{esc(h)}</td></tr>" for k, v, h in s.thresholds]
    out.append("</table></div><div><h3>Scan settings</h3><table class='settings'>")
    out += [f"<tr><td>{esc(k)}</td><td class='n'>{esc(v)}</td><td>{esc(h)}</td></tr>" for k, v, h in s.settings]
    out.append("</table></div></div></section>")
    out.append(
        f"<footer>dedup-gui {esc(report.version)} · {esc(report.created_text)} · This file is self-contained: "
        "it loads nothing from the network; its one script, pinned by its hash, only sorts and filters the "
        "tables.</footer></main>"
    )
    out.append(f"<script>{TABLE_SCRIPT}</script></body></html>\n")
    return "\n".join(out)


def csp() -> str:
    """The report's Content-Security-Policy (str): nothing remote, inline styles and data: images,
    and no script but :data:`~dedup_gui.core.reports.table_script.TABLE_SCRIPT`, by its SHA-256
    hash, computed from the script's text now."""
    return f"{CSP}; script-src {script_hash(TABLE_SCRIPT)}"


def _summary(s: ReportSummary) -> list[str]:
    """The client summary (HTML lines): the headline, the four types in plain words, the largest
    keep clusters, the pages to act on, the site sections, the counts and the pairs by type."""
    out = [f"<section id='summary'>{_h2('summary')}<p class='headline'><b>{esc(s.headline)}</b></p>"]
    out.append(
        "<table class='reading'><tr><th>type</th><th class='n'>pairs</th><th class='n' title='the share of the pages scanned that are in at least one pair of this type'>pages in such a pair</th>"
        "<th>what it means, what to do</th></tr>"
    )
    out += [
        f"<tr><td>{_badge(row.type)}</td><td class='n'>{row.pairs:,}</td><td class='n'>{row.page_share:.0%}</td>"
        f"<td>{esc(row.text)}</td></tr>"
        for row in s.readings
    ]
    out.append("</table>")
    if s.broken_total:
        out.append(f"<h3><a href='#missing-redirects'>{esc(missing_redirects_heading(s.broken_total))}</a></h3>"
                   f"<p class='note'>{esc(BROKEN_SUMMARY_NOTE)}</p><ul class='pages'>")  # fmt: skip
        out += [f"<li><div class='path'>{esc(p)}</div>{_note_div(n)}</li>" for p, n in s.broken_redirects]
        out.append("</ul>" + (f"<p class='note'>{esc(broken_more_text(s))}</p>" if broken_more_text(s) else ""))
    out.append(f"<h3>{esc(LARGEST_KEEP_HEADING)}</h3>")
    if s.largest_keep:
        out.append(
            "<table class='largest'><tr><th class='n'>#</th><th>page to keep</th><th class='n'>duplicates</th>"
            f"<th title='{esc(LINK_NOTE)}'>how they duplicate it</th><th>kept because</th></tr>"
        )
        out += [
            f"<tr><td class='n'>{k.id}</td><td><div class='path'>{esc(k.keep)}</div>"
            f"<div class='ptitle'>{esc(clip(k.title, 120))}</div></td><td class='n'>{k.duplicates:,}</td>"
            f"<td>{esc(k.links)}</td><td>{esc(k.reason)}</td></tr>"
            for k in s.largest_keep
        ]
        out.append("</table>")
        if s.keep_total > len(s.largest_keep):
            out.append(f"<p class='note'>{esc(keep_total_note(s))}</p>")
    else:
        out.append(f"<p>{esc(NOTHING_TO_DROP)}</p>")
    out.append(f"<h3>{esc(ACT_ON_HEADING)}</h3><p class='note'>{esc(ACT_ON_NOTE)}</p>")
    out.append(act_on_table(s.act_on, s.act_on_total))
    if len(s.sections) > 1:
        out.append(
            f"<h3>{esc(SECTIONS_HEADING)}</h3><p class='note'>{esc(SECTIONS_NOTE)}</p>"
            "<table class='types'><tr><th>section</th><th class='n'>pages</th>"
            "<th class='n'>duplicate pages</th><th class='n'>kept</th><th class='n'>to drop</th>"
            "<th class='n'>duplicated content</th></tr>"
        )
        out += [
            f"<tr><td>{esc(clip(row.section))}</td><td class='n'>{row.pages:,}</td>"
            f"<td class='n'>{row.duplicate_pages:,}</td><td class='n'>{row.kept:,}</td>"
            f"<td class='n'>{row.to_drop:,}</td><td class='n'>{row.duplicate_share:.0%}</td></tr>"
            for row in s.sections[:SECTION_ROWS]
        ]
        out.append("</table>")
        if len(s.sections) > SECTION_ROWS:
            out.append(f"<p class='note'>{esc(shown_note('Sections', SECTION_ROWS, len(s.sections)))}</p>")
    out.append("<div class='stats'>")
    out += [f"<div class='stat'><b>{st.value:,}</b><span>{esc(st.label)}</span></div>" for st in s.stats]
    out.append("</div>")
    if s.notes:
        out.append("<ul class='notes'>" + "".join(f"<li>Note: {esc(n)}</li>" for n in s.notes) + "</ul>")
    out.append("<h3>Pairs by type</h3>")
    out.append(
        "<table class='types'><tr><th>type</th><th>content</th><th>layout</th><th class='n'>pairs</th>"
        + ("<th class='n'>in this report</th>" if s.subset else "")
        + "</tr>"
    )
    for row in s.type_rows:
        shown_cell = f"<td class='n'>{row.shown:,}</td>" if row.shown is not None else ""
        out.append(
            f"<tr><td><span class='swatch' style='background:{TYPE_COLORS[row.type]}'></span>{esc(row.type.label)}</td>"
            f"<td>{esc(row.content)}</td><td>{esc(row.layout)}</td><td class='n'>{row.pairs:,}</td>"
            f"{shown_cell}</tr>"
        )
    out.append("</table></section>")
    return out


def _pair_article(e: PairEntry, excerpt_limit: int) -> str:
    """One pair in detail (HTML str): its pages, measures, explanation and diff excerpt."""
    sc = e.pair.scores
    group = e.cluster
    cluster = f" · <a href='#cluster-{group}'>group {group}</a>" if group is not None else ""
    return (
        f"<article class='pair' id='pair-{e.number}'><h3>{_badge(e.pair.type)} Pair {e.number}{cluster}</h3>"
        f"<div class='pages2'><div>{_page_cell(e.left, 'left')}</div><div>{_page_cell(e.right, 'right')}</div></div>"
        "<table class='measures'><tr><th>content similarity</th><th>content containment</th>"
        "<th>layout similarity</th><th>Hamming distance</th><th>Jaccard</th><th>identical bytes</th></tr>"
        f"<tr><td class='n'>{format_score(sc.content_similarity, 4)}</td><td class='n'>{format_score(sc.content_containment, 4)}"
        f"<br><small>{esc(containment_text(sc))}</small></td>"
        f"<td class='n'>{format_score(sc.layout_similarity, 4)}</td><td class='n'>{sc.hamming_distance} bits</td>"
        f"<td class='n'>{format_score(sc.jaccard, 4)}</td><td>{'yes' if sc.identical_bytes else 'no'}</td></tr></table>"
        f"<p class='why'>Why: {esc(why_text(e.why))}</p>"
        f"{excerpt_html(e.excerpt, e, excerpt_limit)}</article>"
    )
