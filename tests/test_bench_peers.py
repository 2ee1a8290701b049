"""bench.peers without the peers: the loopback server answers each harness's shape (driven
here by a tiny client per shape), refuses what the service would, Harness Desk's side runs
a real 3-step round through its command line, and the table and README block render."""

from __future__ import annotations

import http.client
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bench import peers, peers_report
from bench.peers_harnesses import HARNESSES
from bench.peers_server import (MODES, SUBMIT, PeerServer, Session, action, make_reads,
                                note_path, read_path, secret)

REPO = Path(__file__).resolve().parent.parent
TEXT_ACTION = r"```mswea_bash_command\s*\n(.*?)\n```"  # mini-swe-agent 2.4.6's action_regex


@pytest.fixture
def server():
    s = PeerServer()
    yield s
    s.close()


def post(server: PeerServer, mode: str, body: dict) -> tuple[int, dict | list]:
    """One request; the reply as JSON, or an SSE stream as its list of chunks."""
    conn = http.client.HTTPConnection("127.0.0.1", int(server.url.rsplit(":", 1)[1]), timeout=10)
    conn.request("POST", f"/{mode}/v1/chat/completions", json.dumps(body),
                 {"Content-Type": "application/json"})
    reply = conn.getresponse()
    raw = reply.read().decode()
    conn.close()
    if reply.getheader("Content-Type") == "text/event-stream":
        return reply.status, [json.loads(line[6:]) for line in raw.splitlines()
                              if line.startswith("data: {")]
    return reply.status, json.loads(raw)


def message_of(reply) -> dict:
    """The assistant message, from a JSON reply or put together from stream chunks."""
    if isinstance(reply, dict):
        return reply["choices"][0]["message"]
    text, calls = "", {}
    for chunk in reply:
        for choice in chunk["choices"]:
            delta = choice["delta"]
            text += delta.get("content") or ""
            for c in delta.get("tool_calls") or []:
                got = calls.setdefault(c["index"], {"id": c.get("id"), "type": "function",
                                                    "function": {"name": "", "arguments": ""}})
                got["function"]["name"] += c.get("function", {}).get("name") or ""
                got["function"]["arguments"] += c.get("function", {}).get("arguments") or ""
    message = {"role": "assistant", "content": text or None}
    if calls:
        message["tool_calls"] = [calls[i] for i in sorted(calls)]
    return message


def do(ws: Path, name: str, args: dict) -> str:
    """What each harness's tool does, in miniature."""
    if name == "bash":
        done = subprocess.run(["bash", "-c", args["command"]], cwd=ws, capture_output=True,
                              text=True)
        return json.dumps({"returncode": done.returncode, "output": done.stdout})
    if name == "write_file":
        (ws / args["path"]).parent.mkdir(parents=True, exist_ok=True)
        (ws / args["path"]).write_text(args["content"], encoding="utf-8")
        return "written"
    if name == "read_file":
        return (ws / args["path"]).read_text(encoding="utf-8")
    return "done"


TOOLS = {"hd": ["write_file", "read_file", "complete_task"], "msa-tool": ["bash"],
         "msa-text": [], "smol": ["write_file", "read_file", "final_answer"],
         "agents": ["write_file", "read_file"]}


@pytest.mark.parametrize("mode", MODES)
def test_each_harness_shape_is_answered_and_the_work_checked(server, tmp_path, mode):
    steps = 4
    make_reads(tmp_path, steps, "salt")
    session = Session(mode, steps, f"{mode}-0", "salt")
    server.begin(session)
    tools = [{"type": "function", "function": {"name": n, "parameters": {"type": "object"}}}
             for n in TOOLS[mode]]
    messages: list[dict] = [{"role": "user", "content": "Do the task."}]
    finished = None
    for _ in range(steps + 1):
        body = {"model": "bench-model", "messages": messages, "stream": mode == "hd"}
        if tools:
            body["tools"] = tools
        status, reply = post(server, mode, body)
        assert status == 200, reply
        message = message_of(reply)
        if mode == "msa-text":  # the command is in the words; the output comes back as words
            command = re.findall(TEXT_ACTION, message["content"], re.DOTALL)
            assert len(command) == 1
            messages += [message, {"role": "user", "content": do(tmp_path, "bash",
                                                                  {"command": command[0]})}]
            finished = SUBMIT if SUBMIT in command[0] else None
            continue
        if mode == "agents" and not message.get("tool_calls"):  # words alone: its final output
            finished = message["content"]
            continue
        call = message["tool_calls"][0]
        name, args = call["function"]["name"], json.loads(call["function"]["arguments"])
        result = do(tmp_path, name, args)
        if mode == "smol":  # smolagents sends calls and observations back as text
            messages += [{"role": "assistant", "content": f"Calling tools:\n{[name, args]}"},
                         {"role": "user", "content": f"Observation:\n{result}"}]
        else:
            messages += [message, {"role": "tool", "tool_call_id": call["id"],
                                   "content": result}]
        finished = name if name in ("complete_task", "final_answer") or \
            SUBMIT in args.get("command", "") else None
    server.end()
    assert finished and session.finished and not session.trouble
    assert len(session.arrived) == len(session.sent) == steps + 1
    assert len(session.gaps()) >= steps and all(g >= 0 for g in session.gaps())
    for k in (1, 3):
        assert (tmp_path / note_path(f"{mode}-0", k)).read_text() == \
            action(f"{mode}-0", k, steps).text
    assert session.sizes[0] < session.sizes[-1]  # the conversation grew


def test_the_server_refuses_what_the_service_would(server, tmp_path):
    make_reads(tmp_path, 4, "salt")
    session = Session("msa-tool", 4, "t", "salt")
    server.begin(session)
    tools = [{"type": "function", "function": {"name": "bash"}}]
    first = [{"role": "user", "content": "Do the task."}]
    status, reply = post(server, "msa-tool", {"model": "m", "messages": first, "tools": tools})
    unanswered = first + [reply["choices"][0]["message"],  # the call's result left out
                          {"role": "user", "content": "Go on."}]
    status, reply = post(server, "msa-tool", {"model": "m", "messages": unanswered,
                                              "tools": tools})
    assert status == 400 and "must be followed by tool messages" in reply["error"]["message"]
    assert session.finished and "step 2" in session.trouble[0]

    session = Session("smol", 4, "s", "salt")  # a read whose result never came back
    server.begin(session)
    for _ in (1, 2):
        status, _ = post(server, "smol", {"model": "m", "messages": first, "tools": [
            {"type": "function", "function": {"name": n}} for n in TOOLS["smol"]]})
    status, reply = post(server, "smol", {"model": "m", "messages": first, "tools": [
        {"type": "function", "function": {"name": n}} for n in TOOLS["smol"]]})
    assert status == 400 and read_path(2) in reply["error"]["message"]
    assert secret(2, "salt") in (tmp_path / read_path(2)).read_text()
    status, reply = post(server, "hd", {"model": "m", "messages": first})
    assert status == 409  # another harness's prefix while this one runs

    session = Session("hd", 4, "h", "salt")  # the Local engine's probe is not a step
    server.begin(session)
    status, reply = post(server, "hd", {"model": "m", "messages": first, "tools": [
        {"type": "function", "function": {"name": "ping"}}], "tool_choice": "required"})
    assert status == 200 and reply["choices"][0]["message"]["tool_calls"][0]["function"][
        "name"] == "ping"
    assert session.probes == 1 and session.arrived == [] and not session.trouble


def test_harness_desk_runs_three_real_steps_through_its_command_line(server, tmp_path):
    from bench.step_overhead import make_workspace

    ws = tmp_path / "ws"
    make_workspace(ws, 5, 1)
    make_reads(ws, 3, "salt")
    got = peers.one_run(server, HARNESSES[0], ws, 5, 3, 0, "salt", tmp_path)
    assert got["trouble"] == [] and got["code"] == 0
    assert 0 < got["first_any_s"] <= got["startup_s"] < got["second_s"] < 60
    assert got["gap_ms"] > 0 and set(got["gap_at_ms"]) == set()  # fewer than 10 steps
    assert got["cpu_s"] > 0 and got["peak_mb"] > 10
    assert got["bytes_at"][1] > 1000 and (ws / note_path("hd-0", 3)).exists()
    assert "[x] Write and read the notes" in (ws / "TASKS.md").read_text()

    peer = dict(got, harness="smol", gap_ms=got["gap_ms"] * 2, startup_s=got["startup_s"] / 2,
                trouble=[])
    failed = dict(got, harness="msa-tool", trouble=["exit code 1: boom"])
    chosen = [h for h in HARNESSES if h.key in ("hd", "smol", "msa-tool")]
    report = {"workloads": [(5, 3)], "harnesses": {h.key: h.label for h in chosen},
              "summary": peers_report.summarise([got, peer, failed], chosen, [(5, 3)]),
              "runs": 1, "quick": True, "full": False, "versions": {"smolagents": "1.26.0"},
              "machine": {"os": "Linux", "cpu": "CPU", "cores": 2, "python": "3.11"},
              "load_before": [1.0, 1.0, 1.0], "load_after": [2.0, 1.5, 1.0],
              "commit": "abc1234", "measured_at": "2026-12-02 02:00"}
    text = peers_report.render(report)
    smol = next(line for line in text.splitlines() if line.startswith("| smolagents"))
    assert "(2.00x)" in smol and "(0.50x)" in smol  # peer / Harness Desk, both ways
    assert "| mini-swe-agent (tool calls) | failed: exit code 1: boom" in text
    assert "load average 1, 1, 1 before, 2, 1.5, 1 after" in " ".join(text.split())

    readme = tmp_path / "README.md"
    original = (REPO / "README.md").read_text(encoding="utf-8")
    readme.write_text(original, encoding="utf-8")
    peers_report.put_in_readme(readme, text)
    page = readme.read_text(encoding="utf-8")
    table = original.split("<!-- bench:table -->")[1].split("<!-- /bench:table -->")[0]
    assert page.count(table) == 1 and page.count(peers_report.START) == 1
    performance = page.split("\n## Performance\n")[1].split("\n## ")[0]
    assert peers_report.HEADING in performance and smol in performance
    peers_report.put_in_readme(readme, "new table")
    again = readme.read_text(encoding="utf-8")
    assert "new table" in again and smol not in again and again.count(peers_report.HEADING) == 1


def test_a_missing_peer_version_is_replaced_by_the_nearest():
    from bench.peers_harnesses import nearest

    assert nearest(["2.5.0", "2.4.5", "2.4.7", "3.0.0", "1.9.9"], "2.4.6") == "2.4.7"
    assert nearest(["1.27.0", "1.25.2", "2.0.0"], "1.26.0") == "1.27.0"
    assert nearest([], "1.0") is None


def test_the_benchmark_explains_itself():
    done = subprocess.run([sys.executable, "-m", "bench.peers", "--help"], cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "--quick" in done.stdout and "--readme" in done.stdout


def test_every_harness_runs_with_bytecode_written_as_an_install_would(tmp_path, monkeypatch):
    """A shell's PYTHONDONTWRITEBYTECODE would make Harness Desk compile its modules on every
    run while the peers run from the bytecode pip wrote when it installed them."""
    from bench.peers_harnesses import launch

    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    for h in HARNESSES:
        spec = launch(h, tmp_path, "http://127.0.0.1:9/x/v1", 10, tmp_path)
        assert "PYTHONDONTWRITEBYTECODE" not in spec.env, h.key


def test_a_quiet_and_a_loaded_run_are_shown_one_after_the_other():
    entry = {"runs": 5, "failed": 0, "trouble": [], "gap_ms": 4.0, "gap_worst_ms": 5.0,
             "startup_s": 0.5, "startup_worst_s": 0.6, "second_s": 1.1, "first_any_s": 0.4,
             "cpu_s": 1.2, "peak_mb": 60, "wall_s": 2.0, "gap_at_ms": {10: 4.0},
             "bytes_at": {1: 5200, 10: 17800}}
    quiet = {"workloads": [(100, 10)], "harnesses": {"hd": "Harness Desk"},
             "summary": {"100x10": {"hd": entry}}, "runs": 5, "quick": False, "full": False,
             "versions": {}, "machine": {"os": "Linux", "cpu": "CPU", "cores": 2, "python": "3.11"},
             "load_before": [1.0, 1.0, 1.0], "load_after": [1.0, 1.0, 1.0], "commit": "abc1234",
             "measured_at": "2026-12-05 06:00"}
    text = peers_report.render_runs([quiet, dict(quiet, busy=2, load_after=[4.0, 3.0, 2.0])])
    assert text.count("| Harness Desk ") == 2 and text.count("Median of 5 runs") == 2
    first, second = text.split("With 2 busy-loop processes added (`--busy 2`):")
    assert "busy-loop" not in first and "0.50 s, worst 0.60; 1.10 s" in first
    assert "4, 3, 2 after with 2 busy-loop processes added by the benchmark" in " ".join(
        second.split())
