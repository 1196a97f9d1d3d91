"""Paths shown side by side so that they tell their pages apart: the folders every one of them
shares are dropped (the full path stays in the tooltip), so a narrow column elides what differs
less often ("news.16…ex.html" three times in one cluster)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

ELLIPSIS = "…/"


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
