"""Relation signs as the GUI writes them: "≥" and "≤", not the ASCII ">=" and "<=".

The CLI's tables and the core's rule texts stay ASCII on purpose (a console that cannot show
"≥" still prints them, see :func:`dedup_gui.core.evaluation.evaluate.settings_line`); the
windows show the same texts through :func:`display_relations`, so that the gallery's "≥" and
the Methods tab's ">=" no longer stand side by side.
"""

from __future__ import annotations

import re

_SIGNS = ((">=", "≥"), ("<=", "≤"))


def display_relations(text: str) -> str:
    """``text`` with ">=" written "≥" and "<=" written "≤" (str); "=>" (an arrow) is kept.

    Example:
        >>> display_relations("content same >= 0.925; k <= 3 => near")
        'content same ≥ 0.925; k ≤ 3 => near'
    """
    for ascii_sign, sign in _SIGNS:
        text = text.replace(ascii_sign, sign)
    return text


#: A relation between two spaces, e.g. " ≤ " in "k ≤ 3".
_SPACED = re.compile(r" ([≥≤<>=]) ")


def unbreakable_relations(text: str) -> str:
    """``text`` with the spaces around each "≥", "≤", "<", ">" or "=" made non-breaking
    (U+00A0), so that a wrapped line keeps "k ≤ 3" together rather than ending in "k ≤" (str).

    Example:
        >>> unbreakable_relations("layout same ≥ 0.700; k ≤ 3") == "layout same\\u00a0≥\\u00a00.700; k\\u00a0≤\\u00a03"
        True
    """
    return _SPACED.sub("\u00a0\\1\u00a0", text)
