"""What a newcomer found opening a folder of their own documents (Word, Excel, LibreOffice,
PowerPoint, PDF) in the window, keyboard only, in English and Chinese (walk6)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from app.core.engine.port import EngineConfig
from app.core.settings import Limits
from app.engines.demo.engine import DemoEngine
from app.gui.plan.plan_dialog import PlanDialog
from tests.gui.helpers import has_chinese, open_in


def shown_words(widget) -> list[str]:
    return [label.text() for label in widget.findChildren(QLabel) if label.isVisible()]


def test_an_open_folder_shows_no_drop_a_folder_hint(qtbot, lang, window, tmp_path):
    folder = tmp_path / "Office"
    folder.mkdir()
    (folder / "TASKS.md").write_text("- [ ] Summarise report.docx into summary.md\n",
                                     encoding="utf-8")
    open_in(qtbot, window, folder)
    page = window._page
    qtbot.waitUntil(lambda: page.isVisible(), timeout=5000)
    assert lang == "en" or any(has_chinese(w) for w in shown_words(page))
    hints = [w for w in shown_words(page) if "Drop a folder" in w or "把文件夹拖到" in w]
    assert not hints


def plan_dialog(qtbot, tmp_path) -> PlanDialog:
    dialog = PlanDialog(tmp_path, lambda: DemoEngine(EngineConfig(options={"delay_s": 0.0})),
                        Limits(), "Demo (offline, no AI)", engine_is_ai=False)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog


def test_plan_with_ai_opens_as_small_as_its_few_lines_and_grows_for_the_list(qtbot,
                                                                          tmp_path, lang):
    (tmp_path / "report.docx").write_bytes(b"")
    dialog = plan_dialog(qtbot, tmp_path)
    # Before a plan: the sentence, the goal box, the engine and Close; no 960 x 620 of nothing.
    assert dialog.width() <= 700, dialog.size()
    empty = dialog.height() - (dialog.status.geometry().bottom() + 1)
    foot = dialog.height() - dialog.close_button.geometry().top()
    assert empty - foot <= 48, f"{empty - foot} px of nothing above Close ({dialog.size()})"
    small = dialog.size()
    dialog.goal.setText("Tidy up my office documents")
    with qtbot.waitSignal(dialog.runner.plan_finished, timeout=10_000):
        dialog.plan_button.click()
    qtbot.wait(20)
    # With proposals it grows to give the list room (within the screen), and never shrinks.
    room = dialog.screen().availableGeometry()
    assert dialog.width() > small.width() and dialog.height() > small.height()
    assert dialog.width() <= room.width() and dialog.height() <= room.height()
    assert dialog.list.height() > 200


def test_the_plan_dialog_keeps_its_height_when_the_planning_line_appears(qtbot, tmp_path,
                                                                         lang):
    dialog = plan_dialog(qtbot, tmp_path)
    before = dialog.height()
    dialog.start_planning()  # no goal: "Write your goal first, in a sentence." appears
    qtbot.wait(20)
    assert dialog.status.text()
    assert dialog.height() == before  # the line's room was kept: nothing jumps


# -- Engine settings: the key ----------------------------------------------------------------


def claude_settings(qtbot, server):
    from app.core.settings import EngineSettings, Settings
    from app.gui.engines.engine_settings import EngineSettingsDialog
    from tests.engines.fake_servers import claude_models

    server.default("/v1/models", claude_models(["claude-sonnet-5-5"]))
    dialog = EngineSettingsDialog(Settings(engines={"anthropic": EngineSettings(
        base_url=server.url, model="claude-sonnet-5-5")}), "anthropic")
    qtbot.addWidget(dialog)
    with qtbot.waitSignal(dialog.connection_checked, timeout=15_000):
        dialog.show()
    qtbot.waitUntil(lambda: "anthropic" in dialog._states, timeout=5000)
    return dialog


def test_a_stored_key_names_the_keychain_in_plain_words_never_a_class_name(
        qtbot, lang, keychain, server):
    keychain.set_password("harness-desk", "anthropic", "sk-ant-api03-walk6-0123456789abcdef")
    dialog = claude_settings(qtbot, server)
    words = dialog.key_status.text()
    assert "MemoryKeyring" not in words and "Keyring" not in words, words
    assert words == ("Stored in your computer's keychain." if lang == "en"
                     else "已保存在你电脑的钥匙串里。"), words


@pytest.mark.parametrize("name, en, zh", [
    ("the macOS Keychain", "Stored in the macOS Keychain.", "已保存在 macOS 钥匙串里。"),
    ("Windows Credential Manager", "Stored in Windows Credential Manager.",
     "已保存在 Windows 凭据管理器里。"),
    ("PlaintextKeyring", "Stored in your computer's keychain.", "已保存在你电脑的钥匙串里。"),
])
def test_each_keychain_is_named_in_the_windows_language(qtbot, lang, keychain, server, name,
                                                        en, zh):
    dialog = claude_settings(qtbot, server)
    assert dialog._stored_in(name) == (en if lang == "en" else zh)


def test_without_a_key_the_dialog_says_so_once_and_then_what_to_do(qtbot, lang, keychain,
                                                                   server):
    dialog = claude_settings(qtbot, server)
    no_key = "No key is stored yet." if lang == "en" else "还没有保存密钥。"
    assert dialog.key_status.text() == no_key
    assert dialog.verdict.text() == ("Paste your key above and press Save key." if lang == "en"
                                     else "请把密钥粘贴到上面，然后按“保存密钥”。")


# -- the engine list -------------------------------------------------------------------------

def test_every_engine_in_the_open_list_is_shown_whole(qtbot, lang):
    from app.gui.engines.engine_picker import EnginePicker

    picker = EnginePicker()
    qtbot.addWidget(picker)
    picker.show()
    qtbot.waitExposed(picker)
    picker.combo.showPopup()
    view = picker.combo.view()
    qtbot.waitUntil(view.isVisible, timeout=2000)
    try:
        inside = view.viewport().width()
        for row in range(picker.combo.count()):
            # the text, the dot, and the room the list's rows keep around them (a check
            # column, gaps, a right border: 40 px and more in Fusion); less, and it is cut
            text = picker.combo.itemText(row)
            need = view.fontMetrics().horizontalAdvance(text) + picker.combo.iconSize().width()
            assert need + 40 <= inside, (text, need, inside)
    finally:
        picker.combo.hidePopup()


def test_the_plan_dialog_grows_around_its_middle_and_stays_on_the_screen(qtbot, tmp_path):
    dialog = plan_dialog(qtbot, tmp_path)
    area = dialog.screen().availableGeometry()
    dialog.move(area.right() - dialog.frameGeometry().width() - 20,
                area.bottom() - dialog.frameGeometry().height() - 20)  # near a corner
    qtbot.wait(20)
    dialog.goal.setText("Tidy up my office documents")
    with qtbot.waitSignal(dialog.runner.plan_finished, timeout=10_000):
        dialog.plan_button.click()
    qtbot.wait(20)
    assert area.contains(dialog.frameGeometry()), (dialog.frameGeometry(), area)


# -- lessons ---------------------------------------------------------------------------------

def test_lessons_with_none_to_show_shrink_around_their_middle_and_keep_one_left_edge(
        qtbot, tmp_path, lang):
    from PySide6.QtCore import Qt

    from app.gui.lessons.lessons_view import LessonsDialog

    folder = tmp_path / "Office"
    folder.mkdir()
    dialog = LessonsDialog(folder)
    qtbot.addWidget(dialog)
    area = dialog.screen().availableGeometry()
    dialog.move(area.center() - dialog.rect().center())
    with qtbot.waitSignal(dialog.loaded, timeout=10_000):
        dialog.show()
    qtbot.wait(20)
    middle = area.center()
    moved = dialog.frameGeometry().center() - middle
    assert abs(moved.x()) <= 40 and abs(moved.y()) <= 40, (dialog.frameGeometry(), middle)
    assert dialog.width() <= 700 and dialog.empty.isVisible()
    assert dialog.empty.alignment() & Qt.AlignmentFlag.AlignLeft


def test_add_to_my_list_says_how_many_to_a_screen_reader_too(qtbot, tmp_path, lang):
    from tests.gui.test_accessibility import spoken_name

    dialog = plan_dialog(qtbot, tmp_path)
    dialog.goal.setText("Plan a party")
    with qtbot.waitSignal(dialog.runner.plan_finished, timeout=10_000):
        dialog.plan_button.click()
    count = len(dialog.list.ticked())
    assert count and str(count) in dialog.add_button.text()
    assert spoken_name(dialog.add_button) == dialog.add_button.text()


# -- the menus -------------------------------------------------------------------------------

def test_run_and_new_task_say_why_not_when_there_is_no_task_list_or_no_task(qtbot, lang,
                                                                            window, tmp_path):
    from app.gui.window_menus import refresh_states

    folder = tmp_path / "Only documents"
    folder.mkdir()
    (folder / "report.docx").write_bytes(b"PK")  # a folder of documents and no TASKS.md
    open_in(qtbot, window, folder)
    qtbot.waitUntil(lambda: window.board_view.has_no_board, timeout=5000)
    refresh_states(window)
    no_list = window.primary_action.toolTip()
    assert not window.primary_action.isEnabled() and not window.new_task_action.isEnabled()
    assert window.new_task_action.toolTip() == no_list
    assert "Ctrl+Shift+N" in no_list and (lang == "en") != has_chinese(no_list)

    (folder / "TASKS.md").write_text("# Tasks\n\n- [x] Read report.docx\n", encoding="utf-8")
    open_in(qtbot, window, folder)  # every task done: nothing for Run to do
    qtbot.waitUntil(lambda: not window.board_view.has_no_board, timeout=5000)
    refresh_states(window)
    assert not window.primary_action.isEnabled() and window.new_task_action.isEnabled()
    nothing_left = window.primary_action.toolTip()
    assert "Ctrl+N" in nothing_left and nothing_left != no_list

    window.board_view.add_field.setText("Summarise report.docx into summary.md")
    qtbot.keyClick(window.board_view.add_field, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.primary_action.isEnabled(), timeout=5000)


# -- the planning card among the rounds ------------------------------------------------------

def test_a_demo_plans_card_says_no_ai_was_used_and_its_time_as_the_round_cards_do(qtbot,
                                                                                lang):
    from app.gui.plan.plan_card import PlanCard
    from app.gui.words import wording

    card = PlanCard("Tidy up my office documents", 5, 2, 1.04, None)  # the Demo: no cost
    qtbot.addWidget(card)
    meta = card.accessibleDescription()
    assert ("no AI used" if lang == "en" else "没有用到 AI") in meta, meta
    head = card.accessibleName()  # not "Plan with AI" above "no AI used"
    assert head.startswith("Sample plan" if lang == "en" else "示例规划") and "AI" not in head
    assert wording.duration(1.04) in meta and "1.0" not in meta, meta
    assert card.findChildren(QLabel)[-1].toolTip() == wording.tip(wording.STEP_TIP)
    paid = PlanCard("Tidy up", 5, 2, 0.4, 0.0123)
    qtbot.addWidget(paid)
    assert "$0.01" in paid.accessibleDescription()
    assert ("no AI used" if lang == "en" else "没有用到 AI") not in paid.accessibleDescription()
    assert paid.accessibleName().startswith("Plan with AI" if lang == "en" else "用 AI 规划")


def test_planning_with_the_demo_says_it_uses_no_ai_and_never_claims_the_ai(qtbot, tmp_path,
                                                                           lang):
    dialog = plan_dialog(qtbot, tmp_path)  # the Demo: engine_is_ai=False
    assert dialog.no_ai_note.isVisible()
    assert ("uses no AI" if lang == "en" else "不使用 AI") in dialog.no_ai_note.text()
    dialog.goal.setText("Tidy up my office documents")
    dialog.start_planning()
    said = dialog.status.text()
    assert ("Demo engine" if lang == "en" else "演示引擎") in said, said
    with qtbot.waitSignal(dialog.runner.plan_finished, timeout=10_000):
        pass
    ai = PlanDialog(tmp_path, lambda: DemoEngine(EngineConfig(options={"delay_s": 0.0})),
                    Limits(), "Claude", engine_is_ai=True)
    qtbot.addWidget(ai)
    ai.show()
    assert not ai.no_ai_note.isVisible()


# -- a task list saved by another program ----------------------------------------------------

TASKS = "# Tasks\r\n\r\n- [ ] Summarise report.docx into summary.md\r\n- [ ] Fix the total\r\n"


def test_a_utf16_task_list_is_said_and_nothing_is_added_to_it(qtbot, lang, window, tmp_path):
    folder = tmp_path / "Notepad"
    folder.mkdir()
    saved = TASKS.encode("utf-16")  # Notepad's "Unicode": a BOM, then two bytes a letter
    (folder / "TASKS.md").write_bytes(saved)
    open_in(qtbot, window, folder)
    notice = window.board_notice
    qtbot.waitUntil(notice.isVisible, timeout=5000)
    said = notice.text.text()
    assert "UTF-16" in said and "TASKS.md" in said and (lang == "en") != has_chinese(said)
    assert not window.board_view.add_field.isEnabled()  # a task added would be UTF-8 in it
    assert (folder / "TASKS.md").read_bytes() == saved
    from app.gui.window_menus import refresh_states

    refresh_states(window)
    assert not window.primary_action.isEnabled() and not window.new_task_action.isEnabled()
    assert "UTF-8" in window.primary_action.toolTip()

    (folder / "TASKS.md").write_text(TASKS, encoding="utf-8")  # saved again as UTF-8
    qtbot.waitUntil(lambda: len(window.board_view.tasks()) == 2, timeout=5000)
    qtbot.waitUntil(lambda: not notice.isVisible(), timeout=5000)
    assert window.board_view.add_field.isEnabled()


def test_a_task_list_in_an_older_encoding_says_why_letters_show_as_boxes(qtbot, lang, window,
                                                                         tmp_path):
    folder = tmp_path / "Accents"
    folder.mkdir()
    (folder / "TASKS.md").write_bytes("- [ ] Résumer le rapport\n".encode("cp1252"))
    open_in(qtbot, window, folder)
    qtbot.waitUntil(lambda: len(window.board_view.tasks()) == 1, timeout=5000)
    notice = window.board_notice
    qtbot.waitUntil(notice.isVisible, timeout=5000)
    assert "UTF-8" in notice.text.text() and "\ufffd" in notice.text.text()
    assert window.board_view.add_field.isEnabled()  # the list works; only letters are lost


def test_a_utf8_task_list_says_nothing(qtbot, window, tmp_path):
    folder = tmp_path / "Plain"
    folder.mkdir()
    (folder / "TASKS.md").write_text("- [ ] Résumer le rapport 总结\n", encoding="utf-8-sig")
    open_in(qtbot, window, folder)
    qtbot.waitUntil(lambda: len(window.board_view.tasks()) == 1, timeout=5000)
    qtbot.wait(100)
    assert not window.board_notice.isVisible()


def test_a_to_do_list_written_without_checkboxes_is_not_called_no_tasks(qtbot, lang, window,
                                                                         tmp_path):
    folder = tmp_path / "My list"
    folder.mkdir()
    (folder / "TASKS.md").write_text("# My to-do\n\n- Summarise report.docx\n1. Fix the "
                                     "total in budget.xlsx\n", encoding="utf-8")
    open_in(qtbot, window, folder)
    page = window._page
    said = "TASKS.md has a list" if lang == "en" else "TASKS.md 里有一份清单"
    qtbot.waitUntil(lambda: any(said in w for w in shown_words(page)), timeout=5000)
    assert any("- [ ]" in w for w in shown_words(page))

    (folder / "TASKS.md").write_text("# My to-do\n\nJust notes.\n", encoding="utf-8")
    no_tasks = "No tasks yet" if lang == "en" else "还没有任务"
    qtbot.waitUntil(lambda: any(no_tasks in w for w in shown_words(page)), timeout=5000)
    assert not any(said in w for w in shown_words(page))


@pytest.mark.parametrize("text, plain", [
    (b"- Fix the total\n", True), (b"  * Fix it\n", True), (b"12) Call the bank\n", True),
    (b"- [ ] A task\n- [x] Done\n", False), (b"Notes -- not a list\n", False),
    (b"    - indented code\n", False),
])
def test_which_lines_read_as_a_plain_list(text, plain):
    from app.gui.board.board_text import has_plain_list

    assert has_plain_list(text) is plain


# -- a task list the window may not change ---------------------------------------------------

def test_a_read_only_task_list_says_why_a_change_was_not_saved(qtbot, lang, window, tmp_path):
    import os

    folder = tmp_path / "Read only"
    folder.mkdir()
    board = folder / "TASKS.md"
    board.write_text("- [ ] Fix the total\n", encoding="utf-8")
    os.chmod(board, 0o444)
    try:
        open_in(qtbot, window, folder)
        qtbot.waitUntil(lambda: len(window.board_view.tasks()) == 1, timeout=5000)
        window.board_view.add_field.setText("Summarise report.docx")
        qtbot.keyClick(window.board_view.add_field, Qt.Key.Key_Return)
        notice = window.board_notice
        qtbot.waitUntil(notice.isVisible, timeout=5000)
        said = notice.text.text()
        assert ("read-only" if lang == "en" else "只读") in said, said
        assert board.read_text(encoding="utf-8") == "- [ ] Fix the total\n"
    finally:
        os.chmod(board, 0o644)


def test_a_full_or_refusing_disk_is_said_in_the_windows_words(qtbot, lang, tmp_path):
    import errno

    from app.core.workspace.files import DiskWriteError
    from app.gui.board.board_file import BoardFile

    board = BoardFile()
    board._path = tmp_path / "TASKS.md"
    full = board.failure_sentence(DiskWriteError(board._path, OSError(errno.ENOSPC, "No space "
                                                                     "left on device")))
    denied = board.failure_sentence(DiskWriteError(board._path, OSError(errno.EACCES,
                                                                       "Permission denied")))
    assert "No space" not in full and "Permission" not in denied
    assert ("the disk is full" if lang == "en" else "磁盘已满") in full
    assert (lang == "en") != has_chinese(denied)


# -- a new task list -------------------------------------------------------------------------

def test_a_new_task_list_says_its_tasks_are_examples(qtbot, lang, window, tmp_path):
    folder = tmp_path / "Only documents"
    folder.mkdir()
    (folder / "report.docx").write_bytes(b"PK")
    open_in(qtbot, window, folder)
    view = window.board_view
    qtbot.waitUntil(lambda: view.has_no_board, timeout=5000)
    view.create_button.click()
    qtbot.waitUntil(lambda: len(view.tasks()) >= 1, timeout=5000)
    notice = window.board_notice
    qtbot.waitUntil(notice.isVisible, timeout=5000)
    said = notice.text.text()
    assert ("examples" if lang == "en" else "示例") in said, said


def test_a_folder_shown_with_nothing_focused_gives_its_first_control_the_keyboard(
        qtbot, window, tmp_path):
    from PySide6.QtWidgets import QApplication

    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)
    held = QApplication.focusWidget()
    if held is not None:
        held.clearFocus()
    folder = tmp_path / "Only documents"
    folder.mkdir()
    open_in(qtbot, window, folder)
    view = window.board_view
    qtbot.waitUntil(lambda: view.create_button.hasFocus(), timeout=5000)  # Space creates it

    QApplication.focusWidget().clearFocus()
    (folder / "TASKS.md").write_text("- [ ] Fix the total\n", encoding="utf-8")
    qtbot.waitUntil(lambda: view.list_view.hasFocus(), timeout=5000)

    window.board_view.add_field.setFocus()  # where the person put it: it stays
    (folder / "TASKS.md").unlink()
    qtbot.waitUntil(lambda: view.has_no_board, timeout=5000)
    (folder / "TASKS.md").write_text("- [ ] Fix the total\n", encoding="utf-8")
    qtbot.waitUntil(lambda: len(view.tasks()) == 1, timeout=5000)
    assert not view.list_view.hasFocus()


def test_export_is_greyed_with_why_until_the_folder_has_a_run(qtbot, lang, window, tmp_path):
    from app.gui.window_menus import refresh_states

    folder = tmp_path / "Never run"
    folder.mkdir()
    (folder / "TASKS.md").write_text("- [ ] Fix the total\n", encoding="utf-8")
    open_in(qtbot, window, folder)
    qtbot.waitUntil(lambda: len(window.board_view.tasks()) == 1, timeout=5000)
    refresh_states(window)
    assert not window.export_action.isEnabled()  # as the Export summary… button
    why = window.export_action.toolTip()
    assert why and (lang == "en") != has_chinese(why)
    with qtbot.waitSignal(window.run_ended, timeout=30_000):
        window.run_panel.primary.click()
    qtbot.waitUntil(window.export_action.isEnabled, timeout=5000)
