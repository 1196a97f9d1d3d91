"""``scan`` as a user runs it for reports: -o OUT.pdf, --pages-csv, --keep-csv, unwritable places."""

import csv

from .conftest import SAMPLES
from .test_cli import run


def test_scan_writes_a_pdf_and_the_two_extra_csvs(tmp_path):
    pdf, pages, keep = tmp_path / "r.pdf", tmp_path / "pages.csv", tmp_path / "keep.csv"
    proc = run("scan", str(SAMPLES), "-o", str(pdf), "--pages-csv", str(pages), "--keep-csv", str(keep), "--no-cache")
    assert proc.returncode == 0, proc.stderr
    assert pdf.read_bytes().startswith(b"%PDF-")
    rows = list(csv.DictReader(pages.open(encoding="utf-8")))
    assert len(rows) == 29 and rows[0]["path"] == "elsewhere/vale-gazette-cafes.html"
    keep_rows = list(csv.reader(keep.open(encoding="utf-8")))
    # one page to drop in each of 5 keep clusters: the layout and the partial pair are no advice
    assert keep_rows[0][:2] == ["duplicate", "keep"] and len(keep_rows) == 6
    assert ["print/night-ride-safety.html", "site/articles/night-ride-safety.html"] in [row[:2] for row in keep_rows]
    for out in (pdf, pages, keep):
        assert f"wrote {out}" in proc.stdout
    # one short line, not the ~250-word paragraph of the reports on every run
    assert (
        "Kept: the page at its canonical URL, else the page in the newest released version folder, else the "
        "longest main content, else the oldest file. (The whole keep rule: in the HTML, PDF, JSON and XLSX reports.)\n"
    ) in proc.stdout
    assert "A keep cluster is a page to keep" not in proc.stdout


def test_scan_checks_every_output_before_scanning(tmp_path):
    proc = run("scan", str(SAMPLES), "-o", str(tmp_path / "r.html"), "--keep-csv", str(tmp_path / "no" / "k.csv"))
    assert proc.returncode == 1
    assert f"cannot write {tmp_path / 'no' / 'k.csv'}: the folder {tmp_path / 'no'} does not exist" in proc.stderr
    assert "reading pages" not in proc.stderr  # no scan was started
    assert list(tmp_path.iterdir()) == []


def test_scan_needs_an_output_and_a_known_suffix(tmp_path):
    proc = run("scan", str(SAMPLES))
    assert proc.returncode == 2 and "nothing to write" in proc.stderr
    proc = run("scan", str(SAMPLES), "-o", str(tmp_path / "r.docx"))
    assert proc.returncode == 2 and "suffix must be .html, .pdf, .json or .csv" in proc.stderr
