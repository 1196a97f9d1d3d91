"""Copy the kept pages to a new folder: a deduplicated copy of a scanned collection, for crawl
and corpus work.

What is written: every file the scan saw, at its path in the tree, except the pages the keep
clusters drop (:mod:`dedup_gui.core.pipeline.keep_clusters`, under the result's keep policy):
the kept pages and the pages in no keep cluster, the files that could not be read as pages (an
error is no reason to lose a file), and the files that are not pages (style sheets, images), so
the copy still renders.  Symbolic links, loops and special files the scan skipped are left out
and listed (their targets, when inside the folder, are copied as themselves).  Files keep their
modification times (``shutil.copy2``), so a later scan's "oldest file" rule still holds, and so
do the folders (set once their files are written); the destination keeps the permissions it
had, or gets those of a plain ``mkdir`` when the copy makes it.

Safety: the scanned folder is only read.  The destination must lie outside it and be new or
empty; the copy is written into a hidden staging folder beside the destination and renamed into
place at the end, so a cancelled or failed copy leaves nothing behind.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from dedup_gui.core.model import ScanResult
from dedup_gui.core.pipeline.keep_clusters import keep_clusters_of
from dedup_gui.core.progress import NullProgress, Progress, check_cancel

#: The progress stage of a copy.
STAGE = "copying the kept pages"


@dataclass(frozen=True)
class CopyPlan:
    """Which files of a scan a copy writes and which it leaves out (paths relative to the
    scanned folder, ``/`` separators, sorted).

    Attributes:
        pages: the pages written: kept, or in no keep cluster.
        other_files: files written that are not pages (not pages, or unreadable as pages).
        dropped: the pages left out: each a duplicate the keep clusters drop.
        left_out: symbolic links, loops and special files the scan skipped: not written.
        archives: crawl archives (``.warc.gz``) the scan read pages from: copied whole, since
            a record is not a file of its own (their duplicate records are not taken out).
    """

    pages: tuple[str, ...]
    other_files: tuple[str, ...]
    dropped: tuple[str, ...]
    left_out: tuple[str, ...]
    archives: tuple[str, ...] = ()


@dataclass(frozen=True)
class CopyReport:
    """What a copy wrote.

    Attributes:
        destination: the folder written (absolute, str).
        plan: the :class:`CopyPlan` it followed.
        bytes_written: bytes of the files written (int).
    """

    destination: str
    plan: CopyPlan
    bytes_written: int

    def text(self) -> str:
        """The copy in one sentence, e.g. ``"Wrote 10 pages and 3 other files (12,345 bytes);
        left out 4 duplicate pages and 1 link or special file."`` (str)."""
        p = self.plan
        left = f"left out {len(p.dropped):,} duplicate page{'' if len(p.dropped) == 1 else 's'}"
        if p.left_out:
            one = len(p.left_out) == 1
            left += f" and {len(p.left_out):,} {'link or special file' if one else 'links or special files'}"
        whole = (
            f" {len(p.archives):,} crawl archive{'' if len(p.archives) == 1 else 's'} copied whole "
            "(duplicate records are not taken out of an archive)."
            if p.archives
            else ""
        )
        return (
            f"Wrote {len(p.pages):,} page{'' if len(p.pages) == 1 else 's'} and {len(p.other_files):,} other "
            f"file{'' if len(p.other_files) == 1 else 's'} ({self.bytes_written:,} bytes); {left}.{whole}"
        )


def _folder_files(root: Path, folder: str, others: list[str], left_out: list[str]) -> None:
    """Add the plain files under skipped folder ``folder`` (a browser's ``page_files/``) to
    ``others``, and the links and special files there to ``left_out`` (links not followed)."""
    top = root.joinpath(*folder.strip("/").split("/"))
    for base, dirs, files in os.walk(top, followlinks=False):
        rel = Path(base).relative_to(root).as_posix()
        for name in [*files, *(d for d in dirs if os.path.islink(os.path.join(base, d)))]:
            path = os.path.join(base, name)
            (others if os.path.isfile(path) and not os.path.islink(path) else left_out).append(f"{rel}/{name}")


def copy_plan(result: ScanResult) -> CopyPlan:
    """The files a copy of ``result``'s folder writes and leaves out (:class:`CopyPlan`); the
    folders the scan skipped whole (a browser's ``page_files/``) are listed file by file."""
    root = Path(result.root)
    dropped = {i for k in keep_clusters_of(result) for i in k.duplicates}
    records = {i for i, p in enumerate(result.pages) if p.record_offset is not None}
    archives = sorted({result.pages[i].path.partition("#")[0] for i in records})
    pages = [p.path for i, p in enumerate(result.pages) if i not in dropped and i not in records]
    others = [e.path for e in result.errors if "#" not in e.path or e.path.partition("#")[0] not in archives]
    left_out: list[str] = []
    for path in result.skipped:
        if path.partition("#")[0] in archives:
            continue  # a record of an archive copied whole (a revisit)
        full = root.joinpath(*path.strip("/").split("/"))
        if path in result.skip_reasons or full.is_symlink():
            left_out.append(path)
        elif full.is_dir():
            _folder_files(root, path, others, left_out)
        else:
            others.append(path)
    return CopyPlan(
        tuple(sorted(pages)),
        tuple(sorted({*others, *archives})),
        tuple(sorted(result.pages[i].path for i in dropped - records)),
        tuple(sorted(left_out)),
        tuple(archives),
    )


def check_destination(root: str | Path, destination: str | Path) -> Path:
    """The destination of a copy of folder ``root``, resolved, once it is safe to write.

    Raises:
        ValueError: the destination is the scanned folder or lies inside it, is a file, or is
            a folder that is not empty (nothing is ever overwritten).
    """
    source = Path(root).expanduser().resolve()
    target = Path(destination).expanduser().resolve()
    if target == source or source in target.parents:
        raise ValueError(f"the copy must be written outside the scanned folder {source}, not in {target}")
    if target.exists():
        if not target.is_dir():
            raise ValueError(f"{target} is a file: choose a new or empty folder")
        if any(target.iterdir()):
            raise ValueError(f"{target} is not empty: choose a new or empty folder")
    return target


def suggest_destination(root: str | Path) -> Path:
    """A new folder beside ``root`` to offer for its deduplicated copy: ``<root>-kept``, or
    ``<root>-kept-2``, ``-3``… when that name is taken by a file or a folder that is not empty.

    Args:
        root: the scanned folder.

    Returns:
        The suggested destination (Path), absolute; it passes :func:`check_destination`
        unless ``root`` is the file system's root.
    """
    source = Path(root).expanduser().resolve()
    first = source.parent / f"{source.name or 'pages'}-kept"
    for n in range(1, 1000):  # bounded: under "/" every candidate lies inside the scan
        candidate = first if n == 1 else first.with_name(f"{first.name}-{n}")
        try:
            check_destination(source, candidate)
        except (ValueError, OSError):
            continue
        return candidate
    return first


def _new_folder_mode(parent: Path) -> int:
    """The permission bits a plain ``mkdir`` gets in ``parent`` (0o777 less the umask, or what
    a default ACL gives), found by making one: ``os.umask`` can only be read by setting it, for
    the whole process, which other threads would see (int)."""
    probe = Path(tempfile.mkdtemp(dir=parent))  # a unique name; its own mode is 0700
    try:
        made = probe / "folder"
        made.mkdir()
        return stat.S_IMODE(made.stat().st_mode)
    finally:
        shutil.rmtree(probe, ignore_errors=True)


def _copy_folder_times(root: Path, staging: Path) -> None:
    """Give each folder under ``staging`` the access and modification times of its folder under
    ``root``; done after every file is written, since writing into a folder changes its time."""
    for base, dirs, _files in os.walk(staging):
        for name in dirs:
            copied = Path(base, name)
            source = root.joinpath(*copied.relative_to(staging).parts).stat()
            os.utime(copied, ns=(source.st_atime_ns, source.st_mtime_ns))


def copy_kept(result: ScanResult, destination: str | Path, progress: Progress | None = None) -> CopyReport:
    """Write the deduplicated copy of ``result``'s folder to ``destination`` (see the module).

    Args:
        result: the scan, with the keep policy to follow (the user's choices and rule).
        destination: a new or empty folder outside the scanned folder (made with its parents).
        progress: reports files copied (:data:`STAGE`) and may cancel; ``None`` for none.

    Returns:
        :class:`CopyReport`.

    Raises:
        ValueError: an unsafe destination (:func:`check_destination`); nothing is written.
        ScanCancelled: cancelled; nothing is left behind.
        OSError: a file could not be read or written; nothing is left behind.
    """
    progress = progress or NullProgress()
    root = Path(result.root).resolve()
    target = check_destination(root, destination)
    plan = copy_plan(result)
    files = [*plan.pages, *plan.other_files]
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.partial-", dir=target.parent))
    written = 0
    mode = stat.S_IMODE(target.stat().st_mode) if target.exists() else _new_folder_mode(staging)
    try:
        for n, path in enumerate(sorted(files)):
            if n % 20 == 0:
                check_cancel(progress)
                progress.update(STAGE, n, len(files))
            source = root.joinpath(*path.split("/"))
            if source.is_symlink() or root not in source.resolve().parents:
                raise OSError(f"{path} is no longer a plain file inside the scanned folder")
            out = staging.joinpath(*path.split("/"))
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, out, follow_symlinks=False)
            written += out.stat().st_size
        _copy_folder_times(root, staging)
        os.chmod(staging, mode)  # mkdtemp made it 0700, private while partial
        check_cancel(progress)
        if target.exists():
            target.rmdir()  # empty (checked): the staging folder takes its place
        os.replace(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    progress.update(STAGE, len(files), len(files))
    return CopyReport(str(target), plan, written)
