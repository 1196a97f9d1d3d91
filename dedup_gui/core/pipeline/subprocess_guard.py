"""Make a helper process exit when the process that started it dies.

A worker process is not ended by its parent's death: when the scanning process is killed
(``kill -9``, the kernel's out-of-memory killer, a crash of the window), its workers would
keep running, one perhaps for minutes on a pathological page.  :func:`exit_with_parent`,
called first thing in the helper process, ends it instead.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading

#: Linux ``prctl`` option: the signal the kernel sends this process when its parent exits
#: (``<linux/prctl.h>``; see ``man 2 PR_SET_PDEATHSIG``).
PR_SET_PDEATHSIG = 1
#: The exit status of a helper that ends because its parent died (nobody may read it).
ORPHAN_EXIT_STATUS = 1


def _set_parent_death_signal() -> bool:
    """Ask the Linux kernel to SIGKILL this process when its parent dies; True if it did."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)  # the C library already loaded in this process
        return libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _exit_when_ready(sentinel) -> None:
    from multiprocessing.connection import wait

    wait([sentinel])  # blocks, without the GIL, until the parent's end of the pipe closes
    os._exit(ORPHAN_EXIT_STATUS)


def exit_with_parent(parent_pid: int | None = None, kernel_signal: bool = True) -> tuple[str, ...]:
    """Make this process exit as soon as the process that started it dies.

    Two guards, as available:

    * ``"pdeathsig"`` (Linux): ``prctl(PR_SET_PDEATHSIG, SIGKILL)``, so the kernel kills this
      process when its parent exits, even while it is busy in C code that holds the GIL.  The
      parent may have died before the call: then ``os.getppid()`` is no longer ``parent_pid``
      (the orphan was given to init or a subreaper) and this process exits at once.
      Caution: the kernel sends the signal when the *thread* that started this process exits,
      not the whole process, so the starting thread must live as long as this process
      (true of :class:`dedup_gui.core.pipeline.executors._PagePool`, see its ``_new_pool``).
    * ``"sentinel"`` (every platform, multiprocessing children only): a daemon thread waits on
      ``multiprocessing.parent_process().sentinel``, which becomes ready when the parent dies,
      and calls ``os._exit``.  It needs the GIL to run, so a task holding the GIL in one long C
      call delays it until the call returns.

    Args:
        parent_pid: the parent's pid as the parent saw it (``os.getpid()`` there, passed to the
            child, e.g. in a pool's ``initargs``).  ``None``: the multiprocessing parent's pid,
            else ``os.getppid()`` now (which cannot detect a parent that already died).
        kernel_signal: use the Linux guard; ``False`` for a process started from a thread that
            may end before it (a thread pool's thread), which would kill it too early.

    Returns:
        the guards now in place (tuple of ``"pdeathsig"``, ``"sentinel"``); empty for a process
        that is not a multiprocessing child on a platform other than Linux.

    Does not return (the process exits) if the parent has already died.
    """
    parent = multiprocessing.parent_process()
    if parent_pid is None:
        parent_pid = parent.pid if parent is not None and parent.pid else os.getppid()
    guards = []
    if kernel_signal and _set_parent_death_signal():
        guards.append("pdeathsig")
        if os.getppid() != parent_pid:  # the parent died before prctl took effect
            os._exit(ORPHAN_EXIT_STATUS)
    if parent is not None and parent.sentinel is not None:
        threading.Thread(target=_exit_when_ready, args=(parent.sentinel,), name="exit-with-parent", daemon=True).start()
        guards.append("sentinel")
    return tuple(guards)
