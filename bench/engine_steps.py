"""Harness work per step in the engines, as a round grows: Claude, OpenAI (Responses), Local.

    python bench/engine_steps.py [--runs 5] [--steps 100] [--json FILE]

Each engine drives one round of `--steps` tool steps through its loopback server (the
vendors' wire formats, tests/engines/fake_servers.py, in a process of its own as a real
service is), with the official SDK as shipped:
every reply is one thinking/reasoning note, a sentence and a tool call; every tool result
about 1.5 KB of text, as a read_file gives. A step's harness work is the CPU time of the
harness's thread for the step (reading the reply's stream, building the next request from
the whole conversation, the SDK sending it); the wall time from the server's last byte of a
reply to the next request's arrival is shown beside it (less the time the other round's
steps took in between, see below).

On a shared machine a step's CPU time follows the load of the moment: within one round it
drifts by a third from one second to the next (2.4 ms for twenty steps, then 3.5 ms), so
step 100 against step 10 of the same round, a second apart, measured the machine as much
as the harness. So each round of `--steps` steps runs step for step beside rounds of 10
steps one after another (a fresh conversation every 10 steps, the same engine, its own
server), in the same thread, which of the two goes first alternating: step N of the long
round is held against step 10 of the short round that ran beside it, under the same load.
The figure at step N is the median over steps N-4..N (of each step's CPU, or of each step's
ratio to the step that ran beside it); runs rotate the engines; each ratio is taken within a
run and the median over the runs given. Beside it: step 10 against step 10
(both rounds at the same point: the row's own noise) and step 100 / step 10 of the same
round, as before. Target: within 1.3x, under 5 ms a step.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import REPO, arguments, hand_back, item, median

AT = (10, 30, 100)
SHORT = 10  # the step the others are held against
RATIO_TARGET = 1.3
TARGET_MS = 5.0
RESULT = "".join(f"- line {i}: the bakery opens at seven and the ovens need an hour to heat\n"
                 for i in range(22))  # about 1.5 KB, a read_file's answer
KEYS = {"ANTHROPIC_API_KEY": "sk-ant-api03-BenchKeyForLoopback0123456789abcdef",
        "OPENAI_API_KEY": "sk-proj-BenchKeyForLoopback0123456789abcdef"}


class Timed:
    """A loopback server in a process of its own that notes when each request arrived and
    each reply was sent (perf_counter: the system's monotonic clock, one for every process).

    Its own process, as a real service is, so its work on each request (parsing 200 KB of
    JSON, checking every thinking block's signature) is not done under the harness's
    interpreter lock or charged to the harness thread's CPU. The checks must also take
    about as long at step 100 as at step 10: while they hashed the whole prefix per block
    (78 ms a request at step 100, 2 ms at step 10), the harness thread's same work after
    the longer wait cost 0.5 ms more CPU (the same step-100 body, the same calls, colder
    caches), which read as harness cost growing with the round."""

    def __init__(self, kind: str, steps: int) -> None:
        import subprocess

        self._proc = subprocess.Popen(
            [sys.executable, "-c", "from bench.engine_steps import serve; serve()", kind,
             str(steps)], cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.url = self._proc.stdout.readline().strip()
        if not self.url:
            self._proc.kill()
            raise SystemExit("the loopback server did not start")
        self.arrived: list[float] = []
        self.sent: list[float] = []
        self.trouble: list[str] = []

    def close(self) -> None:
        """Stop the server and take what it noted."""
        try:
            out, _ = self._proc.communicate("close\n", timeout=30)
            if out.strip():
                noted = json.loads(out)
                self.arrived, self.sent, self.trouble = (noted["arrived"], noted["sent"],
                                                         noted["trouble"])
        finally:
            if self._proc.poll() is None:
                self._proc.kill()

    def gaps(self) -> list[float]:
        """Seconds from reply i sent to request i+1 arrived."""
        return [b - a for a, b in zip(self.sent, self.arrived[1:])]


def serve() -> None:
    """The server process (argv: engine kind, steps): the fake service with the replies of
    `steps` steps queued; its address on the first line out, and when a line comes in (or
    the input ends), what it noted as JSON."""
    kind, steps = sys.argv[1], int(sys.argv[2])
    from tests.engines import fake_servers as fake

    server = fake.FakeServer()
    arrived: list[float] = []
    sent: list[float] = []
    take, send = server._next, server._send

    def next_reply(path: str):
        if path.endswith(("/messages", "/responses", "/chat/completions")):
            arrived.append(time.perf_counter())
        return take(path)

    def send_reply(handler, reply):
        # No Nagle: else each small SSE write after the first waits for the client's
        # delayed ACK (40 ms), a wait of the loopback server's, not of the harness.
        handler.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        send(handler, reply)
        if reply.events is not None:
            sent.append(time.perf_counter())

    server._next, server._send = next_reply, send_reply
    if kind == "Local":
        server.default("/v1/models", fake.oa_models(["qwen3:8b"]))
        server.default("/api/show", fake.ollama_show(["completion", "tools"]))
        server.default("/api/ps", fake.ollama_ps("qwen3:8b", 131072))
    for step in range(steps):
        server.push(*_reply(kind, fake, step))
    print(server.url, flush=True)
    sys.stdin.readline()
    server.close()
    trouble = [str(r.body) for r in server.refusals] + list(server.flags)
    print(json.dumps({"arrived": arrived, "sent": sent, "trouble": trouble}), flush=True)


def _engine(kind: str, url: str):
    from app.core.engine.port import EngineConfig
    from app.engines.claude.engine import AnthropicEngine
    from app.engines.local.engine import LocalEngine
    from app.engines.openai.engine import OpenAIEngine

    if kind == "Claude":
        return AnthropicEngine(EngineConfig(model="claude-sonnet-5-5", base_url=url))
    if kind == "OpenAI":
        return OpenAIEngine(EngineConfig(model="gpt-6.2-sol", base_url=url + "/v1"))
    return LocalEngine(EngineConfig(model="qwen3:8b", base_url=url + "/v1"))


def _reply(kind: str, fake, step: int):
    call, args = f"call_{step:03d}", {"path": f"notes/part-{step}.md"}
    if kind == "Claude":
        return "/v1/messages", fake.claude_stream([
            fake.thinking_block(f"I should read part {step} next."),
            fake.text_block(f"Reading part {step}."), fake.tool_use(call, "read_file", args)])
    if kind == "OpenAI":
        return "/v1/responses", fake.oa_stream([
            fake.oa_reasoning(f"rs_{step:03d}", [f"Part {step} next."]),
            fake.oa_message(f"Reading part {step}.", phase="commentary", item_id=f"msg_{step:03d}"),
            fake.oa_call(call, "read_file", args)])
    return "/v1/chat/completions", fake.chat_stream(f"Reading part {step}.",
                                                    [(call, "read_file", args)])


class Round:
    """One round of engine `kind` against a server of its own with `steps` replies queued;
    `restart` steps a round starts afresh (a new conversation, the same engine), so one
    server serves several short rounds."""

    def __init__(self, kind: str, steps: int, restart: int | None = None) -> None:
        self.kind, self.steps, self.restart = kind, steps, restart or steps
        self.timed = Timed(kind, steps)
        self.engine = _engine(kind, self.timed.url)
        self.messages: list = []
        self.cpu: list[float] = []
        self.spans: list[tuple[float, float]] = []  # each step's start and end (perf_counter)

    def step(self) -> None:
        """The next step, its harness thread's CPU noted."""
        from app.core.engine.conversation import Message, ToolResult
        from app.core.run.reports import SYSTEM_PROMPT
        from app.core.tools.toolbox import TOOL_SPECS

        if len(self.cpu) % self.restart == 0:
            self.messages = [Message(role="user", text="Task: summarise the notes.\n" + RESULT)]
        messages = self.messages
        start = time.perf_counter()
        began = time.thread_time()
        turn = self.engine.turn(SYSTEM_PROMPT, TOOL_SPECS, messages)
        if not turn.tool_calls:
            raise SystemExit(f"{self.kind}: a step came back without its tool call "
                             f"({turn.text!r})")
        messages.append(Message(role="assistant", text=turn.text, tool_calls=turn.tool_calls,
                                record=turn.record))
        messages.append(Message(role="user", tool_results=[
            ToolResult(call_id=c.id, name=c.name, content=RESULT) for c in turn.tool_calls]))
        self.cpu.append(time.thread_time() - began)
        self.spans.append((start, time.perf_counter()))

    def gaps(self, beside: "Round") -> list[float]:
        """The gaps the server saw (seconds), once it is closed, checked, less the time the
        round `beside` took for its steps in between (a gap of this round's own)."""
        timed = self.timed
        if timed.trouble:
            raise SystemExit(f"the {self.kind} server refused or flagged a request: "
                             f"{timed.trouble[0]}")
        if len(timed.arrived) != self.steps:
            raise SystemExit(f"the {self.kind} server noted {len(timed.arrived)} of "
                             f"{self.steps} requests")
        return [gap - sum(max(0.0, min(end, b) - max(start, a)) for start, end in beside.spans)
                for (a, b), gap in zip(zip(timed.sent, timed.arrived[1:], strict=False),
                                       timed.gaps(), strict=True)]


def interleaved(kind: str, steps: int) -> tuple[Round, Round]:
    """A round of `steps` steps (long) and, step for step beside it in the same thread,
    rounds of SHORT steps one after the other (short): the long round's step N and the
    short round's step SHORT that runs beside it meet the same load, the same caches, the
    same garbage collector. Which of the two goes first alternates."""
    long, short = Round(kind, steps), Round(kind, steps, SHORT)
    try:
        for i in range(steps):
            for r in ((long, short) if i % 2 else (short, long)):
                r.step()
    finally:
        long.timed.close()
        short.timed.close()
    return long, short


def window(per_step: list[float], step: int) -> float:
    """Median (ms) over steps step-4..step of figures indexed by step from 1."""
    return median(per_step[max(0, step - 5):step]) * 1000


def main() -> int:
    parser = arguments(__doc__, runs=5)
    parser.add_argument("--steps", type=int, default=100)
    args = parser.parse_args()
    os.environ.setdefault("HARNESS_DESK_CONFIG_DIR", tempfile.mkdtemp(prefix="hd-bench-config-"))
    os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.null.Keyring"
    os.environ.update(KEYS)
    points = [s for s in AT if s <= args.steps and s % SHORT == 0]
    kinds = ["Claude", "OpenAI", "Local"]
    runs: dict[str, list[dict]] = {k: [] for k in kinds}
    loads = [os.getloadavg()[0]]
    for run in range(args.runs):
        for kind in kinds[run % 3:] + kinds[:run % 3]:  # rotated
            long, short = interleaved(kind, args.steps)
            gaps = [0.0] + long.gaps(short)  # gaps[k]: before the request of step k+1
            beside = [0.0] + short.gaps(long)
            paired = [a / b for a, b in zip(long.cpu, short.cpu, strict=True)]  # the two steps side by side
            runs[kind].append({"cpu": {s: window(long.cpu, s) for s in points},
                               "paired": {s: window(paired, s) / 1000 for s in points},
                               "short": {s: window(short.cpu, s) for s in points},
                               "gap": {s: window(gaps, s) for s in points},
                               "short_gap": {s: window(beside, s) for s in points}})
        loads.append(os.getloadavg()[0])
    print(f"load average {min(loads):.2f}-{max(loads):.2f} during the runs, {os.cpu_count()} "
          f"processors, {args.runs} runs of {args.steps} steps; CPU of the harness thread per "
          "step, and wall time from a reply's last byte to the next request")
    items = []
    first, last = points[0], points[-1]
    for kind in kinds:
        got = runs[kind]

        def over(part: str, s: int, got: list[dict] = got) -> float:
            return median([r[part][s] for r in got])

        def ratio(top: str, bottom: str, s: int, under: int, got: list[dict] = got) -> float:
            return median([r[top][s] / r[bottom][under] for r in got])

        cpu = {s: over("cpu", s) for s in points}
        gap = {s: over("gap", s) for s in points}
        beside = over("paired", last)  # the row: step N / step 10 beside it
        same = over("paired", first)    # both at step 10: the row's own noise
        within = ratio("cpu", "cpu", last, first)   # step N / step 10 of the same round
        gap_ratio = ratio("gap", "short_gap", last, last)
        gap_within = ratio("gap", "gap", last, first)
        print(f"  {kind:7} CPU " + "".join(f"  step {s}: {cpu[s]:6.2f} ms" for s in points)
              + f"   step {last} / step {first} beside it: {beside:.2f}x (target <= "
              f"{RATIO_TARGET}x); step {first} / step {first}: {same:.2f}x; step {last} / "
              f"step {first} of the same round: {within:.2f}x")
        print(f"  {'':7} wall" + "".join(f" step {s}: {gap[s]:6.2f} ms " for s in points)
              + f"   step {last} / step {first} beside it: {gap_ratio:.2f}x; of the same "
              f"round: {gap_within:.2f}x")
        key = kind.lower()
        items += [item(f"engine_step_{key}_{s}", f"{kind}: harness CPU per step at step {s}",
                       f"<= {TARGET_MS:g} ms", round(cpu[s], 2), "ms", cpu[s] <= TARGET_MS,
                       f"reply's last byte to the next request: {gap[s]:.2f} ms",
                       wall_ms=gap[s]) for s in points]
        items.append(item(
            f"engine_step_{key}_ratio", f"{kind}: step {last} / step {first}",
            f"<= {RATIO_TARGET}x", round(beside, 2), "x", beside <= RATIO_TARGET,
            f"step {first} beside step {first}: {same:.2f}x (the row's noise); step {last} / "
            f"step {first} of one round: {within:.2f}x; wall time "
            f"{gap_ratio:.2f}x; load {min(loads):.1f}-{max(loads):.1f}",
            noise_ratio=same, within_round_ratio=within, wall_ratio=gap_ratio, load=loads))
    return hand_back(args.json, items)


if __name__ == "__main__":
    sys.exit(main())
