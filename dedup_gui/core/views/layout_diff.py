"""Layout diff: two DOM tag sequences aligned by Levenshtein edit operations, with page regions.

The tag sequence is the layout representation of Di Lucca, Di Penta and Fasolino (COMPSAC 2002);
the alignment is rapidfuzz's Levenshtein ``opcodes`` (kept, inserted, deleted, substituted
elements).  The distances are computed with the GIL released (:func:`~.align.plain_distance`)
and the alignment, which holds the GIL, is bounded by :data:`ALIGN_LIMIT`, so that the window's
GUI thread never waits long while a layout diff runs beside it.  Each element also gets the page
region it sits in (head, header, nav, main, aside, footer, or body for the rest), from HTML5
landmark elements, ARIA roles, and the usual id/class names, so the diff can say where two
layouts differ.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

import lxml.etree
from rapidfuzz.distance import Levenshtein

from dedup_gui.core.extraction.comment_threads import lxml_threads
from dedup_gui.core.extraction.dom_text import lxml_facts
from dedup_gui.core.extraction.template import content_span, template_tags
from dedup_gui.core.model import Page
from dedup_gui.core.pipeline.measures import tag_string
from dedup_gui.core.pipeline.page_html import read_page_tree
from dedup_gui.core.text.align import plain_distance

REGIONS = ("head", "header", "nav", "main", "aside", "footer", "body")
#: Largest alignment (elements of a x elements of b) computed in full: 10,000 elements a side.
#: rapidfuzz's ``opcodes`` holds the GIL, 0.2-0.45 ns per cell (measured): 20-45 ms at this size;
#: at the former 400 million, 0.1-0.2 s, which the window's GUI thread waited through.
ALIGN_LIMIT = 100_000_000

_LANDMARK_TAGS = {"head": "head", "header": "header", "nav": "nav", "main": "main", "article": "main",
                  "aside": "aside", "footer": "footer"}  # fmt: skip
_ROLES = {"banner": "header", "navigation": "nav", "main": "main", "complementary": "aside",
          "contentinfo": "footer"}  # fmt: skip
_NAME_HINTS = [
    (re.compile(r"(^|[\s_-])(site-?)?(header|masthead|banner|topbar)([\s_-]|$)", re.I), "header"),
    (re.compile(r"(^|[\s_-])(nav|navbar|navigation|menu|breadcrumbs?)([\s_-]|$)", re.I), "nav"),
    (re.compile(r"(^|[\s_-])(footer|site-?info|copyright|colophon)([\s_-]|$)", re.I), "footer"),
    (re.compile(r"(^|[\s_-])(sidebar|side-?bar|aside|widget-?area)([\s_-]|$)", re.I), "aside"),
    (re.compile(r"(^|[\s_-])(main|content|article|post|entry|story)([\s_-]|$)", re.I), "main"),
]


@dataclass(frozen=True)
class PageLayout:
    """A page's elements in document order with their regions.

    Attributes:
        tags: element names (tuple[str, ...]).
        regions: region of each element, one of :data:`REGIONS` (tuple[str, ...]).
        content_span: the main-content subtree as an element range (:mod:`.template`), or
            ``None``; the rest is the page's template.
    """

    tags: tuple[str, ...]
    regions: tuple[str, ...]
    content_span: tuple[int, int] | None = None

    def template(self) -> PageLayout:
        """The layout without the main content: its subtree collapsed to one
        :data:`~dedup_gui.core.extraction.template.CONTENT_TAG` element in the ``main`` region."""
        if self.content_span is None:
            return self
        start, end = self.content_span
        return PageLayout(template_tags(self.tags, self.content_span),
                          (*self.regions[:start], "main", *self.regions[end:]))  # fmt: skip


@dataclass(frozen=True)
class LayoutRun:
    """A run of aligned elements.

    Attributes:
        op: ``"kept"``, ``"substituted"``, ``"deleted"`` (only in a) or ``"inserted"`` (only in b).
        a_start, a_end: element index range in a (end exclusive).
        b_start, b_end: element index range in b.
    """

    op: str
    a_start: int
    a_end: int
    b_start: int
    b_end: int


@dataclass(frozen=True)
class LayoutDiff:
    """Two layouts aligned.

    Attributes:
        a, b: the two :class:`PageLayout`.
        runs: the alignment, in order.
        similarity: layout similarity, normalized Levenshtein similarity of the tag sequences [0, 1].
        distance: Levenshtein distance of the tag sequences (elements).
        region_changes: region -> (elements changed, elements in that region on both sides).
        notes: remarks (e.g. that only a prefix was aligned).
        page_similarity: the similarity of the whole pages' tag sequences, main content
            included, when ``a`` and ``b`` are templates (:func:`template_diff`); else ``None``.
    """

    a: PageLayout
    b: PageLayout
    runs: list[LayoutRun]
    similarity: float
    distance: int
    region_changes: dict[str, tuple[int, int]]
    notes: tuple[str, ...] = ()
    page_similarity: float | None = None

    def counts(self) -> dict[str, int]:
        """Elements per operation: kept, substituted, deleted, inserted (dict[str, int])."""
        out = Counter({"kept": 0, "substituted": 0, "deleted": 0, "inserted": 0})
        for r in self.runs:
            out[r.op] += max(r.a_end - r.a_start, r.b_end - r.b_start)
        return dict(out)

    def differing_regions(self) -> list[str]:
        """Regions where elements differ, most changed first (list[str])."""
        ranked = sorted(
            ((changed / total if total else 0.0, region) for region, (changed, total) in self.region_changes.items()),
            reverse=True,
        )
        return [region for share, region in ranked if share > 0]

    def side_changes(self) -> dict[str, tuple[tuple[int, int], tuple[int, int]]]:
        """Per region, each page's own count: ``((changed left, elements left), (changed right,
        elements right))``, over the aligned elements (the header's per-page counts, so no number
        exceeds a page's own; :attr:`region_changes` adds the two sides).

        Returns:
            region -> the two ``(changed, total)`` pairs in elements, regions in :data:`REGIONS`
            order, only those with elements on either side (dict[str, tuple[tuple[int, int], tuple[int, int]]]).
        """
        n = self.runs[-1].a_end if self.runs else 0
        m = self.runs[-1].b_end if self.runs else 0
        changed_a: Counter[str] = Counter()
        changed_b: Counter[str] = Counter()
        for r in self.runs:
            if r.op != "kept":
                changed_a.update(self.a.regions[r.a_start : r.a_end])
                changed_b.update(self.b.regions[r.b_start : r.b_end])
        total_a, total_b = Counter(self.a.regions[:n]), Counter(self.b.regions[:m])
        return {
            region: ((changed_a[region], total_a[region]), (changed_b[region], total_b[region]))
            for region in REGIONS
            if total_a[region] or total_b[region]
        }


def _own_region(el) -> str | None:
    tag = el.tag.lower()
    if tag in _LANDMARK_TAGS:
        return _LANDMARK_TAGS[tag]
    role = (el.get("role") or "").strip().lower()
    if role in _ROLES:
        return _ROLES[role]
    names = f"{el.get('id') or ''} {el.get('class') or ''}".strip()
    if names:
        for pattern, region in _NAME_HINTS:
            if pattern.search(names):
                return region
    return None


def element_regions(root) -> PageLayout:
    """Tags and regions of a parsed page (element order as :func:`extract.tag_sequence`, comment
    threads left out as there).

    An element is in the region of its nearest ancestor-or-self that names one; the outermost
    landmark wins (a "content" class inside a footer stays in the footer).
    """
    if root is None:
        return PageLayout((), ())
    tags: list[str] = []
    regions: list[str] = []
    stack: list[str] = []
    threads = lxml_threads(root)
    dropped = 0  # open elements of a comment thread: not in the tag sequence (lxml_facts)
    for event, el in lxml.etree.iterwalk(root, events=("start", "end")):
        if not isinstance(el.tag, str):
            continue
        if dropped or el in threads:
            dropped += 1 if event == "start" else -1
            continue
        if event == "start":
            inherited = stack[-1] if stack else "body"
            own = _own_region(el) if inherited == "body" else None
            region = own or inherited
            stack.append(region)
            tags.append(el.tag.lower())
            regions.append(region)
        else:
            stack.pop()
    return PageLayout(tuple(tags), tuple(regions))


def page_layout(page: Page, max_bytes: int = 50 * 1024 * 1024, root: str | None = None,
                follow_links: bool = False) -> PageLayout:  # fmt: skip
    """A page's tags with their regions and its main-content span, as the scan measured them.

    The tags and the span are the page's own (``page.tag_sequence``, ``page.content_span``:
    the scan's parser, the span found before the site's template lines left the main text),
    so the layout similarity shown is the pair's measure.  Only the regions come from reading
    the file again (lxml, which names ids and classes); where that tree differs from the scan's
    (lexbor adds the ``<tbody>`` a browser adds), they are carried over element by element
    (:func:`carry_regions`).  Tags with over 1,000 attributes are cut first, as the scan cut
    them (:func:`~dedup_gui.core.extraction.attribute_bound.bound_attributes`).

    Args:
        page: the page.
        max_bytes: the largest file read (bytes).
        root: the scanned folder: a file that now leads out of it is not read
            (:func:`~dedup_gui.core.pipeline.loading.read_page_again`); ``None`` reads the file as it is.
        follow_links: the scan followed links out of the folder.

    Raises:
        PageReadError: the file can no longer be read, or now leads out of ``root``.
    """
    tree = read_page_tree(page.path, page.abspath, root, max_bytes, follow_links)
    read = element_regions(tree)
    scanned = tuple(page.tag_sequence)
    if not scanned:  # a page from before the scan kept its tags: the file's own
        if not page.has_text or tree is None:
            return read
        _tags, parents, texts, _visible = lxml_facts(tree)
        return replace(read, content_span=content_span(parents, texts, page.main_text))
    regions = read.regions if read.tags == scanned else carry_regions(read.tags, read.regions, scanned)
    return PageLayout(scanned, regions, page.content_span if page.has_text else None)


def carry_regions(tags: Sequence[str], regions: Sequence[str], target: Sequence[str],
                  lookahead: int = 4) -> tuple[str, ...]:  # fmt: skip
    """The regions of ``tags`` carried over to ``target``, a tag sequence of the same page
    from another parser, in one linear walk: equal tags take their region; an element only in
    ``target`` (a ``<tbody>``) takes the region of the element before it; one only in ``tags``
    is skipped.  A mismatch is resolved by looking up to ``lookahead`` elements ahead on
    either side, else both are taken as one element changed.

    Args:
        tags, regions: the elements read and their regions (equal lengths).
        target: the elements to give regions (the scan's tag sequence).
        lookahead: how far a run of extra elements is looked for (elements).

    Returns:
        One region per element of ``target`` (tuple[str, ...]).

    Example:
        >>> carry_regions(("table", "tr", "td"), ("main", "main", "main"), ("table", "tbody", "tr", "td"))
        ('main', 'main', 'main', 'main')
    """
    out: list[str] = []
    i = j = 0
    while j < len(target):
        if i >= len(tags):
            out.append(out[-1] if out else "body")
            j += 1
        elif tags[i] == target[j]:
            out.append(regions[i])
            i += 1
            j += 1
        elif target[j + 1 : j + 1 + lookahead].count(tags[i]):  # elements only in target
            skip = target.index(tags[i], j + 1)
            out.extend([out[-1] if out else regions[i]] * (skip - j))
            j = skip
        elif tags[i + 1 : i + 1 + lookahead].count(target[j]):  # elements only in tags
            i = tags.index(target[j], i + 1)
        else:  # one element changed
            out.append(regions[i])
            i += 1
            j += 1
    return tuple(out)


def template_diff(a: PageLayout, b: PageLayout) -> LayoutDiff:
    """:func:`layout_diff` of the two pages' templates (the layout measure of the scan), with the
    whole pages' similarity beside it.

    Args:
        a, b: the two layouts, with their main-content spans.

    Returns:
        The :class:`LayoutDiff` of ``a.template()`` and ``b.template()``.
    """
    whole = _similarity(plain_distance(tag_string(a.tags), tag_string(b.tags)), len(a.tags), len(b.tags))
    return replace(layout_diff(a.template(), b.template()), page_similarity=whole)


def _similarity(distance: int, n: int, m: int) -> float:
    """Normalized Levenshtein similarity from the distance, as rapidfuzz's
    ``normalized_similarity``: ``1 - distance / max(n, m)``, 1.0 for two empty sequences."""
    return 1.0 - distance / max(n, m) if max(n, m) else 1.0


_OPS = {"equal": "kept", "replace": "substituted", "delete": "deleted", "insert": "inserted"}


def layout_diff(a: PageLayout, b: PageLayout) -> LayoutDiff:
    """Align two layouts element by element.

    Args:
        a, b: the two layouts.

    Returns:
        The :class:`LayoutDiff`.  Sequences whose alignment would exceed :data:`ALIGN_LIMIT`
        are aligned on their first elements only (a note says so); the similarity is always
        computed on the whole sequences.
    """
    sa, sb = tag_string(a.tags), tag_string(b.tags)
    distance = plain_distance(sa, sb)  # with the GIL released for long sequences
    similarity = _similarity(distance, len(sa), len(sb))
    notes = []
    n, m = len(sa), len(sb)
    if n * m > ALIGN_LIMIT:
        keep = int((ALIGN_LIMIT) ** 0.5)
        notes.append(f"only the first {keep:,} elements of each page are aligned ({n:,} and {m:,} in all)")
        n, m = min(n, keep), min(m, keep)
    runs = [
        LayoutRun(_OPS[op.tag], op.src_start, op.src_end, op.dest_start, op.dest_end)
        for op in Levenshtein.opcodes(sa[:n], sb[:m])
    ]
    changed: Counter[str] = Counter()
    total: Counter[str] = Counter(a.regions[:n]) + Counter(b.regions[:m])
    for r in runs:
        if r.op == "kept":
            continue
        changed.update(a.regions[r.a_start : r.a_end])
        changed.update(b.regions[r.b_start : r.b_end])
    region_changes = {region: (changed[region], total[region]) for region in REGIONS if total[region]}
    return LayoutDiff(a, b, runs, similarity, distance, region_changes, tuple(notes))
