"""The Lessons view: each lesson this folder's runs taught, where it showed (links to the rounds'
evidence), the line it proposes, AGENTS.md as it will read with it, and Accept / Dismiss.

Everything it reads or writes goes through `lessons_data` off the UI thread. Its sentences are
its own, translated; the proposed line is in the folder's language (the language AGENTS.md is
written in), since it is what the AI and the person will read there.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QListWidget,
                               QListWidgetItem, QPlainTextEdit, QPushButton, QSplitter,
                               QVBoxLayout, QWidget)

from app.gui.background import run_for
from app.gui.evidence.screen_fit import resize_within_screen
from app.gui.lessons import lessons_data
from app.gui.look import look
from app.gui.run.round_cards import RoundView
from app.gui.words.wording import date_time

_EVIDENCE_SHOWN = 8


EMPTY_WIDTH = 640  # the dialog's width when there are no lessons to list


class LessonsDialog(QDialog):
    """Opened from "1 lesson from this run" or the Folder menu. `open_round(view)` opens a
    round's evidence dialog; `changed` says a lesson was accepted or dismissed."""

    loaded = Signal(object)     # the FolderLessons, once read
    previewed = Signal(object)  # the Preview of the selected lesson
    changed = Signal()

    def __init__(self, root: Path, open_round: Callable | None = None,
                 parent: QWidget | None = None, select_run: str = ""):
        super().__init__(parent)
        self.setObjectName("lessonsDialog")
        self.root = root
        self.open_round = open_round
        self.select_run = select_run
        self.folder = None
        self.lesson = None
        self._keep_message = False  # an Accept's or Dismiss's words outlive the reload
        self.setWindowTitle(self.tr("Lessons from this folder's runs"))
        resize_within_screen(self, 980, 640)
        self._build()
        self.reload()

    # -- layout --------------------------------------------------------------------------
    def _build(self) -> None:
        intro = QLabel(self.tr(
            "Harness Desk looked through this folder's runs for what went wrong or was "
            "wasteful. Accepting a lesson adds its line to AGENTS.md: the standing instructions, "
            "a note in your folder that the AI reads at the start of every round, like a brief "
            "you give a new helper. Nothing is added without your Accept."),
            self)
        intro.setWordWrap(True)

        self.lesson_list = QListWidget(self)
        self.lesson_list.setObjectName("lessonList")
        self.lesson_list.setWordWrap(True)  # whole headlines, no sideways scrolling
        self.lesson_list.setSpacing(2)
        self.lesson_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        look.set_accessible(self.lesson_list, self.tr("Lessons"))
        self.lesson_list.currentRowChanged.connect(self._on_row_changed)

        self.headline = QLabel(self)
        self.headline.setWordWrap(True)
        self.headline.setTextFormat(Qt.TextFormat.PlainText)
        self.headline.setFont(look.scaled_font(self.headline, 1.2, bold=True))
        self.state_label = QLabel(self)
        self.state_label.setWordWrap(True)
        self.state_label.setTextFormat(Qt.TextFormat.PlainText)
        self.evidence = QLabel(self)
        self.evidence.setObjectName("lessonEvidence")
        self.evidence.setWordWrap(True)
        self.evidence.setTextFormat(Qt.TextFormat.RichText)
        self.evidence.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.evidence.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.evidence.linkActivated.connect(self._on_evidence_link)
        self.evidence.setToolTip(self.tr("Open a round to see what it did"))
        self.line_label = QLabel(self)
        self.line_label.setObjectName("lessonLine")
        self.line_label.setWordWrap(True)
        self.line_label.setTextFormat(Qt.TextFormat.PlainText)
        self.line_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.preview_title = QLabel(self.tr("AGENTS.md as it will read"), self)
        self.preview = QPlainTextEdit(self)
        self.preview.setObjectName("agentsPreview")
        self.preview.setReadOnly(True)
        self.preview_title.setBuddy(self.preview)
        self.message = QLabel(self)
        self.message.setObjectName("lessonMessage")
        self.message.setWordWrap(True)
        self.message.setTextFormat(Qt.TextFormat.PlainText)

        self.accept_button = QPushButton(self.tr("&Accept: add to AGENTS.md"), self)
        look.set_accessible(self.accept_button, self.tr("Accept: add to AGENTS.md"),
                            self.tr("Adds the proposed line at the end of AGENTS.md"))
        self.accept_button.clicked.connect(self._on_accept)
        self.dismiss_button = QPushButton(self.tr("&Dismiss"), self)
        look.set_accessible(self.dismiss_button, self.tr("Dismiss"),
                            self.tr("Hides this lesson; AGENTS.md is not changed"))
        self.dismiss_button.clicked.connect(self._on_dismiss)

        where = QLabel(self.tr("Where it happened"), self)
        where.setBuddy(self.evidence)
        proposed = QLabel(self.tr("Proposed line"), self)
        self.line_title = proposed
        for label in (where, proposed, self.preview_title):
            label.setFont(look.scaled_font(label, 1.0, bold=True))
        detail = QWidget(self)
        col = QVBoxLayout(detail)
        col.setContentsMargins(8, 0, 0, 0)
        for w in (self.headline, self.state_label, where, self.evidence, proposed,
                  self.line_label, self.preview_title):
            col.addWidget(w)
        col.addWidget(self.preview, 1)
        col.addWidget(self.message)
        row = QHBoxLayout()
        row.addWidget(self.accept_button)
        row.addWidget(self.dismiss_button)
        row.addStretch(1)
        col.addLayout(row)
        self.detail = detail

        self.empty = QLabel(self)
        self.empty.setWordWrap(True)
        # the same left edge as the sentence above it (one left edge per column)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.empty.setText(self.tr("Reading this folder's runs…"))

        split = QSplitter(self)
        split.addWidget(self.lesson_list)
        split.addWidget(detail)
        split.setStretchFactor(1, 3)
        split.setSizes([300, 680])
        self.split = split
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        close.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.empty, 1)
        layout.addWidget(split, 1)
        layout.addWidget(close)
        split.hide()

    # -- words ---------------------------------------------------------------------------
    def headline_of(self, lesson) -> str:
        n, s = lesson.count, lesson.subject
        times = self.tr("once") if n == 1 else self.tr("%1 times").replace("%1", str(n))
        text = {
            "refused_path": self.tr("Harness Desk kept the AI away from %1 %2"),
            "refused_tool": self.tr("Harness Desk turned down %1 %2 (the AI asked for it the "
                                    "wrong way)"),
            "tool_error": self.tr("%1 answered with an error %2"),
            "reread": self.tr("%1 was read in round after round that made no progress (%2)"),
            "text_only": self.tr("The AI answered without using a tool %2"),
            "long_round": self.tr("Rounds ran long without finishing %2"),
            "repeated_call": self.tr("Harness Desk stopped the AI repeating %1 %2"),
            "gave_up": self.tr("A round gave up on “%1” and said what it found"),
            "undone": self.tr("You undid changes to %1 %2"),
            "asked_again": self.tr("The AI asked again what you already decided: “%1” (%2)"),
            "not_allowed": self.tr("You did not allow a change to %1 %2"),
            "protected": self.tr("The AI tried to change %1, which you protected, %2"),
        }.get(lesson.kind, "%1 %2")
        return text.replace("%1", _short(s, 80)).replace("%2", times)

    def _state_text(self, lesson) -> str:
        if lesson.state != "accepted":
            runs = len(lesson.runs)
            return (self.tr("Seen in 1 run") if runs == 1 else
                    self.tr("Seen in %1 runs").replace("%1", str(runs)))
        text = self.tr("Accepted on %1").replace("%1", _local_time(lesson.decided_at))
        if lesson.effect is not None and not lesson.effect.runs_since:
            text += " · " + self.tr("no run since it was accepted")
        elif lesson.effect is not None:
            text += " · " + self.tr("since accepted: %1 of %2 runs showed it again") \
                .replace("%1", str(lesson.effect.runs_with_pattern)) \
                .replace("%2", str(lesson.effect.runs_since))
        return text

    def _evidence_html(self, lesson) -> str:
        rows = []
        places = lesson.places()
        for ev, n in places[:_EVIDENCE_SHOWN]:
            where = self.tr("Run %1, round %2").replace("%1", str(ev.run_number)) \
                .replace("%2", str(ev.round))
            task = f" — {escape(_short(ev.task, 90))}" if ev.task else ""
            times = " (" + escape(self.tr("%1 times").replace("%1", str(n))) + ")" if n > 1 else ""
            rows.append(f'<a href="ev:{lesson.evidence.index(ev)}">{escape(where)}</a>'
                        f'{task}{times}')
        more = len(places) - _EVIDENCE_SHOWN
        if more > 0:
            rows.append(escape(self.tr("and %1 more").replace("%1", str(more))))
        return "<br>".join(rows)

    # -- reading and showing -------------------------------------------------------------
    def reload(self) -> None:
        root = self.root
        run_for(self, lambda: lessons_data.load_lessons(root), self._show_folder,
                self._on_read_failed)

    def _on_read_failed(self, exc: BaseException) -> None:
        self.empty.setText(self.tr("The lessons could not be read from this folder's records."))
        self.empty.setToolTip(str(getattr(exc, "message", exc)))
        self.loaded.emit(None)

    def _show_folder(self, folder) -> None:
        keep = self.lesson.number if self.lesson is not None else None
        self.folder = folder
        shown = folder.shown()
        self.lesson_list.blockSignals(True)
        self.lesson_list.clear()
        for lesson in shown:
            mark = {"accepted": "✓ ", "open": ""}.get(lesson.state, "")
            item = QListWidgetItem(f"{mark}{lesson.number}. {self.headline_of(lesson)}")
            item.setData(Qt.ItemDataRole.UserRole, lesson.number)
            item.setToolTip(self._state_text(lesson))
            self.lesson_list.addItem(item)
        self.lesson_list.blockSignals(False)
        has = bool(shown)
        self.split.setVisible(has)
        self.empty.setVisible(not has)
        if not has:
            self.empty.setText(self.tr(
                "No lessons yet: the runs of this folder showed nothing that needs a standing "
                "instruction."))
            self.lesson = None
            self._fit_to_words()
        else:
            numbers = [x.number for x in shown]
            first_new = next((x.number for x in shown if x.state == "open"
                              and self.select_run in x.runs), None) if self.select_run else None
            want = keep if keep in numbers else first_new or next(
                (x.number for x in shown if x.state == "open"), numbers[0])
            self.lesson_list.blockSignals(True)
            self.lesson_list.setCurrentRow(numbers.index(want))
            self.lesson_list.blockSignals(False)
            self._on_row_changed(numbers.index(want))
        self.loaded.emit(folder)

    def _fit_to_words(self) -> None:
        """Nothing to show but two sentences: the dialog is as small as they are, not a big
        empty window with one line in its middle."""
        layout = self.layout()
        assert layout is not None  # made in _build
        width = min(self.width(), EMPTY_WIDTH)
        layout.activate()
        height = layout.totalHeightForWidth(width) if layout.hasHeightForWidth() \
            else layout.totalSizeHint().height()
        middle = self.frameGeometry().center()
        self.resize(width, height)
        # shrunk around its middle, not into the top corner of where it was shown
        self.move(self.pos() + middle - self.frameGeometry().center())

    def _on_row_changed(self, row: int) -> None:
        if self.folder is None or row < 0:
            return
        item = self.lesson_list.item(row)
        lesson = self.folder.numbered(item.data(Qt.ItemDataRole.UserRole)) if item else None
        if lesson is None:
            return
        self.lesson = lesson
        self.headline.setText(f"{lesson.number}. {self.headline_of(lesson)}")
        self.state_label.setText(self._state_text(lesson))
        look.set_tone(self.state_label, "ok" if lesson.state == "accepted" else "muted")
        self.evidence.setText(self._evidence_html(lesson))
        look.set_accessible(self.evidence, self.tr("Where it happened: %1 places")
                            .replace("%1", str(len(lesson.places()))))
        self.line_label.setText(lesson.line)
        look.set_accessible(self.line_label, lesson.line)
        accepted = lesson.state == "accepted"
        self.line_title.setText(self.tr("Line in AGENTS.md") if accepted
                                else self.tr("Proposed line"))
        self.preview_title.setText(self.tr("AGENTS.md now") if accepted
                                   else self.tr("AGENTS.md as it will read"))
        self.accept_button.setEnabled(not accepted)
        self.dismiss_button.setEnabled(not accepted)
        if not self._keep_message:
            self.message.setText("")
            self.message.setToolTip("")
        self._keep_message = False
        self.preview.setPlainText(self.tr("Reading AGENTS.md…"))
        root, line, number = self.root, None if accepted else lesson.line, lesson.number
        run_for(self, lambda: (number, lessons_data.preview(root, line)), self._show_preview)

    def _show_preview(self, found) -> None:
        number, shown = found
        if self.lesson is None or self.lesson.number != number:
            return  # another lesson was chosen meanwhile
        if shown.problem:
            self.preview.setPlainText("")
            self.message.setText(self.tr(
                "AGENTS.md cannot be added to: it is not an ordinary text file in this folder."))
            self.message.setToolTip(shown.problem)
            self.accept_button.setEnabled(False)
        else:
            self.preview.setPlainText(shown.text)
            if shown.too_long:
                self.message.setText(self._too_long(shown.too_long))
                self.accept_button.setEnabled(False)
        self.previewed.emit(shown)

    def _too_long(self, size: int) -> str:
        return self.tr("With this line AGENTS.md would be %1 characters, more than the 4,000 "
                       "the AI reads. Shorten AGENTS.md first.").replace("%1", f"{size:,}")

    # -- what the person does ------------------------------------------------------------
    def _on_accept(self) -> None:
        if self.lesson is None:
            return
        root, number = self.root, self.lesson.number
        self.accept_button.setEnabled(False)
        run_for(self, lambda: lessons_data.accept(root, number), self._on_accepted,
                self._on_action_failed)

    def _on_accepted(self, done) -> None:
        self.message.setText(self.tr("Added to AGENTS.md. The next rounds read it.")
                             if done.added else
                             self.tr("AGENTS.md already had this line; it was left as it is."))
        look.announce(self, self.message.text())
        self._keep_message = True
        self.changed.emit()
        self.reload()

    def _on_dismiss(self) -> None:
        if self.lesson is None:
            return
        root, number = self.root, self.lesson.number
        self.lesson = None
        run_for(self, lambda: lessons_data.dismiss(root, number), self._on_dismissed,
                self._on_action_failed)

    def _on_dismissed(self, _lesson) -> None:
        self.message.setText(self.tr("Dismissed. AGENTS.md was not changed."))
        look.announce(self, self.message.text())
        self._keep_message = True
        self.changed.emit()
        self.reload()

    def _on_action_failed(self, exc: BaseException) -> None:
        size = getattr(exc, "size", 0)
        self.message.setText(self._too_long(size) if size else self.tr(
            "Nothing was changed: AGENTS.md or the lessons could not be written."))
        self.message.setToolTip(str(getattr(exc, "message", exc)))
        self.accept_button.setEnabled(self.lesson is not None)

    def _on_evidence_link(self, href: str) -> None:
        if self.lesson is None or not href.startswith("ev:") or self.open_round is None:
            return
        ev = self.lesson.evidence[int(href[3:])]
        root = self.root
        run_for(self, lambda: lessons_data.round_record(root, ev.run_id, ev.round),
                lambda found: self._open_found(found))

    def _open_found(self, found) -> None:
        record, is_ai = found
        if record is None:
            self.message.setText(self.tr("That round's record is no longer in this folder."))
            return

        assert self.open_round is not None  # the link is followed only with one
        self.open_round(RoundView.from_record(record, is_ai))


def _short(text: str, limit: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _local_time(stamp: str | None) -> str:
    return date_time(stamp) or stamp or ""
