"""A guard against a reference-counting bug of PySide6 6.12.0 on CPython 3.11.

With PySide6 6.12.0 and CPython < 3.12, a Python override that returns ``None`` to C++ (e.g. a
model's ``data()`` for a role it does not provide) and some ``void`` methods called from Python
(``invalidate()``) drop a reference to ``None`` that they never took.  After some ten thousand
such calls (seconds of scrolling a table) ``None``'s count reaches zero and the interpreter
aborts with "Fatal Python error: none_dealloc" (the same happened once with ``True``/``False``,
"bool_dealloc", while a table filtered 100,000 rows).  PySide6 6.11.3 does not have the bug, and
on CPython 3.12+ these singletons are immortal (PEP 683), so extra decrements are harmless.

:func:`guard_none_refcount` detects the bug with a small probe and, only if it is present, gives
``None``, ``True`` and ``False`` a very large reference count, as CPython 3.12 does.  Pinning
``PySide6-Essentials != 6.12.0`` (or running on CPython 3.12+) makes this a no-op.
"""

from __future__ import annotations

import ctypes
import sys

_BALLAST = 1 << 40  # references: more than a program can drop in its lifetime
_PROBE_CALLS = 200


def pyside_drops_none_references() -> bool:
    """Whether C++ calls of a Python ``data()`` override returning ``None`` lose references
    to ``None`` (bool); runs a 200-call probe on a throwaway model."""
    from PySide6.QtCore import QAbstractTableModel, QModelIndex, QSortFilterProxyModel

    class _Probe(QAbstractTableModel):
        """A 1x1 model whose ``data()`` returns ``None``."""

        def rowCount(self, parent=QModelIndex()) -> int:  # noqa: B008, N802
            """One row."""
            return 1

        def columnCount(self, parent=QModelIndex()) -> int:  # noqa: B008, N802
            """One column."""
            return 1

        def data(self, index, role=0):
            """No data: ``None``."""
            return None

    model = _Probe()
    proxy = QSortFilterProxyModel()
    proxy.setSourceModel(model)
    index = proxy.index(0, 0)
    before = sys.getrefcount(None)
    for _ in range(_PROBE_CALLS):
        proxy.data(index, 0)  # C++ proxy -> Python override
    return before - sys.getrefcount(None) >= _PROBE_CALLS // 2


def guard_none_refcount() -> bool:
    """Protect ``None``, ``True`` and ``False`` from the PySide6 bug if it is present here.

    Returns:
        ``True`` if the guard was applied, ``False`` if it was not needed (CPython 3.12+, a
        PySide6 without the bug) or not possible (not a standard CPython build).
    """
    standard_cpython = sys.implementation.name == "cpython" and not hasattr(sys, "gettotalrefcount")
    if sys.version_info >= (3, 12) or not standard_cpython:
        return False
    if not pyside_drops_none_references():
        return False
    # ob_refcnt is the first field of every object in a standard (non-debug) CPython build
    for singleton in (None, True, False):
        ctypes.c_ssize_t.from_address(id(singleton)).value += _BALLAST
    return True
