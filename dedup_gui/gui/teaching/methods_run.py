"""One run of the method comparison tab (:mod:`.methods_view`): what it ran with (the labels, the
window's thresholds and scan settings), the work off the GUI thread, and its progress relay.

The tab evaluates with the thresholds and scan settings of the window's current result, the
values the command line's ``evaluate`` takes as ``--content-same``, ``--extractor``,
``--min-tokens``…, so that its numbers equal the command line's for the same values; a run on
other values than the window's is out of date (:meth:`RunSettings.changes`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from dedup_gui.core.evaluation.evaluate import Evaluation, ScoredPair, evaluate, settings_line
from dedup_gui.core.evaluation.method_eval import MethodsReport, evaluate_methods
from dedup_gui.core.model import Page, ScanResult, ScanSettings, Thresholds
from dedup_gui.core.progress import CancelToken
from dedup_gui.core.views.relations import display_relations


@dataclass(frozen=True)
class RunSettings:
    """The thresholds and scan settings a comparison runs with.

    Attributes:
        thresholds: the classifier's thresholds (:class:`~dedup_gui.core.model.Thresholds`).
        settings: the settings the labelled pages are read with (extractor, min tokens…).
    """

    thresholds: Thresholds = field(default_factory=Thresholds)
    settings: ScanSettings = field(default_factory=ScanSettings)

    @classmethod
    def of(cls, result: ScanResult | None) -> RunSettings:
        """The window's: those of ``result`` (a scan, or its re-classification with the
        Thresholds panel's values), the defaults without a scan (RunSettings)."""
        return cls(result.thresholds, result.settings) if result is not None else cls()

    def line(self) -> str:
        """The one-line description the CLI's ``evaluate`` prints too
        (:func:`~dedup_gui.core.evaluation.evaluate.settings_line`), with "≥" and "≤" for the
        CLI's ASCII ">=" and "<=" (:func:`~dedup_gui.core.views.relations.display_relations`) (str)."""
        return display_relations(settings_line(self.thresholds, self.settings))

    def changes(self, other: RunSettings) -> str:
        """What differs from ``other``: ``""``, ``"thresholds"``, ``"scan settings"`` or
        ``"thresholds and scan settings"`` (str)."""
        parts = [name for name, differs in (("thresholds", self.thresholds != other.thresholds),
                                            ("scan settings", self.settings != other.settings)) if differs]  # fmt: skip
        return " and ".join(parts)


@dataclass(frozen=True)
class MethodsRun:
    """One finished comparison.

    Attributes:
        labels_csv: the labels file.
        scored: the classifier's scored pairs.
        report: every method's scores (:class:`~dedup_gui.core.evaluation.method_eval.MethodsReport`).
        evaluation: the classifier's five-type evaluation (confusion matrix).
        used: the thresholds and scan settings it ran with.
        pages: the labelled pages read (path in the CSV -> page, or why it could not be read),
            reused by a run on other thresholds with the same settings.
        finished: when it finished (local time).
    """

    labels_csv: Path
    scored: list[ScoredPair]
    report: MethodsReport
    evaluation: Evaluation
    used: RunSettings = field(default_factory=RunSettings)
    pages: dict[str, Page | str] = field(default_factory=dict, compare=False, repr=False)
    finished: datetime = field(default_factory=datetime.now, compare=False)


class Relay(QObject):
    """Carries progress from the worker thread to the view (a queued signal)."""

    progressed = Signal(str, int, int)


class RelayProgress:
    """The engine's progress protocol, forwarding updates through a Qt signal and asking a
    :class:`~dedup_gui.core.progress.CancelToken` whether to stop.

    Args:
        relay: the object whose ``progressed(stage, done, total)`` signal is emitted.
        token: the cancel flag.
    """

    def __init__(self, relay: Relay, token: CancelToken) -> None:
        self._relay = relay
        self._token = token

    def update(self, stage: str, done: int, total: int, detail: str = "") -> None:
        """Forward ``done`` of ``total`` items of ``stage`` (``detail`` is not shown here)."""
        try:
            self._relay.progressed.emit(stage, done, total)
        except RuntimeError:  # the view was closed meanwhile
            pass

    def cancelled(self) -> bool:
        """``True`` once Cancel was pressed (bool)."""
        return self._token.is_set()


def run_methods(
    labels_csv: str | Path,
    progress: RelayProgress | None = None,
    used: RunSettings | None = None,
    pages: dict[str, Page | str] | None = None,
) -> MethodsRun:
    """Compare every method and evaluate the classifier on a labels CSV (runs off the GUI thread),
    as the CLI's ``evaluate --methods all`` does with the same thresholds and settings.

    Args:
        labels_csv: the labels file.
        progress: progress to report to, which may cancel (optional).
        used: the thresholds and scan settings (default: the defaults).
        pages: the pages of an earlier run on the same file and settings, reused (copied).

    Raises:
        ValueError: a bad labels file, or no labelled pair could be scored.
        OSError: the file cannot be read.
        ScanCancelled: cancelled.
    """
    path, used = Path(labels_csv), used or RunSettings()
    read = dict(pages or {})
    scored, report = evaluate_methods(path, None, used.thresholds, used.settings, progress, pages=read)
    return MethodsRun(path, scored, report, evaluate(scored), used, read)
