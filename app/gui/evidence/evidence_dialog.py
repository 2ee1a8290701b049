"""A round's evidence: what it did, each changed file before and after, the harness's notices,
errors, and "Undo this round". Reading happens off the UI thread; nothing here changes a file
except the undo, which goes through the core's `undo_round` after the person confirms.
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QListWidget,
                               QListWidgetItem, QMessageBox, QPushButton, QSplitter,
                               QTextBrowser, QVBoxLayout, QWidget)

from app.core.run.outcomes import RoundResult
from app.gui.background import run_for
from app.gui.core_calls import undo_round
from app.gui.evidence import file_diff
from app.gui.evidence.evidence_data import read_evidence
from app.gui.evidence.file_actions import FileActions
from app.gui.evidence.file_diff import DiffColours, TooBig
from app.gui.evidence.markdown_view import MAX_RENDERED_CHARS, is_markdown, markdown_html
from app.gui.evidence.renderings import new_document_text, show_change
from app.gui.evidence.screen_fit import resize_within_screen
from app.gui.evidence.shown_html import (change_colours, change_legend, change_words, document_note,
                                         note_html, pages_html, pictures_html, problem_words,
                                         scan_only, shows_change, tint)
from app.gui.evidence.sources_view import SourcesView
from app.gui.look import look
from app.gui.settings import language
from app.gui.words import undo_words, wording
from app.gui.words.engine_words import round_problem
from app.gui.words.round_text import RoundView, names_whole, plain, sample_said
from app.gui.words.undo_words import undo_question, undone_sentences


def size_words(n: int | None) -> str:
    """A file's size as a person reads one: "empty", "0.6 KB", "1.2 MB" (never "bytes")."""
    if n is None:
        return "—"
    if n == 0:
        return QCoreApplication.translate("EvidenceDialog", "empty")
    if n < 1024:
        return f"{max(0.1, round(n / 1024, 1)):.1f} KB"
    size = float(n)
    for unit in ("KB", "MB", "GB"):
        size /= 1024
        if size < 1024 or unit == "GB":
            break
    return f"{size:.1f} {unit}"


class EvidenceDialog(QDialog):
    """Opened from a round card; `undone` carries the UndoReport after an undo."""

    loaded = Signal(object)   # the RoundEvidence, once read
    undone = Signal(object)   # the UndoReport
    diff_shown = Signal(int)  # the file's row, once its before and after are on screen

    def __init__(self, root: Path, view: RoundView, parent: QWidget | None = None,
                 can_undo_now: bool = True):
        super().__init__(parent)
        self.setObjectName("evidenceDialog")
        self.root = root
        self.view = view
        self.evidence = None
        self.comparing = False  # a diff is being made off the UI thread
        self._diff_turn = 0  # the file chosen last: a diff for an earlier choice is dropped
        self._can_undo_now = can_undo_now
        mark, outcome = wording.round_outcome(view.result_state, view.lookup_cap)
        title = self.tr("Round %1").replace("%1", str(view.round))
        self.setWindowTitle(f"{title} — {outcome}")
        resize_within_screen(self, 900, 640)

        head = self.head = QLabel(f"{title}   {mark} {outcome}", self)
        head.setFont(look.scaled_font(head, 1.2, bold=True))
        task = QLabel(view.task, self)
        task.setWordWrap(True)
        task.setTextFormat(Qt.TextFormat.PlainText)
        self.details = QLabel(self.tr("Reading what this round did…"), self)
        self.details.setWordWrap(True)
        self.details.setTextFormat(Qt.TextFormat.PlainText)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        look.set_accessible(self.details, self.tr("What the round did"))

        self.file_list = QListWidget(self)
        look.set_accessible(self.file_list, self.tr("Files this round changed"),
                            self.tr("Pick a file to see it before and after the round"))
        self.file_list.currentRowChanged.connect(self._on_file_chosen)
        self.diff = QTextBrowser(self)
        self.diff.setOpenLinks(False)
        look.set_accessible(self.diff, self.tr("The file before and after the round"),
                            self.tr("Lines with a minus were removed, lines with a plus added"))
        self.legend = legend = QLabel(self._lines_legend(), self)
        legend.setWordWrap(True)
        look.set_tone(legend, "muted")
        right = QWidget(self)
        right_column = QVBoxLayout(right)
        right_column.setContentsMargins(0, 0, 0, 0)
        right_column.addWidget(legend)
        right_column.addWidget(self.diff, 1)
        # A new Markdown file is shown as it reads; its lines as written are one click away.
        self.source_toggle = QPushButton(self.tr("Show source"), right)
        self.source_toggle.setCheckable(True)
        look.set_accessible(self.source_toggle, self.tr("Show source"))
        self.source_toggle.setToolTip(self.tr("Switch between the formatted view and the "
                                              "file's plain text, marks and all"))
        self.source_toggle.toggled.connect(self._on_source_toggled)
        self.source_toggle.hide()
        right_column.addWidget(self.source_toggle, 0, Qt.AlignmentFlag.AlignRight)
        split = self.split = QSplitter(Qt.Orientation.Horizontal, self)

        # "Open" and "Show in folder" under the list and in its menu; others add to the menu.
        self.file_actions = FileActions(self.file_list, root, self._file_at, self)
        split.addWidget(self.file_actions.widget)
        split.addWidget(right)
        split.setSizes([260, 640])
        split.setChildrenCollapsible(False)

        self.report = QLabel(self)
        self.report.setWordWrap(True)
        self.report.setTextFormat(Qt.TextFormat.PlainText)
        self.report.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.report.hide()
        self.undo_button = QPushButton(self.tr("&Undo this round…"), self)
        look.set_accessible(self.undo_button, self.tr("Undo this round"),
                            self.tr("Put the files this round changed back as they were"))
        self.undo_button.setEnabled(False)
        self.undo_button.clicked.connect(self._on_undo_clicked)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        bottom = QHBoxLayout()
        bottom.addWidget(self.undo_button)
        bottom.addStretch(1)
        bottom.addWidget(buttons)

        layout = QVBoxLayout(self)
        layout.addWidget(head)
        layout.addWidget(task)
        layout.addWidget(self.details)

        self.sources = SourcesView(self, max_height=200)  # its web lookups, if any
        layout.addWidget(self.sources)
        layout.addWidget(split, 1)
        layout.addWidget(self.report)
        layout.addLayout(bottom)
        # Tab goes as the eye reads: the list, the file, the buttons under the list, then the
        # one under the file, then Undo and Close (the toggle came before Open).
        chain = [self.file_list, self.diff, self.file_actions.open_button,
                 self.file_actions.show_button, self.source_toggle, self.undo_button,
                 buttons.button(QDialogButtonBox.StandardButton.Close)]
        for first, second in pairwise(chain):
            QWidget.setTabOrder(first, second)
        if view.undone:
            self._show_undone()
        self.load()

    def _show_undone(self) -> None:
        """The round was undone: its title and heading say so, as its card does (not "Done"
        over the files it no longer changed)."""
        title = self.tr("Round %1").replace("%1", str(self.view.round))
        self.setWindowTitle(f"{title} — {self.tr('Undone')}")
        self.head.setText(f"{title}   ↶ " + QCoreApplication.translate(
            "RoundCard", "Undone: its changes were taken back"))

    # -- reading ---------------------------------------------------------------------------
    def load(self) -> None:
        root, run_id, n = self.root, self.view.run_id, self.view.round
        run_for(self, lambda: read_evidence(root, run_id, n), self._on_loaded, self._on_failed)

    def _file_at(self, row: int) -> tuple[str, bool] | None:
        """The file at a row of the list: its path in the folder, and whether it was deleted."""
        if self.evidence is None or not 0 <= row < len(self.evidence.files):
            return None
        f = self.evidence.files[row]
        return f.path, bool(f.deleted)

    def _on_failed(self, exc: BaseException) -> None:
        self.details.setText(self.tr("This round's records could not be read: %1").replace(
            "%1", getattr(exc, "message", None) or getattr(exc, "strerror", None) or str(exc)))

    def _on_loaded(self, evidence) -> None:
        self.evidence = evidence
        self.details.setText("\n".join(self._detail_lines(evidence)))
        self.sources.show_web(evidence.record.web if evidence.record is not None else None)
        self.file_list.clear()
        for f in evidence.files:
            # Its name whole on the first line; its folder with what changed under it.
            folder, _slash, name = f.path.rstrip("/").rpartition("/")
            under = self._change_words(f) + (f" · {folder}/" if folder else "")
            item = QListWidgetItem(f"{name}\n{under}")
            item.setToolTip(f.path)
            item.setData(Qt.ItemDataRole.AccessibleTextRole,
                         f"{f.path}: {self._change_words(f)}")
            self.file_list.addItem(item)
        self._fit_file_list()
        if evidence.files:
            self.file_list.setCurrentRow(0)
            self.file_actions.update_buttons(0)
        else:
            self.diff.setPlainText(self.tr("This round changed no files."))
        self.undo_button.setEnabled(evidence.can_undo and bool(evidence.files)
                                    and self._can_undo_now and evidence.undone is None)
        if evidence.undone is not None:  # undone before: say so, and what it did
            self._show_undone()
            self.undo_button.setText(self.tr("Undone"))
            self.report.setText("\n".join(undone_sentences(evidence.undone)))
            self.report.show()
        if not self._can_undo_now:
            self.undo_button.setToolTip(self.tr("A run is going. Undo is possible once it "
                                                "stops."))
        self.loaded.emit(evidence)

    def _detail_lines(self, evidence) -> list[str]:
        r = evidence.record
        lines = []
        if r is not None:
            said = r.summary
            if r.result_state == RoundResult.SAMPLE and not self.view.is_ai:
                # The Demo's fixed sentence, in the window's language (as on the round card).
                said = sample_said(bool(self.view.changed))
            if said:
                lines.append(self.tr("What it says it did: %1").replace("%1", said))
            if r.findings:
                lines.append(self.tr("What it found: %1").replace("%1", r.findings))
            if r.evidence:
                lines.append(self.tr("Evidence it pointed to: %1").replace(
                    "%1", ", ".join(r.evidence)))
            if r.error:
                # The core's error is an English sentence: in English only.
                problem = r.error if language.current() == "en" or r.result_state != \
                    RoundResult.ENGINE_ERROR else round_problem()
                lines.append(self.tr("Problem: %1").replace("%1", problem))
        for kind in evidence.notice_kinds:
            lines.append(wording.narration_for_notice(kind))
        if evidence.refusals:
            lines.append(self.tr("Harness Desk turned down %n file action(s) outside what "
                                 "the AI may touch.", "", evidence.refusals))
        return lines or [self.tr("No summary was recorded for this round.")]

    def _fit_file_list(self) -> None:
        """The list as wide as its longest line (up to half the dialog), so a file's name is
        read whole, not cut at the list's edge."""
        metrics = self.file_list.fontMetrics()
        lines = [line for i in range(self.file_list.count())
                 for line in self.file_list.item(i).text().splitlines()]
        if not lines:
            return
        frame = self.file_list.frameWidth() * 2 + 4 * metrics.averageCharWidth()
        want = max(metrics.horizontalAdvance(line) for line in lines) + frame
        sizes = self.split.sizes()
        total = sum(sizes) or self.split.width()
        if want > sizes[0]:
            left = min(want, total // 2)
            self.split.setSizes([left, total - left])

    def _change_words(self, f) -> str:
        if f.is_folder:
            return self.tr("a folder")
        if f.created:
            return self.tr("new file, %1").replace("%1", size_words(f.after_size))
        if f.deleted:
            return self.tr("deleted, was %1").replace("%1", size_words(f.before_size))
        return self.tr("changed, %1 → %2").replace("%1", size_words(f.before_size)).replace(
            "%2", size_words(f.after_size))

    def _chosen(self):
        row = self.file_list.currentRow()
        if self.evidence is None or not 0 <= row < len(self.evidence.files):
            return None
        return self.evidence.files[row]

    def _on_file_chosen(self, row: int) -> None:
        if self.evidence is None or not 0 <= row < len(self.evidence.files):
            return
        self._diff_turn += 1
        self.comparing = False
        f = self.evidence.files[row]
        self.legend.setText(self._lines_legend())
        self.source_toggle.setVisible(False)
        if f.kind in ("document", "picture") and not f.missing_copy:
            self._show_rendered(f, row)
            return
        if f.missing_copy:
            self.diff.setPlainText(self.tr("The saved copy of this file is missing or damaged, "
                                           "so its content cannot be shown."))
            return
        if not f.is_text or (f.before is None and f.before_size) or \
                (f.after is None and f.after_size):
            self.diff.setPlainText(self.tr("This file is not plain text (or is very large), so "
                                           "only its size is shown: before %1, after %2.")
                                   .replace("%1", size_words(f.before_size))
                                   .replace("%2", size_words(f.after_size)))
            return

        formatted = f.created and is_markdown(f.path) and len(f.after) <= MAX_RENDERED_CHARS
        self.source_toggle.setVisible(formatted)
        if formatted and not self.source_toggle.isChecked():
            self.legend.setText(self.tr("Nothing to compare: the file is new."))  # no lines marked
            self._show_new_markdown(f, row)  # nothing to compare: the new file, as it reads
            return
        # Compared off the UI thread (a big file can take seconds), bounded in time.
        self.comparing = True
        self.diff.setPlainText(self.tr("Comparing the two versions…"))
        turn, make = self._diff_turn, self._diff_maker(f)
        run_for(self, make, lambda html: self._on_diff(turn, row, html),
                lambda exc: self._on_diff_failed(turn, row, f, exc))

    def _lines_legend(self) -> str:
        return self.tr("Green lines (+) are what the round added, red lines (−) what it "
                       "removed; the lines around them stayed the same.")

    def _as_text_words(self) -> str:
        """The document's text toggle: the Demo engine is no AI (its rounds say so)."""
        return self.tr("Show as the AI reads it") if self.view.is_ai else self.tr("Show as text")

    def _on_source_toggled(self, source: bool) -> None:
        f = self._chosen()
        if f is not None and f.kind == "document":  # as it looks / as the AI reads it
            self.source_toggle.setText(self.tr("Show as it looks") if source else
                                       self._as_text_words())
        else:
            self.source_toggle.setText(self.tr("Show formatted") if source else
                                       self.tr("Show source"))
        look.set_accessible(self.source_toggle, self.source_toggle.text())
        self._on_file_chosen(self.file_list.currentRow())

    def _show_new_markdown(self, f, row: int) -> None:
        self.comparing = True
        self.diff.setPlainText(self.tr("Reading the new file…"))
        turn, text = self._diff_turn, f.after.decode("utf-8", errors="replace")
        rule = look.css(look.muted_colour())
        run_for(self, lambda: markdown_html(text, rule, rule),
                lambda html: self._on_diff(turn, row, html),
                lambda exc: self._on_diff_failed(turn, row, f, exc))

    def _show_new_document(self, f, row: int) -> None:
        """A new Word document or PDF: nothing to compare, so it is shown as it reads (its
        headings, lists and tables), plain as a new Markdown file, not every word underlined
        as added. "Show as the AI reads it" shows its text."""
        self.legend.setText(self.tr("Nothing to compare: the file is new."))
        self.source_toggle.setVisible(True)
        self.source_toggle.blockSignals(True)
        self.source_toggle.setText(self._as_text_words())
        self.source_toggle.blockSignals(False)
        self.comparing = True
        self.diff.setPlainText(self.tr("Reading the new file…"))
        turn, path, name = self._diff_turn, f.after_file, f.path
        rule = look.css(look.muted_colour())
        run_for(self, lambda: markdown_html(new_document_text(path, name), rule, rule),
                lambda html: self._on_diff(turn, row, html),
                lambda exc: self._on_diff_failed(turn, row, f, exc))

    def _show_rendered(self, f, row: int) -> None:
        """A document's rendering diffed as text (off the UI thread, like a text file's), or
        a picture before and after."""
        versions = [v for v in (f.before_shown, f.after_shown) if v is not None]
        problem = next((v for v in versions if v.problem), None)
        if problem is not None:
            self.diff.setPlainText(self._problem_words(problem))
            return

        if f.kind == "document" and scan_only(f.before_shown, f.after_shown):
            self.diff.setHtml(pages_html(self.diff.document(), f.before_shown, f.after_shown))
            self.diff_shown.emit(row)
            return
        if f.kind == "document" and f.created and f.after_file is not None and \
                f.path.lower().endswith((".docx", ".pdf")) and not self.source_toggle.isChecked():
            self._show_new_document(f, row)  # as a new .md is shown: as it reads, plainly
            return
        if f.kind == "document":
            self.comparing = True
            self.diff.setPlainText(self.tr("Comparing the two versions…"))
            turn = self._diff_turn
            make = self._document_maker(f)
            pages = pages_html(self.diff.document(), f.before_shown, f.after_shown)
            run_for(self, make, lambda html: self._on_diff(turn, row, html + pages),
                    lambda exc: self._on_diff_failed(turn, row, f, exc))
            return

        self.diff.setHtml(pictures_html(self.diff.document(), f.before_shown, f.after_shown))

    def _problem_words(self, shown) -> str:
        return problem_words(shown)

    def _document_maker(self, f):
        """A function, safe on a pool thread, that shows a document's change as it looks (a
        workbook as a grid, a Word document formatted, app.core.documents.change_view), or
        as the AI reads it: its rendering's text diff, never "no visible change"."""
        looks = shows_change(f.path)
        self.source_toggle.setVisible(looks)
        self.source_toggle.blockSignals(True)
        self.source_toggle.setText(self.tr("Show as it looks") if self.source_toggle.isChecked()
                                   else self._as_text_words())
        self.source_toggle.blockSignals(False)
        as_text = not looks or self.source_toggle.isChecked()
        if not as_text:
            self.legend.setText(change_legend(f.path))
        before = f.before_shown.text if f.before_shown else ""
        after = f.after_shown.text if f.after_shown else ""
        words, colours, muted = change_words(), change_colours(), look.css(look.muted_colour())
        files = f.before_file, f.after_file, f.path
        text_diff = self._diff_maker(f, before, after, document=True)

        def make() -> str:
            view = show_change(files[0], files[1], files[2], words, colours) if not as_text or before == after \
                else None
            if view is not None and view["html"] and not as_text:
                return note_html(view["note"], muted) + view["html"]
            return text_diff(view["note"] if view is not None else None)
        return make

    def _diff_maker(self, f, before: str | None = None, after: str | None = None,
                    document: bool = False):
        """A function, safe on a pool thread, that makes the diff's HTML (colours and words
        read now, on the UI thread)."""
        if before is None or after is None:  # (given both or neither)
            before, after = (f.before or b"").decode("utf-8"), (f.after or b"").decode("utf-8")
        removed, added = look.removed_colour(), look.ok_colour()
        colours = DiffColours(removed=look.css(removed), added=look.css(added),
                              muted=look.css(look.muted_colour()),
                              removed_bg=_tint(removed), added_bg=_tint(added),
                              note_unchanged=self.tr("The text is the same; only the way the "
                                                     "file is stored changed (its line "
                                                     "endings, say)."))
        note = ""
        if document:
            note = '<div style="color:%s;">%s</div><br>' % (look.css(look.muted_colour()),
                                                            document_note(self.view.is_ai))

        def make(unchanged: str | None = None) -> str:
            """`unchanged`: what to say when the text is the same (what else changed)."""
            given = colours.copy()
            if unchanged:
                given["note_unchanged"] = unchanged
            return note + file_diff.diff_html(before, after, **given)
        return make

    def _on_diff(self, turn: int, row: int, html: str) -> None:
        if turn != self._diff_turn:
            return  # the person chose another file meanwhile
        self.comparing = False
        self.diff.setHtml(html)
        self.diff.scrollToAnchor("first-change")  # a long document's first change
        self.diff_shown.emit(row)

    def _on_diff_failed(self, turn: int, row: int, f, exc: BaseException) -> None:
        if turn != self._diff_turn:
            return
        self.comparing = False
        if isinstance(exc, TooBig):
            text = self.tr("This change is too big to compare here: before %1, after %2. Open "
                           "the file to read it.")
        else:
            text = self.tr("The two versions of this file could not be compared: before %1, "
                           "after %2.")
        self.diff.setPlainText(text.replace("%1", size_words(f.before_size))
                               .replace("%2", size_words(f.after_size)))
        self.diff_shown.emit(row)

    # -- undo ------------------------------------------------------------------------------
    def _on_undo_clicked(self) -> None:
        n = str(self.view.round)
        box = QMessageBox(QMessageBox.Icon.Warning,
                          self.tr("Undo round %1?").replace("%1", n),
                          names_whole(undo_question(self.view, self.evidence), self._names()),
                          QMessageBox.StandardButton.NoButton, self)
        box.setObjectName("confirmUndo")
        self.put_back = box.addButton(self.tr("Undo round %1").replace("%1", n),
                                      QMessageBox.ButtonRole.DestructiveRole)
        cancel = box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(cancel)
        box.exec()
        if box.clickedButton() is not self.put_back:
            return
        self.undo_button.setEnabled(False)

        root, round_no, run_id = self.root, self.view.round, self.view.run_id
        run_for(self, lambda: undo_round(root, round_no, run_id or None), self._on_undone,
                self._on_undo_failed)

    def _names(self) -> list[str]:
        """The round's files, as its sentences name them (kept whole on a line)."""
        return self.view.changed + [f.path for f in getattr(self.evidence, "files", None) or []]

    def _on_undone(self, report) -> None:
        self.report.setText(names_whole("\n".join(undo_words.undo_report_sentences(report)),
                                        self._names()))
        look.set_tone(self.report, None if report.ok else "attention")
        self.report.show()
        self.undo_button.setText(self.tr("Undone"))
        if report.ok:
            self._show_undone()
        look.announce(self.report, plain(self.report.text()))
        self.undone.emit(report)

    def _on_undo_failed(self, exc: BaseException) -> None:
        self.report.setText(self.tr("Nothing was put back: %1").replace(
            "%1", getattr(exc, "message", None) or getattr(exc, "strerror", None) or str(exc)))
        look.set_tone(self.report, "attention")
        self.report.show()
        self.undo_button.setEnabled(True)


def _tint(colour: QColor) -> str:
    """The colour a quarter strong over the text background (shown_html.tint)."""
    return tint(colour)
