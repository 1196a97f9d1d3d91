"""The scan status area: one progress bar for the whole scan, the current step with its count
and an estimate of the time left in it, and a Cancel button."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QFontMetrics, QPainter
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QStatusBar,
    QToolTip,
    QWidget,
)

from dedup_gui.core.progress import SCAN_STAGES, EtaEstimator, OverallProgress, stage_count_text
from dedup_gui.gui.plain import plain_tooltip

#: The progress bar's range: the whole scan is 0..BAR_STEPS (tenths of a percent).
BAR_STEPS = 1000


def format_eta(seconds: float | None) -> str:
    """Say how long is left, e.g. ``"about 12 s left"``, ``"about 3 min 5 s left"``, ``"less
    than a second left"`` (never "about 0 s") (str).

    Args:
        seconds: estimated seconds left, or ``None`` when not known yet (gives ``""``).
    """
    if seconds is None:
        return ""
    s = max(0, round(seconds))
    if s == 0:
        return "less than a second left"
    if s < 60:
        return f"about {s} s left"
    if s < 3600:
        return f"about {s // 60} min {s % 60} s left"
    return f"about {s // 3600} h {s % 3600 // 60} min left"


class MiddleElidedLabel(QLabel):
    """A one-line plain-text label drawn elided in its middle when narrower than its text, so
    that both its start and its end stay in sight ("Scanned 1,422 pages … 0 errors (40.8 s); 1
    note (hover to read)"; cut at its end, a 1024-px window hid the note); ``text()`` stays whole.

    Whole words give way, not letters: at 1024 px the line read "... of 10,133 compare… 309 keep
    clusters", the thresholds note and a word cut mid-line.  With no tooltip of its own, an
    elided label shows its whole text in its tooltip.
    """

    def shown_text(self) -> str:
        """The text as drawn at the label's width: whole, or its first and last words with
        `` … `` between them (str)."""
        return elide_words(self.text(), self.fontMetrics(), self.contentsRect().width())

    def event(self, event: QEvent) -> bool:
        """Show the whole text as the tooltip while it is elided (and no tooltip is set)."""
        if event.type() == QEvent.Type.ToolTip and not self.toolTip() and self.shown_text() != self.text():
            QToolTip.showText(event.globalPos(), plain_tooltip(self.text()), self)
            return True
        return super().event(event)

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt API)
        """Draw the text, elided in its middle to the label's width."""
        rect, metrics = self.contentsRect(), self.fontMetrics()
        if metrics.horizontalAdvance(self.text()) <= rect.width():
            super().paintEvent(event)
            return
        shown = self.shown_text()
        painter = QPainter(self)
        self.style().drawItemText(painter, rect, int(self.alignment()), self.palette(), self.isEnabled(), shown,
                                  self.foregroundRole())  # fmt: skip
        painter.end()


def elide_words(text: str, metrics: QFontMetrics, width: int) -> str:
    """``text`` shortened to ``width`` pixels by dropping whole words from its middle: its first
    and its last words, as many of each as fit with ``" … "`` between them, the end given the
    same room as the start (str; ``text`` when it fits; Qt's middle elision when not even one
    word of each end fits).

    Args:
        text: one line of text.
        metrics: the font metrics it is drawn with.
        width: the room, in pixels.
    """
    if metrics.horizontalAdvance(text) <= width:
        return text
    words = text.split(" ")
    head, tail = 0, len(words)  # words[:head] and words[tail:] are shown
    gap = " … "

    def shown(h: int, t: int) -> str:
        return " ".join(words[:h]) + gap + " ".join(words[t:])

    # alternate: a word of the end, then a word of the start, while they fit
    turn_end = True
    while head < tail - 1:
        h, t = (head, tail - 1) if turn_end else (head + 1, tail)
        if metrics.horizontalAdvance(shown(h, t)) > width:
            # the other end may still take a word
            h, t = (head + 1, tail) if turn_end else (head, tail - 1)
            if metrics.horizontalAdvance(shown(h, t)) > width:
                break
        head, tail = h, t
        turn_end = not turn_end
    if head == 0 or tail == len(words):
        return metrics.elidedText(text, Qt.TextElideMode.ElideMiddle, width)
    return shown(head, tail)


class ScanStatus(QWidget):
    """Shows a running scan's progress, step and ETA, and offers Cancel.

    The bar covers the whole scan (:class:`~dedup_gui.core.progress.OverallProgress`): it never
    starts again at a new stage.  The label names the step ("Step 2 of 4, reading pages: 1,234
    of 10,000") and, once it can be estimated, the time left in that step.

    Args:
        eta_factory: makes the estimator of the remaining time, one per scan (a callable
            returning an :class:`EtaEstimator`; tests pass one with a fake clock).
        parent: the Qt parent widget, or ``None``.

    Signals:
        cancel_requested(): the user clicked Cancel.
    """

    cancel_requested = Signal()

    def __init__(self, eta_factory: Callable[[], EtaEstimator] = EtaEstimator, parent=None) -> None:
        super().__init__(parent)
        self._eta_factory = eta_factory
        self._eta = eta_factory()
        self._overall = OverallProgress()
        self._work: tuple[str, int, int] | None = None  # the latest (stage, done, total) of work
        self._bar: QStatusBar | None = None  # the window's status bar, once placed in it
        self.label = MiddleElidedLabel("Ready")
        self.label.setTextFormat(Qt.TextFormat.PlainText)  # messages may quote file names
        # A long message is cut in its middle at the window's edge, not widening the window: its
        # end ("0 errors (40.8 s); 1 note (hover to read)") stays in sight; the tooltip has it whole.
        self.label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        # which results the window shows while a scan runs (the last ones, of another folder
        # perhaps): a permanent widget, so a temporary message never hides it
        self.shown_label = QLabel()
        self.shown_label.setObjectName("shown-results")
        self.shown_label.setTextFormat(Qt.TextFormat.PlainText)
        self.shown_label.hide()
        self.progress_bar = QProgressBar()
        self.progress_bar.setFixedWidth(220)
        self.progress_bar.setTextVisible(True)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self._on_cancel)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 0, 4, 0)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.shown_label)
        layout.addWidget(self.progress_bar)
        layout.addWidget(self.cancel_button)
        self.finish("Ready")

    def place_in(self, bar: QStatusBar) -> None:
        """Put the parts in a window's status bar: the label as a normal widget, which a
        temporary message (``bar.showMessage``) replaces while it shows, and the bar and
        Cancel as permanent widgets, which stay in reach during a message.  A permanent label
        covered every confirmation ("Marked … not a duplicate") with the scan summary.

        Args:
            bar: the status bar; it takes the label, the progress bar and the Cancel button
                (this container is left empty and hidden).
        """
        bar.addWidget(self.label, 1)
        bar.addPermanentWidget(self.shown_label)
        bar.addPermanentWidget(self.progress_bar)
        bar.addPermanentWidget(self.cancel_button)
        self.setParent(bar)
        self.hide()
        self._bar = bar

    def start(self, folder: str, stages: Sequence[tuple[str, float]] = SCAN_STAGES, shown: str = "") -> None:
        """Enter the running state for a scan of ``folder``.

        Args:
            folder: the folder being scanned (shown until the first update).
            stages: the scan's steps as ``(name, weight)`` in order (see
                :class:`~dedup_gui.core.progress.OverallProgress`); the default is every stage
                of a scan with the feature cache.
            shown: what the window shows meanwhile, e.g. ``"Last results, of a, shown while b
                is scanned"``, said beside the progress bar until the scan ends (``""``: nothing).
        """
        self.shown_label.setText(shown)
        self.shown_label.setVisible(bool(shown))
        self._eta = self._eta_factory()
        self._overall = OverallProgress(stages)
        self._work = None
        if self._bar is not None:  # an earlier confirmation ("Wrote …") would hide the steps
            self._bar.clearMessage()
        self.label.setText(f"Scanning {folder}…")
        self.progress_bar.setRange(0, 0)  # busy until the first update
        self.progress_bar.show()
        self.cancel_button.setEnabled(True)
        self.cancel_button.show()

    def update_work(self, stage: str, done: int, total: int) -> None:
        """Take the work of ``stage`` done so far, in its own units (the reading step's bytes;
        ``core.progress.report_work``): the next :meth:`update_progress` of that stage bases
        the bar and the time left on it, the count shown staying in items."""
        self._work = (stage, done, total)

    def update_progress(self, stage: str, done: int, total: int, detail: str = "") -> None:
        """Show that ``done`` of ``total`` items of ``stage`` are done: the whole scan's share
        done on the bar, the step and its count in the label, with the time left in the step
        once it can be estimated, then ``detail`` (the slow pages in flight, e.g. "still
        reading big.html (21 MB) for 12 s", from the engine; ``""`` for none).  The bar and
        the time left follow the stage's work when it reported one (:meth:`update_work`)."""
        work = self._work[1:] if self._work is not None and self._work[0] == stage and self._work[2] > 0 else None
        fraction = self._overall.update(stage, done, total, work)
        if self.progress_bar.maximum() != BAR_STEPS:
            self.progress_bar.setRange(0, BAR_STEPS)
        self.progress_bar.setValue(round(fraction * BAR_STEPS))
        number, count = self._overall.step(stage)
        counted = stage_count_text(stage, done, total)
        text = f"Step {number} of {count}, {counted}" if count > 1 else counted[:1].upper() + counted[1:]
        eta = format_eta(self._eta.eta(stage, *(work or (done, total))))
        if eta and count > 1:
            eta += " in this step"
        text = f"{text} — {eta}" if eta else text
        if detail and done < total:
            text += f"; {detail}" if eta else f" — {detail}"
        if text != self.label.text():
            self.label.setText(text)

    def busy(self, message: str) -> None:
        """Show ``message`` (e.g. ``"Re-classifying 10,170 pairs…"``) with the bar moving and
        no Cancel, until :meth:`finish`: work that takes seconds but cannot be cancelled from
        here (a re-classification).  A temporary message (``"Marked …"``) is cleared, so the
        line says what is under way."""
        if self._bar is not None:
            self._bar.clearMessage()
        self.label.setText(message)
        self.label.setToolTip("")
        self.progress_bar.setRange(0, 0)  # busy: no share done to show
        self.progress_bar.show()
        self.cancel_button.hide()

    def cancelling(self) -> None:
        """Show that a cancel was asked for and is under way."""
        self.cancel_button.setEnabled(False)
        self.label.setText("Cancelling…")

    def finish(self, message: str) -> None:
        """Leave the running state and show ``message`` (e.g. ``"Scan cancelled"``); the notes
        of a scan's summary (``". Note: ..."``) are counted on the line and read in its tooltip,
        so that the counts stay in view in a status bar of any width."""
        line, *notes = message.split(". Note: ")
        if notes:
            line += f"; {len(notes)} note{'s' if len(notes) > 1 else ''} (hover to read)"
        self.label.setText(line)
        self.label.setToolTip(plain_tooltip(message.replace(". Note: ", ".\nNote: ")) if message != line else "")
        self.shown_label.hide()
        self.progress_bar.hide()
        self.cancel_button.hide()

    def _on_cancel(self) -> None:
        self.cancelling()
        self.cancel_requested.emit()


def last_results_banner() -> QLabel:
    """The strip above the result tables that says, while a scan runs, that the results shown
    are the last ones (of which folder) and that deciding waits for the scan's end; hidden
    otherwise (``objectName`` ``last-results``).

    Returns:
        The label (QLabel, plain text, word-wrapped, hidden).
    """
    banner = QLabel()
    banner.setObjectName("last-results")
    banner.setTextFormat(Qt.TextFormat.PlainText)  # it quotes folder names
    banner.setWordWrap(True)
    # the palette's tooltip colours: a notice that reads in light and dark themes alike
    banner.setStyleSheet("QLabel#last-results { background: palette(tooltip-base); color: palette(tooltip-text);"
                         " border: 1px solid palette(mid); padding: 4px 8px; }")  # fmt: skip
    banner.hide()
    return banner
