"""Long C-level operations cut into short ones, so that other threads get the GIL meanwhile.

A single call into C (``sorted``, a regular expression over a whole text) holds the GIL until it
returns; the window's GUI thread, which needs the GIL for every Python slot, cannot run for that
long.  The functions here give the same results as the one call, in pieces of a few
milliseconds each with Python code between them (the interpreter switches threads there).
"""

from __future__ import annotations

import heapq
import itertools
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

#: Sorts of more items than this run in slices merged in Python (:func:`sorted_in_slices`).
SORT_SLICE = 20_000
#: Characters per regular-expression call in :func:`sub_in_slices` (a few ms each).
SUB_SLICE = 200_000


def sorted_in_slices(items: list, key: Callable[[Any], Any] | None = None, slice_size: int = SORT_SLICE) -> list:
    """``sorted(items, key=key)`` (the same order, stable), made of short C-level sorts.

    ``sorted`` holds the GIL for the whole sort (a few tenths of a second for 200,000 tuples),
    which freezes the window's GUI thread when the scan runs in its process.  Here slices of
    ``slice_size`` items are sorted one at a time and merged with ``heapq.merge``, which runs
    Python code between items, so other threads get the GIL every few milliseconds.

    Args:
        items: the items (list; not changed).
        key: the sort key, a function of one item; ``None`` sorts the items themselves.
        slice_size: items per C-level sort (int > 0).

    Returns:
        a new sorted list.
    """
    if len(items) <= slice_size:
        return sorted(items, key=key)
    keys = items if key is None else [key(item) for item in items]
    runs = [sorted(range(start, min(start + slice_size, len(items))), key=keys.__getitem__)
            for start in range(0, len(items), slice_size)]  # fmt: skip
    order = heapq.merge(*runs, key=keys.__getitem__)  # ties: the earlier run first (stable)
    return [items[i] for i in order]


def set_in_slices(items: list, slice_size: int = SORT_SLICE) -> set:
    """``set(items)``, filled ``slice_size`` items per C call (a set of 1.2 million ints built
    in one call held the GIL for 0.11 s).

    Args:
        items: hashable items (list).
        slice_size: items added per call (int > 0).

    Returns:
        the set of the items (set).
    """
    out: set = set()
    for start in range(0, len(items), slice_size):
        out.update(items[start : start + slice_size])
    return out


def unique_in_slices(items: Iterable, slice_size: int = SORT_SLICE) -> list:
    """``list(dict.fromkeys(items))`` (the distinct items in order of first appearance), made
    ``slice_size`` items per C call: one call over the 600,000 shingles of a long page held the
    GIL for about 0.1 s.

    Args:
        items: hashable items (any iterable; a generator is consumed).
        slice_size: items added per call (int > 0).

    Returns:
        the distinct items, first appearance first (list).
    """
    seen: dict = {}
    source = iter(items)
    while chunk := list(itertools.islice(source, slice_size)):
        seen.update(dict.fromkeys(chunk))
    return list(seen)


def sub_in_slices(pattern: re.Pattern, repl: str, text: str, slice_size: int = SUB_SLICE) -> str:
    """``pattern.sub(repl, text)`` for a pattern whose matches are runs of whitespace, one slice
    of about ``slice_size`` characters at a time.

    Slices end after a character that is not whitespace, so no match spans two of them (a
    5.9-million-character text took one 0.2 s call).

    Args:
        pattern: a compiled pattern matching whitespace only (e.g. ``\\s+``).
        repl: the replacement.
        text: the text.
        slice_size: characters per call (int > 0).

    Returns:
        the text with the matches replaced (str), as ``pattern.sub(repl, text)``.
    """
    if len(text) <= slice_size:
        return pattern.sub(repl, text)
    parts, start = [], 0
    while start < len(text):
        found = _NOT_SPACE.search(text, start + slice_size - 1)
        end = found.end() if found else len(text)
        parts.append(pattern.sub(repl, text[start:end]))
        start = end
    return "".join(parts)


def finditer_in_slices(pattern: re.Pattern, text: str, slice_size: int = SUB_SLICE) -> Iterator[re.Match]:
    """``pattern.finditer(text)`` for a pattern whose matches contain no whitespace and whose
    lookaheads take whitespace as they take the end of the text, searched one slice of about
    ``slice_size`` characters at a time.

    Slices end before a whitespace character.  One ``finditer`` step searches on to the next
    match: through a whole 5.9-million-character text with no match, 0.12 s in one call.

    Args:
        pattern: the compiled pattern.
        text: the text.
        slice_size: characters per search at least (more until the next whitespace).

    Yields:
        the matches, in text order (re.Match), as ``pattern.finditer(text)``.
    """
    start = 0
    while start < len(text):
        space = _SPACE.search(text, start + slice_size)
        end = space.start() if space else len(text)
        yield from pattern.finditer(text, start, end)
        start = end


_NOT_SPACE = re.compile(r"\S")
_SPACE = re.compile(r"\s")
