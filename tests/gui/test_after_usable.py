"""The after-usable scheduler (look/slices.py): pieces run one per idle turn, GAP_MS apart,
wait while a run starts, and run at once when needed now (issue 36, row 3)."""

from __future__ import annotations

import itertools
import time

from PySide6.QtCore import QObject

from app.gui.look import slices
from app.gui.look.slices import Later, Slices
from tests.gui.helpers import demo_copy, open_in


def _recorder(log: list, name: str, times: int = 1):
    left = [times]

    def piece() -> bool:
        log.append((name, time.perf_counter()))
        left[0] -= 1
        return left[0] > 0

    return piece


def test_pieces_run_one_a_turn_at_least_a_gap_apart_and_all_arrive(qapp, qtbot):
    owner, log = QObject(), []
    later = Later(owner)
    for name in ("a", "b"):
        later.add(owner, _recorder(log, name, times=2))
    later.add(owner, _recorder(log, "c"))
    qtbot.waitUntil(lambda: later.pending == 0, timeout=5000)
    assert [name for name, _ in log] == ["a", "a", "b", "b", "c"]
    gaps = [(b - a) * 1000 for (_, a), (_, b) in itertools.pairwise(log)]
    assert min(gaps) >= slices.GAP_MS - 1, gaps  # never two back to back


def test_pieces_wait_while_a_run_starts_then_all_arrive(qapp, qtbot):
    owner, log = QObject(), []
    later = Later(owner)
    later.hold(10_000)
    for name in ("a", "b"):
        later.add(owner, _recorder(log, name))
    qtbot.wait(200)
    assert log == [] and later.held  # held: nothing ran
    released = time.perf_counter()
    later.release()
    qtbot.waitUntil(lambda: len(log) == 2, timeout=5000)
    assert [name for name, _ in log] == ["a", "b"] and log[0][1] >= released


def test_a_hold_ends_by_itself(qapp, qtbot, monkeypatch):
    owner, log = QObject(), []
    later = Later(owner)
    later.hold(150)  # a run that never reached its first round
    later.add(owner, _recorder(log, "a"))
    qtbot.waitUntil(lambda: len(log) == 1, timeout=5000)


def test_a_piece_needed_now_runs_at_once_even_while_held(qapp):
    owner, log = QObject(), []
    later = Later(owner)
    later.hold(10_000)
    piece = later.add(owner, _recorder(log, "picker", times=3))
    piece.run_now()
    assert [name for name, _ in log] == ["picker"] * 3  # to its end, here
    assert piece.done and later.pending == 0


def test_a_piece_whose_owner_is_gone_never_runs(qapp, qtbot):
    keeper, gone, log = QObject(), QObject(), []
    later = Later(keeper)
    later.add(gone, _recorder(log, "gone"))
    later.add(keeper, _recorder(log, "kept"))
    gone.deleteLater()
    qtbot.waitUntil(lambda: later.pending == 0, timeout=5000)
    assert [name for name, _ in log] == ["kept"]


def test_slices_go_through_the_scheduler_or_all_now(qapp, qtbot):
    owner, log = QObject(), []
    first = Slices(owner, [lambda: log.append(1), lambda: log.append(2)])
    first.run_in_slices()
    assert log == [] and not first.done  # on later turns
    qtbot.waitUntil(lambda: first.done, timeout=5000)
    assert log == [1, 2]
    second = Slices(owner, [lambda: log.append(3), lambda: log.append(4)])
    second.run_in_slices()
    second.run_now()
    assert log == [1, 2, 3, 4] and second.done


def test_the_after_usable_work_waits_for_the_runs_first_round(qtbot, window, tmp_path):
    from app.core.records import events as ev

    open_in(qtbot, window, demo_copy(tmp_path))
    first_round: list[float] = []
    window.runner.event_received.connect(
        lambda e: first_round.append(time.perf_counter())
        if isinstance(e, ev.RoundFinished) and not first_round else None)
    log: list = []
    later = slices.later()
    window.start_run()  # Run pressed: the work after usable waits
    assert later.held
    held_when_run: list[bool] = []
    recorder = _recorder(log, "later part")

    def piece() -> bool:
        held_when_run.append(later.held)  # (the run may hold it again later: a decision)
        return recorder()

    later.add(window, piece)
    qtbot.waitUntil(lambda: bool(log), timeout=20_000)
    assert first_round and log[0][1] > first_round[0]  # after the first round's card
    assert held_when_run == [False]  # it ran once the hold was over
    # the run's end (it may have come already: a signal waited for after it is missed)
    qtbot.waitUntil(lambda: not window.runner.running, timeout=20_000)


def test_on_start_up_the_recent_folders_come_on_an_idle_turn_or_when_their_menu_opens(
        qtbot, tmp_path, monkeypatch):
    from tests.gui.test_usable_start import _start

    later = slices.later()
    later.hold(20_000)  # a run starting as the settings come: the recent folders wait
    try:
        window, _folder, _usable, _config = _start(qtbot, tmp_path, monkeypatch,
                                                   {"recent_workspaces": ["/somewhere/else"]})
        qtbot.waitUntil(lambda: window.settings is not None, timeout=20_000)
        qtbot.wait(50)

        def shown() -> list[str]:
            return [a.text() for a in window.recent_menu.actions() if a.isEnabled()]

        assert not any("somewhere" in text for text in shown())  # held: not yet
        window.recent_menu.aboutToShow.emit()  # the person opens the menu: at once
        assert any("somewhere" in text for text in shown())
    finally:
        later.release()


def test_the_engines_are_checked_once_a_starting_run_is_under_way(qtbot, tmp_path,
                                                                   monkeypatch):
    """Each engine's check imports it on the pool: not in the turns a run starts in."""
    from app.core.settings import Settings
    from app.gui.engines.engine_picker import EnginePicker
    from app.gui.main_window import MainWindow

    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    checked: list[float] = []
    monkeypatch.setattr(EnginePicker, "check_all",
                        lambda self: checked.append(time.perf_counter()))
    later = slices.later()
    later.hold(20_000)
    try:
        window = MainWindow(Settings(), demo_delay=0.0, check_engines=True)
        qtbot.addWidget(window)
        qtbot.wait(700)
        assert checked == []  # 400 ms on, but a run is starting
        released = time.perf_counter()
    finally:
        later.release()
    qtbot.waitUntil(lambda: bool(checked), timeout=5000)
    assert checked[0] >= released


def test_a_runs_end_reads_its_records_after_the_decision_it_asks_is_on_screen(qtbot, window,
                                                                             tmp_path):
    """The run history's reading and the lessons' count (on the pool, holding the GIL the
    dialog's layout waits on) come once the decision dialog shows; the notice at once."""
    from tests.gui.helpers import run_until_end

    open_in(qtbot, window, demo_copy(tmp_path))
    run, evidence, order = window.run_flow, window.evidence_flow, []
    real_history_ended, real_count = run.history.run_ended, evidence.count_lessons
    run.history.run_ended = lambda: (order.append("history"), real_history_ended())
    evidence.count_lessons = lambda run_id: (order.append("lessons"), real_count(run_id))
    window.decision_shown.connect(lambda _dialog: order.append("dialog"))
    window.run_ended.connect(lambda _result: order.append("ended"))
    with qtbot.waitSignal(window.decision_shown, timeout=30_000):
        assert run_until_end(qtbot, window).state == "blocked_by_human"
    qtbot.waitUntil(lambda: len(order) == 4, timeout=5000)
    assert order.index("dialog") < order.index("history")
    assert order.index("dialog") < order.index("lessons")  # the notice: a turn on, as before


def test_what_a_person_waits_for_goes_ahead_of_the_warming(qapp, qtbot):
    owner, log = QObject(), []
    later = Later(owner)
    later.add(owner, _recorder(log, "warming", times=3))
    later.add(owner, _recorder(log, "notice"), soon=True)
    later.add(owner, _recorder(log, "history"), soon=True)
    qtbot.waitUntil(lambda: later.pending == 0, timeout=5000)
    assert [name for name, _ in log] == ["notice", "history", "warming", "warming", "warming"]


def test_the_warm_up_imports_begin_once_a_starting_run_is_under_way(qtbot, tmp_path,
                                                                   monkeypatch):
    import app.gui.main_window as main_window

    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    began: list[float] = []
    monkeypatch.setattr(main_window, "_load_the_rest", lambda: began.append(time.perf_counter()))
    later = slices.later()
    later.hold(20_000)
    try:
        window = main_window.MainWindow(defer_pages=True, check_engines=False)
        qtbot.addWidget(window)
        window.warm_up()
        qtbot.wait(200)
        assert began == []  # the run imports what it needs itself
        released = time.perf_counter()
    finally:
        later.release()
    qtbot.waitUntil(lambda: bool(began), timeout=5000)
    assert began[0] >= released


def test_on_start_up_a_decision_dialog_is_made_unseen_in_idle_pieces(qtbot, tmp_path,
                                                                     monkeypatch):
    """The first decision dialog a run asks for costs its first use (about 20 ms of the UI
    thread) no more: one was made, drawn and thrown away after the window was usable."""
    from tests.gui.test_usable_start import _start
    import app.gui.run.decision_dialog as decision_dialog

    made: list = []
    real_init = decision_dialog.DecisionDialog.__init__

    def init(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        made.append((self, self.isVisible()))

    monkeypatch.setattr(decision_dialog.DecisionDialog, "__init__", init)
    window, _folder, _usable, _config = _start(qtbot, tmp_path, monkeypatch)
    qtbot.waitUntil(lambda: window.rest_built, timeout=20_000)
    qtbot.waitUntil(lambda: bool(made), timeout=10_000)
    qtbot.waitUntil(lambda: slices.later().pending == 0, timeout=10_000)
    assert [shown for _dialog, shown in made] == [False]  # never on screen
    assert not any(isinstance(w, decision_dialog.DecisionDialog) and w.isVisible()
                   for w in window.findChildren(decision_dialog.DecisionDialog))


def test_a_piece_that_fails_is_not_tried_again(qapp, qtbot, monkeypatch):
    import sys

    owner, log, errors = QObject(), [], []
    monkeypatch.setattr(sys, "excepthook", lambda *args: errors.append(args[1]))
    later = Later(owner)
    tries: list[int] = []

    def broken() -> bool:
        tries.append(1)
        raise OSError("gone")

    later.add(owner, broken)
    later.add(owner, _recorder(log, "after"))
    qtbot.waitUntil(lambda: bool(log), timeout=5000)
    qtbot.wait(100)
    assert len(tries) == 1 and [type(e) for e in errors] == [OSError]
