"""The run half of the window: one primary button, the state in words, two bars, time and cost.

It shows a run from its typed events: `show_event` for each one as it arrives, `show_result`
when the run ends. Every sentence comes from `wording` (translatable); the core's English
messages appear only as details under the state.
"""

from __future__ import annotations

from PySide6.QtCore import QElapsedTimer, Qt, QTimer, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (QFrame, QHBoxLayout, QLabel, QProgressBar, QPushButton,
                               QSizePolicy, QToolButton, QVBoxLayout, QWidget)

from app.gui.look import icons, look

from app.gui.run import next_step, wording

# The one filled button follows the state (WINDOW.md, "Visual system"): Run, Stop, Continue,
# "Answer the question…" (a decision waits), "Review the change…" (careful mode waits), Export
# summary… or Add a task (everything done), "Choose an AI engine…" (the Demo showed samples).
MODES = ("none", "no_board", "run", "running", "stopping", "continue", "answer", "review",
         "done", "choose_engine")


class RunPanel(QWidget):
    run_requested = Signal()        # Run pressed
    continue_requested = Signal()   # Continue pressed (after a stop or a decision)
    stop_requested = Signal()       # Stop pressed
    export_requested = Signal()     # Export summary pressed
    lessons_requested = Signal()    # "1 lesson from this run" pressed
    engine_settings_requested = Signal(str)  # "Engine settings…" under an engine's stop (its id)
    answer_requested = Signal()     # "Answer the question…" pressed
    review_requested = Signal()     # "Review the change…" pressed
    add_task_requested = Signal()   # "Add a task" pressed (everything on the list is done)
    choose_engine_requested = Signal()  # "Choose an AI engine…" pressed

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.mode = "none"
        self.done_tasks, self.total_tasks = 0, 0  # the list's counts, as last shown
        self.demo_samples = False  # Run would only show samples (the Demo on the person's tasks)
        self.all_done_shown = False  # "Done: every task on the list is checked" is on screen
        self.is_ai = True
        self.tokens = 0
        self.cost = 0.0
        self.upper = False  # the cost is an upper estimate: the model's price is not known
        self.max_steps = 0
        self.current_task = ""
        self._retry_left = 0.0
        self._retry_code = ""
        self._clock = QElapsedTimer()
        self._ticker = QTimer(self)
        self._ticker.setInterval(1000)
        self._ticker.timeout.connect(self._on_tick)
        self._build()
        self.set_mode("none")

    # -- layout --------------------------------------------------------------------------
    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 8, 12, 8)
        layout.setSpacing(8)

        self.welcome = QFrame(self)
        self.welcome.setObjectName("welcome")
        self.welcome.setFrameShape(QFrame.Shape.StyledPanel)
        row = QHBoxLayout(self.welcome)
        self.welcome_text = QLabel(self.welcome)
        self.welcome_text.setWordWrap(True)
        self.welcome_text.setTextFormat(Qt.TextFormat.PlainText)
        close = QToolButton(self.welcome)
        close.setText("×")
        close.setAutoRaise(True)
        look.set_accessible(close, self.tr("Close the welcome note"))
        close.setToolTip(self.tr("Close the welcome note"))
        close.clicked.connect(self.welcome.hide)
        row.addWidget(self.welcome_text, 1)
        row.addWidget(close, 0, Qt.AlignmentFlag.AlignTop)
        self.welcome.hide()
        layout.addWidget(self.welcome)

        buttons = QHBoxLayout()
        self.button_row = buttons  # careful mode's switch sits beside Run
        self.primary = QPushButton(self)
        self.primary.setObjectName("primary")
        self.primary.setDefault(True)
        self.primary.setMinimumWidth(120)
        self.primary.setFont(look.scaled_font(self.primary, 1.15, bold=True))
        look.set_tone(self.primary, "primary")
        self.primary.clicked.connect(self._on_primary_clicked)
        self.export_button = QPushButton(self.tr("Export summary…"), self)
        look.set_accessible(self.export_button, self.tr("Export summary…"),
                            self.tr("Save a document that describes the last run"))
        self.export_button.setToolTip(self.tr("Save a PDF, document or web page that tells what "
                                              "the last run did, to read or share (Ctrl+E)."))
        self.export_button.clicked.connect(self.export_requested)
        self.export_button.setEnabled(False)
        icons.set_icon(self.export_button, "export")
        buttons.addWidget(self.primary)
        buttons.addStretch(1)
        buttons.addWidget(self.export_button)
        layout.addLayout(buttons)

        self.state_label = QLabel(self)
        self.state_label.setObjectName("state")
        self.state_label.setWordWrap(True)
        self.state_label.setTextFormat(Qt.TextFormat.PlainText)
        self.state_label.setFont(look.scaled_font(self, 1.3, bold=True))
        self.detail_label = QLabel(self)
        self.detail_label.setObjectName("detail")
        self.detail_label.setWordWrap(True)
        self.detail_label.setTextFormat(Qt.TextFormat.PlainText)
        self.detail_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.state_label)
        layout.addWidget(self.detail_label)
        # The one action under an engine's stop, when it is in Engine settings (a key, a
        # model, the local server's address).
        self.engine_action = QPushButton(self.tr("Engine settings…"), self)
        self.engine_action.setObjectName("engineAction")
        look.set_accessible(self.engine_action, self.tr("Engine settings…"),
                            self.tr("Opens the settings of the engine that stopped the run"))
        self.engine_action.setToolTip(self.tr("Your API key, the model and the local server's "
                                              "address, with a connection test."))
        self._action_engine = ""
        self.engine_action.clicked.connect(
            lambda: self.engine_settings_requested.emit(self._action_engine))
        self.engine_action.hide()
        layout.addWidget(self.engine_action, 0, Qt.AlignmentFlag.AlignLeft)
        # Beside the Demo's sentence on a person's own folder: the way to get the work done.
        self.choose_engine = QPushButton(self.tr("Choose an AI engine…"), self)
        self.choose_engine.setObjectName("chooseEngine")
        look.set_accessible(self.choose_engine, self.tr("Choose an AI engine…"),
                            self.tr("Opens the engine list"))
        self.choose_engine.clicked.connect(self.choose_engine_requested)
        self.choose_engine.hide()
        layout.addWidget(self.choose_engine, 0, Qt.AlignmentFlag.AlignLeft)

        self.tasks_bar = self._bar(layout, self.tr("Tasks"), self.tr("%v of %m tasks done"),
                                   self.tr("How many tasks on the list are checked."))
        self.steps_bar = self._bar(layout, self.tr("Steps"),
                                   self.tr("%v of %m steps in this round"),
                                   wording.tip(wording.STEP_TIP) + "\n\n"
                                   + wording.tip(wording.ROUND_TIP))

        self.meta_label = QLabel(self)
        self.meta_label.setObjectName("meta")
        self.meta_label.setTextFormat(Qt.TextFormat.PlainText)
        # Shown only while the cost is an upper estimate (the model's price is not known).
        self.price_note = QLabel(self)
        self.price_note.setObjectName("priceNote")
        self.price_note.setTextFormat(Qt.TextFormat.PlainText)
        self.price_note.setWordWrap(True)
        look.set_tone(self.price_note, "muted")
        self.price_note.hide()
        self.narration = QLabel(self)
        self.narration.setObjectName("narration")
        self.narration.setTextFormat(Qt.TextFormat.PlainText)
        self.narration.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        look.set_tone(self.narration, "muted")  # quieter by its grey: no italic (Chinese has none)
        self.narration.setToolTip(self.tr("What the AI is doing right now"))
        look.set_accessible(self.narration, self.tr("What the AI is doing"))
        layout.addWidget(self.meta_label)
        layout.addWidget(self.price_note)
        layout.addWidget(self.narration)

        # Quiet on purpose: a flat link-like button under the state, shown only when the run
        # that just ended taught something.
        self.lessons_button = QPushButton(self)
        self.lessons_button.setObjectName("lessonsLink")
        self.lessons_button.setFlat(True)
        self.lessons_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.lessons_button.setToolTip(self.tr(
            "What went wrong or was wasteful in this run, and a line you can add to AGENTS.md, "
            "the standing instructions the AI reads"))
        self.lessons_button.clicked.connect(self.lessons_requested)
        self.lessons_button.hide()
        layout.addWidget(self.lessons_button, 0, Qt.AlignmentFlag.AlignLeft)

    def _bar(self, layout: QVBoxLayout, name: str, fmt: str, tip: str) -> QProgressBar:
        row = QHBoxLayout()
        label = QLabel(name, self)
        label.setMinimumWidth(48)
        label.setToolTip(tip)
        bar = QProgressBar(self)
        bar.setFormat(fmt)
        bar.setRange(0, 1)
        bar.setValue(0)
        bar.setToolTip(tip)
        label.setBuddy(bar)
        look.set_accessible(bar, name, tip)
        row.addWidget(label)
        row.addWidget(bar, 1)
        layout.addLayout(row)
        return bar

    # -- what the panel shows --------------------------------------------------------------
    def set_mode(self, mode: str) -> None:
        assert mode in MODES, mode
        self.mode = mode
        exported = self.export_button.isEnabled()
        text, name, tip, icon = next_step.words(mode, exported)
        self.primary.setText(text)
        icons.set_icon(self.primary, icon, QPalette.ColorRole.HighlightedText)
        look.set_accessible(self.primary, name)
        self.primary.setToolTip(tip)
        self.primary.setEnabled(mode not in ("none", "no_board", "stopping"))
        # Export summary is the filled button when all is done: not twice on screen.
        self.export_button.setVisible(not (mode == "done" and exported))

    def show_welcome(self, text: str | None) -> None:
        self.welcome_text.setText(text or "")
        look.set_accessible(self.welcome, text or "")
        self.welcome.setVisible(bool(text))

    def show_state(self, headline: str, detail: str = "", tone: str = "normal") -> None:
        self.all_done_shown = False
        self.engine_action.hide()  # shown again by an engine's stop (show_engine_action)
        self.choose_engine.hide()  # shown again by the Demo's sentence (show_choose_engine)
        self.state_label.setText(headline)
        look.set_tone(self.state_label, tone if tone in ("ok", "attention") else None)
        self.detail_label.setText(detail)
        self.detail_label.setVisible(bool(detail))
        look.set_accessible(self.state_label, headline)

    def show_counts(self, done: int, total: int) -> None:
        self.done_tasks, self.total_tasks = done, total
        if self.all_done_shown and done < total and self.mode in ("run", "done"):
            self.show_ready()  # a task unticked or added since: "every task is checked" is not so
        look.set_bar(self.tasks_bar, min(done, max(1, total)), max(1, total))
        if total == 0:
            self.tasks_bar.setFormat(self.tr("No tasks yet"))
        else:
            self.tasks_bar.setFormat(self.tr("%v of %m tasks done"))
        look.set_accessible(self.tasks_bar, self.tr("Tasks: %1 of %2 done")
                            .replace("%1", str(done)).replace("%2", str(total)))

    def show_step(self, step: int, max_steps: int) -> None:
        if max_steps <= 0:  # no round going: an empty bar that says so
            look.set_bar(self.steps_bar, 0, 1)
            self.steps_bar.setFormat(self.tr("No round going"))
            look.set_accessible(self.steps_bar, self.tr("Steps: no round going"))
            return
        self.steps_bar.setFormat(self.tr("%v of %m steps in this round"))
        look.set_bar(self.steps_bar, min(step, max(1, max_steps)), max(1, max_steps))
        look.set_accessible(self.steps_bar, self.tr("Steps: %1 of %2 in this round")
                            .replace("%1", str(step)).replace("%2", str(max_steps)))

    def show_narration(self, text: str) -> None:
        metrics = self.narration.fontMetrics()
        width = max(100, self.narration.width() - 4)
        shown = f"“{wording.short(text, 300)}”" if text else ""
        self.narration.setText(metrics.elidedText(shown, Qt.TextElideMode.ElideRight, width))
        self.narration.setAccessibleDescription(text)

    def show_totals(self, elapsed_s: float | None = None) -> None:
        parts = []
        if elapsed_s is not None:
            parts.append(wording.duration(elapsed_s))
        parts.append(wording.tokens_and_cost(self.tokens, self.cost, self.is_ai, self.upper))
        self.meta_label.setText(" · ".join(parts))

    def prepare(self, max_steps: int) -> None:
        """A run is about to start with this step limit per round."""
        self.max_steps = max_steps

    def reset(self, is_ai: bool = True) -> None:
        """Forget the last run's numbers (a new workspace, or a new run starting)."""
        self.is_ai, self.tokens, self.cost = is_ai, 0, 0.0
        self.show_price(False)
        self.current_task = ""
        self._ticker.stop()
        self.show_step(0, 0)
        self.show_narration("")
        self.meta_label.setText("")
        self.show_lessons(0)

    def show_price(self, upper: bool, model: str = "") -> None:
        """Say, under the cost, when it is an upper estimate and why."""
        self.upper = upper
        self.price_note.setText(wording.unknown_price(model) if upper else "")
        self.meta_label.setToolTip(self.price_note.text())
        self.price_note.setVisible(upper)

    def show_lessons(self, count: int) -> None:
        """How many open lessons the run that just ended taught (0 hides the link)."""
        text = (self.tr("1 lesson from this run") if count == 1 else
                self.tr("%1 lessons from this run").replace("%1", str(count)))
        self.lessons_button.setText(text)
        look.set_accessible(self.lessons_button, text, self.tr("Opens the lessons"))
        self.lessons_button.setVisible(count > 0)

    # -- a run, event by event -------------------------------------------------------------
    def show_event(self, event) -> None:
        from app.core import events as ev  # loaded by the time a run sends events

        if isinstance(event, ev.RunStarted):
            self.reset(is_ai=event.is_ai and event.engine != "demo")
            self.show_price(self.is_ai and event.cost_is_upper_estimate, event.model)
            self._clock.start()
            self._ticker.start()
            self.show_counts(event.completed_tasks, event.total_tasks)
            self.show_state(self.tr("Starting…"))
            self.show_totals(0)
        elif isinstance(event, ev.RoundStarted):
            self.current_task = event.task
            if event.max_steps:
                self.max_steps = event.max_steps
            self.show_step(0, self.max_steps)
            self.show_state(wording.working_on(event.task),
                            self.tr("Round %1").replace("%1", str(event.round)))
        elif isinstance(event, ev.StepStarted):
            self.max_steps = event.max_steps or self.max_steps
            self.show_step(event.step, self.max_steps)
        elif isinstance(event, ev.ModelText):
            self.show_narration(event.text.strip().splitlines()[-1] if event.text.strip() else "")
        elif isinstance(event, ev.ModelReplied):
            self.show_step(max(event.step, self.steps_bar.value()), self.max_steps)
            self.tokens += event.usage.total_tokens
            self.cost += event.cost_usd
            if event.text.strip():
                self.show_narration(event.text.strip().splitlines()[-1])
            self.show_totals(self._clock.elapsed() / 1000 if self._clock.isValid() else None)
        elif isinstance(event, ev.ToolCalled):
            self.show_narration(wording.narration_for_tool(event.tool, event.arguments))
            if event.held_open:  # Word or Excel holds it: only the person can close it
                self.show_state(wording.held_open(event.held_open), tone="attention")
        elif isinstance(event, ev.NoticeSent):
            self.show_narration(wording.narration_for_notice(event.kind))
        elif isinstance(event, ev.TasksCounted):
            self.show_counts(event.completed_tasks, event.total_tasks)
        elif isinstance(event, ev.RetryWaiting):
            if event.usage is not None:
                self.tokens += event.usage.total_tokens
            self.cost += event.cost_usd
            self._retry_left, self._retry_code = event.seconds, event.code
            self.show_state(wording.waiting(event.seconds, event.code), tone="attention")
        elif isinstance(event, ev.RetryResumed):
            self._retry_left = 0.0
            if self.current_task:
                self.show_state(wording.working_on(self.current_task))
        elif isinstance(event, ev.HumanNeeded):
            self.show_state(self.tr("Needs your decision"), tone="attention")
        elif isinstance(event, ev.RunFinished):
            self._ticker.stop()
            self.tokens = max(self.tokens, event.usage.total_tokens)
            self.cost = max(self.cost, event.cost_usd)
            self.show_counts(event.completed_tasks, event.total_tasks)
            self.show_step(0, 0)
            self.show_totals(self._clock.elapsed() / 1000 if self._clock.isValid() else None)

    def show_folder(self, info) -> None:
        """A folder was opened (`info`: a workspace_info.FolderInfo): a welcome on the untouched
        demo, then where its last run left off (a decision waiting, stopped, done) or Ready."""
        panel = self
        panel.show_welcome(self.tr(
            "Welcome! This is a demo: the new website of a small bakery, with its tasks on the "
            "left. Press Run to watch the Demo engine work through them and ask you one "
            "decision. It works offline, uses no AI and costs nothing.")
            if info.is_demo and info.never_run else None)
        status = info.status
        if info.run_active_elsewhere:
            panel.show_state(self.tr("A run is going elsewhere"), self.tr(
                "Another window or the terminal is running this folder. Wait for it to end."),
                tone="attention")
            panel.set_mode("run")
        elif not info.has_board:
            self.show_no_board()
        elif info.interrupted is not None:
            panel.show_state(self.tr("The last run was interrupted"),
                             wording.interrupted(info.interrupted), tone="attention")
            panel.set_mode("continue")
        elif info.open_decision is not None:
            panel.show_state(self.tr("Needs your decision"), info.open_decision.question,
                             tone="attention")
            panel.set_mode("answer")
        elif status.state in ("stopped", "failed") and status.exit_reason not in (None,
                                                                                   "error"):
            engine_id = getattr(status, "engine", "") or ""
            headline, hint = wording.finished(status.state, status.exit_reason or "",
                                              status.current_task or "", engine_id=engine_id,
                                              model=getattr(status, "model", "") or "",
                                              button=self.tr("Continue"))
            panel.show_state(headline, hint, tone="attention")
            panel.show_engine_action(status.exit_reason or "", "", engine_id)
            panel.set_mode("choose_engine" if status.exit_reason == "samples_shown"
                           else "continue")
        elif status.state == "done":
            panel.show_state(*wording.finished("done", "all_tasks_done"), tone="ok")
            panel.all_done_shown = True
            panel.set_mode("done")
        else:
            panel.show_ready()

    def show_ready(self) -> None:
        if self.demo_samples:
            self.show_state(self.tr("Ready to show a sample"), wording.demo_samples_sentence())
            self.show_choose_engine(True)
        else:
            self.show_state(self.tr("Ready"), self.tr(
                "Press Run to start the AI on the first unchecked task."))
        self.set_mode("run")

    def set_demo_samples(self, samples: bool) -> None:
        """Whether Run would only show samples (the Demo engine on the person's own tasks);
        the ready state then says what Demo will do there, and offers an AI engine."""
        changed = samples != self.demo_samples
        self.demo_samples = samples
        if changed and self.mode == "run" and not self.all_done_shown:
            self.show_ready()

    def show_choose_engine(self, shown: bool) -> None:
        self.choose_engine.setVisible(shown)

    def nothing_left(self) -> None:
        """Run pressed with every task checked: say so, start nothing."""
        self.show_state(self.tr("Nothing left to do"), self.tr(
            "Every task on the list is checked. Add a task, or untick one to do it again."),
            tone="ok")
        self.all_done_shown = True
        self.set_mode("done")

    def show_no_board(self) -> None:
        """A folder without TASKS.md: nothing to run until the task list exists."""
        self.show_state(self.tr("No task list yet"), self.tr(
            "Create the task list on the left, write what you want done, then press Run."))
        self.set_mode("no_board")
        self.show_counts(0, 0)

    def show_result(self, state: str, exit_reason: str, message: str, task: str = "", *,
                    engine_id: str = "", model: str = "", cause: str = "") -> str:
        """The end of a run in words; returns the headline (for announcements). An engine's
        stop is one sentence of the window's (naming the engine and the button that follows:
        Run after a failure, else Continue), with Engine settings… as the action where that
        is where to put it right; the core's English sentence stays for the command line."""
        from app.gui.engines import engine_words

        self._ticker.stop()
        button = self.tr("Run") if state in ("done", "failed") else self.tr("Continue")
        headline, hint = wording.finished(state, exit_reason, task or self.current_task,
                                          engine_id=engine_id, model=model, cause=cause,
                                          button=button)
        tone = "ok" if state == "done" else "attention"
        known = state == "done" or exit_reason in ("human_decision_needed", "stopped_by_user",
                                                   "no_progress", "max_rounds", "samples_shown",
                                                   *engine_words.ENGINE_STOPS)
        detail = hint if known else f"{hint}\n{message}".strip()
        self.show_state(headline, detail, tone)
        self.all_done_shown = state == "done"
        self.show_engine_action(exit_reason, cause, engine_id)
        self.show_narration("")
        return headline

    def show_engine_action(self, exit_reason: str, cause: str, engine_id: str) -> None:
        """Offer Engine settings… under a stop that is put right there."""
        from app.gui.engines import engine_words

        self._action_engine = engine_id
        self.engine_action.setVisible(engine_words.wants_settings(exit_reason, cause or
                                                                  exit_reason, engine_id))

    def _on_tick(self) -> None:
        if self._retry_left > 0:
            self._retry_left = max(0.0, self._retry_left - 1)
            self.show_state(wording.waiting(self._retry_left, self._retry_code),
                            tone="attention")
        if self._clock.isValid():
            self.show_totals(self._clock.elapsed() / 1000)

    def _on_primary_clicked(self) -> None:
        if self.mode == "run":
            self.run_requested.emit()
        elif self.mode == "running":
            self.stop_requested.emit()
        elif self.mode == "continue":
            self.continue_requested.emit()
        elif self.mode == "answer":
            self.answer_requested.emit()
        elif self.mode == "review":
            self.review_requested.emit()
        elif self.mode == "done":
            (self.export_requested if self.export_button.isEnabled()
             else self.add_task_requested).emit()
        elif self.mode == "choose_engine":
            self.choose_engine_requested.emit()
