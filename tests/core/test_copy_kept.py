"""Copy the kept pages to a new folder: the tree kept, only the kept pages (and the files that
are not pages) written, nothing else written anywhere, and the input folder untouched."""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import replace

import pytest

from dedup_gui.core.model import KeepPolicy, ScanSettings
from dedup_gui.core.pipeline.scan import scan_folder
from dedup_gui.core.progress import NullProgress, ScanCancelled
from dedup_gui.core.reports.copy_kept import check_destination, copy_kept, copy_plan, suggest_destination
from tests.conftest import SAMPLES

#: The pages the sample scan's keep plan drops (README "Keep clusters"; test_report's keep CSV).
DROPPED = [
    "print/night-ride-safety.html",
    "site/archive/winter-maintenance.html",
    "site/articles/river-trail.html",
    "zh/spring-tea-picking-gbk.html",
]


def tree(folder) -> dict[str, str]:
    """Every file under ``folder`` (links not followed) by relative path: its SHA-1, or
    ``"link -> target"`` for a symbolic link."""
    found = {}
    for base, dirs, files in os.walk(folder):
        for name in files + [d for d in dirs if os.path.islink(os.path.join(base, d))]:
            path = os.path.join(base, name)
            rel = os.path.relpath(path, folder).replace(os.sep, "/")
            if os.path.islink(path):
                found[rel] = f"link -> {os.readlink(path)}"
            else:
                with open(path, "rb") as f:
                    found[rel] = hashlib.sha1(f.read()).hexdigest()
    return found


def test_the_copy_of_the_samples_keeps_the_tree_and_leaves_out_only_the_dropped_pages(sample_scan, tmp_path):
    before = tree(SAMPLES)
    out = tmp_path / "out" / "deduplicated"
    report = copy_kept(sample_scan, out)
    assert report.destination == str(out.resolve())
    assert list(report.plan.dropped) == DROPPED and report.plan.left_out == ()
    written = tree(out)
    # every file of the input but the dropped pages, at the same path, with the same bytes
    assert written == {path: digest for path, digest in before.items() if path not in DROPPED}
    assert set(report.plan.pages) | set(report.plan.other_files) == set(written)
    assert "site/style.css" in report.plan.other_files and "README.md" in report.plan.other_files
    assert report.bytes_written == sum((SAMPLES / p).stat().st_size for p in written)
    assert report.text().startswith(f"Wrote {len(report.plan.pages)} pages and {len(report.plan.other_files)} other")
    # the crawl archive's duplicate record (a page crawled at two URLs) stays in it: an archive
    # is copied whole, and says so
    assert report.plan.archives == ("warc/trail-crawl.warc.gz",)
    assert "warc/trail-crawl.warc.gz" in report.plan.other_files
    assert not any("#" in p for p in (*report.plan.pages, *report.plan.dropped))
    assert report.text().endswith(
        "left out 4 duplicate pages. 1 crawl archive copied whole (duplicate records are not taken out of an archive)."
    )
    # modification times kept; nothing else written beside the copy; the input untouched
    page = "site/articles/night-ride-safety.html"
    assert (out / page).stat().st_mtime_ns == (SAMPLES / page).stat().st_mtime_ns
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["deduplicated"]
    assert tree(SAMPLES) == before


def test_the_copy_follows_the_users_keep_decisions(sample_scan, tmp_path):
    # a reference folder keeps the print copy: the site's page is dropped instead
    chosen = replace(sample_scan, keep_policy=KeepPolicy(reference_folders=("print",)))
    plan = copy_plan(chosen)
    assert "print/night-ride-safety.html" in plan.pages
    assert "site/articles/night-ride-safety.html" in plan.dropped


def test_a_destination_inside_the_folder_or_not_empty_is_refused_and_nothing_is_written(sample_scan, tmp_path):
    for inside in (SAMPLES, SAMPLES / "site" / "copy", SAMPLES / ".." / "samples" / "x"):
        with pytest.raises(ValueError, match="outside the scanned folder"):
            copy_kept(sample_scan, inside)
    assert not (SAMPLES / "site" / "copy").exists() and not (SAMPLES / "x").exists()
    full = tmp_path / "full"
    full.mkdir()
    (full / "mine.txt").write_text("keep me")
    with pytest.raises(ValueError, match="is not empty"):
        copy_kept(sample_scan, full)
    with pytest.raises(ValueError, match="is a file"):
        check_destination(SAMPLES, full / "mine.txt")
    assert tree(full) == {"mine.txt": hashlib.sha1(b"keep me").hexdigest()}
    empty = tmp_path / "empty"
    empty.mkdir()
    assert check_destination(SAMPLES, empty) == empty.resolve()  # an empty folder is fine


class CancelAfter(NullProgress):
    def __init__(self, updates: int) -> None:
        self.left = updates

    def update(self, stage: str, done: int, total: int) -> None:
        self.left -= 1

    def cancelled(self) -> bool:
        return self.left <= 0


def test_the_suggested_destination_is_a_new_name_beside_the_scan(tmp_path):
    # "<name>-kept", and the next number while that name is a file or a folder with files in it
    site = tmp_path / "site"
    site.mkdir()
    assert suggest_destination(site) == tmp_path / "site-kept"
    (tmp_path / "site-kept").mkdir()
    assert suggest_destination(site) == tmp_path / "site-kept"  # empty: the copy may use it
    (tmp_path / "site-kept" / "x.html").write_text("x")
    (tmp_path / "site-kept-2").write_text("a file")
    assert suggest_destination(site) == tmp_path / "site-kept-3"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site", "site-kept", "site-kept-2"]  # nothing made


def test_a_cancelled_copy_leaves_nothing_behind(sample_scan, tmp_path):
    with pytest.raises(ScanCancelled):
        copy_kept(sample_scan, tmp_path / "copy", CancelAfter(1))
    assert list(tmp_path.iterdir()) == []


def test_links_and_special_files_are_left_out_and_listed(tmp_path):
    site = tmp_path / "site"
    (site / "v2").mkdir(parents=True)
    body = "<html><body><p>" + " ".join(f"word{i}" for i in range(80)) + "</p></body></html>"
    (site / "v2" / "a.html").write_text(body)
    (site / "v1").mkdir()
    (site / "v1" / "a.html").write_text(body)
    (site / "latest").symlink_to("v2", target_is_directory=True)
    before = tree(site)
    result = scan_folder(site, ScanSettings(workers=1, use_cache=False))
    report = copy_kept(result, tmp_path / "copy")
    assert report.plan.dropped == ("v1/a.html",) and report.plan.pages == ("v2/a.html",)
    assert report.plan.left_out == ("latest/",)
    assert tree(tmp_path / "copy") == {"v2/a.html": before["v2/a.html"]}
    assert report.text() == (
        f"Wrote 1 page and 0 other files ({len(body)} bytes); left out 1 duplicate page and 1 link or special file."
    )
    assert tree(site) == before


def test_the_destination_keeps_its_permissions_and_folders_their_times(tmp_path):
    # The staging folder is made 0700 by mkdtemp and renamed into place: the user's 0755
    # destination became 0700, and every folder had the copy's time, not its source's.
    site = tmp_path / "site"
    (site / "v1").mkdir(parents=True)
    (site / "v2" / "deep").mkdir(parents=True)
    body = "<html><body><p>" + " ".join(f"word{i}" for i in range(80)) + "</p></body></html>"
    (site / "v1" / "a.html").write_text(body)
    (site / "v2" / "a.html").write_text(body)
    (site / "v2" / "deep" / "style.css").write_text("p { color: red }")
    times = {"v2": 1_100_000_000, "v2/deep": 1_200_000_000}  # 2004 and 2008, in s
    for folder, when in times.items():
        os.utime(site / folder, (when, when))
    result = scan_folder(site, ScanSettings(workers=1, use_cache=False))
    made = tmp_path / "made"
    made.mkdir()
    made.chmod(0o755)
    copy_kept(result, made)
    assert stat.S_IMODE(made.stat().st_mode) == 0o755
    assert sorted(p.name for p in made.iterdir()) == ["v2"]  # v1/a.html is the dropped duplicate
    assert (made / "v2").stat().st_mtime_ns == times["v2"] * 10**9
    assert (made / "v2" / "deep").stat().st_mtime_ns == times["v2/deep"] * 10**9
    # a destination the copy makes gets a plain mkdir's permissions: 0777 less the umask
    old_umask = os.umask(0o027)
    try:
        copy_kept(result, tmp_path / "new" / "copy")
    finally:
        os.umask(old_umask)
    assert stat.S_IMODE((tmp_path / "new" / "copy").stat().st_mode) == 0o750
    assert (tmp_path / "new" / "copy" / "v2" / "deep").stat().st_mtime_ns == times["v2/deep"] * 10**9


def test_the_command_line_copies_the_kept_pages(tmp_path):
    from tests.test_cli import run

    before = tree(SAMPLES)
    out = tmp_path / "copy"
    proc = run("scan", str(SAMPLES), "--copy-kept", str(out), "--no-cache")
    assert proc.returncode == 0, proc.stderr
    assert (
        f"copied to {out}. Wrote " in proc.stdout
        and "left out 4 duplicate pages. 1 crawl archive copied whole" in proc.stdout
    )
    assert set(tree(out)) == set(before) - set(DROPPED)
    # a destination inside the scanned folder is refused before the scan, and nothing is written
    inside = run("scan", str(SAMPLES), "--copy-kept", str(SAMPLES / "deduplicated"))
    assert inside.returncode == 2 and "must be written outside the scanned folder" in inside.stderr
    assert tree(SAMPLES) == before
