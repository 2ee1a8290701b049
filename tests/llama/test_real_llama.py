"""Issue 19 end to end: the Local engine against a real llama.cpp llama-server running the real
SmolLM2-135M-Instruct model (scripts/llama_server.py), one thread, loopback only.

What a person is told is asserted word for word where the words are ours; the server's own
numbers (its token counts) are read from its answers."""

from __future__ import annotations

import json
import signal
import threading
import time
import urllib.request

import pytest

from app.core.engine.conversation import Message
from app.core.engine.port import PROMPT_TOO_LONG, EngineConfig, EngineError
from app.core.run.loop import Harness
from app.core.run.reports import SYSTEM_PROMPT, never_used_tools
from app.core.tools.toolbox import TOOL_SPECS
from app.engines.local.engine import LocalEngine
from app.engines.local.server import ServerFacts
from tests.scripted import board_workspace, fast_limits

pytestmark = pytest.mark.llama_server

MODEL = "SmolLM2-135M-Instruct.Q4_1.gguf"
BOARD = "# Plan\n\n- [ ] Write hello.txt with the word Hello in it\n  - Done when: hello.txt exists\n"
FIRST = [Message(role="user", text="Task: write hello.txt with the word Hello in it.")]


def engine(served, **options) -> LocalEngine:
    return LocalEngine(EngineConfig(base_url=served.url, timeout_s=120, options=options))


def props(served) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{served.port}/props", timeout=10) as r:
        return json.load(r)


def test_the_models_own_template_cannot_use_tools_and_the_person_is_told(start_llama):
    served = start_llama(ctx=8192, tools=False)
    assert props(served)["chat_template_caps"]["supports_tools"] is False  # the server says so
    state = engine(served).availability()
    assert not state.ready
    print("\n" + state.message)
    assert state.message.startswith("The model '") and "cannot use tools" in state.message
    assert "Start llama-server with --jinja and a model whose chat template supports tools" in state.message


def test_a_tool_capable_template_with_a_model_that_writes_words_is_not_ready(start_llama):
    """The server says the template supports tools; the 135M model, asked for one forced
    call, writes words: the person hears that before the run, with what to change."""
    served = start_llama(ctx=8192, tools=True)
    assert props(served)["chat_template_caps"]["supports_tools"] is True
    local = engine(served)
    assert local.facts().tools is True and local.facts().n_ctx == 8192  # read from /props
    # The check's own probe has 4 seconds; a loaded machine may need more, so it is let
    # finish here first (a probe that finishes late is kept for the next check, as here).
    assert local.probe_tools(timeout_s=120) is False
    state = local.availability()
    print("\n" + state.message)
    assert local.model.endswith("/" + MODEL)  # llama-server names the model by its path
    assert not state.ready and state.message.startswith(
        f"The model '{MODEL}' did not call a tool when asked to: its chat template "
        "supports tools, but the model wrote words instead")  # shown by its file name


def test_a_2048_token_context_is_caught_before_the_run_and_by_the_server(start_llama):
    served = start_llama(ctx=2048, tools=True)
    local = engine(served)
    state = local.availability()
    print("\n" + state.message)
    assert not state.ready and "context is 2,048 tokens" in state.message
    assert state.message.endswith("Start llama-server with a larger context, for example -c 4096.")
    # Were the check before sending missing, the server's own refusal says the same.
    # A progress report of a long board: since issue 36 the tools and system prompt alone
    # leave a one-line task room in 2,048 tokens.
    local._facts = ServerFacts()
    long_report = [Message(role="user", text=FIRST[0].text + " Earlier: nothing." * 250)]
    with pytest.raises(EngineError) as caught:
        local.turn(SYSTEM_PROMPT, TOOL_SPECS, long_report)
    err = caught.value
    print(err.message, err.remedy)
    assert err.code == PROMPT_TOO_LONG
    assert "does not fit the model's context of 2,048 tokens on the local server" in err.message
    assert err.remedy.startswith("Give the model a context of ")


def test_every_step_is_capped(start_llama):
    served = start_llama(ctx=8192, tools=False)
    local = engine(served, max_tokens=24)
    turn = local.turn("You are a storyteller.", [], [Message(
        role="user", text="Tell me a very long story about a lighthouse keeper.")])
    assert turn.stop_reason == "length"
    assert 0 < turn.usage.output_tokens <= 24


def test_a_run_with_a_tool_capable_template_asks_for_calls_and_ends_on_the_cause(
        start_llama, tmp_path):
    """Run anyway (the Harness called directly, past the readiness check): every step asks
    for a call (tool_choice "required", which this server's grammar holds once a call
    starts), each step is capped, and when the model still only writes words the run ends in
    three steps on the cause and the remedy, not on a decision that cannot help."""
    served = start_llama(ctx=8192, tools=True)
    local = engine(served, max_tokens=96)
    assert local.facts().tools is True
    request = local.build_request(SYSTEM_PROMPT, TOOL_SPECS, FIRST)
    assert request["tool_choice"] == "required" and request["max_tokens"] == 96
    ws = board_workspace(tmp_path, BOARD)
    events = []
    started = time.monotonic()
    result = Harness(ws, local, fast_limits(max_rounds=1, max_steps=3),
                     listeners=[events.append]).run()
    replies = [e for e in events if e.type == "model_replied"]
    print(f"\n{len(replies)} steps in {time.monotonic() - started:.0f} s; "
          f"{[e.type for e in events if e.type.startswith('tool')]}; {result.message}")
    assert 1 <= len(replies) <= 3 and not any(e.tool_calls for e in replies)
    assert result.message == never_used_tools(local.model)
    assert "HUMAN:" not in (ws.root / "TASKS.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_a_server_that_goes_away_mid_run_ends_the_run_with_one_sentence(start_llama, tmp_path, sig):
    served = start_llama(ctx=8192, tools=False, extra=["--ignore-eos"])  # still streaming when killed
    ws = board_workspace(tmp_path, BOARD)
    replying = threading.Event()
    events = []

    def listen(event):
        events.append(event)
        if event.type == "model_text":
            replying.set()

    local = engine(served, max_tokens=4000)
    local._facts = ServerFacts(server="llama.cpp", tools=True, n_ctx=8192)  # let it talk
    box = {}
    worker = threading.Thread(target=lambda: box.update(result=Harness(
        ws, local, fast_limits(max_rounds=1, max_retries=2), listeners=[listen]).run()))
    worker.start()
    assert replying.wait(120), "the model never started answering"
    served.proc.send_signal(sig)
    started = time.monotonic()
    worker.join(120)
    assert not worker.is_alive(), "the run was left waiting on a server that went away"
    result = box["result"]
    print(f"\n{signal.Signals(sig).name}: {result.state}: {result.message} "
          f"({time.monotonic() - started:.1f} s)")
    assert result.state == "failed"
    assert "Nothing is answering at" in result.message or "cut off" in result.message


def test_the_rounds_time_limit_cuts_a_long_reply_inside_the_step(start_llama, tmp_path):
    # --ignore-eos: the model's reply runs to the step's cap whatever it samples (CI's SmolLM2
    # once stopped on its own after 65 tokens, each step inside the limit), so what is tested
    # is the limit cutting a reply that is still streaming, not the model's mood.
    served = start_llama(ctx=8192, tools=False, extra=["--ignore-eos"])
    ws = board_workspace(tmp_path, "# Plan\n\n- [ ] Write a very long story about a lighthouse "
                                   "keeper in story.txt\n  - Done when: story.txt exists\n")
    events = []
    local = engine(served)  # the default cap (4,096 tokens): far more than 12 s of words
    # A server that does not say whether the model calls tools: the model's own template then
    # lets it talk on, as a rambling model does.
    local._facts = ServerFacts(server="", tools=True, n_ctx=8192)
    limit = 12.0
    started = time.monotonic()
    result = Harness(ws, local, fast_limits(max_rounds=1, round_seconds=limit),
                     listeners=[events.append]).run()
    took = time.monotonic() - started
    live = [e.tokens for e in events if e.type == "model_text"]
    rounds = [e for e in events if e.type == "round_finished"]
    print(f"\n{took:.1f} s, {max(live or [0])} tokens shown live; {result.state}: "
          f"{result.message}; round: {rounds[-1].summary if rounds else '-'}")
    assert live and max(live) > 0, "no live progress from the stream"
    assert took < limit + 15, f"the step ran on for {took:.0f} s past a {limit:g} s limit"
    assert any("reached its time limit of 12 seconds while the AI was still answering"
               in e.summary for e in rounds), [e.summary for e in rounds]
