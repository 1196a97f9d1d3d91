"""The main window's session and status lines without Qt (:mod:`dedup_gui.core.views.session`):
what a scan says when it ends, the tab titles, the histogram and cluster filters, and the
folder/previous-result bookkeeping of a scan that is cancelled or fails.  No QApplication."""

from __future__ import annotations

import dataclasses

import pytest

from dedup_gui.core.extraction.extract import EXTRACTORS
from dedup_gui.core.model import ScanSettings, Thresholds
from dedup_gui.core.progress import SCAN_STAGES, STAGE_CACHE
from dedup_gui.core.reports.model import build_report
from dedup_gui.core.views.session import (
    APP_NAME,
    Session,
    ShownScan,
    cluster_choice,
    distance_filter,
    remembered_scan_settings,
    scan_end_text,
    scan_stages,
    scanning_text,
    summarize,
    tab_title,
)
from tests.core.views_fixtures import ties


def test_summarize_counts_pages_other_files_duplicates_clusters_errors_and_notes():
    # 5 pages and 1 error; 4 of the 5 pairs are duplicates (pair 1 is distinct).
    result = dataclasses.replace(ties(errors=("bad.html",)), elapsed=2.345, notes=["cache rebuilt"])
    # The command line's words: the group (any chain of pairs) and the keep cluster are named apart
    # (a tester read "4 duplicate pairs in 1 cluster" beside "Pairs (5)" and a keep-cluster count).
    assert summarize(result) == ("Scanned 5 pages: 4 duplicate pairs of 5 compared; 1 near-duplicate group, "
                                 "1 keep cluster (4 pages to drop); 1 error (2.3 s). Note: cache rebuilt")  # fmt: skip
    # pages, then the other files skipped, as the command line's "pages:" line counts them (a
    # tester read "Scanned 1,422 files" in the window and "1422 pages ...; 44 other files
    # skipped" from the command line for the same scan)
    skipped = dataclasses.replace(result, skipped=["style.css", "logo.png"])
    assert summarize(skipped).startswith("Scanned 5 pages plus 2 other files: 4 duplicate pairs of 5 compared; ")
    assert summarize(dataclasses.replace(result, skipped=["a.css"])).startswith("Scanned 5 pages plus 1 other file: ")


def test_scan_stages_skip_the_cache_lookup_without_the_cache():
    assert scan_stages(ScanSettings(use_cache=True)) == SCAN_STAGES
    without = scan_stages(ScanSettings(use_cache=False))
    assert [name for name, _ in without] == [name for name, _ in SCAN_STAGES if name != STAGE_CACHE]
    assert len(without) == len(SCAN_STAGES) - 1


def test_tab_titles_and_scan_end_lines():
    assert tab_title("Pairs", 1234, 1234) == "Pairs (1,234)"
    assert tab_title("Pages", 12, 1234) == "Pages (12 of 1,234)"
    # Issue 20: a cancelled scan of B said "Scan cancelled" and showed nothing; the line now
    # names the folder scanned and the one whose results are shown again.
    assert scan_end_text("cancelled", "/s/b") == "Scan of b cancelled"
    assert scan_end_text("cancelled", "/s/b", "/s/a") == "Scan of b cancelled: showing the last results, of a"
    assert scan_end_text("cancelled", "/s/a", "/s/a") == "Rescan of a cancelled: showing its last results"
    assert scan_end_text("failed", "/s/b", None, "disk gone") == "Scan of b failed: disk gone"
    assert scan_end_text("failed", "/s/b", "/s/a", "disk gone") == (
        "Scan of b failed: disk gone; showing the last results, of a"
    )
    # two folders of the same name: their whole paths tell them apart
    assert scan_end_text("cancelled", "/x/site", "/y/site") == (
        "Scan of /x/site cancelled: showing the last results, of /y/site"
    )
    with pytest.raises(ValueError, match="'finished'"):
        scan_end_text("finished", "/s/b")


def test_remembered_settings_fall_back_to_the_default_extractor():
    assert remembered_scan_settings("fast", False) == dataclasses.replace(ScanSettings(), extractor="fast",
                                                                          use_cache=False)  # fmt: skip
    assert remembered_scan_settings("gone-extractor", True).extractor == ScanSettings().extractor


def test_distance_filter_lists_the_pairs_at_that_distance():
    chosen = distance_filter(ties(), 3)  # Hamming distances of the pairs: 3, 3, 1, 7, 3
    assert chosen.records == [0, 1, 4] and chosen.label == "Hamming distance = 3"
    assert distance_filter(ties(), 5).records == []
    assert distance_filter(ties(), 5).empty.startswith("No candidate pair is 5 bits apart.")


def test_cluster_choice_filters_the_cluster_and_picks_a_pair():
    choice = cluster_choice(ties(), 1)
    assert choice.label == "Group 1" and choice.pairs == [0, 1, 2, 3, 4] and choice.pages == (0, 1, 2, 3)
    assert choice.target(None) == 0  # nothing selected: the cluster's first pair
    assert choice.target(3) == 3  # the selected pair is in the cluster: kept
    page_choice = cluster_choice(ties(), 1, page=3)
    assert page_choice.target(0) == 3  # page 3's first pair (2-3), whatever is selected
    assert cluster_choice(ties(), 2) is None and cluster_choice(None, 1) is None


def test_a_scan_keeps_what_was_shown_to_give_back(tmp_path):
    # Issue 20: cancelling a scan of folder B threw the results of folder A away; the session
    # now keeps what was shown (of any folder) until the new scan finishes.
    session = Session(ScanSettings(), Thresholds())
    assert session.title() == APP_NAME
    folder, other = tmp_path / "site", tmp_path / "other"
    folder.mkdir()
    other.mkdir()
    first = ties(root=str(folder.resolve()))
    assert session.begin_scan(folder) == 1 and session.previous is None  # nothing shown yet
    session.show(first)
    assert session.cluster_of == {0: 1, 1: 1, 2: 1, 3: 1}
    assert session.begin_scan(str(folder) + "/.", pair=3) == 2  # the same folder, spelt otherwise
    assert session.folder == str(folder.resolve())
    assert session.title() == f"{folder.resolve()} (last results; rescanning) — {APP_NAME}"
    assert session.previous == ShownScan(str(folder.resolve()), first, first, 3)
    session.show(None)
    assert session.take_previous() == ShownScan(str(folder.resolve()), first, first, 3)
    assert session.take_previous() is None

    # another folder: its scan keeps the first folder's result, and giving it back makes that
    # folder the session's again (the window title follows)
    regraded = dataclasses.replace(first, thresholds=dataclasses.replace(Thresholds(), layout_same=0.9))
    session.show(regraded, scan=first)
    assert session.scan_result is first and session.result is regraded
    session.begin_scan(other)
    session.show(None)
    assert session.folder == str(other.resolve())
    session.begin_scan(tmp_path)  # a third scan while the second runs: the first result stays kept
    shown = session.take_previous()
    assert shown == ShownScan(str(folder.resolve()), first, regraded, None)
    assert session.folder == str(folder.resolve()) and session.title() == f"{folder.resolve()} — {APP_NAME}"
    assert session.is_stale(shown)  # shown under layout_same=0.9, the thresholds in force are the defaults

    session.show(first)
    session.begin_scan(other)
    session.drop_previous()  # the scan finished
    assert session.previous is None and session.take_previous() is None
    assert session.folder == str(other.resolve())


def test_the_last_results_stay_shown_and_named_while_another_folder_is_scanned(tmp_path):
    # Issue 20: during a scan of B every view said "No scan result yet"; A's result now stays
    # the session's result, and the title names A (whose results they are) and B (scanned).
    session = Session(ScanSettings(), Thresholds())
    a, b, c = (str(tmp_path / name) for name in ("a", "b", "c"))
    first = ties(root=a)
    session.begin_scan(a)
    session.show(first)
    session.begin_scan(b)
    assert session.result is first and session.scan_result is first and session.folder == b
    assert session.title() == f"{a} (last results; scanning b) — {APP_NAME}"
    assert session.scanning_text() == "Last results, of a, shown while b is scanned"
    session.begin_scan(c)  # B replaced by C: the results shown are still A's, not B's
    assert session.previous.folder == a and session.title() == f"{a} (last results; scanning c) — {APP_NAME}"
    session.drop_previous()  # C finished
    assert session.scanning_text() == "" and session.title() == f"{c} — {APP_NAME}"
    assert scanning_text("/x/site", "/y/site") == "Last results, of /y/site, shown while /x/site is scanned"
    assert scanning_text(a, a) == "Last results of a shown while it is rescanned"


def test_a_result_given_back_is_stale_when_a_keep_choice_had_not_reached_it():
    # A keep choice made just before a scan began is in the scan's own result only (the
    # re-keep of the shown one was cancelled by the scan): giving it back re-classifies.
    session = Session(ScanSettings(), Thresholds())
    scan = ties()
    assert not session.is_stale(ShownScan("/s", scan, scan))
    chosen = dataclasses.replace(scan, keep_policy=dataclasses.replace(scan.keep_policy, chosen=("b.html",)))
    assert session.is_stale(ShownScan("/s", chosen, scan))
    marked = dataclasses.replace(scan, not_duplicates=(("a.html", "b.html"),))
    assert session.is_stale(ShownScan("/s", marked, scan))


def test_reclassified_results_and_settings():
    session = Session(ScanSettings(), Thresholds())
    result = ties()
    session.show(result)
    regraded = dataclasses.replace(result, thresholds=dataclasses.replace(Thresholds(), layout_same=0.9), clusters=[])
    assert session.is_current(regraded) and not session.is_current(ties())  # same pages, or not
    assert session.needs_reclassify(regraded) and not session.needs_reclassify(result)
    session.update(regraded)
    assert session.result is regraded and session.scan_result is result and session.cluster_of == {}
    assert session.pair_cluster(0) is None
    assert session.set_extractor("fast").startswith("Extractor: Readability's algorithm on the lexbor")
    assert session.settings.extractor == "fast"
    with pytest.raises(KeyError):
        session.set_extractor("nope")
    assert session.settings.extractor == "fast"
    session.set_use_cache(False)
    assert session.settings.use_cache is False


def test_summarize_names_thresholds_other_than_the_defaults_and_the_cache_off():
    # A user saw 315 duplicate pairs in the window where the command line said 462: the window
    # had kept the last session's "Content partial 0.5", and only the panel showed it.
    result = dataclasses.replace(ties(), elapsed=0.0)
    changed = dataclasses.replace(
        result,
        thresholds=dataclasses.replace(result.thresholds, content_partial=0.5, hamming_k=5),
        settings=dataclasses.replace(result.settings, use_cache=False),
    )
    assert summarize(changed).startswith(
        "Scanned 5 pages: 4 duplicate pairs of 5 compared (your thresholds: content partial ≥ 0.500, "
        "Hamming k ≤ 5; feature cache off); 1 near-duplicate group"
    )
    cache_off = dataclasses.replace(result, settings=dataclasses.replace(result.settings, use_cache=False))
    assert summarize(cache_off).startswith("Scanned 5 pages: 4 duplicate pairs of 5 compared (feature cache off); ")
    # the defaults and the cache on: nothing added
    assert summarize(result).startswith("Scanned 5 pages: 4 duplicate pairs of 5 compared; 1 near")


def test_the_report_settings_say_which_thresholds_are_not_the_defaults():
    # The report's engine settings listed content_partial 0.5 as they list 0.2: a reader could
    # not tell the window's remembered thresholds from the defaults the command line uses.
    result = ties()
    changed = dataclasses.replace(result, thresholds=dataclasses.replace(result.thresholds, content_partial=0.5))
    rows = {name: (value, meaning) for name, value, meaning in build_report(changed).threshold_rows()}
    assert rows["content_partial"] == (
        "0.5",
        "content containment for 'an important part of the content is shared'; not the default (0.2)",
    )
    assert "default" not in rows["content_same"][1]


def test_summarize_says_while_the_results_shown_were_made_with_another_extractor():
    # A search engineer chose Scan > Main-Content Extractor > Resiliparse: "Rescan (F5) to
    # apply" showed for 8 s, then the menu ticked Resiliparse while the tables showed fast's
    # results and nothing said so.  The summary says it until a scan with the choice.
    result = dataclasses.replace(ties(), elapsed=0.0)  # made with the default, fast
    chosen = dataclasses.replace(result.settings, extractor="resiliparse")
    assert summarize(result, chosen).startswith(
        "Scanned 5 pages: 4 duplicate pairs of 5 compared (results made with fast; Resiliparse applies at "
        "the next scan (F5)); 1 near-duplicate group"
    )
    # after a scan with it (the result's settings are the chosen ones): nothing pending
    rescanned = dataclasses.replace(result, settings=chosen)
    assert summarize(rescanned, chosen).startswith("Scanned 5 pages: 4 duplicate pairs of 5 compared; 1 near")
    # the cache changes no result: nothing to rescan for; other settings are named together
    assert summarize(result, dataclasses.replace(chosen, extractor="fast", use_cache=False)) == summarize(result)
    other = dataclasses.replace(result.settings, min_tokens=20)
    assert "(results made with other scan settings; yours apply at the next scan (F5))" in summarize(result, other)


def test_the_resiliparse_description_gives_readme_s_speed_for_the_resiliparse_extractor():
    # The menu said "about 11x faster", README's figure for Resiliparse's own main-content rule
    # (which the product does not use) on the main text alone; per whole page, what a scan
    # runs, README's extractor table gives it 5.9x to 6.2x readability-lxml's speed, as fast.
    assert EXTRACTORS["resiliparse"] == (
        "Resiliparse main-content extraction: less accurate (keeps comments, menus); "
        "about 6x faster than readability-lxml per page, as fast is"
    )
