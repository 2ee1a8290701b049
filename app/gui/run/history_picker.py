"""Which runs the round cards show: "Recent runs" (the live view) or one earlier run of the
folder, each named by its date, engine, outcome and cost. It sits right above the cards it
controls, so choosing a run and seeing its rounds happen in one place; a tab would hide the
running round behind a click. Opening a card shows its evidence (EvidenceDialog).
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from PySide6.QtCore import (QT_TRANSLATE_NOOP, QCoreApplication, QDateTime, QLocale, QObject, Qt,
                            Signal)
from PySide6.QtWidgets import QComboBox, QWidget

from app.core.run.outcomes import ExitReason, RunState
from app.gui.background import run_for
from app.gui.look import look
from app.gui.run.round_cards import RoundCardList, RoundView
from app.gui.words import wording

_ENDINGS = {  # how a run ended, in the picker's few words (translated where shown)
    RunState.DONE: QT_TRANSLATE_NOOP("HistoryPicker", "Done"),
    RunState.BLOCKED_BY_HUMAN: QT_TRANSLATE_NOOP("HistoryPicker", "Asked you a question"),
    RunState.STOPPED: QT_TRANSLATE_NOOP("HistoryPicker", "Stopped"),
    RunState.FAILED: QT_TRANSLATE_NOOP("HistoryPicker", "Stopped by a problem"),
}
SAMPLE_START = "2026-12-25T23:59:00+00:00"  # the picker's width: a run's date fits
_UNFINISHED = QT_TRANSLATE_NOOP("HistoryPicker", "Did not finish")
_SAMPLES = QT_TRANSLATE_NOOP("HistoryPicker", "Shown as a sample, not done")


def _when(stamp: str | None) -> str:
    """The start time with the month by name in the person's language; the pattern itself
    is translatable (a Chinese reader wants 2026年12月1日 07:44)."""
    if stamp is None:
        return "?"
    try:
        local = datetime.fromisoformat(stamp).astimezone()
    except (TypeError, ValueError):
        return "?"
    moment = QDateTime.fromSecsSinceEpoch(int(local.timestamp()))
    pattern = QCoreApplication.translate("HistoryPicker", "d MMM yyyy, HH:mm")
    return QLocale().toString(moment, pattern)


def run_label(run) -> str:
    """A run in the picker's words: when, which engine, how it ended, and what it cost. Made
    off the UI thread too (translations and the locale are read-only there)."""
    demo = not run.is_ai or run.engine == "demo"
    engine = (QCoreApplication.translate("HistoryPicker", "Demo") if demo
              else run.engine_label or run.engine)
    ending = QCoreApplication.translate("HistoryPicker", str(
        _SAMPLES if getattr(run, "exit_reason", None) == ExitReason.SAMPLES_SHOWN
        else _ENDINGS.get(run.state, _UNFINISHED)))
    parts = [_when(run.started_at), engine, ending]
    if run.is_ai and run.engine != "demo":
        parts.append(wording.cost(run.cost_usd, run.cost_is_upper_estimate))
    return " · ".join(parts)


class HistoryPicker(QComboBox):
    """"Recent runs" first, then every run of the folder, newest first."""

    run_chosen = Signal(str)  # a run id, or "" for the recent runs (and the live one)
    looked_at = Signal()  # focused or opened: the runs are listed again (one may be new)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("historyPicker")
        look.set_accessible(self, self.tr("Show the rounds of"),
                            self.tr("The recent runs, or one earlier run of this folder"))
        # One width, whatever the runs listed: "Recent runs" with room for a run's date and
        # engine (a longer label ends in "…" here and is read whole in the list and the
        # tooltip), so the box never jumps from 97 to 300 px when the first run is listed.
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        metrics = self.fontMetrics()
        room = max(metrics.horizontalAdvance(self.tr("Recent runs")),
                   metrics.horizontalAdvance(_when(SAMPLE_START)))
        # The box counts its length in "X"s, beside an icon's room: a Chinese font's average
        # character is nearly two "X"s, and "2026年12月5日 14:07" showed as "2026年12月5日 14:0"
        # when counted in those. Counted in both, so the date shows whole and the box is no
        # wider than it must be (the rounds' column fits an 800 px window in Chinese too).
        icon = self.iconSize().width() + 4
        self.setMinimumContentsLength(max(
            -(-room // max(1, metrics.averageCharWidth())) + 1,
            -(-(room - icon) // max(1, metrics.horizontalAdvance("X")))))
        self.currentIndexChanged.connect(lambda _i: self.setToolTip(self._tip()))
        self.runs: list = []
        self.show_runs([])
        self.activated.connect(self._on_activated)

    def label_for(self, run) -> str:
        return run_label(run)

    def show_runs(self, runs: list, labels: list[str] | None = None) -> None:
        """The runs listed, newest first; `labels` their words when already made (off the
        UI thread: `labelled_runs`), else made here."""
        self.runs = list(runs)
        if labels is None or len(labels) != len(self.runs):
            labels = [run_label(run) for run in self.runs]
        self.blockSignals(True)
        self.clear()
        self.addItem(self.tr("Recent runs"), "")
        for run, label in zip(self.runs, labels):
            self.addItem(label, run.run_id)
        self.blockSignals(False)
        # The list that opens is as wide as its longest label: each run read whole there.
        metrics = self.view().fontMetrics()
        widest = max((metrics.horizontalAdvance(self.itemText(i)) for i in range(self.count())),
                     default=0)
        self.view().setMinimumWidth(widest + 4 * metrics.averageCharWidth())
        self.setToolTip(self._tip())

    def _tip(self) -> str:
        tip = self.tr("Pick an earlier run to see its rounds; open a round to see what it "
                      "changed")
        return f"{self.currentText()}\n{tip}" if self.currentIndex() > 0 else tip

    def _on_activated(self, index: int) -> None:
        self.run_chosen.emit(self.itemData(index) or "")

    # A run made outside the window (the terminal, a schedule) is listed when the person
    # comes to the picker, not only after a run of the window's own.
    def focusInEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().focusInEvent(event)
        self.looked_at.emit()

    def showPopup(self) -> None:  # noqa: N802 (Qt's name)
        self.looked_at.emit()
        super().showPopup()

    def listed(self) -> list[tuple[str, str]]:
        """The runs as listed now: (run id, label), newest first."""
        return [(self.itemData(i), self.itemText(i)) for i in range(1, self.count())]


class HistoryFlow(QObject):
    """Feeds the picker and the cards from the folder's records (read off the UI thread) and
    opens a card's evidence."""

    evidence_shown = Signal(object)  # the EvidenceDialog now on screen
    round_undone = Signal(object)    # an UndoReport

    def __init__(self, window, picker: HistoryPicker, cards: RoundCardList, runner, careful):
        super().__init__(window)
        self.window = window  # the evidence dialog's parent
        self.picker = picker
        self.cards = cards
        self.runner = runner  # a round is undone only between runs
        self.careful = careful  # offers "Protect this file" on the files a round changed
        self.root: Path | None = None
        self._listing = False  # the runs are being read
        picker.run_chosen.connect(self._on_run_chosen)
        picker.looked_at.connect(self._on_looked_at)
        cards.round_opened.connect(self.open_round)
        self.round_undone.connect(self._on_round_undone)

    @property
    def chosen_run(self) -> str:
        return self.picker.currentData() or ""

    def folder_opened(self, root: Path, *, list_now: bool = True) -> None:
        """A folder is shown; its runs are listed now, or with its cards (`list_now` False:
        folder_history.py calls reload_runs once the checklist is on screen)."""
        self.root = root
        self.picker.show_runs([])
        if list_now:
            self.reload_runs()

    def reload_runs(self) -> None:
        root = self.root
        if root is not None:  # imported there too: the records bring pydantic, slow to load
            self._listing = True
            run_for(self.window, lambda: labelled_runs(root), self._on_runs_listed,
                    self._on_listing_failed)

    def _on_listing_failed(self, _exc: BaseException) -> None:
        self._listing = False

    def _on_looked_at(self) -> None:
        if not self.runner.running and not self._listing:  # in a run it waits for its end
            self.reload_runs()

    def _on_runs_listed(self, listed: tuple[list, list[str]]) -> None:
        self._listing = False
        runs, labels = listed
        if [(run.run_id, label) for run, label in zip(runs, labels)] == self.picker.listed():
            return  # as listed: an open list is left as it is
        chosen, opened = self.chosen_run, self.picker.view().isVisible()
        self.picker.show_runs(*listed)
        index = self.picker.findData(chosen)
        self.picker.setCurrentIndex(max(0, index))
        if opened:  # open meanwhile: opened again, as long as its runs
            self.picker.hidePopup()
            self.picker.showPopup()

    def run_started(self) -> None:
        """A run starts: the cards show it live, so the picker goes back to the recent runs
        (the earlier run's cards make way) and waits until the run ends."""
        if self.chosen_run:
            self.cards.clear()
        self.picker.setCurrentIndex(0)
        self.picker.setEnabled(False)

    def refresh_cards(self) -> None:
        """Read the cards again (a round was undone): the recent runs, or the chosen one."""
        self._on_run_chosen(self.chosen_run)

    def run_ended(self) -> None:
        self.picker.setEnabled(True)
        self.reload_runs()

    def _on_run_chosen(self, run_id: str) -> None:
        root = self.root
        if root is None:
            return
        if not run_id:  # back to the recent runs, as when the folder opened
            from app.gui.folder.workspace_info import (  # noqa: PLC0415 - window start-up (bench/startup.py)
                inspect_folder)

            run_for(self.window, lambda: inspect_folder(root), self._show_recent)
            return
        from app.gui.evidence.evidence_data import (  # noqa: PLC0415 - window start-up (bench/startup.py)
            rounds_of)

        run_for(self.window, lambda: rounds_of(root, run_id), self._show_run)

    def _show_recent(self, info) -> None:
        self.cards.show_history([(started, [RoundView.from_record(r, is_ai, r.round in undone)
                                            for r in rounds])
                                 for started, rounds, is_ai, undone in info.history])

    def _show_run(self, found) -> None:
        run, rounds, undone = found
        is_ai = bool(run.is_ai and run.engine != "demo") if run else True
        upper = bool(run and run.cost_is_upper_estimate)
        self.cards.show_history([(run.started_at if run else None,
                                  [RoundView.from_record(r, is_ai, r.round in undone, upper)
                                   for r in rounds])])

    def _on_round_undone(self, _report) -> None:
        """Between runs the status says what the undo did (evidence_flow.py): a banner left
        from the run's end ("The run in … has ended: Done.") is not said beside it."""
        if not self.runner.running:
            self.careful.notifier.drop_news()

    def open_round(self, view: RoundView) -> None:
        from app.gui.evidence.evidence_dialog import (  # noqa: PLC0415 - window start-up (bench/startup.py)
            EvidenceDialog)

        if self.root is None or not view.run_id:
            return
        dialog = EvidenceDialog(self.root, view, self.window,
                                can_undo_now=not self.runner.running)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.undone.connect(self.round_undone)
        self.careful.offer_protection(dialog.file_actions)
        dialog.show()
        self.evidence_shown.emit(dialog)


def labelled_runs(root: Path) -> tuple[list, list[str]]:
    """The folder's runs and their labels, made off the UI thread: at a run's end, made on
    it, they shared one turn with the decision dialog (bench/ui_stall_cold.py --where)."""
    runs = _list_runs(root)
    return runs, [run_label(run) for run in runs]


def _list_runs(root: Path) -> list:
    from app.core.workspace.workspace import Workspace  # noqa: PLC0415 - window start-up (bench/startup.py)

    if not Workspace(root).run_ids():
        return []  # never run: no records to read, nor pydantic to import
    from app.gui.evidence.evidence_data import (  # noqa: PLC0415 - window start-up (bench/startup.py)
        list_runs)

    return list_runs(root)
