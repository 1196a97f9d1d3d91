"""The extraction benchmark: each extractor's main text against human ground truth.

The pages and their truth come from :mod:`~dedup_gui.core.evaluation.ground_truth` (a corpus
folder such as ``shared/corpus``: readability's test pages, the Chinese Web Content Extraction
Dataset, trafilatura's snippet pages; gne's pages have none).  Two scores, kept apart per page
and both averaged into "overall":

- **token scores** (pages with a truth text): bag-of-words precision, recall and F1, the
  per-page rule of the Zyte article-extraction-benchmark (scrapinghub/article-extraction-benchmark,
  ``evaluate.py``) on single tokens instead of its 4-token shingles, with the tokens of
  :func:`~dedup_gui.core.text.tokens.tokenize` (lower-cased words, punctuation dropped, each CJK
  character a token);
- **snippet scores** (trafilatura's pages), as trafilatura's evaluation counts them
  (``tests/eval_common.py``): a ``with`` snippet found is a true positive, one not found a false
  negative, a ``without`` snippet found a false positive.

Groups: English, CJK, other (token pages by language), snippets (trafilatura's pages), overall
(all pages).  A group's precision, recall and F1 are means over its pages (the Zyte benchmark
reports the F1 of the mean precision and recall: :attr:`GroupScore.f1_of_means`).
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from dedup_gui.core.evaluation.ground_truth import LANGUAGES, SNIPPETS, TruthPage
from dedup_gui.core.extraction.extract import EXTRACTORS, main_text
from dedup_gui.core.progress import NullProgress, Progress, check_cancel
from dedup_gui.core.text.tokens import tokenize

#: The groups an extractor is scored in: the language groups of the token-scored pages, then
#: the snippet pages and all pages.
OVERALL = "overall"
GROUPS = (*LANGUAGES, SNIPPETS, OVERALL)

STAGE = "extracting pages"

_WHITESPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class Score:
    """Precision, recall and F1 of one page, each in [0, 1]."""

    precision: float
    recall: float
    f1: float


@dataclass(frozen=True)
class PageScore:
    """One extractor's result on one page.

    Attributes:
        page: the page.
        score: token scores, or snippet scores for a snippet page.
        seconds: time of the extraction alone (s, wall clock).
        error: the extractor's exception, if it raised ("" if not; the extraction is then "").
        cpu_seconds: the process's CPU time in it (s, ``time.process_time``; steadier under load).
    """

    page: TruthPage
    score: Score
    seconds: float
    error: str = ""
    cpu_seconds: float = 0.0


@dataclass(frozen=True)
class GroupScore:
    """An extractor's scores over one of :data:`GROUPS`: its ``pages`` (0: the means are 0), the
    mean ``precision``, ``recall`` and ``f1`` over them, and ``f1_of_means``, the harmonic mean of
    ``precision`` and ``recall`` (the Zyte benchmark's F1); each in [0, 1]."""

    group: str
    pages: int
    precision: float
    recall: float
    f1: float
    f1_of_means: float


@dataclass(frozen=True)
class ExtractionResult:
    """One extractor over the ground-truth pages.

    Attributes:
        name: the extractor's name.
        pages: per-page results, in the pages' order.
        groups: group name -> :class:`GroupScore`, for every name of :data:`GROUPS`.
        seconds, cpu_seconds: total extraction time (s): wall clock, CPU (:class:`PageScore`).
        pages_per_second: pages over ``seconds`` (0 when no page).
    """

    name: str
    pages: tuple[PageScore, ...]
    groups: dict[str, GroupScore]
    seconds: float
    pages_per_second: float
    cpu_seconds: float = 0.0


def _f1(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def scores_from_counts(tp: float, fp: float, fn: float) -> Score:
    """Precision, recall and F1 from true positive, false positive and false negative counts.

    The Zyte article-extraction-benchmark's ``precision_score``/``recall_score``: with nothing
    wrong (``fp == fn == 0``, including nothing to find and nothing found) all three are 1;
    otherwise an empty denominator gives 0 (an empty extraction of a non-empty truth: P = R = 0).

    Args:
        tp, fp, fn: counts (>= 0).

    Returns:
        :class:`Score`.
    """
    if fp == 0 and fn == 0:
        return Score(1.0, 1.0, 1.0)
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    return Score(precision, recall, _f1(precision, recall))


def token_scores(extraction: str, truth: str) -> Score:
    """Token-level bag-of-words precision, recall and F1 of an extraction against the truth text.

    Both texts are tokenized with :func:`~dedup_gui.core.text.tokens.tokenize` (lower-cased words,
    punctuation dropped, each CJK character a token) and compared as multisets: a token twice in
    the truth and three times in the extraction is 2 true positives and 1 false positive; then
    :func:`scores_from_counts` (both texts without tokens: a perfect 1).
    """
    got, want = Counter(tokenize(extraction)), Counter(tokenize(truth))
    tp = sum((got & want).values())
    return scores_from_counts(tp, got.total() - tp, want.total() - tp)


def _norm(text: str) -> str:
    return _WHITESPACE.sub(" ", text).strip()


def snippet_scores(extraction: str, with_snippets: Iterable[str], without_snippets: Iterable[str]) -> Score:
    """Precision, recall and F1 of one page from its snippets, counted as trafilatura's evaluation
    does (``tests/eval_common.py``, ``count_item``), then :func:`scores_from_counts`.

    Snippets and extraction are whitespace-normalized (every run of whitespace one space) and
    matched as case-sensitive substrings: a ``with`` snippet found is a true positive, one not
    found a false negative, a ``without`` snippet found a false positive.
    """
    text = _norm(extraction)
    withs = [_norm(s) for s in with_snippets]
    tp = sum(1 for s in withs if s in text)
    fp = sum(1 for s in without_snippets if _norm(s) in text)
    return scores_from_counts(tp, fp, len(withs) - tp)


def score_page(page: TruthPage, extraction: str) -> Score:
    """The page's score: snippet scores for a snippet page, token scores otherwise."""
    if page.language is None:
        return snippet_scores(extraction, page.with_snippets, page.without_snippets)
    return token_scores(extraction, page.truth)


def summarize(name: str, results: Sequence[PageScore]) -> ExtractionResult:
    """Group means and speed of one extractor's per-page results.

    Args:
        name: the extractor's name.
        results: its :class:`PageScore` per page.

    Returns:
        :class:`ExtractionResult`: for each of :data:`GROUPS`, the mean precision, recall and F1
        of its pages (``overall``: of every page, token and snippet pages alike).
    """
    groups = {}
    for group in GROUPS:
        scores = [r.score for r in results if group == OVERALL or r.page.group == group]
        p, r, f = (sum(getattr(s, key) for s in scores) / max(len(scores), 1) for key in ("precision", "recall", "f1"))
        groups[group] = GroupScore(group, len(scores), p, r, f, _f1(p, r))
    seconds = sum(r.seconds for r in results)
    speed = len(results) / seconds if seconds > 0 else 0.0
    return ExtractionResult(name, tuple(results), groups, seconds, speed, sum(r.cpu_seconds for r in results))


def extract_timed(extractor: Callable[[str], str], page: TruthPage) -> tuple[str, float, str, float]:
    """``(text, seconds, error, cpu_seconds)`` of ``extractor`` on the page, timing the call alone
    (wall clock, process CPU); an exception gives ``""`` and its message (never stops a run)."""
    cpu, start = time.process_time(), time.perf_counter()
    try:
        text, error = extractor(page.html) or "", ""
    except Exception as exc:  # any extractor's failure is the page's result
        text, error = "", f"{type(exc).__name__}: {exc}"
    return text, time.perf_counter() - start, error, time.process_time() - cpu


#: A small page each extractor gets once, untimed, before the pages.
WARM_UP = TruthPage("warm-up", Path("warm-up.html"), "<html><body><article><p>" + "Some words, " * 60
                    + "</p></article></body></html>", "readability", "English", "")  # fmt: skip


def run_extractor(pages: Sequence[TruthPage], extractor: Callable[[str], str], name: str = "",
                  progress: Progress | None = None) -> ExtractionResult:  # fmt: skip
    """Run one extractor over the pages and score it.

    Args:
        pages: the pages (:attr:`GroundTruth.pages`).
        extractor: decoded HTML -> main-content text (str -> str).
        name: the extractor's name, for the result.
        progress: told of each page done (stage :data:`STAGE`); may cancel.

    Returns:
        :class:`ExtractionResult`; pages per second count the extraction calls' time only, after
        one untimed call on :data:`WARM_UP`.

    Raises:
        ScanCancelled: ``progress`` asked to stop.
    """
    progress, stage = progress or NullProgress(), f"{STAGE} ({name})" if name else STAGE
    extract_timed(extractor, WARM_UP)  # imports and first-call setup are not the pages' time
    results = []
    for n, page in enumerate(pages):
        check_cancel(progress)
        text, seconds, error, cpu = extract_timed(extractor, page)
        results.append(PageScore(page, score_page(page, text), seconds, error, cpu))
        progress.update(stage, n + 1, len(pages))
    return summarize(name, results)


def product_extractors(names: Iterable[str] | None = None) -> dict[str, Callable[[str], str]]:
    """The product's extractors, name -> ``html -> main text`` callable running
    :func:`~dedup_gui.core.extraction.extract.main_text` (the main content alone, without
    :func:`~dedup_gui.core.extraction.extract.extract`'s fall-back to the whole visible text).

    Args:
        names: keys of :data:`~dedup_gui.core.extraction.extract.EXTRACTORS` (``None``: all, in order).

    Raises:
        ValueError: an unknown name.
    """

    chosen = list(EXTRACTORS) if names is None else list(names)
    for name in chosen:
        if name not in EXTRACTORS:
            raise ValueError(f"unknown extractor {name!r}: use one of {', '.join(EXTRACTORS)}")

    def runner(name: str) -> Callable[[str], str]:
        return lambda html: main_text(html, name)[0]

    return {name: runner(name) for name in chosen}


def format_table(results: Sequence[ExtractionResult], reference: str | None = None) -> str:
    """The results as two Markdown tables: mean F1 by group (pages counted in the heads) with
    pages per second (wall clock) and CPU milliseconds per page, then mean precision / recall.

    Args:
        results: one :class:`ExtractionResult` per extractor (rows, in this order).
        reference: the name of a result to compare speeds with (a "speed vs NAME" column: how
            many times less CPU time per page than it), or ``None``.

    Returns:
        str (no trailing newline).
    """
    if not results:
        return "(no extractor)"
    ref = next((r for r in results if r.name == reference), None)
    heads = [f"{g} ({results[0].groups[g].pages})" for g in GROUPS]

    def table(cols: list[str], cells: Callable[[ExtractionResult], list[str]]) -> list[str]:
        rows = [f"| {res.name} | " + " | ".join(cells(res)) + " |" for res in results]
        return ["| extractor | " + " | ".join(cols) + " |", "|---" * (1 + len(cols)) + "|", *rows]

    def f1_row(res: ExtractionResult) -> list[str]:
        cells = [f"{res.groups[g].f1:.3f}" if res.groups[g].pages else "-" for g in GROUPS]
        cells += [f"{res.pages_per_second:.1f}", f"{1000 * res.cpu_seconds / max(len(res.pages), 1):.1f}"]
        return cells + ([f"{ref.cpu_seconds / res.cpu_seconds:.1f}x" if res.cpu_seconds > 0 else "-"] if ref else [])

    def pr_row(res: ExtractionResult) -> list[str]:
        return [f"{res.groups[g].precision:.3f} / {res.groups[g].recall:.3f}" if res.groups[g].pages else "-"
                for g in GROUPS]  # fmt: skip

    speed = ["pages/s", "CPU ms/page"] + ([f"speed vs {reference} (CPU)"] if ref else [])
    lines = table(heads + speed, f1_row) + ["", "precision / recall (means over the pages):", ""]
    return "\n".join(lines + table(heads, pr_row))


SCORING_NOTE = (
    "F1: token-level bag-of-words F1 against the truth text (the Zyte article-extraction-benchmark's rule on "
    "single tokens: words lower-cased, punctuation dropped, CJK text by character), the mean over each group's "
    "pages. snippets: trafilatura's pages, scored by its with/without snippets as trafilatura's evaluation "
    "does. overall: the mean over all pages, token and snippet pages alike. pages/s: extraction time only "
    "(wall clock); CPU ms/page: the process's CPU time in the extraction (time.process_time), steadier under load."
)


def format_worst(result: ExtractionResult, below: float) -> str:
    """The pages whose F1 is below ``below``, worst first: name, group, F1, precision, recall
    (and the extractor's error, if it raised); one per line (str, "" if none)."""
    worst = sorted((r for r in result.pages if r.score.f1 < below), key=lambda r: (r.score.f1, r.page.name))
    lines = [f"{result.name}: {len(worst)} pages with F1 < {below:g}"] if worst else []
    for r in worst:
        s = r.score
        err = f"  ({r.error})" if r.error else ""
        lines.append(f"  {r.page.name}  [{r.page.group}]  F1 {s.f1:.3f}  P {s.precision:.3f}  R {s.recall:.3f}{err}")
    return "\n".join(lines)
