"""What a first-time user tripped over (issue 18), each pinned with the window's real widgets."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QLabel

from app.core.board.board import Board
from tests.gui.helpers import open_in, run_until_end


@pytest.fixture
def claude_window(qtbot, tmp_path, monkeypatch):
    """A window whose person chose Claude last time (and has no key for it)."""
    from app.core.settings import Settings
    from app.gui.main_window import MainWindow

    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    win = MainWindow(Settings(engine="anthropic"), demo_delay=0.0, check_engines=False)
    win.show()
    yield win
    if win.runner.running:
        with qtbot.waitSignal(win.runner.run_finished, timeout=10_000):
            win.runner.stop()
    win.close()
    win.deleteLater()


def board_in(tmp_path: Path, text: str, name: str = "Party") -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "TASKS.md").write_text(text, encoding="utf-8")
    return folder


# -- 1. a demo copy opens on the Demo engine ------------------------------------------------

def test_a_demo_copy_opens_on_the_demo_engine_whatever_was_chosen_last(qtbot, claude_window,
                                                                      tmp_path):
    from app.gui.folder import first_start

    assert claude_window.picker.engine_id == "anthropic"
    open_in(qtbot, claude_window, first_start.demo_copy(fresh=True))
    assert claude_window.picker.engine_id == "demo"
    result = run_until_end(qtbot, claude_window)
    assert result.state == "blocked_by_human"  # the demo's decision, not "needs an API key"
    assert claude_window.settings.engine == "anthropic"  # opening the demo chose nothing

    own = board_in(tmp_path, "- [ ] Write a note\n", "Mine")
    open_in(qtbot, claude_window, own)
    assert claude_window.picker.engine_id == "anthropic"  # their own folder: their engine


# -- 2. a decision is asked when the run reaches it ---------------------------------------

VENUE_BOARD = ("# Party\n\n- [ ] Write the guest list\n"
               "- [ ] HUMAN: Which venue should we book?\n  - Option: the hall\n"
               "  - Option: the garden\n- [ ] Write the invitation\n")


def test_a_decision_further_down_does_not_block_the_tasks_above_it(qtbot, window, tmp_path):
    folder = board_in(tmp_path, VENUE_BOARD)
    open_in(qtbot, window, folder)
    panel = window.run_panel
    assert panel.mode == "run" and panel.primary.text() == "Run"
    # Ready, not "Needs your decision" (the list read by then: the Demo shows the person's
    # own tasks as samples, issue 35; workspace_opened once came before the list was read)
    assert panel.state_label.text() == "Ready to show a sample"
    with qtbot.waitSignal(window.decision_shown, timeout=60_000) as shown:
        result = run_until_end(qtbot, window)
    assert result.state == "blocked_by_human"
    tasks = Board.load(folder / "TASKS.md").tasks
    # Task 1 came first: the Demo showed it as a sample (never ticked on a person's own
    # board, issue 35), then the run asked.
    assert not tasks[0].checked and not tasks[1].checked
    assert [c.view.result_state for c in window.cards.cards] == ["sample"]
    assert shown.args[0].task.text == tasks[1].text


def test_decide_later_on_a_later_decision_leaves_run_for_the_task_above(qtbot, window,
                                                                         tmp_path):
    folder = board_in(tmp_path, VENUE_BOARD)
    open_in(qtbot, window, folder)
    window.show_decision()  # the person opens it early (Ctrl+D), then puts it off
    qtbot.waitUntil(lambda: window.decision_dialog is not None, timeout=5000)
    window.decision_dialog.later_button.click()
    assert window.run_panel.mode == "run"
    with qtbot.waitSignal(window.runner.run_finished, timeout=60_000):
        window.run_panel.primary.click()  # runs task 1, not the dialog again
    assert [c.view.task for c in window.cards.cards] == ["Write the guest list"]


# -- 3. an empty folder: the next step is the board, never a command ---------------------

def test_an_empty_folder_offers_the_board_not_a_run_nor_a_command(qtbot, window, tmp_path):
    folder = tmp_path / "Empty"
    folder.mkdir()
    open_in(qtbot, window, folder)
    board = window.board_view
    qtbot.waitUntil(lambda: board.create_button.isVisible(), timeout=5000)
    panel = window.run_panel
    assert not panel.primary.isEnabled()
    assert panel.state_label.text() == "No task list yet"
    assert not board.add_field.isVisible()  # no "Add a task…" that would do nothing
    shown = " ".join(w.text() for w in window.findChildren(type(panel.state_label))
                     if w.isVisible())
    assert "harness-desk" not in shown and "details below" not in shown

    board.create_button.click()
    qtbot.waitUntil(lambda: panel.primary.isEnabled(), timeout=5000)
    assert (folder / "TASKS.md").is_file() and Board.load(folder / "TASKS.md").tasks
    # The Demo engine on the person's own new list: it says what it will do there.
    qtbot.waitUntil(lambda: panel.state_label.text() == "Ready to show a sample", timeout=5000)
    assert panel.mode == "run"
    assert board.add_field.isVisible() and board.add_field.isEnabled()
    assert not board.create_button.isVisible()


# -- 6. answering carries on at once; the banner shows the question and goes ---------------

def test_answering_carries_on_at_once_and_the_banner_names_the_question(qtbot, window,
                                                                       tmp_path):
    from tests.gui.helpers import demo_copy

    folder = demo_copy(tmp_path)
    open_in(qtbot, window, folder)
    with qtbot.waitSignal(window.decision_shown, timeout=60_000) as shown:
        run_until_end(qtbot, window)
    dialog = shown.args[0]
    assert window.notice.isVisible()
    assert dialog.task.question in window.notice.text.text()   # the question, not the task
    with qtbot.waitSignal(window.run_ended, timeout=60_000) as ended:  # and its end shown
        dialog.recommended_button.click()   # one click: no "Saved … Continue" in between
    assert ended.args[0].state == "done"
    assert window.decision_dialog is None  # closed by the answer
    assert "decision" not in window.notice.text.text()  # the decision banner went with it


# -- 9. a start that never reached the AI is no round and no run ---------------------------

def test_failed_starts_add_no_round_card_and_no_run_to_the_history(qtbot, window, tmp_path,
                                                                  monkeypatch):
    from app.core.records.records import read_status
    from app.core.workspace.workspace import Workspace
    from tests.gui.helpers import demo_copy

    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9")  # never the real service
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    folder = demo_copy(tmp_path)
    open_in(qtbot, window, folder)
    window.picker.combo.setCurrentIndex(window.picker.combo.findData("anthropic"))
    for _ in range(2):
        result = run_until_end(qtbot, window)
        assert (result.state, result.exit_reason) == ("failed", "auth_failed")
        assert not result.reached_ai
    assert window.cards.cards == []
    assert not window.cards.findChildren(QLabel, "runDivider")
    ws = Workspace(folder)
    assert ws.run_ids() == []  # nothing for the history picker or the export
    status, _ = read_status(ws.status_path)
    assert status.state == "failed" and status.exit_reason == "auth_failed"  # still said
    assert not window.run_panel.export_button.isEnabled()

    open_in(qtbot, window, folder)  # reopening shows no "Round 1 ! Engine problem" either
    assert window.cards.cards == []


# -- 11. after kill -9: the last run was interrupted, what it finished, Continue ----------

def _round_started(folder: Path, round_no: int) -> bool:
    runs = folder / ".harness" / "runs"
    return runs.is_dir() and any(
        f'"round": {round_no}' in line and '"round_started"' in line
        for run in runs.iterdir() if (run / "events.jsonl").is_file()
        for line in (run / "events.jsonl").read_text(encoding="utf-8").splitlines())


def test_after_a_kill_the_window_says_the_run_was_interrupted_and_offers_continue(
        qtbot, window, tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    from tests.gui.helpers import REPO, demo_copy

    folder = demo_copy(tmp_path)
    # Half a second a step (the flag: the settings' speed would win over the environment):
    # round 2 takes four steps, two seconds, and the decision is a round further on, so a
    # kill as soon as round 2 has started always lands in the middle of round 2.
    proc = subprocess.Popen([sys.executable, "-m", "app", "run", str(folder), "--engine",
                             "demo", "--demo-delay", "0.5"],
                            env=dict(os.environ, PYTHONPATH=str(REPO)),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not _round_started(folder, 2):
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.02)
        assert proc.poll() is None  # killed mid-run: round 2 is under way
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    assert Board.load(folder / "TASKS.md").counts()[0] == 1  # task 1 ticked, task 2 not
    first = Board.load(folder / "TASKS.md").tasks[0].text

    open_in(qtbot, window, folder)
    panel = window.run_panel
    assert panel.state_label.text() == "The last run was interrupted"
    assert first in panel.detail_label.text() and "Continue" in panel.detail_label.text()
    assert panel.mode == "continue" and panel.primary.text() == "Continue"
    assert "Cut off" in window.cards.cards[0].accessibleName()   # the round it was in
    assert "No rounds yet" not in " ".join(c.accessibleName() for c in window.cards.cards)
    with qtbot.waitSignal(window.run_ended, timeout=60_000) as ended:
        panel.primary.click()
    assert ended.args[0].state == "blocked_by_human"  # it carried on to the decision


# -- 10. "Stop it and close?" holds the run while it asks --------------------------------

def test_the_run_waits_at_its_next_step_while_stop_and_close_is_asked(qtbot, window, tmp_path,
                                                                     monkeypatch):
    import time

    from PySide6.QtWidgets import QApplication

    from tests.gui.helpers import demo_copy

    window.demo_delay = 0.05
    folder = demo_copy(tmp_path)
    open_in(qtbot, window, folder)
    window.run_panel.primary.click()
    qtbot.waitUntil(lambda: window.run_panel.step >= 1, timeout=10_000)
    events = next((folder / ".harness" / "runs").iterdir()) / "events.jsonl"
    seen = {}

    def ask():  # the person reads the question for two seconds, then keeps working
        time.sleep(0.3)  # the step under way may finish
        seen["before"] = events.read_text(encoding="utf-8").count('"step_started"')
        end = time.monotonic() + 2.0
        while time.monotonic() < end:
            QApplication.processEvents()
            time.sleep(0.02)
        seen["after"] = events.read_text(encoding="utf-8").count('"step_started"')
        return False

    monkeypatch.setattr(window, "_ask_to_stop_and_close", ask)
    window.close()
    assert seen["after"] == seen["before"]  # not one more step (nor cost) while asking
    assert window.isVisible() and window.runner.running and not window.runner.stopping
    qtbot.waitUntil(lambda: events.read_text(encoding="utf-8").count('"step_started"')
                    > seen["after"], timeout=10_000)  # and it carries on after "Keep working"


# -- 18. Help ▸ About: version, where data and keys live, the guides, reporting a problem ---

def test_help_about_says_the_version_where_things_live_and_copies_a_problem_report(
        qtbot, window, tmp_path):
    from PySide6.QtGui import QGuiApplication

    from app import __version__
    from app.core.records.crash import crash_dir

    menus = [a.text() for a in window.menuBar().actions()]
    assert "&Help" in menus
    crash_dir().mkdir(parents=True)
    (crash_dir() / "crash-20260101-000000-1.txt").write_text(
        "Traceback: boom\nkey sk-ant-api03-" + "x" * 40, encoding="utf-8")
    window.about_action.trigger()
    dialog = window.about_dialog
    qtbot.waitUntil(dialog.isVisible, timeout=5000)
    texts = " ".join(w.text() for w in dialog.findChildren(type(dialog.copied)))
    assert __version__ in texts
    assert str(tmp_path / "config") in dialog.places.text()  # the settings folder
    assert "keychain" in dialog.places.text()
    assert dialog.docs_button is not None and dialog.docs_button.isEnabled()
    dialog.copy_details.click()
    copied = QGuiApplication.clipboard().text()
    assert __version__ in copied and "Traceback: boom" in copied
    assert "sk-ant-api03-xxxx" not in copied  # redacted
    assert dialog.copied.isVisible()


def test_the_look_is_a_setting_system_light_or_dark_that_applies_at_once(qtbot, window):
    from app.gui.look import theme

    window.open_settings()
    dialog = window.settings_dialog
    assert [dialog.look.itemData(i) for i in range(dialog.look.count())] == [
        "system", "light", "dark"]
    dialog.look.setCurrentIndex(dialog.look.findData("dark"))
    dialog.accept()
    assert window.settings.look == "dark" and theme.is_dark()
    window.open_settings()
    window.settings_dialog.look.setCurrentIndex(window.settings_dialog.look.findData("light"))
    window.settings_dialog.accept()
    assert window.settings.look == "light" and not theme.is_dark()


# -- 12. Enter on a focused button does what Space does ------------------------------------

def test_enter_on_a_focused_button_of_the_main_window_presses_it(qtbot, window, tmp_path):
    from PySide6.QtCore import Qt

    from tests.gui.helpers import demo_copy

    open_in(qtbot, window, demo_copy(tmp_path))
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)
    button = window.run_panel.export_button
    button.setEnabled(True)
    button.setFocus()
    qtbot.waitUntil(lambda: button.hasFocus(), timeout=5000)
    with qtbot.waitSignal(button.clicked, timeout=5000):
        qtbot.keyClick(button, Qt.Key.Key_Return)
    window.primary_action.setEnabled(True)
    window.run_panel.primary.setFocus()
    with qtbot.waitSignal(window.run_ended, timeout=60_000):
        qtbot.keyClick(window.run_panel.primary, Qt.Key.Key_Enter)


# -- 16. "Done when" says which task it belongs to ----------------------------------------

def test_the_details_box_names_the_task_it_belongs_to(qtbot, window, tmp_path):
    folder = board_in(tmp_path, "- [ ] Write the guest list\n  - Done when: guests.md exists\n"
                                "- [ ] Book the hall\n")
    open_in(qtbot, window, folder)
    board = window.board_view
    qtbot.waitUntil(lambda: board.model.rowCount() == 2, timeout=5000)
    details = board._details
    assert details.title.text() == "Select a task in the list to see its details here."
    board.list_view.setCurrentIndex(board.model.index(0))
    assert details.title.text() == "Details of the selected task: “Write the guest list”"
    board.list_view.setCurrentIndex(board.model.index(1))
    assert "Book the hall" in details.title.text()
    assert details.isVisible() and details.frameShape() != details.Shape.NoFrame
