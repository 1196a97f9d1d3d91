"""Scan benchmark: pages per second per stage, wall time, peak memory, recall of planted duplicates,
and a straightforward baseline run in the same process for comparison.

    python benchmarks/make_corpus.py --pages 1000 --out /tmp/bench-1000
    python benchmarks/bench_scan.py /tmp/bench-1000 [/tmp/bench-10000 ...] [--baseline-pages 300]

For each corpus folder (made by make_corpus.py, with its truth.csv) it prints:

* per-stage throughput measured in one process on a sample of pages: read+decode, parse+extract
  (readability-lxml), fingerprints (SimHash, shingles, MinHash);
* for the whole folder with the default settings (process pool over all cores, cache off):
  candidate pairs, measures+classification and clustering times, total wall time, pages/s;
* a rescan from the feature cache (a fresh cache is filled by a first scan);
* peak resident memory (RSS) of this process and of its worker processes;
* recall of the planted duplicate pairs (found as any duplicate type) and how many got their
  planted type.

The baseline is what a user would write with the same libraries: readability-lxml's text, the
simhash package's own text hashing, and every pair of pages compared with rapidfuzz.  It is
quadratic, so it runs on the first ``--baseline-pages`` pages only, and our engine runs on the
same pages for the ratio.
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
import resource
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from dedup_gui.core.candidates import candidate_pairs  # noqa: E402
from dedup_gui.core.cluster import build_clusters  # noqa: E402
from dedup_gui.core.decoding import decode_html  # noqa: E402
from dedup_gui.core.extract import extract  # noqa: E402
from dedup_gui.core.loading import discover, read_page_bytes  # noqa: E402
from dedup_gui.core.model import DupType, ScanSettings, Thresholds  # noqa: E402
from dedup_gui.core.scan import _analyse_with_cache, score_pairs, scan_folder  # noqa: E402
from dedup_gui.core.shingles import minhash_signature, shingle_hashes  # noqa: E402
from dedup_gui.core.simhash import simhash_text  # noqa: E402
from dedup_gui.core.tokens import tokenize  # noqa: E402


def peak_rss_mb() -> tuple[float, float]:
    """Peak RSS of this process and of its finished children, in MiB (Linux reports KiB)."""
    me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return me, children


def stage_rates(folder: Path, sample: int) -> dict[str, float]:
    """Pages per second of the per-page stages, in this process, on the first ``sample`` files."""
    files = discover(folder).files[:sample]
    settings = ScanSettings(workers=1, use_cache=False)
    t_read = t_extract = t_fp = 0.0
    for source in files:
        t0 = time.perf_counter()
        data = read_page_bytes(source, settings.max_file_bytes)
        text = decode_html(data).text
        t1 = time.perf_counter()
        found = extract(text, settings.min_tokens)
        t2 = time.perf_counter()
        tokens = tokenize(found.main_text)
        shingles = shingle_hashes(tokens, settings.shingle_size)
        minhash_signature(shingles, settings.num_perm)
        simhash_text(found.main_text)
        t3 = time.perf_counter()
        t_read += t1 - t0
        t_extract += t2 - t1
        t_fp += t3 - t2
    n = len(files)
    return {"read+decode": n / t_read, "parse+extract": n / t_extract, "fingerprints": n / t_fp, "_sample": n}


def recall(folder: Path, result) -> tuple[float, float, int]:
    """(share of planted pairs found as duplicates, share found with their planted type, planted)."""
    found = {
        frozenset((result.pages[p.left].path, result.pages[p.right].path)): p.type
        for p in result.pairs
        if p.type is not DupType.DISTINCT
    }
    with open(folder / "truth.csv", newline="", encoding="utf-8") as fh:
        truth = [(r["left"], r["right"], r["type"]) for r in csv.DictReader(fh)]
    hit = [found.get(frozenset((a, b))) for a, b, _ in truth]
    any_type = sum(1 for h in hit if h is not None) / len(truth)
    right_type = sum(1 for h, (_, _, t) in zip(hit, truth) if h is not None and h.value == t) / len(truth)
    return any_type, right_type, len(truth)


def candidate_recall(pages, candidates, limit: int) -> tuple[float, int]:
    """Share of the pairs that an exhaustive comparison (every pair of the first ``limit`` pages
    with text) finds sharing an important part of their content (containment >=
    content_partial, or identical bytes) that are also candidate pairs."""
    from dedup_gui.core.shingles import containment

    t = Thresholds()
    idx = [i for i, p in enumerate(pages) if p.has_text][:limit]
    cands = set(candidates)
    needed = found = 0
    for x, i in enumerate(idx):
        for j in idx[x + 1 :]:
            a, b = pages[i], pages[j]
            if a.sha1 == b.sha1 or containment(a.shingles, b.shingles) >= t.content_partial:
                needed += 1
                found += (min(i, j), max(i, j)) in cands
    return (found / needed if needed else 1.0), needed


def our_scan(folder: Path) -> dict:
    """Time the whole pipeline stage by stage with the default settings (pool, no cache)."""
    settings = ScanSettings(use_cache=False)
    out = {}
    t0 = time.perf_counter()
    found = discover(folder)
    outcomes = _analyse_with_cache(found.files, settings, _Null(), None)
    pages = [o for o in outcomes if hasattr(o, "simhash")]
    t1 = time.perf_counter()
    cands = candidate_pairs(pages, settings)
    t2 = time.perf_counter()
    pairs = score_pairs(pages, cands, Thresholds())
    t3 = time.perf_counter()
    build_clusters(len(pages), pairs)
    t4 = time.perf_counter()
    out.update(
        pages=len(pages),
        per_page=t1 - t0,
        candidates=t2 - t1,
        measures=t3 - t2,
        clustering=t4 - t3,
        total=t4 - t0,
        n_candidates=len(cands),
        pages_list=pages,
        candidates_list=cands,
    )
    return out


class _Null:
    def update(self, *a):
        pass

    def cancelled(self):
        return False


def baseline(folder: Path, n: int) -> tuple[float, int]:
    """The straightforward pipeline on the first ``n`` pages: seconds and pairs compared."""
    from rapidfuzz.distance import Levenshtein
    from readability import Document
    from simhash import Simhash

    files = discover(folder).files[:n]
    t0 = time.perf_counter()
    texts, hashes = [], []
    for source in files:
        html = decode_html(read_page_bytes(source, 50 << 20)).text
        summary = Document(html).summary()
        text = " ".join(lxml_text(summary).split())
        texts.append(text)
        hashes.append(Simhash(text).value)
    pairs = 0
    for i in range(len(texts)):
        for j in range(i + 1, len(texts)):
            Levenshtein.normalized_similarity(texts[i], texts[j])
            pairs += 1
    return time.perf_counter() - t0, pairs


def lxml_text(html: str) -> str:
    import lxml.html

    return lxml.html.fromstring(html).text_content() if html.strip() else ""


def subset_folder(folder: Path, n: int) -> Path:
    """A temporary folder of symlinks to the first ``n`` pages (for a same-input comparison)."""
    tmp = Path(tempfile.mkdtemp(prefix="bench-subset-"))
    for source in discover(folder).files[:n]:
        target = tmp / source.path
        target.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(source.abspath, target)
    return tmp


def main() -> None:
    """Run the benchmark on each folder and print the table."""
    ap = argparse.ArgumentParser(description="dedup-gui scan benchmark")
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--sample", type=int, default=100, help="pages for the per-stage rates")
    ap.add_argument("--baseline-pages", type=int, default=300, help="pages for the all-pairs baseline (0: skip)")
    ap.add_argument("--exhaustive-pages", type=int, default=2000,
                    help="pages compared all against all to check the candidates' recall")
    args = ap.parse_args()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    for folder in args.folders:
        print(f"\n== {folder}")
        rates = stage_rates(folder, args.sample)
        print(f"per-page stages, one process, {rates.pop('_sample')} pages:")
        for stage, rate in rates.items():
            print(f"  {stage:<16} {rate:8.1f} pages/s")
        r = our_scan(folder)
        n = r["pages"]
        print(f"whole folder, default settings ({os.cpu_count()} processes), {n} pages:")
        print(f"  read+extract+fingerprints {r['per_page']:8.1f} s  ({n / r['per_page']:.1f} pages/s)")
        print(f"  candidate pairs           {r['candidates']:8.2f} s  ({r['n_candidates']} candidates)")
        print(f"  measures+classification   {r['measures']:8.2f} s")
        print(f"  clustering                {r['clustering']:8.3f} s")
        print(f"  total                     {r['total']:8.1f} s  ({n / r['total']:.1f} pages/s)")
        outside = r["candidates"] + r["measures"] + r["clustering"]
        print(f"  outside extraction: {100 * outside / r['per_page']:.0f}% of the per-page time")
        t0 = time.perf_counter()
        rec, needed = candidate_recall(r["pages_list"], r["candidates_list"], args.exhaustive_pages)
        print(
            f"  candidate recall vs an exhaustive comparison of {min(n, args.exhaustive_pages)} pages: "
            f"{rec:.4f} of {needed} pairs sharing content ({time.perf_counter() - t0:.0f} s)"
        )
        with tempfile.TemporaryDirectory() as cache_dir:
            settings = ScanSettings(cache_dir=cache_dir)
            t0 = time.perf_counter()
            result = scan_folder(folder, settings)
            first = time.perf_counter() - t0
            t0 = time.perf_counter()
            scan_folder(folder, settings)
            again = time.perf_counter() - t0
        print(f"  first scan with cache {first:.1f} s, rescan from cache {again:.2f} s ({first / again:.0f}x faster)")
        any_type, right_type, planted = recall(folder, result)
        print(f"  recall of {planted} planted pairs: {any_type:.3f} as duplicates, {right_type:.3f} with their planted type")
        me, children = peak_rss_mb()
        print(f"  peak RSS: {me:.0f} MiB (this process), {children:.0f} MiB (largest worker)")
        if args.baseline_pages:
            m = min(args.baseline_pages, n)
            seconds, pairs = baseline(folder, m)
            sub = subset_folder(folder, m)
            t0 = time.perf_counter()
            scan_folder(sub, ScanSettings(use_cache=False))
            ours = time.perf_counter() - t0
            print(
                f"baseline (readability + simhash text hashing + all {pairs} pairs with rapidfuzz) on {m} pages: "
                f"{seconds:.1f} s; ours on the same pages: {ours:.1f} s; speed-up {seconds / ours:.1f}x"
            )


if __name__ == "__main__":
    main()
