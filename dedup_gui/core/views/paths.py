"""Paths shown side by side so that they tell their pages apart: the folders every one of them
shares are dropped (the full path stays in the tooltip), so a narrow column elides what differs
less often ("news.16…ex.html" three times in one cluster)."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from functools import lru_cache

from dedup_gui.core.site_paths import is_index_name

ELLIPSIS = "…/"
#: A cluster member's label when its path is the document's path itself (no folder before it).
TOP_FOLDER = "(top folder)"


def shared_folders(paths: Sequence[str]) -> str:
    """The leading folders that every one of ``paths`` shares, with their trailing ``/`` (str;
    ``""`` when they share none, or for fewer than two paths).  Folders only: a file name is
    never part of it, so each path keeps at least its file name after it.

    Example:
        >>> shared_folders(["docs/v1.10/en/index.html", "docs/v1.11/en/index.html"])
        'docs/'
        >>> shared_folders(["d/a.html", "d/e/b.html"])
        'd/'
    """
    if len(paths) < 2:
        return ""
    common = 0
    for level in zip(*(p.split("/")[:-1] for p in paths), strict=False):
        if any(name != level[0] for name in level):
            break
        common += 1
    return "".join(name + "/" for name in paths[0].split("/")[:common])


def distinguishing_paths(paths: Sequence[str]) -> list[str]:
    """The paths without the leading folders they all share, marked with ``…/`` (list[str], in
    order); unchanged when they share none, or for fewer than two paths.

    Example:
        >>> distinguishing_paths(["news.16x.com/2020/a/index.html", "news.16x.com/2020/b/related/index.html"])
        ['…/a/index.html', '…/b/related/index.html']
        >>> distinguishing_paths(["a.html", "print/a.html"])
        ['a.html', 'print/a.html']
    """
    shared = len(shared_folders(paths))
    if not shared:
        return list(paths)
    return [ELLIPSIS + p[shared:] for p in paths]


@lru_cache(maxsize=4096)
def cluster_labels(paths: tuple[str, ...]) -> tuple[str, ...]:
    """:func:`distinguishing_paths` of one cluster's paths, remembered (a tree view asks for
    each row's label on every repaint) (tuple[str, ...])."""
    return tuple(distinguishing_paths(paths))


#: The fewest characters (before the extension) :func:`distinct_starts` keeps of a file name.
MIN_DISTINCT = 6


def distinct_starts(names: Sequence[str]) -> list[int]:
    """Where the part of each file name that tells it apart from the others begins: after the
    longest start it shares with any other of ``names``, moved back to the start of its word
    (letters and digits), so that a narrow column keeps that part and drops the shared start
    (``"…other__1.html"``, not ``"o__gne__te…er__1.html"``, among ``o__gne__tests__*.html``);
    words before it are kept too until it has :data:`MIN_DISTINCT` characters before its
    extension (``"webmd-1.html"`` beside ``webmd-2.html``: ``"1.html"`` alone says little).

    Args:
        names: file names (no folders), repeats allowed.

    Returns:
        One index into each name, in order (list[int]); 0 when the name differs from its
        first letter on, or has no other name to differ from.  Costs a sort of the names.

    Example:
        >>> distinct_starts(["o__gne__tests__other__1.html", "o__gne__tests__sina__1.html", "g0001_full.html"])
        [15, 15, 0]
        >>> distinct_starts(["o__readability__webmd-1.html", "o__readability__webmd-2.html"])
        [16, 16]
    """
    unique = sorted(set(names))
    starts: dict[str, int] = {}
    for i, name in enumerate(unique):
        shared = max(_common_start(name, unique[i - 1]) if i else 0,
                     _common_start(name, unique[i + 1]) if i + 1 < len(unique) else 0)  # fmt: skip
        start = _word_start(name, min(shared, max(len(name) - 1, 0)))  # the whole word that differs
        # a short one with the word before it ("webmd-1.html", not "1.html": alone it says little)
        while start > 0 and len(name[start:].rpartition(".")[0] or name[start:]) < MIN_DISTINCT:
            before = start
            while start > 0 and not name[start - 1].isalnum():  # the separators before it
                start -= 1
            start = _word_start(name, start)
            if start >= before:
                break
        starts[name] = start
    return [starts[name] for name in names]


def _word_start(name: str, at: int) -> int:
    while at > 0 and name[at - 1].isalnum():
        at -= 1
    return at


def _common_start(a: str, b: str) -> int:
    # os.path.commonprefix compares character by character, as here
    return len(os.path.commonprefix([a, b]))


def shared_tail_length(parts: Sequence[Sequence[str]]) -> int:
    """How many trailing path parts (file name first) all the split paths ``parts`` share (int)."""
    common = 0
    for level in zip(*(reversed(p) for p in parts), strict=False):
        if any(name != level[0] for name in level):
            break
        common += 1
    return common


def shared_document(paths: Sequence[str]) -> str:
    """The trailing part that every one of ``paths`` shares, in whole path parts, file name
    included: the document a cluster of copies is about (``"advance/x/index.html"`` for
    ``"v1.10.x/advance/x/index.html"`` and ``"v1.11.x/zh/advance/x/index.html"``) (str; ``""``
    for fewer than two paths, for paths whose file names differ, and when only an index page's
    name is shared: "index.html" names no document).

    Example:
        >>> shared_document(["v1.10/zh/a/b/index.html", "v1.16/a/b/index.html"])
        'a/b/index.html'
        >>> shared_document(["news/a/index.html", "news/b/index.html"])
        ''
    """
    if len(paths) < 2:
        return ""
    parts = [p.split("/") for p in paths]
    common = shared_tail_length(parts)
    if common == 0 or (common == 1 and is_index_name(parts[0][-1])):
        return ""
    return "/".join(parts[0][-common:])


def document_label(path: str) -> str:
    """A document's path as its address reads: an index page by its folder (``"a/b/"`` for
    ``"a/b/index.html"``), any other path unchanged (str)."""
    folder, sep, name = path.rpartition("/")
    return folder + sep if sep and is_index_name(name) else path


@lru_cache(maxsize=4096)
def member_labels(paths: tuple[str, ...]) -> tuple[str, ...]:
    """What tells one cluster's pages apart, remembered (a tree view asks for each row's label on
    every repaint): with a :func:`shared_document`, each path without it (``"v1.10.x/zh/"``,
    ``"v1.16.x/"``; :data:`TOP_FOLDER` for the path that is the document itself), and without
    the leading folders those parts all share (marked ``…/``); else :func:`cluster_labels`
    (tuple[str, ...], in order).

    A keep cluster's pages are mostly one document in several version and language folders:
    their paths differ only there, and a narrow column elided both that part and the document's
    name ("v1.10.x/…/acce…bpf/" and "v1.11.x/zh/…/ac…f/" read alike).

    Example:
        >>> member_labels(("v1.16.x/a/x/index.html", "v1.10.x/zh/a/x/index.html", "a/x/index.html"))
        ('v1.16.x/', 'v1.10.x/zh/', '(top folder)')
    """
    document = shared_document(paths)
    if not document:
        return cluster_labels(paths)
    heads = [p[: len(p) - len(document)] for p in paths]
    if all(heads):
        shared = len(shared_folders([h + "x" for h in heads]))
        if shared and all(len(h) > shared for h in heads):
            return tuple(ELLIPSIS + h[shared:] for h in heads)
    return tuple(h or TOP_FOLDER for h in heads)


#: What comes before the path in a cell that ends with one: a similarity ("0.953 "), "duplicate
#: of ", or an address's scheme and host ("https://example.org/").
_PATH_TAIL = re.compile(r"(\d+\.\d+ |duplicate of |[A-Za-z][A-Za-z0-9+.-]*://[^/\s]*/)(\S*/\S*|\S+\.\w+)")


def split_path_tail(text: str) -> tuple[str, str] | None:
    """A cell's text that ends with a path, split into what comes before it and the path:
    ``("0.953 ", "v1.10/a/index.html")`` for ``"0.953 v1.10/a/index.html"``, ``("duplicate of ",
    "v1.16/a/index.html")``, ``("https://example.org/", "docs/v1.12/a/")`` for an address;
    ``None`` for other text (``"kept"``, ``"kept (no full or content duplicate)"``).

    A narrow column drew "1.00…html" and "dupl…html": the path is to be shortened by the path
    rule (its first folder and document name), the prefix kept whole.

    Example:
        >>> split_path_tail("duplicate of v1.16.x/a/index.html")
        ('duplicate of ', 'v1.16.x/a/index.html')
        >>> split_path_tail("kept") is None
        True
    """
    match = _PATH_TAIL.fullmatch(text)
    return None if match is None else (match.group(1), match.group(2))


@lru_cache(maxsize=4096)
def compact_member_labels(labels: tuple[str, ...]) -> tuple[str, ...]:
    """Shorter forms of one cluster's :func:`member_labels` that still tell them apart, for a
    column too narrow for the labels (tuple[str, ...], in order; a label that has no shorter
    form, or whose shorter form would read like another member, stays whole).

    Each label's folders are kept from the first one where it differs from another member, and
    in each folder kept where it differs from another member's, the letters that all of those
    share up to a word's start give way to ``…`` (``"…10.x/zh/"`` beside ``"v1.11.x/zh/"`` and
    ``"v1.10.x/"``).  Cut by the path rule, ``"v1.10.x/zh/"`` and ``"v1.11.x/zh/"`` both read
    "v1.…/zh/" in the 1024x640 window's clusters panel.

    Example:
        >>> compact_member_labels(("v1.16.x/", "v1.10.x/", "v1.10.x/zh/", "v1.11.x/zh/"))
        ('…16.x/', '…10.x/', '…10.x/zh/', '…11.x/zh/')
    """
    parts = [label.rstrip("/").split("/") for label in labels]
    compact = []
    for i, segments in enumerate(parts):
        others = [p for j, p in enumerate(parts) if j != i]
        first_diff = [_first_difference(segments, p) for p in others]
        needed = [d for d in first_diff if d < len(segments)]
        if not needed or not labels[i].endswith("/"):
            compact.append(labels[i])
            continue
        start = min(needed)
        shown = []
        for k in range(start, len(segments)):
            rivals = [p[k] if k < len(p) else "" for p, d in zip(others, first_diff, strict=True) if d == k]
            shown.append(_distinct_tail(segments[k], rivals) if rivals else segments[k])
        compact.append(("…/" if start and not shown[0].startswith("…") else "") + "/".join(shown) + "/")
    for i, short in enumerate(compact):  # never read like another member
        if short != labels[i] and (compact.count(short) > 1 or short in labels):
            compact[i] = labels[i]
    return tuple(compact)


def _first_difference(a: list[str], b: list[str]) -> int:
    """The index of the first folder where two labels' folders differ (the shorter one's length
    when it is the other's start)."""
    for k, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return k
    return min(len(a), len(b))


def _distinct_tail(segment: str, rivals: list[str]) -> str:
    """``segment`` from the word start at or before its first letter that differs from any of
    ``rivals``, after ``…`` (``"…10.x"`` for ``"v1.10.x"`` beside ``"v1.11.x"``); whole when that
    is its start."""
    shared = max(len(os.path.commonprefix([segment, r])) for r in rivals)
    start = shared
    while start > 0 and segment[start - 1].isalnum():
        start -= 1
    return "…" + segment[start:] if start > 0 else segment
