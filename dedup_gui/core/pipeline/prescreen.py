"""The files a scan sets aside before its reading step: those too large to read (from the size
the walk saw) and those plainly not pages (a binary file without a page suffix, from its first
bytes).

They get the outcome reading would give them (a ``too large`` error, a skipped path) without
being read, and the reading step counts only the files it reads: the window said "reading
pages: 0 of 10" for a folder of 8 pages, a binary file and a file over ``--max-file-mb``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from dedup_gui.core.model import FileError
from dedup_gui.core.pipeline.loading import SourceFile, is_plainly_not_a_page, too_large_text


@dataclass
class Screened:
    """The files of a scan after :func:`screen_files`.

    Attributes:
        files: the files to read, in the order given.
        errors: the files too large to read, each with its reason.
        skipped: the paths of the files that are plainly not pages.
    """

    files: list[SourceFile] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


def screen_files(files: list[SourceFile], max_bytes: int, check: Callable[[], None] = lambda: None) -> Screened:
    """Set aside the files that need not be read: larger than ``max_bytes`` by the walk's size
    (a :class:`FileError`, as reading would give), or without a page suffix and binary or
    without HTML markup in their first bytes (skipped,
    :func:`~dedup_gui.core.pipeline.loading.is_plainly_not_a_page`).  Files of unknown size and
    WARC records are kept for the reading step, which decides on them.

    Args:
        files: the candidate files (from the walk).
        max_bytes: the largest file read (bytes; ``ScanSettings.max_file_bytes``).
        check: called every 64 files; raises to stop (a cancel).

    Returns:
        The :class:`Screened` files; the folder is only read.
    """
    screened = Screened()
    for i, source in enumerate(files):
        if i % 64 == 0:
            check()
        if source.record is None and source.size is not None and source.size > max_bytes:
            screened.errors.append(FileError(source.path, too_large_text(source.size, max_bytes)))
        elif is_plainly_not_a_page(source):
            screened.skipped.append(source.path)
        else:
            screened.files.append(source)
    return screened
