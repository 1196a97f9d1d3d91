"""What a report shows, computed once for every format (HTML, PDF, JSON, CSV).

:func:`build_report` takes a scan and, optionally, the subset of pairs a user's filters show,
and gathers everything a report prints: the summary, the settings and thresholds with their
meaning, the keep clusters (what to keep and what to drop), the near-duplicate groups, each
duplicate pair with its measures, its explanation and a diff excerpt, and the files that could
not be used.  Renderers only format it, so the HTML report and the PDF cannot drift apart.
Strings here are plain, unescaped text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, replace
from datetime import UTC, datetime
from functools import cached_property

from dedup_gui import __version__
from dedup_gui.core.columns import type_counts
from dedup_gui.core.model import TYPE_ORDER, Cluster, DupType, Page, Pair, ScanResult, Thresholds
from dedup_gui.core.pipeline.classify import explain
from dedup_gui.core.pipeline.keep import file_mtime, keep_rule_line, keep_rule_text
from dedup_gui.core.pipeline.keep_clusters import KeepCluster, build_keep_clusters, keep_clusters_of
from dedup_gui.core.pipeline.redirects import Redirect, missing_redirects, page_redirects, redirect_counts
from dedup_gui.core.progress import NullProgress, Progress, check_cancel
from dedup_gui.core.reports.excerpt import DiffExcerpt, diff_excerpt

STAGE = "writing the report"
#: Pairs that get a diff excerpt in a report; later pairs list their measures only, so a scan
#: with many thousands of duplicate pairs still exports in seconds.
EXCERPT_LIMIT = 500
#: Most duplicate pairs a report for people lists.
PAIR_LIMIT = 5000

#: What the near-duplicate groups are, for the reports' section on them.
GROUPS_NOTE = (
    "Pages joined by duplicate pairs of any type, directly or through other pages (union-find): for "
    "browsing. Two pages of one group may share little, so the advice on what to keep comes from the "
    "keep clusters, not from these groups."
)
#: Meaning of each threshold, for the settings table.
THRESHOLD_HELP = {
    "content_same": "content similarity (or containment, with Jaccard >= same_min_jaccard) for 'same content'",
    "content_partial": "content containment for 'an important part of the content is shared'",
    "layout_same": "layout similarity (tag sequences) for 'same layout'",
    "hamming_k": "SimHash Hamming distance (bits) at or below which fingerprints are near duplicates",
    "same_min_jaccard": "Jaccard similarity that containment needs to count as 'same content'",
}
SETTING_HELP = {
    "max_file_bytes": "larger files are reported as too large (bytes)",
    "min_tokens": "fewest main-text tokens of a page with usable text",
    "shingle_size": "tokens per shingle",
    "num_perm": "MinHash permutations",
    "lsh_threshold": "Jaccard threshold of the MinHash LSH candidate index",
    "workers": "processes for reading pages (0 = one per core for big folders)",
    "page_timeout": "seconds one page may take before it is cut off",
    "page_memory_bytes": "memory limit of each worker process (bytes)",
    "use_cache": "read and write the feature cache",
    "cache_dir": "feature cache folder (none: the user's cache folder)",
    "extractor": "main-content extractor",
    "dask_scheduler": "Dask scheduler the per-page stage ran on (none: this machine)",
    "follow_links": "follow symbolic links out of the scanned folder (--follow-links)",
}


@dataclass(frozen=True)
class PairEntry:
    """One duplicate pair as a report shows it.

    Attributes:
        number: 1-based position in the report.
        pair: the pair.
        left, right: its two pages.
        cluster: the cluster id of the pair's pages (``None`` for a distinct pair).
        why: the classification in words (:func:`dedup_gui.core.pipeline.classify.explain`).
        excerpt: the diff excerpt, or ``None`` past :data:`EXCERPT_LIMIT` or when a page has no
            usable text.
    """

    number: int
    pair: Pair
    left: Page
    right: Page
    cluster: int | None
    why: list[str]
    excerpt: DiffExcerpt | None


@dataclass(frozen=True)
class ClusterEntry:
    """One near-duplicate group (a browsing cluster: pages joined by any chain of duplicate
    pairs) as a report shows it.

    Attributes:
        cluster: the cluster.
        pages: its pages, in path order.
    """

    cluster: Cluster
    pages: list[Page]


@dataclass(frozen=True)
class KeepEntry:
    """One keep cluster as a report shows it: the page to keep and the pages to drop.

    Attributes:
        cluster: the :class:`~dedup_gui.core.pipeline.keep_clusters.KeepCluster`.
        keep: the page to keep.
        duplicates: the pages to drop, in path order, each with how it duplicates the kept
            page (:attr:`KeepCluster.links`: ``"full"``, ``"content"``, ``"identical bytes"``,
            ``"identical main text"`` or ``"near-copy"``).
    """

    cluster: KeepCluster
    keep: Page
    duplicates: list[tuple[Page, str]]


@dataclass(frozen=True)
class Report:
    """Everything a report prints, for one scan and an optional subset of its pairs.

    Attributes:
        result: the scan.
        created: when the report was made (UTC, aware).
        version: the product version.
        pairs: the pairs shown (the user's subset, or all), in the given order.
        subset: ``True`` when ``pairs`` is a filtered subset of the scan's pairs.
        duplicates: report entries of the shown pairs that are not distinct.
        clusters: the near-duplicate groups that hold a shown duplicate pair (all of them when
            not a subset).
        keep_clusters: the keep clusters that hold both pages of a shown duplicate pair (all of
            them when not a subset), largest first.
        keep_cluster_of: for every page of every keep cluster of the scan (shown or not), its
            keep cluster (the kept page too).
        excerpt_limit: how many pairs got a diff excerpt at most.
        omitted: duplicate pairs not listed because of the pair limit (they are in the CSV,
            XLSX and JSON exports).
        listed_by_type: duplicate type -> (pairs listed, pairs shown in all) (dict).
        excerpts_by_type: duplicate type -> how many of its listed pairs got a diff excerpt
            (dict).
    """

    result: ScanResult
    created: datetime
    version: str
    pairs: list[Pair]
    subset: bool
    duplicates: list[PairEntry]
    clusters: list[ClusterEntry]
    keep_clusters: list[KeepEntry]
    keep_cluster_of: dict[int, KeepCluster]
    excerpt_limit: int
    omitted: int = 0
    listed_by_type: dict = field(default_factory=dict)
    excerpts_by_type: dict = field(default_factory=dict)

    @property
    def keep_rule(self) -> str:
        """The keep rule in words (str)."""
        return keep_rule_text(self.result.keep_policy)

    @property
    def keep_rule_line(self) -> str:
        """The keep rule's criteria in order, in one sentence (str;
        :func:`~dedup_gui.core.pipeline.keep.keep_rule_line`)."""
        return keep_rule_line(self.result.keep_policy)

    @property
    def title(self) -> str:
        """The report's title (str)."""
        return f"Duplicate pages in {self.result.root}"

    def summary(self) -> dict:
        """Counts of the whole scan (dict; see :func:`scan_summary`), with ``keep_clusters``
        and ``pages_to_drop`` (int) added."""
        out = scan_summary(self.result, self.redirects())
        every = {k.id: len(k.duplicates) for k in self.keep_cluster_of.values()}
        out["keep_clusters"] = len(every)
        out["pages_to_drop"] = sum(every.values())
        return out

    def shown_type_counts(self) -> dict[DupType, int]:
        """Pairs of each type among the shown pairs (dict[DupType, int], in :data:`TYPE_ORDER`)."""
        counts = {t: 0 for t in TYPE_ORDER}
        for p in self.pairs:
            counts[p.type] += 1
        return counts

    def threshold_rows(self) -> list[tuple[str, str, str]]:
        """``(name, value, meaning)`` of each threshold (list of str triples); a value other than
        the default ends its meaning with ``"; not the default (0.2)"``: the window remembers the
        last session's thresholds, and a reader compares the counts with a run of the defaults."""
        t, default = self.result.thresholds, Thresholds()
        rows = []
        for f in fields(t):
            value, meaning = getattr(t, f.name), THRESHOLD_HELP.get(f.name, "")
            if value != getattr(default, f.name):
                meaning += f"; not the default ({_fmt(getattr(default, f.name))})"
            rows.append((f.name, _fmt(value), meaning))
        return rows

    def setting_rows(self) -> list[tuple[str, str, str]]:
        """``(name, value, meaning)`` of each scan setting (list of str triples)."""
        s = self.result.settings
        return [(f.name, _fmt(getattr(s, f.name)), SETTING_HELP.get(f.name, "")) for f in fields(s)]

    def pages_without_text(self) -> list[Page]:
        """Pages that were read but have no usable main text (list[Page])."""
        return [p for p in self.result.pages if not p.has_text]

    def redirects(self) -> dict[int, Redirect]:
        """Where each redirect page leads: ``{page index: Redirect}``
        (:func:`~dedup_gui.core.pipeline.redirects.page_redirects`), resolved once per report
        (the summary, the tables and the HTML all ask)."""
        return self._redirects

    def missing_redirects(self) -> list[tuple[Page, Redirect]]:
        """The redirect pages whose target is in the folder but no page of the scan, each with
        where it leads, in page order (list of ``(Page, Redirect)``;
        :func:`~dedup_gui.core.pipeline.redirects.missing_redirects`, as the command line counts)."""
        found = self.redirects()
        return [(self.result.pages[i], found[i]) for i in missing_redirects(found)]

    @cached_property
    def _redirects(self) -> dict[int, Redirect]:
        return page_redirects(self.result)

    @property
    def created_text(self) -> str:
        """The creation time for people, e.g. ``"2026-11-30 06:30 UTC"`` (str)."""
        return self.created.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def scan_summary(result: ScanResult, redirects: dict[int, Redirect] | None = None) -> dict:
    """Counts of a scan.

    Args:
        result: the scan.
        redirects: its :func:`~dedup_gui.core.pipeline.redirects.page_redirects`, if already
            resolved (``None``: resolved here).

    Returns:
        ``{"pages", "pages_without_text", "redirect_pages", "redirects_to_missing", "errors",
        "skipped", "pairs_compared", "pairs_by_type": {type value: n, in TYPE_ORDER},
        "clusters", "seconds", "pages_from_cache", "notes"}`` (dict; ``redirect_pages``: the client-side redirect
        pages, ``redirects_to_missing``: those whose target is in the folder but no page of it
        (:func:`~dedup_gui.core.pipeline.redirects.redirect_counts`); ``notes`` is the scan's
        notes, list[str]).
    """
    redirect_pages, missing = redirect_counts(page_redirects(result) if redirects is None else redirects)
    return {
        "pages": len(result.pages),
        "pages_without_text": sum(1 for p in result.pages if not p.has_text),
        "redirect_pages": redirect_pages,
        "redirects_to_missing": missing,
        "errors": len(result.errors),
        "skipped": len(result.skipped),
        "pairs_compared": len(result.pairs),
        "pairs_by_type": {t.value: n for t, n in type_counts(result).items()},
        "clusters": len(result.clusters),
        "seconds": round(result.elapsed, 2),
        "pages_from_cache": result.from_cache,
        "notes": list(result.notes),
    }


def why_text(lines: list[str]) -> str:
    """The classification sentences of :func:`dedup_gui.core.pipeline.classify.explain` as one line
    (str): the measures joined by ``"; "``, then the verdict (``"=> ..."``)."""
    if lines and lines[-1].startswith("=>"):
        head = "; ".join(lines[:-1])
        return f"{head} {lines[-1]}" if head else lines[-1]
    return "; ".join(lines)


def _fmt(value) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


@dataclass(frozen=True)
class Chart:
    """A chart of a report.

    Attributes:
        name: short id, ``"histogram"`` or ``"map"``.
        title: heading (str).
        caption: one sentence saying how to read it (str).
        figure: the matplotlib ``Figure`` (numbers and fixed labels only: no page strings).
    """

    name: str
    title: str
    caption: str
    figure: object


def report_charts(report: Report) -> list[Chart]:
    """The report's two charts: the Hamming distance histogram of all pairs of pages (with the
    classified duplicate pairs by type) and the content/layout map of the shown pairs.

    Returns:
        Two :class:`Chart` objects (list).
    """
    from dedup_gui.core.views.charts import histogram_figure, map_figure  # matplotlib: only when a chart is drawn
    from dedup_gui.core.views.histogram import result_histogram, type_counts_by_distance

    r = report.result
    shown = replace(r, pairs=report.pairs)
    k = r.thresholds.hamming_k
    hist = histogram_figure(result_histogram(r), type_counts_by_distance(shown), k)
    cmap = map_figure(shown)
    return [
        Chart(
            "histogram",
            "Hamming distance histogram",
            f"Grey: SimHash Hamming distances of all pairs of pages with usable text; coloured: the "
            f"duplicate pairs by type. Pairs left of the dashed line (k = {k} bits) are near duplicates "
            "by SimHash.",
            hist,
        ),
        Chart(
            "map",
            "Content/layout map",
            "Each candidate pair at its content similarity (x) and layout similarity (y), coloured by "
            "type; the shaded regions are the four types under the report's thresholds.",
            cmap,
        ),
    ]


def fair_shares(counts: dict, limit: int) -> dict:
    """How many items of each kind to take so that ``limit`` items are taken in all, no kind
    gets more than it has, and the kinds that have more than their share get equal shares
    (water filling): a kind with few items is never crowded out by a kind with many.

    Args:
        counts: kind -> number of items it has (int >= 0).
        limit: the most items to take in all (int >= 0).

    Returns:
        kind -> number to take (dict, same keys).

    Example:
        >>> fair_shares({"full": 2227, "content": 25, "layout": 2220, "partial": 663}, 5000)
        {'full': 2156, 'content': 25, 'layout': 2156, 'partial': 663}
    """
    shares = dict.fromkeys(counts, 0)
    left = max(0, limit)
    open_kinds = [k for k, n in counts.items() if n > 0]
    while left > 0 and open_kinds:
        each = max(1, left // len(open_kinds))
        for kind in list(open_kinds):
            take = min(each, counts[kind] - shares[kind], left)
            shares[kind] += take
            left -= take
            if shares[kind] >= counts[kind]:
                open_kinds.remove(kind)
            if left == 0:
                break
    return shares


def build_report(
    result: ScanResult,
    pairs: Sequence[Pair] | None = None,
    progress: Progress | None = None,
    excerpt_limit: int = EXCERPT_LIMIT,
    mtime: Callable[[Page], float] = file_mtime,
    pair_limit: int = PAIR_LIMIT,
    created: datetime | None = None,
) -> Report:
    """Gather what a report shows.

    Args:
        result: the scan.
        pairs: the pairs to show, e.g. what the GUI's filters show (pairs of ``result``, in the
            order to print); ``None`` shows every pair.
        progress: receives ``"writing the report"`` progress (one step per diff excerpt); may
            cancel.
        excerpt_limit: how many duplicate pairs get a diff excerpt (shared fairly among the
            types, :func:`fair_shares`: the most similar pairs of each type first).
        pair_limit: how many duplicate pairs are listed at most (a report for people of 80,000
            pairs would be hundreds of megabytes; the CSV, XLSX and JSON exports hold every
            pair), shared fairly among the types, so no type disappears because another type
            filled the limit.
        mtime: a page's file modification time (for the keep rule's "oldest file"), read for
            pages that have a strong duplicate only.
        created: the report's time (default: now).

    Returns:
        The :class:`Report`.

    Raises:
        ScanCancelled: ``progress`` was cancelled.
    """
    progress = progress or NullProgress()
    shown = list(result.pairs if pairs is None else pairs)
    cluster_of = result.cluster_of()
    # the shared ones (built once per result, e.g. by the window) unless a test fixes the times
    keep_clusters = (
        keep_clusters_of(result) if mtime is file_mtime else build_keep_clusters(result, mtime, result.keep_policy)
    )
    all_dups = [p for p in shown if p.type is not DupType.DISTINCT]
    totals: dict[DupType, int] = {t: 0 for t in TYPE_ORDER if t is not DupType.DISTINCT}
    for p in all_dups:
        totals[p.type] += 1
    listed = fair_shares(totals, pair_limit)
    taken = dict.fromkeys(totals, 0)
    dup_pairs = []
    for p in all_dups:  # in the given order (most similar first): each type's first pairs
        if taken[p.type] < listed[p.type]:
            taken[p.type] += 1
            dup_pairs.append(p)
    order = {t: i for i, t in enumerate(TYPE_ORDER)}
    dup_pairs.sort(key=lambda p: order[p.type])  # by type, each in the given order (stable)
    with_excerpt = fair_shares(listed, excerpt_limit)
    n_excerpts = sum(with_excerpt.values())
    excerpted = dict.fromkeys(totals, 0)
    entries = []
    done = 0
    for n, pair in enumerate(dup_pairs):
        if n % 10 == 0:
            check_cancel(progress)
            progress.update(STAGE, min(done, n_excerpts), n_excerpts)
        left, right = result.pages[pair.left], result.pages[pair.right]
        excerpt = None
        if excerpted[pair.type] < with_excerpt[pair.type]:
            excerpted[pair.type] += 1
            done += 1
            if pair.scores.both_have_text:
                excerpt = diff_excerpt(left.main_text, right.main_text)
        entries.append(
            PairEntry(
                n + 1, pair, left, right, cluster_of.get(pair.left), explain(pair.scores, result.thresholds), excerpt
            )
        )
    progress.update(STAGE, n_excerpts, n_excerpts)
    keep_of = {i: k for k in keep_clusters for i in k.pages}
    if pairs is None:
        wanted = {c.id for c in result.clusters}
        wanted_keep = {k.id for k in keep_clusters}
    else:
        wanted = {cluster_of[p.left] for p in all_dups if p.left in cluster_of}
        inside = [p for p in all_dups if p.left in keep_of and keep_of.get(p.right) is keep_of[p.left]]
        wanted_keep = {keep_of[p.left].id for p in inside}
    clusters = [
        ClusterEntry(c, sorted((result.pages[i] for i in c.pages), key=lambda p: p.path))
        for c in result.clusters
        if c.id in wanted
    ]
    keep_entries = [
        KeepEntry(
            k,
            result.pages[k.keep],
            sorted(((result.pages[i], link) for i, link in zip(k.duplicates, k.links)), key=lambda e: e[0].path),
        )
        for k in keep_clusters
        if k.id in wanted_keep
    ]
    return Report(
        result=result,
        created=created or datetime.now(UTC),
        version=__version__,
        pairs=shown,
        subset=pairs is not None,
        duplicates=entries,
        clusters=clusters,
        keep_clusters=keep_entries,
        keep_cluster_of=keep_of,
        excerpt_limit=excerpt_limit,
        omitted=len(all_dups) - len(dup_pairs),
        listed_by_type={t: (listed[t], totals[t]) for t in totals},
        excerpts_by_type=with_excerpt,
    )
