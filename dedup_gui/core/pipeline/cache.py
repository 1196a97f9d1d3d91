"""A feature cache: a rescan of an unchanged folder skips the per-page work and the pair measures.

SQLite, in the user's cache directory (``platformdirs.user_cache_dir("dedup-gui")``, which
honours ``XDG_CACHE_HOME``).  Features are keyed by the SHA-1 of exactly the file bytes they
were made from (hashed as they were read, :attr:`Page.file_sha1`, never re-read when stored)
and the feature version (:func:`feature_version`: the extractor's version and every setting
that changes features), so a renamed or copied file is still a hit, a changed file is
re-extracted, a file rewritten while it was analysed is never given the other version's
features, and a deleted one is simply not asked for.  A second table remembers each path's
size, mtime and SHA-1, so an unchanged file is not even read again; a row is written only from
a stat taken while the file was read or hashed, unchanged from before to after, and only when
the mtime is old enough that a same-size rewrite would change it
(:data:`~dedup_gui.core.pipeline.loading.STAMP_TRUST_NS`, git's "racy clean" rule).  A third table keeps
the measures of page pairs, keyed by the two pages' content hashes.

The cache is a convenience, never a source of failure: a corrupt cache file is deleted and
rebuilt; a locked or unwritable one is bypassed for this scan (see :attr:`FeatureCache.problem`).
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sqlite3
import sys
import time
import zlib
from dataclasses import asdict, fields
from pathlib import Path

import platformdirs

from dedup_gui.core.model import Page, PairScores, ScanSettings
from dedup_gui.core.pipeline.loading import PageReadError, Stamp, open_regular_file, trusted_stamp

#: Bump when extraction, fingerprints or pair measures change what is stored (6: the
#: depth fallback of the fast extractors; long texts aligned at content-defined word boundaries;
#: 7: the fast extractor takes the title, URL and tag sequence from its lexbor tree;
#: 8: features keyed by the hash of the bytes analysed; WHATWG charset labels; attribute bound;
#: 9: the main-content span, and the layout measure over the template;
#: 10: template line hashes without edge marks, the main text's repeated lines;
#: 11: main text without overlays named by a state word, articles in pieces extracted whole,
#: other scripts' commas scored, captions/promos/labels taken out: readability_tuning, page_cleanup;
#: 16: comment threads left out of the tag sequence (comment_threads), and the extraction
#: changes of issue 15's third round: unlikely-named boxes that hold the article kept;
#: 17: no article found: the whole text of the page's own <main>/<article>, not the body's: main_element;
#: 18: the meta refresh target of a redirect page, Page.redirect: extraction.refresh;
#: 19: an immediate redirect (a refresh of <= 1 s) has no usable text: features.IMMEDIATE_REDIRECT;
#: 20: a post's trailing link bar and "Like this:" left out; 21: lxml reads past a stray </html>).
FEATURES_VERSION = "21"
CACHE_FILE = "features-v2.sqlite"
#: Entries unused for this long are pruned (seconds).
MAX_AGE = 60 * 24 * 3600

# "files" held the path stamps before version 8, some written from a stat taken after the
# file was read (possibly of a newer version): dropped, not trusted.
_SCHEMA = """
DROP TABLE IF EXISTS files;
CREATE TABLE IF NOT EXISTS stamps (path BLOB PRIMARY KEY, size INTEGER, mtime_ns INTEGER, sha1 TEXT);
CREATE TABLE IF NOT EXISTS features (sha1 TEXT, version TEXT, data BLOB, used INTEGER,
                                     PRIMARY KEY (sha1, version));
CREATE TABLE IF NOT EXISTS pairs (a TEXT, b TEXT, version TEXT, scores BLOB, used INTEGER,
                                  PRIMARY KEY (a, b, version));
"""
#: The fields stored with the features: not the ones of one file (a copy has others) nor the
#: raw hash, which is the entry's key.
_PER_SCAN = (
    "path",
    "abspath",
    "file_sha1",
    "file_stamp",
    "template_known",
    "template_text",
    "record_offset",
    "record_date",
)
_PAGE_FIELDS = [f.name for f in fields(Page) if f.name not in _PER_SCAN]


def default_cache_dir() -> Path:
    """The cache folder: ``$XDG_CACHE_HOME/dedup-gui`` on Linux, the platform's equivalent
    elsewhere (platformdirs)."""
    return Path(platformdirs.user_cache_dir("dedup-gui", appauthor=False))


#: The libraries whose versions change each extractor's output (readability-lxml is always
#: used: the tag sequence and the title come from its parse).
_EXTRACTOR_LIBRARIES = {"readability": (), "resiliparse": ("resiliparse",), "fast": ("selectolax",)}


def _library_version(name: str) -> str:
    try:
        from importlib.metadata import version

        return version(name)
    except Exception:
        return "?"


def feature_version(settings: ScanSettings) -> str:
    """The cache version of features made with ``settings`` (str): the feature code version,
    the versions of the libraries the chosen extractor uses, and the settings that change
    features.  Upgrading any of those libraries makes every cached page be extracted again."""
    libraries = ("readability-lxml", *_EXTRACTOR_LIBRARIES.get(settings.extractor, ()))
    versions = "-".join(f"{name}{_library_version(name)}" for name in libraries)
    return (
        f"f{FEATURES_VERSION}-{settings.extractor}-{versions}-k{settings.shingle_size}"
        f"-p{settings.num_perm}-t{settings.min_tokens}"
    )


def hash_file(path: str, max_bytes: int) -> tuple[str, Stamp | None] | None:
    """SHA-1 of a file's bytes, with the file's stamp if it can vouch for them.

    The file is opened as pages are (:func:`~dedup_gui.core.pipeline.loading.open_regular_file`: never
    a pipe or device, never blocking) and stat'ed before and after hashing.

    Args:
        path: the file.
        max_bytes: the largest file hashed (bytes).

    Returns:
        ``(sha1_hex, stamp)``: ``stamp`` is the file's ``(size, mtime_ns)``, or ``None`` when
        the mtime is too recent to trust (:func:`~dedup_gui.core.pipeline.loading.trusted_stamp`).
        ``None`` instead of the pair if the file cannot be read, is not a regular file, is
        larger than ``max_bytes``, or changed while it was hashed (the scan then reads it).
    """
    h = hashlib.sha1()
    read_ns = time.time_ns()
    try:
        fh, before = open_regular_file(path)
        with fh:
            if before.st_size > max_bytes:
                return None
            total = 0
            for block in iter(lambda: fh.read(1 << 20), b""):
                total += len(block)
                if total > max_bytes:
                    return None
                h.update(block)
            after = os.fstat(fh.fileno())
    except (OSError, PageReadError):
        return None
    if (before.st_size, before.st_mtime_ns) != (after.st_size, after.st_mtime_ns):
        return None
    return h.hexdigest(), trusted_stamp(before, read_ns)


class FeatureCache:
    """Stores and finds :class:`Page` features by file content.

    Args:
        settings: the scan settings (they decide the feature version).
        folder: cache folder; :func:`default_cache_dir` if ``None``.

    Use as a context manager, or call :meth:`close`.
    """

    def __init__(self, settings: ScanSettings, folder: str | Path | None = None) -> None:
        self.settings = settings
        self.version = feature_version(settings)
        self.folder = Path(folder) if folder else default_cache_dir()
        self.path = self.folder / CACHE_FILE
        self.problem: str | None = None
        self.hits = 0
        self.misses = 0
        self.db: sqlite3.Connection | None = None
        self._last_commit = time.monotonic()
        self._read_only = False  # set when another scan holds the write lock, or the file is read-only
        self._open()

    def _open(self) -> None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            self.db = self._connect()
        except sqlite3.DatabaseError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                self._disable(f"feature cache is locked ({exc}); scanning without it")
                return
            # A corrupt file: start afresh.
            try:
                self.path.unlink(missing_ok=True)
                self.db = self._connect()
                self.problem = f"feature cache was damaged ({exc}) and has been rebuilt"
            except (sqlite3.Error, OSError) as exc2:
                self._disable(f"feature cache unusable ({exc2}); scanning without it")
        except OSError as exc:
            self._disable(f"feature cache folder unusable ({exc.strerror or exc}); scanning without it")

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=2.0, check_same_thread=False)
        try:
            # Write-ahead log: a second scan (another window, the CLI) reads while this one
            # writes, instead of finding the file locked.
            db.execute("PRAGMA journal_mode=WAL")
        except sqlite3.OperationalError:
            pass  # a file system without shared memory: the default journal works too
        db.executescript(_SCHEMA)
        db.execute("SELECT count(*) FROM features").fetchone()  # fails on a corrupt file
        return db

    def _disable(self, why: str) -> None:
        self.problem = why
        if self.db is not None:
            try:
                self.db.close()
            except sqlite3.Error:
                pass
        self.db = None

    def _write(self, sql: str, params) -> None:
        """Run one write; if the cache cannot be written (another scan holds the lock past the
        busy timeout, or the file is read-only), keep reading it and stop writing."""
        if self._read_only:
            return
        assert self.db is not None  # written only while the cache is open
        try:
            self.db.execute(sql, params)
        except sqlite3.OperationalError as exc:
            if not any(word in str(exc) for word in ("locked", "busy", "readonly", "read-only")):
                raise
            self._read_only = True
            self.problem = self.problem or f"feature cache is busy or read-only ({exc}); using it without adding to it"

    def _commit_now_and_then(self) -> None:
        # Short transactions: the write lock is held for a second at most, so another scan of
        # the cache waits briefly (busy timeout) instead of failing, and a crash loses little.
        if self.db is not None and not self._read_only and time.monotonic() - self._last_commit > 1.0:
            try:
                self.db.commit()
            except sqlite3.Error as exc:
                self._disable(f"feature cache failed ({exc}); scanning without it")
            self._last_commit = time.monotonic()

    @property
    def enabled(self) -> bool:
        """``True`` while the cache can be used."""
        return self.db is not None

    def lookup(self, path: str, abspath: str) -> Page | None:
        """The cached page for a file, or ``None`` on a miss.

        Args:
            path: the path to show (the returned page carries it).
            abspath: the file on disk.
        """
        if self.db is None:
            return None
        try:
            st = os.stat(abspath)
            if st.st_size > self.settings.max_file_bytes:
                self.misses += 1
                return None  # the size limit is the scan's to report, cached or not
            key = os.fsencode(abspath)  # bytes: file names need not be valid UTF-8
            row = self.db.execute("SELECT size, mtime_ns, sha1 FROM stamps WHERE path = ?", (key,)).fetchone()
            if row and row[0] == st.st_size and row[1] == st.st_mtime_ns:
                sha1 = row[2]
            else:
                hashed = hash_file(abspath, self.settings.max_file_bytes)
                if hashed is None:
                    self.misses += 1
                    return None
                sha1, stamp = hashed
                if stamp is not None:
                    self._write("INSERT OR REPLACE INTO stamps VALUES (?, ?, ?, ?)", (key, *stamp, sha1))
            found = self.db.execute(
                "SELECT data FROM features WHERE sha1 = ? AND version = ?", (sha1, self.version)
            ).fetchone()
        except (sqlite3.Error, OSError) as exc:
            self._disable(f"feature cache failed ({exc}); scanning without it")
            return None
        return self._hit(found, sha1, path, abspath)

    def lookup_key(self, path: str, abspath: str, key: str) -> Page | None:
        """The cached page of a WARC record, by the key of its payload (``None`` on a miss).

        Args:
            path: the record's shown path (the returned page carries it).
            abspath: the WARC file.
            key: :attr:`~dedup_gui.core.pipeline.walk.ArchiveRecord.key`, computed from the
                record's bytes while the file was listed.
        """
        if self.db is None:
            return None
        try:
            found = self.db.execute(
                "SELECT data FROM features WHERE sha1 = ? AND version = ?", (key, self.version)
            ).fetchone()
        except sqlite3.Error as exc:
            self._disable(f"feature cache failed ({exc}); scanning without it")
            return None
        return self._hit(found, key, path, abspath)

    def _hit(self, found, sha1: str, path: str, abspath: str) -> Page | None:
        """The page of a features row found for ``sha1`` (``None``, a miss, if none or damaged)."""
        if not found:
            self.misses += 1
            return None
        try:
            self._write(
                "UPDATE features SET used = ? WHERE sha1 = ? AND version = ?", (int(time.time()), sha1, self.version)
            )
            values = pickle.loads(zlib.decompress(found[0]))
            # one string object per element name, as a fresh extraction gives (entries written
            # before the names were interned hold one per element: 3x the memory)
            values["tag_sequence"] = tuple(map(sys.intern, values["tag_sequence"]))
            page = Page(path=path, abspath=abspath, file_sha1=sha1, **values)
        except Exception:
            self.misses += 1  # an entry from another version or a damaged row: re-extract
            return None
        self.hits += 1
        self._commit_now_and_then()
        return page

    def store(self, page: Page) -> None:
        """Remember a freshly analysed page under the hash of the file bytes it was made from
        (:attr:`Page.file_sha1`), and the file's stamp from that same read if it is trusted
        (:attr:`Page.file_stamp`).  The file is not read again: it may have changed since.
        A page without a ``file_sha1`` is not stored."""
        if self.db is None or not page.file_sha1:
            return
        try:
            if page.file_stamp is not None:
                row = (os.fsencode(page.abspath), *page.file_stamp, page.file_sha1)
                self._write("INSERT OR REPLACE INTO stamps VALUES (?, ?, ?, ?)", row)
            if self._read_only:
                return
            values = {name: getattr(page, name) for name in _PAGE_FIELDS}
            blob = zlib.compress(pickle.dumps(values, protocol=pickle.HIGHEST_PROTOCOL), 3)
            self._write(
                "INSERT OR REPLACE INTO features VALUES (?, ?, ?, ?)",
                (page.file_sha1, self.version, blob, int(time.time())),
            )
        except (sqlite3.Error, OSError) as exc:
            self._disable(f"feature cache failed ({exc}); scanning without it")
            return
        self._commit_now_and_then()

    def lookup_scores(self, keys: list[tuple[str, str]]) -> dict[tuple[str, str], PairScores]:
        """Cached measures of page pairs, by the pages' content hashes.

        Args:
            keys: ``(sha1_a, sha1_b)`` of :attr:`Page.sha1` values with ``sha1_a < sha1_b``.

        Returns:
            The keys found, with their :class:`PairScores` (the measures are symmetric).
        """
        if self.db is None or not keys:
            return {}
        found: dict[tuple[str, str], PairScores] = {}
        try:
            for start in range(0, len(keys), 400):
                chunk = keys[start : start + 400]
                where = " OR ".join(["(a = ? AND b = ?)"] * len(chunk))
                params = [x for key in chunk for x in key]
                rows = self.db.execute(
                    f"SELECT a, b, scores FROM pairs WHERE version = ? AND ({where})", [self.version, *params]
                ).fetchall()
                for a, b, blob in rows:
                    try:
                        found[(a, b)] = PairScores(**pickle.loads(blob))
                    except Exception:
                        continue  # a damaged row: measure again
        except sqlite3.Error as exc:
            self._disable(f"feature cache failed ({exc}); scanning without it")
            return {}
        return found

    def store_scores(self, items: list[tuple[tuple[str, str], PairScores]]) -> None:
        """Remember the measures of page pairs (keys as in :meth:`lookup_scores`)."""
        if self.db is None or not items or self._read_only:
            return
        now = int(time.time())
        try:
            self.db.executemany(
                "INSERT OR REPLACE INTO pairs VALUES (?, ?, ?, ?, ?)",
                [
                    (a, b, self.version, pickle.dumps(asdict(s), protocol=pickle.HIGHEST_PROTOCOL), now)
                    for (a, b), s in items
                ],
            )
        except sqlite3.Error as exc:
            self._disable(f"feature cache failed ({exc}); scanning without it")

    def commit(self) -> None:
        """Write pending changes and prune entries unused for :data:`MAX_AGE`."""
        if self.db is None or self._read_only:
            return
        try:
            self.db.execute("DELETE FROM features WHERE used < ?", (int(time.time()) - MAX_AGE,))
            self.db.execute("DELETE FROM pairs WHERE used < ?", (int(time.time()) - MAX_AGE,))
            self.db.commit()
        except sqlite3.Error as exc:
            self._disable(f"feature cache failed ({exc}); scanning without it")

    def close(self) -> None:
        """Commit and close the database."""
        self.commit()
        if self.db is not None:
            self.db.close()
            self.db = None

    def __enter__(self) -> FeatureCache:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def clear_cache(folder: str | Path | None = None) -> int:
    """Delete the feature cache.

    Returns:
        The number of bytes freed (int).

    Raises:
        OSError: the file exists but cannot be deleted.
    """
    path = (Path(folder) if folder else default_cache_dir()) / CACHE_FILE
    size = 0
    for p in (path, path.with_name(path.name + "-journal"), path.with_name(path.name + "-wal")):
        if p.exists():
            size += p.stat().st_size
            p.unlink()
    return size
