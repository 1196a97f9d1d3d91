"""The command line: ``scan``, ``classify`` and ``evaluate`` (headless; ``evaluate --extraction``
scores the main-content extractors against ground truth), or the GUI.

``python app.py`` opens the GUI on the bundled sample pages, ``python app.py FOLDER`` on FOLDER;
the subcommands run the same engine without a window (DESIGN.md, "Command line").

Every string printed that comes from outside the program (paths, reasons and errors that quote
them) goes through :func:`~dedup_gui.core.safe_text.terminal_text` (``show`` here): a file name's
ESC, newline or bidi control is printed as ``\\x1b``, ``\\n``, ``\\u202e``, so it can neither
recolour the terminal nor forge a line such as ``error: ...``.
"""

from __future__ import annotations

import argparse
import io
import shutil
import signal
import sys
import time
from dataclasses import replace
from pathlib import Path

from dedup_gui.cli_parser import SUBCOMMANDS, build_parser, keep_policy_of, settings_of, thresholds_of
from dedup_gui.core.atomic import ExportError, atomic_write_bytes, check_writable
from dedup_gui.core.evaluation.evaluate import (
    evaluate,
    format_evaluation,
    read_labels,
    score_labeled_pairs,
    settings_line,
)
from dedup_gui.core.evaluation.extraction_eval import (
    SCORING_NOTE,
    format_table,
    format_worst,
    product_extractors,
    run_extractor,
)
from dedup_gui.core.evaluation.ground_truth import DEFAULT_CORPUS, load_ground_truth
from dedup_gui.core.evaluation.method_eval import (
    evaluate_methods,
    format_methods,
    parse_methods,
    pr_figure,
)
from dedup_gui.core.evaluation.wrong_pairs import format_wrong, wrong_csv, wrong_pairs
from dedup_gui.core.pipeline.classify import threshold_warnings
from dedup_gui.core.pipeline.keep import keep_rule_line
from dedup_gui.core.pipeline.scan import scan_folder
from dedup_gui.core.pipeline.walk import is_archive_root, is_warc_name
from dedup_gui.core.progress import EtaEstimator, ScanCancelled, stage_count_text
from dedup_gui.core.reports.copy_kept import check_destination, copy_kept
from dedup_gui.core.reports.write import PREDICTION_COLUMNS, atomic_write_text, format_for, score_row, summary_text
from dedup_gui.core.safe_text import csv_text
from dedup_gui.core.safe_text import terminal_text as show
from dedup_gui.export import export
from dedup_gui.gui import SCREENSHOT_VIEWS


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
        self.named: str | None = None  # the step without a count last named
        self.said: str | None = None  # the stage last named in any form (with a count or not)
        self.last = 0.0
        self.shown = 0  # characters of the live line last written
        self._work: tuple[str, int, int] | None = None  # the latest (stage, done, total) of work

    def work(self, stage: str, done: int, total: int) -> None:
        """Take the work of ``stage`` done so far (``core.progress.report_work``; the reading
        step's bytes): the time left in the stage is estimated from it."""
        self._work = (stage, done, total)

    def update(self, stage: str, done: int, total: int, detail: str = "") -> None:
        """Show ``done`` of ``total`` for ``stage`` (a step with no count, ``total <= 0``, is
        named once, and not again right after the same stage with a count: two reports written
        in a row said "writing the report (500)..." then "writing the report..."); on a
        terminal, ``detail`` (the slow pages in flight) follows the count, the line cut to the
        terminal's width so that it can be rewritten in place."""
        work = self._work[1:] if self._work is not None and self._work[0] == stage and self._work[2] > 0 else None
        eta = self.eta.eta(stage, *(work or (done, total)))
        if total <= 0:
            if stage != self.named and stage != self.said:
                if self.live and self.stage is not None:
                    self.stream.write("\n")
                    self.stage, self.shown = None, 0
                self.stream.write(f"{show(stage)}...\n")
                self.stream.flush()
                self.named = self.said = stage
            return
        self.named = None
        if stage != self.stage and (self.live or stage != self.said):
            self.said = stage
            if self.live and self.stage is not None:
                self.stream.write("\n")
            self.stage, self.shown = stage, 0
            if not self.live:
                count = f" ({total})" if total > 1 else ""  # a one-step stage has nothing to count
                self.stream.write(f"{show(stage)}{count}...\n")
                self.stream.flush()
        if not self.live:
            return
        now = time.monotonic()
        if now - self.last < 0.1 and done < total:
            return
        self.last = now
        left = (
            ""
            if eta is None or done >= total
            else f", about {eta:.0f} s left"
            if eta >= 0.5
            else ", less than a second left"
        )
        line = show(stage_count_text(stage, done, total)) + left
        if detail and done < total:
            line += f" — {show(detail)}"
        width = shutil.get_terminal_size().columns - 1  # a wrapped line cannot be rewritten
        line = line if len(line) <= width else line[: max(0, width - 1)] + "…"
        self.stream.write(f"\r{line.ljust(self.shown)}")  # spaces cover a longer line before
        self.shown = len(line)
        if done >= total:
            self.stream.write("\n")
            self.stage = None
            self.shown = 0
        self.stream.flush()

    def cancelled(self) -> bool:
        """Never cancelled from here: Ctrl-C interrupts the process."""
        return False


def _scan_outputs(args) -> list[tuple[Path, str]]:
    """The files ``scan`` writes, with their formats; raises ValueError for a bad suffix."""
    outputs: list[tuple[Path, str]] = []
    if args.output:
        out = Path(args.output)
        try:
            outputs.append((out, format_for(out)))
        except ValueError:
            raise ValueError(f"{out}: the output suffix must be .html, .pdf, .json or .csv") from None
    if args.pages_csv:
        outputs.append((Path(args.pages_csv), "pages-csv"))
    if args.keep_csv:
        outputs.append((Path(args.keep_csv), "keep-csv"))
    targets = [out.resolve() for out, _ in outputs]
    for n, target in enumerate(targets):
        if target in targets[:n]:
            raise ValueError(f"{outputs[n][0]}: the same file is given for two outputs; give each its own path")
    return outputs


def _not_scannable(path: Path) -> str | None:
    """Why ``path`` cannot be scanned (str: the error line), or ``None`` for a folder or a WARC
    file (scanned record by record)."""
    if path.is_dir() or (path.is_file() and is_warc_name(path.name)):
        return None
    if not path.exists():
        return f"error: no such file or folder: {show(path)}"
    return f"error: not a folder or a WARC file: {show(path)}"


def _cmd_scan(args) -> int:
    folder = Path(args.folder)
    problem = _not_scannable(folder)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    try:
        outputs = _scan_outputs(args)
        policy = keep_policy_of(args)
    except ValueError as exc:
        print(f"error: {show(exc)}", file=sys.stderr)
        return 2
    if not outputs and not args.copy_kept:
        print("error: nothing to write: give -o OUT, --pages-csv FILE, --keep-csv FILE and/or --copy-kept DEST",
              file=sys.stderr)  # fmt: skip
        return 2
    if args.copy_kept:
        try:
            check_destination(folder, args.copy_kept)
        except ValueError as exc:
            print(f"error: --copy-kept: {show(exc)}", file=sys.stderr)
            return 2
    # Check every destination before a long scan, not after it.
    for out, _fmt in outputs:
        try:
            check_writable(out)
        except ExportError as exc:
            print(f"error: {show(exc)}", file=sys.stderr)
            return 1
    progress = None if args.quiet else TerminalProgress()
    if args.follow_links:
        # stderr, even with --quiet: files outside the folder may end up in the reports
        print(
            f"warning: following links out of the scanned folder: files and folders outside {folder} that "
            "symbolic links point to are read, and their text goes into the reports (--follow-links)",
            file=sys.stderr,
        )
    result = scan_folder(folder, settings_of(args), thresholds_of(args), progress)
    result = replace(result, keep_policy=policy)
    if not args.quiet:
        print(summary_text(result))
    for out, fmt in outputs:
        try:
            export(result, out, fmt, progress=progress, pdf_pages=args.pdf_pages)
        except ExportError as exc:
            print(f"error: {show(exc)}", file=sys.stderr)
            return 1
        if not args.quiet:
            print(f"wrote {show(out)}")
    if args.copy_kept:
        try:
            copied = copy_kept(result, args.copy_kept, progress)
        except (ValueError, OSError) as exc:
            print(f"error: --copy-kept: {show(exc)}", file=sys.stderr)
            return 1
        if not args.quiet:
            print(f"copied to {show(copied.destination)}. {copied.text()}")
    if (args.keep_csv or args.copy_kept) and not args.quiet:
        print(
            f"{show(keep_rule_line(result.keep_policy))} (The whole keep rule: in the HTML, PDF, JSON and XLSX reports.)"
        )
    if not result.pages and result.errors:
        files = "records" if is_archive_root(result.root) else "files"
        print(f"error: none of the {len(result.errors)} {files} could be used (see the reasons above)", file=sys.stderr)
        return 1
    return 0


def _read_label_file(args, require_type: bool):
    """The labels file of ``--pairs`` (Path) and its rows, checked before any page is read: it
    exists, has rows and, with ``require_type`` (``evaluate``), a ``type`` column."""
    labels_path = Path(args.pairs)
    if not labels_path.is_file():
        raise ValueError(f"no such labels file: {labels_path}")
    return labels_path, read_labels(labels_path, require_type=require_type, require_rows=True)


def _load_scored(args, require_type: bool):
    labels_path, labels = _read_label_file(args, require_type)
    return score_labeled_pairs(labels, labels_path.parent, thresholds_of(args), settings_of(args), TerminalProgress())


def _cmd_classify(args) -> int:
    if Path(args.output).suffix.lower() != ".csv":
        raise ValueError(f"{args.output}: the predictions file must end in .csv")
    check_writable(args.output)
    scored = _load_scored(args, require_type=False)
    # left and right are written spreadsheet-safe like every CSV cell ('=x.html); read_labels
    # undoes that, so this file can be given back to classify or evaluate as LABELS.csv.
    # true_type: the input's label (empty without one), last so that the columns before it stay
    # where PREDICTIONS.csv always had them; ``type`` is the prediction.
    rows = []
    for s in scored:
        true_type = s.pair.label.value if s.pair.label else ""
        if s.scores is None:
            rows.append([s.pair.left, s.pair.right, "", "", "", "", "", "", s.error, true_type])
            print(f"warning: {show(s.error)}", file=sys.stderr)
        else:
            rows.append([s.pair.left, s.pair.right, s.predicted.value, *score_row(s.scores), "", true_type])
    try:
        atomic_write_text(args.output, csv_text([*PREDICTION_COLUMNS, "error", "true_type"], rows))
    except OSError as exc:
        print(f"error: cannot write {show(args.output)}: {show(exc.strerror or exc)}", file=sys.stderr)
        return 1
    print(f"wrote {len(scored)} predictions to {show(args.output)}")
    return _unscored_status(scored)


def _unscored_status(scored) -> int:
    """The exit status of a run over labelled pairs: 1 (with a line on stderr) when some pairs
    could not be scored, so that a script does not take the output for the whole file; else 0."""
    unscored = sum(1 for s in scored if s.error)
    if unscored:
        print(f"error: {unscored} of {len(scored)} labelled pairs could not be scored (the warnings above); "
              f"the output covers the other {len(scored) - unscored}", file=sys.stderr)  # fmt: skip
        return 1
    return 0


def _cmd_extraction(args) -> int:
    """``evaluate --extraction``: the extractors against the corpus's ground truth."""
    if args.methods or args.pr_curves:
        raise ValueError("--methods and --pr-curves score dedup methods on --pairs, not --extraction")
    if args.wrong_csv or args.list_wrong:
        raise ValueError("--wrong-csv and --list-wrong list labelled pairs: they go with --pairs, not --extraction")
    corpus = Path(args.corpus) if args.corpus else DEFAULT_CORPUS
    truth = load_ground_truth(corpus)
    for problem in truth.problems:
        print(f"warning: not scored: {show(problem)}", file=sys.stderr)
    if not truth.pages:
        raise ValueError(
            f"{corpus}: no page with ground truth (a folder with source.html and expected.html, X.html with "
            "cleaned/X.txt, or a JSON file of trafilatura's file/with/without entries)"
        )
    extractors = product_extractors([args.extractor] if args.extractor else None)
    progress = TerminalProgress()
    results = [run_extractor(truth.pages, fn, name, progress) for name, fn in extractors.items()]
    print(f"{len(truth.pages)} {'page' if len(truth.pages) == 1 else 'pages'} with ground truth in {show(corpus)}"
          f" ({len(truth.unlabelled)} .html files without it, not scored)\n")  # fmt: skip
    print(format_table(results))
    print()
    print(SCORING_NOTE)
    if args.list_below is not None:
        for result in results:
            print()
            print(format_worst(result, args.list_below) or f"{result.name}: no page with F1 < {args.list_below:g}")
    return 0


def _cmd_evaluate(args) -> int:
    if args.extraction:
        return _cmd_extraction(args)
    if args.corpus or args.list_below is not None:
        raise ValueError("--corpus and --list-below go with --extraction")
    _read_label_file(args, require_type=True)  # a file evaluate cannot use fails before the pages are read
    keys = parse_methods(args.methods or "all") if args.methods or args.pr_curves else None
    if args.pr_curves:
        if Path(args.pr_curves).suffix.lower() not in (".png", ".svg", ".pdf"):
            raise ValueError(f"{args.pr_curves}: --pr-curves must end in .png, .svg or .pdf")
        check_writable(args.pr_curves)
    if args.wrong_csv:
        if Path(args.wrong_csv).suffix.lower() != ".csv":
            raise ValueError(f"{args.wrong_csv}: --wrong-csv must end in .csv")
        check_writable(args.wrong_csv)
    if keys is None:
        scored, report = _load_scored(args, require_type=True), None
    else:
        scored, report = evaluate_methods(args.pairs, keys, thresholds_of(args), settings_of(args), TerminalProgress())
    for s in scored:
        if s.error:
            print(f"warning: not scored: {show(s.error)}", file=sys.stderr)
    # what produced the numbers, as the window's method comparison names it
    print(f"settings: {settings_line(thresholds_of(args), settings_of(args))}")
    print(format_evaluation(evaluate(scored)))
    wrong = wrong_pairs(scored)
    if args.list_wrong:
        print()
        print(format_wrong(wrong, args.wrong_csv or ""))
    if args.wrong_csv:
        atomic_write_text(args.wrong_csv, wrong_csv(wrong))
        print(f"wrote {len(wrong)} wrong {'pair' if len(wrong) == 1 else 'pairs'} to {show(args.wrong_csv)}")
    if report is not None:
        print()
        print(format_methods(report))
    if args.pr_curves:
        buf = io.BytesIO()
        pr_figure(report).savefig(buf, format=Path(args.pr_curves).suffix.lower()[1:], dpi=120)
        atomic_write_bytes(args.pr_curves, buf.getvalue())
        print(f"wrote {show(args.pr_curves)}")
    return _unscored_status(scored)


def _warn_thresholds(args) -> None:
    """Print a warning to stderr for thresholds that leave a type (nearly) impossible
    (:func:`~dedup_gui.core.pipeline.classify.threshold_warnings`): allowed, so the run goes on.
    Raises ValueError for a threshold outside its range, as :func:`thresholds_of` does."""
    if args.command == "evaluate" and args.extraction:
        return  # the extractors only: no pair is classified
    for warning in threshold_warnings(thresholds_of(args)):
        print(f"warning: {warning}", file=sys.stderr)


def _stop_on_sigterm() -> None:
    """Make ``kill PID`` stop a headless run the way Ctrl+C does, so the worker processes are
    stopped too (by default SIGTERM ends only this process and leaves them running)."""

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    try:
        signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread (e.g. called from a test runner's thread)
        pass


def run_cli(argv: list[str]) -> int:
    """Run a headless subcommand.

    Args:
        argv: arguments after the program name, starting with the subcommand.

    Returns:
        The process exit code (0 = success, 1 = failure, 2 = bad usage, 130 = interrupted).
    """
    args = build_parser().parse_args(argv)
    _stop_on_sigterm()
    try:
        _warn_thresholds(args)
        return {"scan": _cmd_scan, "classify": _cmd_classify, "evaluate": _cmd_evaluate}[args.command](args)
    except (ValueError, OSError) as exc:
        print(f"error: {show(exc)}", file=sys.stderr)
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
    if argv[:1] == ["--window-help"]:
        argv = ["--help"]
    elif argv and (argv[0] in SUBCOMMANDS or argv[0] in ("-h", "--help", "--version")):
        return run_cli(argv)
    gui = argparse.ArgumentParser(prog="dedup-gui", description="Open the duplicate-page inspector window.")
    gui.add_argument("folder", nargs="?", help="folder to scan (default: the bundled sample pages)")
    gui.add_argument(
        "--screenshot",
        metavar="OUT.png",
        help="wait for the scan, save a PNG image of the window (or of --view) and quit",
    )
    gui.add_argument("--view", choices=SCREENSHOT_VIEWS, default=None, metavar="NAME",
                     help="what --screenshot saves: " + ", ".join(SCREENSHOT_VIEWS) + " (default: window)")  # fmt: skip
    gui.add_argument("--pair", nargs=2, metavar=("LEFT", "RIGHT"),
                     help="with --screenshot: select the pair of these two files (paths relative to FOLDER)")  # fmt: skip
    args = gui.parse_args(argv)
    problem = _not_scannable(Path(args.folder)) if args.folder else None
    if problem:
        print(problem, file=sys.stderr)
        return 2
    if (args.view or args.pair) and not args.screenshot:
        print("error: --view and --pair need --screenshot OUT.png", file=sys.stderr)
        return 2
    from dedup_gui.gui.app import run_gui  # Qt is loaded only to open the window

    if args.screenshot:
        out = Path(args.screenshot)
        if out.suffix.lower() != ".png":
            print(f"error: {show(out)}: the screenshot is a PNG image; name it *.png", file=sys.stderr)
            return 2
        if not out.resolve().parent.is_dir():
            print(f"error: {show(out)}: the folder {show(out.resolve().parent)} does not exist", file=sys.stderr)
            return 2
        pair = tuple(args.pair) if args.pair else None
        return run_gui(args.folder, screenshot=str(out), view=args.view or "window", pair=pair)
    return run_gui(args.folder)
