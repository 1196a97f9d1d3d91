"""What a keep cluster holds, in a few words: the folders its copies of one document lie in
("v1.10.x–v1.13.x", "v1.10.x, v1.12.x (zh)"), so that two keep clusters of one document can
be told apart by their titles.

On the real site 84 of 197 documents had two or more keep clusters: "#3 foo/bar/" and "#17
foo/bar/" read alike.  The words come from the members' paths alone, the part before the path
parts they all share: no folder name is known in advance, so any mirror whose copies differ by
a path segment (a version, a language, a year) is summed up the same way.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from dedup_gui.core.views.paths import shared_folders, shared_tail_length

#: At most this many first folders are named one by one; more, and the first and last with
#: their count ("v1.1.x … v1.9.x (5 folders)").
MAX_LISTED = 3
_NUMBER = re.compile(r"(\d+)")


def member_heads(paths: Sequence[str]) -> list[str]:
    """Each path without the trailing path parts (file name included) that all of ``paths``
    share, with its ``/`` (``["v1.10.x/", "v1.10.x/zh/"]`` for ``"v1.10.x/a/index.html"`` and
    ``"v1.10.x/zh/a/index.html"``; ``[]`` for fewer than two paths or when their file names
    differ) (list[str], in order).
    """
    if len(paths) < 2:
        return []
    parts = [p.split("/") for p in paths]
    common = shared_tail_length(parts)
    if common == 0:
        return []
    return ["".join(f + "/" for f in p[: len(p) - common]) for p in parts]


def _natural_key(name: str) -> tuple:
    """Sort key that orders "v1.9.x" before "v1.10.x" (numbers by value)."""
    return tuple(int(t) if t.isdigit() else t for t in _NUMBER.split(name))


def folder_run(names: Sequence[str]) -> str:
    """Folder names (distinct) summed up: a consecutive run of names that differ in one number
    only as ``"first–last"`` (``"v1.10.x–v1.13.x"``), else up to :data:`MAX_LISTED` names in
    natural order joined by ``", "``, else the first and the last with their count (str;
    ``""`` for no names).

    Example:
        >>> folder_run(["v1.12.x", "v1.10.x", "v1.11.x"])
        'v1.10.x–v1.12.x'
        >>> folder_run(["v1.10.x", "v1.12.x"])
        'v1.10.x, v1.12.x'
        >>> folder_run(["2019", "2020", "2021"])
        '2019–2021'
    """
    ordered = sorted(set(names), key=_natural_key)
    if len(ordered) > 2:
        tokens = [_NUMBER.split(n) for n in ordered]
        shape = len(tokens[0])
        if all(len(t) == shape for t in tokens):
            varying = [i for i in range(shape) if len({t[i] for t in tokens}) > 1]
            if len(varying) == 1 and tokens[0][varying[0]].isdigit():
                numbers = [int(t[varying[0]]) for t in tokens]
                if numbers == list(range(numbers[0], numbers[0] + len(numbers))):
                    return f"{ordered[0]}–{ordered[-1]}"
    if len(ordered) <= MAX_LISTED:
        return ", ".join(ordered)
    return f"{ordered[0]} … {ordered[-1]} ({len(ordered)} folders)"


@lru_cache(maxsize=4096)
def cluster_span(paths: tuple[str, ...]) -> str:
    """What tells a cluster of copies of one document from another cluster of the same
    document: the first folders of its members' :func:`member_heads` after those they all share
    (:func:`folder_run`), and
    the folders below them (a language) in brackets: ``"(zh)"`` when every member has the same
    one (and the same depth: else it is part of the shared document), ``"(also zh)"`` when only
    some have it (str; ``""`` when the members share no trailing
    path part or their paths differ in no folder).  Remembered: a tree view asks for each
    title on every repaint.

    Args:
        paths: the cluster's page paths (a tuple: the cache's key).

    Example:
        >>> cluster_span(("v1.10.x/a/index.html", "v1.12.x/a/index.html"))
        'v1.10.x, v1.12.x'
        >>> cluster_span(("v1.10.x/zh/a/", "v1.11.x/zh/a/", "v1.12.x/zh/a/"))  # zh: the document's
        'v1.10.x–v1.12.x'
        >>> cluster_span(("v1.10.x/a.html", "v1.10.x/zh/a.html", "v1.11.x/a.html"))
        'v1.10.x, v1.11.x (also zh)'
    """
    heads = member_heads(paths)
    if not heads or len(set(heads)) < 2:
        return ""
    shared = len(shared_folders([h + "x" for h in heads]))  # "docs/" before "r9/" and "r10/"
    firsts, rests = [], set()
    for head in heads:
        first, _, rest = head[shared:].partition("/")
        firsts.append(first or "(top folder)")
        rests.add(rest.rstrip("/"))
    span = folder_run(firsts)
    below = sorted((r for r in rests if r), key=_natural_key)
    if below:
        span += f" ({'also ' if '' in rests else ''}{', '.join(below)})"
    return span
