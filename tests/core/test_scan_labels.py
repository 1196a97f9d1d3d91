"""The labels file that belongs to a scanned folder (issue 20: the teaching window's method
comparison used the bundled samples' 16 pairs on a scan of shared/pairs/pages)."""

from __future__ import annotations

import dataclasses

from dedup_gui.core.evaluation.scan_labels import MEASURE_COLUMNS, find_scan_labels
from dedup_gui.core.reports.write import PREDICTION_COLUMNS


def scan_of(sample_scan, root, paths):
    """The sample scan renamed: pages with these paths, scanned in ``root``."""
    pages = [dataclasses.replace(sample_scan.pages[i], path=p) for i, p in enumerate(paths)]
    return dataclasses.replace(sample_scan, root=str(root), pages=pages, errors=[])


def test_a_labels_file_beside_the_scanned_folder_naming_its_pages_is_found(sample_scan, tmp_path):
    # shared/pairs: labels.csv beside pages/, its paths "pages/...", relative to its own folder
    (tmp_path / "pages").mkdir()
    (tmp_path / "labels.csv").write_text(
        "left,right,type\npages/a.html,pages/b.html,full\npages/a.html,pages/c.html,distinct\n", encoding="utf-8"
    )
    # other CSVs: one naming other pages, one of the app's own predictions (its types are no labels)
    (tmp_path / "other.csv").write_text("left,right\nx/a.html,x/b.html\n", encoding="utf-8")
    (tmp_path / "pages" / "predictions.csv").write_text(
        ",".join(PREDICTION_COLUMNS) + "\n" + "a.html,b.html,full,1,1,1,0,1\n" * 3, encoding="utf-8"
    )
    found = find_scan_labels(scan_of(sample_scan, tmp_path / "pages", ["a.html", "b.html", "c.html"]))
    assert found is not None
    assert (found.path, found.shown, found.pairs, found.in_scan) == (tmp_path / "labels.csv", "../labels.csv", 2, 2)


def test_labels_that_name_other_pages_are_not_the_scans(sample_scan, tmp_path):
    (tmp_path / "pages").mkdir()
    # one pair of three names pages of the scan: less than half
    (tmp_path / "labels.csv").write_text(
        "left,right\npages/a.html,pages/b.html\nz/1.html,z/2.html\nz/3.html,z/4.html\n", encoding="utf-8"
    )
    (tmp_path / "pages" / "broken.csv").write_bytes(b"\xff\xfe left;right\n")
    assert find_scan_labels(scan_of(sample_scan, tmp_path / "pages", ["a.html", "b.html"])) is None


def test_the_samples_scan_finds_its_expected_csv(sample_scan, samples_dir):
    found = find_scan_labels(sample_scan)
    assert found is not None
    assert (found.path, found.shown, found.pairs, found.in_scan) == (
        samples_dir / "EXPECTED.csv",
        "EXPECTED.csv",
        16,
        16,
    )


def test_the_measure_columns_are_those_of_predictions_csv():
    # a CSV with them is the app's own output; kept in step with the reports' columns
    assert list(MEASURE_COLUMNS) == PREDICTION_COLUMNS[3:]


def test_a_labels_file_without_types_is_passed_over_for_one_with_them(sample_scan, tmp_path):
    # A new-user test: a folder held labels.csv (left, right, how: no type) beside
    # labels_full.csv (with types); the tab took the first by name and failed ("no labelled
    # pair could be scored"). Only a file with the columns the comparison needs is taken.
    (tmp_path / "pages").mkdir()
    (tmp_path / "labels.csv").write_text(
        "left,right,how\npages/a.html,pages/b.html,copied\npages/a.html,pages/c.html,rewritten\n", encoding="utf-8"
    )
    (tmp_path / "labels_full.csv").write_text(
        "left,right,type\npages/a.html,pages/b.html,full\npages/a.html,pages/c.html,distinct\n", encoding="utf-8"
    )
    # a type column left empty scores nothing either
    (tmp_path / "pages" / "blank.csv").write_text("left,right,type\na.html,b.html,\na.html,c.html,\n", encoding="utf-8")
    found = find_scan_labels(scan_of(sample_scan, tmp_path / "pages", ["a.html", "b.html", "c.html"]))
    assert found is not None
    assert (found.path, found.shown, found.pairs, found.in_scan) == (
        tmp_path / "labels_full.csv",
        "../labels_full.csv",
        2,
        2,
    )
