"""What a newcomer found walking the window by keyboard, in English and Chinese: the decision
box in plain words, one "Plan with AI…" on an empty folder, Run menu actions enabled only
when they can act (and why not), a window whose frame fits the screen, the task details only
for a selected task, recent folders no longer there marked, and the schedule line's room
kept from the start."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import QModelIndex, QRect, Qt
from PySide6.QtWidgets import QApplication, QCheckBox, QMainWindow, QPushButton

from app.core.settings import Settings
from app.gui.board.board_view import BoardView
from tests.gui.helpers import has_chinese, demo_copy, open_in

BOARD = "- [ ] Write the guest list\n- [ ] HUMAN: Pick the date\n  - Option: May\n"


@pytest.fixture
def board_view(qtbot, tmp_path):
    def make(text: str | None = BOARD) -> BoardView:
        path = tmp_path / "TASKS.md"
        if text is not None:
            path.write_text(text, encoding="utf-8")
        view = BoardView()
        qtbot.addWidget(view)
        view.resize(480, 640)
        view.show()
        qtbot.waitExposed(view)
        view.set_board(path)
        return view
    return make


def visible_plan_buttons(view: BoardView) -> list[QPushButton]:
    return [b for b in view.findChildren(QPushButton)
            if b.isVisible() and b.text() == view.plan_button.text()]


# -- 1. the decision box -----------------------------------------------------------------------

def test_the_decision_box_says_it_in_plain_words_and_names_the_mark_only_in_its_tip(
        qtbot, lang, board_view):
    view = board_view()
    qtbot.waitUntil(lambda: view.model.rowCount() == 2, timeout=5000)
    view.list_view.setCurrentIndex(view.model.index(0))
    [box] = [b for b in view.findChildren(QCheckBox) if b.isVisible() and
             b.toolTip().count("HUMAN") == 1 and "TASKS.md" in b.toolTip()]
    action = next(a for a in view.list_view.actions() if a.isCheckable())
    for text in (box.text(), box.accessibleName(), action.text()):
        assert "HUMAN" not in text
    assert "HUMAN" in action.toolTip()
    if lang == "en":
        assert box.text() == "You decide this one (the run asks you)"
    else:
        assert has_chinese(box.text()) and "你" in box.text() and "我" not in box.text()
        assert has_chinese(box.toolTip()) and has_chinese(action.toolTip())


# -- 2. one "Plan with AI…" --------------------------------------------------------------------

def test_an_empty_folder_offers_plan_with_ai_once_in_the_middle(qtbot, lang, board_view):
    view = board_view(None)  # no TASKS.md
    qtbot.waitUntil(lambda: view.has_no_board, timeout=5000)
    qtbot.waitUntil(lambda: view.no_board_plan_button.isVisible(), timeout=5000)
    assert visible_plan_buttons(view) == [view.no_board_plan_button]


def test_an_empty_list_offers_it_once_and_a_list_beside_add_a_task(qtbot, board_view, tmp_path):
    view = board_view("")
    qtbot.waitUntil(lambda: view.empty_plan_button.isVisible(), timeout=5000)
    assert visible_plan_buttons(view) == [view.empty_plan_button]
    (tmp_path / "TASKS.md").write_text(BOARD, encoding="utf-8")
    qtbot.waitUntil(lambda: view.model.rowCount() == 2, timeout=5000)
    qtbot.waitUntil(lambda: visible_plan_buttons(view) == [view.plan_button], timeout=5000)


# -- 5. the details panel only for a selected task ---------------------------------------------

def test_the_task_details_show_only_while_a_task_is_selected(qtbot, board_view):
    view = board_view()
    qtbot.waitUntil(lambda: view.model.rowCount() == 2, timeout=5000)
    details = view._details
    view.list_view.setCurrentIndex(QModelIndex())
    qtbot.waitUntil(lambda: not details.isVisible(), timeout=2000)
    view.list_view.setCurrentIndex(view.model.index(1))
    assert details.isVisible() and "Pick the date" in details.title.text()
    view.list_view.setCurrentIndex(QModelIndex())
    assert not details.isVisible()


# -- 3. the Run menu ---------------------------------------------------------------------------

@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    from app.gui.main_window import MainWindow

    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    made: list = []

    def make(settings: Settings | None = None) -> MainWindow:
        win = MainWindow(settings or Settings(), demo_delay=0.3, check_engines=False)
        win.show()
        made.append(win)
        return win
    yield make
    for win in made:
        if win.runner.running:
            with qtbot.waitSignal(win.runner.run_finished, timeout=20_000):
                win.runner.stop()
        win.close()


def run_menu(win):
    return next(a.menu() for a in win.menuBar().actions() if a.menu() is not None and
                win.stop_action in a.menu().actions())


def test_stop_is_enabled_only_while_a_run_goes_and_says_why_not(qtbot, lang, window, tmp_path):
    win = window()
    menu = run_menu(win)
    menu.aboutToShow.emit()
    folder_first = win.stop_action.statusTip()
    assert not win.stop_action.isEnabled() and not win.primary_action.isEnabled()
    assert win.stop_action.toolTip() == folder_first and "Ctrl+O" in folder_first
    open_in(qtbot, win, demo_copy(tmp_path))
    qtbot.waitUntil(lambda: win.primary_action.isEnabled(), timeout=5000)
    menu.aboutToShow.emit()
    assert not win.stop_action.isEnabled()
    nothing = win.stop_action.statusTip()
    assert nothing and nothing != folder_first
    assert not win.decision_action.isEnabled() or any(
        t.is_human and not t.checked for t in win.board_view.tasks())
    if lang == "en":
        assert (folder_first, nothing) == ("Open a folder first (Ctrl+O).",
                                           "Nothing is running now.")
    else:
        assert has_chinese(folder_first) and has_chinese(nothing)
    win.run_panel.primary.click()
    qtbot.waitUntil(lambda: win.stop_action.isEnabled(), timeout=5000)
    assert not win.primary_action.isEnabled() and has_chinese(
        win.primary_action.statusTip()) == (lang != "en")
    assert win.stop_action.statusTip() == ""
    with qtbot.waitSignal(win.run_ended, timeout=30_000):
        win.stop_action.trigger()
    qtbot.waitUntil(lambda: win.primary_action.isEnabled(), timeout=5000)  # the next turn
    assert not win.stop_action.isEnabled() and win.stop_action.statusTip() == nothing


def test_answer_the_decision_is_enabled_only_with_a_decision_waiting(qtbot, window, tmp_path):
    win = window()
    folder = tmp_path / "party"
    folder.mkdir()
    (folder / "TASKS.md").write_text("- [ ] Write the guest list\n", encoding="utf-8")
    open_in(qtbot, win, folder)
    qtbot.waitUntil(lambda: win.primary_action.isEnabled(), timeout=5000)
    assert not win.decision_action.isEnabled()
    assert win.decision_action.statusTip() == "No decision is waiting for you."
    (folder / "TASKS.md").write_text(BOARD, encoding="utf-8")
    qtbot.waitUntil(lambda: win.decision_action.isEnabled(), timeout=5000)


# -- 4. the window's frame on the screen -------------------------------------------------------

class _Screen:
    def __init__(self, width: int, height: int):
        self.area = QRect(0, 0, width, height)

    def availableGeometry(self) -> QRect:  # noqa: N802 (Qt's name)
        return self.area


@pytest.mark.parametrize("size", [(1280, 800), (800, 600), (1024, 768)])
def test_the_window_with_its_title_bar_fits_the_screen(qtbot, size):
    window = QMainWindow()
    qtbot.addWidget(window)
    window.resize(1180, 760)  # MainWindow's first size
    screen = _Screen(*size)
    window.screen = lambda: screen  # type: ignore[method-assign]
    from app.gui import window_state

    window_state.fit_to_screen(window)
    title_bar, border = 30, 4  # openbox's, under Xvfb (the walk's shots 01 and 80)
    top = window.y()  # move() places the frame's top-left corner
    bottom = top + title_bar + window.height() + border
    assert top >= 0 and bottom <= size[1], (top, bottom)
    # A margin to spare all round (a window manager's frame may be a little larger still),
    # and placed by us, centred, not wherever the window manager puts a window too tall.
    assert title_bar + window.height() + border <= 0.95 * size[1]
    assert window.testAttribute(Qt.WidgetAttribute.WA_Moved)
    assert window.x() >= 0 and window.x() + window.width() + 2 * border <= size[0]


# -- 6. recent folders no longer there ---------------------------------------------------------

def test_a_recent_folder_gone_is_marked_found_off_the_ui_thread_and_can_be_removed(
        qtbot, lang, window, tmp_path, monkeypatch):
    from app.gui.window import folder_flow

    here, gone = tmp_path / "here", tmp_path / "gone"
    here.mkdir()
    threads: list = []
    real = folder_flow._is_folder
    monkeypatch.setattr(folder_flow, "_is_folder",
                        lambda text: (threads.append(threading.current_thread()), real(text))[1])
    win = window(Settings(recent_workspaces=[str(here), str(gone)]))
    welcome = win.welcome_page
    assert win.pages.currentWidget() is welcome

    def buttons() -> list[QPushButton]:
        return [b for b in welcome.findChildren(QPushButton) if b.isVisible()]

    qtbot.waitUntil(lambda: any(str(gone) in b.text() and b.text() != str(gone) and
                                b.text().endswith(("(not found)", "（未找到）"))
                                for b in buttons()), timeout=5000)
    assert threads and all(t is not threading.main_thread() for t in threads)
    [open_here] = [b for b in buttons() if str(here) in b.text()]
    assert "not found" not in open_here.text() and "未找到" not in open_here.text()
    [remove] = [b for b in buttons() if str(gone) in b.accessibleName() and
                b.accessibleName() != b.text() and str(gone) not in b.text()]
    if lang == "en":
        assert remove.text() == "Remove from the list"
        assert remove.accessibleName() == f"Remove {gone} from the recent folders"
    else:
        assert has_chinese(remove.text()) and has_chinese(remove.accessibleName())
    menu_texts = [a.text() for a in win.recent_menu.actions()]
    assert any(str(gone) in t and t.endswith(("(not found)", "（未找到）")) for t in menu_texts)
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow, timeout=2000)
    remove.setFocus()
    qtbot.keyClick(remove, Qt.Key.Key_Space)
    assert win.settings.recent_workspaces == [str(here)]
    focused = QApplication.focusWidget()  # the keyboard stays in the list, on what is left
    assert isinstance(focused, QPushButton) and focused.text().endswith(str(here))
    qtbot.waitUntil(lambda: not any(str(gone) in b.text() for b in buttons()), timeout=5000)


# -- 7. the schedule line's room ---------------------------------------------------------------

def test_the_schedule_line_arriving_after_usable_moves_nothing_below_it(qtbot, tmp_path,
                                                                        monkeypatch):
    from PySide6.QtCore import QPoint
    from PySide6.QtWidgets import QLabel

    from tests.gui.test_usable_start import _start

    window, _folder, _usable, _config = _start(qtbot, tmp_path, monkeypatch)
    rounds = window.splitter.findChild(QLabel, "roundsTitle")

    def places():
        return rounds.mapTo(window, QPoint(0, 0)), window.cards.mapTo(window, QPoint(0, 0))

    at_usable: list = []
    window.became_usable.connect(lambda: at_usable.append(
        (places(), hasattr(window, "schedules"))))
    qtbot.waitUntil(lambda: bool(at_usable), timeout=20_000)
    assert at_usable[0][1] is False  # the line comes after usable
    qtbot.waitUntil(lambda: window.rest_built and window.schedules.view.isVisible(),
                    timeout=20_000)
    qtbot.waitUntil(lambda: window.settings is not None, timeout=20_000)
    qtbot.wait(100)
    assert places() == at_usable[0][0]
    line = window.schedules.view
    assert line.mapTo(window, QPoint(0, line.height())).y() <= places()[0].y()


def test_the_task_count_is_there_when_the_window_becomes_usable(qtbot, tmp_path, monkeypatch):
    from tests.gui.test_usable_start import _start

    window, _folder, _usable, _config = _start(qtbot, tmp_path, monkeypatch)
    at_usable: list = []
    window.became_usable.connect(lambda: at_usable.append(
        window.run_panel.tasks_count.text()))
    qtbot.waitUntil(lambda: bool(at_usable), timeout=20_000)
    assert at_usable == ["0 of 5 done"]
    qtbot.waitUntil(lambda: window.rest_built and window.settings is not None, timeout=20_000)
