"""`harness-desk run --careful` with the real engines against loopback servers: at a
terminal (a pty) the person answers; with no one there the run stops with exit code 3,
the change kept unapplied until `decide` answers it on the board."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import time
import uuid
from pathlib import Path

import pytest

from app.core.board.board import Board
from tests.engines.fake_servers import (FakeServer, claude_stream, claude_usage, oa_call,
                                        oa_stream, oa_usage, tool_use)

from .conftest import BLOCKED, DONE, USAGE, Cli, jsonl, run_dirs

KEY = f"sk-ant-api03-E2E-{uuid.uuid4().hex}"
OPENAI_KEY = f"sk-proj-E2E-{uuid.uuid4().hex}"
BOARD = "# Tidy\n\n- [ ] Tidy my notes\n  - Done when: notes.md is tidy\n"



@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "My notes"
    root.mkdir()
    (root / "TASKS.md").write_text(BOARD, encoding="utf-8")
    (root / "notes.md").write_text("old notes\nsecond line\n", encoding="utf-8")
    (root / "draft.md").write_text("my draft\n", encoding="utf-8")
    return root


def claude(n: int, name: str, args: dict):
    return claude_stream([tool_use(f"toolu_c{n}", name, args)], usage=claude_usage())


def openai(n: int, name: str, args: dict):
    return oa_stream([oa_call(f"call_{n}", name, args)], usage=oa_usage())


SCRIPT = [("write_file", {"path": "summary.md", "content": "A new summary\n"}),
          ("edit_file", {"path": "notes.md", "old_text": "old notes", "new_text": "tidy notes"}),
          ("delete_file", {"path": "draft.md"}),
          ("complete_task", {"summary": "Tidied", "evidence": ["notes.md"]})]


def env_for(cli: Cli, **extra: str) -> dict[str, str]:
    env = dict(cli.env, NO_PROXY="127.0.0.1,localhost", no_proxy="127.0.0.1,localhost")
    env.update(extra)
    return env


def engine_args(engine: str, server: FakeServer) -> list[str]:
    base = server.url + ("/v1" if engine == "openai" else "")
    return ["--engine", engine, "--base-url", base, "--max-steps", "8"]


def keys() -> dict[str, str]:
    return {"ANTHROPIC_API_KEY": KEY, "OPENAI_API_KEY": OPENAI_KEY}


def test_with_no_one_at_a_terminal_the_change_waits_on_the_board(cli, ws, server):
    server.push("/v1/messages", *[claude(n, name, args) for n, (name, args)
                                  in enumerate(SCRIPT[:2])])
    res = cli("run", ws, "--careful", *engine_args("anthropic", server), env=env_for(cli, **keys()),
              timeout=90)
    assert res.code == BLOCKED, res
    assert "Careful mode: may the AI change your file notes.md? (change " in res.out
    assert f'See the change and answer with: harness-desk approve "{ws}"' in res.out
    assert (ws / "summary.md").read_text() == "A new summary\n"     # new files are free
    assert (ws / "notes.md").read_text() == "old notes\nsecond line\n"  # never applied
    kept = [p for p in (ws / ".harness" / "pending").iterdir()]
    assert len(kept) == 1 and (kept[0] / "after").read_text() == "tidy notes\nsecond line\n"
    task = Board.load(ws / "TASKS.md").next_task()
    assert task.is_human and task.options == ["Allow", "Don't allow"]
    events = jsonl(run_dirs(ws)[-1] / "events.jsonl")
    assert "change_waiting" in [e["type"] for e in events]
    assert "change_answered" not in [e["type"] for e in events]

    # Allowing a change nobody has looked at is refused, in one sentence saying where to look.
    res = cli("decide", ws, "--answer", "Allow")
    assert res.code == USAGE, res
    assert res.err.strip() == (
        "You have not seen the change to notes.md yet, so it was not allowed: look at it first "
        f"with `harness-desk approve \"{ws}\"`, or open the folder in the Harness Desk window.")
    assert Board.load(ws / "TASKS.md").next_task().is_human  # nothing was written
    # `approve` with no terminal shows the diff and says how to answer.
    res = cli("approve", ws)
    assert res.code == DONE, res
    assert "The AI wants to change notes.md (change " in res.out
    assert "-old notes" in res.out and "+tidy notes" in res.out
    assert f"To answer it: harness-desk decide \"{ws}\" --answer Allow" in res.out
    res = cli("decide", ws, "--answer", "Allow")
    assert res.code == DONE, res
    server.push("/v1/messages", claude(9, *SCRIPT[3]))
    res = cli("run", ws, "--careful", *engine_args("anthropic", server), env=env_for(cli, **keys()),
              timeout=90)
    assert res.code == DONE, res
    assert (ws / "notes.md").read_text() == "tidy notes\nsecond line\n"
    first = server.bodies("/v1/messages")[-1]["messages"][0]
    text = json.dumps(first)
    assert "allowed your earlier change" in text and "notes.md" in text
    rounds = jsonl(run_dirs(ws)[-1] / "rounds.jsonl")
    assert rounds[0]["approvals"][0]["answer"] == "allowed"


def run_at_a_pty(cli: Cli, args: list[str], env: dict, answers: list[str],
                 timeout: float = 90) -> tuple[int, str]:
    """Run the command with a pty as its terminal; type each answer when it asks."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(cli.argv(*args), cwd=cli.cwd, env=env, stdin=slave,
                            stdout=slave, stderr=slave, close_fds=True)
    os.close(slave)
    out = b""
    asked = 0
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 4096)
                except OSError:
                    break  # the child closed the terminal
                if not chunk:
                    break
                out += chunk
                if out.count(b"Allow this?") > asked and asked < len(answers):
                    os.write(master, answers[asked].encode() + b"\n")
                    asked += 1
            elif proc.poll() is not None:
                break
        return proc.wait(timeout=10), out.decode("utf-8", "replace")
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()


@pytest.mark.parametrize("engine", ["anthropic", "openai"])
def test_at_a_terminal_the_person_sees_the_diff_and_answers(cli, ws, server, engine):
    path, make = ("/v1/messages", claude) if engine == "anthropic" else ("/v1/responses", openai)
    server.push(path, *[make(n, name, args) for n, (name, args) in enumerate(SCRIPT)])
    code, out = run_at_a_pty(cli, ["run", ws, "--careful", *engine_args(engine, server)],
                             env_for(cli, **keys()), ["y", "n"])
    assert code == DONE, out
    assert "-old notes" in out and "+tidy notes" in out      # the short diff
    assert "The AI wants to delete draft.md." in out
    assert (ws / "notes.md").read_text() == "tidy notes\nsecond line\n"
    assert (ws / "draft.md").read_text() == "my draft\n"
    assert (ws / "summary.md").exists()
    bodies = server.bodies(path)
    assert "did not allow you to delete 'draft.md'" in json.dumps(bodies[3])
    tools = {json.dumps(b["tools"]) for b in bodies}
    assert len(tools) == 1  # the same tools on every request, careful or not
    # The model is told of careful mode once, in the system prompt, not in every tool.
    assert all("In careful mode the person may be asked first" in json.dumps(b) for b in bodies)


def test_end_of_input_at_a_terminal_is_no_answer(cli, ws, server):
    server.push("/v1/messages", claude(1, *SCRIPT[1]))
    code, out = run_at_a_pty(cli, ["run", ws, "--careful", *engine_args("anthropic", server)],
                             env_for(cli, **keys()), ["\x04"])  # Ctrl+D: end of input
    assert code == BLOCKED, out
    assert (ws / "notes.md").read_text() == "old notes\nsecond line\n"
    assert Board.load(ws / "TASKS.md").next_task().is_human


def test_a_killed_run_while_asking_changes_nothing(cli, ws, server):
    server.push("/v1/messages", claude(1, *SCRIPT[1]))
    master, slave = pty.openpty()
    proc = subprocess.Popen(cli.argv("run", ws, "--careful", *engine_args("anthropic", server)),
                            cwd=cli.cwd, env=env_for(cli, **keys()), stdin=slave, stdout=slave,
                            stderr=slave)
    os.close(slave)
    out, deadline = b"", time.monotonic() + 60
    try:
        while b"Allow this?" not in out and time.monotonic() < deadline:
            if select.select([master], [], [], 0.2)[0]:
                out += os.read(master, 4096)
        assert b"Allow this?" in out
        proc.kill()
        proc.wait(10)
    finally:
        os.close(master)
    assert (ws / "notes.md").read_text() == "old notes\nsecond line\n"
    events = jsonl(run_dirs(ws)[-1] / "events.jsonl")
    assert "change_asked" in [e["type"] for e in events]
    assert not {"change_answered", "change_refused"} & {e["type"] for e in events}
    # The next run starts (no stale lock) and asks again rather than guessing.
    server.push("/v1/messages", claude(2, *SCRIPT[1]))
    res = cli("run", ws, "--careful", *engine_args("anthropic", server),
              env=env_for(cli, **keys()), timeout=90)
    assert res.code == BLOCKED, res


def test_approve_at_a_terminal_shows_each_waiting_change_and_takes_the_answer(cli, ws, server):
    # Run 1 wants to change notes.md; run 2 (after the person allowed it) a different change.
    # Each answer belongs to its own change: the refused one is never made.
    env = env_for(cli, **keys())
    server.push("/v1/messages", claude(1, *SCRIPT[1]))
    assert cli("run", ws, "--careful", *engine_args("anthropic", server), env=env,
               timeout=90).code == BLOCKED
    code, out = run_at_a_pty(cli, ["approve", ws], env, ["y"])
    assert code == DONE, out
    assert "+tidy notes" in out and "Allow this? [y] yes, [n] no, [Enter] decide later" in out
    assert "Allowed: notes.md will be changed exactly as shown when the run continues." in out
    server.push("/v1/messages", claude(2, "write_file", {"path": "notes.md",
                                                          "content": "REFUSED\n"}))
    assert cli("run", ws, "--careful", *engine_args("anthropic", server), env=env,
               timeout=90).code == BLOCKED
    assert (ws / "notes.md").read_text() == "tidy notes\nsecond line\n"
    res = cli("decide", ws, "--answer", "Don't allow")
    assert res.code == DONE, res
    for n in (3, 4):  # run 3 and any later run: the refused change is never made
        server.push("/v1/messages", claude(n, *SCRIPT[3]))
        assert cli("run", ws, "--careful", *engine_args("anthropic", server), env=env,
                   timeout=90).code == DONE
        assert (ws / "notes.md").read_text() == "tidy notes\nsecond line\n"
