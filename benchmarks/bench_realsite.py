"""The real-site benchmark: scan ``../shared/realsite`` cold, stage by stage, and score it.

    python benchmarks/bench_realsite.py                       # this checkout, and the baseline
    python benchmarks/bench_realsite.py --baseline none       # this checkout only

It extracts ``site.tar.xz`` into a temporary folder, scans it with the default settings and an
empty feature cache (in a process of its own, so each run starts cold), prints the time of each
stage and the pages per second, then scores the scan with the site's ``truth.py`` (its
``LAST ...`` line: precision per type, recall, keep groups, keep advice, boilerplate, non-pages).
The baseline is another commit of this repository (default: the commit before the site's
template was learned from the folder), extracted with ``git archive`` and scanned the same way,
after this checkout, so both are measured in one run on the same machine.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "realsite"
#: The last commit before the site template, the template layout and the keep clusters.
DEFAULT_BASELINE = "a459fcc"

# Runs in the scanning process: a scan with a progress object that notes when each stage starts.
RUNNER = r"""
import json, sys, time
from dedup_gui.core.model import ScanSettings
try:
    from dedup_gui.core.reports.model import build_report
    from dedup_gui.core.reports.write import write_result, keep_csv
    from dedup_gui.core.pipeline.scan import scan_folder
except ImportError:  # a baseline from before the sub-packages (December 2026)
    from dedup_gui.core.report import write_result, keep_csv
    from dedup_gui.core.scan import scan_folder
    try:
        from dedup_gui.core.report_model import build_report
    except ImportError:
        build_report = None

class Stages:
    def __init__(self):
        self.start = time.perf_counter()
        self.marks = []
    def update(self, stage, done, total):
        if not self.marks or self.marks[-1][0] != stage:
            self.marks.append((stage, time.perf_counter() - self.start))
    def cancelled(self):
        return False

if __name__ == "__main__":
    site, out = sys.argv[1], sys.argv[2]
    stages = Stages()
    result = scan_folder(site, ScanSettings(), progress=stages)
    total = time.perf_counter() - stages.start
    write_result(result, out + ".json")
    try:
        text = keep_csv(build_report(result, None, None, excerpt_limit=0))
    except TypeError:
        text = ""
    with open(out + "-keep.csv", "w", encoding="utf-8") as fh:
        fh.write(text)
    print(json.dumps({"stages": stages.marks, "total": total, "pages": len(result.pages),
                      "pairs": len(result.pairs)}))
"""


def scan(code: Path, site: Path, out: Path) -> dict:
    """Scan ``site`` with the product at ``code`` in a new process, cold; returns the timings."""
    env = dict(os.environ, PYTHONPATH=str(code), XDG_CACHE_HOME=str(out.parent / f"cache-{time.monotonic_ns()}"))
    runner = out.with_suffix(".runner.py")
    runner.write_text(RUNNER)
    done = subprocess.run([sys.executable, str(runner), str(site), str(out)], cwd=code, env=env,
                          capture_output=True, text=True, check=True)  # fmt: skip
    return json.loads(done.stdout.strip().splitlines()[-1])


def score(site: Path, out: Path) -> str:
    """The truth script's summary line for a scan."""
    done = subprocess.run([sys.executable, str(SHARED / "truth.py"), "score", str(site), f"{out}.json",
                           f"{out}-keep.csv"], capture_output=True, text=True)  # fmt: skip
    lines = [line for line in done.stdout.splitlines() if line.startswith("LAST")]
    return lines[-1] if lines else done.stdout + done.stderr


def report(name: str, timing: dict, line: str) -> None:
    """Print one run's stages, speed and score."""
    marks = timing["stages"] + [("end", timing["total"])]
    print(f"\n{name}: {timing['pages']:,} pages, {timing['pairs']:,} pairs, {timing['total']:.1f} s, "
          f"{timing['pages'] / timing['total']:.1f} pages/s")  # fmt: skip
    for (stage, start), (_next, end) in zip(marks, marks[1:]):
        print(f"  {stage:<28} {end - start:7.1f} s")
    print(f"  {line}")


def main() -> int:
    """Run the benchmark; returns the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--archive", default=str(SHARED / "site.tar.xz"), help="the site's tar.xz")
    parser.add_argument("--baseline", default=DEFAULT_BASELINE, help="a commit to compare with, or 'none'")
    parser.add_argument("--keep-files", action="store_true", help="leave the extracted site and the scans in /tmp")
    parser.add_argument("--repeat", type=int, default=1,
                        help="scans of each, alternating (this checkout, baseline, ...); the median is reported")  # fmt: skip
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-realsite-"))
    site = work / "site"
    site.mkdir()
    with tarfile.open(args.archive) as tar:
        tar.extractall(site, filter="tar")
    started = time.strftime("%Y-%m-%d %H:%M")
    print(f"{started}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; site in {site}")
    runs = [("this checkout", REPO)]
    if args.baseline != "none":
        base = work / "baseline"
        base.mkdir()
        archive = subprocess.run(["git", "archive", args.baseline], cwd=REPO, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
        runs.append((f"baseline {args.baseline}", base))
    timings: dict[str, list[dict]] = {name: [] for name, _ in runs}
    for _ in range(max(1, args.repeat)):
        for name, code in runs:
            timings[name].append(scan(code, site, work / name.split()[0]))
    for name, _ in runs:
        done = sorted(timings[name], key=lambda t: t["total"])
        median = done[len(done) // 2]
        if len(done) > 1:
            totals = ", ".join(f"{t['total']:.1f}" for t in timings[name])
            print(f"\n{name}: whole scans {totals} s; the median one:")
        report(name, median, score(site, work / name.split()[0]))
    if args.keep_files:
        print(f"\nthe site and the scans are in {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
