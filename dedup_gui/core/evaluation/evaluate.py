"""Labelled pairs -> predictions -> confusion matrix, precision, recall, F1 and macro-F1.

``LABELS.csv`` has columns ``left,right`` (paths relative to the CSV's folder) and optionally
``type`` (full, content, layout, partial, distinct); other columns are ignored (DESIGN.md).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from dedup_gui.core.model import TYPE_ORDER, DupType, FileError, Page, PairScores, ScanSettings, Thresholds
from dedup_gui.core.pipeline.cache import FeatureCache
from dedup_gui.core.pipeline.classify import classify
from dedup_gui.core.pipeline.features import load_page
from dedup_gui.core.pipeline.loading import PageReadError, SourceFile
from dedup_gui.core.pipeline.measures import pair_scores
from dedup_gui.core.pipeline.scan import analyse_files
from dedup_gui.core.pipeline.walk import is_warc_name
from dedup_gui.core.pipeline.warc import record_source
from dedup_gui.core.progress import NullProgress, Progress, check_cancel
from dedup_gui.core.safe_text import from_spreadsheet_cell

STAGE_PAIRS = "scoring labelled pairs"


@dataclass(frozen=True)
class LabeledPair:
    """One row of a labels file.

    Attributes:
        left, right: paths as written in the CSV (relative to its folder, or absolute).
        label: the true type, or ``None`` when the file has no ``type`` column / an empty cell.
    """

    left: str
    right: str
    label: DupType | None


@dataclass(frozen=True)
class ScoredPair:
    """A labelled pair with its measures and predicted type.

    Attributes:
        pair: the labelled pair.
        scores: the measures, or ``None`` when a page could not be read.
        predicted: the predicted type, or ``None`` when a page could not be read.
        error: why the pair could not be scored ("" if it was).
    """

    pair: LabeledPair
    scores: PairScores | None
    predicted: DupType | None
    error: str = ""


@dataclass(frozen=True)
class Evaluation:
    """Scores of predictions against labels over the five types.

    Attributes:
        confusion: ``confusion[true][predicted]`` counts (dict of dicts over :data:`TYPE_ORDER`).
        precision, recall, f1: per type, in [0, 1] (0 where undefined).
        support: labelled pairs per type.
        macro_f1: mean F1 over the types that occur in the labels or predictions, in [0, 1].
        accuracy: share of pairs predicted right, in [0, 1].
        n: pairs evaluated; skipped: pairs that could not be scored.
    """

    confusion: dict[DupType, dict[DupType, int]]
    precision: dict[DupType, float]
    recall: dict[DupType, float]
    f1: dict[DupType, float]
    support: dict[DupType, int]
    macro_f1: float
    accuracy: float
    n: int
    skipped: int


_DELIMITERS = ",;\t"  # the separators a spreadsheet's CSV export uses
_SEPARATOR_NAMES = {",": "comma", ";": "semicolon", "\t": "tab"}


def _header_fields(line: str, delimiter: str) -> list[str]:
    """The column names of a header ``line`` split at ``delimiter``, trimmed and lower-cased."""
    return [f.strip().lower() for f in next(csv.reader([line], delimiter=delimiter), [])]


def _delimiter(csv_path: str | Path, line: str) -> str:
    """The separator of a labels file from its header ``line``: :class:`csv.Sniffer`'s guess among
    ``,``, ``;`` and tab, else the first of them that gives columns ``left`` and ``right``.

    Raises:
        ValueError: no separator gives both columns; the message names the columns found and,
            for a header read as one column holding ``;`` or a tab, asks whether that separates it.
    """
    try:
        guess = csv.Sniffer().sniff(line, delimiters=_DELIMITERS).delimiter
    except csv.Error:  # one column, or no separator of the three
        guess = ","
    for delimiter in dict.fromkeys(guess + _DELIMITERS):
        fields = _header_fields(line, delimiter)
        if "left" in fields and "right" in fields:
            return delimiter
    fields = [f for f in _header_fields(line, guess) if f] if line.strip() else []
    hint = ""
    if len(fields) == 1:
        hint = next(
            (f": is the file separated by {name}?" for sep, name in ((";", "';'"), ("\t", "tabs")) if sep in fields[0]),
            "",
        )
    found = ", ".join(repr(f) for f in fields) or "none"
    raise ValueError(f"{csv_path}: needs columns 'left' and 'right' (found: {found}){hint}")


def read_labels(csv_path: str | Path, require_type: bool = False, require_rows: bool = False) -> list[LabeledPair]:
    """Read a labels CSV.

    The separator is found from the header (``,``, ``;`` or tab: :func:`_delimiter`, with
    :class:`csv.Sniffer`); column names are matched without case and surrounding spaces
    (``Left, Right, Type`` is read as ``left,right,type``).

    Args:
        csv_path: the file.
        require_type: refuse a file without a ``type`` column (bool; ``evaluate`` needs the
            true types), checked on the header before any row is read.
        require_rows: refuse a file with a header and no rows (bool).

    Returns:
        The rows as :class:`LabeledPair` ([] for a header without rows).  A path written
        spreadsheet-safe, with an apostrophe before a leading formula character (``'=x.html``,
        as in PREDICTIONS.csv and the scan's CSVs), stands for the path without it
        (``=x.html``); :func:`.safe_text.from_spreadsheet_cell`.

    Raises:
        ValueError: the file is not UTF-8 text, lacks the ``left``/``right`` columns (or
            ``type`` with ``require_type``), has no rows (with ``require_rows``), a row has
            more fields than the header, or a ``type`` cell is not one of the five types (the
            message names the file and line).
        OSError: the file cannot be read.
    """
    try:
        rows = _read_labels(csv_path, require_type)
    except (UnicodeDecodeError, csv.Error) as exc:
        raise ValueError(f"{csv_path}: not a UTF-8 CSV file ({exc})") from None
    if require_rows and not rows:
        raise ValueError(f"{csv_path}: the file has a header but no rows: no pair to score")
    return rows


def _read_labels(csv_path: str | Path, require_type: bool) -> list[LabeledPair]:
    with open(csv_path, newline="", encoding="utf-8-sig") as fh:
        delimiter = _delimiter(csv_path, fh.readline())
        fh.seek(0)
        reader = csv.DictReader(fh, delimiter=delimiter)
        fields = [f.strip().lower() for f in reader.fieldnames or []]
        reader.fieldnames = fields  # the rows' keys: trimmed, lower-case
        if require_type and "type" not in fields:
            raise ValueError(
                f"{csv_path}: needs a 'type' column with each pair's true type to evaluate "
                f"(found: {', '.join(repr(f) for f in fields if f)})"
            )
        rows = []
        for line, row in enumerate(reader, start=2):
            extra = row.pop(None, None)  # DictReader files the fields past the header under None
            if extra:
                raise ValueError(
                    f"{csv_path}:{line}: {len(extra)} more field{'' if len(extra) == 1 else 's'} than the "
                    f"{len(fields)} columns of the header (quote a path or name that holds a {_SEPARATOR_NAMES[delimiter]})"
                )
            row = {(k or ""): (v or "").strip() for k, v in row.items()}
            raw = row.get("type", "")
            try:
                label = DupType(raw.lower()) if raw else None
            except ValueError:
                allowed = ", ".join(t.value for t in TYPE_ORDER)
                raise ValueError(f"{csv_path}:{line}: type {raw!r} is not one of {allowed}") from None
            if not row.get("left") or not row.get("right"):
                raise ValueError(f"{csv_path}:{line}: empty 'left' or 'right'")
            # A PREDICTIONS.csv or a scan's pairs CSV may be read as labels: undo the apostrophe
            # they put before a path such as "=x.html" (spreadsheet safety, see safe_text).
            rows.append(LabeledPair(from_spreadsheet_cell(row["left"]), from_spreadsheet_cell(row["right"]), label))
    return rows


def read_labeled_pages(
    rels: list[str], base: Path, settings: ScanSettings, progress: Progress | None = None
) -> dict[str, Page | str]:
    """Read the pages of labelled pairs as a scan reads them: in worker processes (as
    ``settings`` says) and through the feature cache (unless ``settings.use_cache`` is off),
    so a second evaluation of the same pages reads them from the cache.

    Args:
        rels: the paths as written in the labels file; ``crawl.warc.gz#1234`` names the record
            at offset 1234 of a WARC file, as a scan names it.  A path outside ``base`` (absolute,
            through ``..`` or a symbolic link) is not read: its reason says so.
        base: the folder they are relative to.
        settings: scan settings (extractor, workers, cache).
        progress: receives progress; may cancel.

    Returns:
        ``{rel: Page}``, or the reason a page cannot be used (str, starting with ``rel``).
    """
    progress = progress or NullProgress()
    out: dict[str, Page | str] = {}
    files = []
    root = base.resolve()
    for rel in rels:
        path = (base / rel).resolve()
        archive, hash_sign, offset = rel.rpartition("#")
        named = (base / archive).resolve() if hash_sign else path
        if Path(rel).is_absolute() or not named.is_relative_to(root):  # as a scan reads only its folder
            out[rel] = f"{rel}: outside the labels file's folder (through .., an absolute path or a link): not read"
        elif hash_sign and offset.isdigit() and is_warc_name(archive) and (base / archive).is_file():
            try:  # a WARC record, named as a scan names it: crawl.warc.gz#1234
                files.append(record_source(rel, str((base / archive).resolve()), int(offset), settings.max_file_bytes))
            except PageReadError as exc:
                out[rel] = f"{rel}: {exc}"
        elif path.exists():
            files.append(SourceFile(rel, str(path)))
        else:
            out[rel] = f"{rel}: file not found (paths are relative to the labels file's folder)"
    cache = FeatureCache(settings, settings.cache_dir) if settings.use_cache and files else None
    try:
        outcomes = analyse_files(files, settings, progress, cache)
    finally:
        if cache is not None:
            cache.close()
    for source, outcome in zip(files, outcomes, strict=True):
        if isinstance(outcome, Page):
            out[source.path] = outcome
        elif isinstance(outcome, FileError):
            out[source.path] = f"{source.path}: {outcome.reason}"
        else:  # not a page: the reason, which the per-page stage does not keep
            try:
                load_page(source, settings)
                out[source.path] = f"{source.path}: not a page"
            except PageReadError as exc:
                out[source.path] = f"{source.path}: {exc}"
    return out


def score_labeled_pairs(
    labels: list[LabeledPair],
    base_dir: str | Path,
    thresholds: Thresholds | None = None,
    settings: ScanSettings | None = None,
    progress: Progress | None = None,
    pages: dict[str, Page | str] | None = None,
) -> list[ScoredPair]:
    """Measure and classify each labelled pair; each page is read once.

    Args:
        labels: the pairs.
        base_dir: folder the relative paths are relative to (the CSV's folder).
        thresholds: classifier thresholds (defaults: :class:`Thresholds`).
        settings: scan settings (defaults: :class:`ScanSettings`).
        progress: progress to report to (optional).
        pages: a dict filled with the pages read, path as written in the CSV -> :class:`Page`
            (or the reason it could not be read, str); pass one to get the pages back (the
            method comparison, :mod:`.method_eval`, needs them), or a filled one to reuse them.

    Returns:
        One :class:`ScoredPair` per label, in order; a pair whose page cannot be read carries
        the reason in ``error``.
    """
    thresholds = thresholds or Thresholds()
    settings = settings or ScanSettings()
    progress = progress or NullProgress()
    base = Path(base_dir)
    cache: dict[str, Page | str] = pages if pages is not None else {}
    wanted = [rel for rel in dict.fromkeys(r for p in labels for r in (p.left, p.right)) if rel not in cache]
    cache.update(read_labeled_pages(wanted, base, settings, progress))

    def get(rel: str) -> Page | str:
        return cache[rel]

    out = []
    for i, pair in enumerate(labels):
        check_cancel(progress)
        progress.update(STAGE_PAIRS, i, len(labels))
        a, b = get(pair.left), get(pair.right)
        if isinstance(a, str) or isinstance(b, str):
            reason = "; ".join(x for x in (a, b) if isinstance(x, str))
            out.append(ScoredPair(pair, None, None, reason))
            continue
        scores = pair_scores(a, b)
        out.append(ScoredPair(pair, scores, classify(scores, thresholds)))
    progress.update(STAGE_PAIRS, len(labels), len(labels))
    return out


def evaluate(scored: list[ScoredPair], thresholds: Thresholds | None = None) -> Evaluation:
    """Compare predictions with labels.

    Args:
        scored: scored pairs; those without a label or without scores are skipped.
        thresholds: if given, pairs are re-classified with these thresholds first (for sweeps).

    Returns:
        The :class:`Evaluation`.

    Raises:
        ValueError: no pair has both a label and scores.
    """
    confusion = {t: {p: 0 for p in TYPE_ORDER} for t in TYPE_ORDER}
    n = skipped = 0
    for s in scored:
        if s.pair.label is None or s.scores is None:
            skipped += 1
            continue
        predicted = classify(s.scores, thresholds) if thresholds else s.predicted
        assert predicted is not None  # None only when the scores are, skipped above
        confusion[s.pair.label][predicted] += 1
        n += 1
    if n == 0:
        if not scored:
            raise ValueError("no pair to evaluate: the labels file has no rows")
        if all(s.pair.label is None for s in scored):
            raise ValueError("no pair has a true type to compare with (the 'type' column is missing or empty)")
        raise ValueError("no labelled pair could be scored (a page of each could not be read)")
    precision, recall, f1, support = {}, {}, {}, {}
    present = []
    for t in TYPE_ORDER:
        tp = confusion[t][t]
        predicted_t = sum(confusion[x][t] for x in TYPE_ORDER)
        actual_t = sum(confusion[t].values())
        precision[t] = tp / predicted_t if predicted_t else 0.0
        recall[t] = tp / actual_t if actual_t else 0.0
        f1[t] = 2 * precision[t] * recall[t] / (precision[t] + recall[t]) if precision[t] + recall[t] else 0.0
        support[t] = actual_t
        if actual_t or predicted_t:
            present.append(t)
    macro = sum(f1[t] for t in present) / len(present)
    accuracy = sum(confusion[t][t] for t in TYPE_ORDER) / n
    return Evaluation(confusion, precision, recall, f1, support, macro, accuracy, n, skipped)


def settings_line(thresholds: Thresholds | None = None, settings: ScanSettings | None = None) -> str:
    """The settings an evaluation ran with, in one line, as the CLI's ``evaluate`` prints it and
    the method comparison tab shows it: the extractor, the fewest main-text tokens, the
    classifier's thresholds and the SimHash k (the largest file size too where not the default).
    ASCII only, as the rest of the CLI's tables: a console that cannot show "≥" still prints it.

    Args:
        thresholds: the classifier's thresholds (default :class:`Thresholds`).
        settings: the scan settings the pages were read with (default :class:`ScanSettings`).

    Returns:
        e.g. ``"extractor fast; min tokens 8; content same >= 0.925; partial >= 0.200;
        layout same >= 0.700; k <= 3"`` (str); every similarity to 3 places.
    """
    t, s = thresholds or Thresholds(), settings or ScanSettings()
    parts = [f"extractor {s.extractor}", f"min tokens {s.min_tokens}"]
    if s.max_file_bytes != ScanSettings().max_file_bytes:
        parts.append(f"max file {s.max_file_bytes / 2**20:g} MB")
    parts += [f"content same >= {t.content_same:.3f}", f"partial >= {t.content_partial:.3f}",
              f"layout same >= {t.layout_same:.3f}", f"k <= {t.hamming_k}"]  # fmt: skip
    return "; ".join(parts)


def score_text(value: float, defined: bool) -> str:
    """A precision, recall or F1 to 3 places, or "–" where it is undefined (0/0, not 0): the one
    form of the CLI and the window's Methods tab (str)."""
    return f"{value:.3f}" if defined else "–"


def format_evaluation(ev: Evaluation) -> str:
    """The confusion matrix and per-type precision, recall and F1 as plain text (str)."""
    names = [t.value for t in TYPE_ORDER]
    width = max(len(x) for x in names) + 2
    lines = [f"pairs evaluated: {ev.n}" + (f" (skipped {ev.skipped})" if ev.skipped else ""), ""]
    lines.append("confusion matrix (rows: true type, columns: predicted type)")
    lines.append(" " * width + "".join(f"{x:>{width}}" for x in names))
    for t in TYPE_ORDER:
        lines.append(f"{t.value:<{width}}" + "".join(f"{ev.confusion[t][p]:>{width}}" for p in TYPE_ORDER))
    lines.append("")
    lines.append(f"{'type':<{width}}{'precision':>11}{'recall':>9}{'F1':>8}{'support':>9}")
    present, undefined = 0, False
    for t in TYPE_ORDER:
        predicted = sum(ev.confusion[x][t] for x in TYPE_ORDER)
        # "–" where the figure is undefined (0/0), as the window's Methods tab shows it
        precision = score_text(ev.precision[t], bool(predicted))
        recall = score_text(ev.recall[t], bool(ev.support[t]))
        f1 = score_text(ev.f1[t], bool(ev.support[t] or predicted))
        present += bool(ev.support[t] or predicted)
        undefined |= not (predicted and ev.support[t])
        lines.append(f"{t.value:<{width}}{precision:>11}{recall:>9}{f1:>8}{ev.support[t]:>9d}")
    lines.append("")
    lines.append(f"macro-F1: {ev.macro_f1:.3f}   accuracy: {ev.accuracy:.3f}")
    types = "type" if present == 1 else "types"
    absent = " (a type with F1 – is in neither and left out)" if present < len(TYPE_ORDER) else ""
    lines.append(f"macro-F1 is the mean F1 of the {present} {types} in the labels or the predictions{absent}")
    if undefined:
        lines.append("–: undefined (precision of a type never predicted, recall of a type never labelled)")
    return "\n".join(lines)
