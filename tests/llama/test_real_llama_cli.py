"""Issue 19 on the command line: `harness-desk engines` and `harness-desk run` as a person runs
them (subprocesses with their own settings folder), against a real llama-server with the
SmolLM2-135M model. What the person reads is asserted; the numbers are printed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.conftest import Cli, clean_env

pytestmark = pytest.mark.llama_server

BOARD = ("# Plan\n\n- [ ] Write a long story about a lighthouse keeper in story.txt\n"
         "  - Done when: story.txt exists\n")


def cli_for(tmp_path: Path, served, **limits) -> Cli:
    config = tmp_path / "config"
    config.mkdir()
    settings = {"engine": "local", "engines": {"local": {"base_url": served.url}},
                "limits": limits}
    (config / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    env = clean_env(config)
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost"  # the server is on loopback
    return Cli(env, cwd, config)


def warm(served) -> None:
    """One tiny completion, so the server has run once (its first request is the slowest)."""
    import urllib.request

    body = json.dumps({"messages": [{"role": "user", "content": "Hi"}], "max_tokens": 1})
    request = urllib.request.Request(f"{served.url}/chat/completions", body.encode(),
                                     {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as answer:
        answer.read()


def test_engines_says_a_model_without_tools_is_not_ready_and_what_to_do(start_llama, tmp_path):
    served = start_llama(ctx=8192, tools=False)
    res = cli_for(tmp_path, served)("engines", timeout=60)
    line = next(ln for ln in res.out.splitlines() if ln.startswith("local"))
    print("\n" + line)
    assert res.code == 0 and "Traceback" not in res.err, res
    assert "not ready" in line
    assert ("cannot use tools, which Harness Desk needs. Start llama-server with --jinja and a "
            "model whose chat template supports tools") in line


def test_engines_says_a_tool_capable_template_whose_model_writes_words_is_not_ready(
        start_llama, tmp_path):
    served = start_llama(ctx=8192, tools=True)
    warm(served)  # the check gives the model's probe 6 s: on a loaded machine, a cold server
    res = cli_for(tmp_path, served)("engines", timeout=90)  # may need more for its first
    line = next(ln for ln in res.out.splitlines() if ln.startswith("local"))
    print(f"\n{res.seconds:.1f} s: {line}")
    assert res.code == 0 and "Traceback" not in res.err, res
    assert "not ready" in line
    assert ("did not call a tool when asked to: its chat template supports tools, but the "
            "model wrote words instead, so it is probably too small for this work") in line


def test_a_run_on_a_model_without_tools_ends_at_once_saying_why(start_llama, tmp_path):
    served = start_llama(ctx=8192, tools=False)
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "TASKS.md").write_text(BOARD, encoding="utf-8")
    res = cli_for(tmp_path, served)("run", ws, "--yes", timeout=120)
    print(f"\n{res.seconds:.1f} s, exit {res.code}\n{res.out}{res.err}")
    assert res.code != 0 and "Traceback" not in res.out + res.err
    assert "cannot use tools, which Harness Desk needs" in res.out + res.err
    assert res.seconds < 30


def test_a_run_on_the_command_line_is_cut_at_the_rounds_time_limit(start_llama, tmp_path):
    # --ignore-eos: the reply streams on to the step's cap whatever the model samples, so the
    # limit, not the model's mood, ends the round (a reply that stopped early failed CI once).
    served = start_llama(ctx=8192, tools=True, extra=["--ignore-eos"])
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "TASKS.md").write_text(BOARD, encoding="utf-8")
    res = cli_for(tmp_path, served, round_seconds=25, max_rounds=1)("run", ws, "--yes",
                                                                    timeout=240)
    print(f"\n{res.seconds:.1f} s, exit {res.code}\n{res.out}{res.err}")
    assert "Traceback" not in res.out + res.err
    assert res.seconds < 25 + 60
    # (The 135M model's replies here are short, under the 10 s after which the command line
    # prints "the AI is still answering, about N tokens so far…": that line is covered with
    # the loopback fakes, tests/engines/local/test_local_runs.py.)
    assert ("Round 1 ended: ran out of time — The round reached its time limit of 25 seconds"
            in res.out), res
    assert res.code == 4  # stopped (docs/cli.md, "Exit codes"), not failed
