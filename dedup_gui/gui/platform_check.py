"""Before Qt opens a window: a display to open it on, and on X11 the system libraries its xcb
platform plugin needs.

Without a display (Linux: no ``DISPLAY``, no ``WAYLAND_DISPLAY``, no ``QT_QPA_PLATFORM``) Qt
tries X11 anyway and aborts with a message about ``xcb-cursor0``, which sends the user looking
for a library that is not missing: :func:`display_problem` says what is wrong instead.

When one is missing, Qt aborts with a message that names the plugin, not the library (it
blamed ``libxcb-cursor0`` when ``libxcb-icccm4`` was missing).  This module asks the dynamic
linker (``ldd``) which of the plugin's libraries cannot be found, without loading Qt, so the
window can say what to install instead.  No Qt import here: it runs before Qt loads.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping
from importlib.util import find_spec
from pathlib import Path

#: The library of Qt's xcb platform plugin, inside PySide6's ``Qt/lib``.
XCB_LIBRARY = "libQt6XcbQpa.so.6"
_NOT_FOUND = re.compile(r"^\s*(\S+)\s*=>\s*not found", re.MULTILINE)


def debian_package(soname: str) -> str:
    """The Debian/Ubuntu package that ships a shared library, by Debian's naming policy.

    Example:
        >>> [debian_package(s) for s in ("libxcb-icccm.so.4", "libxkbcommon-x11.so.0", "libX11-xcb.so.1")]
        ['libxcb-icccm4', 'libxkbcommon-x11-0', 'libx11-xcb1']
    """
    name, _, version = soname.partition(".so.")
    name = name.lower()
    major = version.split(".")[0]
    return f"{name}-{major}" if name[-1:].isdigit() else f"{name}{major}"


def missing_libraries(ldd_output: str) -> list[str]:
    """The libraries ``ldd`` reports as "not found", in its order (list[str])."""
    return _NOT_FOUND.findall(ldd_output)


def display_problem(environ: Mapping[str, str] | None = None, platform: str | None = None) -> str | None:
    """What to tell a user who starts the window where there is no display, or ``None``.

    Args:
        environ: the environment to look at (default ``os.environ``).
        platform: ``sys.platform`` (default: this one); only Linux and the other Unixes that
            use X11 or Wayland are checked, Windows and macOS always have a display.

    Returns:
        the message (str, several lines, no ``error:`` prefix), or ``None`` when a display
        (``DISPLAY`` or ``WAYLAND_DISPLAY``) is set or ``QT_QPA_PLATFORM`` names a platform.
    """
    env = os.environ if environ is None else environ
    system = sys.platform if platform is None else platform
    if system.startswith(("win", "darwin", "cygwin")):
        return None
    if any(env.get(name) for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")):
        return None
    return (
        "no display found (neither DISPLAY nor WAYLAND_DISPLAY is set), so the window cannot open.\n"
        "  Run it in a desktop session, or on a virtual display:  xvfb-run python app.py\n"
        "  A picture of the window without a display:  python app.py --screenshot window.png\n"
        "    (it draws off screen, as QT_QPA_PLATFORM=offscreen does)\n"
        "  No window at all, a report:  python app.py scan FOLDER -o report.html"
    )


def uses_xcb(environ: dict[str, str] | None = None) -> bool:
    """Whether Qt will open its windows through X11 (xcb) here: Linux, a ``DISPLAY``, and no
    other platform asked for with ``QT_QPA_PLATFORM``."""
    env = os.environ if environ is None else environ
    platform = env.get("QT_QPA_PLATFORM", "").split(":")[0]
    return sys.platform.startswith("linux") and bool(env.get("DISPLAY")) and platform in ("", "xcb")


def missing_xcb_libraries() -> list[str]:
    """The libraries Qt's xcb plugin needs that the system lacks ([] when none, or when this
    cannot be told: no ``ldd``, no PySide6)."""
    spec = find_spec("PySide6")
    ldd = shutil.which("ldd")
    if spec is None or not spec.submodule_search_locations or ldd is None:
        return []
    library = Path(list(spec.submodule_search_locations)[0]) / "Qt" / "lib" / XCB_LIBRARY
    if not library.is_file():
        return []
    try:
        done = subprocess.run([ldd, str(library)], capture_output=True, text=True, timeout=20, check=False)
    except (OSError, subprocess.SubprocessError):
        return []
    return missing_libraries(done.stdout)


def xcb_problem() -> str | None:
    """What to tell a user whose X11 session lacks libraries the window needs, or ``None``."""
    if not uses_xcb():
        return None
    missing = missing_xcb_libraries()
    if not missing:
        return None
    packages = " ".join(dict.fromkeys(debian_package(s) for s in missing))
    return (
        f"the window needs system libraries that are missing: {', '.join(missing)}.\n"
        f"On Debian or Ubuntu: sudo apt-get install {packages}\n"
        "(or run without a window: QT_QPA_PLATFORM=offscreen, or a headless scan: python app.py scan FOLDER -o OUT)"
    )
