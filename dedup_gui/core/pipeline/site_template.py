"""Learn each site's template from the scanned folder, and take it out of the pages' main texts.

A site repeats its template (navigation, sidebars, search box, footer) on its pages, so a folder
of one site carries the evidence of what is template: lines of text that appear *outside* the
main content of many of its pages.  Readability sometimes keeps some of them in its pick, or
picks them instead of the article (a sidebar, a footer on a page with little text); two pages
whose "main text" is the same footer then look like duplicates of each other.  Henzinger (SIGIR
2006) found that SimHash and shingling fail on pairs from one site for this reason.

Per page, the scan keeps the hashes of its visible lines outside its main text
(:attr:`~dedup_gui.core.model.Page.other_lines`).  Per scan, for each site (a host of the pages'
URLs, else the top folder), a line is *template* when it lies outside the main text of at least
:data:`TEMPLATE_SHARE` of the site's pages, and of at least :data:`TEMPLATE_MIN_PAGES` pages;
sites of fewer than :data:`MIN_SITE_PAGES` pages learn nothing (a folder of unrelated single
pages keeps today's behaviour).  Article text does not qualify: it is *inside* the main content
of its own pages, so even an article copied into every version folder of a site is never
template.  Template lines are removed from the main texts; a page whose main text was all
template gets its non-template visible text instead (read again), and a page with none has no
usable text (it is never a duplicate of anything).
"""

from __future__ import annotations

import zlib
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from urllib.parse import urlsplit

import numpy as np

from dedup_gui.core.model import Page

#: A line is template when it lies outside the main text of at least this share of a site's pages...
TEMPLATE_SHARE = 0.3
#: ...and of at least this many pages.
TEMPLATE_MIN_PAGES = 5
#: Sites with fewer pages learn no template.
MIN_SITE_PAGES = 5
#: A line in many main texts is template when, on a typical page that holds it, at most this
#: share of the main text's lines are such frequent lines (the rest is the page's own).
ODD_SHARE = 0.5


#: Marks around a line that are not its text: a heading's permalink (``Install¶``), a list's
#: bullet, a trailing colon; a table of contents and the heading it lists then hash alike.
_EDGE_MARKS = "".join(chr(c) for c in range(0x2000, 0x2070)) + "¶§#:•·|>»«-–—*+~=_()[]{}<>\"'.,;!?"


def line_hash(line: str) -> int:
    """A stable 32-bit hash of a text line, whitespace-normalized, case-folded and without the
    marks around it (:data:`_EDGE_MARKS`) (CRC-32)."""
    core = " ".join(line.split()).strip(_EDGE_MARKS).strip()
    return zlib.crc32(core.casefold().encode("utf-8", "surrogatepass"))


def line_hashes(lines: Iterable[str]) -> np.ndarray:
    """Sorted unique :func:`line_hash` values of the non-empty lines (``np.uint32``, shape (n,))."""
    values = {line_hash(line) for line in lines if line.strip()}
    return np.array(sorted(values), dtype=np.uint32)


def line_facts(visible_text: str, main_text: str) -> tuple[np.ndarray, np.ndarray]:
    """What a page tells of its template: the hashes of its visible lines that are not lines of
    its main text, and of the main-text lines it shows more than once (an article's paragraph
    that a "popular posts" box beside it quotes).

    Args:
        visible_text: the page's whole visible text, one block per line.
        main_text: its main text, one block per line.

    Returns:
        ``(other, repeated)``: sorted unique ``np.uint32`` hashes (shape (n,) each).
    """
    main = {line_hash(line) for line in main_text.split("\n") if line.strip()}
    seen: dict[int, int] = defaultdict(int)
    for line in visible_text.split("\n"):
        if line.strip():
            seen[line_hash(line)] += 1
    other = sorted(h for h in seen if h not in main)
    repeated = sorted(h for h in main if seen.get(h, 0) >= 2)
    return np.array(other, dtype=np.uint32), np.array(repeated, dtype=np.uint32)


def _host(page: Page) -> str:
    try:
        host = (urlsplit(page.url).hostname or "").lower() if page.url else ""
    except ValueError:  # a malformed address tells no host
        return ""
    return host[4:] if host.startswith("www.") else host


def _folder(page: Page) -> str:
    head, sep, _ = page.path.partition("/")
    return f"folder:{head}" if sep else "folder:"


def sites_of(pages: list[Page]) -> list[str]:
    """The site of each page: its URL's host without ``www.``; for a page that tells no URL (a
    site's 404 page often does not), the host most pages of its top folder tell; else its top
    folder in the scan.

    Returns:
        One site name per page (list[str]).
    """
    hosts: dict[str, Counter[str]] = defaultdict(Counter)
    for page in pages:
        host = _host(page)
        if host:
            hosts[_folder(page)][host] += 1
    out = []
    for page in pages:
        host = _host(page)
        if not host and hosts.get(_folder(page)):
            host = hosts[_folder(page)].most_common(1)[0][0]
        out.append(host or _folder(page))
    return out


@dataclass
class SiteTemplates:
    """What a scan learned: each site's template lines.

    Attributes:
        lines: site -> sorted ``np.uint32`` hashes of its template lines: lines outside the
            main text of many of its pages, and lines in the main text of many of its pages of
            which they are the odd part (:func:`learn_templates`).
        common: site -> sorted ``np.uint32`` hashes of the lines outside the main text of at least
            :data:`TEMPLATE_MIN_PAGES` of its pages (a superset of ``lines``: what a page whose
            main text was template drops from its other text).
        main_counts: site -> line hash -> how many of its pages' main texts hold the line.
        pages: site -> number of its pages.
        site: the site of each page (list[str]).
        stripped: pages that had template lines taken out of their main text.
        replaced: pages whose main text was all template and got their other text instead.
        emptied: pages left with no usable text.
    """

    lines: dict[str, np.ndarray] = field(default_factory=dict)
    common: dict[str, np.ndarray] = field(default_factory=dict)
    main_counts: dict[str, dict[int, int]] = field(default_factory=dict)
    pages: dict[str, int] = field(default_factory=dict)
    site: list[str] = field(default_factory=list)
    stripped: int = 0
    replaced: int = 0
    emptied: int = 0

    def note(self) -> str:
        """One sentence for the scan's notes ("" when nothing was learned)."""
        learned = {site: len(lines) for site, lines in self.lines.items() if len(lines)}
        if not learned:
            return ""
        text = (f"learned the template of {len(learned)} site{'s' if len(learned) > 1 else ''} "
                f"({sum(learned.values()):,} lines repeated outside the main text of their pages)")  # fmt: skip
        if self.stripped:
            whose = "page's" if self.stripped == 1 else "pages'"
            text += f"; template lines taken out of {self.stripped:,} {whose} main text"
        if self.replaced:
            one = self.replaced == 1
            text += (f"; {self.replaced:,} {'page' if one else 'pages'} whose main text was template "
                     f"read {'its' if one else 'their'} other text instead")  # fmt: skip
        if self.emptied:
            text += f"; {self.emptied:,} pages have no text but template (no usable text)"
        return text


def learn_templates(pages: list[Page], check: Callable[[], None] | None = None) -> SiteTemplates:
    """Each site's template lines (see the module docstring for the rule).

    Args:
        pages: the scan's pages.
        check: called before each site and every :data:`CHECK_EVERY` pages; it may raise to
            stop (e.g. ``ScanCancelled``).

    Returns:
        :class:`SiteTemplates` (no page changed yet).
    """
    learned = SiteTemplates(site=sites_of(pages))
    by_site: dict[str, list[int]] = defaultdict(list)
    for i, site in enumerate(learned.site):
        by_site[site].append(i)
    for site, members in by_site.items():
        _check(check)
        learned.pages[site] = len(members)
        if len(members) < MIN_SITE_PAGES:
            continue
        need = max(TEMPLATE_MIN_PAGES, int(np.ceil(TEMPLATE_SHARE * len(members))))
        mains = [_checked(check, k, main_line_hashes, pages[i].main_text) for k, i in enumerate(members)]
        _check(check)
        learned.main_counts[site] = _counts(mains)
        arrays = [pages[i].other_lines for i in members if len(pages[i].other_lines)]
        outside = _counts(arrays)
        values = np.array(sorted(h for h, n in outside.items() if n >= need), dtype=np.uint32)
        learned.common[site] = np.array(sorted(h for h, n in outside.items() if n >= TEMPLATE_MIN_PAGES),
                                        dtype=np.uint32)  # fmt: skip
        inside = _odd_frequent_lines(mains, learned.main_counts[site], need)
        learned.lines[site] = np.union1d(values, np.array(sorted(inside), dtype=np.uint32)).astype(np.uint32)
    return learned


#: Pages between two calls of the template stage's ``check`` (a cancel is felt within them).
CHECK_EVERY = 8


def _check(check: Callable[[], None] | None) -> None:
    if check is not None:
        check()


def _checked(check: Callable[[], None] | None, k: int, fn: Callable, *args):
    """``fn(*args)``, after calling ``check`` when ``k`` is a multiple of :data:`CHECK_EVERY`."""
    if k % CHECK_EVERY == 0:
        _check(check)
    return fn(*args)


def main_line_hashes(main_text: str) -> np.ndarray:
    """:func:`line_hashes` of a main text's lines (sorted unique ``np.uint32``)."""
    return line_hashes(main_text.split("\n")) if main_text else np.zeros(0, np.uint32)


def _counts(arrays: list[np.ndarray]) -> dict[int, int]:
    """How many of the sorted unique arrays hold each value (dict)."""
    if not arrays:
        return {}
    values, counts = np.unique(np.concatenate(arrays), return_counts=True)
    return dict(zip(values.tolist(), counts.tolist()))


def _odd_frequent_lines(mains: list[np.ndarray], counts: dict[int, int], need: int) -> set[int]:
    """Lines in the main text of at least ``need`` pages that are the odd part of those pages:
    most of a typical page holding one has lines of its own (a sidebar or a disclaimer that the
    extractor keeps on every product page).  Six versions of one document share nearly all of
    their lines, so none of them is template."""
    frequent = {h for h, n in counts.items() if n >= need}
    if not frequent:
        return set()
    shares = [sum(1 for h in m.tolist() if h in frequent) / len(m) if len(m) else 0.0 for m in mains]
    holders: dict[int, list[float]] = defaultdict(list)
    for m, share in zip(mains, shares):
        for h in m.tolist():
            if h in frequent:
                holders[h].append(share)
    return {h for h, s in holders.items() if float(np.median(s)) <= ODD_SHARE}


def strip_templates(
    pages: list[Page],
    rebuild: Callable[[Page, str, tuple[str, ...]], Page],
    visible_text: Callable[[Page], str | None],
    check: Callable[[], None] | None = None,
    report: Callable[[int, int], None] | None = None,
) -> tuple[list[Page], SiteTemplates]:
    """Learn the sites' templates and take them out of the pages' main texts.

    Args:
        pages: the scan's pages.
        rebuild: ``rebuild(page, main_text, notes)`` -> the page with a new main text and the
            text's features (:func:`dedup_gui.core.pipeline.features.with_main_text`).
        visible_text: a page's whole visible text, read again (``None`` if it cannot be).
        check: called every :data:`CHECK_EVERY` pages; it may raise to stop (e.g.
            ``ScanCancelled``): a big site's template takes seconds to learn and take out.
        report: ``report(done, total)``, pages done of all (ints), before the work and every
            :data:`CHECK_EVERY` pages of taking the templates out (the seconds of this step: the
            pages' features are computed again); ``None`` for no reports.

    Returns:
        ``(pages, learned)``: the pages (a changed page is a new object), and what was learned.
    """
    report = report or (lambda done, total: None)
    report(0, len(pages))
    learned = learn_templates(pages, check)
    out = list(pages)
    sets = {site: set(lines.tolist()) for site, lines in learned.lines.items()}
    for i, page in enumerate(pages):
        if i % CHECK_EVERY == 0:
            _check(check)
            report(i, len(pages))
        template = sets.get(learned.site[i])
        known = bool(template)
        if known != page.template_known:
            out[i] = page = replace(page, template_known=known)
        if not template or not page.main_text:
            continue
        lines = page.main_text.split("\n")
        # a navigation lists every page's title: the page's own heading is not template for it
        title = page.title.casefold()
        hashes = [line_hash(line) for line in lines]
        cut = [h in template and line.casefold() not in title for h, line in zip(hashes, lines)]
        if not any(cut):
            continue
        if len(page.repeated_lines) and not all(c or not line.strip() for c, line in zip(cut, lines)):
            # Part of the text stays: leave the article's lines that the page also shows in a
            # box beside it (a teaser of this article, shown on every page of the site).
            quoted = set(page.repeated_lines.tolist())
            cut = [c and h not in quoted for c, h in zip(cut, hashes)]
            if not any(cut):
                continue
        keep = [line for line, c in zip(lines, cut) if not c]
        removed = [line for line, c in zip(lines, cut) if c]
        page = replace(page, template_text="\n".join(removed))
        if any(line.strip() for line in keep):
            learned.stripped += 1
            note = (f"{len(removed)} line{'s' if len(removed) > 1 else ''} of the site's template taken out of the "
                    "main text")  # fmt: skip
            out[i] = rebuild(page, "\n".join(keep), (*page.notes, note))
            if page.has_text and not out[i].has_text:
                learned.emptied += 1
                short = "what is left once the site's template is taken out is too short: no usable text"
                out[i] = replace(out[i], notes=(*out[i].notes, short))
            continue
        # Readability picked template (a sidebar, a footer): the page's other text, if any.
        whole = visible_text(page) or ""
        common = set(learned.common[learned.site[i]].tolist())
        other = [line for line in whole.split("\n") if line.strip() and line_hash(line) not in common]
        if other:
            learned.replaced += 1
            note = "the extracted main text was the site's template: the page's other visible text is used"
            out[i] = rebuild(page, "\n".join(other), (*page.notes, note))
        else:
            learned.emptied += 1
            note = "the page's text is all the site's template: no usable text"
            out[i] = replace(rebuild(page, "", (*page.notes, note)), has_text=False)
    report(len(pages), len(pages))
    return out, learned
