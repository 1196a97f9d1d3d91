"""Before the window opens on X11: missing system libraries are named, with the packages to
install, instead of Qt's abort that blames the wrong one; and a screenshot needs no display."""

import os
import subprocess
import sys

from dedup_gui.gui import platform_check

from .conftest import REPO

LDD_OUTPUT = """\
\tlinux-vdso.so.1 (0x00007ffc)
\tlibxcb-cursor.so.0 => /lib/x86_64-linux-gnu/libxcb-cursor.so.0 (0x00007f)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
\tlibxkbcommon-x11.so.0 => not found
"""


def test_the_missing_libraries_and_their_packages_are_named(tmp_path, monkeypatch):
    assert platform_check.missing_libraries(LDD_OUTPUT) == [
        "libxcb-icccm.so.4",
        "libxcb-keysyms.so.1",
        "libxkbcommon-x11.so.0",
    ]
    fake_ldd = tmp_path / "ldd"
    fake_ldd.write_text(f"#!/bin/sh\ncat <<'END'\n{LDD_OUTPUT}END\n")
    fake_ldd.chmod(0o755)
    monkeypatch.setattr(platform_check.shutil, "which", lambda name: str(fake_ldd))
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    problem = platform_check.xcb_problem()
    assert problem is not None
    assert "sudo apt-get install libxcb-icccm4 libxcb-keysyms1 libxkbcommon-x11-0" in problem
    # another platform asked for, or no X display: nothing to check
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    assert platform_check.xcb_problem() is None


def _env_without_display(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    return dict(env, PYTHONPATH=str(REPO), **extra)


def test_the_window_says_what_to_install_instead_of_aborting():
    code = (
        "import sys, dedup_gui.gui.app as app;"
        "app.xcb_problem = lambda: 'the window needs system libraries that are missing: libxcb-icccm.so.4';"
        "app.unreachable_display_problem = lambda: None;"  # DISPLAY=:0 answers on a desktop, not here
        "sys.exit(app.run_gui())"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=_env_without_display(DISPLAY=":0"), capture_output=True, text=True,
        timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 1
    assert "error: the window needs system libraries that are missing: libxcb-icccm.so.4" in done.stderr


def test_a_screenshot_needs_no_display(tmp_path):
    # On a server without X (no DISPLAY, no QT_QPA_PLATFORM) --screenshot draws off screen.
    out = tmp_path / "w.png"
    done = subprocess.run(
        [sys.executable, "app.py", "--screenshot", str(out)], cwd=REPO, env=_env_without_display(),
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_without_a_display_the_window_command_says_so_and_exits_2():
    # Issue 20: with no DISPLAY, WAYLAND_DISPLAY or QT_QPA_PLATFORM, Qt tried X11 and aborted
    # (SIGABRT, code 134) blaming the xcb-cursor0 library, which was installed.  The window
    # command now stops before Qt starts and names the real cause and the ways round it.
    done = subprocess.run(
        [sys.executable, "app.py"], cwd=REPO, env=_env_without_display(), capture_output=True, text=True,
        timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("error: no display found (neither DISPLAY nor WAYLAND_DISPLAY is set)")
    for advice in ("xvfb-run python app.py", "QT_QPA_PLATFORM=offscreen", "python app.py scan FOLDER -o report.html"):
        assert advice in done.stderr, advice
    assert "xcb-cursor" not in done.stderr and "qt.qpa" not in done.stderr


def test_a_display_or_a_chosen_platform_is_enough():
    assert platform_check.display_problem({}, "linux") is not None
    assert platform_check.display_problem({"DISPLAY": ""}, "linux") is not None  # set but empty: none
    assert platform_check.display_problem({"DISPLAY": ":0"}, "linux") is None
    assert platform_check.display_problem({"WAYLAND_DISPLAY": "wayland-0"}, "linux") is None
    assert platform_check.display_problem({"QT_QPA_PLATFORM": "offscreen"}, "linux") is None
    assert platform_check.display_problem({}, "freebsd14") is not None  # X11 or Wayland there too
    assert platform_check.display_problem({}, "win32") is None  # Windows and macOS always have one
    assert platform_check.display_problem({}, "darwin") is None


def _unused_display() -> str:
    """A local display number no X server listens on here."""
    n = 4000 + os.getpid() % 1000
    while platform_check.x_display_answers(f":{n}", timeout=0.5):
        n += 1
    return f":{n}"


def test_a_display_that_does_not_answer_is_named_instead_of_qt_s_abort():
    # A DISPLAY with no X server behind it (a stale ssh session, a typo) also made Qt abort
    # blaming xcb-cursor0 (the last tester's finding).
    display = _unused_display()
    done = subprocess.run(
        [sys.executable, "app.py"], cwd=REPO, env=_env_without_display(DISPLAY=display), capture_output=True,
        text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"error: the display DISPLAY={display} does not answer")
    assert "xvfb-run python app.py" in done.stderr and "xcb-cursor" not in done.stderr


def test_a_listening_x_socket_counts_as_a_display():
    import socket

    display = _unused_display()
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind("\0/tmp/.X11-unix/X" + display[1:])  # Linux's abstract name, as Xorg and Xvfb listen
        server.listen(16)  # the checks connect and leave: room for them all
        assert platform_check.x_display_answers(display)
        assert platform_check.x_display_answers(display + ".0")  # a screen number
        assert platform_check.unreachable_display_problem({"DISPLAY": display}) is None
    assert not platform_check.x_display_answers(display)
    assert platform_check.x_display_answers("/private/tmp/com.apple.launchd.x/org.xquartz:0")  # left to Qt
    assert platform_check.unreachable_display_problem({"DISPLAY": display, "QT_QPA_PLATFORM": "offscreen"}) is None
