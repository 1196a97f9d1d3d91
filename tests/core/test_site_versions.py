"""The version aliases of mike's ``versions.json`` in the keep advice, when the site's alias
links were lost (a mirror, an archive, a copy deploy): the file says which version is ``stable``
and which is ``dev``, so the unreleased version with the highest number is not kept.

Found on the real site (kubeovn, whose ``versions.json`` names ``v1.17.x (dev)``): without its
``stable``/``dev`` links, the advice kept ``v1.17.x`` over the released ``v1.16.x``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dedup_gui.core.model import ScanSettings
from dedup_gui.core.pipeline.keep import version_rank
from dedup_gui.core.pipeline.keep_clusters import build_keep_clusters
from dedup_gui.core.pipeline.scan import scan_folder
from dedup_gui.core.pipeline.site_versions import MAX_VERSIONS_BYTES, parse_mike_versions, read_version_aliases
from tests.core.test_keep_clusters import same_time
from tests.core.test_keep_version_links import GUIDE

#: kubeovn's versions.json, shortened: v3 is the dev version, v2 the stable one.
MIKE = [
    {"version": "v3", "title": "v3 (dev)", "aliases": ["dev"]},
    {"version": "v2", "title": "v2 (stable)", "aliases": ["current", "stable"]},
    {"version": "v1", "title": "v1", "aliases": []},
]


def _site(root: Path, folders: tuple[str, ...], versions: object = MIKE) -> Path:
    html = f"<!DOCTYPE html><html><head><title>Guide</title></head><body>{GUIDE}</body></html>".encode()
    for folder in folders:
        (root / folder / "guide").mkdir(parents=True)
        (root / folder / "guide" / "a.html").write_bytes(html)
    if versions is not None:
        (root / "versions.json").write_text(json.dumps(versions), encoding="utf-8")
    return root


def _kept(root: Path, tmp_path: Path) -> tuple[list[tuple[str, list[str]]], list[str]]:
    result = scan_folder(root, ScanSettings(workers=1, use_cache=False, cache_dir=str(tmp_path / "cache")))
    paths = [p.path for p in result.pages]
    kept = [(paths[k.keep], [paths[d] for d in k.duplicates]) for k in build_keep_clusters(result, same_time)]
    return kept, result.notes


def test_versions_json_keeps_the_stable_version_over_the_dev_one_without_links(tmp_path: Path) -> None:
    # No links: by numbers alone v3 is the newest released version, and the old rule kept it.
    kept, _ = _kept(_site(tmp_path / "site", ("v1", "v2", "v3")), tmp_path)
    assert kept == [("v2/guide/a.html", ["v1/guide/a.html", "v3/guide/a.html"])]


def test_an_alias_folder_copied_in_full_ranks_as_its_alias(tmp_path: Path) -> None:
    # A copy deploy: stable/ and dev/ are folders holding v2's and v3's pages. stable/ is the
    # address readers are sent to (kept); dev/ ranks with v3, after the released v1.
    kept, _ = _kept(_site(tmp_path / "site", ("v1", "v3", "dev", "stable")), tmp_path)
    assert kept == [("stable/guide/a.html", ["dev/guide/a.html", "v1/guide/a.html", "v3/guide/a.html"])]
    aliases = {"dev/": "v3/", "stable/": "v2/"}
    assert version_rank("dev/guide/a.html", (), aliases) == (2, (-3,)) == version_rank("v3/guide/a.html", (), aliases)


def test_without_versions_json_the_highest_number_is_kept(tmp_path: Path) -> None:
    # What the rule does with no word from the site: the control for the first test.
    kept, _ = _kept(_site(tmp_path / "site", ("v1", "v2", "v3"), versions=None), tmp_path)
    assert kept == [("v3/guide/a.html", ["v1/guide/a.html", "v2/guide/a.html"])]


def test_parse_mike_versions_maps_aliases_to_folders_and_drops_unsafe_names() -> None:
    text = json.dumps(
        [
            {"version": "2.0", "aliases": ["latest", "../etc", "a/b", "", 7, "2.0"]},
            {"version": "../up", "aliases": ["stable"]},  # not one folder name: ignored
            {"title": "no version"},
            {"version": "1.0", "aliases": "stable"},  # aliases not a list: ignored
        ]
    )
    assert parse_mike_versions(text, "docs/") == {"docs/latest/": "docs/2.0/"}
    with pytest.raises(ValueError):
        parse_mike_versions('{"versions": []}')


def test_a_broken_or_huge_versions_json_is_a_note_and_the_scan_goes_on(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "versions.json").write_bytes(b"[{\xff")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "versions.json").write_bytes(b" " * (MAX_VERSIONS_BYTES + 1))
    (tmp_path / "versions.json").write_text(json.dumps(MIKE[:1]), encoding="utf-8")
    aliases, notes = read_version_aliases(
        str(tmp_path), ["a/versions.json", "b/versions.json", "versions.json", "x.css"]
    )
    assert aliases == {"dev/": "v3/"}
    assert [n.split(":")[0] for n in notes] == ["a/versions.json", "b/versions.json"]
    assert "larger than 1,048,576 bytes" in notes[1]
    kept, scan_notes = _kept(_site(tmp_path / "site", ("v1", "v2"), versions={"not": "a list"}), tmp_path)
    assert kept == [("v2/guide/a.html", ["v1/guide/a.html"])]
    assert "versions.json: version aliases not read (not a list of versions)" in scan_notes
