"""The run half of the window: one primary button, the state in words, two bars, time and cost.

It shows a run from its typed events: `show_event` for each one as it arrives, `show_result`
when the run ends. Every sentence comes from `wording` (translatable); the core's English
messages appear only as details under the state.
"""

from __future__ import annotations

from PySide6.QtCore import QElapsedTimer, Qt, QTimer, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from app.core.run.outcomes import ExitReason, RunState
from app.gui.look import icons, look

from app.gui.run import next_step, status_block
from app.gui.words import wording

# The window shows one filled button, the step to take now, and it follows the state: Run, Stop, Continue,
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
        self.demo_example: list[str] = []  # the open tasks of the Demo's example (done for real)
        self.all_done_shown = False  # "Done: every task on the list is checked" is on screen
        self.is_ai = True
        self.tokens = 0
        self.cost = 0.0
        self.upper = False  # the cost is an upper estimate: the model's price is not known
        self.max_steps = 0
        self.step = 0  # the step of the round going (0: none)
        self._base_s = 0.0  # the time of the runs this one carries on (after decisions)
        self.welcome = ""  # the untouched demo's welcome, said as Ready's paragraph
        self.key_missing = ""  # the engine chosen has no API key (its id): Ready says so
        self._key_reason = ""  # why: "no_key", or "no_keychain" (none kept on this computer)
        self.not_ready = ("", "")  # the engine chosen cannot run (its id, why in a sentence)
        self._ready_shown = False  # the status says show_ready's words (no run's end)
        self._empty_shown = False  # it says the list has no task: the board's button is filled
        self._counted = False  # the list's counts have been shown (none yet: not "No tasks")
        self._icon = "run"  # the filled button's icon (drawn plain when another is filled)
        self.current_task = ""
        self._retry_left = 0.0
        self._retry_code = ""
        self._clock = QElapsedTimer()
        self._ticker = QTimer(self)
        self._ticker.setInterval(1000)
        self._ticker.timeout.connect(self._on_tick)
        self._build()
        self.set_mode("none")
        self._fix_primary_width()

    # -- layout --------------------------------------------------------------------------
    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)  # the page gives the column its one left edge
        layout.setSpacing(8)

        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        self.button_row = buttons  # careful mode's switch sits beside Run
        self.primary = QPushButton(self)
        self.primary.setObjectName("primary")
        self.primary.setDefault(True)
        self.primary.setMinimumWidth(120)
        self.primary.setFont(look.type_font(self.primary, "section", semibold=True))
        look.set_tone(self.primary, "primary")
        # As tall plain (when Engine settings… is the filled one) as filled: nothing moves.
        self.primary.setMinimumHeight(self.primary.sizeHint().height())
        self.primary.clicked.connect(self._on_primary_clicked)
        self.export_button = QPushButton(self.tr("Export summary…"), self)
        look.set_accessible(self.export_button, self.tr("Export summary…"),
                            self.tr("Save a document that describes the last run"))
        self.export_button.setToolTip(self.tr("Save a PDF, document or web page that tells what "
                                              "the last run did, to read or share (Ctrl+E)."))
        self.export_button.clicked.connect(self.export_requested)
        self.export_button.setEnabled(False)
        icons.set_icon(self.export_button, "export")
        # Its least width is its icon's (_fit_button_row): the run's column, in a scroll area,
        # is never made narrower than that least width, so with the words' width as its
        # least the icon never came, and the column scrolled sideways at 800 x 600 instead.
        self.export_button.setMinimumWidth(self.export_button.iconSize().width() + 24)
        buttons.addWidget(self.primary)
        buttons.addStretch(1)
        buttons.addWidget(self.export_button)
        layout.addLayout(buttons)
        self.status_block = status_block.StatusBlock(self)
        layout.addWidget(self.status_block)
        block = self.status_block
        (self.state_label, self.detail_label, self.engine_action, self.choose_engine,
         self.lessons_button, self.tasks_bar, self.tasks_count, self.meta_label,
         self.price_note, self.narration) = (
            block.state_label, block.detail_label, block.engine_action, block.choose_engine,
            block.lessons_button, block.tasks_bar, block.tasks_count, block.meta_label,
            block.price_note, block.narration)
        self._action_engine = ""
        self.engine_action.clicked.connect(
            lambda: self.engine_settings_requested.emit(self._action_engine))
        self.choose_engine.clicked.connect(self.choose_engine_requested)
        self.lessons_button.clicked.connect(self.lessons_requested)

    def _fix_primary_width(self) -> None:
        """The filled button as wide as its longest words ("Choose an AI engine…", "Answer
        the question…"), so what sits beside it (Careful mode) stays put as they change."""
        texts = {next_step.words(mode, exported)[0] for mode in MODES
                 for exported in (False, True)}
        shown = self.primary.text()
        widest = 0
        for text in texts:
            self.primary.setText(text)
            widest = max(widest, self.primary.sizeHint().width())
        self.primary.setText(shown)
        self.primary.setMinimumWidth(max(120, widest))

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._fit_button_row()

    def _fit_button_row(self) -> None:
        """On a narrow window Export summary… gives way to its icon (its name stays its
        tooltip and what a screen reader says) before the filled button is cut."""
        words = self.tr("Export summary…")
        row = self.button_row
        needed = 0
        shown = 0
        for i in range(row.count()):
            item = row.itemAt(i)
            widget = item.widget() if item is not None else None
            if widget is None or widget.isHidden():
                continue
            shown += 1
            if widget is self.export_button:
                metrics = widget.fontMetrics()
                needed += (widget.iconSize().width() + metrics.horizontalAdvance(words)
                           + 3 * metrics.averageCharWidth() + 24)
            else:  # the filled button is wider than its words (_fix_primary_width)
                needed += max(widget.sizeHint().width(), widget.minimumWidth())
        needed += row.spacing() * max(0, shown - 1)
        column = self.layout()
        margins = column.contentsMargins() if column is not None else None
        room = self.width() - (margins.left() + margins.right() if margins is not None else 0)
        text = words if needed <= room else ""
        if self.export_button.text() != text:
            self.export_button.setText(text)

    def hold_notice(self, notice: QWidget) -> None:
        """Take the window's notice line into the status block's own place for it, so a
        notice coming or going moves nothing (see status_block.py)."""
        self.status_block.hold_notice(notice)

    # -- what the panel shows --------------------------------------------------------------
    def set_mode(self, mode: str) -> None:
        assert mode in MODES, mode
        ended = self.mode in ("running", "stopping") and mode not in ("running", "stopping")
        self.mode = mode
        exported = self.export_button.isEnabled()
        text, name, tip, self._icon = next_step.words(mode, exported)
        self.primary.setText(text)
        look.set_accessible(self.primary, name)
        self.primary.setToolTip(tip)
        self.primary.setEnabled(mode not in ("none", "no_board", "stopping"))
        self.status_block.set_live(mode in ("running", "stopping"))
        # Export summary is the filled button when all is done: not twice on screen.
        self.export_button.setVisible(not (mode == "done" and exported))
        self._fit_button_row()
        self._fill()
        if ended:  # after what follows the end has opened (a decision's dialog, say)
            QTimer.singleShot(0, self, self._focus_next_step)

    def _focus_next_step(self) -> None:
        """A run has ended: the keyboard goes to the filled button, the next step, so Space
        takes it and Tab goes on from there. Not from a dialog the person is in, nor from a
        field or a control of the window they went to meanwhile."""
        window = self.window()
        if QApplication.activeModalWidget() is not None or QApplication.activeWindow() not in (
                None, window):
            return
        focused = window.focusWidget()
        if focused is not None and focused.isVisible() and focused.isEnabled() and \
                not self.isAncestorOf(focused):
            return
        button = self.primary_now()
        if button.isVisible() and button.isEnabled():
            button.setFocus(Qt.FocusReason.OtherFocusReason)

    def _fill(self) -> None:
        """One filled button: the step to take now. Where the state's sentence names Engine
        settings… (no API key, a key refused) that is the filled one, and Run or Continue is
        plain beside it, still there for after."""
        action = not self.engine_action.isHidden() and self.mode in ("run", "continue")
        quiet = action or (self._empty_shown and self.mode == "run")  # no task to run yet
        look.set_tone(self.engine_action, "primary" if action else None)
        look.set_tone(self.primary, None if quiet else "primary")
        self.primary.setDefault(not quiet)
        role = QPalette.ColorRole.ButtonText if quiet else QPalette.ColorRole.HighlightedText
        if (self._icon, int(role.value)) != (self.primary.property(icons.ICON_PROPERTY),
                                             self.primary.property(icons.ROLE_PROPERTY)):
            icons.set_icon(self.primary, self._icon, role)  # drawn again only when it changes

    def primary_now(self) -> QPushButton:
        """The filled button on screen now: where the keyboard goes when a run ends."""
        return self.engine_action if self.engine_action.property(look.TONE_PROPERTY) == "primary" \
            and not self.engine_action.isHidden() else self.primary

    def show_welcome(self, text: str | None) -> None:
        """The untouched demo's welcome: said as what Ready means there (no box of its own
        above the status, which would move everything below when it is closed)."""
        self.welcome = text or ""
        if self.mode == "run" and not self.all_done_shown and not self.demo_samples:
            self.show_ready()

    def show_state(self, headline: str, detail: str = "", tone: str = "normal") -> None:
        self.all_done_shown = False
        self._ready_shown = self._empty_shown = False
        self._engine_stop = ""  # set again by an engine's stop (show_engine_action)
        self.engine_action.hide()  # shown again by an engine's stop (show_engine_action)
        self.choose_engine.hide()  # shown again by the Demo's sentence (show_choose_engine)
        self._fill()
        self.state_label.setText(headline)
        look.set_tone(self.state_label, tone if tone in ("ok", "attention") else None)
        self.detail_label.setText(detail)
        self.detail_label.setVisible(bool(detail))
        look.set_accessible(self.state_label, headline)
        look.set_accessible(self.detail_label, detail)

    def show_counts(self, done: int, total: int) -> None:
        emptied = (total == 0) != (self.total_tasks == 0) or not self._counted
        self.done_tasks, self.total_tasks, self._counted = done, total, True
        if emptied and self._ready_shown and self.mode == "run":
            self.show_ready()  # "No tasks yet" or Ready: the list's tasks came or went
        if done < total and (self.mode == "done" or (self.all_done_shown and self.mode == "run")):
            # A task unticked or added since every task was done (said, or said since by
            # another sentence, an undo's say): Run is the next step, not Export summary.
            self.show_ready()
        look.set_bar(self.tasks_bar, min(done, max(1, total)), max(1, total))
        self.tasks_count.setText("" if total == 0 else  # the status and the list say so
                                 self.tr("%1 of %2 done").replace("%1", str(done))
                                 .replace("%2", str(total)))
        look.set_accessible(self.tasks_bar, self.tr("Tasks: %1 of %2 done")
                            .replace("%1", str(done)).replace("%2", str(total)))

    def show_step(self, step: int, max_steps: int) -> None:
        """The step of the round going (0: none). Not shown as a bar of its own any more:
        the live line says what the step does."""
        self.step, self.max_steps = step, max_steps or self.max_steps

    def show_narration(self, text: str) -> None:
        # Cut at a word when it is longer than the line (FitLabel), never mid-word.
        self.narration.setText(f"“{wording.short(text, 300)}”" if text else "")
        self.narration.setAccessibleDescription(text)

    def carry_on_from(self, earlier) -> None:
        """This run carries on earlier runs of the same piece of work (a WorkTotals of them):
        its time, tokens and cost count from theirs, as the records and the export do."""
        if earlier is None or self.mode not in ("running", "stopping"):
            return
        self._base_s = earlier.seconds or 0.0
        self.tokens += earlier.tokens
        self.cost += earlier.cost_usd
        self.show_totals(self._clock.elapsed() / 1000 if self._clock.isValid() else None)

    def show_work(self, work) -> None:
        """The piece of work that just ended, as its records count it (a WorkTotals): the
        time the runs took, their tokens and cost, the same numbers the export shows."""
        if work is None or self.mode in ("running", "stopping"):
            return
        self._base_s = 0.0
        self.tokens, self.cost = work.tokens, work.cost_usd
        self.show_totals(work.seconds)

    def show_totals(self, elapsed_s: float | None = None) -> None:
        parts = []
        if elapsed_s is not None:
            parts.append(wording.duration(elapsed_s + self._base_s))
        if self.is_ai and not self.tokens and not self.cost:  # not "0 tokens · $0.00"
            parts.append(self.tr("nothing used, no cost"))
        else:
            parts.append(wording.tokens_and_cost(self.tokens, self.cost, self.is_ai, self.upper))
        self.meta_label.setText(" · ".join(parts))

    def prepare(self, max_steps: int) -> None:
        """A run is about to start with this step limit per round."""
        self.max_steps = max_steps

    def reset(self, is_ai: bool = True) -> None:
        """Forget the last run's numbers (a new workspace, or a new run starting)."""
        self.is_ai, self.tokens, self.cost, self._base_s = is_ai, 0, 0.0, 0.0
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
        self.meta_label.set_tip(self.price_note.text())
        self.status_block.show_price_note(upper)

    def show_lessons(self, count: int) -> None:
        """How many open lessons the run that just ended taught (0 hides the link)."""
        text = (self.tr("1 lesson from this run") if count == 1 else
                self.tr("%1 lessons from this run").replace("%1", str(count)))
        self.lessons_button.setText(text)
        look.set_accessible(self.lessons_button, text, self.tr("Opens the lessons"))
        self.lessons_button.setVisible(count > 0)

    # -- a run, event by event -------------------------------------------------------------
    def show_event(self, event) -> None:
        from app.core.records import events as ev  # noqa: PLC0415 - window start-up (bench/startup.py)

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
            self.show_step(max(event.step, self.step), self.max_steps)
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
            "decision.")  # "offline, no AI": the engine's chip says it, just above
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
        elif status.state in (RunState.STOPPED, RunState.FAILED) and \
                status.exit_reason not in (None, ExitReason.ERROR):
            engine_id = getattr(status, "engine", "") or ""
            headline, hint = wording.finished(status.state, status.exit_reason or "",
                                              status.current_task or "", engine_id=engine_id,
                                              model=getattr(status, "model", "") or "",
                                              button=self.tr("Continue"))
            panel.show_state(headline, hint, tone="attention")
            panel.show_engine_action(status.exit_reason or "", "", engine_id)
            panel.set_mode("choose_engine" if status.exit_reason == ExitReason.SAMPLES_SHOWN
                           else "continue")
        elif status.state == RunState.DONE:
            panel.show_state(*wording.finished(RunState.DONE, ExitReason.ALL_TASKS_DONE),
                             tone="ok")
            panel.all_done_shown = True
            panel.set_mode("done")
        else:
            panel.show_ready()

    def show_ready(self) -> None:
        if self.demo_samples:
            self.show_state(self.tr("Ready to show a sample"),
                            wording.demo_samples_sentence(self.demo_example))
            self.show_choose_engine(True)
        elif self.key_missing:
            self._show_key_missing()
        elif self.not_ready[0]:
            self._show_not_ready()
        elif self._counted and self.total_tasks == 0:
            # The list is there with no task in it: Run would do nothing. The board's own
            # "Plan with AI…" is the filled button beside the box to type one in.
            # The list says how to add one: said here once, shortly, not again.
            self.show_state(self.tr("Nothing to run yet"),
                            self.tr("Add a task on the left, then press Run."))
            self._empty_shown = True
        else:
            self.show_state(self.tr("Ready"), self.welcome or self.tr(
                "Press Run to start on the first unchecked task."))
        self.set_mode("run")
        self._ready_shown = True

    def _show_not_ready(self) -> None:
        """The engine chosen cannot run (its key refused, its server not answering): what to
        put right first, with Engine settings… as the filled button, not Ready."""
        from app.gui.words import engine_words  # noqa: PLC0415 - window start-up (bench/startup.py)

        engine_id, why = self.not_ready
        self.show_state(engine_words.opening(self.tr("%1 cannot run yet").replace(
                            "%1", engine_words.name(engine_id))),
                        why, tone="attention")
        self._action_engine = engine_id
        self.engine_action.show()

    def _show_key_missing(self) -> None:
        """Claude or OpenAI chosen with no API key: not Ready, but what to do first, with
        Engine settings… as the filled button (the Demo and the local server need none)."""
        from app.gui.words import engine_words  # noqa: PLC0415 - window start-up (bench/startup.py)

        who = engine_words.name(self.key_missing)
        self.show_state(self.tr("%1 needs your API key").replace("%1", who), (
            self.tr("This computer has no keychain: keep your %1 API key for this session in "
                    "Engine settings, then press Run.") if self._key_reason == "no_keychain"
            else self.tr("Paste your %1 API key in Engine settings, then press Run."))
            .replace("%1", who), tone="attention")
        self._action_engine = self.key_missing
        self.engine_action.show()

    def set_demo_samples(self, samples: bool, example: list[str] | None = None) -> None:
        """Whether Run would only show samples (the Demo engine on the person's own tasks);
        the ready state then says what Demo will do there (the open tasks of its built-in
        example, `example`, it does for real), and offers an AI engine."""
        example = list(example or [])
        changed = samples != self.demo_samples or example != self.demo_example
        self.demo_samples, self.demo_example = samples, example
        # Only over Ready's own words: "A run is going elsewhere" (also Run's mode) stays.
        if changed and self.mode == "run" and self._ready_shown and not self.all_done_shown:
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
                    engine_id: str = "", model: str = "", cause: str = "", shown: int = 0,
                    did: list[str] | None = None) -> str:
        """The end of a run in words; returns the headline (for announcements). An engine's
        stop is one sentence of the window's (naming the engine and the button that follows:
        Run after a failure, else Continue), with Engine settings… as the action where that
        is where to put it right; the core's English sentence stays for the command line."""
        from app.gui.words import engine_words  # noqa: PLC0415 - window start-up (bench/startup.py)

        self._ticker.stop()
        button = self.tr("Run") if state in (RunState.DONE, RunState.FAILED) else \
            self.tr("Continue")
        headline, hint = wording.finished(state, exit_reason, task or self.current_task,
                                          engine_id=engine_id, model=model, cause=cause,
                                          button=button, shown=shown, did=did or ())
        tone = "ok" if state == RunState.DONE else "attention"
        known = state == RunState.DONE or exit_reason in (
            ExitReason.HUMAN_DECISION_NEEDED, ExitReason.STOPPED_BY_USER, ExitReason.NO_PROGRESS,
            ExitReason.MAX_ROUNDS, ExitReason.SAMPLES_SHOWN, *engine_words.ENGINE_STOPS,
            "workspace_locked")  # runner.WORKSPACE_LOCKED: the window's sentence says it all
        detail = hint if known else f"{hint}\n{message}".strip()
        self.show_state(headline, detail, tone)
        self.all_done_shown = state == RunState.DONE
        self.show_engine_action(exit_reason, cause, engine_id)
        self.show_narration("")
        return headline

    def show_engine_action(self, exit_reason: str, cause: str, engine_id: str) -> None:
        """Offer Engine settings… under a stop that is put right there."""
        from app.gui.words import engine_words  # noqa: PLC0415 - window start-up (bench/startup.py)

        self._action_engine = engine_id
        self.engine_action.setVisible(engine_words.wants_settings(exit_reason, cause or
                                                                  exit_reason, engine_id))
        # An engine's stop is about that engine as it was: stale once it is changed or fixed.
        self._engine_stop = engine_id if exit_reason in engine_words.ENGINE_STOPS else ""
        self._fill()

    def engine_now(self, engine_id: str, ready: bool | None, fixed: bool = False,
                   key_reason: str = "", why: str = "") -> bool:
        """The engine chosen now, and whether it is ready (None: not known yet); `fixed`: its
        settings or key changed since the stop; `key_reason`: it has no API key ("no_key",
        "no_keychain"). A stop that blamed another engine, or this one before it was put
        right (a key saved that works), no longer holds: the panel says Ready instead of the
        stale sentence; `why`: the sentence saying why it cannot run (a key refused, a server
        not answering), said in place of Ready. True when the panel says what is wrong with
        the engine (no notice need repeat it)."""
        missing = engine_id if key_reason else ""
        blocked = (engine_id, why) if ready is False and why and not missing else ("", "")
        if (missing, key_reason, blocked) != (self.key_missing, self._key_reason,
                                              self.not_ready):
            self.key_missing, self._key_reason, self.not_ready = missing, key_reason, blocked
            if self.mode == "run" and not self.all_done_shown and not self.demo_samples and \
                    not getattr(self, "_engine_stop", ""):
                self.show_ready()
        self._engine_now(engine_id, ready, fixed)
        stopped = getattr(self, "_engine_stop", "") == engine_id and \
            self.mode in ("run", "continue")  # the stop's own sentence says why
        return stopped or (bool(missing or blocked[0]) and self.mode == "run" and
                           not self.engine_action.isHidden())

    def _engine_now(self, engine_id: str, ready: bool | None, fixed: bool) -> None:
        stopped = getattr(self, "_engine_stop", "")
        if not stopped or self.mode not in ("run", "continue"):
            return
        if engine_id != stopped or (fixed and ready is True):
            self._engine_stop = ""
            self.show_ready()

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
