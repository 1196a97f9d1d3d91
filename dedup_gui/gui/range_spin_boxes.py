"""Spin boxes that clamp a typed value outside their range instead of dropping keystrokes.

Qt's spin boxes validate each keystroke: a text whose number lies outside the range is
``Invalid``, so the keystroke is refused and the text stays as it was.  Typing ``5000`` over
a selected ``0.925`` in a 0..1 box therefore keeps only the keystrokes that fit: ``5`` is
refused, then ``0``, ``00``, ``000`` are accepted, and Return sets 0.000 without a word
(``999`` in a 0..64 box gives 9).  These boxes call such a text ``Intermediate`` (typing may
go on), and :meth:`fixup`, which Qt calls on Return or when the focus leaves, clamps it to the
nearest end of the range and emits ``clamped`` so the window can say so.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import QAbstractSpinBox, QDoubleSpinBox, QSpinBox


def _typed_number(box: QAbstractSpinBox, text: str, integer: bool) -> float | None:
    """The number in a spin box's ``text`` without its prefix and suffix, read in the box's
    locale (float), or ``None`` if it is not a number."""
    prefix, suffix = box.prefix(), box.suffix()  # type: ignore[attr-defined]
    if prefix and text.startswith(prefix):
        text = text[len(prefix) :]
    if suffix and text.endswith(suffix):
        text = text[: -len(suffix)]
    text = text.strip()
    value, ok = box.locale().toLongLong(text) if integer else box.locale().toDouble(text)
    return float(value) if ok else None


def _out_of_range(box, text: str, integer: bool) -> float | None:
    """The typed number if it lies outside the box's range (float), else ``None``."""
    value = _typed_number(box, text, integer)
    if value is None or box.minimum() <= value <= box.maximum():
        return None
    return value


def _validate(box, base_result, text: str, pos: int, integer: bool):
    """``base_result`` (Qt's verdict), with ``Invalid`` turned into ``Intermediate`` for a
    number outside the range (so that :meth:`fixup` clamps it on Return)."""
    state = base_result[0] if isinstance(base_result, tuple) else base_result
    if state == QValidator.State.Invalid and _out_of_range(box, text, integer) is not None:
        return QValidator.State.Intermediate, text, pos
    return base_result


def _clamp_text(box, text: str, integer: bool) -> tuple[str, str, str] | None:
    """For a typed number outside the range: ``(typed, new text, "above"|"below")``; else ``None``."""
    value = _out_of_range(box, text, integer)
    if value is None:
        return None
    end = box.maximum() if value > box.maximum() else box.minimum()
    side = "above" if value > box.maximum() else "below"
    typed = text.removeprefix(box.prefix()).removesuffix(box.suffix()).strip()
    return typed, box.textFromValue(end), side


class _Clamping:
    """What both boxes do (a mixin before the Qt class): a typed number outside the range is
    ``Intermediate`` while typed, and the range's nearer end on Return or focus-out."""

    INTEGER = False

    def validate(self, text: str, pos: int):
        """Qt's verdict on ``text`` (``(state, text, pos)``), ``Intermediate`` instead of
        ``Invalid`` for a number outside the range."""
        return _validate(self, super().validate(text, pos), text, pos, integer=self.INTEGER)  # type: ignore[misc]

    def fixup(self, text: str) -> str:
        """The range's nearer end for a typed number outside the range (str; ``clamped`` is
        emitted), else Qt's own fix-up of ``text``."""
        clamp = _clamp_text(self, text, integer=self.INTEGER)
        if clamp is None:
            return super().fixup(text)  # type: ignore[misc]
        self.clamped.emit(*clamp)  # type: ignore[attr-defined]
        return clamp[1]


class RangeDoubleSpinBox(_Clamping, QDoubleSpinBox):
    """A :class:`QDoubleSpinBox` that clamps a typed number outside its range to the range's
    nearer end on Return or focus-out (Qt drops the keystrokes instead: module docstring).

    Args:
        parent: the Qt parent widget, or ``None``.

    Signals:
        clamped(str, str, str): the number typed (text without prefix and suffix), the text set
            (the range's end, e.g. ``"1.000"``) and ``"above"`` or ``"below"``.
    """

    clamped = Signal(str, str, str)


class RangeSpinBox(_Clamping, QSpinBox):
    """A :class:`QSpinBox` that clamps a typed number outside its range, like
    :class:`RangeDoubleSpinBox` (same ``clamped`` signal).

    Args:
        parent: the Qt parent widget, or ``None``.
    """

    INTEGER = True
    clamped = Signal(str, str, str)
