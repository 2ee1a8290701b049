"""The runner: the harness on a worker thread, its events on the UI thread, Stop honoured."""

from __future__ import annotations

import threading

import pytest

from app.core.records import events as ev
from app.core.settings import Limits
from app.core.workspace.workspace import Workspace
from app.engines.demo.engine import DemoEngine
from app.core.engine.port import EngineConfig
from app.gui.run.runner import WORKSPACE_LOCKED, RunRunner
from tests.gui.helpers import demo_copy


@pytest.fixture
def config_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))


def demo(delay: float = 0.0):
    return lambda: DemoEngine(EngineConfig(options={"delay_s": delay}))


def test_the_listener_runs_off_the_ui_thread_and_events_arrive_on_it(qtbot, tmp_path, config_dir):
    ws = demo_copy(tmp_path)
    runner = RunRunner()
    ui = threading.get_ident()
    listener_threads, event_threads, received = set(), set(), []
    original = runner._listen

    def spying_listener(event):
        listener_threads.add(threading.get_ident())
        original(event)

    runner._listen = spying_listener
    runner.event_received.connect(lambda e: (event_threads.add(threading.get_ident()),
                                             received.append(e)))
    with qtbot.waitSignal(runner.run_finished, timeout=30_000) as done:
        runner.start(ws, demo(), Limits())
    result = done.args[0]
    assert result.state == "blocked_by_human"
    assert listener_threads and ui not in listener_threads
    assert event_threads == {ui}
    kinds = [type(e) for e in received]
    assert kinds[0] is ev.RunStarted and kinds[-1] is ev.RunFinished
    assert ev.HumanNeeded in kinds and ev.RoundFinished in kinds
    assert not runner.running


def test_stop_ends_the_run_after_the_current_step(qtbot, tmp_path, config_dir):
    ws = demo_copy(tmp_path)
    runner = RunRunner()
    rounds = []
    runner.event_received.connect(
        lambda e: isinstance(e, ev.RoundStarted) and (rounds.append(e), runner.stop()))
    with qtbot.waitSignal(runner.run_finished, timeout=30_000) as done:
        runner.start(ws, demo(delay=0.3), Limits())
    assert (done.args[0].state, done.args[0].exit_reason) == ("stopped", "stopped_by_user")
    assert len(rounds) == 1


def test_stop_does_not_wait_for_the_run(qtbot, tmp_path, config_dir):
    ws = demo_copy(tmp_path)
    runner = RunRunner()
    with qtbot.waitSignal(runner.run_finished, timeout=30_000):
        runner.start(ws, demo(delay=2.0), Limits())
        qtbot.wait(100)
        import time

        began = time.perf_counter()
        runner.stop()
        assert time.perf_counter() - began < 1.0  # a stop that waited would take the 2 s step


def test_a_folder_locked_by_another_run_is_a_result_not_a_crash(qtbot, tmp_path, config_dir):
    ws = demo_copy(tmp_path)
    Workspace(ws).ensure_harness_dir()
    runner = RunRunner()
    with Workspace(ws).lock():
        with qtbot.waitSignal(runner.run_finished, timeout=30_000) as done:
            runner.start(ws, demo(), Limits())
    assert done.args[0].exit_reason == WORKSPACE_LOCKED
    assert "Another run" in done.args[0].message


def test_an_engine_that_cannot_be_built_ends_the_run_with_a_sentence(qtbot, tmp_path, config_dir):
    ws = demo_copy(tmp_path)
    runner = RunRunner()

    def broken():
        raise RuntimeError("boom")

    with qtbot.waitSignal(runner.run_finished, timeout=30_000) as done:
        runner.start(ws, broken, Limits())
    result = done.args[0]
    assert result.state == "failed" and "unexpected error" in result.message
    assert list((tmp_path / "config" / "crash-reports").glob("crash-*.txt"))


def test_one_run_at_a_time(qtbot, tmp_path, config_dir):
    ws = demo_copy(tmp_path)
    runner = RunRunner()
    with qtbot.waitSignal(runner.run_finished, timeout=30_000):
        runner.start(ws, demo(delay=0.2), Limits())
        with pytest.raises(RuntimeError):
            runner.start(ws, demo(), Limits())
        runner.stop()
