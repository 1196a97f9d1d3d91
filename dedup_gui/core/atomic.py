"""Atomic file writes for reports: a temporary file beside the target, then ``os.replace``.

An export that fails or is cancelled halfway leaves no half-written file and never damages an
existing one: the old file stays whole until the new one is complete, flushed and renamed over
it in one step.  Failures to write become :class:`ExportError`, whose message says in words what
is wrong (a folder that does not exist, a read-only place, a full disk).
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path


class ExportError(OSError):
    """A report could not be written; ``str(exc)`` is a sentence for the user.

    It is an :class:`OSError` (``errno``, ``strerror`` and ``filename`` are set), so callers that
    already catch ``OSError`` keep working.
    """

    def __str__(self) -> str:
        return f"cannot write {self.filename}: {self.strerror}"


def _reason(exc: OSError, folder: Path) -> str:
    """Say in words why writing into ``folder`` failed."""
    if exc.errno == errno.ENOENT:
        if not folder.is_dir():
            return f"the folder {folder} does not exist"
        return f"the folder {folder} does not accept new files (a system or read-only place); choose another folder"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied: the place is read-only or not yours to write; choose another folder"
    if exc.errno == errno.EROFS:
        return "the place is on a read-only file system; choose another folder"
    if exc.errno == errno.ENOSPC:
        return "the disk is full"
    if exc.errno == errno.ENOTDIR:
        return f"{folder} is not a folder"
    if exc.errno == errno.EISDIR:
        return "a folder of that name is in the way"
    return exc.strerror or str(exc)


def _umask() -> int:
    # os.umask can only be read by setting it; set it back at once.
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write_bytes(path: str | Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically.

    The new file gets the mode of the file it replaces, or the usual mode for a new file
    (``0o666`` less the umask) rather than the private ``0o600`` of a temporary file, since a
    report is made to be shared.

    Args:
        path: the file to write; its folder must exist.
        data: the complete contents.

    Returns:
        The path written (:class:`~pathlib.Path`).

    Raises:
        ExportError: the file cannot be written (folder missing, read-only place, disk full...);
            no temporary file is left behind and an existing file at ``path`` is untouched.
    """
    # Through a symlink, the file it points to is replaced, not the link itself.
    target = Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        raise ExportError(errno.EISDIR, "a folder of that name is in the way", str(target))
    if target.exists() and not target.is_file():
        raise ExportError(errno.EINVAL, "it is not a regular file (a pipe or a device): choose a file", str(target))
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=folder)
    except OSError as exc:
        raise ExportError(exc.errno or errno.EIO, _reason(exc, folder), str(target)) from exc
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())  # the bytes are on disk before the name points at them
        try:
            mode = os.stat(target).st_mode & 0o7777
        except OSError:
            mode = 0o666 & ~_umask()
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError) and not isinstance(exc, ExportError):
            raise ExportError(exc.errno or errno.EIO, _reason(exc, folder), str(target)) from exc
        raise
    return target


def atomic_write_text(path: str | Path, text: str) -> Path:
    """Write ``text`` as UTF-8 to ``path`` atomically (see :func:`atomic_write_bytes`).

    Args:
        path: the file to write.
        text: the complete contents; line ends are written as given.

    Returns:
        The path written.

    Raises:
        ExportError: the file cannot be written; nothing is left half-written.
    """
    # "replace": a folder name that is not valid UTF-8 (a surrogate escape) must not stop a report.
    return atomic_write_bytes(path, text.encode("utf-8", errors="replace"))


def check_writable(path: str | Path) -> None:
    """Check before a long job that a report could be written to ``path``.

    Creates and removes a temporary file in the target folder, the same way the real write does.

    Args:
        path: the file a report will be written to.

    Raises:
        ExportError: the folder is missing, read-only, or the name is a folder.
    """
    # Through a symlink, the file it points to is replaced, not the link itself.
    target = Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        raise ExportError(errno.EISDIR, "a folder of that name is in the way", str(target))
    if target.exists() and not target.is_file():
        raise ExportError(errno.EINVAL, "it is not a regular file (a pipe or a device): choose a file", str(target))
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=folder)
    except OSError as exc:
        raise ExportError(exc.errno or errno.EIO, _reason(exc, folder), str(target)) from exc
    os.close(fd)
    os.unlink(tmp)
