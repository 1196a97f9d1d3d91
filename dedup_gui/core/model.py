"""The records that flow through the engine: pages, pair scores, pairs, clusters, scan results.

Data flows one way: files -> :class:`Page` (decoded, extracted features) -> candidate pairs ->
:class:`Pair` (scored and classified) -> :class:`Cluster` -> views and reports.  Every record
here is a frozen dataclass, so stages can share them without copying.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from fnmatch import fnmatchcase

import numpy as np


class DupType(str, enum.Enum):  # noqa: UP042 - StrEnum would change str() of a member
    """The four duplicate types of DESIGN.md, plus ``distinct``.

    ``full``: same content, same layout; ``content``: same content, different layout;
    ``layout``: partly shared content, same layout; ``partial``: partly shared content,
    different layout; ``distinct``: no important part shared.
    """

    FULL = "full"
    CONTENT = "content"
    LAYOUT = "layout"
    PARTIAL = "partial"
    DISTINCT = "distinct"

    @property
    def label(self) -> str:
        """Human name of the type, e.g. ``"content duplicate"`` (str)."""
        return _LABELS[self]

    def count_text(self, n: int) -> str:
        """``n`` pairs or pages of this type in words, plural right, e.g. ``"1,946 full
        duplicates"``, ``"1 content duplicate"``, ``"877 distinct"`` (str)."""
        plural = n != 1 and self is not DupType.DISTINCT
        return f"{n:,} {self.label}{'s' if plural else ''}"


_LABELS = {
    DupType.FULL: "full duplicate",
    DupType.CONTENT: "content duplicate",
    DupType.LAYOUT: "layout duplicate",
    DupType.PARTIAL: "partial duplicate",
    DupType.DISTINCT: "distinct",
}

#: The five labels in the order reports and confusion matrices use.
TYPE_ORDER: tuple[DupType, ...] = (
    DupType.FULL,
    DupType.CONTENT,
    DupType.LAYOUT,
    DupType.PARTIAL,
    DupType.DISTINCT,
)


@dataclass(frozen=True)
class Thresholds:
    """Decision thresholds of the classifier; one place where they live.

    The defaults were chosen by a grid search on ``shared/pairs/labels.csv`` (233 labelled pairs
    of real pages; README.md, "Accuracy", gives the measured figures).

    Args:
        content_same: similarity ([0, 1]) at or above which two main texts count as the same
            content: content similarity (normalized Levenshtein, both texts nearly equal); where
            the scan did not learn both pages' site template, content containment may reach it
            instead (containment forgives extraction noise such as a caption one extractor
            kept), only when the Jaccard similarity is at least ``same_min_jaccard`` (so a
            short page contained in a long one is not "the same").
        content_partial: content containment ([0, 1], share of the smaller page's shingles found
            in the other) at or above which an important part of the content is shared.
        layout_same: layout similarity (normalized Levenshtein of the templates' tag sequences,
            [0, 1]) at or above which two pages share a layout.  0.7 on the real site of
            ``shared/realsite``: two skeletons of one theme there share 86-99 % of their
            template tags, two of different themes 55-65 %.
        hamming_k: SimHash Hamming distance (bits, 0..64) at or below which two fingerprints are
            near duplicates (k = 3 for 64-bit fingerprints, Manku, Jain and Das Sarma, WWW 2007).
            Shown in the views (the histogram's k line, the SimHash method's verdict); the type
            rule uses the exact measures above, and the candidate stage always searches SimHash
            blocks for 3 bits (``candidates.SIMHASH_BLOCK_K``).
        same_min_jaccard: see ``content_same`` ([0, 1]); 0.6: a text half the length of the other is
            never "the same" (on the labelled pairs, macro-F1 0.930 from 0.5 to 0.6, 0.935 at 0.3).
    """

    content_same: float = 0.925
    content_partial: float = 0.2
    layout_same: float = 0.7
    hamming_k: int = 3
    same_min_jaccard: float = 0.6

    def __post_init__(self) -> None:
        for name in ("content_same", "content_partial", "layout_same", "same_min_jaccard"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} must be in [0, 1], got {value!r}")
        if not 0 <= self.hamming_k <= 64:
            raise ValueError(f"hamming_k must be in 0..64 bits, got {self.hamming_k!r}")


@dataclass(frozen=True, eq=False)
class Page:
    """One usable page file with the features the engine extracted from it.

    Attributes:
        path: path relative to the scanned folder, with ``/`` separators (str).
        abspath: absolute path of the file on disk (str).
        size: size of the page's HTML bytes (int, bytes; after gzip decompression and MHTML
            unpacking, so the file's size for a plain HTML file).
        sha1: SHA-1 hex digest of the page's HTML bytes (after gzip decompression and MHTML
            unpacking): the exact-duplicate key, so a page and its gzipped copy are identical.
        encoding: the codec the bytes were decoded with (e.g. ``"utf-8"``, ``"gb18030"``).
        encoding_source: how it was chosen: ``"bom"``, ``"http"`` (a WARC record's HTTP header),
            ``"xml"``, ``"meta"``, ``"utf-8"``
            (valid UTF-8 overriding a wrong label), ``"detected"``, ``"fallback"``.
        title: page title (``<title>``, else ``og:title``), whitespace-normalized, may be ``""``.
        url: the page's own address if the file tells it (canonical link, ``og:url``, the
            ``saved from url=`` comment), else ``None``.
        main_text: main-content text (readability-lxml), paragraphs separated by ``"\\n"``.
        text_hash: SHA-1 hex digest of the whitespace-normalized, case-folded main text.
        tag_sequence: DOM element names in document order, e.g. ``("html", "head", ...)``.
        simhash: 64-bit SimHash of the main content as an unsigned int (Charikar 2002).
        shingles: sorted unique 32-bit shingle hashes of the main text, ``np.uint32`` array.
        minhash: MinHash signature, ``np.uint64`` array of ``num_perm`` values (datasketch).
        word_count: tokens in the main text (words; each CJK character counts as one).
        has_text: ``False`` when the page has no usable main text (empty, image-only, frames);
            such pages are never called duplicates of each other on their text alone.
        notes: human-readable remarks on what was recovered (e.g. replaced undecodable bytes).
        file_sha1: SHA-1 hex digest of the raw file bytes these features were made from (the
            feature cache's key); ``""`` if unknown.
        file_stamp: the file's ``(size in bytes, mtime in ns)`` while it was read, if old enough
            to identify that content (:func:`dedup_gui.core.pipeline.loading.trusted_stamp`), else
            ``None``; also ``None`` for a page from the feature cache.  A property of this one
            file, never stored with the features (a copy has another).
        content_span: the main-content subtree as an element range ``(start, end)`` of
            ``tag_sequence`` (:mod:`dedup_gui.core.extraction.template`); the rest is the page's template.
            ``None`` when the page has no usable text or no element holds it.
        other_lines: hashes of the page's visible lines that are not lines of its main text
            (sorted unique ``np.uint32``, :func:`dedup_gui.core.pipeline.site_template.line_hash`); the
            scan learns each site's template from them.
        repeated_lines: hashes of the main text's lines that the page shows more than once (its
            article quoted in a box beside it): never its template.
        template_known: ``True`` when this scan learned the page's site template and took it
            out of the main text (set per scan, never cached).
        template_text: the lines of the extracted main text that were the site's template and
            were taken out, one per line (set per scan, never cached; ``""`` if none).
        record_offset: for a page read from a WARC file (:attr:`abspath`), the offset of its
            record in the file (bytes; its :attr:`path` is ``file.warc.gz#offset``); ``None`` for a
            page file.  Its :attr:`url` is then the record's ``WARC-Target-URI``.
        record_date: a WARC page's ``WARC-Date`` (ISO 8601 as written; ``""`` for a page file).
        redirect: the address the page's ``<meta http-equiv="refresh">`` sends to, as written
            (``"../../stable/advance/dhcp/"``; ``""`` when none): a client-side redirect page
            (:mod:`dedup_gui.core.extraction.refresh`; where it leads:
            :mod:`dedup_gui.core.pipeline.redirects`).
    """

    path: str
    abspath: str
    size: int
    sha1: str
    encoding: str
    encoding_source: str
    title: str
    url: str | None
    main_text: str
    text_hash: str
    tag_sequence: tuple[str, ...]
    simhash: int
    shingles: np.ndarray
    minhash: np.ndarray
    word_count: int
    has_text: bool
    notes: tuple[str, ...] = ()
    file_sha1: str = ""
    file_stamp: tuple[int, int] | None = None
    content_span: tuple[int, int] | None = None
    other_lines: np.ndarray = field(default_factory=lambda: np.zeros(0, np.uint32))
    repeated_lines: np.ndarray = field(default_factory=lambda: np.zeros(0, np.uint32))
    template_known: bool = False
    template_text: str = ""
    record_offset: int | None = None
    record_date: str = ""
    redirect: str = ""

    @property
    def template_line_count(self) -> int:
        """How many lines of the extracted text were the site's template and were taken out
        (int, 0 when none)."""
        return self.template_text.count("\n") + 1 if self.template_text else 0

    @property
    def simhash_hex(self) -> str:
        """The SimHash as 16 hex digits (str)."""
        return f"{self.simhash:016x}"


@dataclass(frozen=True)
class FileError:
    """A file that could not be used, with the reason (shown in the GUI, the CLI and reports).

    Attributes:
        path: path relative to the scanned folder (str, ``/`` separators).
        reason: one sentence saying why the file was not used (str).
    """

    path: str
    reason: str


@dataclass(frozen=True)
class PairScores:
    """The measures of DESIGN.md for one pair of pages; all similarities are in [0, 1].

    Attributes:
        content_similarity: normalized Levenshtein similarity of the whitespace-normalized main
            texts (rapidfuzz), 1 = identical.
        content_containment: share of the smaller page's content shingles found in the other.
        layout_similarity: normalized Levenshtein similarity of the DOM tag sequences of the two
            pages' templates, each page's main-content subtree collapsed to one element
            (Di Lucca, Di Penta and Fasolino, COMPSAC 2002; :mod:`dedup_gui.core.extraction.template`).
        hamming_distance: differing bits between the two 64-bit SimHashes (0..64).
        jaccard: Jaccard similarity of the two shingle sets (Broder 1997), exact.
        identical_bytes: ``True`` when both files have the same bytes.
        both_have_text: ``True`` when both pages have usable main text.
        contained_side: which page ``content_containment`` is about, the one with fewer content
            shingles: ``"left"`` (the left page's share inside the right one), ``"right"``, or
            ``""`` (pages of about one length, or no text).
        templates_known: ``True`` when the scan learned the site template of both pages
            (:mod:`dedup_gui.core.pipeline.site_template`): their main texts are then free of template
            text, and one inside the other is not the same content.
    """

    content_similarity: float
    content_containment: float
    layout_similarity: float
    hamming_distance: int
    jaccard: float
    identical_bytes: bool = False
    both_have_text: bool = True
    contained_side: str = ""
    templates_known: bool = False


@dataclass(frozen=True)
class Pair:
    """A scored and classified pair of pages.

    Attributes:
        left: index of the first page in :attr:`ScanResult.pages` (``left < right``).
        right: index of the second page.
        scores: the pair's :class:`PairScores`.
        type: its :class:`DupType` under the result's thresholds.
        not_duplicate: ``True`` when the user marked the pair "not a duplicate"
            (:attr:`ScanResult.not_duplicates`): its type is then ``DISTINCT`` whatever its
            measures, under any thresholds.
    """

    left: int
    right: int
    scores: PairScores
    type: DupType
    not_duplicate: bool = False


@dataclass(frozen=True)
class Cluster:
    """A group of pages joined by duplicate pairs (union-find over non-distinct pairs).

    Attributes:
        id: 1-based cluster number; clusters are numbered largest first.
        pages: indices into :attr:`ScanResult.pages`, ascending.
        types: the duplicate types of the pairs inside the cluster.
    """

    id: int
    pages: tuple[int, ...]
    types: frozenset[DupType]


@dataclass(frozen=True)
class ScanSettings:
    """Settings of a scan that change which pages are read and how features are built.

    Attributes:
        max_file_bytes: files larger than this (bytes) are reported as too large, not read.
        min_tokens: pages with fewer main-text tokens have no usable text.
        shingle_size: tokens per shingle (words, or CJK characters).
        num_perm: MinHash permutations (datasketch).
        lsh_threshold: Jaccard threshold of the MinHash LSH candidate index; low, so partial
            duplicates become candidates.
        candidate_containment: containment ([0, 1]) at which the inverted shingle index makes a
            pair a candidate; below the classifier's ``content_partial`` so that lowering that
            threshold a little in the window still finds the pairs.
        boilerplate_pages: a content shingle found in more than this many distinct main texts
            is boilerplate of the collection (template text the extractor left in): it does not
            make pages candidates (:mod:`dedup_gui.core.pipeline.candidates`).
        workers: processes for the per-page stage (1 = in this process, with no per-page time
            limit; 0 = one per core, at most one per file; at most 4 per core in any case).
        page_timeout: seconds one page may take in a worker process before it is cut off and
            reported (in-process scans, ``workers=1``, have no time limit).
        page_memory_bytes: address-space limit of each worker process (bytes); a page that
            needs more is reported, not the machine exhausted.
        use_cache: read and write the feature cache (:mod:`dedup_gui.core.pipeline.cache`).
        extractor: the main-content extractor: ``"fast"`` (default: Readability's algorithm on
            the selectolax/lexbor parser, as accurate as readability-lxml on the ground truth and
            the labelled pairs, about 6x faster), ``"readability"`` (readability-lxml) or
            ``"resiliparse"``; see :data:`dedup_gui.core.extraction.extract.EXTRACTORS`.
        dask_scheduler: address of a Dask distributed scheduler (e.g. ``"tcp://10.0.0.5:8786"``)
            to run the per-page stage on; ``None`` to run it on this machine.
        cache_dir: the cache folder; ``None`` for the user's cache directory.
        learn_templates: learn each site's template from the folder and take it out of the
            pages' main texts (:mod:`dedup_gui.core.pipeline.site_template`).
        follow_links: follow symbolic links whose target lies outside the scanned folder (read
            the files and walk the folders they point to); ``False`` (default) lists them as
            skipped, so a link cannot bring outside files (``/etc/passwd``) into a scan and its
            reports.  Links inside the folder are followed either way
            (:func:`dedup_gui.core.pipeline.walk.discover`).
    """

    max_file_bytes: int = 50 * 1024 * 1024
    min_tokens: int = 8
    shingle_size: int = 4
    num_perm: int = 128
    lsh_threshold: float = 0.1
    candidate_containment: float = 0.15
    boilerplate_pages: int = 50
    workers: int = 0
    page_timeout: float = 60.0
    page_memory_bytes: int = 4 * 1024**3
    use_cache: bool = True
    cache_dir: str | None = None
    extractor: str = "fast"
    dask_scheduler: str | None = None
    learn_templates: bool = True
    follow_links: bool = False


#: The criteria a keep rule may order (:class:`KeepPolicy`): key -> the words reports use.
CRITERIA = {
    "canonical": "canonical URL",
    "version": "newest version folder",
    "pattern": "matches the preferred pattern",
    "shortest_url": "shortest URL",
    "longest_content": "longest main content",
    "newest_file": "newest file",
    "oldest_file": "oldest file",
}
#: The default order of the criteria.
DEFAULT_ORDER: tuple[str, ...] = ("canonical", "version", "longest_content", "oldest_file")


@dataclass(frozen=True)
class KeepPolicy:
    """How the page to keep is chosen: the user's decisions, then the criteria in order.

    Attributes:
        order: keys of :data:`CRITERIA`, most important first (tuple[str, ...]).
        pattern: for the ``"pattern"`` criterion, a shell-style pattern (``*``, ``?``) matched
            against the path and the URL; without a wildcard, a substring to look for (str).
        reference_folders: folders (relative to the scanned folder, ``/`` separators) whose
            pages are always kept, never dropped.
        chosen: paths of pages the user chose to keep ("Keep this page instead"): each is kept
            in its keep cluster.

    Raises:
        ValueError: an unknown or repeated criterion.
    """

    order: tuple[str, ...] = DEFAULT_ORDER
    pattern: str = ""
    reference_folders: tuple[str, ...] = ()
    chosen: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        unknown = [c for c in self.order if c not in CRITERIA]
        if unknown or not self.order or len(set(self.order)) != len(self.order):
            raise ValueError(
                f"keep criteria must be distinct names of {', '.join(CRITERIA)}; got {', '.join(self.order) or 'none'}"
            )

    def is_reference(self, path: str) -> bool:
        """Whether ``path`` lies under one of :attr:`reference_folders` (bool)."""
        return any(path.startswith(folder.strip("/") + "/") for folder in self.reference_folders if folder.strip("/"))

    def matches(self, page: Page) -> bool:
        """Whether ``page``'s path or URL matches :attr:`pattern` (bool; ``False`` without one)."""
        if not self.pattern:
            return False
        wild = any(c in self.pattern for c in "*?[")
        for text in (page.path, page.url or ""):
            if text and (fnmatchcase(text, self.pattern) if wild else self.pattern in text):
                return True
        return False


def path_pair(a: str, b: str) -> tuple[str, str]:
    """The order-free key of a pair of page paths: the smaller path first (tuple[str, str]).

    Raises:
        ValueError: ``a`` and ``b`` are the same path (a page is not a pair).
    """
    if a == b:
        raise ValueError(f"a page is not a pair with itself: {a}")
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True)
class ScanResult:
    """Everything a scan produced; views and reports read only this.

    Attributes:
        root: the scanned folder (absolute path, str).
        pages: usable pages, sorted by path.
        errors: files that could not be used, with reasons, sorted by path.
        pairs: candidate pairs with scores and types, most similar first.
        clusters: duplicate clusters, largest first.
        thresholds: the thresholds the types were computed with.
        settings: the scan settings.
        skipped: files that are not pages (stylesheets, images, scripts...), not errors.
        elapsed: wall time of the scan in seconds (float).
        from_cache: pages whose features came from the feature cache, not read (int).
        skip_reasons: why a path in ``skipped`` was skipped, where it is not simply "not a
            page" (a link to a folder or file read under its real path, a loop, a pipe or
            device, a symbolic link out of the scanned folder).
        notes: remarks about the scan as a whole (e.g. that the feature cache was rebuilt or
            could not be used, or that the folder holds no page).
        also_at: the other addresses of pages, through symbolic links that were not read again
            (``latest/x.html`` for ``v2/x.html`` when ``latest`` links to ``v2``):
            ``{page path: (other path, ...)}``, sorted; pages without one are left out
            (:func:`dedup_gui.core.pipeline.walk.discover`).
        star_groups: groups of more than 30 near-copies of one page that the candidate stage
            paired only as a star around the group's first page (page indices, that page
            first): their members were never compared with each other
            (:mod:`dedup_gui.core.pipeline.candidates`); the keep clusters use them.
        keep_policy: the keep rule and the user's decisions (which pages to keep, reference
            folders) that the keep clusters follow (:class:`KeepPolicy`).
        not_duplicates: the pairs of pages the user marked "not a duplicate" (the ignore list),
            as ``(path, path)`` with the smaller path first, sorted (:func:`path_pair`); each
            measured pair of them is ``DISTINCT`` (:attr:`Pair.not_duplicate`) and no keep
            cluster holds both pages.  Paths that are no page of the scan are harmless.
        link_folders: the symbolic links to folders of the scanned folder that were skipped
            because their target was read under its own path, ``{link/: target/}``
            (``{"stable/": "v1.16.x/"}``; :attr:`dedup_gui.core.pipeline.walk.Discovery.link_folders`).
        version_aliases: the version aliases the site's mike ``versions.json`` files declare,
            ``{alias folder/: version folder/}`` (``{"dev/": "v1.17.x/"}``;
            :func:`dedup_gui.core.pipeline.site_versions.read_version_aliases`).
    """

    root: str
    pages: list[Page]
    errors: list[FileError]
    pairs: list[Pair]
    clusters: list[Cluster]
    thresholds: Thresholds
    settings: ScanSettings
    skipped: list[str] = field(default_factory=list)
    elapsed: float = 0.0
    from_cache: int = 0
    notes: list[str] = field(default_factory=list)
    skip_reasons: dict[str, str] = field(default_factory=dict)
    also_at: dict[str, tuple[str, ...]] = field(default_factory=dict)
    star_groups: list[tuple[int, ...]] = field(default_factory=list)
    keep_policy: KeepPolicy = field(default_factory=KeepPolicy)
    not_duplicates: tuple[tuple[str, str], ...] = ()
    link_folders: dict[str, str] = field(default_factory=dict)
    version_aliases: dict[str, str] = field(default_factory=dict)

    def skip_reason(self, path: str) -> str:
        """Why skipped file ``path`` was not used (str)."""
        return self.skip_reasons.get(path, "not a page")

    def skipped_for_reasons(self) -> list[tuple[str, str]]:
        """The skipped paths with a reason of their own (a link to a file or folder already
        read, a loop, a pipe...), not simply "not a page": ``(path, reason)`` in path order."""
        return [(path, self.skip_reasons[path]) for path in self.skipped if path in self.skip_reasons]

    def cluster_of(self) -> dict[int, int]:
        """Map page index -> cluster id for pages inside a cluster (dict[int, int])."""
        return {p: c.id for c in self.clusters for p in c.pages}
