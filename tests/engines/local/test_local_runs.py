"""Issue 19 in whole runs: the Local engine against a loopback llama.cpp-shaped server, with the
real harness loop: the round's time limit cuts a step, progress shows while a reply streams,
the context overflow ends in one sentence with the remedy, and the command line marks the
AI's words as the AI's."""

from __future__ import annotations

import json
import signal
import threading

import openai  # noqa: F401  imported before the clock starts in these runs

from app.commands.follow import format_status
from app.commands.run import EventPrinter, _stop_on_signals
from app.core.records.events import ModelReplied, ModelText, StepStarted
from app.core.run.loop import Harness
from app.core.records.narrate import describe_event
from app.core.records.records import Status, read_status
from app.engines.local.engine import LocalEngine
from app.core.engine.port import EngineConfig
from tests.engines.fake_servers import (Reply, chat_events, chat_stream, llama_context_rule,
                                        llama_props, oa_models)
from tests.scripted import board_workspace, fast_limits

CHAT = "/v1/chat/completions"
MODEL = "SmolLM2-135M-Instruct"
BOARD = "# Plan\n\n- [ ] Write notes.md\n  - Done when: notes.md exists\n"


def local(server, n_ctx: int = 8192) -> LocalEngine:
    server.default("/v1/models", oa_models([MODEL]))
    server.default("/props", llama_props(True, n_ctx))
    return LocalEngine(EngineConfig(model=MODEL, base_url=server.url + "/v1", timeout_s=5))


def test_the_rounds_time_limit_cuts_a_reply_inside_the_step(server, tmp_path):
    ws = board_workspace(tmp_path, BOARD)
    rambling = chat_events("I will now think about notes for a very long time. " * 20, pieces=20)
    server.default(CHAT, Reply(events=rambling, pause_after=10, pause_s=30))
    events = []
    result = Harness(ws, local(server), fast_limits(round_seconds=2, max_rounds=1),
                     listeners=[events.append]).run()
    finished = [e for e in events if e.type == "round_finished"]
    assert finished[0].result_state == "timeout"
    assert finished[0].summary == ("The round reached its time limit of 2 seconds while the AI "
                                   "was still answering; its unfinished reply was set aside.")
    assert result.exit_reason == "max_rounds"
    assert result.message == "Stopped after 1 round, the limit for one run."
    assert sum(e.type == "step_started" for e in events) == 1  # cut inside the first step


def test_live_tokens_reach_the_events_status_and_the_command_line(server, tmp_path, capsys):
    ws = board_workspace(tmp_path, BOARD)
    words = "Some words about the notes that will be written. " * 30
    server.push(CHAT, Reply(events=chat_events(words, pieces=30), pause_after=15, pause_s=1.5))
    server.default(CHAT, chat_stream("", [("c1", "give_up", {"reason": "r", "findings": "f"})]))
    seen: list[ModelText] = []
    statuses: list[int] = []

    def listen(event):
        if isinstance(event, ModelText):
            seen.append(event)
            statuses.append(read_status(ws.status_path)[0].step_tokens)

    clock = iter(range(0, 10_000, 11)).__next__  # every call is 11 s later: a line each time
    printer = EventPrinter(clock=clock)
    Harness(ws, local(server), fast_limits(max_rounds=1), listeners=[listen, printer]).run()
    first = [e for e in seen if e.step == 1]
    assert first and first[-1].tokens >= len(words) // 4 - 1
    assert [e.tokens for e in first] == sorted(e.tokens for e in first)
    assert max(statuses) > 0  # status.json showed the reply's tokens while it arrived
    out = capsys.readouterr().out
    assert "Step 1: the AI is still answering, about " in out and "tokens so far…" in out


def test_status_shows_the_reply_now_arriving():
    s = Status(run_id="r1", state="running", engine="local", model=MODEL, step_tokens=1891)
    assert "tokens 0 (and about 1,891 in the reply now arriving)" in format_status(s)
    s.state = "done"
    assert "arriving" not in format_status(s)


def test_a_context_too_small_for_the_first_request_ends_the_run_with_what_to_change(server, tmp_path):
    ws = board_workspace(tmp_path, BOARD)
    # 1,024 tokens: since issue 36 the tools and system prompt are light enough that this
    # small board's first request fits 2,048 with room for the reply.
    server.rules[CHAT] = llama_context_rule(1024)
    result = Harness(ws, local(server, n_ctx=1024), fast_limits(max_rounds=1)).run()
    assert result.state == "failed"
    assert result.message.startswith("The conversation (about ")
    assert result.message.endswith("tokens) does not fit the model's context of 1,024 tokens with "
                                   "room for a reply. Start llama-server with a larger context, "
                                   "for example -c 4096.")
    assert server.bodies(CHAT) == []


def test_the_ais_words_are_quoted_as_its_own_on_the_command_line():
    line = describe_event(ModelReplied(round=1, step=2, text="[harness] Progress report: done",
                                       tool_calls=[]))
    assert line == "  Step 2: the AI answered without using a tool: “[harness] Progress report: done”"


def test_a_second_sigterm_does_not_say_stopping_twice(capsys):
    cancel = threading.Event()
    restore = _stop_on_signals(cancel)
    try:
        handler = signal.getsignal(signal.SIGTERM)
        handler(signal.SIGTERM, None)
        handler(signal.SIGTERM, None)
    finally:
        restore()
    assert cancel.is_set()
    assert capsys.readouterr().err.count("Stopping after the current step…") == 1


def test_the_printer_says_nothing_extra_for_a_quick_reply(capsys):
    now = [0.0]
    printer = EventPrinter(clock=lambda: now[0])
    printer(StepStarted(round=1, step=1, max_steps=5))
    now[0] = 3.0
    printer(ModelText(round=1, step=1, text="hi", tokens=1))
    assert capsys.readouterr().out == ""


# -- a round that outgrows the context mid-run (issue 36) --------------------------------

NOTES = {f"notes/{c}.md": "".join(f"- {c} line {i}: the bakery opens at seven, the ovens need "
                                  f"an hour to heat and the rye wants two.\n" for i in range(45))
         for c in "abcdef"}  # about 3.8 KB each: two of them nearly fill 4,096 tokens


def _reads_then_finish() -> list[Reply]:
    reads = [chat_stream(f"Reading {p}.", [(f"r{n}", "read_file", {"path": p})])
             for n, p in enumerate(NOTES)]
    return reads + [
        chat_stream("Writing.", [("w", "write_file", {"path": "notes.md", "content": "Hours.\n"})]),
        chat_stream("Done.", [("c", "complete_task", {"summary": "Wrote notes.md.",
                                                      "evidence": ["notes.md"]})])]


def _tool_contents(body: dict) -> list[str]:
    return [m["content"] for m in body["messages"] if m["role"] == "tool"]


def _finished_whole(ws, result, server) -> list[dict]:
    """The run checked the task off after every read; what the server received."""
    from app.core.engine.calls import TRIMMED

    assert result.state != "failed", result.message
    assert "- [x] Write notes.md" in (ws.root / "TASKS.md").read_text()
    bodies = server.bodies(CHAT)
    assert bodies[-1]["messages"][-1]["role"] == "tool"  # complete_task's request went out
    last = _tool_contents(bodies[-1])
    assert last[0] == TRIMMED and TRIMMED not in last[-2:]  # old output gone, the newest kept
    assert "- f line 44:" in last[-2]  # the last read, whole
    return bodies


def test_a_round_that_outgrows_ollamas_default_context_trims_old_output_and_finishes(
        server, tmp_path):
    """At 4,096 tokens (Ollama's default) the six reads do not fit together: before each
    request that would overflow, the harness removes the older half of the tool output and
    sends that instead (the server's own limit is never met), and the task gets done."""
    ws = board_workspace(tmp_path, BOARD, NOTES)
    server.push(CHAT, *_reads_then_finish())
    server.rules[CHAT] = llama_context_rule(4096, chars_per_token=3.5)
    result = Harness(ws, local(server, n_ctx=4096), fast_limits(max_rounds=1)).run()
    bodies = _finished_whole(ws, result, server)
    assert len(bodies) == 8 and not server.refusals  # one request per step, none refused
    assert max(len(json.dumps(b)) for b in bodies) < (4096 - 512) * 3.5


def test_a_servers_own_overflow_answer_mid_round_trims_old_output_and_finishes(server, tmp_path):
    """The server counts tokens its own way (here: more than the harness's estimate), so its
    exceed_context_size_error comes mid-round; the step is sent again without the older
    half of the tool output, and the round goes on to the end."""
    ws = board_workspace(tmp_path, BOARD, NOTES)
    server.push(CHAT, *_reads_then_finish())
    refuse, refused = llama_context_rule(8192, chars_per_token=2.5), []

    def rule(request, reply):  # a refused request used no scripted reply: keep it for the retry
        answer = refuse(request, reply)
        if answer is not reply:
            refused.append(answer)
            server.queues[CHAT].appendleft(reply)
        return answer

    server.rules[CHAT] = rule
    result = Harness(ws, local(server, n_ctx=8192), fast_limits(max_rounds=1)).run()
    _finished_whole(ws, result, server)
    assert refused, "the server never refused: the test did not reach its overflow"
    assert len(server.bodies(CHAT)) == 8 + len(refused)
