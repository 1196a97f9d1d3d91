"""Table benchmark: the pairs table, its filters and the content/layout map at 10,000 to 1,000,000
pair rows, against the straightforward implementation as the baseline, in one run.

    QT_QPA_PLATFORM=offscreen python benchmarks/bench_table.py [--sizes 10000,100000,1000000]
        [--pages 20000] [--baseline-rev REV] [--baseline-max-rows N] [--no-map]

For each size a synthetic :class:`~dedup_gui.core.model.ScanResult` is built (``--pages`` pages
with realistic paths, in templates of 200 pages; the pairs are drawn inside templates, scored,
classified by the real rule and clustered by the real union-find), and the real main window
receives it from a fake scan, as after a real scan.  The script then prints, for this checkout
and for the baseline, each in a fresh process (so peak RSS is per configuration):

* arrival: the longest stall of the event loop (a 5 ms timer's largest gap) from the scan's end
  until the window has settled, and the wall time of the result's hand-over (``_set_result``);
* sorting the pairs table by a text column (Left), a float column (Content similarity) and an int
  column (Hamming distance), ascending and descending, each followed by a repaint;
* the type filter ("Duplicates only", then "layout duplicate"), the file-name filter, the record
  filter of a histogram bar (the most common Hamming distance), and clearing every filter;
* scrolling: scrollToBottom + repaint, and the mean of 50 jumps of the scroll bar + repaint;
* the map: showing its tab (a full draw of every point), hovering a point, clicking a point;
* peak RSS of the process.

The baseline is the code at ``--baseline-rev`` (default: the last commit whose tables sorted a
Python permutation and filtered through ``QSortFilterProxyModel.filterAcceptsRow``), extracted
with ``git archive`` into a temporary folder; the script drives both through the same public
widgets (header sort, the filter bar, the histogram's record filter), so the ratio compares like
with like.  It is a measurement script, not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
#: The last commit before the NumPy table models (Python sort + filterAcceptsRow per row).
BASELINE_REV = "758430b"
TEMPLATE_PAGES = 200  # pages per template; pairs are drawn inside templates
SEED = 20261130

HOSTS = ("www.example-shop.com", "news.example.org", "blog.example.net", "docs.example.io",
         "forum.example.co.uk", "www.beispiel-laden.de")  # fmt: skip
WORDS = ("garden", "tools", "kitchen", "politics", "sport", "review", "guide", "install", "release",
         "notes", "catalog", "product", "archive", "travel", "recipes", "weather", "market", "city",
         "football", "science", "health", "music", "video", "photo", "jobs", "forum", "thread")  # fmt: skip


# --- the synthetic result ---------------------------------------------------------------------


def build_result(n_pairs: int, n_pages: int, seed: int = SEED):
    """A synthetic scan: ``n_pages`` pages in templates of :data:`TEMPLATE_PAGES`, ``n_pairs``
    distinct pairs drawn inside templates, scored, classified and clustered by the engine.

    Args:
        n_pairs: pair rows to make (int); at most ``n_pages / 200 * 19,900``.
        n_pages: pages (int).
        seed: the random seed (the same seed gives the same result).

    Returns:
        A :class:`~dedup_gui.core.model.ScanResult`, pairs most similar first.

    Raises:
        ValueError: more pairs than the templates hold.
    """
    import numpy as np

    from dedup_gui.core.model import Page, Pair, PairScores, ScanResult, ScanSettings, Thresholds
    from dedup_gui.core.pipeline.classify import classify
    from dedup_gui.core.pipeline.cluster import build_clusters

    rng = np.random.default_rng(seed)
    templates = n_pages // TEMPLATE_PAGES
    per_template = TEMPLATE_PAGES * (TEMPLATE_PAGES - 1) // 2
    if n_pairs > templates * per_template:
        raise ValueError(f"{n_pairs:,} pairs do not fit in {templates} templates of {TEMPLATE_PAGES} pages")
    empty32, minhash = np.zeros(0, np.uint32), np.zeros(128, np.uint64)
    paths = []
    for i in range(n_pages):
        t = i // TEMPLATE_PAGES
        host = HOSTS[t % len(HOSTS)]
        a, b, c = (WORDS[int(x)] for x in rng.integers(0, len(WORDS), 3))
        paths.append(f"{host}/{a}/{2015 + t % 10}/{b}-{c}-{i:05d}.html")
    paths.sort()  # a scan lists its pages by path
    simhashes = rng.integers(0, 2**63, n_pages, dtype=np.int64)
    words = rng.integers(20, 5000, n_pages)
    pages = [
        Page(
            path=p,
            abspath=f"/data/crawl/{p}",
            size=int(w) * 7,
            sha1="0" * 40,
            encoding="utf-8",
            encoding_source="meta",
            title=f"Page {i} – {p.rsplit('/', 1)[-1][:-5].replace('-', ' ')}",
            url=f"https://{p}" if i % 3 else None,
            main_text=f"main text of page {i}",
            text_hash="0" * 40,
            tag_sequence=("html", "body"),
            simhash=int(simhashes[i]),
            shingles=empty32,
            minhash=minhash,
            word_count=int(w),
            has_text=i % 50 != 7,
        )
        for i, (p, w) in enumerate(zip(paths, words))
    ]
    # pairs: a random subset of every template's 19,900 pairs (page order inside a template is
    # shuffled, so templates interleave in path order as real sites do)
    perm = rng.permutation(n_pages)
    iu, ju = np.triu_indices(TEMPLATE_PAGES, 1)
    share = np.full(templates, n_pairs // templates)
    share[: n_pairs % templates] += 1
    lefts, rights = [], []
    for t in range(templates):
        pick = rng.choice(per_template, int(share[t]), replace=False)
        a, b = perm[t * TEMPLATE_PAGES + iu[pick]], perm[t * TEMPLATE_PAGES + ju[pick]]
        lefts.append(np.minimum(a, b))
        rights.append(np.maximum(a, b))
    left, right = np.concatenate(lefts), np.concatenate(rights)
    content = rng.beta(0.6, 1.4, n_pairs)
    content[rng.random(n_pairs) < 0.05] = 1.0  # exact copies
    containment = np.minimum(1.0, content + rng.random(n_pairs) * 0.3)
    layout = np.clip(rng.normal(0.75, 0.2, n_pairs), 0, 1)
    hamming = np.clip(np.round((1 - content) * 40 + rng.normal(0, 3, n_pairs)), 0, 64).astype(int)
    jaccard = content * rng.uniform(0.5, 1.0, n_pairs)
    order = np.lexsort((right, left, -content))  # most similar first
    thresholds = Thresholds()
    pairs = []
    for k in order.tolist():
        s = PairScores(float(content[k]), float(containment[k]), float(layout[k]), int(hamming[k]),
                       float(jaccard[k]), identical_bytes=False,
                       both_have_text=pages[left[k]].has_text and pages[right[k]].has_text)  # fmt: skip
        pairs.append(Pair(int(left[k]), int(right[k]), s, classify(s, thresholds)))
    return ScanResult(root="/data/crawl", pages=pages, errors=[], pairs=pairs,
                      clusters=build_clusters(n_pages, pairs), thresholds=thresholds,
                      settings=ScanSettings(), elapsed=1.0)  # fmt: skip


# --- one configuration, in a child process ------------------------------------------------------


class Stalls:
    """Records the event loop's longest gap between ticks of a 5 ms timer (seconds)."""

    def __init__(self) -> None:
        from PySide6.QtCore import QTimer

        self.longest = 0.0
        self._last = time.perf_counter()
        self.timer = QTimer()
        self.timer.setInterval(5)
        self.timer.timeout.connect(self._tick)

    def start(self) -> None:
        """Start measuring from now."""
        self.longest, self._last = 0.0, time.perf_counter()
        self.timer.start()

    def stop(self) -> float:
        """Stop; return the longest gap (float, seconds)."""
        self._tick()
        self.timer.stop()
        return self.longest

    def _tick(self) -> None:
        now = time.perf_counter()
        self.longest = max(self.longest, now - self._last)
        self._last = now


def run_config(n_pairs: int, n_pages: int, with_map: bool, repeat: int = 3) -> dict:
    """Build a result, show it in the main window of whatever ``dedup_gui`` is importable, and
    time every operation (see the module docstring).

    Args:
        n_pairs: pair rows (int).
        n_pages: pages of the synthetic scan (int).
        with_map: also time the map (bool).
        repeat: runs of each table operation; the median is kept (int, at least 1).  Each run
            starts from the same state, set up untimed.

    Returns:
        ``{operation: seconds}`` plus ``"peak_rss_mib"``, ``"rows"`` and the row counts each
        filter left (dict).
    """
    from statistics import median

    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(["bench"])
    from dedup_gui.core.views.selection import pairs_at_distance
    from dedup_gui.gui.main_window import MainWindow

    t0 = time.perf_counter()
    result = build_result(n_pairs, n_pages)
    out: dict = {"build_s": time.perf_counter() - t0, "rows": len(result.pairs)}

    window = MainWindow(scan_fn=lambda *_args: result)
    window.resize(1440, 900)
    window.show()
    app.processEvents()
    panel, view = window.pairs_panel, window.pairs_panel.view
    header = view.horizontalHeader()
    asc, desc = Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder

    def settle(seconds: float = 0.0, until=None, limit: float = 120.0) -> None:
        end, give_up = time.perf_counter() + seconds, time.perf_counter() + limit
        while time.perf_counter() < give_up:
            app.processEvents()
            if time.perf_counter() >= end and (until is None or until()):
                return
            time.sleep(0.002)

    def timed(op, setup=None) -> float:
        """Median seconds of ``op`` + pending events + a repaint of the table, each run after
        an untimed ``setup``."""
        times = []
        for _ in range(repeat):
            if setup is not None:
                setup()
                settle()
            start = time.perf_counter()
            op()
            app.processEvents()
            view.viewport().repaint()
            times.append(time.perf_counter() - start)
        return median(times)

    def shown() -> int:
        return view.model().rowCount()  # the table's visible rows, in the old code and the new

    # arrival: the whole hand-over, as the event loop sees it
    handover = []
    original = window._set_result

    def timed_set_result(res, *rest):
        start = time.perf_counter()
        original(res, *rest)
        handover.append(time.perf_counter() - start)

    window._set_result = timed_set_result
    stalls = Stalls()
    ended = []
    window.scan_ended.connect(ended.append)
    stalls.start()
    window.start_scan(tempfile.gettempdir())
    settle(1.5, until=lambda: ended and not window.is_busy())
    out["arrival_stall_s"] = stalls.stop()
    out["arrival_handover_s"] = max(handover) if handover else float("nan")
    settle(0.5)

    # sorting: what a header click does (QTableView.sortByColumn would sort twice); ascending
    # from another column's order, descending from ascending (the second click)
    for name, col in (("text", 0), ("float", 3), ("int", 6)):
        out[f"sort_{name}_asc_s"] = timed(lambda c=col: header.setSortIndicator(c, asc),
                                          setup=lambda: header.setSortIndicator(1, asc))  # fmt: skip
        out[f"sort_{name}_desc_s"] = timed(lambda c=col: header.setSortIndicator(c, desc),
                                           setup=lambda c=col: header.setSortIndicator(c, asc))  # fmt: skip
    header.setSortIndicator(3, desc)
    settle()

    labels = [panel.type_combo.itemText(i) for i in range(panel.type_combo.count())]

    def type_filter(label: str):
        return lambda: panel.type_combo.setCurrentIndex(labels.index(label))

    def text_filter(text: str):
        def apply() -> None:
            panel.text_filter.setText(text)
            panel.apply_text_filter()

        return apply

    distances = [p.scores.hamming_distance for p in result.pairs[:: max(1, len(result.pairs) // 1000)]]
    common = max(set(distances), key=distances.count)

    out["filter_type_dups_s"] = timed(type_filter("Duplicates only"), setup=type_filter("All types"))
    out["filter_type_layout_s"] = timed(type_filter("layout duplicate"), setup=type_filter("All types"))
    out["rows_after_type"] = shown()
    type_filter("All types")()
    out["filter_text_s"] = timed(text_filter("garden"), setup=text_filter(""))
    out["rows_after_text"] = shown()
    out["filter_record_s"] = timed(lambda: window.filter_by_distance(common), setup=panel.clear_record_filter)
    out["rows_after_record"] = shown()
    out["record_filter_pairs"] = len(pairs_at_distance(result, common))

    def all_filters() -> None:
        type_filter("Duplicates only")()
        text_filter("garden")()
        window.filter_by_distance(common)

    def clear() -> None:
        text_filter("")()
        type_filter("All types")()
        panel.clear_record_filter()

    out["filter_clear_all_s"] = timed(clear, setup=all_filters)
    out["rows_after_clear"] = shown()

    out["scroll_bottom_s"] = timed(view.scrollToBottom, setup=view.scrollToTop)
    bar = view.verticalScrollBar()
    steps = [int(bar.maximum() * f) for f in (0.13, 0.71, 0.42, 0.99, 0.05) * 10]
    start = time.perf_counter()
    for value in steps:
        bar.setValue(value)
        app.processEvents()
        view.viewport().repaint()
    out["scroll_jump_mean_s"] = (time.perf_counter() - start) / len(steps)
    view.scrollToTop()

    # a threshold change: every pair re-classified in the background, then every view updated
    if hasattr(window, "apply_thresholds"):
        import dataclasses

        changed = []
        window.results_changed.connect(lambda: changed.append(time.perf_counter()))
        stalls = Stalls()
        stalls.start()
        start = time.perf_counter()
        window.apply_thresholds(dataclasses.replace(window.thresholds(), layout_same=0.7))
        settle(0.3, until=lambda: changed and not window.is_busy(), limit=300.0)
        out["threshold_change_stall_s"] = stalls.stop()
        out["threshold_change_s"] = (changed[-1] - start) if changed else float("nan")

    if with_map:
        from matplotlib.backend_bases import MouseButton, MouseEvent

        map_view = window.map_view
        canvas = map_view.canvas
        drawn = []
        cid = canvas.mpl_connect("draw_event", lambda _e: drawn.append(time.perf_counter()))
        stalls.start()
        start = time.perf_counter()
        window.tabs.setCurrentWidget(map_view)
        settle(until=lambda: drawn, limit=300.0)
        out["map_show_s"] = (drawn[0] if drawn else time.perf_counter()) - start
        settle(0.3)
        out["map_show_stall_s"] = stalls.stop()
        canvas.mpl_disconnect(cid)
        redraws = []
        for _ in range(repeat):  # a new result or palette: the figure is built and drawn again
            start = time.perf_counter()
            map_view.redraw(force=True)
            canvas.draw()
            redraws.append(time.perf_counter() - start)
        out["map_redraw_s"] = median(redraws)
        settle(0.3)
        ax = map_view.figure.axes[0]
        target = max(range(min(len(result.pairs), 5000)), key=lambda i: result.pairs[i].scores.layout_similarity)
        x, y = ax.transData.transform((result.pairs[target].scores.content_similarity,
                                       result.pairs[target].scores.layout_similarity))  # fmt: skip
        hovers = []
        for _ in range(repeat):
            MouseEvent("motion_notify_event", canvas, 2, 2)._process()  # off the points: no label
            settle()
            start = time.perf_counter()
            MouseEvent("motion_notify_event", canvas, x, y)._process()
            app.processEvents()
            hovers.append(time.perf_counter() - start)
        out["map_hover_s"] = median(hovers)
        start = time.perf_counter()
        MouseEvent("button_press_event", canvas, x, y, button=MouseButton.LEFT)._process()
        app.processEvents()
        out["map_click_s"] = time.perf_counter() - start
        out["map_click_selected"] = window.current_pair_index() is not None
    window.shutdown()
    out["peak_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


# --- the driver -------------------------------------------------------------------------------

ROWS = [
    ("arrival: longest event-loop stall", "arrival_stall_s"),
    ("arrival: _set_result wall time (now its first step: the tables)", "arrival_handover_s"),
    ("sort text (Left) asc", "sort_text_asc_s"),
    ("sort text (Left) desc", "sort_text_desc_s"),
    ("sort float (Content sim.) asc", "sort_float_asc_s"),
    ("sort float (Content sim.) desc", "sort_float_desc_s"),
    ("sort int (Hamming) asc", "sort_int_asc_s"),
    ("sort int (Hamming) desc", "sort_int_desc_s"),
    ("filter type: duplicates only", "filter_type_dups_s"),
    ("filter type: layout duplicate", "filter_type_layout_s"),
    ("filter file name 'garden'", "filter_text_s"),
    ("filter record (histogram bar)", "filter_record_s"),
    ("clear all filters", "filter_clear_all_s"),
    ("scrollToBottom + repaint", "scroll_bottom_s"),
    ("scroll jump + repaint (mean)", "scroll_jump_mean_s"),
    ("threshold change: until every view shows it", "threshold_change_s"),
    ("threshold change: longest event-loop stall", "threshold_change_stall_s"),
    ("map: show tab (full draw)", "map_show_s"),
    ("map: longest stall on showing", "map_show_stall_s"),
    ("map: redraw (new result, palette)", "map_redraw_s"),
    ("map: hover a point", "map_hover_s"),
    ("map: click a point", "map_click_s"),
]


def baseline_tree(rev: str, into: Path) -> Path:
    """Extract ``dedup_gui`` at git revision ``rev`` of this repository into ``into`` (Path)."""
    archive = subprocess.run(["git", "-C", str(REPO), "archive", rev, "dedup_gui"], check=True,
                             capture_output=True).stdout  # fmt: skip
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def spawn(tree: Path, n_pairs: int, n_pages: int, with_map: bool, settings_dir: Path, repeat: int) -> dict:
    """Run :func:`run_config` in a fresh interpreter importing ``dedup_gui`` from ``tree``."""
    env = dict(os.environ, PYTHONPATH=str(tree), QT_QPA_PLATFORM="offscreen",
               DEDUP_GUI_SETTINGS=str(settings_dir / f"settings-{os.getpid()}-{time.time_ns()}.ini"))  # fmt: skip
    args = [sys.executable, str(Path(__file__).resolve()), "--child", json.dumps([n_pairs, n_pages, with_map, repeat])]
    proc = subprocess.run(args, check=False, env=env, capture_output=True, text=True, cwd=str(tree))
    if proc.returncode != 0:
        return {"error": (proc.stderr or proc.stdout).strip().splitlines()[-1:] or [f"exit {proc.returncode}"]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def fmt(seconds) -> str:
    """Seconds as ``"123 ms"`` or ``"1.23 s"`` (str); ``"-"`` when missing."""
    if seconds is None or math.isnan(seconds):
        return "-"
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


def print_table(n_pairs: int, old: dict | None, new: dict) -> None:
    """Print one size's table: operation, baseline, this checkout, ratio."""
    print(f"\n## {n_pairs:,} pair rows\n")
    print("| operation | baseline | now | speed-up |")
    print("|---|---:|---:|---:|")
    for label, key in ROWS:
        a, b = (old or {}).get(key), new.get(key)
        if a is None and b is None:
            continue
        ratio = f"{a / b:.1f}x" if a and b else "-"
        print(f"| {label} | {fmt(a)} | {fmt(b)} | {ratio} |")
    rss_old = f"{old['peak_rss_mib']:.0f} MiB" if old and "peak_rss_mib" in old else "-"
    print(f"| peak RSS | {rss_old} | {new.get('peak_rss_mib', float('nan')):.0f} MiB | |")
    for tag, res in (("baseline", old), ("now", new)):
        if res and "error" in res:
            print(f"\n{tag} failed: {res['error']}")
        elif res:
            print(f"\n{tag}: rows shown after type filter {res['rows_after_type']:,}, after 'garden' "
                  f"{res['rows_after_text']:,}, after record filter {res['rows_after_record']:,} "
                  f"(bar: {res['record_filter_pairs']:,} pairs), after clearing {res['rows_after_clear']:,}; "
                  f"building the result took {res['build_s']:.1f} s", end="")  # fmt: skip
            print(f"; map click selected a pair: {res['map_click_selected']}" if "map_click_selected" in res else "")


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, run every configuration, print the tables (exit status int)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000,1000000", help="pair rows, comma-separated")
    parser.add_argument("--pages", type=int, default=20_000, help="pages of the synthetic scan")
    parser.add_argument("--baseline-rev", default=BASELINE_REV, help="git revision of the baseline")
    parser.add_argument("--baseline-max-rows", type=int, default=10**9, help="skip the baseline above this")
    parser.add_argument("--no-baseline", action="store_true", help="measure this checkout only")
    parser.add_argument("--no-map", action="store_true", help="skip the map measurements")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each operation (the median is shown)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        n_pairs, n_pages, with_map, repeat = json.loads(args.child)
        print(json.dumps(run_config(n_pairs, n_pages, with_map, repeat)))
        return 0
    sizes = [int(s) for s in args.sizes.split(",")]
    cores = os.cpu_count()
    print(f"# bench_table: {platform.machine()}, {cores} cores, Python {platform.python_version()}, "
          f"baseline {args.baseline_rev}, {args.pages:,} pages, median of {args.repeat} runs")  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="bench-table-") as tmp:
        tmp_path = Path(tmp)
        old_tree = None
        if not args.no_baseline:
            (tmp_path / "baseline").mkdir()
            old_tree = baseline_tree(args.baseline_rev, tmp_path / "baseline")
        for n in sizes:
            old = None
            if old_tree is not None and n <= args.baseline_max_rows:
                old = spawn(old_tree, n, args.pages, not args.no_map, tmp_path, args.repeat)
            new = spawn(REPO, n, args.pages, not args.no_map, tmp_path, args.repeat)
            print_table(n, old, new)
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
