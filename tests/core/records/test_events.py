"""The typed event stream: one model per kind, what a live view gets, and who records what."""

from __future__ import annotations

import json
import time

from app.core.board.board import Board, update_board
from app.core.engine.conversation import ModelTurn, ToolCall, Usage
from app.core.records.events import (EVENT_TYPES, LIVE_ONLY, WebLookedUp, ChangeAnswered, ChangeAsked,
                             ChangeRefused, ChangeWaiting, FileChanged, HumanNeeded, ModelReplied,
                             ModelText, NoticeSent, PlanFinished, PlanStarted, RetryResumed,
                             RetryWaiting, RoundFinished,
                             RoundStarted, RunFinished, RunStarted, StepStarted, TaskCompleted,
                             TasksCounted, ToolCalled, ToolRefused, parse_event, try_parse_event)
from app.core.engine.port import TRANSIENT, EngineError
from app.core.workspace.files import read_json, read_jsonl
from app.core.run.live_text import MIN_INTERVAL_S, TAIL_CHARS, LiveText
from app.core.run.loop import Harness
from app.core.records.narrate import describe_event
from app.core.records.records import Status, read_events, read_run
from tests.scripted import ScriptedEngine, board_workspace, call, fast_limits

TWO_TASKS = "# Plan\n\n- [ ] Write a.md\n  - Done when: a.md exists\n- [ ] Write b.md\n"
USAGE = Usage(input_tokens=10, output_tokens=5, cache_read_tokens=2, cache_write_tokens=1)

ONE_OF_EACH = [
    RunStarted(engine="local", engine_label="Local", model="qwen3", is_ai=True,
               completed_tasks=1, total_tasks=4),
    RoundStarted(round=2, task="Write a.md", task_id="t-a", max_steps=25),
    StepStarted(round=2, step=3, max_steps=25),
    ModelText(round=2, step=3, text="Reading the brief…"),
    ModelReplied(round=2, step=3, text="ok", tool_calls=["read_file"], model="qwen3:8b",
                 usage=USAGE, cost_usd=0.01, run_usage=USAGE + USAGE, run_cost_usd=0.02),
    WebLookedUp(round=2, step=3, queries=["sourdough price town"], urls=["https://a.example/"],
                search_count=1, fetch_count=1, task_lookups=2, max_lookups=20),
    ToolCalled(round=2, tool="read_file", arguments={"path": "a.md"}, result="1\thi",
               is_error=False),
    ToolRefused(round=2, tool="write_file", arguments={"path": "../x"}, reason="outside"),
    FileChanged(round=2, path="a.md", change="deleted"),
    NoticeSent(round=2, kind="stall", text="running long"),
    TaskCompleted(round=2, task="Write a.md", summary="done", evidence=["a.md"]),
    HumanNeeded(round=2, task="Write a.md", question="Blue or green?", options=["blue", "green"],
                evidence=["a.md"], recommendation="green", reason="asked"),
    ChangeAsked(round=2, path="notes.md", action="change",
                policies=["existing_files_need_approval"], reasons=["was there before"]),
    ChangeAnswered(round=2, path="notes.md", action="delete", answer="edited", on_board=False),
    ChangeRefused(round=2, path="private/x.md", policy="protected_paths", reason="protected"),
    ChangeWaiting(round=2, path="notes.md", question="Careful mode: may the AI change notes.md?"),
    TasksCounted(completed_tasks=2, total_tasks=5),
    RetryWaiting(seconds=2.5, attempt=1, code="transient", reason="busy",
                 next_attempt_at="2026-01-01T00:00:02.500+00:00", usage=USAGE, cost_usd=0.001),
    RetryResumed(attempt=1),
    RoundFinished(round=2, task="Write a.md", result_state="completed", summary="done",
                  changed_artifacts=["a.md"], steps=3, cost_usd=0.01),
    RunFinished(state="done", exit_reason="all_tasks_done", message="All done.", cost_usd=0.02,
                usage=USAGE, rounds=2, completed_tasks=5, total_tasks=5),
    PlanStarted(goal="Plan a party", mode="goal", engine="demo", engine_label="Demo",
                model="scripted", is_ai=False, max_steps=12),
    PlanFinished(result="proposed", proposals=5, message="5 tasks proposed.", steps=3,
                 usage=USAGE, cost_usd=0.0),
]


def run(ws, engine, **limits):
    events = []
    result = Harness(ws, engine, fast_limits(**limits), listeners=[events.append]).run()
    return result, events


def said(words: str, *calls: tuple[str, dict]) -> ModelTurn:
    """A reply with words (streamed by the scripted engine) and tool calls."""
    return ModelTurn(text=words, tool_calls=[ToolCall(id=f"c{i}", name=n, arguments=a)
                                             for i, (n, a) in enumerate(calls)],
                     usage=Usage(input_tokens=100, output_tokens=20))


# -- the models ------------------------------------------------------------------------------
def test_every_kind_round_trips_through_json():
    assert sorted(e.type for e in ONE_OF_EACH) == sorted(EVENT_TYPES)
    for event in ONE_OF_EACH:
        stamped = event.model_copy(update={"time": "2026-01-01T00:00:00.000+00:00",
                                           "run_id": "r1"})
        line = json.dumps(stamped.model_dump(mode="json"))
        back = parse_event(json.loads(line))
        assert type(back) is type(event) and back == stamped


def test_damaged_or_unknown_lines_parse_to_none_and_unknown_fields_are_ignored():
    assert try_parse_event({"type": "from_the_future", "time": "t"}) is None
    assert try_parse_event({"type": "step_started", "round": "x"}) is None
    assert try_parse_event(["not", "an", "object"]) is None
    newer = parse_event({"type": "retry_resumed", "attempt": 2, "added_later": True})
    assert newer == RetryResumed(attempt=2)


def test_the_live_view_kinds_print_no_line_and_the_others_do():
    silent = {e.type for e in ONE_OF_EACH if describe_event(e) is None}
    assert silent == {"step_started", "model_text", "tasks_counted", "retry_resumed"}


# -- a whole scripted run --------------------------------------------------------------------
def test_a_scripted_run_streams_what_a_live_view_needs(tmp_path):
    ws = board_workspace(tmp_path, TWO_TASKS)
    long_words = "I will write a.md now. " * 40  # 920 characters, streamed 4 at a time
    engine = ScriptedEngine([
        EngineError("The AI service is busy (503).", code=TRANSIENT, retryable=True,
                    retry_after=0.01),
        said(long_words, ("write_file", {"path": "a.md", "content": "A"})),
        call("complete_task", summary="wrote a", evidence=["a.md"]),
        call("write_file", path="b.md", content="B"),
        call("complete_task", summary="wrote b", evidence=["b.md"]),
    ])
    result, events = run(ws, engine)
    assert result.state == "done"
    assert all(e.run_id == result.run_id and e.time for e in events)

    # step_started before every model call, in order, with the step limit.
    steps = [(e.round, e.step) for e in events if isinstance(e, StepStarted)]
    replies = [(e.round, e.step) for e in events if isinstance(e, ModelReplied)]
    assert steps == replies == [(1, 1), (1, 2), (2, 1), (2, 2)]
    assert {e.max_steps for e in events if isinstance(e, StepStarted)} == {25}
    kinds = [e.type for e in events]
    assert kinds[kinds.index("step_started") + 1] == "retry_waiting"  # the wait is in the step
    # The wait's end, right after it.
    assert kinds[kinds.index("retry_waiting") + 1] == "retry_resumed"
    assert [e.attempt for e in events if isinstance(e, RetryResumed)] == [1]

    # Counts each time a task is checked, between the task's completion and the round's end.
    counted = [(e.completed_tasks, e.total_tasks) for e in events if isinstance(e, TasksCounted)]
    assert counted == [(1, 2), (2, 2)]
    i = kinds.index("tasks_counted")
    assert kinds[i - 1] == "task_completed" and kinds[i + 1] == "round_finished"

    # The live words: throttled, the last text delivered whole (its tail) before the reply.
    live = [e for e in events if isinstance(e, ModelText)]
    assert 1 <= len(live) <= 3  # 230 pieces in a few milliseconds
    assert live[-1].text == long_words[-TAIL_CHARS:]
    assert (live[-1].round, live[-1].step) == (1, 1)
    assert kinds[kinds.index("model_text", kinds.index("retry_resumed")) + len(live)] \
        == "model_replied"

    # The file holds everything but the live words, as the listeners saw it.
    on_disk = [parse_event(obj) for obj in read_jsonl(ws.run_files(result.run_id).events)]
    assert on_disk == [e for e in events if e.type not in LIVE_ONLY]
    assert "model_text" not in {e.type for e in on_disk}
    assert read_events(ws.run_files(result.run_id)) == on_disk

    # Each reply carries the run's totals so far.
    totals = [e.run_usage.input_tokens for e in events if isinstance(e, ModelReplied)]
    assert totals == [100, 200, 300, 400]
    assert [e.model for e in events if isinstance(e, ModelReplied)] == ["script-1"] * 4


def test_status_json_follows_the_steps_and_the_wait(tmp_path):
    ws = board_workspace(tmp_path, TWO_TASKS)
    seen: list[tuple[str, Status]] = []

    def on_event(event):
        # A step's start reaches status.json within STATUS_INTERVAL_S (core/records/status_writer.py),
        # here while the run waits in this listener; a wait and its end at once.
        if isinstance(event, (StepStarted, RetryWaiting, RetryResumed)):
            give_up_at = time.monotonic() + 5.0
            while True:
                status = Status.model_validate(read_json(ws.status_path))
                if not isinstance(event, StepStarted) or status.step == event.step \
                        or time.monotonic() > give_up_at:
                    break
                time.sleep(0.01)
            seen.append((event.type, status))

    engine = ScriptedEngine([EngineError("busy", code=TRANSIENT, retryable=True,
                                         retry_after=0.01),
                             call("give_up", reason="-", findings="-")])
    Harness(ws, engine, fast_limits(stall_limit=1), listeners=[on_event]).run()
    (_, step), (_, waiting), (_, resumed) = seen[:3]
    assert (step.state, step.round, step.step, step.current_task) == ("running", 1, 1,
                                                                       "Write a.md")
    assert waiting.state == "waiting" and waiting.next_attempt_at
    assert resumed.state == "running" and resumed.next_attempt_at is None
    assert waiting.last_event.startswith("  Waiting 0s before trying again")


# -- listeners -------------------------------------------------------------------------------
def test_a_listener_that_raises_does_not_stop_the_run_and_is_in_the_crash_log(tmp_path,
                                                                               monkeypatch):
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    ws = board_workspace(tmp_path, TWO_TASKS)
    after: list[str] = []

    def broken_view(event):
        raise ZeroDivisionError("the view divided by zero sk-ant-api03-" + "k3y" * 10)

    engine = ScriptedEngine([call("write_file", path="a.md", content="A"),
                             call("complete_task", summary="a", evidence=["a.md"]),
                             call("write_file", path="b.md", content="B"),
                             call("complete_task", summary="b", evidence=["b.md"])])
    result = Harness(ws, engine, fast_limits(),
                     listeners=[broken_view, lambda e: after.append(e.type)]).run()
    assert (result.state, result.exit_reason) == ("done", "all_tasks_done")
    assert after[0] == "run_started" and after[-1] == "run_finished"  # later listeners too
    reports = list((tmp_path / "config" / "crash-reports").glob("crash-*.txt"))
    assert len(reports) == 1  # the same failure on every event is written once
    text = reports[0].read_text(encoding="utf-8")
    assert "Traceback" in text and "ZeroDivisionError" in text and "broken_view" in text
    assert "run_started event of run " + result.run_id in text
    assert "k3yk3y" not in text  # redacted like every other record


# -- decisions -------------------------------------------------------------------------------
def test_human_needed_has_one_shape_for_asked_and_no_progress(tmp_path):
    (tmp_path / "a").mkdir(), (tmp_path / "b").mkdir()
    asked_ws = board_workspace(tmp_path / "a", TWO_TASKS)
    _, events = run(asked_ws, ScriptedEngine([call(
        "ask_human", question="Blue or green?", options=["blue", "green"], evidence=[])]))
    stuck_ws = board_workspace(tmp_path / "b", TWO_TASKS)
    _, more = run(stuck_ws, ScriptedEngine([], then=call("give_up", reason="no source",
                                                         findings="looked in notes/")),
                  stall_limit=2)
    (asked,) = [e for e in events if isinstance(e, HumanNeeded)]
    (stuck,) = [e for e in more if isinstance(e, HumanNeeded)]
    assert (asked.reason, stuck.reason) == ("asked", "no_progress")
    assert (asked.round, stuck.round) == (1, 2)  # the stuck task's last attempt
    assert asked.task == stuck.task == "Write a.md"
    assert stuck.evidence == ["In round 2 the AI gave up: no source. What it found: looked in "
                              "notes/."]
    assert stuck.question == Board.load(stuck_ws.board_path).next_task().question


def test_the_question_comes_from_the_tool_call_even_if_the_board_changed_meanwhile(tmp_path):
    ws = board_workspace(tmp_path, TWO_TASKS)

    def person_edits_the_board(event):
        if isinstance(event, ToolCalled) and event.tool == "ask_human":
            # Between the tool's write and the round's end, the person rewrites the board.
            update_board(ws.board_path, lambda b: b.answer_human("blue"))

    engine = ScriptedEngine([call("ask_human", question="HUMAN: Blue or green?",
                                  options=["blue", "green"], evidence=[],
                                  recommendation="green")])
    result = Harness(ws, engine, fast_limits(stall_limit=1),
                     listeners=[person_edits_the_board]).run()
    needed = [e for e in read_events(ws.run_files(result.run_id))
              if isinstance(e, HumanNeeded) and e.reason == "asked"]
    assert [(e.round, e.question, e.options, e.recommendation) for e in needed] == [
        (1, "Blue or green?", ["blue", "green"], "green")]


# -- the model that answered -----------------------------------------------------------------
def test_run_json_records_the_model_that_answered_when_none_was_configured(tmp_path):
    ws = board_workspace(tmp_path, TWO_TASKS)
    answered = ModelTurn(tool_calls=[ToolCall(id="c1", name="give_up",
                                              arguments={"reason": "-", "findings": "-"})],
                         model="qwen3:8b")
    engine = ScriptedEngine([answered])
    engine.config.model = ""  # a local server with no model chosen: it answers with its own
    result, events = run(ws, engine, stall_limit=1)
    assert isinstance(events[0], RunStarted) and events[0].model == ""
    assert read_run(ws.run_files(result.run_id)).model == "qwen3:8b"
    assert Status.model_validate(read_json(ws.status_path)).model == "qwen3:8b"
    (reply,) = [e for e in events if isinstance(e, ModelReplied)]
    assert reply.model == "qwen3:8b"


def test_a_turn_that_names_no_model_keeps_the_configured_one(tmp_path):
    ws = board_workspace(tmp_path, TWO_TASKS)
    result, _ = run(ws, ScriptedEngine([call("give_up", reason="-", findings="-")]),
                    stall_limit=1)
    assert read_run(ws.run_files(result.run_id)).model == "script-1"


# -- the live text, on its own clock ----------------------------------------------------------
class _Collector:
    def __init__(self):
        self.events: list = []

    def emit(self, event):
        self.events.append(event)
        return event


def test_live_text_sends_at_most_one_event_per_interval_and_always_the_last_text():
    now = [0.0]
    rec = _Collector()
    live = LiveText(rec, 3, 2, clock=lambda: now[0])
    live("Hello")                      # the first piece goes out at once
    now[0] += MIN_INTERVAL_S / 2
    live(", world")                    # too soon: held
    assert [e.text for e in rec.events] == ["Hello"]
    now[0] += MIN_INTERVAL_S / 2
    live("!")                          # the interval has passed: the whole text so far
    now[0] += 0.01
    live(" Bye")                       # held again...
    live.flush()                       # ...until the reply is over
    live.flush()                       # nothing new: nothing sent
    assert [e.text for e in rec.events] == ["Hello", "Hello, world!", "Hello, world! Bye"]
    assert all((e.round, e.step) == (3, 2) for e in rec.events)


def test_live_text_keeps_the_tail_redacted_and_drops_a_failed_attempt():
    rec = _Collector()
    live = LiveText(rec, 1, 1, clock=lambda: 0.0)
    live("the key is sk-ant-api03-" + "abc123" * 6 + " ")
    live.restart()                     # the attempt failed; the retry starts afresh
    live("x" * 1000)
    live.flush()
    assert "abc123abc123" not in rec.events[0].text
    assert rec.events[-1].text == "x" * TAIL_CHARS



def test_an_older_run_json_with_limits_as_a_loose_dict_still_reads(tmp_path):
    from app.core.settings import Limits
    from app.core.workspace.workspace import RunFiles

    files = RunFiles(tmp_path)
    files.run.write_text(json.dumps({
        "run_id": "r1", "workspace": str(tmp_path), "engine": "demo", "model": "",
        "started_at": "2025-01-01T00:00:00+00:00", "limits": {"max_steps": 7, "stale": 1}}))
    info = read_run(files)
    assert info is not None and info.limits == Limits(max_steps=7)


def test_every_exit_reason_with_words_is_a_valid_status():
    """A run that ends for any reason the CLI can word must leave a readable status.json."""
    from app.core.records.records import EXIT_REASON_WORDS, Status

    for reason in EXIT_REASON_WORDS:
        assert Status(state="failed", exit_reason=reason).exit_reason == reason
