"""How a measured similarity is written for people: cut, not rounded, to its shown decimals, so
that a value below a threshold never reads as reaching it ("0.925 < 0.925" was shown for
0.92497 against 0.925)."""

from __future__ import annotations

import math

#: Float noise allowed when cutting (``0.7`` stored as ``0.69999999999`` is still ``0.700``).
_NOISE = 1e-9


def format_score(value: float, decimals: int = 3) -> str:
    """A similarity in [0, 1] with ``decimals`` decimals, cut towards zero (str).

    Thresholds are set with at most as many decimals, so a value written this way compares
    with a threshold as the value itself does: a value under ``0.925`` reads at most ``0.924``.

    Example:
        >>> format_score(0.92497), format_score(0.875), format_score(0.7 - 1e-12), format_score(1.0)
        ('0.924', '0.875', '0.700', '1.000')
    """
    scale = 10**decimals
    return f"{math.floor(value * scale + _NOISE) / scale:.{decimals}f}"


def format_fraction_value(value: float, decimals: int = 3) -> str:
    """The decimal written after an exact fraction ("198/410 = 0.482…"): :func:`format_score`'s
    cut value, so it is the number every other view shows for the same similarity, with "…"
    where digits were cut, so that "=" stays true (198/410 is 0.48292…, not 0.482) (str).

    Example:
        >>> format_fraction_value(198 / 410), format_fraction_value(1 / 2), format_fraction_value(2 / 7)
        ('0.482…', '0.500', '0.285…')
    """
    shown = format_score(value, decimals)
    return shown if abs(value - float(shown)) <= _NOISE else shown + "…"
