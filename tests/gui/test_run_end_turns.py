"""A run's end does not hold the window in one long turn (bench/ui_stall_cold.py --where): the
panel says how it ended and the decision is read at once; the notice, the run history's list
and the work's totals follow a turn each; the lessons module and the history's labels are
made on a pool thread."""

from __future__ import annotations

import sys
import threading

from PySide6.QtCore import QTimer

from tests.gui.helpers import demo_copy, open_in, run_until_end


def test_a_runs_end_is_said_first_and_the_rest_follows_a_turn_each(qtbot, window, tmp_path):
    open_in(qtbot, window, demo_copy(tmp_path))
    run, order = window.run_flow, []
    real_history_ended = run.history.run_ended

    def history_ended() -> None:
        order.append("history")
        real_history_ended()

    run.history.run_ended = history_ended  # type: ignore[method-assign]

    def shown(result) -> None:
        order.append("shown")
        assert window.run_panel.mode == "answer"  # the panel already says it
        QTimer.singleShot(0, lambda: order.append("next turn"))

    run.run_shown.connect(shown)
    window.run_ended.connect(lambda _result: order.append("ended"))
    result = run_until_end(qtbot, window)
    assert result.state == "blocked_by_human"
    qtbot.waitUntil(lambda: "history" in order, timeout=5000)
    assert order == ["shown", "next turn", "ended", "history"]
    qtbot.waitUntil(lambda: window.run_flow.history.picker.count() == 2, timeout=5000)  # listed again
    assert window.run_flow.history.picker.isEnabled()


def test_the_run_historys_labels_are_made_off_the_ui_thread(qtbot, window, tmp_path,
                                                            monkeypatch):
    import app.gui.run.history_picker as history_picker

    made_on: list[bool] = []
    real = history_picker._when  # the start time in each label

    def when(stamp) -> str:
        made_on.append(threading.current_thread() is threading.main_thread())
        return real(stamp)

    monkeypatch.setattr(history_picker, "_when", when)
    open_in(qtbot, window, demo_copy(tmp_path))
    run_until_end(qtbot, window)
    picker = window.run_flow.history.picker
    qtbot.waitUntil(lambda: picker.count() == 2, timeout=5000)
    assert made_on and not any(made_on)
    assert picker.itemText(1).endswith(" · Demo · Asked you a question")


def test_the_lessons_module_is_imported_off_the_ui_thread(qtbot, window, tmp_path,
                                                          monkeypatch):
    import app.gui.lessons as lessons_package

    LESSONS = "app.gui.lessons.lessons_data"
    imported_on: list[bool] = []

    class Watch:
        def find_spec(self, name, path=None, target=None):
            if name == LESSONS:
                imported_on.append(threading.current_thread() is threading.main_thread())
            return None  # the usual finders import it

    open_in(qtbot, window, demo_copy(tmp_path))
    monkeypatch.delitem(sys.modules, LESSONS, raising=False)
    monkeypatch.delattr(lessons_package, "lessons_data", raising=False)  # put back after
    monkeypatch.setattr(sys, "meta_path", [Watch(), *sys.meta_path])
    result = run_until_end(qtbot, window)  # its end counts the lessons it taught
    qtbot.waitUntil(lambda: LESSONS in sys.modules, timeout=5000)
    assert imported_on == [False]
    assert window.evidence_flow._lessons_run_id == result.run_id
    assert not window.run_panel.lessons_button.isVisible()  # the demo's run taught none


def test_the_decisions_sources_are_in_its_dialog_when_it_shows(qtbot, window, tmp_path):
    # Read with the question, they are laid out with the dialog, not in a second layout of
    # it just after it is on screen (bench/ui_stall_cold.py --where: 20-27 ms of the UI thread).
    open_in(qtbot, window, demo_copy(tmp_path))
    on_show: list[bool] = []
    window.decision_shown.connect(lambda dialog: on_show.append(dialog.sources.isVisible()))
    with qtbot.waitSignal(window.decision_shown, timeout=60_000) as shown:
        run_until_end(qtbot, window)
    assert on_show == [True]
    dialog = shown.args[0]
    assert dialog.sources.summary.text()  # what was looked up, in words
    assert dialog.height() >= dialog.sizeHint().height() or dialog.height() >= \
        dialog.screen().availableGeometry().height() - 40


def test_the_decision_dialog_is_made_on_one_turn_and_shown_whole_on_the_next(qtbot, window,
                                                                          tmp_path, monkeypatch):
    # Its making and its showing (polish, layout, fit to the screen) were one turn of the UI
    # thread, 12-30 ms of its own CPU (bench/ui_stall_cold.py --where): now two, and never
    # seen half made.
    import app.gui.run.decision_dialog as decision_dialog

    open_in(qtbot, window, demo_copy(tmp_path))
    made: list[object] = []
    seen: list[tuple[str, bool]] = []
    real_init = decision_dialog.DecisionDialog.__init__

    def init(self, *args, **kwargs) -> None:
        real_init(self, *args, **kwargs)
        made.append(self)
        QTimer.singleShot(0, lambda: seen.append(("next turn", self.isVisible())))

    monkeypatch.setattr(decision_dialog.DecisionDialog, "__init__", init)
    window.decision_shown.connect(lambda dialog: seen.append(("shown", dialog.isVisible())))
    with qtbot.waitSignal(window.decision_shown, timeout=60_000) as shown:
        run_until_end(qtbot, window)
    # Not shown on the turn that made it: the next turn finds it still unseen, then it shows.
    # (Before, it was made and shown in the turn the decision was read in.)
    assert made == [shown.args[0]]
    assert seen == [("next turn", False), ("shown", True)]
    dialog = shown.args[0]
    assert dialog.focusWidget() is dialog.recommended_button  # the keyboard on it, as before


def test_a_decision_dialog_closed_before_its_turn_to_show_is_never_shown(qtbot, window,
                                                                         tmp_path):
    open_in(qtbot, window, demo_copy(tmp_path))
    with qtbot.waitSignal(window.decision_shown, timeout=60_000):
        run_until_end(qtbot, window)
    window.decision_dialog.close()
    qtbot.waitUntil(lambda: window.decision_dialog is None, timeout=5000)
    flow, shown, put_off = window.decision_flow, [], []
    real_make = flow._make_dialog

    def make_then_put_off(*args, **kwargs) -> None:
        real_make(*args, **kwargs)  # made, not yet shown: Decide later on the same turn
        dialog = flow.decision_dialog
        put_off.append(dialog.isVisible())
        dialog.later_button.click()

    flow._make_dialog = make_then_put_off  # type: ignore[method-assign]
    window.decision_shown.connect(shown.append)
    window.show_decision()  # the person opens it again (Ctrl+D)
    qtbot.waitUntil(lambda: put_off != [], timeout=5000)
    qtbot.wait(100)
    assert put_off == [False]
    assert shown == []
    assert window.decision_dialog is None


def test_only_the_latest_decision_asked_for_is_made(qtbot, window, tmp_path):
    # Each is made a turn after it is asked for: one asked for again meanwhile is made once.
    open_in(qtbot, window, demo_copy(tmp_path))
    with qtbot.waitSignal(window.decision_shown, timeout=60_000):
        run_until_end(qtbot, window)
    first = window.decision_dialog
    first.close()
    qtbot.waitUntil(lambda: window.decision_dialog is None, timeout=5000)
    flow, shown = window.decision_flow, []
    window.decision_shown.connect(shown.append)
    from app.gui.folder.workspace_info import decision_context

    task, about = decision_context(window.workspace)
    flow._open_dialog(task, about)
    flow._open_dialog(task, about)
    assert flow.decision_dialog is None  # not made on the turn it was asked for
    qtbot.waitUntil(lambda: shown != [], timeout=5000)
    qtbot.wait(100)
    assert len(shown) == 1 and shown[0] is flow.decision_dialog and shown[0].isVisible()
