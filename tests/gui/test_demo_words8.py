"""The Demo engine uses no AI, and what a person meets during and after a Demo run does not
say "the AI" did it: the checklist's running task, closing the window during the run, careful
mode's question and its dialog, a document's text toggle, protecting a file, the narration's
name. A real AI engine's approval dialog still names the AI. English and Chinese."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from app.core.policies.approver import ApprovalRequest
from app.gui.careful.approval_dialog import ApprovalDialog
from tests.gui.helpers import demo_copy, open_in, run_past_the_decision

ZH = {
    "working": "运行正在处理这一项",
    "locked_tip": "运行正在处理这个任务。运行停止后，你就可以修改它的文字。",
    "refused": "运行正在处理这个任务。要修改或删除它，请先停止运行。",
    "close": "你考虑期间，运行停在下一步之前等着。要停止运行并关闭吗？不会留下写了一半的内容。",
    "title": "允许演示引擎修改你的文件吗？",
    "head": "演示引擎想修改 notes/brief-summary.md",
    "asks": "运行在修改 notes/brief-summary.md 之前征求你的同意。",
    "waits": "对 notes/brief-summary.md 的修改正在等待你的同意，运行也在等待。",
    "as_text": "按文字显示",
    "protected": "brief.md 现已受保护：任何运行都不能修改它。",
    "narration": "运行在做什么",
    "question": "谨慎模式：允许修改你的文件 notes/brief-summary.md 吗？",
    "run_tip": "从第一个未勾选的任务开始（Ctrl+R）",
    "review_tip": "查看运行想做的修改，再决定是否允许",
}
EN = {
    "working": "The run is working on this now",
    "locked_tip": "The run is working on this task now. You can change its text when the run "
                  "stops.",
    "refused": "The run is working on this task. Stop the run to change or delete it.",
    "close": "The run is waiting before its next step while you choose. Stop it and close? "
             "Nothing is left half-written.",
    "title": "May the Demo engine change your file?",
    "head": "The Demo engine wants to change notes/brief-summary.md",
    "asks": "The run asks before changing notes/brief-summary.md.",
    "waits": "A change to notes/brief-summary.md waits for your approval. The run waits too.",
    "as_text": "Show as text",
    "protected": "brief.md is now protected: no run may ever change it.",
    "narration": "What the run is doing",
    "question": "Careful mode: may your file notes/brief-summary.md be changed?",
    "run_tip": "Start on the first unchecked task (Ctrl+R)",
    "review_tip": "See the change the run asks to make, and allow it or not",
}


def words(lang: str) -> dict[str, str]:
    return EN if lang == "en" else ZH


def no_ai(said: list[str]) -> None:
    claims = [w for w in said if "AI" in w]
    assert not claims, claims


def _read_close_box(seen: list[str]) -> None:
    """The close question is modal: read it, then keep working."""
    box = QApplication.activeModalWidget()
    if not isinstance(box, QMessageBox):
        QTimer.singleShot(20, lambda: _read_close_box(seen))
        return
    seen.append(box.text())
    next(b for b in box.buttons() if box.buttonRole(b) == QMessageBox.ButtonRole.RejectRole
         ).click()


def test_the_running_task_and_closing_during_a_demo_run_say_the_run_not_the_ai(
        qtbot, lang, window, tmp_path):
    window.demo_delay = 0.2
    open_in(qtbot, window, demo_copy(tmp_path))
    model = window.board_view.model
    run_tip = window.run_panel.primary.toolTip()
    window.run_panel.primary.click()
    qtbot.waitUntil(lambda: model.is_locked(model.current_row), timeout=10_000)
    window.runner.pause()  # the round holds before its next step: its task stays the running one
    qtbot.wait(300)
    row = model.current_row
    index = model.index(row)
    description = model.data(index, Qt.ItemDataRole.AccessibleDescriptionRole)
    tip = model.data(index, Qt.ItemDataRole.ToolTipRole)
    with qtbot.waitSignal(window.board_view.error_raised, timeout=5000) as refused:
        window.board_view.edit_task(row)
    seen: list[str] = []
    QTimer.singleShot(20, lambda: _read_close_box(seen))
    window.close()  # asks, and Keep working keeps the run (and resumes it)
    assert window.isVisible() and window.runner.running
    expected = words(lang)
    assert description.endswith(expected["working"]), description
    assert tip == expected["locked_tip"]
    assert refused.args[0] == expected["refused"]
    assert seen == [expected["close"]]
    assert run_tip == expected["run_tip"]
    no_ai([description, tip, refused.args[0], *seen, run_tip])


def test_careful_modes_question_in_a_demo_run_names_the_demo_engine(qtbot, lang, window,
                                                                     tmp_path):
    folder = demo_copy(tmp_path)
    (folder / "notes" / "brief-summary.md").write_text("My own notes.\n", encoding="utf-8")
    open_in(qtbot, window, folder)
    with qtbot.waitSignal(window.careful.folder_settings_changed, timeout=10_000):
        window.careful.switch.click()
    with qtbot.waitSignal(window.careful.dialog_shown, timeout=60_000) as shown:
        window.run_panel.primary.click()
    dialog = shown.args[0]
    expected = words(lang)
    panel = window.run_panel.detail_label.text()
    review_tip = window.run_panel.primary.toolTip()
    assert review_tip == expected["review_tip"]
    said = [review_tip, dialog.windowTitle(), dialog.accessibleName(), dialog.accessibleDescription(),
            dialog.legend.text(), dialog.as_text.text(), dialog.as_text.toolTip(), panel]
    said += [b.toolTip() for b in (dialog.deny, dialog.allow_all, dialog.edit)]
    assert dialog.windowTitle() == expected["title"]
    assert dialog.accessibleName() == expected["head"]
    assert dialog.as_text.text() == expected["as_text"]
    assert panel == expected["asks"]
    with qtbot.waitSignal(dialog.closed_unanswered, timeout=5000):
        dialog.reject()  # closed with no answer: the banner says the change waits
    notice = window.notice.text.text()
    assert notice == expected["waits"]
    no_ai(said + [notice])
    with qtbot.waitSignal(window.run_ended, timeout=30_000):
        window.stop_run()  # the change is kept, and its question put on the list
    assert (folder / "notes" / "brief-summary.md").read_text(encoding="utf-8") == \
        "My own notes.\n"
    # Its question on the list, and opened from there, it still names no AI.
    model = window.board_view.model
    qtbot.waitUntil(lambda: any(model.task(r).is_human for r in range(model.rowCount())),
                    timeout=10_000)
    row = next(r for r in range(model.rowCount()) if model.task(r).is_human)
    shown = model.data(model.index(row), Qt.ItemDataRole.DisplayRole)
    assert shown == expected["question"]
    with qtbot.waitSignal(window.careful.dialog_shown, timeout=10_000) as kept:
        window.show_decision()
    dialog = kept.args[0]
    assert dialog.kept
    assert dialog.windowTitle() == expected["title"]
    assert dialog.accessibleName() == expected["head"]
    no_ai([shown, dialog.windowTitle(), dialog.accessibleName(),
           dialog.accessibleDescription()])
    dialog.close()


def test_a_real_ai_engines_approval_dialog_still_names_the_ai(qtbot, lang):
    request = ApprovalRequest(round=1, task="Tidy my notes", path="notes.md", action="change",
                              before=b"old\n", after=b"new\n", reasons=["was there"],
                              policies=["existing_files_need_approval"])
    dialog = ApprovalDialog(request)
    qtbot.addWidget(dialog)
    assert dialog.windowTitle() == ("May the AI change your file?" if lang == "en"
                                    else "允许 AI 修改你的文件吗？")
    assert dialog.as_text.text() == ("Show as the AI reads it" if lang == "en"
                                     else "按 AI 读到的样子显示")


def test_after_a_demo_run_a_documents_text_toggle_and_protecting_say_no_ai(qtbot, lang,
                                                                          window, tmp_path):
    folder = demo_copy(tmp_path)
    open_in(qtbot, window, folder)
    run_past_the_decision(qtbot, window, folder)
    card = next(c for c in window.cards.cards if any(p.endswith(".docx")
                                                      for p in c.view.changed))
    with qtbot.waitSignal(window.history.evidence_shown, timeout=5000) as shown:
        qtbot.mouseClick(card, Qt.MouseButton.LeftButton)
    dialog = shown.args[0]
    qtbot.waitUntil(lambda: dialog.evidence is not None, timeout=10_000)
    row = next(i for i, f in enumerate(dialog.evidence.files) if f.path.endswith(".docx"))
    dialog.file_list.setCurrentRow(row)
    qtbot.waitUntil(lambda: dialog.source_toggle.isVisible(), timeout=10_000)
    expected = words(lang)
    assert dialog.source_toggle.text() == expected["as_text"]
    dialog.close()
    window.careful._protect_and_say("brief.md")
    notice = window.notice.text.text()
    narration = window.run_panel.narration.accessibleName()
    assert notice == expected["protected"]
    assert narration == expected["narration"]
    no_ai([dialog.source_toggle.text(), notice, narration])
