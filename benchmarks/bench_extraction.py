"""Main-content extraction against human ground truth: the product's extractors and two peers.

    python benchmarks/bench_extraction.py [FOLDER] [--list-below F1]    # default: ../shared/corpus

Scores every page of FOLDER that has ground truth (:mod:`dedup_gui.core.evaluation.extraction_eval`:
readability's ``expected.html``, cwced's ``cleaned/*.txt``, trafilatura's evaluation snippets)
with the product's extractors (``readability``, ``fast``, ``resiliparse``: ``main_text``) and,
in the same run, two peers as they come:

- ``trafilatura``: ``trafilatura.extract(html)`` with its default settings (plain text). It is a
  benchmark-only extra, not a product dependency: ``pip install -e ".[bench]"`` (or
  ``pip install "trafilatura>=2.0"``); without it the others still run;
- ``resiliparse-raw``: Resiliparse's own main-content extraction,
  ``extract_plain_text(html, main_content=True)`` with its defaults (the product's
  ``resiliparse`` extractor is the same call without alt texts and list bullets, lines
  normalized).

Each page is decoded once and run through every extractor in turn, so that load from other jobs
on the machine falls on all of them alike; garbage collection is off during the timed calls and
runs between pages.  Printed: mean F1 by group (English, CJK, other, trafilatura's snippet pages,
overall) with pages per second (wall clock), CPU milliseconds per page (``time.process_time``)
and the speed against trafilatura in CPU time, then precision / recall.
"""

from __future__ import annotations

import argparse
import gc
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dedup_gui.core.evaluation.extraction_eval import (
    SCORING_NOTE,
    WARM_UP,
    PageScore,
    extract_timed,
    format_table,
    format_worst,
    product_extractors,
    score_page,
    summarize,
)
from dedup_gui.core.evaluation.ground_truth import DEFAULT_CORPUS, load_ground_truth

INSTALL_HINT = 'trafilatura is not installed: pip install -e ".[bench]"  (or: pip install "trafilatura>=2.0")'


def trafilatura_text(html: str) -> str:
    """trafilatura's main text with its default settings (plain text; "" when it finds none)."""
    import trafilatura

    return trafilatura.extract(html) or ""


def resiliparse_raw_text(html: str) -> str:
    """Resiliparse's main-content extraction as it comes (``main_content=True``, defaults)."""
    from resiliparse.extract.html2text import extract_plain_text

    return extract_plain_text(html, main_content=True)


def peers() -> dict:
    """The peer extractors that are installed (name -> html -> text); says how to get a missing one."""
    found = {}
    try:
        import trafilatura  # noqa: F401

        found["trafilatura"] = trafilatura_text
    except ImportError:
        print(INSTALL_HINT, file=sys.stderr)
    found["resiliparse-raw"] = resiliparse_raw_text
    return found


def _version(package: str) -> str:
    try:
        return version(package)
    except PackageNotFoundError:
        return "not installed"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", default=str(DEFAULT_CORPUS), help="ground-truth folder")
    parser.add_argument("--list-below", type=float, metavar="F1", default=None,
                        help="also list each extractor's pages whose F1 is below F1")  # fmt: skip
    args = parser.parse_args(argv)
    try:
        truth = load_ground_truth(args.folder)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    for problem in truth.problems:
        print(f"warning: not scored: {problem}", file=sys.stderr)
    if not truth.pages:
        print(f"error: {args.folder}: no page with ground truth", file=sys.stderr)
        return 1
    extractors = {**product_extractors(), **peers()}
    for fn in extractors.values():
        extract_timed(fn, WARM_UP)  # imports and first-call setup, untimed
    scores: dict[str, list[PageScore]] = {name: [] for name in extractors}
    for n, page in enumerate(truth.pages, 1):
        gc.disable()
        try:
            for name, fn in extractors.items():
                text, seconds, error, cpu = extract_timed(fn, page)
                scores[name].append(PageScore(page, score_page(page, text), seconds, error, cpu))
        finally:
            gc.enable()
        gc.collect()
        if n % 25 == 0 or n == len(truth.pages):
            print(f"{n}/{len(truth.pages)} pages", file=sys.stderr)
    results = [summarize(name, scores[name]) for name in extractors]
    reference = "trafilatura" if "trafilatura" in extractors else None
    print(f"{len(truth.pages)} pages with ground truth in {args.folder} ({len(truth.unlabelled)} .html files "
          f"without it, not scored); trafilatura {_version('trafilatura')}, Resiliparse {_version('resiliparse')}, "
          f"readability-lxml {_version('readability-lxml')}\n")  # fmt: skip
    print(format_table(results, reference))
    print()
    print(
        SCORING_NOTE
        + (
            " speed vs trafilatura (CPU): its CPU time per page over the extractor's (the wall "
            "clock varies with the other jobs of a loaded machine)."
            if reference
            else ""
        )
    )
    if args.list_below is not None:
        for result in results:
            listing = format_worst(result, args.list_below)
            print(f"\n{listing}" if listing else f"\n{result.name}: no page with F1 < {args.list_below:g}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
