"""Careful mode in the window: the switch, the approval dialog (allow, don't allow, edit
before allowing), a closed dialog or a closed window never taken as an answer."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox

from app.core.board.board import Board
from app.core.policies.approver import ApprovalRequest
from app.gui.careful.approval_dialog import ApprovalDialog
from tests.gui.test_chinese import chinese  # noqa: F401  (the fixture)
from tests.engines.fake_servers import claude_stream, claude_usage, tool_use

from .helpers import open_in

BOARD = "# Tidy\n\n- [ ] Tidy my notes\n  - Done when: notes.md is tidy\n"
KEY = f"sk-ant-api03-GUI-{uuid.uuid4().hex}"


def request(**kw) -> ApprovalRequest:
    base = dict(round=1, task="Tidy my notes", path="notes.md", action="change",
                before=b"old notes\n", after=b"tidy notes\n",
                reasons=["was there"], policies=["existing_files_need_approval"])
    base.update(kw)
    return ApprovalRequest(**base)


def test_the_dialog_shows_the_file_and_the_diff(qtbot):
    dialog = ApprovalDialog(request())
    qtbot.addWidget(dialog)
    assert "notes.md" in dialog.windowTitle() or "notes.md" in dialog.accessibleName()
    text = dialog.diff.toPlainText()
    assert "old notes" in text and "tidy notes" in text
    assert not dialog.edit.isHidden()
    for button in (dialog.allow, dialog.deny, dialog.allow_all, dialog.edit):
        assert button.accessibleName()


@pytest.mark.parametrize("button, kind", [("allow", "allow"), ("deny", "deny"),
                                          ("allow_all", "allow_task")])
def test_each_button_is_one_answer(qtbot, button, kind):
    dialog = ApprovalDialog(request())
    qtbot.addWidget(dialog)
    dialog.show()
    with qtbot.waitSignal(dialog.answered) as answered:
        getattr(dialog, button).click()
    assert answered.args[0].kind == kind


def test_edit_before_allowing_answers_with_the_persons_text(qtbot):
    dialog = ApprovalDialog(request(before=b"a\r\nb\r\n", after=b"a\r\nB\r\n"))
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.edit.click()
    assert dialog.editor.isVisible() and dialog.editor.toPlainText() == "a\nB\n"
    dialog.editor.setPlainText("a\nmine\n")
    with qtbot.waitSignal(dialog.answered) as answered:
        dialog.allow.click()
    assert answered.args[0].kind == "edit" and answered.args[0].text == "a\r\nmine\r\n"


def test_closing_the_dialog_is_no_answer(qtbot):
    dialog = ApprovalDialog(request())
    qtbot.addWidget(dialog)
    dialog.show()
    answers = []
    dialog.answered.connect(answers.append)
    with qtbot.waitSignal(dialog.closed_unanswered):
        dialog.reject()  # Esc or the close box
    assert answers == []


def test_no_edit_for_a_deletion_or_a_binary_file(qtbot):
    for r in (request(action="delete", after=None), request(path="sheet.xlsx",
                                                            after=b"PK\x03\x04\xff")):
        dialog = ApprovalDialog(r)
        qtbot.addWidget(dialog)
        assert dialog.edit.isHidden()


def test_a_word_document_waiting_for_approval_shows_its_text_before_and_after(qtbot, tmp_path):
    # Before: "This file is not plain text, so only its size can be shown".
    from tests.gui.test_document_evidence import word

    old = word(tmp_path / "old.docx", ["Open Tuesday to Friday.", "Closed Monday."])
    new = word(tmp_path / "new.docx", ["Open Tuesday to Saturday.", "Closed Monday."])
    dialog = ApprovalDialog(request(path="brief.docx", before=old, after=new))
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: not dialog.rendering, timeout=20_000)
    # As it looks (test_change_view_dialogs.py); as the AI reads it, one click away:
    assert "Open Tuesday to Friday.Saturday." in dialog.diff.toPlainText()
    dialog.as_text.click()
    qtbot.waitUntil(lambda: not dialog.rendering, timeout=20_000)
    text = dialog.diff.toPlainText()
    assert "Open Tuesday to Friday." in text and "Open Tuesday to Saturday." in text
    assert "# Opening hours" in text and "only its size" not in text
    assert "PK" not in text and dialog.edit.isHidden()


@pytest.mark.parametrize("is_ai", [True, False])
def test_a_word_documents_text_says_who_reads_it_that_way(qtbot, tmp_path, is_ai):
    """Shown as text, a document's change is "compared as the AI reads it" for an AI engine
    and "compared as plain text" for the Demo engine, which reads nothing (the approval dialog
    said the AI's words on the Demo too, 2026-12-05)."""
    from tests.gui.test_document_evidence import word

    old = word(tmp_path / "old.docx", ["Open Tuesday to Friday."])
    new = word(tmp_path / "new.docx", ["Open Tuesday to Saturday."])
    dialog = ApprovalDialog(request(path="brief.docx", before=old, after=new), is_ai=is_ai)
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: not dialog.rendering, timeout=20_000)
    dialog.as_text.click()
    qtbot.waitUntil(lambda: not dialog.rendering, timeout=20_000)
    text = dialog.diff.toPlainText()
    assert ("compared as the AI reads it" in text) is is_ai
    assert ("compared as plain text" in text) is not is_ai


def test_a_workbook_to_be_deleted_shows_what_would_go(qtbot, tmp_path):
    from openpyxl import Workbook

    book = Workbook()
    book.active.title = "Prices"
    book.active.append(["Item", "Price"])
    book.active.append(["Bread", 3.5])
    book.save(tmp_path / "prices.xlsx")
    dialog = ApprovalDialog(request(path="prices.xlsx", action="delete",
                                    before=(tmp_path / "prices.xlsx").read_bytes(), after=None))
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: not dialog.rendering, timeout=20_000)
    grid = dialog.diff.toPlainText()
    assert "Sheet: Prices (removed)" in grid and "Bread" in grid and "3.5" in grid
    dialog.as_text.click()
    qtbot.waitUntil(lambda: not dialog.rendering, timeout=20_000)
    text = dialog.diff.toPlainText()
    assert "## Sheet: Prices" in text and "Bread" in text and "3.5" in text


def test_a_picture_waiting_for_approval_is_shown_as_pictures(qtbot, tmp_path):
    from tests.gui.test_document_evidence import picture

    old = picture(tmp_path / "a.png", "red")
    new = picture(tmp_path / "b.png", "blue", size=(300, 200))
    dialog = ApprovalDialog(request(path="logo.png", before=old, after=new))
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: not dialog.rendering, timeout=20_000)
    html = dialog.diff.toHtml()
    assert html.count("<img") == 2 and "900 × 600" in html and "300 × 200" in html


def test_a_damaged_document_says_so_and_gives_the_sizes(qtbot):
    dialog = ApprovalDialog(request(path="brief.docx", before=b"PK\x03\x04 broken",
                                    after=b"PK\x03\x04 broken too"))
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: not dialog.rendering, timeout=20_000)
    text = dialog.diff.toPlainText()
    assert "cannot be shown" in text and "Sizes: before 0.1 KB, after 0.1 KB." in text
    assert "bytes" not in text  # a word this person does not use


# -- a careful run in the window, through the Claude loopback server ---------------------------


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "Notes"
    root.mkdir()
    (root / "TASKS.md").write_text(BOARD, encoding="utf-8")
    (root / "notes.md").write_text("old notes\n", encoding="utf-8")
    (root / "draft.md").write_text("my draft\n", encoding="utf-8")
    return root


def claude(n: int, name: str, args: dict):
    return claude_stream([tool_use(f"toolu_w{n}", name, args)], usage=claude_usage())


@pytest.fixture
def claude_window(window, server, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    window.picker.combo.setCurrentIndex(window.picker.combo.findData("anthropic"))
    return window


def careful_on(qtbot, window, folder: Path) -> None:
    open_in(qtbot, window, folder)
    with qtbot.waitSignal(window.careful.folder_settings_changed, timeout=10_000):
        window.careful.switch.click()
    assert json.loads((folder / ".harness" / "folder.json").read_text())["careful"] is True


def next_dialog(qtbot, window):
    with qtbot.waitSignal(window.careful.dialog_shown, timeout=90_000) as shown:
        pass
    return shown.args[0]


def test_a_careful_run_in_the_window(qtbot, claude_window, server, folder):
    window = claude_window
    server.push("/v1/messages",
                claude(1, "write_file", {"path": "summary.md", "content": "new\n"}),
                claude(2, "edit_file", {"path": "notes.md", "old_text": "old", "new_text": "tidy"}),
                claude(3, "delete_file", {"path": "draft.md"}),
                claude(4, "write_file", {"path": "notes.md", "content": "AI notes\n"}),
                claude(5, "complete_task", {"summary": "Tidied", "evidence": ["notes.md"]}))
    careful_on(qtbot, window, folder)
    with qtbot.waitSignal(window.careful.dialog_shown, timeout=90_000) as shown:
        window.run_panel.primary.click()
    dialog = shown.args[0]
    assert "notes.md" in dialog.accessibleName()
    assert window.notice.isVisible()  # the banner says a change waits
    dialog.allow.click()

    dialog = next_dialog(qtbot, window)  # the deletion: closed without an answer first
    dialog.reject()
    qtbot.wait(300)
    assert window.runner.running and (folder / "draft.md").exists()
    assert window.notice.action.text() == "Review…"
    # The one next step is the filled button (issue 35): Review the change…
    panel = window.run_panel
    assert panel.mode == "review" and panel.primary.text() == "Review the change…"
    panel.primary.click()
    qtbot.waitUntil(lambda: window.careful.dialog is not None, timeout=5000)
    window.careful.dialog.deny.click()

    qtbot.waitUntil(lambda: panel.mode in ("running", "review"), timeout=5000)
    dialog = next_dialog(qtbot, window)  # the rewrite: edited before allowing
    dialog.edit.click()
    dialog.editor.setPlainText("notes as I want them\n")
    with qtbot.waitSignal(window.run_ended, timeout=90_000) as ended:
        dialog.allow.click()
    assert ended.args[0].state == "done"
    assert (folder / "notes.md").read_text() == "notes as I want them\n"
    assert (folder / "draft.md").read_text() == "my draft\n"
    assert (folder / "summary.md").read_text() == "new\n"
    card = window.cards.cards[0]
    line = card.findChild(QLabel, "roundApprovals").text()
    assert "notes.md allowed" in line and "draft.md not allowed" in line
    assert "allowed with your edit" in line
    sent = json.dumps(server.bodies("/v1/messages")[-1])
    assert "edited your change before allowing it" in sent


def test_stop_while_the_dialog_is_open_keeps_the_change_for_the_board(qtbot, claude_window,
                                                                       server, folder):
    window = claude_window
    server.push("/v1/messages", claude(1, "delete_file", {"path": "draft.md"}))
    careful_on(qtbot, window, folder)
    with qtbot.waitSignal(window.careful.dialog_shown, timeout=90_000):
        window.run_panel.primary.click()
    with qtbot.waitSignal(window.run_ended, timeout=90_000) as ended:
        window.stop_run()
    assert ended.args[0].state == "blocked_by_human"
    qtbot.waitUntil(lambda: window.careful.dialog is None, timeout=5000)
    assert (folder / "draft.md").exists()
    task = Board.load(folder / "TASKS.md").next_task()
    assert task.is_human and "draft.md" in task.question
    # The dialog showed the change before Stop: the kept change remembers it, so the
    # person may allow it later with `decide` too.
    from app.core.policies import pending

    (kept,) = pending.waiting(folder / ".harness" / "pending")
    assert kept.shown == ("window",) and kept.id in task.question


def test_closing_the_window_while_asking_is_no_answer(qtbot, claude_window, server, folder):
    window = claude_window
    server.push("/v1/messages", claude(1, "edit_file", {"path": "notes.md", "old_text": "old",
                                                         "new_text": "tidy"}))
    careful_on(qtbot, window, folder)
    with qtbot.waitSignal(window.careful.dialog_shown, timeout=90_000):
        window.run_panel.primary.click()

    def click():
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, click)
            return
        next(b for b in box.buttons() if b.text() == "Stop and close").click()
    QTimer.singleShot(20, click)
    with qtbot.waitSignal(window.run_ended, timeout=90_000):
        window.close()
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=5000)
    assert (folder / "notes.md").read_text() == "old notes\n"
    kept = list((folder / ".harness" / "pending").iterdir())
    assert len(kept) == 1 and (kept[0] / "after").read_text() == "tidy notes\n"


def test_settings_protect_a_folder_for_this_folder(qtbot, window, folder):
    (folder / "private").mkdir()
    open_in(qtbot, window, folder)
    window.open_settings()
    group = window.settings_dialog.folder_safety
    assert group.add_entry(str(folder / "private"))
    assert not group.add_entry(str(folder.parent))   # outside: refused in a sentence
    with qtbot.waitSignal(window.careful.folder_settings_changed, timeout=10_000):
        window.settings_dialog.button_box().button(
            window.settings_dialog.button_box().StandardButton.Save).click()
    saved = json.loads((folder / ".harness" / "folder.json").read_text())
    assert saved["protected"] == ["private"]


def test_a_file_a_round_changed_can_be_protected_from_its_context_menu(qtbot, window, tmp_path):
    from tests.gui.helpers import demo_copy, run_until_end

    folder = demo_copy(tmp_path)
    open_in(qtbot, window, folder)
    run_until_end(qtbot, window)
    card = next(c for c in window.cards.cards if c.view.changed)
    with qtbot.waitSignal(window.history.evidence_shown, timeout=5000) as shown:
        qtbot.mouseClick(card, Qt.MouseButton.LeftButton)
    dialog = shown.args[0]
    qtbot.waitUntil(lambda: dialog.evidence is not None, timeout=10_000)
    path = dialog.evidence.files[0].path
    rect = dialog.file_list.visualItemRect(dialog.file_list.item(0))
    with qtbot.waitSignal(window.careful.protect_menu_shown, timeout=5000) as menu:
        dialog.file_list.customContextMenuRequested.emit(rect.center())
    action = next(a for a in menu.args[0].actions() if a.text() == "Protect this file")
    with qtbot.waitSignal(window.careful.folder_settings_changed, timeout=10_000):
        action.trigger()
    menu.args[0].close()
    saved = json.loads((folder / ".harness" / "folder.json").read_text())
    assert saved["protected"] == [path]
    dialog.close()


def test_the_board_question_is_said_in_the_windows_words(qtbot, tmp_path):
    from PySide6.QtCore import QCoreApplication, QTranslator

    from app.core.board.board import Board as B
    from app.gui.run.decision_dialog import DecisionDialog

    board = B.parse("- [ ] HUMAN: Careful mode: may the AI delete your file notes.md? "
                    "(change 0123456789)\n  - Option: Allow\n  - Option: Don't allow\n"
                    "- [ ] HUMAN: The AI is changing more than 10 of your files in one round: "
                    "may it change your file n11.md? (change 9876543210)\n"
                    "  - Option: Allow\n  - Option: Don't allow\n")
    task, many = board.tasks
    translator = QTranslator()
    from app.core.resources import resource_path

    qm = resource_path("translations", "harness_desk_zh_CN.qm")
    assert translator.load(str(qm))
    QCoreApplication.installTranslator(translator)
    try:
        dialog = DecisionDialog(task, tmp_path, lambda answer: None)
        qtbot.addWidget(dialog)
        assert dialog.findChild(type(dialog.other_button), "option").text() == "允许"
        assert "notes.md" in dialog._question_text() and "删除" in dialog._question_text()
        assert "0123456789" not in dialog._question_text()
        dialog = DecisionDialog(many, tmp_path, lambda answer: None)
        qtbot.addWidget(dialog)
        assert dialog._question_text() == "AI 正在一轮中修改你的 10 个以上文件：允许它修改你的文件 n11.md 吗？"
    finally:
        QCoreApplication.removeTranslator(translator)


def test_a_question_finds_the_person_when_the_window_is_behind(qtbot, claude_window, server,
                                                               folder, monkeypatch):
    from PySide6.QtWidgets import QSystemTrayIcon

    window = claude_window
    seen: dict[str, list] = {"alerts": [], "messages": []}
    monkeypatch.setattr(QSystemTrayIcon, "isSystemTrayAvailable", staticmethod(lambda: True))
    monkeypatch.setattr(QSystemTrayIcon, "supportsMessages", staticmethod(lambda: True))
    monkeypatch.setattr(QSystemTrayIcon, "showMessage",
                        lambda self, title, text, *rest: seen["messages"].append((title, text)))
    monkeypatch.setattr(QApplication, "alert",
                        staticmethod(lambda widget, ms=0: seen["alerts"].append(widget)))
    monkeypatch.setattr(window.notifier, "in_front", lambda: False)
    server.push("/v1/messages", claude(1, "delete_file", {"path": "draft.md"}))
    careful_on(qtbot, window, folder)
    window.run_panel.primary.click()
    qtbot.waitUntil(lambda: window.careful.dialog is not None, timeout=90_000)
    assert seen["alerts"] and seen["alerts"][-1] is window
    assert seen["messages"] == [("Your approval is needed",
                                 "The run asks before deleting draft.md.")]
    assert window.notice.text.text() == "The run asks before deleting draft.md."
    with qtbot.waitSignal(window.run_ended, timeout=90_000):
        window.stop_run()
    assert (folder / "draft.md").exists()


def test_in_chinese_the_reasons_run_together_without_a_space(qtbot, chinese):
    dialog = ApprovalDialog(request(policies=["existing_files_need_approval",
                                              "many_changes_at_once"]))
    qtbot.addWidget(dialog)
    why = dialog.accessibleDescription()
    assert "。" in why and "。 " not in why and "  " not in why


def test_a_kept_change_opened_from_the_board_shows_its_diff_and_is_allowed_alone(
        qtbot, claude_window, server, folder):
    # A run with no one to answer kept the change. Opened from the board, the window shows
    # that change's diff (which is what lets it be allowed), and the answer given there is
    # written for this change alone; the run then carries on and makes it.
    from app.core.run.loop import Harness
    from app.core.policies import pending
    from app.core.workspace.workspace import Workspace
    from tests.scripted import ScriptedEngine, call, fast_limits

    ws = Workspace(folder)
    Harness(ws, ScriptedEngine([call("edit_file", path="notes.md", old_text="old",
                                     new_text="tidy")]), fast_limits(), careful=True).run()
    (kept,) = pending.waiting(ws.harness_dir / "pending")
    window = claude_window
    server.push("/v1/messages", claude(1, "complete_task", {"summary": "Tidied",
                                                             "evidence": ["notes.md"]}))
    open_in(qtbot, window, folder)
    with qtbot.waitSignal(window.careful.dialog_shown, timeout=10_000) as shown:
        window.show_decision()
    dialog = shown.args[0]
    assert dialog.kept and dialog.allow_all.isHidden() and dialog.edit.isHidden()
    assert "tidy notes" in dialog.diff.toPlainText() and "old notes" in dialog.diff.toPlainText()
    qtbot.waitUntil(lambda: pending.find(ws.harness_dir / "pending", kept.id).shown
                    == ("window",), timeout=5000)  # seen: decide may allow it now
    with qtbot.waitSignal(window.run_ended, timeout=90_000) as ended:
        dialog.allow.click()
    assert ended.args[0].state == "done"
    assert (folder / "notes.md").read_text() == "tidy notes\n"
    answered = Board.load(folder / "TASKS.md").tasks[0]
    assert answered.checked and answered.answer == "Allow" and kept.id in answered.question
