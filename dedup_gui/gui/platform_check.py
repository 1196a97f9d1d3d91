"""Before Qt opens a window: a display to open it on, and on X11 the system libraries its xcb
platform plugin needs.

Without a display (Linux: no ``DISPLAY``, no ``WAYLAND_DISPLAY``, no ``QT_QPA_PLATFORM``), or
with a ``DISPLAY`` where no X server answers, Qt tries X11 anyway and aborts with a message about
``xcb-cursor0``, which sends the user looking for a library that is not missing:
:func:`display_problem` and :func:`unreachable_display_problem` say what is wrong instead.

When one is missing, Qt aborts with a message that names the plugin, not the library (it
blamed ``libxcb-cursor0`` when ``libxcb-icccm4`` was missing).  This module asks the dynamic
linker (``ldd``) which of the plugin's libraries cannot be found, without loading Qt, so the
window can say what to install instead.  No Qt import here: it runs before Qt loads.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
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


def _x_display_address(display: str) -> tuple[str, str | tuple[str, int]] | None:
    """Where the X server of ``display`` listens: ``("unix", socket path)`` for a local display
    (``:0``, ``unix:0.1``), ``("tcp", (host, port))`` for ``host:N`` (port 6000 + N, X11's
    convention); ``None`` for a form not understood (an ssh-forwarded or launchd path is left
    to Qt)."""
    match = re.fullmatch(r"(?P<host>[^:/]*)(?::(?P<number>\d+))(?:\.\d+)?", display)
    if match is None:
        return None
    host, number = match["host"], int(match["number"])
    if host in ("", "unix"):
        return "unix", f"/tmp/.X11-unix/X{number}"
    return "tcp", (host, 6000 + number)


def x_display_answers(display: str, timeout: float = 2.0) -> bool:
    """Whether an X server listens at ``display`` (a ``DISPLAY`` value): a local one on its
    socket (Linux's abstract name first, then the file), a remote one on its TCP port.  A form
    not understood counts as answering (bool)."""
    address = _x_display_address(display)
    if address is None:
        return True
    kind, where = address
    candidates: list[tuple[int, object]] = (
        [(socket.AF_UNIX, "\0" + str(where)), (socket.AF_UNIX, where)] if kind == "unix" else [(socket.AF_INET, where)]
    )
    for family, target in candidates:
        try:
            with socket.socket(family, socket.SOCK_STREAM) as sock:
                sock.settimeout(timeout)
                sock.connect(target)
            return True
        except OSError:
            continue
    return False


def unreachable_display_problem(environ: Mapping[str, str] | None = None) -> str | None:
    """What to tell a user whose ``DISPLAY`` names an X server that does not answer (Qt would
    abort blaming ``xcb-cursor0``), or ``None``; only checked where Qt will use X11."""
    env = os.environ if environ is None else environ
    if not uses_xcb(dict(env)) or env.get("WAYLAND_DISPLAY"):
        return None
    display = env.get("DISPLAY", "")
    if x_display_answers(display):
        return None
    return (
        f"the display DISPLAY={display} does not answer (no X server is listening there), so the window "
        "cannot open.\n"
        "  Check DISPLAY (e.g. echo $DISPLAY in a terminal of the desktop), or use a virtual display:  "
        "xvfb-run python app.py\n"
        "  A picture of the window without a display:  python app.py --screenshot window.png\n"
        "  No window at all, a report:  python app.py scan FOLDER -o report.html"
    )


def uses_xcb(environ: Mapping[str, str] | None = None) -> bool:
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
