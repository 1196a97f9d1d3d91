"""What the window remembers between sessions, as plain values: recent folders and thresholds.

The GUI stores these values (``QSettings``); the rules live here: how the recent-folders list
grows, and how stored threshold values are read back, where a missing, mistyped or out-of-range
value falls back to its default rather than breaking the window.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import fields

from dedup_gui.core.model import Thresholds

#: Folders kept in File > Open Recent.
MAX_RECENT = 10

#: The thresholds a user tunes (``same_min_jaccard`` is not offered in the GUI).
THRESHOLD_FIELDS: tuple[str, ...] = ("content_same", "content_partial", "layout_same", "hamming_k")


def remember_recent(recent: Sequence[str], folder: str, limit: int = MAX_RECENT) -> list[str]:
    """Put ``folder`` first in a recent-folders list.

    Args:
        recent: the list so far, most recent first.
        folder: the folder just opened (absolute path).
        limit: the longest list kept.

    Returns:
        The new list (list[str]): ``folder`` first, without an older copy of it, at most
        ``limit`` entries.

    Example:
        >>> remember_recent(["/b", "/a"], "/a")
        ['/a', '/b']
    """
    return [folder, *(f for f in recent if f != folder)][: max(0, limit)]


def thresholds_to_values(thresholds: Thresholds) -> dict[str, float | int]:
    """The tunable thresholds as a plain mapping (``{"content_same": 0.925, ...}``)."""
    return {name: getattr(thresholds, name) for name in THRESHOLD_FIELDS}


def _number(value: object, integer: bool) -> float | int | None:
    if isinstance(value, bool):
        return None
    try:
        number = float(value)  # type: ignore[arg-type]  # QSettings' INI files hand back strings; others raise
    except (TypeError, ValueError):
        return None
    if not math.isfinite(number):
        return None
    if integer:
        return int(number) if number == int(number) else None
    return number


def thresholds_from_values(values: Mapping[str, object], default: Thresholds | None = None) -> Thresholds:
    """Read thresholds back from stored values.

    Args:
        values: stored values by field name (numbers, or strings of numbers); missing keys
            are allowed.
        default: where missing or bad values come from (defaults to :class:`Thresholds`\\ ()).

    Returns:
        A valid :class:`Thresholds`: each value that is missing, not a number, or out of its
        range (``[0, 1]``, or 0..64 bits for ``hamming_k``) is taken from ``default``.

    Example:
        >>> thresholds_from_values({"content_partial": "0.6", "hamming_k": "99"}).content_partial
        0.6
    """
    default = default or Thresholds()
    chosen = {f.name: getattr(default, f.name) for f in fields(Thresholds)}
    for name in THRESHOLD_FIELDS:
        if name not in values:
            continue
        number = _number(values[name], integer=name == "hamming_k")
        if number is None:
            continue
        valid = 0 <= number <= 64 if name == "hamming_k" else 0.0 <= number <= 1.0
        if valid:
            chosen[name] = number
    return Thresholds(**chosen)
