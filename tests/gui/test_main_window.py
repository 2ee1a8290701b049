"""The window as a person uses it: open a folder, run the demo, answer, continue, stop, close."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox

from app.core.board.board import Board
from app.core.settings import Settings, load_settings
from app.gui.main_window import MainWindow
from tests.gui.helpers import demo_copy, drop_on, open_in, run_until_end


def test_without_a_folder_the_window_says_what_to_do(window):
    assert window.pages.currentWidget() is window.welcome_page
    assert "Open a folder" in window.welcome_page.open_button.text()
    assert not window.run_panel.primary.isEnabled()


def test_a_folder_dropped_on_the_window_opens(qtbot, window, tmp_path):
    folder = demo_copy(tmp_path, "Rosie")
    with qtbot.waitSignal(window.workspace_opened, timeout=10_000) as opened:
        drop_on(window, folder)
    assert opened.args[0] == folder.resolve()
    assert "Rosie" in window.windowTitle()
    assert window.pages.currentWidget() is window.splitter
    qtbot.waitUntil(lambda: window.run_panel.tasks_bar.maximum() == 5, timeout=5000)
    assert window.run_panel.primary.isEnabled()
    qtbot.waitUntil(lambda: load_settings().settings.recent_workspaces == [str(folder.resolve())],
                    timeout=5000)


def test_a_dropped_file_opens_its_folder(qtbot, window, tmp_path):
    folder = demo_copy(tmp_path, "Rosie")
    with qtbot.waitSignal(window.workspace_opened, timeout=10_000) as opened:
        drop_on(window, folder / "brief.md")
    assert opened.args[0] == folder.resolve()


def test_a_folder_without_a_task_list_is_offered_one(qtbot, window, tmp_path):
    folder = tmp_path / "Plain"
    folder.mkdir()
    open_in(qtbot, window, folder)
    qtbot.waitUntil(lambda: window.board_view.create_button.isVisible(), timeout=5000)
    window.board_view.create_button.click()
    qtbot.waitUntil(lambda: (folder / "TASKS.md").is_file(), timeout=5000)
    assert Board.load(folder / "TASKS.md").tasks


def test_a_missing_folder_is_one_sentence(qtbot, window, tmp_path):
    window.open_workspace(tmp_path / "gone")
    qtbot.waitUntil(lambda: window.notice.isVisible(), timeout=5000)
    assert "does not exist" in window.notice.text.text()
    assert window.workspace is None


def test_the_demo_runs_to_its_decision_is_answered_and_continues_to_done(qtbot, window, tmp_path):
    folder = demo_copy(tmp_path)
    open_in(qtbot, window, folder)
    with qtbot.waitSignal(window.decision_shown, timeout=60_000) as shown:
        first = run_until_end(qtbot, window)
    assert first.state == "blocked_by_human"
    assert window.run_panel.state_label.text() == "Needs your decision"
    assert window.run_panel.mode == "answer"  # the one next step: answer the question
    dialog = shown.args[0]
    assert "speed" in dialog.task.question and dialog.isVisible()
    assert "(recommended)" in dialog.recommended_button.text()
    cards = len(window.cards.cards)
    assert cards == 3

    with qtbot.waitSignal(window.run_ended, timeout=60_000) as ended:
        dialog.recommended_button.click()  # carries on at once: no second click
    assert Board.load(folder / "TASKS.md").tasks[2].answer == "trust"
    assert ended.args[0].state == "done"
    assert window.run_panel.state_label.text() == "Done"
    board = Board.load(folder / "TASKS.md")
    assert all(task.checked for task in board.tasks)
    bar = window.run_panel.tasks_bar
    assert (bar.value(), bar.maximum()) == (6, 6)
    assert len(window.cards.cards) == 6
    newest = window.cards.cards[0]
    # One story across the decision: the rounds number on (6, 5, 4 after 3, 2, 1), no divider
    assert "Round 6" in newest.accessibleName() and "contact page" in newest.accessibleName()
    assert [c.view.round for c in window.cards.cards] == [6, 5, 4, 3, 2, 1]
    assert not window.cards.findChildren(QLabel, "runDivider")
    assert (folder / "drafts" / "homepage.md").is_file()


def test_continue_with_the_decision_still_open_shows_the_dialog_again(qtbot, window, tmp_path):
    folder = demo_copy(tmp_path)
    open_in(qtbot, window, folder)
    with qtbot.waitSignal(window.decision_shown, timeout=60_000) as shown:
        run_until_end(qtbot, window)
    shown.args[0].later_button.click()
    assert "HUMAN" in (folder / "TASKS.md").read_text(encoding="utf-8")
    with qtbot.waitSignal(window.decision_shown, timeout=10_000):
        window.run_panel.primary.click()  # Continue
    assert not window.runner.running


def test_stop_mid_run_stops_after_the_step_and_offers_continue(qtbot, window, tmp_path):
    window.demo_delay = 0.25
    folder = demo_copy(tmp_path)
    open_in(qtbot, window, folder)
    window.run_panel.primary.click()
    qtbot.waitUntil(lambda: window.run_panel.step >= 1, timeout=10_000)
    assert window.run_panel.primary.text().endswith("Stop")
    with qtbot.waitSignal(window.run_ended, timeout=10_000) as ended:
        window.run_panel.primary.click()
        assert window.run_panel.mode == "stopping"
    assert (ended.args[0].state, ended.args[0].exit_reason) == ("stopped", "stopped_by_user")
    assert window.run_panel.state_label.text() == "Stopped"
    assert window.run_panel.mode == "continue"
    assert window.picker.isEnabled()
    assert Board.load(folder / "TASKS.md").counts() == (0, 5)


def _answer_close_box(qtbot, button_text: str) -> None:
    def click():
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, click)
            return
        next(b for b in box.buttons() if b.text() == button_text).click()
    QTimer.singleShot(20, click)


def test_closing_during_a_run_asks_and_keep_working_keeps_it(qtbot, window, tmp_path):
    window.demo_delay = 0.2
    open_in(qtbot, window, demo_copy(tmp_path))
    window.run_panel.primary.click()
    qtbot.waitUntil(lambda: window.runner.running, timeout=5000)
    _answer_close_box(qtbot, "Keep working")
    window.close()
    assert window.isVisible() and window.runner.running and not window.runner.stopping


def test_closing_during_a_run_asks_then_stops_cleanly_and_closes(qtbot, window, tmp_path):
    window.demo_delay = 0.2
    folder = demo_copy(tmp_path)
    open_in(qtbot, window, folder)
    window.run_panel.primary.click()
    qtbot.waitUntil(lambda: window.run_panel.step >= 1, timeout=10_000)
    _answer_close_box(qtbot, "Stop and close")
    with qtbot.waitSignal(window.run_ended, timeout=10_000) as ended:
        window.close()
    assert ended.args[0].exit_reason == "stopped_by_user"
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=5000)
    status = (folder / ".harness" / "status.json").read_text(encoding="utf-8")
    assert '"state": "stopped"' in status


def test_ctrl_r_runs_and_the_run_menu_names_it(qtbot, window, tmp_path):
    open_in(qtbot, window, demo_copy(tmp_path))
    with qtbot.waitSignal(window.run_ended, timeout=60_000):
        window.primary_action.trigger()
    assert window.primary_action.shortcut().toString() == "Ctrl+R"


def test_an_engine_without_a_key_stops_with_what_to_do(qtbot, window, tmp_path, monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9")  # never the real service
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    folder = demo_copy(tmp_path)
    open_in(qtbot, window, folder)
    window.picker.combo.setCurrentIndex(window.picker.combo.findData("anthropic"))
    result = run_until_end(qtbot, window)
    assert (result.state, result.exit_reason) == ("failed", "auth_failed")
    # One sentence that names the engine and the button on screen, then the one action.
    assert window.run_panel.state_label.text() == "Stopped: Claude needs an API key"
    assert window.run_panel.detail_label.text() == (
        "Claude has no API key yet: paste yours in Engine settings, then press Run.")
    assert window.run_panel.mode == "run" and window.run_panel.primary.text() == "Run"
    assert window.picker.isEnabled()
    action = window.run_panel.engine_action
    assert action.isVisible() and action.text() == "Engine settings…"
    action.click()
    assert window.engine_settings_dialog.engine_id == "anthropic"
    window.engine_settings_dialog.reject()
    assert Board.load(folder / "TASKS.md").counts() == (0, 5)


def test_choosing_an_engine_that_is_not_ready_says_how_to_make_it_ready(qtbot, tmp_path,
                                                                        monkeypatch):
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    import keyring
    from keyring.backends import fail

    monkeypatch.setattr(keyring, "get_keyring", lambda: fail.Keyring())  # no keychain at all
    win = MainWindow(Settings(), demo_delay=0.0, check_engines=False)
    win.show()
    try:
        win.picker.combo.setCurrentIndex(win.picker.combo.findData("openai"))
        qtbot.waitUntil(lambda: win.notice.isVisible(), timeout=15_000)
        assert win.notice.text.text() == ("OpenAI needs your API key, and this computer has no "
                                          "keychain: keep it for this session in Engine "
                                          "settings.")
        assert win.notice.action.text() == "Engine settings…"
        win.picker.combo.setCurrentIndex(win.picker.combo.findData("demo"))
        qtbot.waitUntil(lambda: not win.notice.isVisible(), timeout=15_000)
    finally:
        qtbot.waitUntil(lambda: not win.picker._checking, timeout=15_000)
        win.close()
        win.deleteLater()


def test_a_folder_reopened_with_its_decision_waiting_says_so(qtbot, window, tmp_path):
    folder = demo_copy(tmp_path)
    open_in(qtbot, window, folder)
    with qtbot.waitSignal(window.decision_shown, timeout=60_000) as shown:
        run_until_end(qtbot, window)
    shown.args[0].later_button.click()
    other = demo_copy(tmp_path, "Elsewhere")
    open_in(qtbot, window, other)
    assert window.run_panel.state_label.text() == "Ready"
    open_in(qtbot, window, folder)
    assert window.run_panel.state_label.text() == "Needs your decision"
    assert window.run_panel.mode == "answer"
    assert window.run_panel.primary.text() == "Answer the question…"
    assert len(window.cards.cards) == 3  # the last run's rounds, read back from its records


def test_the_untouched_demo_copy_opens_with_a_welcome_that_says_press_run(qtbot, window):
    from app.gui.folder.first_start import demo_copy as first_demo_copy

    open_in(qtbot, window, first_demo_copy(fresh=True))
    # The welcome is Ready's own paragraph, in the status block (no box above it).
    assert window.run_panel.state_label.text() == "Ready"
    assert "Press Run" in window.run_panel.detail_label.text()
    with qtbot.waitSignal(window.run_ended, timeout=60_000):
        window.run_panel.primary.click()
    assert "Welcome" not in window.run_panel.detail_label.text()


def test_the_chinese_close_question_says_the_run_waits_not_that_the_ai_asks(qapp):
    """Closing during a run pauses it while the question is open. The Chinese said "AI 正在等你
    做选择" (the AI is waiting for your choice), which reads as a decision the AI asked for."""
    from PySide6.QtCore import QCoreApplication

    from app.gui.settings import language

    english = ("The run is waiting before its next step while you choose. Stop it and close? "
               "Nothing is left half-written.")
    assert language.install(qapp, "zh_CN") == "zh_CN"
    try:
        said = QCoreApplication.translate("MainWindow", english)
    finally:
        language.install(qapp, "en")
    assert said != english and "下一步之前" in said and "做选择" not in said


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_run_that_ends_while_quit_asks_says_so_and_close_closes(qtbot, qapp, window,
                                                                 tmp_path, lang):
    """Quit pressed during a run; the run ends on its own (its last step) while the question
    is open. The question then says the run has ended, and its Close closes the window (it
    stayed open: "Stop and close" only stopped a run that was no longer going)."""
    from app.gui.settings import language

    assert language.install(qapp, lang) == lang
    try:
        window.demo_delay = 0.2
        open_in(qtbot, window, demo_copy(tmp_path))
        window.run_panel.primary.click()
        qtbot.waitUntil(lambda: window.run_panel.step >= 1, timeout=10_000)
        seen: dict[str, str] = {}

        def when_ended(box) -> None:
            if window.runner.running:
                QTimer.singleShot(20, lambda: when_ended(box))
                return
            seen["text"], seen["title"] = box.text(), box.windowTitle()
            close = box.buttons()[0]
            seen["button"] = close.text()
            close.click()

        def in_the_box() -> None:
            box = QApplication.activeModalWidget()
            if not isinstance(box, QMessageBox):
                QTimer.singleShot(20, in_the_box)
                return
            window.runner.resume()  # the run goes on to its end (the decision) meanwhile
            when_ended(box)

        QTimer.singleShot(20, in_the_box)
        window.close()
        qtbot.waitUntil(lambda: not window.isVisible(), timeout=20_000)
        words = window.tr
        assert seen == {"text": words("The run has ended meanwhile. Close the window?"),
                        "title": words("The run has ended"), "button": words("Close")}
        if lang == "zh_CN":
            assert seen["text"] == "运行已经结束了。要关闭窗口吗？" and seen["button"] == "关闭"
    finally:
        language.install(qapp, "en")
