"""The Re-prioritize dialog's state without a screen: the criteria reordered, enabled and
disabled, the pattern and the reference folders turned into a keep policy; applying it re-runs
only the keep stage, and the rule is stored per folder and applied to a rescan."""

from __future__ import annotations

import json

import pytest

from dedup_gui.core.model import CRITERIA, DEFAULT_ORDER, KeepPolicy
from dedup_gui.core.views.decisions import apply_decisions, decisions_of, load_decisions, save_decisions, with_policy
from dedup_gui.core.views.reprioritize import ReprioritizeState
from tests.core.test_keep_clusters import FULL, page, pair, result_of
from tests.core.test_keep_decisions import kept


def versions():
    """v1/a.html (the longer text) and v2/a.html: one document in two version folders, full
    duplicates; the default rule keeps v2 (newest version folder), longest content keeps v1."""
    pages = [page("v1/a.html", "a long text " * 20), page("v2/a.html", "a text")]
    return result_of(pages, [pair(0, 1, FULL, 0.97)])


def test_the_state_starts_from_the_policy_enabled_criteria_first():
    state = ReprioritizeState(KeepPolicy(), "/x")
    assert state.criteria() == [*DEFAULT_ORDER, "pattern", "shortest_url", "newest_file"]
    assert state.order() == DEFAULT_ORDER and not state.enabled("pattern") and state.enabled("version")
    assert sorted(state.criteria()) == sorted(CRITERIA)
    assert state.label("version").startswith("newest version folder: ")


def test_moving_and_disabling_criteria_gives_the_policy_order():
    state = ReprioritizeState(KeepPolicy(), "/x")
    assert state.move_up(2) == 1  # longest_content above version
    assert state.order() == ("canonical", "longest_content", "version", "oldest_file")
    assert state.move_up(0) == 0 and state.move_down(6) == 6  # clamped at the ends
    state.set_enabled("canonical", False)
    state.set_enabled("shortest_url", True)
    assert state.order() == ("longest_content", "version", "oldest_file", "shortest_url")
    assert state.move(5, 0) == 0  # a drag of shortest_url to the top
    assert state.policy().order == ("shortest_url", "longest_content", "version", "oldest_file")
    state.set_keys(list(reversed(state.criteria())))  # a drop gives the whole list back
    assert state.order() == ("oldest_file", "version", "longest_content", "shortest_url")
    with pytest.raises(ValueError, match="each appear once"):
        state.set_keys(["canonical"])
    with pytest.raises(KeyError, match="no keep criterion 'size'"):
        state.set_enabled("size", True)
    state.reset()
    assert state.policy() == KeepPolicy()


def test_the_state_refuses_an_empty_rule_and_a_pattern_criterion_without_a_pattern():
    state = ReprioritizeState(KeepPolicy(chosen=("v1/a.html",)), "/x")
    for key in CRITERIA:
        state.set_enabled(key, False)
    assert state.problems() == ["Enable at least one criterion."]
    state.set_enabled("pattern", True)
    with pytest.raises(ValueError, match="Type a pattern"):
        state.policy()
    state.pattern = " v1/* "
    policy = state.policy()
    assert policy.order == ("pattern",) and policy.pattern == "v1/*" and policy.chosen == ("v1/a.html",)


def test_typing_a_pattern_ticks_its_criterion_at_the_top_and_clearing_it_unticks_it():
    # The pattern criterion is off by default: a typed pattern did nothing, and nothing said so.
    state = ReprioritizeState(KeepPolicy(), "/x")
    assert state.set_pattern("s") is True  # the first character ticks it, at the top
    assert state.order() == ("pattern", *DEFAULT_ORDER)
    assert state.set_pattern("site/*") is False  # further typing changes nothing else
    assert state.policy().pattern == "site/*" and state.policy().order[0] == "pattern"
    assert state.set_pattern("  ") is True  # cleared: unticked, its place kept
    assert state.order() == DEFAULT_ORDER and state.criteria()[0] == "pattern" and state.problems() == []
    # placed by the user and on: typing leaves its tick and place alone
    state.set_enabled("pattern", True)
    state.move(0, 3)
    assert state.set_pattern("v1/*") is False
    assert state.order() == ("canonical", "version", "longest_content", "pattern", "oldest_file")


def test_reference_folders_must_lie_inside_the_scanned_folder(tmp_path):
    (tmp_path / "site" / "v1" / "sub").mkdir(parents=True)
    state = ReprioritizeState(KeepPolicy(), tmp_path / "site")
    assert state.add_reference_folder(tmp_path / "site" / "v1" / "sub") == "v1/sub"
    assert state.add_reference_folder("v1") == "v1"  # relative to the scanned folder
    with pytest.raises(ValueError, match="already a reference folder"):
        state.add_reference_folder("v1/sub/..")
    with pytest.raises(ValueError, match="not inside the scanned folder"):
        state.add_reference_folder(tmp_path)
    with pytest.raises(ValueError, match="the scanned folder itself"):
        state.add_reference_folder(tmp_path / "site")
    state.remove_reference_folder("v1/sub")
    assert state.reference_folders() == ("v1",) and state.policy().reference_folders == ("v1",)


def test_a_reference_folder_missing_from_the_scanned_folder_is_refused(tmp_path):
    # A typo ("nope/none") would otherwise be stored and keep nothing, without a word.
    (tmp_path / "site" / "v1").mkdir(parents=True)
    (tmp_path / "site" / "a.html").write_text("<p>a</p>")
    state = ReprioritizeState(KeepPolicy(), tmp_path / "site")
    with pytest.raises(ValueError, match="there is no folder nope/none in the scanned folder"):
        state.add_reference_folder("nope/none")
    with pytest.raises(ValueError, match="there is no folder a.html in the scanned folder"):
        state.add_reference_folder("a.html")  # a file, not a folder
    assert state.reference_folders() == ()
    # A scanned folder that is not on this disk (a result opened elsewhere) cannot be checked.
    assert ReprioritizeState(KeepPolicy(), tmp_path / "gone").add_reference_folder("v9") == "v9"


def test_a_reordered_rule_changes_the_kept_page_without_touching_the_pairs():
    result = versions()
    assert kept(result) == [("v2/a.html", "newest version folder", ["v1/a.html"])]
    state = ReprioritizeState(result.keep_policy, "/x")
    state.move(state.criteria().index("longest_content"), 0)
    rekept = with_policy(result, state.policy())
    assert rekept.pairs is result.pairs and rekept.pages is result.pages  # only the keep stage re-ran
    assert kept(rekept) == [("v1/a.html", "longest main content", ["v2/a.html"])]
    state = ReprioritizeState(result.keep_policy, "/x")
    state.add_reference_folder("v1")
    assert kept(with_policy(result, state.policy())) == [("v1/a.html", "reference folder", ["v2/a.html"])]


def test_the_rule_is_stored_per_folder_and_applied_to_a_rescan(tmp_path):
    result = versions()
    state = ReprioritizeState(result.keep_policy, "/x")
    state.move(state.criteria().index("longest_content"), 0)
    state.add_reference_folder("v3")
    decided = with_policy(result, state.policy())
    written = save_decisions(tmp_path, decisions_of("/x", decided))
    assert json.loads(written.read_text())["keep_rule"] == {
        "order": ["longest_content", "canonical", "version", "oldest_file"],
        "pattern": "",
        "reference_folders": ["v3"],
    }
    decisions, note = load_decisions(tmp_path, "/x")
    assert note == "" and decisions.keep_rule == KeepPolicy(
        order=("longest_content", "canonical", "version", "oldest_file"), reference_folders=("v3",)
    )
    rescanned = apply_decisions(versions(), decisions)  # a new scan: the default rule, until applied
    assert rescanned.keep_policy.order[0] == "longest_content"
    assert kept(rescanned) == [("v1/a.html", "longest main content", ["v2/a.html"])]
    # the default rule is stored as null, and a rule with unknown criteria is set aside
    save_decisions(tmp_path, decisions_of("/x", result))
    assert json.loads(written.read_text())["keep_rule"] is None
    data = json.loads(written.read_text())
    data["keep_rule"] = {"order": ["size"], "pattern": "", "reference_folders": []}
    written.write_text(json.dumps(data))
    decisions, note = load_decisions(tmp_path, "/x")
    assert decisions.keep_rule is None and "keep criteria must be distinct names" in note
