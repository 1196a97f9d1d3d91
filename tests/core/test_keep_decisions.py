"""The user's keep decisions without a screen: "Keep this page instead" on a result, the choice
surviving a threshold change and a rescan (stored per folder beside the settings, never in the
scanned folder), and the pages table's Screaming Frog columns (near duplicates, closest match,
keep)."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

from dedup_gui.core.model import DupType, KeepPolicy, Thresholds
from dedup_gui.core.pipeline.classify import reclassify
from dedup_gui.core.pipeline.keep_clusters import keep_clusters_of
from dedup_gui.core.views.decisions import (
    FolderDecisions,
    apply_decisions,
    decisions_path,
    folder_key,
    load_decisions,
    policy_keeping,
    rekeep,
    save_decisions,
    with_policy,
)
from dedup_gui.core.views.keep_columns import page_keep_columns
from dedup_gui.core.views.session import keep_cluster_choice
from dedup_gui.core.views.tables import PagesTable
from tests.core.test_keep_clusters import CONTENT, DISTINCT, FULL, page, pair, result_of


def triangle():
    """a, b, c: three full duplicates of one another (the scores classify as full under the
    default thresholds too), d: a distinct page paired with c; e, f: a second keep cluster.
    Every text is as long, every file equally unreadable: the path decides (a.html, e.html)."""
    pages = [page(p) for p in ("a.html", "b.html", "c.html", "d.html", "e.html", "f.html")]
    pairs = [pair(0, 1, FULL, 0.99), pair(0, 2, FULL, 0.96), pair(1, 2, FULL, 0.95), pair(2, 3, DISTINCT, 0.3),
             pair(4, 5, FULL, 0.97)]  # fmt: skip
    return result_of(pages, pairs)


def kept(result) -> list[tuple[str, str, list[str]]]:
    """Each keep cluster as (kept path, reason, dropped paths)."""
    paths = [p.path for p in result.pages]
    return [(paths[k.keep], k.reason, [paths[i] for i in k.duplicates]) for k in keep_clusters_of(result)]


# ---- keep this page instead ---------------------------------------------------------------------


def test_keep_this_page_instead_pins_it_and_replaces_the_clusters_earlier_choice():
    result = triangle()
    assert kept(result) == [("a.html", "first path", ["b.html", "c.html"]), ("e.html", "first path", ["f.html"])]
    policy = policy_keeping(result, 1)
    assert policy.chosen == ("b.html",) and policy.order == KeepPolicy().order
    chosen_b = with_policy(result, policy)
    assert chosen_b.pages is result.pages and chosen_b.keep_policy.chosen == ("b.html",)
    assert kept(chosen_b) == [("b.html", "your choice", ["a.html", "c.html"]), ("e.html", "first path", ["f.html"])]
    # a choice in another keep cluster is added; one in the same keep cluster replaces b
    both = with_policy(chosen_b, policy_keeping(chosen_b, 5))
    assert both.keep_policy.chosen == ("b.html", "f.html")
    then_c = with_policy(both, policy_keeping(both, 2))
    assert then_c.keep_policy.chosen == ("c.html", "f.html")
    assert kept(then_c) == [("c.html", "your choice", ["a.html", "b.html"]), ("f.html", "your choice", ["e.html"])]


def test_keep_instead_refuses_a_page_in_no_keep_cluster():
    result = triangle()
    with pytest.raises(ValueError, match=r"d\.html is in no keep cluster"):
        policy_keeping(result, 3)  # d is only a distinct pair's page
    with pytest.raises(ValueError, match="no page 9"):
        policy_keeping(result, 9)


def test_the_choice_survives_a_threshold_change():
    result = triangle()
    chosen = with_policy(result, policy_keeping(result, 2))
    # re-classification keeps the policy: c is still kept, now under other thresholds
    lower = Thresholds(content_same=0.9)
    again = reclassify(chosen, lower)
    assert again.keep_policy.chosen == ("c.html",) and kept(again)[0] == ("c.html", "your choice", ["a.html", "b.html"])
    # rekeep: a choice made while a threshold change is not shown yet re-classifies the scan
    shown_old = rekeep(result, result, policy_keeping(result, 1), lower)
    assert shown_old.thresholds == lower and kept(shown_old)[0][0] == "b.html"
    same = rekeep(result, result, policy_keeping(result, 1), result.thresholds)
    assert same.thresholds == result.thresholds and same.pairs is result.pairs and kept(same)[0][0] == "b.html"


def test_keep_cluster_choice_filters_the_tables_to_its_pages_and_pairs():
    result = triangle()
    choice = keep_cluster_choice(result, 1, page=2)
    assert choice.label == "Keep cluster 1" and choice.pages == (0, 1, 2)
    assert choice.pairs == [0, 1, 2]  # not the distinct pair c-d: d is no page of the keep cluster
    assert choice.page_pair == 1  # c's first pair among them (a-c)
    assert keep_cluster_choice(result, 3) is None and keep_cluster_choice(None, 1) is None


# ---- stored per folder --------------------------------------------------------------------------


def test_decisions_are_stored_per_folder_by_a_hash_of_its_resolved_path(tmp_path):
    base, site = tmp_path / "config" / "folders", tmp_path / "site"
    (site / "sub").mkdir(parents=True)
    (site / "a.html").write_text("<p>a</p>")
    before = sorted(p.name for p in site.rglob("*"))
    resolved = str(site.resolve())
    assert folder_key(site / "sub" / "..") == folder_key(site) == hashlib.sha256(resolved.encode()).hexdigest()[:24]
    assert load_decisions(base, site) == (FolderDecisions(resolved), "")  # nothing stored yet
    written = save_decisions(base, FolderDecisions(resolved, ("b.html", "a.html", "b.html")))
    assert written == decisions_path(base, site) == base / f"{folder_key(site)}.json"
    assert json.loads(written.read_text()) == {
        "version": 3,
        "folder": resolved,
        "chosen": ["a.html", "b.html"],
        "not_duplicates": [],
        "keep_rule": None,  # the default rule
    }
    assert load_decisions(base, str(site) + "/sub/..") == (FolderDecisions(resolved, ("a.html", "b.html")), "")
    assert sorted(p.name for p in site.rglob("*")) == before  # the scanned folder is never written
    other = tmp_path / "other"
    other.mkdir()
    assert load_decisions(base, other)[0].chosen == ()


def test_an_unreadable_decisions_file_is_kept_aside_and_gives_no_choices(tmp_path):
    base, site = tmp_path / "folders", tmp_path / "site"
    site.mkdir()
    path = decisions_path(base, site)
    base.mkdir()
    path.write_text('{"chosen": "a.html"}')  # a string, not a list
    decisions, note = load_decisions(base, site)
    assert decisions.chosen == () and "unreadable ('chosen' is not a list of paths)" in note
    aside = path.with_name(path.name + ".unreadable")
    assert not path.exists() and aside.read_text() == '{"chosen": "a.html"}'
    path.write_text("not json")
    assert load_decisions(base, site)[0].chosen == () and aside.exists()


def test_stored_choices_apply_to_a_rescan_of_the_folder(tmp_path):
    result = triangle()
    policy = policy_keeping(result, 1)
    save_decisions(tmp_path, FolderDecisions(result.root, policy.chosen))
    rescanned = triangle()  # a new scan of the same folder, with the default policy
    decisions, _ = load_decisions(tmp_path, rescanned.root)
    applied = apply_decisions(rescanned, decisions)
    assert kept(applied)[0] == ("b.html", "your choice", ["a.html", "c.html"])
    assert apply_decisions(rescanned, FolderDecisions(rescanned.root)) is rescanned
    gone = apply_decisions(rescanned, FolderDecisions(rescanned.root, ("moved.html",)))  # matches no page
    assert kept(gone)[0][0] == "a.html"


# ---- the pages table's columns ------------------------------------------------------------------


def test_page_keep_columns_exact_values():
    pages = [page(p) for p in ("a.html", "b.html", "c.html", "d.html", "e.html")]
    pairs = [pair(0, 1, FULL, 0.99), pair(1, 2, CONTENT, 0.9), pair(0, 2, CONTENT, 0.92), pair(2, 3, DISTINCT, 0.3)]
    result = result_of(pages, pairs)
    columns = page_keep_columns(result)
    assert columns.near_duplicates.tolist() == [2, 2, 2, 0, 0]
    assert np.allclose(columns.closest_similarity, [0.99, 0.99, 0.92, 0.3, -1.0])
    assert columns.closest_page.tolist() == [1, 0, 0, 2, -1]
    assert columns.kept_page.tolist() == [0, 0, 0, -1, -1]

    table = PagesTable()
    table.set_result(result)
    assert table.COLUMNS[8:] == ("Near\nduplicates", "Closest match", "Keep", "Canonical")
    assert [table.display(r, 8) for r in range(5)] == ["2", "2", "2", "0", "0"]
    assert [table.display(r, 9) for r in range(5)] == [
        "0.990 b.html",
        "0.990 a.html",
        "0.920 a.html",
        "0.300 c.html",
        "",
    ]
    assert [table.display(r, 10) for r in range(5)] == ["kept", "duplicate of a.html", "duplicate of a.html", "", ""]
    assert table.sort_keys(9).tolist() == pytest.approx([0.99, 0.99, 0.92, 0.3, -1.0])
    table.sort(9)
    # by similarity, ties in the result's order (as text, "0.990 a.html" of b would come before a)
    assert table.rows_of(range(5)) == [3, 4, 2, 1, 0]
    table.sort(-1)
    # after "keep this page instead" on c, the Keep column follows
    table.update_result(with_policy(result, policy_keeping(result, 2)))
    assert [table.display(r, 10) for r in range(5)] == ["duplicate of c.html", "duplicate of c.html", "kept", "", ""]


def test_a_page_with_only_layout_or_partial_duplicates_is_kept_with_a_word_not_a_blank():
    # A tester read the real site's blank Keep cells as missing data: 103 pages with near
    # duplicates, all layout or partial ones, so in no keep cluster and nothing to drop.
    pages = [page(p) for p in ("a.html", "b.html", "c.html")]
    result = result_of(pages, [pair(0, 1, DupType.LAYOUT, 0.4), pair(1, 2, DISTINCT, 0.1)])
    table = PagesTable()
    table.set_result(result)
    assert [table.display(r, 10) for r in range(3)] == [
        "kept (no full or content duplicate)", "kept (no full or content duplicate)", ""]  # fmt: skip


def test_page_keep_columns_of_a_result_without_pairs():
    result = result_of([page("a.html")], [])
    columns = page_keep_columns(result)
    assert columns.near_duplicates.tolist() == [0] and columns.closest_page.tolist() == [-1]
    assert columns.kept_page.tolist() == [-1]


def test_a_page_to_drop_selects_its_pair_with_the_kept_page():
    # The real site: the tree said "drop: content duplicate of v1.16.x/…, which is kept" for a
    # v1.11.x page, and the inspector showed v1.11.x against v1.11.x/zh (its most similar pair).
    pages = [page(p) for p in ("a.html", "b.html", "c.html")]
    result = result_of(pages, [pair(1, 2, FULL, 0.99), pair(0, 1, FULL, 0.98), pair(0, 2, FULL, 0.96)])
    assert kept(result)[0][0] == "a.html"
    assert keep_cluster_choice(result, 1, page=2).page_pair == 2  # a-c, not b-c
    assert keep_cluster_choice(result, 1, page=0).page_pair == 1  # the kept page: its first pair
