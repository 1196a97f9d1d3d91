"""The main window's session, without Qt: the folder, the results shown, the settings and
thresholds in force, and the words the window says about them.

As dupeGuru keeps its application state in ``core/app.py`` apart from the Qt window, the
:class:`~dedup_gui.gui.main_window.MainWindow` holds a :class:`Session` and asks the functions
here what to show; so this logic is tested without a screen.  Pairs and pages are named by their
index in ``result.pairs`` and ``result.pages`` (see :mod:`dedup_gui.core.views.selection`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from dedup_gui.core.columns import pair_columns, type_counts
from dedup_gui.core.extraction.extract import EXTRACTORS
from dedup_gui.core.model import Cluster, DupType, KeepPolicy, ScanResult, ScanSettings, Thresholds
from dedup_gui.core.pipeline.classify import reclassify
from dedup_gui.core.pipeline.keep_clusters import keep_clusters_of
from dedup_gui.core.pipeline.not_duplicates import marks_applied
from dedup_gui.core.pipeline.walk import is_archive_root
from dedup_gui.core.progress import SCAN_STAGES, STAGE_CACHE, STAGE_TEMPLATES
from dedup_gui.core.views.scan_texts import (  # noqa: F401  (re-exported: the window imports them from here)
    errors_tab_title,
    export_done_text,
    folder_names,
    scan_end_text,
    scanning_text,
    size_text,
    tab_title,
)
from dedup_gui.core.views.selection import cluster_pairs, first_pair_of_page, pair_cluster, pairs_at_distance
from dedup_gui.core.views.settings_note import settings_note

#: The window's title without a folder.
APP_NAME = "Duplicate Page Inspector"


def _count(n: int, noun: str) -> str:
    """``n`` with thousands separators and ``noun``, plural unless ``n`` is 1, e.g. ``"1,200 files"``."""
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


def summarize(result: ScanResult, chosen: ScanSettings | None = None) -> str:
    """One status line for a finished scan, e.g. ``"Scanned 12 pages plus 3 other files: 3
    duplicate pairs of 5 compared; 2 near-duplicate groups, 2 keep clusters (3 pages to drop); 0
    errors (0.4 s)"`` (``"Scanned 12 records: ..."`` for one WARC file), in the command line's
    words (its ``pages:`` line: the pages read, then the other files skipped, when there are
    any; the files that could not be read are the errors), followed by the scan's notes (str).
    Thresholds other than the defaults and the feature cache off follow the counts of pairs
    (:func:`~dedup_gui.core.views.settings_note.settings_note`), and so do the scan settings
    ``chosen`` for the next scan (the session's) where they need a rescan to apply, e.g. "results
    made with fast; Resiliparse applies at the next scan (F5)" (``None``: the result's own)."""
    counts = type_counts(result)
    duplicates = sum(n for t, n in counts.items() if t is not DupType.DISTINCT)
    noun = "record" if is_archive_root(result.root) else "page"
    others = f" plus {_count(len(result.skipped), 'other file')}" if result.skipped else ""
    keep = keep_clusters_of(result)
    drops = sum(len(k.duplicates) for k in keep)
    # the command line's words: groups (any chain of pairs) and keep clusters are not the same
    line = (
        f"Scanned {_count(len(result.pages), noun)}{others}: {_count(duplicates, 'duplicate pair')} of "
        f"{len(result.pairs):,} compared{settings_note(result.thresholds, result.settings, chosen)}; "
        f"{_count(len(result.clusters), 'near-duplicate group')}, {_count(len(keep), 'keep cluster')} "
        f"({_count(drops, 'page')} to drop); {_count(len(result.errors), 'error')} ({result.elapsed:.1f} s)"
    )
    return "".join([line, *(f". Note: {note}" for note in result.notes)])


def scan_stages(settings: ScanSettings) -> tuple[tuple[str, float], ...]:
    """The steps a scan with ``settings`` goes through, as ``(name, weight)`` for the progress
    bar (:class:`~dedup_gui.core.progress.OverallProgress`): without the feature cache there is
    no cache lookup step, without learning the sites' templates no template step."""
    skip = {STAGE_CACHE} if not settings.use_cache else set()
    if not settings.learn_templates:
        skip.add(STAGE_TEMPLATES)
    return tuple(s for s in SCAN_STAGES if s[0] not in skip)


def build_view_columns(result: ScanResult) -> ScanResult:
    """Build ``result``'s pair columns (:func:`~dedup_gui.core.columns.pair_columns`) and keep
    clusters (:func:`~dedup_gui.core.pipeline.keep_clusters.keep_clusters_of`), which the
    tables, the charts and the cluster tree sort, filter and count with; built in a worker
    thread, they cost the GUI thread nothing when the result arrives (about half a second per
    million pairs).

    Returns:
        ``result`` itself (:class:`ScanResult`).
    """
    pair_columns(result).build_all()
    keep_clusters_of(result)
    return result


def reclassify_with_columns(result: ScanResult, thresholds: Thresholds) -> ScanResult:
    """:func:`~dedup_gui.core.pipeline.classify.reclassify`, then the new result's pair columns
    and keep clusters are built (:func:`build_view_columns`, in the calling thread: the window
    runs this as a background job).

    Returns:
        The re-classified :class:`ScanResult`.
    """
    return build_view_columns(reclassify(result, thresholds))


def remembered_scan_settings(extractor: str, use_cache: bool) -> ScanSettings:
    """Scan settings with a remembered extractor and cache choice; an extractor that is no
    longer a key of :data:`~dedup_gui.core.extraction.extract.EXTRACTORS` gives the default one.

    Returns:
        :class:`ScanSettings` (the defaults otherwise).
    """
    defaults = ScanSettings()
    if extractor not in EXTRACTORS:
        extractor = defaults.extractor
    return dataclasses.replace(defaults, extractor=extractor, use_cache=bool(use_cache))


@dataclass(frozen=True)
class ShownScan:
    """What the window showed when a scan began, given back if that scan is cancelled or fails
    (as dupeGuru leaves the last results when a scan is cancelled).

    Attributes:
        folder: the folder of the result, resolved (str).
        scan_result: its scan's own result, which threshold changes re-classify (:class:`ScanResult`).
        result: the result the views showed (:class:`ScanResult`).
        pair: the pair selected then (index into ``result.pairs``), or ``None``.
    """

    folder: str
    scan_result: ScanResult
    result: ScanResult
    pair: int | None = None


@dataclass(frozen=True)
class RecordFilter:
    """What a table filter on some records shows.

    Attributes:
        records: record indices to keep (list[int]).
        label: the filter chip's text (str).
        empty: what the table says when the filter leaves no row (str; ``""`` for the default).
    """

    records: list[int]
    label: str
    empty: str = ""


def distance_filter(result: ScanResult, distance: int) -> RecordFilter:
    """The pairs table filter of a histogram bar: the candidate pairs at Hamming ``distance``
    (bits), with the chip's label and the empty table's explanation (:class:`RecordFilter`)."""
    empty = (
        f"No candidate pair is {distance} bits apart. The histogram counts every pair of pages; this table lists "
        "only the candidate pairs, the ones the scan compared."
    )
    return RecordFilter(pairs_at_distance(result, distance), f"Hamming distance = {distance}", empty)


@dataclass(frozen=True)
class ClusterChoice:
    """What choosing a cluster (or one of its pages) in the cluster tree does to the tables.

    Attributes:
        label: the filter chip's text, e.g. ``"Group 3"`` (a near-duplicate group) (str).
        pairs: the pairs table's records: the cluster's pairs (list[int], ascending).
        pages: the pages table's records: the cluster's pages (tuple[int, ...]).
        page: the chosen page (index into ``result.pages``), or -1 for the cluster itself.
        page_pair: the chosen page's first pair among :attr:`pairs`, or ``None``.
    """

    label: str
    pairs: list[int]
    pages: tuple[int, ...]
    page: int = -1
    page_pair: int | None = None

    def target(self, current: int | None) -> int | None:
        """The pair to select, given the pair selected now (``current``, or ``None``): the
        chosen page's first pair, else ``current`` if it is in the cluster, else the cluster's
        first pair (index into ``result.pairs``, or ``None`` for none)."""
        if self.page >= 0:
            return self.page_pair
        return current if current in self.pairs else (self.pairs[0] if self.pairs else None)


def cluster_choice(result: ScanResult | None, cluster_id: int, page: int = -1) -> ClusterChoice | None:
    """What to filter and select when cluster ``cluster_id`` (or its page ``page``) is chosen.

    Args:
        result: the scan shown, or ``None``.
        cluster_id: the cluster's id.
        page: index into ``result.pages`` of the chosen page, or -1 for the cluster itself.

    Returns:
        A :class:`ClusterChoice`, or ``None`` when there is no such cluster.
    """
    if result is None:
        return None
    cluster = next((c for c in result.clusters if c.id == cluster_id), None)
    if cluster is None:
        return None
    pairs = cluster_pairs(result, cluster)
    page_pair = first_pair_of_page(result, page, among=pairs) if page >= 0 else None
    return ClusterChoice(f"Group {cluster_id}", pairs, tuple(cluster.pages), page, page_pair)


def keep_cluster_choice(result: ScanResult | None, keep_id: int, page: int = -1) -> ClusterChoice | None:
    """What to filter and select when keep cluster ``keep_id`` (or its page ``page``) is chosen
    in the cluster tree: as :func:`cluster_choice`, over the keep cluster's pages.

    Args:
        result: the scan shown, or ``None``.
        keep_id: the keep cluster's id (:attr:`~dedup_gui.core.pipeline.keep_clusters.KeepCluster.id`).
        page: index into ``result.pages`` of the chosen page, or -1 for the keep cluster itself.

    Returns:
        A :class:`ClusterChoice` labelled ``"Keep cluster <id>"``, or ``None`` when there is no
        such keep cluster.  For a page to drop, the pair selected is the one with the kept page
        (what the tree's "drop: content duplicate of …" is about), where it was measured.
    """
    if result is None:
        return None
    keep = next((k for k in keep_clusters_of(result) if k.id == keep_id), None)
    if keep is None:
        return None
    pairs = cluster_pairs(result, Cluster(keep_id, keep.pages, frozenset()))
    page_pair = None
    if page >= 0 and page != keep.keep:  # a page to drop: the pair with the kept page, which says why
        page_pair = first_pair_of_page(result, keep.keep, among=_pairs_with(result, page, pairs))
    if page >= 0 and page_pair is None:
        page_pair = first_pair_of_page(result, page, among=pairs)
    return ClusterChoice(f"Keep cluster {keep_id}", pairs, keep.pages, page, page_pair)


def _pairs_with(result: ScanResult, page: int, pairs: list[int]) -> list[int]:
    """The pairs among ``pairs`` (indices into ``result.pairs``) that include page ``page``
    (list[int], in the given order)."""
    return [i for i in pairs if page in (result.pairs[i].left, result.pairs[i].right)]


class Session:
    """What the window works on: the folder, the scan's result and the result shown, what was
    shown before the scan that is running, the scan settings and thresholds in force.

    Args:
        settings: the settings of the next scan (:class:`ScanSettings`).
        thresholds: the thresholds in force (:class:`Thresholds`).

    Attributes:
        settings: the settings of the next scan (:class:`ScanSettings`).
        thresholds: the thresholds in force (:class:`Thresholds`).
        folder: the folder last scanned, resolved (str), or ``None``.
        scan_result: the scan's own result, which threshold changes re-classify, or ``None``.
        result: the result every view shows (the scan re-classified under the thresholds in
            force), or ``None``.
        previous: what was shown before the scan that is running (and stays shown while it
            runs), whose folder is the session's again if it is cancelled or fails
            (:class:`ShownScan`), or ``None``.
        cluster_of: page index -> cluster id of :attr:`result` (dict[int, int]).
        scan_id: number of the newest scan (int); older scans' signals are ignored.
        unscanned: the last scan was cancelled or failed with nothing shown before it: the
            folder has no results (bool).
    """

    def __init__(self, settings: ScanSettings, thresholds: Thresholds) -> None:
        self.settings = settings
        self.thresholds = thresholds
        self.folder: str | None = None
        self.scan_result: ScanResult | None = None
        self.result: ScanResult | None = None
        self.previous: ShownScan | None = None
        self.cluster_of: dict[int, int] = {}
        self.scan_id = 0
        self.unscanned = False

    def begin_scan(self, folder: str | Path, pair: int | None = None) -> int:
        """Start scanning ``folder``: it becomes the session's folder (``~`` expanded, resolved).
        The result shown until now (of this folder or another) is kept as :attr:`previous`
        and stays shown (:attr:`result`) until the scan ends; while another scan was running,
        the one kept before stays.

        Args:
            folder: the folder (or WARC file) to scan.
            pair: the pair selected now (index into ``result.pairs``), or ``None``.

        Returns:
            The new scan's id (int).
        """
        self.scan_id += 1
        self.unscanned = False
        # the result stays shown while the scan runs: kept once, as a scan that replaces a
        # running one (previous set) must not take the shown result for the new folder's
        if self.previous is None and self.folder is not None and self.scan_result is not None \
                and self.result is not None:  # fmt: skip
            self.previous = ShownScan(self.folder, self.scan_result, self.result, pair)
        self.folder = str(Path(folder).expanduser().resolve())
        return self.scan_id

    def title(self) -> str:
        """The window title: ``"<folder> — Duplicate Page Inspector"``, or the name alone; while
        a scan runs with the last results shown, their folder and what is scanned, e.g.
        ``"/s/a (last results; scanning b) — Duplicate Page Inspector"``; after a first scan
        that was cancelled or failed, ``"No results (/s/a not scanned) — Duplicate Page
        Inspector"``: the folder alone read as if its (empty) tables were its results (str)."""
        if self.folder is None:
            return APP_NAME
        if self.unscanned:
            return f"No results ({self.folder} not scanned) — {APP_NAME}"
        if self.previous is None:
            return f"{self.folder} — {APP_NAME}"
        shown = self.previous.folder
        name = folder_names(self.folder, shown)[0]
        scanning = "rescanning" if shown == self.folder else f"scanning {name}"
        return f"{shown} (last results; {scanning}) — {APP_NAME}"

    def scanning_text(self) -> str:
        """:func:`scanning_text` of the scan running and the last results shown, or ``""``
        when no result is kept aside (:attr:`previous`) (str)."""
        if self.folder is None or self.previous is None:
            return ""
        return scanning_text(self.folder, self.previous.folder)

    def show(self, result: ScanResult | None, scan: ScanResult | None = None) -> None:
        """A new result (or nothing) is shown.

        Args:
            result: the result every view shows, or ``None``.
            scan: its scan's own result when ``result`` is a re-classification of it (a
                :class:`ShownScan` given back); ``None``: ``result`` is the scan's own.
        """
        self.scan_result = result if scan is None else scan
        self.result = result
        self.cluster_of = {} if result is None else result.cluster_of()

    def take_previous(self) -> ShownScan | None:
        """What was shown before the scan that was cancelled or failed (or ``None``); its
        folder becomes the session's again and it is forgotten.  The caller shows it."""
        previous, self.previous = self.previous, None
        self.unscanned = previous is None and self.result is None
        if previous is not None:
            self.folder = previous.folder
        return previous

    def drop_previous(self) -> None:
        """The scan finished: what was shown before it is not needed any more."""
        self.previous = None

    def is_stale(self, shown: ShownScan) -> bool:
        """Whether a :class:`ShownScan` given back must be re-classified from its scan's own
        result: the thresholds changed since, or a keep choice or ignore-list change made
        just before the scan began had not reached the result shown yet (bool)."""
        result, scan = shown.result, shown.scan_result
        return (self.needs_reclassify(result) or result.keep_policy != scan.keep_policy
                or result.not_duplicates != scan.not_duplicates)  # fmt: skip

    def is_current(self, result: ScanResult) -> bool:
        """Whether a re-classified ``result`` is of the scan shown (the same pages) (bool)."""
        return self.scan_result is not None and result.pages is self.scan_result.pages

    def update(self, result: ScanResult) -> None:
        """A re-classified ``result`` of the same scan is shown."""
        self.result = result
        self.cluster_of = result.cluster_of()

    def set_keep_policy(self, policy: KeepPolicy) -> None:
        r"""The user's keep decisions changed: the scan's own result takes keep policy ``policy``
        (so re-classifications keep it; its pair columns are shared), and :attr:`previous` is
        left as it was.  The result shown follows when its re-kept version is
        given to :meth:`update`."""
        if self.scan_result is not None and self.scan_result.keep_policy != policy:
            scan = dataclasses.replace(self.scan_result, keep_policy=policy)
            pair_columns(scan, pair_columns(self.scan_result))
            self.scan_result = scan

    def set_not_duplicates(self, pairs: tuple[tuple[str, str], ...]) -> None:
        """The user's ignore list changed: the scan's own result takes ``pairs`` as its
        :attr:`~dedup_gui.core.model.ScanResult.not_duplicates` (so re-classifications apply
        it; its pair types follow at its next re-classification, :meth:`needs_reclassify`).
        The result shown follows when its re-typed version is given to :meth:`update`."""
        if self.scan_result is not None and self.scan_result.not_duplicates != pairs:
            scan = dataclasses.replace(self.scan_result, not_duplicates=pairs)
            pair_columns(scan, pair_columns(self.scan_result))  # the same pairs, not yet re-typed
            self.scan_result = scan

    def needs_reclassify(self, result: ScanResult) -> bool:
        """Whether ``result`` was classified under other thresholds than those in force, or its
        pair types do not follow its ignore list yet (bool)."""
        return result.thresholds != self.thresholds or not marks_applied(result)

    def pair_cluster(self, index: int) -> int | None:
        """The id of the cluster holding both pages of pair ``index`` of :attr:`result`, or ``None``."""
        return None if self.result is None else pair_cluster(self.result, index, self.cluster_of)

    def set_extractor(self, name: str) -> str:
        """Use main-content extractor ``name`` from the next scan on.

        Returns:
            The status line that says so (str).

        Raises:
            KeyError: ``name`` is not a key of ``EXTRACTORS`` (the settings are unchanged).
        """
        label = EXTRACTORS[name]
        self.settings = dataclasses.replace(self.settings, extractor=name)
        return f"Extractor: {label}. Rescan (F5) to apply."

    def set_use_cache(self, on: bool) -> None:
        """Read and write the feature cache from the next scan on, or not."""
        self.settings = dataclasses.replace(self.settings, use_cache=bool(on))
