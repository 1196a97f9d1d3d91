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

With ``--warc DIR`` (once per folder, in order) the same corpus written as a crawl archive
(``make_corpus.py --warc``) is scanned too: pages per second from the WARC.gz beside the folder's,
whether both give the same pairs, and the peak memory of listing the archive's records.

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

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from dedup_gui.core.extraction.extract import extract  # noqa: E402
from dedup_gui.core.fingerprints.shingles import minhash_signature, shingle_hashes  # noqa: E402
from dedup_gui.core.fingerprints.simhash import simhash_text  # noqa: E402
from dedup_gui.core.model import DupType, ScanSettings, Thresholds  # noqa: E402
from dedup_gui.core.pipeline.candidates import candidate_pairs  # noqa: E402
from dedup_gui.core.pipeline.cluster import build_clusters  # noqa: E402
from dedup_gui.core.pipeline.decoding import decode_html  # noqa: E402
from dedup_gui.core.pipeline.loading import discover, read_page_bytes  # noqa: E402
from dedup_gui.core.pipeline.scan import analyse_files, scan_folder, score_pairs  # noqa: E402
from dedup_gui.core.text.tokens import tokenize  # noqa: E402


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


def planted_pairs(folder: Path, pages) -> set[tuple[int, int]]:
    """The planted pairs of ``truth.csv`` as ``(i, j)`` page indices, ``i < j``."""
    index = {p.path: i for i, p in enumerate(pages)}
    with open(folder / "truth.csv", newline="", encoding="utf-8") as fh:
        rows = [(r["left"], r["right"]) for r in csv.DictReader(fh)]
    return {(min(index[a], index[b]), max(index[a], index[b])) for a, b in rows if a in index and b in index}


def exhaustive_check(pages, candidates, planted: set[tuple[int, int]], limit: int, settings: ScanSettings) -> dict:
    """Compare every pair of the first ``limit`` pages exactly and check the candidates against it.

    Every pair's shared shingles come from one sparse product (pages x shingles, SciPy), so all
    ``limit**2 / 2`` pairs are compared.  A pair *shares content* when its containment (over all
    shingles, as the classifier measures it) is at least ``content_partial``, or the two have
    the same bytes or main text.  Returns counts: planted pairs in range, planted pairs the
    exhaustive comparison finds sharing content and how many of them are candidates, all
    pairs sharing content and how many are candidates, and how many of the missed ones share
    nothing but boilerplate (shingles in more than ``boilerplate_pages`` pages).
    """
    from scipy import sparse

    from dedup_gui.core.pipeline.candidates import shared_content_counts

    t = Thresholds()
    # In the order the corpus was made (p000000, d000001, ...: the number in the name), so a
    # planted copy is in the same range as its page; path order would put all copies first.
    with_text = [i for i, p in enumerate(pages) if p.has_text]
    idx = sorted(sorted(with_text, key=lambda i: Path(pages[i].path).stem[1:])[:limit])
    sub = [pages[i] for i in idx]
    vocab, inverse = np.unique(np.concatenate([p.shingles for p in sub]), return_inverse=True)
    rows = np.repeat(np.arange(len(sub)), [len(p.shingles) for p in sub])
    a = sparse.csr_matrix((np.ones(len(rows), np.int32), (rows, inverse)), shape=(len(sub), len(vocab)))
    shared = sparse.triu(a @ a.T, k=1).tocoo()
    sizes = np.array([len(p.shingles) for p in sub])
    contained = shared.data >= t.content_partial * np.minimum(sizes[shared.row], sizes[shared.col])
    sharing = {(int(x), int(y)) for x, y in zip(shared.row[contained], shared.col[contained])}
    for key in ("sha1", "text_hash"):
        groups: dict = {}
        for k, p in enumerate(sub):
            groups.setdefault(getattr(p, key), []).append(k)
        sharing |= {(m[x], m[y]) for m in groups.values() for x in range(len(m)) for y in range(x + 1, len(m))}
    lifted = {(idx[x], idx[y]) for x, y in sharing}  # x < y and idx is increasing
    cands = lifted & set(candidates)
    missed = sorted((x, y) for x, y in lifted - cands)
    left, right, _ = shared_content_counts(sub, settings.boilerplate_pages)
    content_shared = {(idx[x], idx[y]) for x, y in zip(left.tolist(), right.tolist())}
    # Of pages with one main text, only the first is compared with other pages (the rest join
    # it as a star, and so its cluster): a pair with a later copy is covered through the first.
    first_of: dict = {}
    for i in idx:
        first_of.setdefault(pages[i].text_hash, i)
    through_copy = sum(
        1
        for x, y in missed
        if (x, y) in content_shared  # not already counted as boilerplate only
        and pages[x].text_hash != pages[y].text_hash
        and (first_of[pages[x].text_hash] != x or first_of[pages[y].text_hash] != y)
    )
    chosen = set(idx)
    in_range = {p for p in planted if p[0] in chosen and p[1] in chosen}
    return {
        "pages": len(sub),
        "pairs": len(sub) * (len(sub) - 1) // 2,
        "planted": len(in_range),
        "planted_sharing": len(in_range & lifted),
        "planted_found": len(in_range & lifted & cands),
        "sharing": len(lifted),
        "found": len(cands),
        "missed_only_boilerplate": sum(1 for m in missed if m not in content_shared),
        "missed_through_copy": through_copy,
    }


def direct_recall(pages, planted: set[tuple[int, int]], found: set[tuple[int, int]]) -> tuple[int, int]:
    """Compare every planted pair directly (measures + classifier, no candidate stage):
    (planted pairs that are duplicates when compared directly, how many of those the scan found).

    The scan's recall against this is the recall of the candidate stage alone: a planted pair
    that the classifier calls distinct even when compared (the extractor kept different blocks
    of the two pages) is a miss of the measures, not of the candidates."""
    from dedup_gui.core.pipeline.classify import classify
    from dedup_gui.core.pipeline.measures import pair_scores

    thresholds = Thresholds()
    duplicates = {
        (i, j) for i, j in planted if classify(pair_scores(pages[i], pages[j]), thresholds) is not DupType.DISTINCT
    }
    return len(duplicates), len(duplicates & found)


def pool_speedup(folder: Path, n: int) -> tuple[float, float, int]:
    """Per-page stage on the first ``n`` pages in one process and in the pool (one worker per
    core; the time includes starting the workers): (one-process pages/s, pool pages/s, pages)."""
    files = discover(folder).files[:n]
    rates = []
    for workers in (1, 0):
        t0 = time.perf_counter()
        analyse_files(files, ScanSettings(workers=workers, use_cache=False), _Null(), None)
        rates.append(len(files) / (time.perf_counter() - t0))
    return rates[0], rates[1], len(files)


def our_scan(folder: Path, cache_dir: Path | None = None, extractor: str = "readability") -> dict:
    """Time the whole pipeline stage by stage with the default settings (pool; no cache, or the
    feature cache in ``cache_dir``, which a first run fills and later runs read)."""
    from dedup_gui.core.pipeline.cache import FeatureCache

    settings = ScanSettings(
        use_cache=cache_dir is not None, cache_dir=str(cache_dir) if cache_dir else None, extractor=extractor
    )
    cache = FeatureCache(settings, cache_dir) if cache_dir else None
    out = {}
    t0 = time.perf_counter()
    found = discover(folder)
    outcomes = analyse_files(found.files, settings, _Null(), cache)
    if cache is not None:
        cache.close()
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
        pairs_list=pairs,
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


def warc_vs_folder(folder: Path, warc_folder: Path) -> None:
    """Scan a corpus folder and the same corpus as a WARC.gz (default settings, no cache, no site
    template learning) and print both rates, whether the pairs are the same (pages matched by path
    and record URL), and the peak memory (tracemalloc) of the streaming pass that lists the
    archive's records.

    Site templates are learned per URL host: the folder's pages state the URLs of the real sites
    their templates come from, the archive's records are all at ``bench.example``, so the two
    would learn different templates by design; without template learning the pairs depend on
    the pages' bytes alone, which is what this compares."""
    import tracemalloc

    from dedup_gui.core.pipeline.walk import SourceFile
    from dedup_gui.core.pipeline.warc import list_records

    found = {}
    for name, root in (("folder", folder), ("WARC.gz", warc_folder)):
        t0 = time.perf_counter()
        result = scan_folder(root, ScanSettings(use_cache=False, learn_templates=False))
        seconds = time.perf_counter() - t0
        keys = [(p.url or "").removeprefix("https://bench.example/") if p.record_offset is not None else p.path
                for p in result.pages]  # fmt: skip
        pairs = {
            (frozenset((keys[p.left], keys[p.right])), p.type) for p in result.pairs if p.type is not DupType.DISTINCT
        }
        found[name] = (len(result.pages), seconds, pairs)
        print(f"  {name:<8} {len(result.pages)} pages in {seconds:.1f} s: {len(result.pages) / seconds:.1f} pages/s")
        del result
    (n_a, s_a, pairs_a), (n_b, s_b, pairs_b) = found["folder"], found["WARC.gz"]
    print(f"  WARC.gz / folder pages/s: {(n_b / s_b) / (n_a / s_a):.3f}; "
          f"same duplicate pairs and types: {pairs_a == pairs_b} ({len(pairs_a)} / {len(pairs_b)})")  # fmt: skip
    archive = warc_folder / "crawl.warc.gz"
    tracemalloc.start()
    t0 = time.perf_counter()
    listing = list_records(SourceFile(archive.name, str(archive)), 50 * 1024 * 1024)
    seconds = time.perf_counter() - t0
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    n = len(listing.files)
    print(f"  listing {archive.stat().st_size / 2**20:.1f} MiB of WARC.gz ({n} records): {seconds:.2f} s, "
          f"peak {peak / 2**20:.1f} MiB traced ({peak / max(1, n):.0f} bytes per record listed)")  # fmt: skip


def main() -> None:
    """Run the benchmark on each folder and print the table."""
    ap = argparse.ArgumentParser(description="dedup-gui scan benchmark")
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--sample", type=int, default=100, help="pages for the per-stage rates (0: skip)")
    ap.add_argument("--baseline-pages", type=int, default=300, help="pages for the all-pairs baseline (0: skip)")
    ap.add_argument(
        "--exhaustive-pages",
        type=int,
        default=5000,
        help="pages compared all against all to check the candidates' recall",
    )
    ap.add_argument(
        "--pool-pages", type=int, default=400, help="pages for the one-process vs process-pool comparison (0: skip)"
    )
    ap.add_argument(
        "--extractor",
        default="readability",
        help="extractor of the whole-folder runs (the per-stage rates and the baseline use readability)",
    )
    ap.add_argument(
        "--cache-dir",
        type=Path,
        default=None,
        help="keep the features in this cache folder: the first run fills it, later runs "
        "time the stages after extraction without extracting again (for the largest corpora)",
    )
    ap.add_argument("--warc", type=Path, action="append", default=[], metavar="DIR",
                    help="the same corpus as a WARC.gz (make_corpus.py --warc), one per folder in order: "
                    "its scan's pages/s beside the folder's")  # fmt: skip
    ap.add_argument("--warc-only", action="store_true", help="with --warc: only the folder vs WARC.gz comparison")
    args = ap.parse_args()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    if args.warc_only:
        for folder, warc_folder in zip(args.folders, args.warc):
            print(f"\n== {folder} vs {warc_folder}")
            warc_vs_folder(folder, warc_folder)
        return
    for folder in args.folders:
        print(f"\n== {folder}")
        if args.sample:
            rates = stage_rates(folder, args.sample)
            print(f"per-page stages, one process, {rates.pop('_sample')} pages:")
            for stage, rate in rates.items():
                print(f"  {stage:<16} {rate:8.1f} pages/s")
        r = our_scan(folder, args.cache_dir, args.extractor)
        if args.cache_dir:
            print(f"(feature cache in {args.cache_dir}: the per-page time is a first scan if it was empty)")
        n = r["pages"]
        print(f"whole folder, default settings ({os.cpu_count()} processes, extractor {args.extractor}), {n} pages:")
        print(f"  read+extract+fingerprints {r['per_page']:8.1f} s  ({n / r['per_page']:.1f} pages/s)")
        print(f"  candidate pairs           {r['candidates']:8.2f} s  ({r['n_candidates']} candidates)")
        print(f"  measures+classification   {r['measures']:8.2f} s")
        print(f"  clustering                {r['clustering']:8.3f} s")
        print(f"  total                     {r['total']:8.1f} s  ({n / r['total']:.1f} pages/s)")
        outside = r["candidates"] + r["measures"] + r["clustering"]
        print(f"  outside extraction: {100 * outside / r['per_page']:.0f}% of the per-page time")
        planted = planted_pairs(folder, r["pages_list"])
        found = {(p.left, p.right) for p in r["pairs_list"] if p.type is not DupType.DISTINCT}
        cands = set(r["candidates_list"])
        print(
            f"  planted pairs that are candidates: {len(planted & cands) / len(planted):.4f} of {len(planted)}; "
            f"found as duplicates: {len(planted & found) / len(planted):.4f}"
        )
        t0 = time.perf_counter()
        direct, direct_found = direct_recall(r["pages_list"], planted, found)
        print(
            f"  planted pairs that are duplicates when compared directly: {direct}; found by the scan: "
            f"{direct_found} (recall {direct_found / max(1, direct):.4f}; {time.perf_counter() - t0:.0f} s)"
        )
        t0 = time.perf_counter()
        ex = exhaustive_check(r["pages_list"], r["candidates_list"], planted, args.exhaustive_pages, ScanSettings())
        print(
            f"  exhaustive comparison of all {ex['pairs']:,} pairs of {ex['pages']} pages ({time.perf_counter() - t0:.0f} s):\n"
            f"    planted pairs sharing content: {ex['planted_sharing']} of {ex['planted']}; candidates: "
            f"{ex['planted_found']} (recall {ex['planted_found'] / max(1, ex['planted_sharing']):.4f})\n"
            f"    all pairs sharing content: {ex['sharing']}; candidates: {ex['found']} "
            f"(recall {ex['found'] / max(1, ex['sharing']):.4f}); of the {ex['sharing'] - ex['found']} missed, "
            f"{ex['missed_only_boilerplate']} share only boilerplate and {ex['missed_through_copy']} are "
            "joined through an identical copy of one page"
        )
        if args.pool_pages:
            one, pool, m = pool_speedup(folder, args.pool_pages)
            print(
                f"  per-page stage on {m} pages: one process {one:.1f} pages/s, {os.cpu_count()} processes "
                f"{pool:.1f} pages/s ({pool / one:.2f}x)"
            )
        # The scans below hold their own pages: drop the first scan's, or the peak RSS printed
        # after them counts two scans' pages at once.
        r.clear()
        if args.cache_dir:
            me, children = peak_rss_mb()
            print(f"  peak RSS of the scan: {me:.0f} MiB (this process), {children:.0f} MiB (largest worker)")
            t0 = time.perf_counter()
            result = scan_folder(folder, ScanSettings(cache_dir=str(args.cache_dir), extractor=args.extractor))
            print(f"  rescan from the cache in {args.cache_dir}: {time.perf_counter() - t0:.1f} s")
        else:
            with tempfile.TemporaryDirectory() as cache_dir:
                settings = ScanSettings(cache_dir=cache_dir)
                t0 = time.perf_counter()
                result = scan_folder(folder, settings)
                first = time.perf_counter() - t0
                t0 = time.perf_counter()
                scan_folder(folder, settings)
                again = time.perf_counter() - t0
            print(
                f"  first scan with cache {first:.1f} s, rescan from cache {again:.2f} s ({first / again:.0f}x faster)"
            )
        any_type, right_type, planted = recall(folder, result)
        print(
            f"  recall of {planted} planted pairs: {any_type:.3f} as duplicates, {right_type:.3f} with their planted type"
        )
        me, children = peak_rss_mb()
        print(f"  peak RSS of the whole run: {me:.0f} MiB (this process), {children:.0f} MiB (largest worker)")
        if len(args.warc) > args.folders.index(folder):
            warc_vs_folder(folder, args.warc[args.folders.index(folder)])
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
