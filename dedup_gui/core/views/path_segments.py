"""Which parts of a path to keep when a column is too narrow for it: those that tell it apart.

A narrow path column showed a path as its first folder, ``…`` and its document's name
(:func:`dedup_gui.gui.elide.elide_path`), dropping a language folder when short of room and
eliding a long name in its middle.  On a documentation site, at 1024x640, rows then read alike:
"v1.10.x/…/vpc-peering/" for both ``v1.10.x/zh/advance/vpc-peering/`` and
``v1.10.x/en/advance/vpc-peering/``, "chang…bnet/" for both ``change-default-subnet/`` and
``change-join-subnet/``.  :class:`PathSegments` ranks a path's folders so that those kept are the
ones that tell it apart from the other page of its pair (a version or language folder) and from
the column's other paths of the same document; the folders those paths share are cut first.  It
also says where the part of the document's name that tells it from the column's other names
begins (:func:`~dedup_gui.core.views.paths.distinct_starts`), so that a name cut keeps that part.
No Qt here: the GUI fits the ranking to the column's width.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from dedup_gui.core.site_paths import is_index_name
from dedup_gui.core.views.paths import distinct_starts

#: The other paths of a document a cut compares a path with, at most.
MAX_ALIKE = 1000


def split_document(path: str) -> tuple[tuple[str, ...], str]:
    """``path`` (``/`` separators) as its folders and its document: the file name, or for an
    index page its folder's name and ``/``, as its address reads (tuple[tuple[str, ...], str]).

    Example:
        >>> split_document("v1.10.x/zh/advance/with-cilium/index.html")
        (('v1.10.x', 'zh', 'advance'), 'with-cilium/')
        >>> split_document("a/b.html")
        (('a',), 'b.html')
    """
    parts = path.split("/")
    if len(parts) > 1 and is_index_name(parts[-1]):
        parts = parts[:-1]
        return tuple(parts[:-1]), parts[-1] + "/"
    return tuple(parts[:-1]), parts[-1]


@dataclass(frozen=True)
class PathCut:
    """How to cut one path cell: its parts and which to keep first.

    Attributes:
        folders: the folders before the document (tuple[str, ...]).
        document: the file name, or an index page's folder name and ``/`` (str).
        order: indices into ``folders``, the one to keep first first (tuple[int, ...]).
        needed: how many of ``order``'s first folders tell the path apart (the pair's other page
            lacks them, or not every path of the column with the same document has them); the
            rest are shared, cut first (int).
        start: where the part of ``document`` that tells it from the column's other documents
            begins (an index into ``document``; 0: none to keep apart) (int).
    """

    folders: tuple[str, ...]
    document: str
    order: tuple[int, ...]
    needed: int = 0
    start: int = 0

    def shown(self, kept: Iterable[int]) -> str:
        """The path with only the ``kept`` folders, each run of cut ones as ``…``, and the whole
        document (``"v1.10.x/zh/…/with-cilium/"``) (str).

        Example:
            >>> PathCut(("v1", "zh", "a", "b"), "doc.html", (0, 1)).shown([0, 3])
            'v1/…/b/doc.html'
        """
        return self.shown_name(kept, self.document)

    def shown_name(self, kept: Iterable[int], name: str) -> str:
        """As :meth:`shown`, with ``name`` (the document cut to fit) in place of the document (str)."""
        chosen = set(kept)
        out: list[str] = []
        for i, folder in enumerate(self.folders):
            if i in chosen:
                out.append(folder)
            elif not out or out[-1] != "…":
                out.append("…")
        return "/".join([*out, name])


class PathSegments:
    """The parts of each path of a column that tell it apart (see the module).

    Paths of one document (``…/vpc-peering/``) read alike when a column keeps only their ends;
    a path's folders are chosen as a decision list tells it from the others of its document:
    each next folder the one the fewest of the paths still alike have (``v1.10.x`` among the
    versions, then ``zh`` beside ``en``), until none is left alike; a folder they all have
    (``advance``) tells it from none.  Costs one pass over the paths and a sort of the
    documents' names; :meth:`cut` costs the paths of one document.

    Args:
        paths: the column's paths as its cells show them (repeats allowed).
    """

    def __init__(self, paths: Iterable[str]) -> None:
        self._paths: dict[str, list[frozenset[str]]] = {}  # document -> each path's folders
        for path in set(paths):
            folders, document = split_document(path)
            self._paths.setdefault(document, []).append(frozenset(folders))
        documents = sorted(self._paths)
        # a table repaints its cells often, the same ones: remembered per instance
        self._remembered = lru_cache(maxsize=4096)(self._cut)
        # index pages' folder names as file names are: "change-join-subnet/" keeps "join-subnet/"
        self._starts = dict(zip(documents, distinct_starts(documents), strict=True))

    def cut(self, path: str, partner: str = "") -> PathCut:
        """How to cut ``path``: its folders ranked, the ones to keep first first: those the
        ``partner`` path (the pair's other page, when it has the same document: else its name tells
        them apart) lacks (the first folder, a version, first), then each next the one the fewest of the
        column's paths of the same document still alike (having every folder chosen so far)
        have, until none is alike or no folder tells them apart; on a tie the first folder (a
        version), then a later folder before an earlier one (nearer the document).  The other
        folders, shared, come last, to be cut first.

        Args:
            path: a path of the column, as shown.
            partner: the other page's path in the same row, as shown (``""``: none).

        Returns:
            The :class:`PathCut`.

        Example:
            >>> seg = PathSegments(["v1/zh/a/d.html", "v1/en/a/d.html", "v2/a/d.html", "v1/a/d.html"])
            >>> seg.cut("v1/zh/a/d.html", "v1/a/d.html")  # zh first: the partner lacks it
            PathCut(folders=('v1', 'zh', 'a'), document='d.html', order=(1, 0, 2), needed=1, start=0)
            >>> seg.cut("v1/a/d.html", "v1/zh/a/d.html").needed  # v1 tells it from v2/a/; a from none
            1
        """
        return self._remembered(path, partner)

    def _cut(self, path: str, partner: str) -> PathCut:
        folders, document = split_document(path)
        own = frozenset(folders)
        # a file name in thousands of folders ("page.html"): the first MAX_ALIKE bound the cost
        alike = [other for other in self._paths.get(document, [])[:MAX_ALIKE] if other != own]
        their_folders, their_document = split_document(partner) if partner else ((), "")
        # the partner's folders matter when it is the same document: else its name tells them apart
        theirs = set(their_folders) if their_document == document else set(folders)
        left = list(range(len(folders)))

        def rank(i: int) -> tuple[int, bool, int]:
            return (sum(1 for other in alike if folders[i] in other), i != 0, -i)

        chosen: list[int] = []
        for must in (True, False):  # the partner's missing folders first, then the others
            pool = [i for i in left if (folders[i] not in theirs) == must]
            while pool and (must or alike):
                # of the partner's missing ones, the first folder first: the version tells the
                # pair's sides apart, and the rows of its document too
                best = 0 if must and 0 in pool else min(pool, key=rank)
                if not must and rank(best)[0] == len(alike):
                    break  # every path still alike has it: it tells none apart
                chosen.append(best)
                pool.remove(best)
                left.remove(best)
                alike = [other for other in alike if folders[best] in other]
        needed = len(chosen)
        order = (*chosen, *sorted(left, key=lambda i: (i != 0, -i)))
        return PathCut(folders, document, order, needed, self._starts.get(document, 0))


def pair_cuts(segments: PathSegments, left: str, right: str) -> tuple[PathCut, PathCut]:
    """The :class:`PathCut` of a pair's two shown paths, each against the other
    (tuple[PathCut, PathCut])."""
    return segments.cut(left, right), segments.cut(right, left)


def column_segments(paths: Sequence[str], shared: str = "") -> PathSegments:
    """:class:`PathSegments` of ``paths`` as a table shows them, without the ``shared`` leading
    folders (:func:`~dedup_gui.core.views.paths.shared_folders`) (PathSegments)."""
    cut = len(shared)
    return PathSegments(p[cut:] if shared and p.startswith(shared) else p for p in paths)
