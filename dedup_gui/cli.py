"""The command line: ``scan``, ``classify`` and ``evaluate`` (headless), or the GUI.

``python app.py`` opens the GUI on the bundled sample pages, ``python app.py FOLDER`` on FOLDER;
the subcommands run the same engine without a window (DESIGN.md, "Command line").
"""

from __future__ import annotations

import argparse
import csv
import io
import sys
import time
from pathlib import Path

from . import __version__
from .core.extract import EXTRACTORS
from .core.evaluate import evaluate, format_evaluation, read_labels, score_labeled_pairs
from .core.model import ScanSettings, Thresholds
from .core.progress import EtaEstimator, ScanCancelled
from .core.report import PREDICTION_COLUMNS, atomic_write_text, score_row, summary_text, write_result
from .core.scan import scan_folder

SUBCOMMANDS = ("scan", "classify", "evaluate")


class TerminalProgress:
    """Prints progress to stderr: a live line on a terminal, one line per stage otherwise.

    Args:
        stream: where to print (defaults to ``sys.stderr``).
    """

    def __init__(self, stream=None) -> None:
        self.stream = stream or sys.stderr
        self.live = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.eta = EtaEstimator()
        self.stage: str | None = None
        self.last = 0.0

    def update(self, stage: str, done: int, total: int) -> None:
        """Show ``done`` of ``total`` for ``stage``."""
        eta = self.eta.eta(stage, done, total)
        if stage != self.stage:
            if self.live and self.stage is not None:
                self.stream.write("\n")
            self.stage = stage
            if not self.live:
                self.stream.write(f"{stage} ({total})...\n")
                self.stream.flush()
        if not self.live:
            return
        now = time.monotonic()
        if now - self.last < 0.1 and done < total:
            return
        self.last = now
        left = f", about {eta:.0f} s left" if eta is not None and done < total else ""
        self.stream.write(f"\r{stage}: {done}/{total}{left}    ")
        if done >= total:
            self.stream.write("\n")
            self.stage = None
        self.stream.flush()

    def cancelled(self) -> bool:
        """Never cancelled from here: Ctrl-C interrupts the process."""
        return False


def _add_threshold_args(parser: argparse.ArgumentParser) -> None:
    d = Thresholds()
    g = parser.add_argument_group("thresholds (defaults measured on shared/pairs, see README)")
    g.add_argument("--content-same", type=float, default=d.content_same, metavar="X",
                   help=f"content similarity or containment for 'same content' (default {d.content_same})")
    g.add_argument("--content-partial", type=float, default=d.content_partial, metavar="X",
                   help=f"content containment for 'important part shared' (default {d.content_partial})")
    g.add_argument("--layout-same", type=float, default=d.layout_same, metavar="X",
                   help=f"layout similarity for 'same layout' (default {d.layout_same})")
    g.add_argument("--hamming-k", type=int, default=d.hamming_k, metavar="K",
                   help=f"SimHash Hamming distance for near duplicates, bits (default {d.hamming_k})")  # fmt: skip


def _add_setting_args(parser: argparse.ArgumentParser) -> None:
    d = ScanSettings()
    g = parser.add_argument_group("scan settings")
    g.add_argument("--max-file-mb", type=float, default=d.max_file_bytes / 2**20, metavar="MB",
                   help=f"files larger than this are reported as too large (default {d.max_file_bytes / 2**20:g})")
    g.add_argument("--min-tokens", type=int, default=d.min_tokens, metavar="N",
                   help=f"fewest main-text tokens of a page with usable text (default {d.min_tokens})")
    g.add_argument("--page-timeout", type=float, default=d.page_timeout, metavar="S",
                   help=f"seconds one page may take before it is cut off and reported (default {d.page_timeout:g})")
    g.add_argument("--extractor", choices=sorted(EXTRACTORS), default=d.extractor,
                   help="main-content extractor: " + "; ".join(f"{k}: {v}" for k, v in EXTRACTORS.items()))
    g.add_argument("--dask-scheduler", metavar="ADDRESS", default=None,
                   help="run the per-page stage on a Dask distributed cluster (e.g. tcp://host:8786)")
    g.add_argument("--no-cache", action="store_true",
                   help="neither read nor write the feature cache (in $XDG_CACHE_HOME/dedup-gui)")
    g.add_argument("--workers", type=int, default=d.workers, metavar="N",
                   help="processes for reading pages (default 0: one per core for big folders)")  # fmt: skip


def _thresholds(args) -> Thresholds:
    return Thresholds(
        content_same=args.content_same,
        content_partial=args.content_partial,
        layout_same=args.layout_same,
        hamming_k=args.hamming_k,
    )


def _settings(args) -> ScanSettings:
    return ScanSettings(
        max_file_bytes=int(args.max_file_mb * 2**20),
        min_tokens=args.min_tokens,
        workers=args.workers,
        page_timeout=args.page_timeout,
        use_cache=not args.no_cache,
        dask_scheduler=args.dask_scheduler,
        extractor=args.extractor,
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the headless subcommands (argparse.ArgumentParser)."""
    parser = argparse.ArgumentParser(
        prog="dedup-gui",
        description="Find and classify duplicate web pages (full / content / layout / partial). "
        "Without a subcommand: 'dedup-gui [FOLDER]' opens the window.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    scan = sub.add_parser("scan", help="scan a folder of saved pages and write a report",
                          description="Scan FOLDER recursively and write OUT; its suffix picks the "
                          "format: .csv (duplicate pairs), .json (everything), .html (report).")  # fmt: skip
    scan.add_argument("folder", help="folder of saved pages (read only)")
    scan.add_argument("-o", "--output", required=True, help="output file: .csv, .json or .html")
    scan.add_argument("-q", "--quiet", action="store_true", help="no progress, no summary")
    _add_threshold_args(scan)
    _add_setting_args(scan)

    classify = sub.add_parser("classify", help="classify labelled (or listed) pairs of pages",
                              description="Read pairs from LABELS.csv (columns left,right; paths "
                              "relative to the CSV's folder) and write PREDICTIONS.csv.")  # fmt: skip
    classify.add_argument("--pairs", required=True, metavar="LABELS.csv")
    classify.add_argument("-o", "--output", required=True, metavar="PREDICTIONS.csv")
    _add_threshold_args(classify)
    _add_setting_args(classify)

    ev = sub.add_parser("evaluate", help="evaluate the classifier on labelled pairs",
                        description="Classify the pairs of LABELS.csv (columns left,right,type) and "
                        "print the confusion matrix, per-type precision, recall and F1, and macro-F1.")  # fmt: skip
    ev.add_argument("--pairs", required=True, metavar="LABELS.csv")
    _add_threshold_args(ev)
    _add_setting_args(ev)
    return parser


def _cmd_scan(args) -> int:
    folder = Path(args.folder)
    if not folder.is_dir():
        print(f"error: not a folder: {folder}", file=sys.stderr)
        return 2
    out = Path(args.output)
    if out.suffix.lower() not in (".csv", ".json", ".html", ".htm"):
        print(f"error: {out}: the output suffix must be .csv, .json or .html", file=sys.stderr)
        return 2
    progress = None if args.quiet else TerminalProgress()
    result = scan_folder(folder, _settings(args), _thresholds(args), progress)
    try:
        write_result(result, out)
    except OSError as exc:
        print(f"error: cannot write {out}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    if not args.quiet:
        print(summary_text(result))
        print(f"wrote {out}")
    return 0


def _load_scored(args):
    labels_path = Path(args.pairs)
    labels = read_labels(labels_path)
    return score_labeled_pairs(labels, labels_path.parent, _thresholds(args), _settings(args), TerminalProgress())


def _cmd_classify(args) -> int:
    scored = _load_scored(args)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow([*PREDICTION_COLUMNS, "error"])
    for s in scored:
        if s.scores is None:
            writer.writerow([s.pair.left, s.pair.right, "", "", "", "", "", "", s.error])
            print(f"warning: {s.error}", file=sys.stderr)
        else:
            writer.writerow([s.pair.left, s.pair.right, s.predicted.value, *score_row(s.scores), ""])
    try:
        atomic_write_text(args.output, buf.getvalue())
    except OSError as exc:
        print(f"error: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"wrote {len(scored)} predictions to {args.output}")
    return 0


def _cmd_evaluate(args) -> int:
    scored = _load_scored(args)
    for s in scored:
        if s.error:
            print(f"warning: not scored: {s.error}", file=sys.stderr)
    print(format_evaluation(evaluate(scored)))
    return 0


def run_cli(argv: list[str]) -> int:
    """Run a headless subcommand.

    Args:
        argv: arguments after the program name, starting with the subcommand.

    Returns:
        The process exit code (0 = success, 1 = failure, 2 = bad usage, 130 = interrupted).
    """
    args = build_parser().parse_args(argv)
    try:
        return {"scan": _cmd_scan, "classify": _cmd_classify, "evaluate": _cmd_evaluate}[args.command](args)
    except (ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except (KeyboardInterrupt, ScanCancelled):
        print("\ninterrupted", file=sys.stderr)
        return 130


def main(argv: list[str] | None = None) -> int:
    """Entry point: a subcommand runs headless; otherwise the GUI opens (on FOLDER if given).

    Returns:
        The process exit code.
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and (argv[0] in SUBCOMMANDS or argv[0] in ("-h", "--help", "--version")):
        return run_cli(argv)
    gui = argparse.ArgumentParser(prog="dedup-gui", description="Open the duplicate-page inspector window.")
    gui.add_argument("folder", nargs="?", help="folder to scan (default: the bundled sample pages)")
    args = gui.parse_args(argv)
    if args.folder and not Path(args.folder).is_dir():
        print(f"error: not a folder: {args.folder}", file=sys.stderr)
        return 2
    from .gui import run_gui  # Qt is imported only for the window

    return run_gui(args.folder)
