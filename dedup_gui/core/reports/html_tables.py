"""The HTML report's big tables, sortable and filterable by its script
(:mod:`dedup_gui.core.reports.table_script`): the duplicate pairs, the pages with duplicated
content, the keep plan and the near-duplicate groups.

What a report lists in full and what it caps, so that the report of a 100,000-page site stays
under 10 MB and opens in a browser in seconds (``benchmarks/bench_report.py``): the summary, the
pairs by type and the site sections are listed in full; the duplicate pairs up to
:data:`~dedup_gui.core.reports.model.PAIR_LIMIT` rows (shared fairly among the types, the most
similar of each first), the pages up to :data:`PAGE_ROWS` (most duplicated first), the keep plan
up to :data:`KEEP_ROWS` pages to drop (largest keep clusters first) and the near-duplicate groups
up to :data:`GROUP_PAGES` pages; each capped table ends with a line "N of M shown; the CSV, XLSX
and JSON exports hold all M".  Every string from a page is escaped (:func:`esc`); cells are text
or numbers only, never markup or script.
"""

from __future__ import annotations

import html

from dedup_gui.core.model import TYPE_ORDER, DupType
from dedup_gui.core.number_format import format_score
from dedup_gui.core.reports.model import PairEntry, Report
from dedup_gui.core.reports.site_share import PageRow, section_of
from dedup_gui.core.reports.summary import act_on_text, clip, shown_note
from dedup_gui.core.reports.tables import KEEP_PLAN_COLUMNS, keep_plan_rows
from dedup_gui.core.safe_text import show_control_characters

#: Most rows of the pages table, of the keep plan, and pages listed in the near-duplicate groups.
PAGE_ROWS = 5000
KEEP_ROWS = 5000
GROUP_PAGES = 5000
#: A column of text with at most this many different values is filtered by a list.
SELECT_VALUES = 12


def esc(value: object) -> str:
    """HTML-escape any value for element text or a quoted attribute (str); ``None`` -> ``""``."""
    return "" if value is None else html.escape(show_control_characters(str(value)), quote=True)


def _th(label: str, numeric: bool = False, filt: str | None = None) -> str:
    cls = " class='n'" if numeric else ""
    data = f" data-filter='{filt}'" if filt else ""
    return f"<th{cls}{data}>{esc(label)}</th>"


def _table(css: str, headings: list[str], rows: list[str]) -> str:
    return (
        f"<div class='scroll'><table class='sortable {css}'><thead><tr>{''.join(headings)}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def _note(text: str) -> str:
    return f"<p class='note'>{esc(text)}</p>"


def detailed_numbers(report: Report) -> set[int]:
    """Numbers of the pair entries the report shows in detail (measures, explanation and diff
    excerpt): each type's first :attr:`Report.excerpts_by_type` listed pairs (set[int])."""
    left = dict(report.excerpts_by_type)
    out = set()
    for e in report.duplicates:
        if left.get(e.pair.type, 0) > 0:
            left[e.pair.type] -= 1
            out.add(e.number)
    return out


def pair_folder(entry: PairEntry) -> str:
    """The site section of a pair: its pages' first folder, or both joined by ``" | "`` (str)."""
    a, b = section_of(entry.left.path), section_of(entry.right.path)
    return a if a == b else f"{a} | {b}"


def pairs_table(report: Report, detailed: set[int]) -> str:
    """The listed duplicate pairs, one row each (HTML str): number (a link to its details when it
    has them), type, content similarity, content containment, layout similarity, Hamming
    distance (bits), the two paths, the folder and the near-duplicate group."""
    if not report.duplicates:
        return ""
    heads = [
        _th("#", True), _th("type", filt="select"), _th("content", True, "min"),
        _th("contained", True, "min"), _th("layout", True, "min"), _th("Hamming", True),
        _th("left", filt="text"), _th("right", filt="text"), _th("folder", filt="text"), _th("group", True),
    ]  # fmt: skip
    rows = []
    for e in report.duplicates:
        s = e.pair.scores
        number = f"<a href='#pair-{e.number}'>{e.number}</a>" if e.number in detailed else str(e.number)
        group = "" if e.cluster is None else f"<a href='#cluster-{e.cluster}'>{e.cluster}</a>"
        rows.append(
            f"<tr><td class='n'>{number}</td><td>{esc(e.pair.type.label)}</td>"
            f"<td class='n'>{format_score(s.content_similarity, 4)}</td><td class='n'>{format_score(s.content_containment, 4)}</td>"
            f"<td class='n'>{format_score(s.layout_similarity, 4)}</td><td class='n'>{s.hamming_distance}</td>"
            f"<td class='path'>{esc(e.left.path)}</td><td class='path'>{esc(e.right.path)}</td>"
            f"<td>{esc(pair_folder(e))}</td><td class='n'>{group}</td></tr>"
        )
    return _table("pairs", heads, rows)


def pages_table(rows: tuple[PageRow, ...] | list[PageRow], limit: int = PAGE_ROWS) -> str:
    """The pages with duplicated content, most duplicated first, at most ``limit`` (HTML str):
    path, title, section, words, duplicated content, duplicate pairs, what to do."""
    if not rows:
        return _note("No page shares its content with another.")
    heads = [
        _th("page", filt="text"), _th("title", filt="text"), _th("section", filt="text"), _th("words", True),
        _th("duplicated content", True, "min"), _th("pairs", True), _th("action", filt="select"), _th("keep instead"),
    ]  # fmt: skip
    body = [
        f"<tr><td class='path'>{esc(r.path)}</td><td class='ptitle'>{esc(clip(r.title, 120))}</td>"
        f"<td>{esc(r.section)}</td><td class='n'>{r.words:,}</td>"
        f"<td class='n' data-v='{r.duplicate_share * 100:.1f}'>{r.duplicate_share:.0%}</td>"
        f"<td class='n'>{r.pairs:,}</td><td>{esc(r.action)}</td><td class='path'>{esc(r.keep)}</td></tr>"
        for r in rows[:limit]
    ]
    out = _table("pages", heads, body)
    if len(rows) > limit:
        out += _note(shown_note("Pages (the most duplicated)", limit, len(rows)))
    return out


def act_on_table(rows: tuple[PageRow, ...], total: int) -> str:
    """The summary's pages to act on (HTML str): page, duplicated content, what to do."""
    if not rows:
        return _note("None: no page is a duplicate to drop or shares much of its text.")
    body = [
        f"<tr><td class='path'>{esc(r.path)}</td><td class='n'>{r.duplicate_share:.0%}</td>"
        f"<td>{esc(act_on_text(r))} <span class='path'>{esc(r.keep)}</span></td></tr>"
        for r in rows
    ]
    out = _table("act", [_th("page"), _th("duplicated content", True), _th("what to do")], body)
    if total > len(rows):
        out += _note(shown_note("Pages to act on (the most duplicated)", len(rows), total, "the Pages table below,"
                                " the pages CSV, XLSX and JSON exports"))  # fmt: skip
    return out


def _cell(value) -> str:
    if value is None:
        return "<td></td>"
    if isinstance(value, float):
        return f"<td class='n'>{format_score(value, 4)}</td>"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"<td class='n'>{value:,}</td>"
    return f"<td>{esc(value)}</td>"


def keep_plan_table(report: Report, limit: int = KEEP_ROWS) -> str:
    """The keep plan (:func:`~dedup_gui.core.reports.tables.keep_plan_rows`), one row per page to
    drop, whatever columns :data:`~dedup_gui.core.reports.tables.KEEP_PLAN_COLUMNS` holds, at most
    ``limit`` rows (largest keep clusters first) (HTML str)."""
    rows = keep_plan_rows(report)
    if not rows:
        return ""
    shown = rows[:limit]
    heads = []
    for c, name in enumerate(KEEP_PLAN_COLUMNS):
        values = [row[c] for row in shown if row[c] is not None]
        numeric = bool(values) and all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)
        few = len(set(values)) <= SELECT_VALUES
        kind = (
            ("min" if any(isinstance(v, float) for v in values) else None) if numeric else "select" if few else "text"
        )
        heads.append(_th(name.replace("_", " "), numeric, kind))
    out = _table("keepplan", heads, ["<tr>" + "".join(_cell(v) for v in row) + "</tr>" for row in shown])
    if len(rows) > limit:
        out += _note(shown_note("Pages to drop (the largest keep clusters)", limit, len(rows),
                                "the keep CSV, XLSX and JSON exports"))  # fmt: skip
    return out


def groups_table(report: Report, page_limit: int = GROUP_PAGES) -> str:
    """The near-duplicate groups, one row each with their types and pages, until ``page_limit``
    pages are listed (HTML str)."""
    heads = [_th("group", True), _th("types", filt="text"), _th("pages", True), _th("paths", filt="text")]
    body, listed = [], 0
    for g in report.clusters:
        if listed >= page_limit:
            break
        listed += len(g.pages)
        types = ", ".join(t.label for t in TYPE_ORDER if t in g.cluster.types and t is not DupType.DISTINCT)
        paths = "".join(f"<li>{esc(p.path)}</li>" for p in g.pages)
        body.append(
            f"<tr id='cluster-{g.cluster.id}'><td class='n'>{g.cluster.id}</td><td>{esc(types)}</td>"
            f"<td class='n'>{len(g.pages):,}</td><td class='path'><ul class='pages'>{paths}</ul></td></tr>"
        )
    out = _table("groups", heads, body)
    if len(body) < len(report.clusters):
        out += _note(shown_note("Near-duplicate groups", len(body), len(report.clusters)))
    return out
