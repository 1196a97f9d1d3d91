"""The command line as a user runs it: scan to each format, classify, evaluate, --help."""

import contextlib
import csv
import io
import json
import os
import signal
import subprocess
import sys

import pytest

from dedup_gui.cli import main

from .conftest import REPO, SAMPLES


def run_process(*args, cwd=REPO):
    """``python app.py ARGS`` in a new process, for what only a real process shows."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run(
        [sys.executable, "app.py", *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=600
    )


def run(*args, cwd=REPO):
    """``app.py ARGS`` run in this process (``dedup_gui.cli.main``), as a finished process: the
    same exit code and output without starting Python and importing the engine again (about
    2 s a call).  The working folder and the SIGTERM handler are restored afterwards."""
    out, err = io.StringIO(), io.StringIO()
    previous_folder, previous_handler = os.getcwd(), signal.getsignal(signal.SIGTERM)
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main([str(a) for a in args])
            except SystemExit as exc:  # argparse: --help, bad usage
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        os.chdir(previous_folder)
        signal.signal(signal.SIGTERM, previous_handler)
    return subprocess.CompletedProcess(["app.py", *args], code, out.getvalue(), err.getvalue())


def test_scan_csv_has_the_designed_pairs(tmp_path):
    out = tmp_path / "pairs.csv"
    proc = run_process("scan", str(SAMPLES), "-o", str(out))  # once as a user runs it: python app.py
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert list(rows[0]) == [
        "left", "right", "type", "content_similarity", "content_containment",
        "layout_similarity", "hamming_distance", "jaccard", "cluster", "contained_side",
    ]  # fmt: skip
    # The seven designed duplicate pairs of resources/samples/EXPECTED.csv, nothing else.
    assert sorted(r["type"] for r in rows) == ["content", "full", "full", "full", "full", "layout", "partial"]
    content = next(r for r in rows if r["type"] == "content")
    assert {content["left"], content["right"]} == {
        "print/night-ride-safety.html",
        "site/articles/night-ride-safety.html",
    }
    assert "pages:    18" in proc.stdout and "groups:   7 near-duplicate groups; 5 keep clusters" in proc.stdout


def test_scan_json_gives_every_file_a_verdict(tmp_path):
    out = tmp_path / "all.json"
    assert run("scan", str(SAMPLES), "-o", str(out), "-q").returncode == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    statuses = {f["path"]: f["status"] for f in data["files"]}
    assert statuses["gallery/finish-line.html"] == "no usable text"
    assert statuses["site/articles/river-trail.html"] == "ok"
    assert statuses["site/style.css"] == "skipped"
    page = next(f for f in data["files"] if f["path"] == "zh/spring-tea-picking-gbk.html")
    assert page["encoding"] == "gb18030" and len(page["simhash"]) == 16
    assert data["summary"]["pairs_by_type"]["partial"] == 1
    assert data["thresholds"]["content_same"] == 0.925
    assert len(data["clusters"]) == 7


def test_scan_html_escapes_page_strings(tmp_path):
    folder = tmp_path / "pages"
    folder.mkdir()
    body = "<p>" + " ".join(f"word{i}" for i in range(200)) + "</p>"
    evil = "<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>"
    for name in ("a.html", "b.html"):
        (folder / name).write_text(f"<html><head>{evil}</head><body>{body}</body></html>", encoding="utf-8")
    out = tmp_path / "r.html"
    assert run("scan", str(folder), "-o", str(out), "-q").returncode == 0
    report = out.read_text(encoding="utf-8")
    # the one script is the report's own table script, at the end; the title's is escaped
    assert report.count("<script>") == 1 and "<script>alert(1)" not in report
    assert report.index("<script>") > report.index("</main>")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in report


def test_scan_reports_bad_files_and_goes_on(tmp_path):
    folder = tmp_path / "pages"
    folder.mkdir()
    (folder / "image.html").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    (folder / "ok.html").write_text("<html><body><p>" + "text " * 50 + "</p></body></html>")
    out = tmp_path / "r.json"
    proc = run("scan", str(folder), "-o", str(out))
    assert proc.returncode == 0
    assert "image.html: binary file (a PNG image), not an HTML page" in proc.stdout
    files = {f["path"]: f for f in json.loads(out.read_text())["files"]}
    assert files["image.html"]["status"] == "error"
    assert files["ok.html"]["status"] == "ok"


def test_scan_errors_clearly(tmp_path):
    proc = run("scan", str(tmp_path / "missing"), "-o", str(tmp_path / "x.csv"))
    # A missing path says so, not "not a folder or a WARC file" (it is neither because it is not there).
    assert (proc.returncode, proc.stderr) == (2, f"error: no such file or folder: {tmp_path / 'missing'}\n")
    proc = run(str(tmp_path / "missing"))  # the window's folder argument
    assert (proc.returncode, proc.stderr) == (2, f"error: no such file or folder: {tmp_path / 'missing'}\n")
    (tmp_path / "notes.txt").write_text("not pages")
    proc = run("scan", str(tmp_path / "notes.txt"), "-o", str(tmp_path / "x.csv"))
    assert (proc.returncode, proc.stderr) == (2, f"error: not a folder or a WARC file: {tmp_path / 'notes.txt'}\n")
    proc = run("scan", str(SAMPLES), "-o", str(tmp_path / "x.pdfx"))
    assert proc.returncode == 2 and "suffix" in proc.stderr


def test_classify_and_evaluate_on_the_sample_labels(tmp_path):
    out = tmp_path / "pred.csv"
    proc = run("classify", "--pairs", str(SAMPLES / "EXPECTED.csv"), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert len(rows) == 16 and all(not r["error"] for r in rows)  # two of them WARC records (crawl.warc.gz#462)
    labels = list(csv.DictReader((SAMPLES / "EXPECTED.csv").open(encoding="utf-8")))
    assert [r["type"] for r in rows] == [r["type"] for r in labels]
    proc = run("evaluate", "--pairs", str(SAMPLES / "EXPECTED.csv"))
    assert proc.returncode == 0
    assert "macro-F1: 1.000" in proc.stdout


@pytest.mark.parametrize("cmd", ["scan", "classify", "evaluate"])
def test_help(cmd):
    proc = run(cmd, "--help")
    assert proc.returncode == 0 and "usage:" in proc.stdout


def test_bad_labels_file_is_a_clear_error(tmp_path):
    bad = tmp_path / "labels.csv"
    bad.write_text("a,b\nx,y\n")
    proc = run("evaluate", "--pairs", str(bad))
    assert proc.returncode == 1 and "needs columns 'left' and 'right'" in proc.stderr


def test_scan_where_no_file_can_be_used_fails(tmp_path):
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "a.html").write_bytes(b"%PDF-1.4\n" + bytes(range(256)) * 8)
    proc = run("scan", str(folder), "-o", str(tmp_path / "r.json"))
    assert proc.returncode == 1 and "none of the 1 files could be used" in proc.stderr


def test_evaluate_names_missing_pages_and_labels_files(tmp_path):
    labels = tmp_path / "labels.csv"
    labels.write_text("left,right,type\nnope.html,also-nope.html,full\n")
    proc = run("evaluate", "--pairs", str(labels))
    assert "nope.html: file not found" in proc.stderr
    proc = run("evaluate", "--pairs", str(tmp_path / "missing.csv"))
    assert proc.returncode == 1 and "no such labels file" in proc.stderr


def test_negative_settings_are_refused(tmp_path):
    proc = run("scan", str(SAMPLES), "-o", str(tmp_path / "x.json"), "--page-timeout", "-5")
    assert proc.returncode == 1 and "--page-timeout must be greater than 0" in proc.stderr
    proc = run("scan", str(SAMPLES), "-o", str(tmp_path / "x.json"), "--max-file-mb", "-1")
    assert proc.returncode == 1 and "--max-file-mb must be greater than 0" in proc.stderr
    assert not (tmp_path / "x.json").exists()


def test_too_many_workers_are_refused_and_capped(tmp_path):
    # 500 workers would each load the engine (about 100 MB): a tester's machine ran out of memory.
    import os

    from dedup_gui.core.model import ScanSettings
    from dedup_gui.core.pipeline.executors import WORKERS_PER_CORE, _worker_count

    proc = run("scan", str(SAMPLES), "-o", str(tmp_path / "x.json"), "--workers", "500")
    assert proc.returncode == 1 and "--workers 500 is more than" in proc.stderr
    assert not (tmp_path / "x.json").exists()
    # The engine caps it too, for callers other than the command line.
    assert _worker_count(ScanSettings(workers=500), 10_000) == WORKERS_PER_CORE * (os.cpu_count() or 1)
    assert _worker_count(ScanSettings(workers=2), 10_000) == 2


def test_output_paths_are_checked_before_the_work(tmp_path):
    # Each of these mistakes is refused up front (exit 1 or 2) and nothing is written.
    proc = run("classify", "--pairs", str(SAMPLES / "EXPECTED.csv"), "-o", str(tmp_path / "p.txt"))
    assert proc.returncode == 1 and "must end in .csv" in proc.stderr
    same = tmp_path / "same.csv"
    proc = run("scan", str(SAMPLES), "-o", str(same), "--pages-csv", str(same), "-q")
    assert proc.returncode == 2 and "same file is given for two outputs" in proc.stderr
    proc = run("evaluate", "--pairs", str(SAMPLES / "EXPECTED.csv"), "--pr-curves", str(tmp_path / "pr.jpg"))
    assert proc.returncode == 1 and "must end in .png, .svg or .pdf" in proc.stderr
    assert list(tmp_path.iterdir()) == []


def test_binary_labels_file_names_the_file(tmp_path):
    bad = tmp_path / "labels.csv"
    bad.write_bytes(b"\x90\x00\xff" * 100)
    proc = run("evaluate", "--pairs", str(bad))
    assert proc.returncode == 1 and f"{bad}: not a UTF-8 CSV file" in proc.stderr


def test_top_level_help_names_the_window_options():
    proc = run("--help")
    assert "--screenshot OUT.png" in proc.stdout and "--window-help" in proc.stdout


def test_a_step_without_a_count_is_named_once_on_a_terminal():
    # "writing the report" reports 0 of 0 many times; a terminal must show it once, not one
    # line per update (a tester saw 501 lines for one report).
    import io

    from dedup_gui.cli import TerminalProgress

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    out = Terminal()
    progress = TerminalProgress(out)
    progress.update("reading pages", 4, 4)
    for _ in range(500):
        progress.update("writing the report", 0, 0)
    assert out.getvalue() == "\rreading pages: 4 of 4\nwriting the report...\n"


def test_a_terminal_line_names_the_slow_pages_within_its_width(monkeypatch):
    # Issue 20: "reading pages: 0 of 7" for 36 s looked stuck; the engine's detail names the
    # pages in flight.  The line is cut to the terminal's width (a wrapped line cannot be
    # rewritten with \r) and a shorter line covers the longer one before it.
    import io

    from dedup_gui.cli import TerminalProgress

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setenv("COLUMNS", "80")
    out = Terminal()
    progress = TerminalProgress(out)
    progress.update("reading pages", 0, 7, "still reading big-a.html (21 MB) for 2 s")
    progress.last = 0.0  # past the 0.1 s throttle
    progress.update("reading pages", 0, 7, "still reading big-a.html (21 MB) for 12 s, big-b.html (21 MB) for 12 s")
    progress.last = 0.0
    progress.update("reading pages", 7, 7)
    first = "reading pages: 0 of 7 — still reading big-a.html (21 MB) for 2 s"
    second = "reading pages: 0 of 7 — still reading big-a.html (21 MB) for 12 s, big-b.html …"
    assert len(second) == 79  # one column short of the terminal's 80
    assert out.getvalue() == f"\r{first}\r{second}\r{'reading pages: 7 of 7'.ljust(79)}\n"


def test_a_one_step_stage_is_named_without_a_count_in_a_log():
    # the candidate stage reports 0 of 1 and 1 of 1; a log printed "finding candidate pairs
    # (1)...", as if there were one pair to find (a tester).
    import io

    from dedup_gui.cli import TerminalProgress

    out = io.StringIO()  # not a terminal: one line per stage
    progress = TerminalProgress(out)
    progress.update("reading pages", 0, 4)
    progress.update("finding candidate pairs", 0, 1)
    progress.update("finding candidate pairs", 1, 1)
    assert out.getvalue() == "reading pages (4)...\nfinding candidate pairs...\n"


def test_scan_follows_links_out_of_the_folder_only_with_follow_links(tmp_path):
    # Issue 13: a link to a file outside the scanned folder is listed, not read; --follow-links
    # reads it, with a warning on stderr and a note in the summary and the report.
    folder, outside = tmp_path / "pages", tmp_path / "outside"
    folder.mkdir()
    outside.mkdir()
    (outside / "secret.html").write_text("<html><body><p>" + "Zanzibarsecret words " * 20 + "</p></body></html>")
    (folder / "ok.html").write_text("<html><body><p>" + "text " * 50 + "</p></body></html>")
    os.symlink(outside / "secret.html", folder / "page.html")
    out = tmp_path / "r.json"
    proc = run("scan", str(folder), "-o", str(out), "--no-cache")
    assert proc.returncode == 0, proc.stderr
    assert (
        "  skipped: page.html: a symbolic link to a file outside the scanned folder: not followed "
        "(--follow-links follows it)"
    ) in proc.stdout.splitlines()
    assert "Zanzibarsecret" not in out.read_text(encoding="utf-8") and "warning" not in proc.stderr

    proc = run("scan", str(folder), "-o", str(out), "--no-cache", "--follow-links")
    assert proc.returncode == 0, proc.stderr
    warning = f"warning: following links out of the scanned folder: files and folders outside {folder} "
    assert proc.stderr.startswith(warning)
    note = (
        "following links out of the scanned folder (--follow-links): 1 symbolic link followed (page.html): "
        "what it points to is scanned"
    )
    assert f"  note: {note}" in proc.stdout.splitlines()
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["summary"]["notes"] == [note] and data["settings"]["follow_links"] is True
    assert {f["path"]: f["status"] for f in data["files"]} == {"ok.html": "ok", "page.html": "ok"}


def test_scan_names_a_link_to_a_version_folder_and_skips_the_site_files(tmp_path):
    # Issue 14: the real folder v2/ is read and its link latest/ (which sorts first) is named in
    # the summary with what it is; the site's .nojekyll is skipped, not a page without text.
    folder = tmp_path / "site"
    (folder / "v2").mkdir(parents=True)
    for name in ("a.html", "b.html"):
        (folder / "v2" / name).write_text("<html><body><p>" + f"{name} text " * 50 + "</p></body></html>")
    (folder / ".nojekyll").write_bytes(b"")
    os.symlink("v2", folder / "latest")
    out = tmp_path / "r.json"
    proc = run("scan", str(folder), "-o", str(out), "--no-cache")
    assert proc.returncode == 0, proc.stderr
    reason = "a link to v2/: its 2 pages are read there (the same pages at a second address)"
    assert f"  skipped: latest/: {reason}" in proc.stdout.splitlines()
    assert "pages:    2 (0 without usable main text); 2 other files skipped" in proc.stdout
    files = {f["path"]: f for f in json.loads(out.read_text(encoding="utf-8"))["files"]}
    assert [files[p]["status"] for p in (".nojekyll", "latest/", "v2/a.html")] == ["skipped", "skipped", "ok"]
    assert files["v2/a.html"]["also_at"] == ["latest/a.html"]


def test_follow_links_is_an_option_of_scan_only():
    # classify and evaluate read the files a labels CSV names, wherever they are: nothing to follow
    for cmd in ("classify", "evaluate"):
        assert "--follow-links" not in run(cmd, "--help").stdout
    assert "--follow-links" in run("scan", "--help").stdout


def test_scan_writes_every_csv_spreadsheet_safe_and_the_json_exact(tmp_path):
    # File names such as =HYPERLINK("x").html reached every CSV as live formulas (CSV injection).
    from .core.test_report import FORMULA_NAMES, make_formula_folder

    folder = make_formula_folder(tmp_path / "f")
    pairs, pages, keep = tmp_path / "pairs.csv", tmp_path / "pages.csv", tmp_path / "keep.csv"
    proc = run("scan", str(folder), "-o", str(pairs), "--pages-csv", str(pages), "--keep-csv", str(keep), "-q")
    assert proc.returncode == 0, proc.stderr
    neutral = set(FORMULA_NAMES.values())
    rows = list(csv.DictReader(pairs.open(encoding="utf-8", newline="")))
    assert len(rows) == 15 and {r["left"] for r in rows} | {r["right"] for r in rows} == neutral
    rows = list(csv.DictReader(pages.open(encoding="utf-8", newline="")))
    assert {r["path"] for r in rows} == {*neutral, "'-bad.html", "'@style.css"}
    assert {r["title"] for r in rows if r["status"] == "ok"} == {"'=1+1"}
    assert {r["keep"] for r in rows if r["status"] == "ok"} < neutral
    rows = list(csv.reader(keep.open(encoding="utf-8", newline="")))
    assert rows[0][:2] == ["duplicate", "keep"] and len(rows) == 1 + 5  # 5 copies of the kept page
    assert {cell for row in rows[1:] for cell in row[:2]} == neutral
    out = tmp_path / "all.json"
    assert run("scan", str(folder), "-o", str(out), "-q").returncode == 0
    files = json.loads(out.read_text(encoding="utf-8"))["files"]
    assert {f["path"] for f in files} == {*FORMULA_NAMES, "-bad.html", "@style.css"}


def test_classify_writes_paths_spreadsheet_safe_and_reads_them_back(tmp_path):
    # PREDICTIONS.csv is opened in spreadsheets too; its left/right get the apostrophe, and
    # classify and evaluate read such a file (given as LABELS.csv) as the real paths.
    from .core.test_report import make_formula_folder

    folder = make_formula_folder(tmp_path / "f")
    labels = folder / "labels.csv"
    labels.write_text('left,right,type\n"=HYPERLINK(""x"").html",+1.html,full\n-1.html,@SUM.html,full\n')
    pred = folder / "pred.csv"
    proc = run("classify", "--pairs", str(labels), "-o", str(pred))
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(pred.open(encoding="utf-8", newline="")))
    assert [(r["left"], r["right"], r["type"], r["error"]) for r in rows] == [
        ('\'=HYPERLINK("x").html', "'+1.html", "full", ""),
        ("'-1.html", "'@SUM.html", "full", ""),
    ]
    proc = run("evaluate", "--pairs", str(pred))
    assert proc.returncode == 0 and "warning" not in proc.stderr, proc.stderr
    assert "pairs evaluated: 2\n" in proc.stdout and "macro-F1: 1.000" in proc.stdout
    again = folder / "again.csv"
    assert run("classify", "--pairs", str(pred), "-o", str(again)).returncode == 0
    assert again.read_text(encoding="utf-8") == pred.read_text(encoding="utf-8")


def test_names_with_control_characters_are_printed_escaped(tmp_path):
    # A file name with ESC and a newline recoloured the terminal and forged an "error:" line.
    folder = tmp_path / "f"
    folder.mkdir()
    (folder / "a\x1b[31mred\n error: forged.html").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    (folder / "ok.html").write_text("<html><body><p>" + "text " * 50 + "</p></body></html>")
    proc = run("scan", str(folder), "-o", str(tmp_path / "r.json"))
    assert proc.returncode == 0, proc.stderr
    lines = (proc.stdout + proc.stderr).splitlines()
    assert "  error: a\\x1b[31mred\\n error: forged.html: binary file (a PNG image), not an HTML page" in lines
    assert "\x1b" not in proc.stdout + proc.stderr
    assert not any(line.lstrip().startswith("error: forged") for line in lines)
    # A folder argument is printed the same way.
    proc = run("scan", str(tmp_path / "x\x1b]0;t\x07\nerror: forged"), "-o", str(tmp_path / "r.json"))
    assert proc.returncode == 2
    assert proc.stderr == f"error: no such file or folder: {tmp_path}/x\\x1b]0;t\\x07\\nerror: forged\n"


def test_evaluate_extraction_scores_the_extractors_on_a_corpus(tmp_path):
    # One page of readability's layout: source.html, and expected.html with the article alone.
    article = "<p>" + "The dog ran to the house and it was happy there, every day of the week. " * 8 + "</p>"
    page = tmp_path / "corpus" / "dog"
    page.mkdir(parents=True)
    (page / "source.html").write_text(f"<html><body><article>{article}</article></body></html>", encoding="utf-8")
    (page / "expected.html").write_text(f"<div>{article}</div>", encoding="utf-8")
    (page / "expected-metadata.json").write_text('{"lang": "en"}', encoding="utf-8")
    proc = run("evaluate", "--extraction", "--corpus", str(tmp_path / "corpus"), "--extractor", "fast")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == f"1 page with ground truth in {tmp_path / 'corpus'} (0 .html files without it, not scored)"
    # (the CPU milliseconds per page beside pages/s: issue 15, CPU time is steadier under load)
    assert (
        "| extractor | English (1) | CJK (0) | other (0) | snippets (0) | overall (1) | pages/s | CPU ms/page |"
        in lines
    )
    assert any(line.startswith("| fast | 1.000 | - | - | - | 1.000 | ") for line in lines)
    assert not any(line.startswith(("| readability ", "| resiliparse ")) for line in lines)  # --extractor: one
    assert "token-level bag-of-words F1" in proc.stdout


def test_evaluate_extraction_errors_clearly(tmp_path, capsys, monkeypatch):
    from dedup_gui.cli import main  # in this process: these stop before any page is read

    monkeypatch.setattr("dedup_gui.cli._stop_on_sigterm", lambda: None)  # keep pytest's own SIGTERM handling

    assert main(["evaluate", "--extraction", "--corpus", str(tmp_path)]) == 1  # a folder without ground truth
    assert "no page with ground truth" in capsys.readouterr().err
    assert main(["evaluate", "--extraction", "--corpus", str(tmp_path / "missing")]) == 1
    assert "not a folder" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main(["evaluate", "--extraction", "--pairs", str(SAMPLES / "EXPECTED.csv")])
    assert stop.value.code == 2 and "not allowed with argument" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main(["evaluate"])
    assert stop.value.code == 2
    assert "one of the arguments --pairs --extraction is required" in capsys.readouterr().err
    assert main(["evaluate", "--pairs", str(SAMPLES / "EXPECTED.csv"), "--corpus", str(tmp_path)]) == 1
    assert "--corpus and --list-below go with --extraction" in capsys.readouterr().err


def test_two_reports_in_a_row_name_the_step_once():
    # A tester saw "writing the report (500)..." then "writing the report..." for -o report.html
    # and --keep-csv: the second report (no excerpts to count) named the same step again.
    from dedup_gui.cli import TerminalProgress

    out = io.StringIO()
    progress = TerminalProgress(out)
    for done in (0, 250, 500):
        progress.update("writing the report", done, 500)
    progress.update("writing the report", 0, 0)  # the keep CSV: nothing to count
    progress.update("copying the kept pages", 0, 552)
    assert out.getvalue() == "writing the report (500)...\ncopying the kept pages (552)...\n"


def test_a_threshold_out_of_range_is_named_by_its_option():
    # The error said "content_same must be in [0, 1]": the field's name, not the option typed.
    done = run("scan", "resources/samples", "--content-same", "1.5")
    assert done.returncode == 1 and done.stderr.strip().endswith("error: --content-same must be in [0, 1], got 1.5")
    done = run("scan", "resources/samples", "--hamming-k", "99")
    assert done.returncode == 1 and done.stderr.strip().endswith("error: --hamming-k must be in 0..64 bits, got 99")
