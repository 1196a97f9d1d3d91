"""The command line's arguments: the subcommands, their options, and the settings and
thresholds they make (``scan``, ``classify``, ``evaluate``; see :mod:`dedup_gui.cli`)."""

from __future__ import annotations

import argparse

from dedup_gui import __version__
from dedup_gui.core.evaluation.ground_truth import (
    DEFAULT_CORPUS,
)
from dedup_gui.core.evaluation.method_eval import (
    METHOD_KEYS,
)
from dedup_gui.core.extraction.extract import EXTRACTORS
from dedup_gui.core.model import CRITERIA, DEFAULT_ORDER, KeepPolicy, ScanSettings, Thresholds
from dedup_gui.core.pipeline.scan import WORKERS_PER_CORE, max_workers
from dedup_gui.core.views.reprioritize import reference_folder_of

SUBCOMMANDS = ("scan", "classify", "evaluate")


def add_threshold_args(parser: argparse.ArgumentParser) -> None:
    d = Thresholds()
    g = parser.add_argument_group("thresholds (defaults measured on shared/pairs, see README)")
    g.add_argument(
        "--content-same",
        type=float,
        default=d.content_same,
        metavar="X",
        help=f"content similarity or containment for 'same content' (default {d.content_same})",
    )
    g.add_argument(
        "--content-partial",
        type=float,
        default=d.content_partial,
        metavar="X",
        help=f"content containment for 'important part shared' (default {d.content_partial})",
    )
    g.add_argument(
        "--layout-same",
        type=float,
        default=d.layout_same,
        metavar="X",
        help=f"layout similarity for 'same layout' (default {d.layout_same})",
    )
    g.add_argument("--hamming-k", type=int, default=d.hamming_k, metavar="K",
                   help=f"SimHash Hamming distance (bits) drawn as the near-duplicate line in charts and used by the "
                        f"SimHash method's verdict; not part of the type rule (default {d.hamming_k})")  # fmt: skip


def add_setting_args(parser: argparse.ArgumentParser) -> None:
    d = ScanSettings()
    g = parser.add_argument_group("scan settings")
    g.add_argument(
        "--max-file-mb",
        type=float,
        default=d.max_file_bytes / 2**20,
        metavar="MB",
        help=f"files larger than this are reported as too large (default {d.max_file_bytes / 2**20:g})",
    )
    g.add_argument(
        "--min-tokens",
        type=int,
        default=d.min_tokens,
        metavar="N",
        help=f"fewest main-text tokens of a page with usable text (default {d.min_tokens})",
    )
    g.add_argument(
        "--page-timeout",
        type=float,
        default=d.page_timeout,
        metavar="S",
        help=f"seconds one page may take in a worker process before it is cut off and reported "
        f"(default {d.page_timeout:g}; --workers 1 runs in-process, without the limit)",
    )
    g.add_argument(
        "--extractor",
        choices=sorted(EXTRACTORS),
        default=d.extractor,
        help="main-content extractor: " + "; ".join(f"{k}: {v}" for k, v in EXTRACTORS.items()),
    )
    g.add_argument(
        "--dask-scheduler",
        metavar="ADDRESS",
        default=None,
        help="run the per-page stage on a Dask distributed cluster (e.g. tcp://host:8786); "
        "the scheduler and the workers need dedup-gui installed and the folder at the same path",
    )
    g.add_argument(
        "--boilerplate-pages",
        type=int,
        default=d.boilerplate_pages,
        metavar="N",
        help="a content shingle in more than N pages is template boilerplate and makes no pages "
        f"candidates (default {d.boilerplate_pages})",
    )
    g.add_argument(
        "--no-cache",
        action="store_true",
        help="neither read nor write the feature cache (in $XDG_CACHE_HOME/dedup-gui)",
    )
    g.add_argument("--workers", type=int, default=d.workers, metavar="N",
                   help="worker processes that read and extract the pages (default 0: one per core; 1: all in this process)")  # fmt: skip


def thresholds_of(args) -> Thresholds:
    """The thresholds given on the command line (:class:`Thresholds`).

    Raises:
        ValueError: a value out of its range, named by its option (``--content-same``), as typed.
    """
    try:
        return Thresholds(
            content_same=args.content_same,
            content_partial=args.content_partial,
            layout_same=args.layout_same,
            hamming_k=args.hamming_k,
        )
    except ValueError as exc:
        field, _sep, rest = str(exc).partition(" ")
        raise ValueError(f"--{field.replace('_', '-')} {rest}") from None


def check_ranges(args) -> None:
    """Reject values no scan can use (argparse checks only the types)."""
    for name, low in (("max_file_mb", 0.0), ("page_timeout", 0.0)):
        value = getattr(args, name, None)
        if value is not None and value <= low:
            raise ValueError(f"--{name.replace('_', '-')} must be greater than {low:g}, got {value:g}")
    if getattr(args, "workers", 0) < 0:
        raise ValueError(f"--workers must be 0 (one per core) or more, got {args.workers}")
    if getattr(args, "workers", 0) > max_workers():
        raise ValueError(
            f"--workers {args.workers} is more than {max_workers()} ({WORKERS_PER_CORE} per core on this machine): "
            "the per-page work is CPU-bound, so more workers only take memory (each loads the engine, about "
            "100 MB, and may grow to the per-page memory limit)"
        )
    if getattr(args, "boilerplate_pages", 2) < 2:
        raise ValueError(f"--boilerplate-pages must be 2 or more, got {args.boilerplate_pages}")
    if getattr(args, "min_tokens", 1) < 1:
        raise ValueError(f"--min-tokens must be 1 or more, got {args.min_tokens}")


def settings_of(args) -> ScanSettings:
    check_ranges(args)
    return ScanSettings(
        max_file_bytes=int(args.max_file_mb * 2**20),
        min_tokens=args.min_tokens,
        workers=args.workers,
        page_timeout=args.page_timeout,
        use_cache=not args.no_cache,
        dask_scheduler=args.dask_scheduler,
        extractor=args.extractor or ScanSettings().extractor,
        boilerplate_pages=args.boilerplate_pages,
        follow_links=getattr(args, "follow_links", False),  # scan only: classify/evaluate read named files
        learn_templates=not getattr(args, "no_template_learning", False),  # scan only: there is a folder
    )


def _at_least_one(text: str) -> int:
    """An argparse type: a whole number of at least 1 (int).

    Raises:
        argparse.ArgumentTypeError: ``text`` is not such a number.
    """
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the headless subcommands (argparse.ArgumentParser)."""
    parser = argparse.ArgumentParser(
        prog="dedup-gui",
        description="Find and classify duplicate web pages (full / content / layout / partial). "
        "Without a subcommand: 'dedup-gui [FOLDER]' opens the window.",
        epilog="window: dedup-gui [FOLDER] [--screenshot OUT.png [--view NAME] [--pair LEFT RIGHT]] "
        "opens the window on FOLDER (default: the bundled sample pages); with --screenshot it waits for "
        "the scan, saves a PNG of the window (or of the view NAME) and quits. "
        "'dedup-gui --window-help' lists the view names.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    scan = sub.add_parser("scan", help="scan a folder of saved pages and write a report",
                          description="Scan FOLDER recursively and write reports. OUT's suffix picks the "
                          "format: .html (report for people), .pdf (the same report as PDF), .json "
                          "(everything), .csv (duplicate pairs). --pages-csv and --keep-csv write the "
                          "other two CSVs; give any of the three outputs, or several.")  # fmt: skip
    scan.add_argument("folder", help="folder of saved pages, or a WARC file (.warc, .warc.gz); read only")
    scan.add_argument("-o", "--output", metavar="OUT", help="report file: .html, .pdf, .json, .csv or .xlsx")
    scan.add_argument(
        "--pages-csv",
        metavar="FILE",
        help="also write a CSV with one row per file (verdict, near-duplicate group, page to keep)",
    )
    scan.add_argument("--keep-csv", metavar="FILE",
                      help="also write the keep plan CSV (duplicate,keep,type,similarity,reason,canonical_status,"
                      "canonical_note): each page to drop with the page to keep, of which it is a full or content "
                      "duplicate (kept: canonical URL, else the newest released version folder, else longest main content, "
                      "else oldest file)")  # fmt: skip
    scan.add_argument("--copy-kept", metavar="DEST",
                      help="also write a deduplicated copy of FOLDER to DEST (a new or empty folder outside FOLDER): "
                      "every file but the pages to drop, the tree kept; FOLDER is only read")  # fmt: skip
    scan.add_argument(
        "--keep-order",
        metavar="C1,C2,...",
        default=",".join(DEFAULT_ORDER),
        help="the keep rule's criteria, most important first, from: " + ", ".join(CRITERIA) + " (default: %(default)s)",
    )
    scan.add_argument(
        "--keep-pattern",
        metavar="PATTERN",
        default="",
        help="for the 'pattern' criterion: prefer pages whose path or URL matches this shell pattern (* and ?), "
        "or contains this text; adds 'pattern' first to --keep-order if it is not there",
    )
    scan.add_argument(
        "--reference-folder",
        metavar="FOLDER",
        action="append",
        default=[],
        help="pages under this folder (relative to FOLDER, or an absolute path inside it) are always kept; "
        "it must be a folder in FOLDER, not FOLDER itself; may be given more than once",
    )
    scan.add_argument("--pdf-pages", type=_at_least_one, default=30, metavar="N",
                      help="the most pages of a .pdf report (default: %(default)s); its lists of pairs, keep "
                      "clusters, groups and pages are shortened to fit, the other formats hold everything")  # fmt: skip
    scan.add_argument("-q", "--quiet", action="store_true", help="no progress, no summary")
    scan.add_argument("--follow-links", action="store_true",
                      help="also follow symbolic links whose target lies outside FOLDER (read the files, walk the "
                      "folders they point to); by default they are listed as skipped, not read")  # fmt: skip
    scan.add_argument("--no-template-learning", action="store_true",
                      help="do not learn each site's template from FOLDER (lines repeated outside the main text "
                      "of many of its pages) nor take it out of the main texts")  # fmt: skip
    add_threshold_args(scan)
    add_setting_args(scan)

    classify = sub.add_parser("classify", help="classify labelled (or listed) pairs of pages",
                              description="Read pairs from LABELS.csv (columns left,right; paths "
                              "relative to the CSV's folder) and write PREDICTIONS.csv.")  # fmt: skip
    classify.add_argument("--pairs", required=True, metavar="LABELS.csv")
    classify.add_argument(
        "-o", "--output", required=True, metavar="PREDICTIONS.csv", help="where to write the predictions (.csv)"
    )
    add_threshold_args(classify)
    add_setting_args(classify)

    ev = sub.add_parser("evaluate", help="evaluate the classifier (and every dedup method) on labelled pairs, "
                        "or the main-content extractors on ground truth (--extraction)",
                        description="Classify the pairs of LABELS.csv (columns left,right,type) and "
                        "print the confusion matrix, per-type precision, recall and F1, and macro-F1. "
                        "With --methods, also score each dedup method on 'duplicate of any type?'. "
                        "With --extraction instead of --pairs, score the main-content extractors' text "
                        "against the ground truth of a corpus folder (token-level F1 by language, pages/s).")  # fmt: skip
    what = ev.add_mutually_exclusive_group(required=True)
    what.add_argument("--pairs", metavar="LABELS.csv")
    what.add_argument("--extraction", action="store_true",
                      help="score each extractor (or only --extractor NAME) against the ground truth of --corpus: "
                      "token-level bag-of-words precision, recall and F1 by language group, and pages per second")  # fmt: skip
    ev.add_argument(
        "--corpus",
        metavar="FOLDER",
        default=None,
        help=f"with --extraction: the ground-truth folder (default: {DEFAULT_CORPUS})",
    )
    ev.add_argument(
        "--list-below",
        metavar="F1",
        type=float,
        default=None,
        help="with --extraction: also list each extractor's pages whose F1 is below F1, worst first",
    )
    ev.add_argument("--wrong-csv", metavar="FILE", default=None,
                    help="with --pairs: write the labelled pairs predicted wrong to FILE (.csv): left,right,"
                    "true_type,predicted_type and the measures")  # fmt: skip
    ev.add_argument("--list-wrong", action="store_true",
                    help="with --pairs: also list the labelled pairs predicted wrong after the scores (the first "
                    "20; --wrong-csv holds all)")  # fmt: skip
    ev.add_argument(
        "--methods",
        metavar="LIST",
        default=None,
        help="'all' or a comma-separated list of " + ",".join(METHOD_KEYS) + ": print each "
        "method's precision, recall and F1 at its default threshold and at the best of its sweep",
    )
    ev.add_argument("--pr-curves", metavar="OUT.png", default=None,
                    help="draw the methods' precision/recall curves to OUT (.png, .svg or .pdf; implies --methods all if not given)")  # fmt: skip
    add_threshold_args(ev)
    add_setting_args(ev)
    ev.set_defaults(extractor=None)  # --extraction: all extractors unless one is named
    return parser


def keep_policy_of(args) -> KeepPolicy:
    """The keep policy that ``scan``'s arguments ask for.

    Each ``--reference-folder`` is checked as the window's Re-prioritize dialog checks it
    (:func:`~dedup_gui.core.views.reprioritize.reference_folder_of`, relative to ``args.folder``).

    Raises:
        ValueError: an unknown or repeated criterion in ``--keep-order``; a reference folder
            outside the scanned folder, the scanned folder itself, or no folder in it (the message
            names the option).
    """
    order = tuple(c.strip() for c in args.keep_order.split(",") if c.strip())
    if args.keep_pattern and "pattern" not in order:
        order = ("pattern", *order)
    folders: list[str] = []
    for given in args.reference_folder:
        try:
            folder = reference_folder_of(args.folder, given)
        except ValueError as exc:
            raise ValueError(f"--reference-folder {given}: {exc}") from None
        if folder not in folders:
            folders.append(folder)
    return KeepPolicy(order=order, pattern=args.keep_pattern, reference_folders=tuple(folders))
