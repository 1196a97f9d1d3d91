"""What the window remembers between sessions (``QSettings``): recent folders, thresholds, the
window's geometry and layout, splitter sizes and a few view options.

The settings live under organization ``dedup-gui``, application ``dedup-gui`` (on Linux
``~/.config/dedup-gui/dedup-gui.conf``).  Set the environment variable ``DEDUP_GUI_SETTINGS`` to
an INI file to use that file instead (tests, portable installs).  The rules (how the recent list
grows, how stored thresholds are validated) are in :mod:`dedup_gui.core.views.preferences`.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings

from dedup_gui.core.model import Thresholds
from dedup_gui.core.views.decisions import default_decisions_dir
from dedup_gui.core.views.preferences import (
    MAX_RECENT,
    THRESHOLD_FIELDS,
    remember_recent,
    thresholds_from_values,
    thresholds_to_values,
)

ORGANIZATION = "dedup-gui"
APPLICATION = "dedup-gui"
#: Environment variable naming an INI file to keep the settings in instead of the usual place.
SETTINGS_ENV = "DEDUP_GUI_SETTINGS"


def open_settings() -> QSettings:
    """The application's ``QSettings`` (``$DEDUP_GUI_SETTINGS`` if set, else the user's)."""
    path = os.environ.get(SETTINGS_ENV)
    if path:
        return QSettings(path, QSettings.Format.IniFormat)
    return QSettings(ORGANIZATION, APPLICATION)


class AppSettings:
    """Typed access to the remembered values.

    Args:
        settings: the ``QSettings`` to use; ``None`` opens :func:`open_settings`.
        enabled: ``False`` makes every read return the default and every write do nothing
            (the ``--screenshot`` mode, so documentation images do not depend on a user's
            settings and do not change them).
    """

    def __init__(self, settings: QSettings | None = None, enabled: bool = True) -> None:
        self.enabled = enabled
        self._qs = (settings or open_settings()) if enabled else None

    # --- recent folders ----------------------------------------------------------------------

    def recent_folders(self) -> list[str]:
        """Recently opened folders, most recent first (list[str])."""
        if self._qs is None:
            return []
        value = self._qs.value("recent/folders", [])
        if isinstance(value, str):  # QSettings returns a lone string for a one-item list
            value = [value]
        return [str(v) for v in (value or []) if v][:MAX_RECENT]

    def add_recent_folder(self, folder: str) -> list[str]:
        """Put ``folder`` first in the recent folders; return the new list (list[str])."""
        recent = remember_recent(self.recent_folders(), folder)
        self.set_recent_folders(recent)
        return recent

    def set_recent_folders(self, folders: list[str]) -> None:
        """Replace the recent folders list."""
        if self._qs is not None:
            self._qs.setValue("recent/folders", list(folders))

    # --- thresholds --------------------------------------------------------------------------

    def thresholds(self, default: Thresholds | None = None) -> Thresholds:
        """The remembered thresholds; missing or invalid values come from ``default``."""
        default = default or Thresholds()
        if self._qs is None:
            return default
        values = {name: self._qs.value(f"thresholds/{name}") for name in THRESHOLD_FIELDS}
        return thresholds_from_values({k: v for k, v in values.items() if v is not None}, default)

    def set_thresholds(self, thresholds: Thresholds) -> None:
        """Remember ``thresholds``."""
        if self._qs is None:
            return
        for name, value in thresholds_to_values(thresholds).items():
            self._qs.setValue(f"thresholds/{name}", value)

    # --- window layout and view options --------------------------------------------------------

    def byte_array(self, key: str) -> QByteArray | None:
        """A stored ``QByteArray`` (window geometry or state), or ``None``."""
        if self._qs is None:
            return None
        value = self._qs.value(key)
        return value if isinstance(value, QByteArray) and not value.isEmpty() else None

    def set_byte_array(self, key: str, value: QByteArray) -> None:
        """Store a ``QByteArray`` under ``key``."""
        if self._qs is not None:
            self._qs.setValue(key, value)

    def flag(self, key: str, default: bool = False) -> bool:
        """A stored yes/no option (bool)."""
        if self._qs is None:
            return default
        value = self._qs.value(key, default)
        if isinstance(value, str):
            return value.lower() in ("true", "1", "yes")
        return bool(value)

    def set_flag(self, key: str, value: bool) -> None:
        """Store a yes/no option."""
        if self._qs is not None:
            self._qs.setValue(key, bool(value))

    def text(self, key: str, default: str = "") -> str:
        """A stored text option (str)."""
        if self._qs is None:
            return default
        value = self._qs.value(key, default)
        return value if isinstance(value, str) else default

    def set_text(self, key: str, value: str) -> None:
        """Store a text option."""
        if self._qs is not None:
            self._qs.setValue(key, value)

    # --- per-folder decisions --------------------------------------------------------------------

    def decisions_dir(self) -> Path | None:
        """Where the keep choices of each scanned folder are stored, beside the settings:
        ``folders/`` next to ``$DEDUP_GUI_SETTINGS`` when it is set, else
        :func:`~dedup_gui.core.views.decisions.default_decisions_dir` (the user's configuration
        folder); ``None`` when the settings are disabled (nothing is read or written).  Never the
        scanned folder."""
        if self._qs is None:
            return None
        path = os.environ.get(SETTINGS_ENV)
        return Path(path).parent / "folders" if path else default_decisions_dir()

    def sync(self) -> None:
        """Write pending changes to disk."""
        if self._qs is not None:
            self._qs.sync()


def restore_window_layout(window, settings: AppSettings) -> None:
    """Give a :class:`~dedup_gui.gui.main_window.MainWindow` its remembered geometry, dock and
    toolbar layout, splitter sizes and view options (nothing happens for what was never saved)."""
    geometry, state, splitter = (settings.byte_array(k) for k in ("window/geometry", "window/state", "window/splitter"))
    if geometry is not None:
        window.restoreGeometry(geometry)
    if state is not None:
        window.restoreState(state)
    if splitter is not None:
        window.splitter.restoreState(splitter)
    window.pairs_panel.set_duplicates_only(settings.flag("view/duplicates_only", False))
    window.histogram_view.log_check.setChecked(settings.flag("view/histogram_log", False))
    mode = settings.text("view/clusters_mode", "keep")
    if mode in (key for key, _label in window.clusters_view.MODES):
        window.clusters_view.set_mode(mode)
    for panel in (window.pairs_panel, window.pages_panel, window.errors_panel):
        table = panel.model.table
        stored = settings.text(f"view/hidden_columns/{table.EMPTY_VIEW}", _columns_text(table.HIDDEN))
        panel.set_hidden_columns(int(c) for c in stored.split(",") if c.strip().isdigit())


def save_window_layout(window, settings: AppSettings) -> None:
    """Remember a main window's geometry, layout, splitter sizes, view options (the pairs'
    duplicates-only filter, the histogram's log scale, the clusters panel's mode, the tables'
    hidden columns) and thresholds."""
    settings.set_byte_array("window/geometry", window.saveGeometry())
    settings.set_byte_array("window/state", window.saveState())
    settings.set_byte_array("window/splitter", window.splitter.saveState())
    settings.set_flag("view/duplicates_only", window.pairs_panel.duplicates_only())
    settings.set_flag("view/histogram_log", window.histogram_view.log_check.isChecked())
    settings.set_text("view/clusters_mode", window.clusters_view.mode())
    for panel in (window.pairs_panel, window.pages_panel, window.errors_panel):
        table = panel.model.table
        settings.set_text(f"view/hidden_columns/{table.EMPTY_VIEW}", _columns_text(table.chosen_hidden_columns()))
    settings.set_thresholds(window.thresholds())
    settings.sync()


def _columns_text(columns) -> str:
    """Column numbers as a settings value: ``"4,5"`` (str; ``""`` for none)."""
    return ",".join(str(c) for c in sorted(columns))
