"""The pages table over a :class:`~dedup_gui.core.model.ScanResult`, without Qt: one row per
page read, with its status (ok, no usable text, where a redirect leads) and Screaming Frog's
duplicate columns, and a status filter (:mod:`dedup_gui.core.views.status_filter`).

Split from :mod:`dedup_gui.core.views.tables` (the pairs and errors tables), which re-exports it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dedup_gui.core.columns import (
    DISTINCT_CODE,
    NO_CLUSTER,
    TYPE_CODE,
    natural_key,
    natural_ranks,
    page_clusters,
    pair_columns,
    substring_mask,
)
from dedup_gui.core.model import DupType, Page, ScanResult
from dedup_gui.core.pipeline.redirects import Redirect, page_redirects, page_status
from dedup_gui.core.safe_text import show_control_characters
from dedup_gui.core.views.keep_columns import (
    PageKeepColumns,
    closest_text,
    keep_text,
    page_canonical,
    page_keep_columns,
)
from dedup_gui.core.views.status_filter import STATUS_FILTERS, status_choices, status_kinds, status_mask
from dedup_gui.core.views.table_state import MUTED, NO_VALUE, TableState


def page_type_bits(result: ScanResult | None, files: int) -> np.ndarray:
    """The duplicate types of each page of the pages table, as bits.

    Bit ``1 << type code`` (:data:`~dedup_gui.core.columns.TYPE_CODE`) is set for each type of a
    page's duplicate pairs, or the distinct bit alone for a page without duplicates; rows after
    the pages get 0.

    Args:
        result: the scan, or ``None`` (every row gets 0).
        files: number of rows (the pages first).

    Returns:
        ``np.uint8`` array of shape (files,).
    """
    bits = np.zeros(files, dtype=np.uint8)
    if result is not None and result.pages:
        columns = pair_columns(result)
        codes = columns.type_code
        duplicate = codes != DISTINCT_CODE
        flags = np.left_shift(1, codes[duplicate]).astype(np.uint8)
        np.bitwise_or.at(bits, columns.left[duplicate], flags)
        np.bitwise_or.at(bits, columns.right[duplicate], flags)
        pages = bits[: len(result.pages)]
        pages[pages == 0] = 1 << DISTINCT_CODE
    return bits


class PagesTable(TableState):
    """One row per page read by a scan (the files that could not be read are the errors
    table's: the counts are those of ``python app.py scan``, "pages: 43", "errors: 1").

    Columns: file, title, URL, words (main-content tokens), template lines (lines of the
    extracted text that were the site's template and were taken out, empty when none), SimHash
    (16 hex digits), cluster, status (``"ok"``, ``"no usable text"``, or for a redirect page
    where it leads: :attr:`~dedup_gui.core.pipeline.redirects.Redirect.status`), and
    Screaming Frog's duplicate columns (:mod:`dedup_gui.core.views.keep_columns`): near
    duplicates (the page's duplicate pairs), closest match (highest content similarity and that
    page), keep (``"kept"``, ``"duplicate of <path>"`` or empty), canonical (whether the
    address the page states, its URL column, points to the page kept for it: ``"good"``,
    ``"bad"``, ``"none"`` or ``"malformed"``, :func:`page_canonical`).

    A page's types (for the type filter) are the duplicate types of the pairs it belongs to, or
    ``{distinct}`` when it has no duplicate; so "distinct" lists the pages without duplicates.
    Record ``i`` is ``result.pages[i]``.
    """

    COLUMNS = ("File", "Title", "URL", "Words", "Template\nlines", "SimHash", "Group", "Status",
               "Near\nduplicates", "Closest match", "Keep", "Canonical")  # fmt: skip
    PATH_COLUMNS = frozenset({0})
    NUMERIC = frozenset({3, 4, 6, 8})
    ELASTIC = frozenset({0, 1, 2, 7, 9, 10})
    ELIDE_END = frozenset({7})  # "redirects to stable/…" keeps its start in a narrow column
    PATH_TAIL = frozenset({2, 9, 10})  # an address, "0.953 <path>", "duplicate of <path>"
    YIELDING = frozenset({1, 2, 9})  # title, URL, closest match: Keep and Canonical stay in sight
    EMPTY_VIEW = "pages"
    #: Template lines and SimHash are shown per page in the Fingerprints tab; hidden here so
    #: that Keep and Canonical fit at 1600 px without cutting titles and statuses.
    HIDDEN = frozenset({4, 5})
    HEADER_TIPS = {
        3: "Words of the page's main text",
        4: "Lines of the page's text that its site repeats on most pages (the site's template), left out of the main text",
        5: "The 64-bit SimHash of the main text, in hex",
        6: "The near-duplicate group of the page: pages joined by any chain of duplicate pairs",
        8: "How many compared pages are duplicates of this one, of any type",
        9: "The compared page with the highest content similarity, and that similarity; a layout "
        "duplicate may have a low one",
        10: "What to do with the page: kept, or a duplicate of the page to keep",
        11: "Whether the address the page states as canonical is the page kept for it: good, bad, none or malformed",
    }

    def __init__(self) -> None:
        super().__init__()
        self._result: ScanResult | None = None
        self._files: list[Page] = []
        self._names: list[str] = []
        self._clusters = np.zeros(0, dtype=np.int32)  # record -> cluster id, NO_CLUSTER for none
        self._cluster_list: list[int] = []  # the same as Python ints, for data()
        self._type_bits: np.ndarray | None = None  # record -> bit set of types, built on first use
        self._root = ""
        self._keep: PageKeepColumns | None = None  # built on first use
        self._redirects: dict[int, Redirect] = {}
        self._status: str | None = None  # the status filter's key (STATUS_FILTERS), None for all
        self._kinds = np.zeros(0, dtype=np.int8)  # record -> status kind (status_kinds)
        self._status_mask: np.ndarray | None = None  # the status filter's mask, built on first use

    def load(self, result: ScanResult | None) -> int:
        """Take the pages of ``result``; return their number (int)."""
        self._result = result
        self._keep = None
        self._root = "" if result is None else result.root
        self._files = [] if result is None else list(result.pages)
        self._redirects = {} if result is None else page_redirects(result)
        self._kinds = status_kinds(self._files, self._redirects)
        self._status_mask = None
        if self._status is not None and self._status not in {key for _label, key in self.status_choices()}:
            self._status = None  # the new result has no page of that status: show them all
        self._names = [f.path.casefold() for f in self._files]
        self.set_shared_folders([f.path for f in self._files])
        self._type_bits = None
        self._clusters = np.zeros(0, dtype=np.int32) if result is None else page_clusters(result)
        self._cluster_list = self._clusters.tolist()
        return len(self._files)

    def records_in(self, result: ScanResult | None) -> int:
        """Number of pages of ``result`` (int)."""
        return 0 if result is None else len(result.pages)

    def file_at(self, row: int) -> Page:
        """The :class:`Page` shown in ``row``.

        Raises:
            IndexError: no such row.
        """
        return self._files[self.record(row)]

    def paths_of(self, record: int) -> list[str]:
        """The absolute path of page ``record`` (a one-item list[str])."""
        return [self._files[record].abspath]

    def display(self, record: int, col: int) -> str:
        """Text of a cell (str)."""
        item = self._files[record]
        if col == 0:
            return item.path
        if col >= 8:
            return self._keep_cell(record, col)
        cluster = self._cluster_list[record]
        template = item.template_line_count
        return (
            item.title,
            item.url or "",
            f"{item.word_count:,}",
            f"{template:,}" if template else "",
            item.simhash_hex,
            "" if cluster == NO_CLUSTER else str(cluster),
            self._redirects[record].status if record in self._redirects else page_status(item),
        )[col - 1]

    def details(self, record: int) -> str:
        """The page in full for the line under the table (plain text, may hold paths and a
        page's title; str): its path and title, then its address and its status unless ``ok``, then its
        duplicate columns, each named (``"Closest match: 1.000 v1.10.x/a/index.html   Keep:
        duplicate of v1.16.x/a/index.html   Canonical: good"``); empty ones left out.  The
        columns of a 1280-px window read "使用 … 文档", "http…bpf/", "1.00…html", "dupl…html"."""

        def named(*cols: int) -> str:
            return "   ".join(
                f"{self.COLUMNS[c].replace(chr(10), ' ')}: {v}" for c in cols if (v := self.display(record, c))
            )

        title = self.display(record, 1)
        status = (7,) if self.display(record, 7) != "ok" else ()  # "Status: ok" took a line of a small window
        lines = [self.display(record, 0) + (f"  ·  {title}" if title else ""), named(2, *status), named(9, 10, 11)]
        return "\n".join(show_control_characters(line) for line in lines if line)

    def keep_columns(self) -> PageKeepColumns | None:
        """The pages' duplicate columns (:func:`page_keep_columns`, built on first use), or
        ``None`` without a result."""
        if self._keep is None and self._result is not None:
            self._keep = page_keep_columns(self._result)
        return self._keep

    def _keep_cell(self, record: int, col: int) -> str:
        columns, result = self.keep_columns(), self._result
        if columns is None or result is None:
            return ""
        if col == 8:
            return f"{int(columns.near_duplicates[record]):,}"
        if col == 11:
            return page_canonical(result, columns, record).status
        return (closest_text if col == 9 else keep_text)(result, columns, record)

    def sort_key(self, record: int, col: int) -> Any:
        """Sort value: words, template lines, cluster and near duplicates as int (empty = -1),
        closest match by its similarity (float, -1 for none), the path in natural order
        (:func:`~dedup_gui.core.columns.natural_key`), other columns as folded text."""
        if col in (8, 9):
            columns = self.keep_columns()
            if columns is None:
                return NO_VALUE
            return int(columns.near_duplicates[record]) if col == 8 else float(columns.closest_similarity[record])
        if col in (3, 4):
            item = self._files[record]
            return item.word_count if col == 3 else item.template_line_count
        if col == 6:
            return self._cluster_list[record]  # NO_CLUSTER == NO_VALUE
        if col == 0:
            return natural_key(self._names[record])
        return self.display(record, col).casefold()

    def sort_keys(self, col: int) -> np.ndarray:
        """Sort keys of every page for column ``col``: words, template lines and cluster as
        ``int64`` (empty = -1), the text columns as ranks of their folded text, the path in
        natural order (shape (pages,))."""
        if col in (3, 4):
            return np.fromiter((self.sort_key(record, col) for record in range(len(self._files))),
                               np.int64, len(self._files))  # fmt: skip
        if col == 6:
            return self._clusters.astype(np.int64)
        if col in (8, 9):
            columns = self.keep_columns()
            if columns is None:
                return np.full(len(self._files), float(NO_VALUE))
            return np.asarray(columns.near_duplicates if col == 8 else columns.closest_similarity, dtype=np.float64)
        if col == 0:
            return natural_ranks(self._names)
        return super().sort_keys(col)

    def tone(self, record: int) -> str | None:
        """:data:`MUTED` for pages without usable text, else ``None``."""
        return None if self._files[record].has_text else MUTED

    def type_mask(self, type_filter: frozenset[DupType]) -> np.ndarray:
        """Which pages have one of these types (``np.bool_``, shape (pages,))."""
        wanted = sum(1 << TYPE_CODE[t] for t in type_filter)
        return (self._page_type_bits() & wanted) != 0

    # --- the status filter -----------------------------------------------------------------

    def status_choices(self) -> list[tuple[str, str | None]]:
        """The status filter's choices for the pages shown (``(label, key)`` pairs, "All
        statuses" first, then the kinds present with their counts:
        :func:`~dedup_gui.core.views.status_filter.status_choices`)."""
        return status_choices(self._kinds)

    def status_filter(self) -> str | None:
        """The status filter's key (a :data:`~dedup_gui.core.views.status_filter.STATUS_FILTERS`
        key), ``None`` for every status."""
        return self._status

    def set_status_filter(self, key: str | None) -> None:
        """Keep only the pages of one status kind (``None`` = every page).

        Raises:
            KeyError: ``key`` is not ``None`` nor a
                :data:`~dedup_gui.core.views.status_filter.STATUS_FILTERS` key (the filter is
                unchanged).
        """
        if key is not None and key not in STATUS_FILTERS:
            raise KeyError(f"no status filter {key!r}; use one of {', '.join(STATUS_FILTERS)}")
        self._status = key
        self._status_mask = None
        self._update_rows()

    def extra_masks(self) -> list[np.ndarray]:
        """The status filter's mask (a one-item list), or none without a status filter."""
        if self._status is None:
            return []
        if self._status_mask is None:
            self._status_mask = status_mask(self._kinds, self._status)
        return [self._status_mask]

    def text_mask(self, text: str) -> np.ndarray:
        """Which pages' paths contain ``text`` (case-folded) (``np.bool_``, shape (pages,))."""
        return substring_mask(self._names, text)

    def _page_type_bits(self) -> np.ndarray:
        """:func:`page_type_bits` of the result, built on first use."""
        if self._type_bits is None:
            self._type_bits = page_type_bits(self._result, len(self._files))
        return self._type_bits
