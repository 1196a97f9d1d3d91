"""The feature cache: hits on rescans, misses on changes, never fatal."""

import hashlib
import os
import shutil
import sqlite3

import pytest

from dedup_gui.core.cache import CACHE_FILE, FeatureCache, clear_cache, default_cache_dir
from dedup_gui.core.model import ScanSettings
from dedup_gui.core.scan import scan_folder

from ..conftest import SAMPLES


def _copy_samples(tmp_path):
    folder = tmp_path / "pages"
    shutil.copytree(SAMPLES, folder)
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


def test_changed_file_is_re_extracted_and_renamed_file_still_hits(tmp_path):
    folder = _copy_samples(tmp_path)
    settings = ScanSettings(workers=1, cache_dir=str(tmp_path / "cache"))
    scan_folder(folder, settings)
    target = folder / "site/articles/river-trail.html"
    target.write_text(target.read_text(encoding="utf-8").replace("Sallow River Trail", "Sallow Canal Path"), encoding="utf-8")
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
    keys = [tuple(sorted((first.pages[p.left].sha1, first.pages[p.right].sha1))) for p in first.pairs]
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
    from dedup_gui.core.report import summary_text

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

        def update(self, stage, done, total):
            if stage.startswith("reading"):
                self.read = done

        def cancelled(self):
            return self.read >= 5

    folder = _copy_samples(tmp_path)
    settings = ScanSettings(workers=1, cache_dir=str(tmp_path / "cache"))
    with pytest.raises(ScanCancelled):
        scan_folder(folder, settings, progress=CancelAfterFive())
    from dedup_gui.core.loading import discover

    files = discover(folder).files
    first_five = {hashlib.sha1(open(f.abspath, "rb").read()).digest() for f in files[:5]}
    expected = sum(hashlib.sha1(open(f.abspath, "rb").read()).digest() in first_five for f in files)
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
            cached = [cache.lookup(p.path, p.abspath) for p in scan_folder(folder, ScanSettings(workers=1, use_cache=False)).pages]
        assert all(c is not None for c in cached)  # every page still comes from the cache
        assert "using it without adding to it" in cache.problem  # and the scan says why it adds nothing
    finally:
        other.rollback()
        other.close()
