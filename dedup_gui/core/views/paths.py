"""Paths shown side by side so that they tell their pages apart: the folders every one of them
shares are dropped (the full path stays in the tooltip), so a narrow column elides what differs
less often ("news.16…ex.html" three times in one cluster)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

ELLIPSIS = "…/"


def distinguishing_paths(paths: Sequence[str]) -> list[str]:
    """The paths without the leading folders they all share, marked with ``…/`` (list[str], in
    order); unchanged when they share none, or for fewer than two paths.

    Example:
        >>> distinguishing_paths(["news.16x.com/2020/a/index.html", "news.16x.com/2020/b/related/index.html"])
        ['…/a/index.html', '…/b/related/index.html']
        >>> distinguishing_paths(["a.html", "print/a.html"])
        ['a.html', 'print/a.html']
    """
    if len(paths) < 2:
        return list(paths)
    folders = [p.split("/")[:-1] for p in paths]
    common = 0
    for level in zip(*folders, strict=False):
        if any(name != level[0] for name in level):
            break
        common += 1
    if not common:
        return list(paths)
    return [ELLIPSIS + "/".join(p.split("/")[common:]) for p in paths]


@lru_cache(maxsize=4096)
def cluster_labels(paths: tuple[str, ...]) -> tuple[str, ...]:
    """:func:`distinguishing_paths` of one cluster's paths, remembered (a tree view asks for
    each row's label on every repaint) (tuple[str, ...])."""
    return tuple(distinguishing_paths(paths))
