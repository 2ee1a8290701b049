"""The approval dialog: one proposed change to the person's file, before and after, and
Allow / Don't allow / Allow all for this task, with "Edit before allowing" for text files.

Closing it is never an answer: `closed_unanswered` lets the window keep the question
waiting (a banner brings it back); only the buttons answer, through `answered(Answer)`.
Once on screen, the request is marked as shown in the window (`seen`): a change kept for the
board may then be allowed. A change kept from an earlier run (`kept`) is answered Allow or
Don't allow only: its run is over, so "for this task" and an edit have nothing to apply to.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QDialog, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton,
                               QTextBrowser, QVBoxLayout, QWidget)

from app.core.policies.approver import Answer, ApprovalRequest
from app.gui.background import run_for
from app.gui.evidence import file_diff
from app.gui.evidence.evidence_dialog import _tint, size_words
from app.gui.evidence.renderings import kind, show_bytes, show_change
from app.gui.evidence.shown_html import (change_colours, change_legend, change_words, document_note,
                                         note_html, pages_html, pictures_html, problem_words,
                                         scan_only, shows_change)
from app.gui.evidence.sources_view import SourcesView
from app.gui.look import look
from app.gui.words.web_words import rests_on
from app.gui.words.wording import sentences


def _text(data: bytes | None) -> str | None:
    if data is None:
        return ""
    try:
        return data.decode("utf-8").lstrip("\ufeff")
    except UnicodeDecodeError:
        return None


class ApprovalDialog(QDialog):
    answered = Signal(object)          # the Answer
    closed_unanswered = Signal()       # closed with no answer: the change keeps waiting
    rendered = Signal()                # a document's or picture's versions are on screen
    seen = Signal()                    # the change is on screen: the person was shown it

    def __init__(self, request: ApprovalRequest, parent: QWidget | None = None,
                 kept: bool = False, is_ai: bool = True):
        super().__init__(parent)
        self.setObjectName("approvalDialog")
        self.request = request
        self.kept = kept
        self.is_ai = is_ai  # False for the Demo engine: its words name it, not an AI
        self._answered = False
        self.rendering = False
        deleting = request.action == "delete"
        self.setWindowTitle(self._title(deleting))
        self.resize(760, 540)

        head = QLabel(self._head(deleting).replace("%1", request.path), self)
        head.setTextFormat(Qt.TextFormat.PlainText)
        head.setWordWrap(True)
        head.setFont(look.scaled_font(head, 1.25, bold=True))

        why = QLabel(sentences(self._reason(p) for p in dict.fromkeys(request.policies)), self)
        why.setWordWrap(True)
        why.setTextFormat(Qt.TextFormat.PlainText)
        task = QLabel(self.tr("While working on: %1").replace("%1", request.task), self)
        task.setWordWrap(True)
        task.setTextFormat(Qt.TextFormat.PlainText)
        look.set_tone(task, "muted")

        self.diff = QTextBrowser(self)
        self.diff.setOpenLinks(False)
        look.set_accessible(self.diff, self.tr("Your file before and after the change"),
                            self.tr("Lines with a minus would be removed, lines with a plus "
                                    "added"))
        # A workbook or Word change is shown as it looks; as the AI reads it, one click away.

        self.as_text = QPushButton(self._as_text_words(), self)
        self.as_text.setObjectName("approvalAsText")
        self.as_text.setCheckable(True)
        self.as_text.setAutoDefault(False)
        self.as_text.setToolTip(self.tr("Switch between the document as it looks and its text "
                                        "as the AI reads it") if is_ai
                                else self.tr("Switch between the document as it looks and its "
                                             "text"))
        look.set_accessible(self.as_text, self.as_text.text(), self.as_text.toolTip())
        self.as_text.setVisible(shows_change(request.path))
        self.as_text.toggled.connect(self._on_as_text_toggled)
        self._show_diff()
        self.legend = QLabel(self._lines_legend(), self)
        self.legend.setWordWrap(True)
        look.set_tone(self.legend, "muted")
        self.editor = QPlainTextEdit(self)
        self.editor.setObjectName("approvalEditor")
        look.set_accessible(self.editor, self.tr("Your version of the file"),
                            self.tr("What you write here is what will be saved"))
        self.editor.hide()

        self.allow = QPushButton(self.tr("&Allow"), self)
        self.allow.setToolTip(self.tr("Make this change"))
        self.deny = QPushButton(self.tr("&Don't allow"), self)
        self.deny.setToolTip(self.tr("Leave the file as it is; the engine is told and can "
                                     "write a new file instead"))
        self.allow_all = QPushButton(self.tr("Allow all for this &task"), self)
        self.allow_all.setToolTip(self.tr("Make this change and every other change made "
                                          "while working on this task, without asking"))
        self.edit = QPushButton(self.tr("&Edit before allowing…"), self)
        self.edit.setToolTip(self.tr("Change the proposed text yourself; your version is what "
                                     "gets saved, and the engine is told"))
        self.edit.setVisible(request.editable and not kept)
        self.allow_all.setVisible(not kept)
        for button in (self.allow, self.deny, self.allow_all, self.edit):
            button.setAutoDefault(False)
            look.set_accessible(button, button.text().replace("&", ""), button.toolTip())
        self.allow.clicked.connect(self._on_allow_clicked)
        self.deny.clicked.connect(lambda: self._answer(Answer("deny")))
        self.allow_all.clicked.connect(lambda: self._answer(Answer("allow_task")))
        self.edit.clicked.connect(self._on_edit_clicked)
        row = QHBoxLayout()
        row.addWidget(self.edit)
        row.addStretch(1)
        row.addWidget(self.deny)
        row.addWidget(self.allow_all)
        row.addWidget(self.allow)

        layout = QVBoxLayout(self)
        layout.addWidget(head)
        layout.addWidget(why)
        layout.addWidget(task)
        layout.addWidget(self.legend)
        layout.addWidget(self.diff, 1)
        layout.addWidget(self.as_text, 0, Qt.AlignmentFlag.AlignRight)
        layout.addWidget(self.editor, 1)

        # Lookups are read-only and never asked about, but shown: what the change rests on.
        self.sources = SourcesView(self, rests_on(), max_height=160)
        self.sources.show_web(getattr(request, "web", None))
        layout.addWidget(self.sources)
        layout.addLayout(row)
        self.setAccessibleName(head.text())
        self.setAccessibleDescription(why.text())
        self.deny.setFocus()  # the keyboard's default stays Don't allow
        # Allow is the filled button once the change is on screen: the window's one filled
        # button is the step to take now.
        self.rendered.connect(lambda: look.set_tone(self.allow, "primary"))
        if not getattr(self, "rendering", False):
            look.set_tone(self.allow, "primary")

    def _title(self, deleting: bool) -> str:
        if self.is_ai:
            return (self.tr("May the AI delete your file?") if deleting
                    else self.tr("May the AI change your file?"))
        return (self.tr("May the Demo engine delete your file?") if deleting
                else self.tr("May the Demo engine change your file?"))

    def _head(self, deleting: bool) -> str:
        if self.is_ai:
            return (self.tr("The AI wants to delete %1") if deleting
                    else self.tr("The AI wants to change %1"))
        return (self.tr("The Demo engine wants to delete %1") if deleting
                else self.tr("The Demo engine wants to change %1"))

    def _as_text_words(self) -> str:
        return self.tr("Show as the AI reads it") if self.is_ai else self.tr("Show as text")

    def _lines_legend(self) -> str:
        return self.tr("Green lines (+) are what the change would add, red lines (−) what it "
                       "would remove. Nothing is changed until you allow it; Undo can take it "
                       "back later.")

    def _reason(self, policy: str) -> str:
        if policy == "many_changes_at_once":
            return self.tr("This round changes many of your files, so you are asked once for "
                           "all of them.")
        return self.tr("This file was in your folder before this run, and careful mode is on: "
                       "you are asked before your own files are changed or deleted.")

    def _show_diff(self) -> None:
        what = kind(self.request.path)
        if what != "file":  # a document as the text the AI reads, a picture as a picture
            self._show_rendered(what)
            return
        before, after = _text(self.request.before), _text(self.request.after)
        if before is None or after is None:
            size = len(self.request.before or b""), len(self.request.after or b"")
            self.diff.setPlainText(self.tr("This file is not plain text, so only its size can "
                                           "be shown: before %1, after %2.")
                                   .replace("%1", size_words(size[0]))
                                   .replace("%2", size_words(size[1])))
            return
        self.diff.setHtml(self._diff_html(before, after))

    def _diff_html(self, before: str, after: str) -> str:
        return file_diff.diff_html(before, after, **self._diff_colours())

    def _diff_colours(self) -> dict:
        """The diff's colours and words, read on the UI thread."""
        removed, added = look.removed_colour(), look.ok_colour()
        return dict(removed=look.css(removed), added=look.css(added),
                    muted=look.css(look.muted_colour()), removed_bg=_tint(removed),
                    added_bg=_tint(added),
                    note_unchanged=self.tr("The text is the same (only the file's bytes would "
                                           "change, e.g. line endings)."))

    def _on_as_text_toggled(self, as_text: bool) -> None:
        self.as_text.setText(self.tr("Show as it looks") if as_text else self._as_text_words())
        look.set_accessible(self.as_text, self.as_text.text(), self.as_text.toolTip())
        self._show_rendered("document")

    def _show_rendered(self, what: str) -> None:
        """Documents and pictures are read, and documents compared, off the UI thread (a big
        workbook takes a while); the comparison is bounded in time like the evidence's. A
        workbook or Word change is shown as it looks (app.core.documents.change_view)."""
        self.rendering = True
        self.diff.setPlainText(self.tr("Reading the two versions…"))
        before, after, name = self.request.before, self.request.after, self.request.path
        colours = self._diff_colours()
        words, view_colours = change_words(), change_colours()
        muted = look.css(look.muted_colour())
        looks = shows_change(name) and not self.as_text.isChecked()

        def read():
            shown = (None if before is None else show_bytes(before, name),
                     None if after is None else show_bytes(after, name))
            if what != "document" or any(v is not None and v.problem for v in shown):
                return shown, "", False
            texts = [v.text or "" if v is not None else "" for v in shown]
            view = show_change(before, after, name, words, view_colours) \
                if looks or texts[0] == texts[1] else None
            if looks and view is not None and view["html"]:
                return shown, note_html(view["note"], muted) + view["html"], True
            given = dict(colours, note_unchanged=view["note"]) if view and view["note"] \
                else colours
            return shown, file_diff.diff_html(texts[0], texts[1], **given), False

        run_for(self, read, lambda result: self._on_rendered(what, *result),
                lambda exc: self._on_rendered(what, (None, None), "", failed=True))

    def _on_rendered(self, what: str, shown, html: str, as_looks: bool = False,
                     failed: bool = False) -> None:
        self.rendering = False
        before, after = shown
        problem = next((v for v in (before, after) if v is not None and v.problem), None)
        if failed or problem is not None:
            size = len(self.request.before or b""), len(self.request.after or b"")
            words = problem_words(problem) if problem is not None else ""
            self.diff.setPlainText(sentences([words, self.tr(
                "Sizes: before %1, after %2.").replace("%1", size_words(size[0]))
                .replace("%2", size_words(size[1]))]))
        elif what == "picture":
            self.legend.setText(self.tr("Nothing is changed until you allow it; Undo can take "
                                        "it back later."))
            self.diff.setHtml(pictures_html(self.diff.document(), before, after,
                                            prefix="approval-picture"))
        elif scan_only(before, after):
            self.diff.setHtml(pages_html(self.diff.document(), before, after,
                                         prefix="approval-page"))
        elif as_looks:
            self.legend.setText(sentences([change_legend(self.request.path), self.tr(
                "Nothing is changed until you allow it; Undo can take it back later.")]))
            self.diff.setHtml(html)
            self.diff.scrollToAnchor("first-change")
        else:
            self.legend.setText(self._lines_legend())
            note = '<div style="color:%s;">%s</div><br>' % (look.css(look.muted_colour()),
                                                            document_note(self.is_ai))
            self.diff.setHtml(note + html + pages_html(self.diff.document(), before, after,
                                                       prefix="approval-page"))
        self.rendered.emit()

    def showEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        self.request.shown.mark("window")
        self.seen.emit()

    # -- answers ---------------------------------------------------------------------------
    def _on_edit_clicked(self) -> None:
        self.editor.setPlainText(_text(self.request.after) or "")
        self.editor.show()
        self.diff.hide()
        self.legend.setText(self.tr("Edit the text as you want it saved, then press Allow my "
                                    "version."))
        self.edit.hide()
        self.allow_all.hide()
        self.allow.setText(self.tr("&Allow my version"))
        self.editor.setFocus()

    def _on_allow_clicked(self) -> None:
        if not self.editor.isVisible():
            self._answer(Answer("allow"))
            return
        text = self.editor.toPlainText()
        proposed = _text(self.request.after) or ""
        if "\r\n" in proposed:  # the editor shows plain line breaks; keep the file's own
            text = text.replace("\r\n", "\n").replace("\n", "\r\n")
        if proposed.endswith(("\n", "\r\n")) and not text.endswith("\n"):
            text += "\r\n" if "\r\n" in proposed else "\n"
        if (self.request.after or b"").startswith(b"\xef\xbb\xbf"):
            text = "\ufeff" + text  # the byte-order mark the file had, not shown to edit
            proposed = "\ufeff" + proposed
        self._answer(Answer("allow") if text == proposed else Answer("edit", text))

    def _answer(self, answer: Answer) -> None:
        self._answered = True
        self.answered.emit(answer)
        self.accept()

    def done(self, result: int) -> None:  # noqa: D401 (Qt's name): Esc, the close box, accept
        if not self._answered:
            self.closed_unanswered.emit()
        super().done(result)

