"""The feature cache: hits on rescans, misses on changes, never fatal."""

import hashlib
import os
import shutil
import sqlite3
from pathlib import Path
from time import time_ns

import pytest

from dedup_gui.core.model import ScanSettings
from dedup_gui.core.pipeline.cache import CACHE_FILE, FeatureCache, clear_cache, default_cache_dir
from dedup_gui.core.pipeline.scan import pair_cache_key, scan_folder

from ..conftest import SAMPLES
from .blocking import finishes_within


def _copy_samples(tmp_path):
    """The sample page files (not the crawl archive: WARC records are cached by payload, test_warc.py)."""
    folder = tmp_path / "pages"
    shutil.copytree(SAMPLES, folder, ignore=shutil.ignore_patterns("*.warc.gz"))
    return folder


def _features(result):
    return [(p.path, p.simhash, p.main_text, p.tag_sequence, p.shingles.tolist()) for p in result.pages]


def test_rescan_comes_from_the_cache_and_equals_the_first_scan(tmp_path):
    folder = _copy_samples(tmp_path)
    settings = ScanSettings(workers=1, cache_dir=str(tmp_path / "cache"))
    first = scan_folder(folder, settings)
    with FeatureCache(settings, settings.cache_dir) as cache:
        hits = [cache.lookup(p.path, p.abspath) for p in first.pages]
    assert all(h is not None for h in hits) and cache.hits == 14
    second = scan_folder(folder, settings)
    assert _features(second) == _features(first)
    assert [(p.left, p.right, p.type) for p in second.pairs] == [(p.left, p.right, p.type) for p in first.pairs]
    # A rescan's seconds alone read as the time a scan takes (a tester's report said 4.8 s of a
    # 37 s site): the report, the CLI summary and the JSON say how many pages the cache gave.
    from dedup_gui.core.reports.model import build_report
    from dedup_gui.core.reports.summary import report_summary
    from dedup_gui.core.reports.write import summary_text

    assert (first.from_cache, second.from_cache) == (0, 14) and len(second.pages) == 14
    assert report_summary(build_report(second)).made.endswith(" s (14 of 14 pages from the feature cache).")
    assert " s (14 of 14 pages from the feature cache)" in summary_text(second)
    assert report_summary(build_report(first)).made.endswith(" s.")


def test_changed_file_is_re_extracted_and_renamed_file_still_hits(tmp_path):
    folder = _copy_samples(tmp_path)
    settings = ScanSettings(workers=1, cache_dir=str(tmp_path / "cache"))
    scan_folder(folder, settings)
    target = folder / "site/articles/river-trail.html"
    target.write_text(
        target.read_text(encoding="utf-8").replace("Sallow River Trail", "Sallow Canal Path"), encoding="utf-8"
    )
    os.rename(folder / "site/articles/cafe-stops.html", folder / "site/articles/cafe-stops-renamed.html")
    with FeatureCache(settings, settings.cache_dir) as cache:
        changed = cache.lookup("x", str(target))
        renamed = cache.lookup("y", str(folder / "site/articles/cafe-stops-renamed.html"))
    assert changed is None  # new content: a miss
    assert renamed is not None and renamed.path == "y"  # same bytes under a new name: a hit
    result = scan_folder(folder, settings)
    page = next(p for p in result.pages if p.path == "site/articles/river-trail.html")
    assert "Sallow Canal Path" in page.main_text


def test_a_corrupt_cache_file_is_rebuilt(tmp_path):
    folder = _copy_samples(tmp_path)
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()
    (cache_dir / CACHE_FILE).write_bytes(b"this is not a database" * 100)
    settings = ScanSettings(workers=1, cache_dir=str(cache_dir))
    with FeatureCache(settings, cache_dir) as cache:
        assert cache.enabled and "rebuilt" in cache.problem
    assert len(scan_folder(folder, settings).pages) == 14


def test_a_locked_cache_is_bypassed(tmp_path):
    folder = _copy_samples(tmp_path)
    settings = ScanSettings(workers=1, cache_dir=str(tmp_path / "cache"))
    scan_folder(folder, settings)
    holder = sqlite3.connect(tmp_path / "cache" / CACHE_FILE)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        result = scan_folder(folder, settings)  # must not fail or hang beyond the busy timeout
        assert len(result.pages) == 14
    finally:
        holder.rollback()
        holder.close()


def test_default_folder_honours_xdg_cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "xdg" / "dedup-gui"
    folder = _copy_samples(tmp_path)
    scan_folder(folder, ScanSettings(workers=1))
    assert (tmp_path / "xdg" / "dedup-gui" / CACHE_FILE).is_file()
    assert clear_cache() > 0
    assert not (tmp_path / "xdg" / "dedup-gui" / CACHE_FILE).exists()


def test_no_cache_writes_nothing(tmp_path):
    folder = _copy_samples(tmp_path)
    scan_folder(folder, ScanSettings(workers=1, use_cache=False, cache_dir=str(tmp_path / "cache")))
    assert not (tmp_path / "cache").exists()


def test_pair_measures_are_cached_by_page_content(tmp_path):
    folder = _copy_samples(tmp_path)
    settings = ScanSettings(workers=1, cache_dir=str(tmp_path / "cache"))
    first = scan_folder(folder, settings)
    keys = [pair_cache_key(first.pages[p.left], first.pages[p.right]) for p in first.pairs]
    with FeatureCache(settings, settings.cache_dir) as cache:
        known = cache.lookup_scores(keys)
    assert set(known) == set(keys)
    assert [known[k] for k in keys] == [p.scores for p in first.pairs]


def test_cache_problems_are_told_in_the_scan_notes(tmp_path):
    folder = _copy_samples(tmp_path)
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()
    (cache_dir / CACHE_FILE).write_bytes(b"junk" * 1000)
    result = scan_folder(folder, ScanSettings(workers=1, cache_dir=str(cache_dir)))
    assert any("rebuilt" in n for n in result.notes)
    from dedup_gui.core.reports.write import summary_text

    assert "note: feature cache was damaged" in summary_text(result)


def test_an_empty_folder_says_so(tmp_path):
    result = scan_folder(tmp_path, ScanSettings(workers=1, use_cache=False))
    assert result.notes == ["no files that could be HTML pages were found in the folder"]


def test_the_size_limit_applies_to_cached_pages_too(tmp_path):
    folder = _copy_samples(tmp_path)
    settings = ScanSettings(workers=1, cache_dir=str(tmp_path / "cache"))
    scan_folder(folder, settings)  # fills the cache
    from dataclasses import replace

    small = scan_folder(folder, replace(settings, max_file_bytes=100))
    assert small.pages == [] and len(small.errors) == 14
    assert all("too large" in e.reason for e in small.errors)


def test_tag_names_are_one_string_object_per_name(tmp_path):
    # Fresh from a worker and from the cache, a page's tag sequence holds one str object per
    # distinct element name (interned), not one per element: ~3x less memory per page.
    folder = _copy_samples(tmp_path)
    settings = ScanSettings(cache_dir=str(tmp_path / "cache"), workers=2)
    for result in (scan_folder(folder, settings), scan_folder(folder, settings)):
        for page in result.pages:
            if page.tag_sequence:
                assert len({id(t) for t in page.tag_sequence}) == len(set(page.tag_sequence)), page.path


def test_a_cancelled_scan_keeps_the_pages_it_analysed(tmp_path):
    # Cancel after the 5th page is read: those 5 pages are in the cache (keyed by content, so a
    # byte-identical copy of one of them hits too), and only the rest need reading again.
    from dedup_gui.core.progress import ScanCancelled

    class CancelAfterFive:
        read = 0

        def update(self, stage, done, total, detail=""):
            if stage.startswith("reading"):
                self.read = done

        def cancelled(self):
            return self.read >= 5

    folder = _copy_samples(tmp_path)
    settings = ScanSettings(workers=1, cache_dir=str(tmp_path / "cache"))
    with pytest.raises(ScanCancelled):
        scan_folder(folder, settings, progress=CancelAfterFive())
    from dedup_gui.core.pipeline.loading import discover

    files = discover(folder).files
    first_five = {hashlib.sha1(Path(f.abspath).read_bytes()).digest() for f in files[:5]}
    expected = sum(hashlib.sha1(Path(f.abspath).read_bytes()).digest() in first_five for f in files)
    with FeatureCache(settings, settings.cache_dir) as cache:
        for f in files:
            cache.lookup(f.path, f.abspath)
    assert cache.hits == expected and 5 <= expected < len(files)


def test_two_scans_share_the_cache(tmp_path):
    # While one connection holds an open write transaction on the cache (another scan storing
    # pages), a second scan still reads its pages from the cache (write-ahead logging); after
    # one busy timeout it stops trying to write, instead of dropping the cache.
    folder = _copy_samples(tmp_path)
    settings = ScanSettings(workers=1, cache_dir=str(tmp_path / "cache"))
    scan_folder(folder, settings)
    other = sqlite3.connect(tmp_path / "cache" / CACHE_FILE)
    other.execute("BEGIN IMMEDIATE")  # a writer that has not committed yet
    other.execute("DELETE FROM pairs WHERE 0")
    try:
        with FeatureCache(settings, settings.cache_dir) as cache:
            cached = [
                cache.lookup(p.path, p.abspath)
                for p in scan_folder(folder, ScanSettings(workers=1, use_cache=False)).pages
            ]
        assert all(c is not None for c in cached)  # every page still comes from the cache
        assert "using it without adding to it" in cache.problem  # and the scan says why it adds nothing
    finally:
        other.rollback()
        other.close()


# --------------------------------------------------------------------------------------------
# The cache never lies: features are stored under the hash of the bytes they were made from.
# --------------------------------------------------------------------------------------------

# Two versions of one page with different titles and texts; OLD_PAGE and SAME_SIZE_NEW have
# the same length, so a rewrite does not change the file's size.
_PARAGRAPHS = "".join(
    f"<p>The {{word}} walk number {i} follows the water for six miles past the old mills, "
    "the lock keeper's cottage and the tea room by the bridge, the guide says.</p>"
    for i in range(5)
)


def _version(title: str, word: str) -> bytes:
    body = _PARAGRAPHS.replace("{word}", word)
    return f"<!DOCTYPE html><html><head><title>{title}</title></head><body><article>{body}</article></body></html>".encode()


OLD_PAGE = _version("Alpha river walk", "river")
SAME_SIZE_NEW = _version("Gamma canal ride", "canal")
OTHER_SIZE_NEW = _version("Gamma canal ride, the long version", "towpath")
assert len(OLD_PAGE) == len(SAME_SIZE_NEW) != len(OTHER_SIZE_NEW)
HOUR_NS = 3600 * 10**9


def _sha1(data: bytes) -> str:
    return hashlib.sha1(data).hexdigest()


def _by_path(result):
    return {p.path: p for p in result.pages}


@pytest.mark.parametrize("new", [SAME_SIZE_NEW, OTHER_SIZE_NEW], ids=["same size", "other size"])
def test_a_file_rewritten_after_it_was_read_never_gets_the_other_versions_features(tmp_path, monkeypatch, new):
    # The file is rewritten after its bytes were read and before its page is stored (here:
    # while the bytes are decoded).  The features made from the old bytes must be stored under
    # the old bytes' hash: a later scan reports the new version for the file, and copies of
    # each version elsewhere get their own version.  (Before: the page was stored under the
    # hash of the file at storing time, i.e. the new bytes, with the old version's features.)
    import dedup_gui.core.pipeline.features as features_mod

    folder = tmp_path / "pages"
    folder.mkdir()
    target = folder / "walk.html"
    target.write_bytes(OLD_PAGE)
    past = time_ns() - HOUR_NS  # an old mtime: the read's stamp is trusted and recorded
    os.utime(target, ns=(past, past))
    real_decode = features_mod.decode_html
    rewritten = []

    def decode_then_rewrite(data, *args):
        if not rewritten and b"Alpha river walk" in data:
            target.write_bytes(new)
            rewritten.append(True)
        return real_decode(data, *args)

    monkeypatch.setattr(features_mod, "decode_html", decode_then_rewrite)
    settings = ScanSettings(workers=1, cache_dir=str(tmp_path / "cache"))
    first = _by_path(scan_folder(folder, settings))
    assert rewritten and first["walk.html"].title == "Alpha river walk"  # what was read
    monkeypatch.setattr(features_mod, "decode_html", real_decode)

    second = _by_path(scan_folder(folder, settings))["walk.html"]
    new_title = "Gamma canal ride" if new is SAME_SIZE_NEW else "Gamma canal ride, the long version"
    assert (second.title, second.sha1) == (new_title, _sha1(new))
    assert "Alpha" not in second.title and "river" not in second.main_text

    copies = tmp_path / "copies"
    copies.mkdir()
    (copies / "old.html").write_bytes(OLD_PAGE)
    (copies / "new.html").write_bytes(new)
    with FeatureCache(settings, settings.cache_dir) as cache:
        old_copy = cache.lookup("old.html", str(copies / "old.html"))
        new_copy = cache.lookup("new.html", str(copies / "new.html"))
    # both versions were analysed once, so both copies come from the cache, each its own
    assert (old_copy.title, old_copy.sha1, old_copy.file_sha1) == ("Alpha river walk", _sha1(OLD_PAGE), _sha1(OLD_PAGE))
    assert (new_copy.title, new_copy.sha1) == (second.title, _sha1(new))
    assert "river walk number 0" in old_copy.main_text and "river" not in new_copy.main_text


def test_a_same_size_rewrite_within_the_same_timestamp_tick_is_seen(tmp_path):
    # A file written just now and rewritten with the same size so fast that its mtime does not
    # change (simulated by setting the mtime back): its stamp was too recent to be recorded
    # ("racy git"), so the rescan hashes the file and sees the new version.
    folder = tmp_path / "pages"
    folder.mkdir()
    target = folder / "walk.html"
    target.write_bytes(OLD_PAGE)
    settings = ScanSettings(workers=1, cache_dir=str(tmp_path / "cache"))
    assert _by_path(scan_folder(folder, settings))["walk.html"].title == "Alpha river walk"
    st = os.stat(target)
    target.write_bytes(SAME_SIZE_NEW)
    os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert (os.stat(target).st_size, os.stat(target).st_mtime_ns) == (st.st_size, st.st_mtime_ns)
    again = _by_path(scan_folder(folder, settings))["walk.html"]
    assert (again.title, again.sha1) == ("Gamma canal ride", _sha1(SAME_SIZE_NEW))


def test_the_stamp_of_a_file_unchanged_for_a_while_spares_hashing_it_again(tmp_path, monkeypatch):
    # The "racy" rule must not switch the stamp table off: a file last changed an hour ago is
    # recognised by its size and mtime alone on a rescan.
    import dedup_gui.core.pipeline.cache as cache_mod

    folder = tmp_path / "pages"
    folder.mkdir()
    (folder / "walk.html").write_bytes(OLD_PAGE)
    (folder / "fresh.html").write_bytes(SAME_SIZE_NEW)
    past = time_ns() - HOUR_NS
    os.utime(folder / "walk.html", ns=(past, past))
    settings = ScanSettings(workers=1, cache_dir=str(tmp_path / "cache"))
    scan_folder(folder, settings)
    hashed = []
    real_hash = cache_mod.hash_file

    def counting_hash(path, limit):
        hashed.append(os.path.basename(path))
        return real_hash(path, limit)

    monkeypatch.setattr(cache_mod, "hash_file", counting_hash)
    with FeatureCache(settings, settings.cache_dir) as cache:
        assert cache.lookup("walk.html", str(folder / "walk.html")).title == "Alpha river walk"
        assert cache.lookup("fresh.html", str(folder / "fresh.html")).title == "Gamma canal ride"
    assert hashed == ["fresh.html"]  # written less than 2 s ago: hashed each time


def test_a_lookup_records_the_stamp_of_the_bytes_it_hashed(tmp_path, monkeypatch):
    # A file (an hour old) is replaced between the lookup's first stat and its hashing, then
    # restored with its old mtime (as rsync -a or cp -p do).  The lookup must not have recorded
    # "old size and mtime -> hash of the replacement": the restored file would then get the
    # replacement's features.
    folder = tmp_path / "pages"
    folder.mkdir()
    target = folder / "walk.html"
    target.write_bytes(OLD_PAGE)
    past = time_ns() - HOUR_NS
    os.utime(target, ns=(past, past))
    settings = ScanSettings(workers=1, cache_dir=str(tmp_path / "cache"))
    other = tmp_path / "other"
    other.mkdir()
    (other / "new.html").write_bytes(OTHER_SIZE_NEW)
    scan_folder(other, settings)  # the replacement's features are in the cache
    real_stat = os.stat
    calls = []

    def stat_then_replace(path, *args, **kwargs):
        result = real_stat(path, *args, **kwargs)
        if os.fspath(path) == str(target):
            calls.append(path)
            if len(calls) == 2:  # after the lookup's own stat, before the file is hashed
                target.write_bytes(OTHER_SIZE_NEW)
        return result

    monkeypatch.setattr(os, "stat", stat_then_replace)
    with FeatureCache(settings, settings.cache_dir) as cache:
        cache.lookup("walk.html", str(target))
    monkeypatch.setattr(os, "stat", real_stat)
    target.write_bytes(OLD_PAGE)
    os.utime(target, ns=(past, past))
    page = _by_path(scan_folder(folder, settings))["walk.html"]
    assert (page.title, page.sha1) == ("Alpha river walk", _sha1(OLD_PAGE))


def test_hash_file_gives_nothing_for_a_file_changing_while_it_is_hashed(tmp_path, monkeypatch):
    # os.fstat before and after hashing differ (the file grew meanwhile): no hash, so no stamp
    # row is recorded for it and the scan reads the file itself.
    from dedup_gui.core.pipeline.cache import hash_file

    target = tmp_path / "walk.html"
    target.write_bytes(OLD_PAGE)
    past = time_ns() - HOUR_NS
    os.utime(target, ns=(past, past))
    assert hash_file(str(target), 10**6) == (_sha1(OLD_PAGE), (len(OLD_PAGE), past))
    real_fstat = os.fstat
    calls = []

    def fstat_then_append(fd):
        result = real_fstat(fd)
        calls.append(fd)
        if len(calls) == 1:
            with open(target, "ab") as fh:
                fh.write(b"<!-- appended -->")
        return result

    monkeypatch.setattr(os, "fstat", fstat_then_append)
    assert hash_file(str(target), 10**6) is None


def test_a_pipe_in_place_of_a_page_does_not_block_the_cache(tmp_path):
    # A FIFO given directly (as if it replaced a page after the folder walk): the lookup must
    # neither open it blocking (it would wait forever for a writer) nor record anything.
    fifo = tmp_path / "pipe.html"
    os.mkfifo(fifo)
    settings = ScanSettings(workers=1, cache_dir=str(tmp_path / "cache"))
    with FeatureCache(settings, settings.cache_dir) as cache:
        assert finishes_within(10, lambda: cache.lookup("pipe.html", str(fifo)), unblock=fifo) is None
    assert cache.misses == 1


def test_pages_analysed_on_dask_are_stored_under_their_own_hash(tmp_path):
    distributed = pytest.importorskip("distributed", reason="the 'distributed' package is not installed")
    folder = _copy_samples(tmp_path)
    settings = ScanSettings(workers=1, cache_dir=str(tmp_path / "cache"))
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        from dataclasses import replace

        remote = scan_folder(folder, replace(settings, dask_scheduler=cluster.scheduler_address))
    assert all(p.file_sha1 == hashlib.sha1((folder / p.path).read_bytes()).hexdigest() for p in remote.pages)
    with FeatureCache(settings, settings.cache_dir) as cache:
        cached = [cache.lookup(p.path, p.abspath) for p in remote.pages]
    assert cache.hits == 14
    assert [(c.path, c.title, c.sha1) for c in cached] == [(p.path, p.title, p.sha1) for p in remote.pages]
