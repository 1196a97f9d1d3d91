"""Walk a folder, read-only, and list the files in it that may be pages.

Which files may be pages: a suffix of :data:`PAGE_SUFFIXES`, or no known suffix at all (crawls
name files by hash); their content decides (:func:`dedup_gui.core.pipeline.loading.read_page`).  Files a
site folder holds that are not pages are skipped without being read: known non-page suffixes
(:data:`NOT_PAGE_SUFFIXES`), known non-page names (:data:`NOT_PAGE_NAMES`: ``.nojekyll``,
``objects.inv``, ``CNAME``...) and empty files without a page suffix.  Resource folders of
browser saves (``page_files/`` beside ``page.html``) hold no pages of their own and are skipped.

Symbolic links: the real path wins.  Every folder is walked and every file read under its path
without links first; a link to a folder or file already found there is listed as skipped with
its reason, and its address is kept as a second address of the pages (``also_at``): a
``latest -> v2`` link gives ``v2/x.html`` the second address ``latest/x.html``.  Loops are not
followed.  Links whose target (all links resolved) lies outside the scanned folder are not
followed, so a link cannot bring an outside file (``/etc/passwd``) into a scan or its reports;
they are listed as skipped with the reason, unless the caller opts in (``follow_links``).
Hard links cannot be told from the file itself: the first path in walk order is read.
"""

from __future__ import annotations

import bisect
import errno
import heapq
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from dedup_gui.core.model import FileError

PAGE_SUFFIXES = frozenset({".html", ".htm", ".xhtml", ".shtml", ".mht", ".mhtml"})
#: Suffixes that are never pages; not sniffed, listed as skipped.
NOT_PAGE_SUFFIXES = frozenset(
    {
        ".css", ".js", ".mjs", ".map", ".json", ".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg",
        ".ico", ".bmp", ".tif", ".tiff", ".woff", ".woff2", ".ttf", ".otf", ".eot", ".pdf",
        ".zip", ".tar", ".7z", ".rar", ".mp3", ".mp4", ".webm", ".ogg", ".wav", ".avi", ".mov",
        ".txt", ".md", ".csv", ".tsv", ".xml", ".rss", ".py", ".exe", ".dll", ".so", ".doc",
        ".docx", ".xls", ".xlsx", ".ppt", ".pptx", ".swf", ".wasm", ".arc", ".cdx", ".cdxj",
        # site build and hosting files: Sphinx's inventory, web app manifests, settings
        ".inv", ".webmanifest", ".yml", ".yaml", ".toml", ".ini", ".db", ".log",
    }
)  # fmt: skip
#: File names (compared case-insensitively) that are never pages, whatever their content:
#: the files static-site generators and hosts put beside the pages (GitHub Pages' ``.nojekyll``
#: and ``CNAME``, Sphinx's ``.buildinfo`` and ``objects.inv``, Netlify's ``_redirects`` and
#: ``_headers``, Apache's ``.htaccess``) and the files operating systems leave in folders.
NOT_PAGE_NAMES = frozenset(
    {
        ".nojekyll", "cname", ".buildinfo", "objects.inv", "_redirects", "_headers", ".htaccess",
        ".htpasswd", ".ds_store", "thumbs.db", "desktop.ini", ".gitignore", ".gitattributes",
        ".gitkeep", ".keep",
    }
)  # fmt: skip


#: Crawl archives (ISO 28500): containers of pages, listed record by record
#: (:mod:`dedup_gui.core.pipeline.warc`).
WARC_SUFFIXES = (".warc", ".warc.gz")


def is_warc_name(name: str) -> bool:
    """Whether a file name is a WARC file's (``.warc`` or ``.warc.gz``, any case)."""
    return name.lower().endswith(WARC_SUFFIXES)


def is_archive_root(root: str | Path) -> bool:
    """Whether a scan's root (:attr:`~dedup_gui.core.model.ScanResult.root`) is one WARC file,
    scanned record by record, rather than a folder (bool; by its name, and not a folder)."""
    path = Path(root)
    return bool(root) and is_warc_name(path.name) and not path.is_dir()


def record_path(warc_path: str, offset: int) -> str:
    """The shown path of the record at ``offset`` of WARC file ``warc_path`` (str).

    Example:
        >>> record_path("crawls/a.warc.gz", 1234)
        'crawls/a.warc.gz#1234'
    """
    return f"{warc_path}#{offset}"


def record_offset(path: str, abspath: str) -> int | None:
    """The record offset a page's shown path names, if the page is a WARC record (int or None).

    Example:
        >>> record_offset("a.warc.gz#1234", "/x/a.warc.gz"), record_offset("a#1.html", "/x/a#1.html")
        (1234, None)
    """
    if not is_warc_name(abspath):
        return None
    _head, sep, tail = path.rpartition("#")
    return int(tail) if sep and tail.isdigit() else None


@dataclass(frozen=True)
class ArchiveRecord:
    """The WARC record a page is read from.

    Attributes:
        offset: the record's offset in the file (bytes; its gzip member's in a ``.warc.gz``).
        url: ``WARC-Target-URI`` (str).
        date: ``WARC-Date``, ISO 8601 as written (str).
        key: the feature cache's key of its payload (:func:`dedup_gui.core.pipeline.warc.payload_key`).
    """

    offset: int
    url: str
    date: str
    key: str


@dataclass(frozen=True)
class SourceFile:
    """A file found in the folder that may be a page, or one record of a WARC file.

    Attributes:
        path: path relative to the root, ``/``-separated, safe to show (undecodable bytes of
            the file name written as ``\\xNN`` escapes, see :func:`display_path`); a record's
            is ``file.warc.gz#offset`` (:func:`record_path`).
        abspath: the real absolute path to open (str, may hold surrogate escapes).
        record: the WARC record to read, or ``None`` for an ordinary file.
        size: the file's size in bytes when the walk looked at it (int), or ``None`` when not
            known (a WARC record, a file named by the caller); the reading step's progress
            counts these bytes.
    """

    path: str
    abspath: str
    record: ArchiveRecord | None = None
    size: int | None = None


@dataclass(frozen=True)
class Discovery:
    """What a folder walk found.

    Attributes:
        files: candidate page files, sorted by path.
        skipped: relative paths of files that are not pages (resources), sorted; folders end
            in ``/``.
        errors: folders or files that could not be read, with reasons.
        skip_reasons: why a skipped path was skipped, where it is not simply "not a page"
            (a link to a folder or file read under its real path, a loop, a pipe or device, a
            symbolic link out of the scanned folder).
        followed_out: with ``follow_links``, the symbolic links out of the scanned folder that
            were followed (shown relative paths, folders ending in ``/``), sorted.
        also_at: the other addresses of candidate files, reached through symbolic links that
            were not walked or read again: ``{path: (other path, ...)}`` (sorted); only the
            addresses of single links, not of links found below other links.
        link_folders: the folder links listed as second addresses: ``{link/: target/}``
            (shown paths, each ending in ``/``); loops are not among them.
    """

    files: list[SourceFile]
    skipped: list[str]
    errors: list[FileError]
    skip_reasons: dict[str, str] = field(default_factory=dict)
    followed_out: list[str] = field(default_factory=list)
    also_at: dict[str, tuple[str, ...]] = field(default_factory=dict)
    link_folders: dict[str, str] = field(default_factory=dict)


def display_path(path: str) -> str:
    """Return ``path`` with undecodable file-name bytes shown as ``\\xNN`` escapes (str).

    The bytes stay readable, so a user can find the file (``ls $'bad\\xff.html'``), and two
    names that differ only in such bytes stay different (U+FFFD would merge them).

    Example:
        >>> display_path("bad\\udcff.html")
        'bad\\\\xff.html'
    """
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _suffix(name: str) -> str:
    return os.path.splitext(name.lower().removesuffix(".gz"))[1]


def is_page_suffix(name: str) -> bool:
    """Return ``True`` if the file name has a page suffix (``.html``, ``.htm.gz``, ``.mht``...)."""
    return _suffix(name) in PAGE_SUFFIXES


def is_not_a_page(name: str, size: int) -> bool:
    """Whether a file is known not to be a page from its name and size alone.

    Args:
        name: the file name (str, no folder).
        size: its size (bytes).

    Returns:
        ``True`` for a suffix of :data:`NOT_PAGE_SUFFIXES`, a name of :data:`NOT_PAGE_NAMES`,
        or an empty file without a page suffix (``.nojekyll``, a placeholder); an empty
        ``x.html`` is still a page of the site (with no usable text).
    """
    suffix = _suffix(name)
    if suffix in NOT_PAGE_SUFFIXES or name.lower() in NOT_PAGE_NAMES:
        return True
    return size == 0 and suffix not in PAGE_SUFFIXES


def _is_resource_dir(name: str, names: set[str]) -> bool:
    # Browsers save "X.html" with its images and scripts in "X_files/" (or "X-Dateien" etc.).
    for tail in ("_files", "-files", "_archivos", "-Dateien", "_fichiers"):
        if name.endswith(tail):
            stem = name[: -len(tail)]
            return any(f"{stem}{suffix}" in names for suffix in (".html", ".htm", ".xhtml", ".shtml"))
    return False


def discover(root: str | Path, follow_links: bool = False) -> Discovery:
    """Walk ``root`` (iteratively: no recursion limit) and list its page files.

    Folders and files are first walked under their paths without symbolic links; then the links
    to folders, in path order, then the links to files.  A link to a folder or file already
    found is listed as skipped with its reason and recorded as a second address
    (:attr:`Discovery.also_at`); a link to one not found otherwise is walked or read under the
    link's path.  So the real path wins, whatever order the folder lists its entries in.

    A symbolic link whose target, with every link resolved (:func:`os.path.realpath`), lies
    outside ``root`` is listed as skipped with its reason and neither read nor walked, unless
    ``follow_links``.  Hard links cannot be told from the file itself and are read once.

    Args:
        root: the folder to scan.
        follow_links: follow symbolic links out of ``root`` too (bool; default ``False``);
            the links followed are listed in :attr:`Discovery.followed_out`.

    Returns:
        A :class:`Discovery`.

    Raises:
        NotADirectoryError: ``root`` is not a folder.
        PermissionError / OSError: ``root`` itself cannot be listed.
    """
    root_path = Path(root).resolve()
    if not root_path.is_dir():
        raise NotADirectoryError(f"not a folder: {root}")
    return _Walk(root_path, follow_links).run()


class _Walk:
    """The state of one :func:`discover` walk."""

    def __init__(self, root_path: Path, follow_links: bool) -> None:
        self.root_real = str(root_path)
        self.follow_links = follow_links
        self.files: list[SourceFile] = []
        self.candidates: set[str] = set()
        self.skipped: list[str] = []
        self.errors: list[FileError] = []
        self.skip_reasons: dict[str, str] = {}
        self.followed_out: list[str] = []
        self.also_at: dict[str, list[str]] = {}
        self.link_folders: dict[str, str] = {}
        self.seen_files: dict[tuple[int, int], str] = {}
        root_stat = root_path.stat()
        self.seen_dirs: dict[tuple[int, int], str] = {(root_stat.st_dev, root_stat.st_ino): ""}
        # links put off until the real paths are walked: (rel, path, key, is a resource folder)
        self.folder_links: list[tuple[str, str, tuple[int, int], bool]] = []
        self.file_links: list[tuple[str, str, tuple[int, int], int]] = []

    def run(self) -> Discovery:
        self._walk([(self.root_real, "")], first=True)
        while self.folder_links:  # links found below folder links join the heap: path order
            rel, path, key, resource = heapq.heappop(self.folder_links)
            if self._folder(path, rel, key, resource, link=True):
                self._walk([(path, rel)])
        for rel, path, key, size in sorted(self.file_links):
            self._file(path, rel, key, size, link=True)
        self.files.sort(key=lambda f: f.path)
        self._folder_link_addresses()
        self.skipped.sort()
        also_at = {path: tuple(sorted(others)) for path, others in self.also_at.items()}
        return Discovery(
            self.files, self.skipped, self.errors, self.skip_reasons, sorted(self.followed_out),
            dict(sorted(also_at.items())), self.link_folders,
        )  # fmt: skip

    def _walk(self, stack: list[tuple[str, str]], first: bool = False) -> None:
        """Walk the folders of ``stack`` and below, depth first in name order; links are put off."""
        while stack:
            dir_abs, dir_rel = stack.pop()
            try:
                with os.scandir(dir_abs) as it:
                    entries = sorted(it, key=lambda e: e.name)
            except OSError as exc:
                if first:
                    raise
                self.errors.append(
                    FileError(display_path(dir_rel) + "/", f"folder cannot be read: {exc.strerror or exc}")
                )
                continue
            first = False
            names = {e.name for e in entries}
            subdirs = []
            for entry in entries:
                rel = f"{dir_rel}/{entry.name}" if dir_rel else entry.name
                if self._entry(entry, rel, names):
                    subdirs.append((entry.path, rel))
            stack.extend(reversed(subdirs))

    def _entry(self, entry: os.DirEntry, rel: str, names: set[str]) -> bool:
        """Sort one folder entry; ``True`` if it is a real folder to walk now."""
        shown = display_path(rel)
        try:
            st = entry.stat(follow_symlinks=True)
        except OSError as exc:
            if entry.is_symlink():  # a loop of links (a -> b -> a) ends nowhere, as a broken one does
                reason = "a loop of symbolic links" if exc.errno == errno.ELOOP else "broken symbolic link"
            else:
                reason = f"cannot be read: {exc.strerror or exc}"
            self.errors.append(FileError(shown, reason))
            return False
        link = entry.is_symlink()
        if link and not _is_inside(os.path.realpath(entry.path), self.root_real):
            shown_link = shown + "/" if stat.S_ISDIR(st.st_mode) else shown
            if not self.follow_links:
                # Walking is by link path, so a file below a folder link out is never reached either.
                self._skip(shown_link, _outside_link_reason(st.st_mode))
                return False
            self.followed_out.append(shown_link)
        key = (st.st_dev, st.st_ino)
        if stat.S_ISDIR(st.st_mode):
            resource = _is_resource_dir(entry.name, names)
            if link:
                heapq.heappush(self.folder_links, (rel, entry.path, key, resource))
                return False
            return self._folder(entry.path, rel, key, resource, link=False)
        if stat.S_ISREG(st.st_mode):
            if link:
                self.file_links.append((rel, entry.path, key, st.st_size))
            else:
                self._file(entry.path, rel, key, st.st_size, link=False)
            return False
        self._skip(shown, "not a regular file (a pipe, socket or device)")
        return False

    def _skip(self, shown: str, reason: str | None = None) -> None:
        self.skipped.append(shown)
        if reason is not None:
            self.skip_reasons[shown] = reason

    def _folder(self, path: str, rel: str, key: tuple[int, int], resource: bool, link: bool) -> bool:
        """Decide on folder ``rel`` (a link if ``link``); ``True`` if it is to be walked."""
        shown = display_path(rel) + "/"
        seen = self.seen_dirs.get(key)
        if seen is not None:
            if seen == "" or rel.startswith(seen + "/") or not link:
                self._skip(shown, _seen_folder_reason(seen, rel))  # a loop, or a bind mount
            else:
                self._skip(shown)  # the reason, with the count of pages, once the walk is done
                self.link_folders[shown] = display_path(seen) + "/"
            return False
        self.seen_dirs[key] = rel
        if resource:
            self._skip(shown)
            return False
        return True

    def _file(self, path: str, rel: str, key: tuple[int, int], size: int, link: bool) -> None:
        """Decide on file ``rel`` (a link if ``link``): a candidate page, skipped, or a second path."""
        shown = display_path(rel)
        seen = self.seen_files.get(key)
        if seen is not None:
            if not link:
                # a hard link, or a file below a folder walked through a link: read once
                self._skip(shown, f"the same file as {seen}, reached through a link: read once")
            elif seen in self.candidates:
                self._skip(shown, f"a link to {seen}: read there (the same file at a second address)")
                self.also_at.setdefault(seen, []).append(shown)
            else:
                self._skip(shown, f"a link to {seen}, which is skipped: not read here either")
            return
        self.seen_files[key] = shown
        if is_not_a_page(rel.rsplit("/", 1)[-1], size):
            self._skip(shown)
        else:
            self.files.append(SourceFile(shown, path, size=size))
            self.candidates.add(shown)

    def _folder_link_addresses(self) -> None:
        """The reasons of the folder links (with the count of files below each target) and the
        second addresses they give; needs :attr:`files` sorted by path."""
        paths = [f.path for f in self.files]
        for link, target in self.link_folders.items():
            start = end = bisect.bisect_left(paths, target)
            while end < len(paths) and paths[end].startswith(target):
                self.also_at.setdefault(paths[end], []).append(link + paths[end][len(target) :])
                end += 1
            self.skip_reasons[link] = link_folder_reason(target, end - start)


def link_folder_reason(target: str, pages: int) -> str:
    """Why a symbolic link to a folder read under its real path is not walked (str).

    Args:
        target: the folder's shown path, ending in ``/``.
        pages: how many pages were read below it (int; :func:`discover` counts the files that
            may be pages, a scan the pages it read).

    Example:
        >>> link_folder_reason("v2/", 3)
        'a link to v2/: its 3 pages are read there (the same pages at a second address)'
    """
    if pages == 0:
        return f"a link to {target}: the same folder at a second address, not walked again"
    if pages == 1:
        return f"a link to {target}: its page is read there (the same page at a second address)"
    return f"a link to {target}: its {pages:,} pages are read there (the same pages at a second address)"


def link_skip_reasons(found: Discovery, page_paths: list[str]) -> dict[str, str]:
    """The walk's skip reasons, with each folder link's count of pages made exact.

    The walk counts the files below a link's target that may be pages; this counts the pages
    the scan read there (a file without a suffix may have turned out to be none).

    Args:
        found: the walk (:func:`discover`).
        page_paths: the paths of the pages read, sorted.

    Returns:
        ``{skipped path: reason}`` (a new dict).
    """
    reasons = dict(found.skip_reasons)
    for link, target in found.link_folders.items():
        first = bisect.bisect_left(page_paths, target)
        # paths below target/ sort before target + "0" ("0" follows "/")
        after = bisect.bisect_left(page_paths, target[:-1] + "0", first)
        reasons[link] = link_folder_reason(target, after - first)
    return reasons


def _is_inside(real: str, root_real: str) -> bool:
    """Whether real path ``real`` is ``root_real`` or lies below it (both resolved, str)."""
    try:
        return os.path.commonpath([real, root_real]) == root_real
    except ValueError:  # different drives on Windows
        return False


def is_inside(path: str, root: str) -> bool:
    """Whether ``path``, with every symbolic link resolved, is folder ``root`` or lies inside it
    (bool; ``False`` for a path the system cannot resolve, e.g. one holding a NUL)."""
    try:
        return _is_inside(os.path.realpath(path), os.path.realpath(root))
    except (ValueError, OSError):
        return False


def _outside_link_reason(mode: int) -> str:
    """Why a symbolic link out of the scanned folder, to a target of ``mode`` (st_mode), is skipped."""
    if stat.S_ISDIR(mode):
        return "a symbolic link to a folder outside the scanned folder: not walked (--follow-links walks it)"
    what = "a file" if stat.S_ISREG(mode) else "a pipe, socket or device"
    return f"a symbolic link to {what} outside the scanned folder: not followed (--follow-links follows it)"


def followed_links_note(followed_out: list[str], shown: int = 10) -> str:
    """The scan note of a scan with ``follow_links``: that links out of the folder were followed.

    Args:
        followed_out: the links followed (:attr:`Discovery.followed_out`).
        shown: how many of them are named (int); the rest are counted.

    Returns:
        The note (str).
    """
    head = "following links out of the scanned folder (--follow-links): "
    if not followed_out:
        return head + "none were found"
    n = len(followed_out)
    names = ", ".join(followed_out[:shown]) + (f" and {n - shown:,} more" if n > shown else "")
    text = head + f"{n:,} symbolic link{'s' if n != 1 else ''} followed ({names}): "
    return text + ("what they point to is scanned" if n != 1 else "what it points to is scanned")


def _seen_folder_reason(seen_rel: str, rel: str) -> str:
    """Why folder ``rel`` (relative to the scanned folder) is not walked: it is folder
    ``seen_rel`` again ("" is the scanned folder itself), inside itself or at a second path
    that is not a link (a bind mount)."""
    if seen_rel == "" or rel.startswith(seen_rel + "/"):
        where = "the scanned folder" if seen_rel == "" else display_path(seen_rel) + "/"
        return f"{where} again, inside itself through a link (a loop): not followed"
    return f"the same folder as {display_path(seen_rel)}/, reached through a link: walked once"
