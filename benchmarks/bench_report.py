"""Report benchmark: the HTML report of a synthetic 100,000-page site, its size, the time to
build and write it, and the time headless Chromium takes to load it (with its sort/filter
script running), plus the site-share figures (Siteliner's measure) at that size.

    python benchmarks/bench_report.py [--pages 100000] [--no-charts] [--no-browser] [--keep FILE]

The site is built from the model objects directly (``tests/synthetic_site.py``: pages in groups
of four with full, content, layout and partial duplicate pairs, 200 shingles a page), so no file
is scanned.  Printed, one line each:

* ``site_share``: :func:`~dedup_gui.core.reports.site_share.page_duplicate_shares` (one
  ``np.unique`` over every shingle) and the whole client summary; the baseline, the first
  version (one ``np.isin`` of each page's shingles against the site's shared ones), on the first
  ``--baseline-pages`` pages (default 10,000) against this version on the same pages;
* ``build_report``: the report model (keep clusters, fair shares of pairs, 500 diff excerpts);
* ``html``: rendering and writing the HTML, and its size in MB (the goal: under 10 MB);
* ``chromium dump-dom`` and ``chromium screenshot``: wall time of headless Chromium (Debian's
  ``/usr/bin/chromium``) loading the file until it prints the DOM after the script ran, and until
  it writes a 1280x900 screenshot (the goal: under 3 s); a fresh profile each, so nothing is
  cached; the browser's own start-up (an empty page) is printed too, for reference.

It is a measurement script, not a test: nothing is asserted (``tests/core/test_report_scale.py``
checks the size).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from dedup_gui.core.reports.html import html_from_report  # noqa: E402 - after the path set-up
from dedup_gui.core.reports.model import build_report  # noqa: E402
from dedup_gui.core.reports.site_share import page_duplicate_shares  # noqa: E402
from dedup_gui.core.reports.summary import report_summary  # noqa: E402
from tests.synthetic_site import synthetic_result  # noqa: E402


def _timed(label: str, func, *args, **kwargs):
    start = time.perf_counter()
    value = func(*args, **kwargs)
    print(f"{label:<28} {time.perf_counter() - start:7.2f} s", flush=True)
    return value


def chromium_seconds(chromium: str, url: str, *args: str) -> tuple[float, str]:
    """Wall time (s) of one headless Chromium run on ``url`` with a fresh profile, and its stderr."""
    with tempfile.TemporaryDirectory() as profile:
        cmd = [
            chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions",
            "--hide-scrollbars", f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0", *args, url,
        ]  # fmt: skip
        start = time.perf_counter()
        proc = subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=300)
        return time.perf_counter() - start, proc.stderr


def baseline_shares(result) -> np.ndarray:
    """The first version of ``page_duplicate_shares``: one ``np.isin`` per page (the baseline)."""
    arrays = [p.shingles if p.has_text else np.zeros(0, np.uint32) for p in result.pages]
    every = np.concatenate(arrays)
    values, counts = np.unique(every, return_counts=True)
    shared = values[counts > 1]
    return np.array([float(np.isin(a, shared).mean()) if len(a) else 0.0 for a in arrays])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=100_000)
    parser.add_argument("--baseline-pages", type=int, default=10_000, help="pages for the site-share baseline")
    parser.add_argument("--no-charts", action="store_true", help="leave the two charts out")
    parser.add_argument("--no-browser", action="store_true", help="do not time Chromium")
    parser.add_argument("--keep", metavar="FILE", help="also copy the report to FILE")
    args = parser.parse_args()

    result = _timed(f"synthetic site ({args.pages:,} p)", synthetic_result, args.pages)
    print(f"  {len(result.pages):,} pages, {len(result.pairs):,} duplicate pairs, {len(result.clusters):,} groups")
    _timed("site_share (np.unique)", page_duplicate_shares, result)
    few = replace(result, pages=result.pages[: args.baseline_pages], pairs=[])
    new = _timed(f"  same, {len(few.pages):,} pages", page_duplicate_shares, few)
    old = _timed(f"  baseline, {len(few.pages):,} pages", baseline_shares, few)
    print(f"  same shares as the baseline: {bool(np.allclose(new, old))}")
    report = _timed("build_report", build_report, result, mtime=lambda _page: 0.0)
    _timed("report_summary", report_summary, report)
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "report.html"
        start = time.perf_counter()
        text = html_from_report(report, charts=not args.no_charts)
        out.write_text(text, encoding="utf-8")
        print(f"{'html (render + write)':<28} {time.perf_counter() - start:7.2f} s", flush=True)
        print(f"{'html size':<28} {out.stat().st_size / 1e6:7.2f} MB")
        if args.keep:
            shutil.copyfile(out, args.keep)
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        if args.no_browser or chromium is None:
            print("chromium: not timed" + ("" if chromium else " (not installed)"))
            return
        empty = Path(folder) / "empty.html"
        empty.write_text("<!DOCTYPE html><title>empty</title>", encoding="utf-8")
        base, _ = chromium_seconds(chromium, empty.as_uri(), "--dump-dom")
        print(f"{'chromium start (empty page)':<28} {base:7.2f} s")
        seconds, log = chromium_seconds(chromium, out.as_uri(), "--dump-dom")
        print(f"{'chromium dump-dom':<28} {seconds:7.2f} s")
        shot = Path(folder) / "shot.png"
        seconds, log2 = chromium_seconds(chromium, out.as_uri(), "--window-size=1280,900", f"--screenshot={shot}")
        print(f"{'chromium screenshot':<28} {seconds:7.2f} s")
        problems = [
            line for line in (log + log2).splitlines() if "Content Security Policy" in line or "Uncaught" in line
        ]
        print(f"{'console problems':<28} {len(problems)}" + "".join(f"\n  {p}" for p in problems[:5]))


if __name__ == "__main__":
    main()
