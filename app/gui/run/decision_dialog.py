"""The decision dialog: the question, an option per button, another answer, evidence, decide later.

Answering writes the answer to the board (through the core, off the UI thread), then the
dialog offers Continue. A no-progress decision (Try again / Skip / Rewrite) works the same
way, with a line on what to do on the list for Skip and Rewrite. "Decide later" closes the
dialog and leaves the question open: no answer is never taken as "no".
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import (QDialog, QFrame, QHBoxLayout, QLabel, QLineEdit, QPushButton,
                               QScrollArea, QStackedWidget, QVBoxLayout, QWidget)

from app.core.board.board import Task
from app.core.board.questions import OPTIONS, TEXT, YES_NO, answer_choices
from app.core.run.reports import NO_PROGRESS_OPTIONS
from app.gui.background import run_for
from app.gui.evidence.file_preview import FilePreviewDialog, looks_like_file
from app.gui.evidence.sources_view import SourcesView, asked_round_web
from app.gui.look import look
from app.gui.words import wording
from app.gui.words.careful_words import board_option, board_question
from app.gui.words.web_words import decision_rests_on


def recommended_option(task: Task) -> str | None:
    """The option the AI recommends: the recommendation is "<option>: why" or the option."""
    rec = (task.recommendation or "").strip()
    if not rec:
        return None
    for option in task.options:
        # A Chinese recommendation separates with the full-width colon.
        if rec == option or rec.casefold().startswith((option.casefold() + ":",
                                                      option.casefold() + "：")):
            return option
    return None


class _ScrollingPage(QScrollArea):
    """The question's page, scrolling as a whole only when the screen is shorter than all of
    it (a small laptop, a long question with its sources): no line of it is ever squeezed."""

    def __init__(self, page: QWidget):
        super().__init__()
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab goes to what is in it, not to it
        self.setWidget(page)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name): all of the page, not Qt's cap
        page = self.widget()
        assert page is not None  # set in __init__
        hint = page.sizeHint()
        width = max(hint.width(), self.viewport().width())
        # Its height at the width it has: Qt's own hint is taken at its narrowest width, and
        # that much more height would be a blank band under the page.
        height = page.heightForWidth(width) if page.hasHeightForWidth() else hint.height()
        return QSize(hint.width(), height) + QSize(2 * self.frameWidth(), 2 * self.frameWidth())


UNREAD = object()  # the asking round's lookups not read yet: the dialog reads them


class DecisionDialog(QDialog):
    answered = Signal(str)            # the answer is on the board
    continue_requested = Signal()     # carry on: at once after an answer, or Continue pressed
    rewrite_requested = Signal(str)   # "Rewrite the task" chosen: open this task for editing

    def __init__(self, task: Task, root: Path, write_answer: Callable[[str], object],
                 parent: QWidget | None = None, about_task: str = "", asked_now: bool = False,
                 web: object = UNREAD):
        super().__init__(parent)
        self._web = web  # the asking round's lookups, when read with the question (else read)
        self.asked_now = asked_now  # a run has just stopped to ask (else the person opened it)
        self.task = task
        self.root = Path(root)
        self.write_answer = write_answer
        self.about_task = about_task
        self.no_progress = tuple(task.options) == NO_PROGRESS_OPTIONS
        self.option_buttons: list[QPushButton] = []
        self.recommended_button: QPushButton | None = None
        self.setWindowTitle(self.tr("Your decision is needed"))
        self.setModal(False)
        self.setMinimumWidth(520)
        self.pages = QStackedWidget(self)
        self.pages.addWidget(_ScrollingPage(self._ask_page()))
        self.pages.addWidget(self._saved_page())
        layout = self._layout = QVBoxLayout(self)
        layout.addWidget(self.pages)
        self.later_row = self._later_row()
        layout.addWidget(self.later_row)

    # -- page 1: the question ----------------------------------------------------------------
    def _ask_page(self) -> QWidget:
        page = QWidget(self)
        layout = self._ask_layout = QVBoxLayout(page)
        layout.setSpacing(10)
        caption = QLabel(self.tr("The AI is stuck and needs you to choose:") if self.no_progress
                         else self.tr("The run stopped to ask you:") if self.asked_now
                         else self.tr("Your decision:"), page)
        question = QLabel(self._question_text(), page)
        question.setObjectName("question")
        question.setWordWrap(True)
        question.setTextFormat(Qt.TextFormat.PlainText)
        question.setFont(look.scaled_font(question, 1.35, bold=True))
        question.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(caption)
        layout.addWidget(question)

        recommended = recommended_option(self.task)

        # Answered in its own words: its options, the alternatives of an either/or question,
        # yes or no for a yes/no question, else a line of the person's own.
        choices = answer_choices(self.task.question, self.task.options)
        self.text_only = choices.kind == TEXT
        options = (choices.options if choices.kind == OPTIONS else
                   [self.tr("Yes"), self.tr("No")] if choices.kind == YES_NO else [])
        for option in options:
            shown = self._option_words(option)
            if option == recommended:
                shown = self.tr("%1  (recommended)").replace("%1", shown)
            button = QPushButton(shown, page)
            button.setObjectName("option")
            look.set_accessible(button, shown)
            button.setMinimumHeight(34)
            button.clicked.connect(lambda _=False, o=option: self._answer(o))
            layout.addWidget(button)
            self.option_buttons.append(button)
            if option == recommended:
                self.recommended_button = button
                button.setDefault(True)
                look.set_tone(button, "primary")  # the one filled button
        if recommended and self.task.recommendation:
            why = re.split("[:：]", self.task.recommendation, maxsplit=1)[-1].strip()
            if why and why != recommended:
                note = QLabel(self.tr("Why it is recommended: %1").replace("%1", why), page)
                note.setWordWrap(True)
                note.setTextFormat(Qt.TextFormat.PlainText)
                look.set_tone(note, "muted")
                layout.addWidget(note)

        self.other_button = QPushButton(self.tr("Another answer…"), page)
        look.set_accessible(self.other_button, self.tr("Another answer…"))
        self.other_button.clicked.connect(self._on_other_clicked)
        self.other_edit = QLineEdit(page)
        self.other_edit.setPlaceholderText(self.tr("Write your own answer"))
        look.set_accessible(self.other_edit, self.tr("Your own answer"))
        self.other_edit.returnPressed.connect(self._on_other_entered)
        self.other_use = QPushButton(self.tr("Use this answer"), page)
        look.set_accessible(self.other_use, self.tr("Use this answer"))
        self.other_use.clicked.connect(self._on_other_entered)
        other_row = QHBoxLayout()
        other_row.addWidget(self.other_edit, 1)
        other_row.addWidget(self.other_use)
        if self.text_only:  # no options to choose from: the answer is written at once
            self.other_button.hide()
            self.other_edit.setPlaceholderText(self.tr("Write your answer"))
            look.set_tone(self.other_use, "primary")
        else:
            self.other_edit.hide()
            self.other_use.hide()
        layout.addWidget(self.other_button)
        layout.addLayout(other_row)

        evidence = [e for e in self.task.evidence if e.strip()]
        if evidence:
            title = QLabel(self.tr("What this is based on:"), page)
            title.setFont(look.scaled_font(title, 1.0, bold=True))
            layout.addWidget(title)
            for item in evidence:
                layout.addWidget(self._evidence_widget(item, page))

        # What the asking round looked up on the web, read off the UI thread: all of it, on
        # the page (which scrolls as a whole when the screen is short), never a box of its own.
        self.sources = SourcesView(page, decision_rests_on(), max_height=None)
        layout.addWidget(self.sources)
        root, asked = self.root, self.task.question
        if self._web is not UNREAD:  # read with the question: laid out once, before it shows
            self.sources.show_web(self._web)
        else:
            run_for(self, lambda: asked_round_web(root, asked), self._show_sources,
                    lambda _exc: None)  # no records to read: nothing looked up to show

        self.problem = QLabel(page)
        self.problem.setWordWrap(True)
        look.set_tone(self.problem, "attention")
        self.problem.hide()
        layout.addWidget(self.problem)

        layout.addStretch(1)  # room to spare goes below the question, never into its lines
        return page

    def _later_row(self) -> QWidget:
        """Decide later, under the question's page and outside its scrolling: always on
        screen, however long the question and its evidence are."""
        row = QWidget(self)
        bottom = QHBoxLayout(row)
        bottom.setContentsMargins(0, 0, 0, 0)
        bottom.addStretch(1)
        self.later_button = QPushButton(self.tr("Decide later"), row)
        look.set_accessible(self.later_button, self.tr("Decide later"))
        self.later_button.setToolTip(self.tr("Close this and leave the question open. The run "
                                             "waits for your answer."))
        self.later_button.clicked.connect(self.reject)
        bottom.addWidget(self.later_button)
        return row

    def showEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        if not event.spontaneous():
            self._fit_screen()
        if self._web is not UNREAD and not event.spontaneous():
            self._web = UNREAD  # its sources came with it: it takes them as it first shows
            self._grow_for_sources()
        # The keyboard starts on the recommended option (else the first): Enter or Space takes it.
        if self.pages.currentIndex() == 0:
            first = self.recommended_button or (
                self.option_buttons[0] if self.option_buttons else
                self.other_edit if self.text_only else self.other_button)
            first.setFocus(Qt.FocusReason.ActiveWindowFocusReason)
        else:
            self.continue_button.setFocus(Qt.FocusReason.ActiveWindowFocusReason)

    def _show_sources(self, web) -> None:
        """The sources arrive after the dialog is on screen: it grows to take them (as far
        as the screen allows) rather than squeezing the question's lines."""
        self.sources.show_web(web)
        self._grow_for_sources()

    def _grow_for_sources(self) -> None:
        if self.sources.isHidden():
            return
        self._ask_layout.activate()  # the question page's, in its scroll area
        self.pages.updateGeometry()
        want = self._layout.totalSizeHint().height()
        if want > self.height():
            self.resize(self.width(), min(want, self._room()))
        self._fit_screen()

    def _room(self) -> int:
        """The tallest the dialog may be: the screen's available height, less its frame
        (the title bar), so Decide later is never below the screen."""
        screen = self.screen()
        if screen is None:
            return self.maximumHeight()
        frame = self.frameGeometry().height() - self.height() if self.isVisible() else 0
        return max(self.minimumSizeHint().height(),
                   screen.availableGeometry().height() - max(frame, 40))

    def _fit_screen(self) -> None:
        """No taller than the screen, and on it: the question's page scrolls instead."""
        room = self._room()
        self.setMaximumHeight(room)
        want = min(self._layout.totalSizeHint().height(), room)  # Qt's first size: 2/3 of it
        if self.height() != want:  # as tall as the page, or the screen: no blank band
            self.resize(self.width(), want)
        screen = self.screen()
        if screen is not None and self.isVisible():
            area, frame = screen.availableGeometry(), self.frameGeometry()
            if frame.bottom() > area.bottom() or frame.top() < area.top():
                self.move(self.x(), max(area.top(), area.bottom() - frame.height() + 1))

    def _question_text(self) -> str:
        if self.no_progress and self.about_task:
            return self.tr("No progress was made on “%1”. What now?").replace(
                "%1", self.about_task)

        return board_question(self.task) or self.task.question

    def _option_words(self, option: str) -> str:
        if board_question(self.task) is not None:
            return board_option(option)
        return wording.no_progress_option(option) if self.no_progress else option

    def _evidence_widget(self, item: str, parent: QWidget) -> QWidget:
        if looks_like_file(item):
            words = self.tr("Open %1").replace("%1", item)
            button = QPushButton(words, parent)
            button.setObjectName("evidence")
            button.setFlat(True)
            button.setStyleSheet("text-align: left; text-decoration: underline;")
            look.set_accessible(button, words)
            button.setToolTip(self.tr("Show this file"))
            button.clicked.connect(lambda _=False, n=item: self._preview(n))
            return button
        label = QLabel("• " + item, parent)
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.PlainText)
        return label

    def _preview(self, name: str) -> None:
        FilePreviewDialog(self.root, name, self).show()

    # -- answering ---------------------------------------------------------------------------
    def _on_other_clicked(self) -> None:
        self.other_edit.show()
        self.other_use.show()
        self.other_edit.setFocus()

    def _on_other_entered(self) -> None:
        text = " ".join(self.other_edit.text().split())
        if not text:
            self._show_problem(self.tr("Write an answer first, or choose one of the options."))
            return
        self._answer(text)

    def _answer(self, answer: str) -> None:
        self._set_busy(True)
        self.problem.hide()
        run_for(self, lambda: self.write_answer(answer),
                lambda _task: self._on_written(answer), self._on_write_failed)

    def needs_the_person(self, answer: str) -> bool:
        """Whether, after this answer, the person has something to do before the AI carries
        on (tick the task themselves, or reword it); any other answer carries on at once."""
        return self.no_progress and answer in NO_PROGRESS_OPTIONS[1:3]

    def _on_written(self, answer: str) -> None:
        self._set_busy(False)
        if not self.needs_the_person(answer):
            # The README's promise: answering carries on. No second click.
            self.answered.emit(answer)
            self.accept()
            self.continue_requested.emit()
            return
        if self.no_progress and answer == NO_PROGRESS_OPTIONS[2] and self.about_task:
            # Rewrite the task: the task itself opens for editing in the list, not a page
            # that tells the person to go and find it.
            self.answered.emit(answer)
            self.accept()
            self.rewrite_requested.emit(self.about_task)
            return
        self.saved_text.setText(self.tr("Saved your answer: %1").replace("%1", answer))
        look.set_accessible(self.saved_text, self.saved_text.text())
        self.next_text.setText(self._next_words(answer))
        self.pages.setCurrentIndex(1)
        self.later_row.hide()  # the saved page has its own Not now and Continue
        self._fit_saved_page()
        self.continue_button.setDefault(True)
        self.continue_button.setFocus()
        look.announce(self, self.saved_text.text())
        self.answered.emit(answer)

    def _on_write_failed(self, exc: BaseException) -> None:
        self._set_busy(False)
        message = getattr(exc, "message", None) or str(exc)
        self._show_problem(self.tr("The answer could not be saved: %1").replace("%1", message))

    def _show_problem(self, text: str) -> None:
        self.problem.setText(text)
        self.problem.show()
        look.announce(self, text, assertive=True)

    def _set_busy(self, busy: bool) -> None:
        for button in self.option_buttons + [self.other_button, self.other_use]:
            button.setEnabled(not busy)

    def _next_words(self, answer: str) -> str:
        if self.no_progress and answer == NO_PROGRESS_OPTIONS[1]:
            return self.tr("Tick the task yourself in the list when it is done (or now, to "
                           "skip it), then press Continue.")
        if self.no_progress and answer == NO_PROGRESS_OPTIONS[2]:
            return self.tr("Change the task's words in the list on the left so the AI "
                           "understands it better, then press Continue.")
        return self.tr("The AI can carry on from here.")

    # -- page 2: saved, continue? --------------------------------------------------------------
    def _saved_page(self) -> QWidget:
        page = QWidget(self)
        layout = self._saved_layout = QVBoxLayout(page)
        self.saved_text = QLabel(page)
        self.saved_text.setWordWrap(True)
        self.saved_text.setTextFormat(Qt.TextFormat.PlainText)
        self.saved_text.setFont(look.scaled_font(self.saved_text, 1.2, bold=True))
        self.next_text = QLabel(page)
        self.next_text.setWordWrap(True)
        self.next_text.setTextFormat(Qt.TextFormat.PlainText)
        layout.addWidget(self.saved_text)
        layout.addWidget(self.next_text)
        layout.addStretch(1)
        row = QHBoxLayout()
        row.addStretch(1)
        self.not_now_button = QPushButton(self.tr("Not now"), page)
        look.set_accessible(self.not_now_button, self.tr("Not now"))
        self.not_now_button.clicked.connect(self.accept)
        self.continue_button = QPushButton(self.tr("Continue"), page)
        look.set_accessible(self.continue_button, self.tr("Continue"))
        self.continue_button.clicked.connect(self._on_continue_clicked)
        row.addWidget(self.not_now_button)
        row.addWidget(self.continue_button)
        layout.addLayout(row)
        return page

    def _fit_saved_page(self) -> None:
        """Its two sentences and its buttons, at their height: not the question's page's,
        which would leave a blank band between the words and the buttons."""
        layout = self._saved_layout
        width = self.pages.width()
        height = (layout.heightForWidth(width) if layout.hasHeightForWidth()
                  else layout.sizeHint().height())
        margins = self._layout.contentsMargins()
        self.resize(self.width(), max(self.minimumSizeHint().height(),
                                      height + margins.top() + margins.bottom()))

    def _on_continue_clicked(self) -> None:
        self.accept()
        self.continue_requested.emit()
