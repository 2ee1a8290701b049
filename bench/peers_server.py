"""The loopback Chat Completions server of `bench.peers`: one server, each harness answered in
the shape it expects, every request timed.

Each harness is served under its own prefix (`/hd/v1`, `/msa-tool/v1`, `/msa-text/v1`,
`/smol/v1`, `/agents/v1`). A run is one `Session`: `steps` tool steps, then the harness's own
way of ending. Step k (from 1) writes a note of about 1 KB when k is odd, and reads one of the
workspace's `peers-in/` files (1 KB, with a line only the file holds) when k is even:

- Harness Desk (`hd`): tool calls write_file / read_file, then complete_task, streamed (SSE)
  as llama.cpp streams when asked for `stream: true`;
- mini-swe-agent with tool calls (`msa-tool`): the `bash` tool with `printf ... > file` or
  `cat file`, then `echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT` (its submit command);
- mini-swe-agent in text mode (`msa-text`): the same commands in a ```mswea_bash_command block;
- smolagents' ToolCallingAgent (`smol`): its driver's write_file / read_file tools, then
  final_answer;
- openai-agents (`agents`): its driver's write_file / read_file function tools, then a reply
  with words and no tool call (its final output).

What the service would enforce is checked, and a breach ends the session with a 400 (and a
note in `Session.trouble`): the tool to call must be offered, every assistant tool call must
be answered by a tool message before the next request (OpenAI's rule), and the request after
a read must carry the line only that file holds (so the harness really read it). Replies are
sent in ONE write with TCP_NODELAY: several small writes would make a client that waits for
the whole reply sit out the peer's delayed ACK (40 ms) on every step.
"""

from __future__ import annotations

import hashlib
import json
import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

MODES = ("hd", "msa-tool", "msa-text", "smol", "agents")
MODEL = "bench-model"
NOTE_LINES = 16          # a note of ~1 KB: 16 lines of ~64 characters
READS_DIR = "peers-in"   # the files the read steps read (made by make_reads)
OUT_DIR = "peers-out"
WORDS = ("the bakery opens at seven and the ovens need an hour to heat before the first "
         "loaves of sourdough rye and spelt go in").split()
SUBMIT = "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"


def note_lines(tag: str, k: int) -> list[str]:
    """The lines step k writes (about 1 KB), plain words: safe in a shell's single quotes."""
    return [f"note {tag} {k} line {i}: " + " ".join(WORDS[(k + i + j) % len(WORDS)]
                                                     for j in range(9)) for i in range(NOTE_LINES)]


def note_path(tag: str, k: int) -> str:
    return f"{OUT_DIR}/{tag}/note-{k:03d}.md"


def read_path(k: int) -> str:
    return f"{READS_DIR}/read-{k // 2:03d}.md"


def secret(k: int, salt: str) -> str:
    """The line only read_path(k) holds."""
    return "check " + hashlib.sha256(f"{salt}:{k}".encode()).hexdigest()[:20]


def make_reads(root: Path, steps: int, salt: str) -> None:
    """The files the read steps of a round of `steps` steps read, ~1 KB each."""
    (root / READS_DIR).mkdir(parents=True, exist_ok=True)
    for k in range(2, steps + 1, 2):
        lines = note_lines("in", k)
        lines.insert(NOTE_LINES // 2, secret(k, salt))
        (root / read_path(k)).write_text("\n".join(lines) + "\n", encoding="utf-8")


@dataclass
class Action:
    """What step k asks of a harness: "write" (path, text), "read" (path) or "finish"."""

    kind: str
    path: str = ""
    text: str = ""


def action(tag: str, k: int, steps: int) -> Action:
    if k > steps:
        return Action("finish")
    if k % 2:
        return Action("write", note_path(tag, k), "\n".join(note_lines(tag, k)) + "\n")
    return Action("read", read_path(k))


def shell(act: Action) -> str:
    """The bash command mini-swe-agent runs for an action."""
    if act.kind == "write":
        quoted = " ".join(f"'{line}'" for line in act.text.splitlines())
        folder = act.path.rsplit("/", 1)[0]
        return f"mkdir -p {folder} && printf '%s\\n' {quoted} > {act.path}"
    if act.kind == "read":
        return f"cat {act.path}"
    return f"echo {SUBMIT}"


def turn(mode: str, tag: str, k: int, steps: int) -> tuple[str, list[tuple[str, str, dict]]]:
    """(words, tool calls) of reply k in `mode`'s shape."""
    act, call = action(tag, k, steps), f"call_{k:03d}"
    words = {"write": f"Writing note {k}.", "read": f"Reading file {k}.",
             "finish": "All notes are written and read; finishing."}[act.kind]
    if mode == "msa-text":
        return f"THOUGHT: {words}\n\n```mswea_bash_command\n{shell(act)}\n```", []
    if mode == "msa-tool":
        return words, [(call, "bash", {"command": shell(act)})]
    if act.kind == "write":
        return words, [(call, "write_file", {"path": act.path, "content": act.text})]
    if act.kind == "read":
        return words, [(call, "read_file", {"path": act.path})]
    if mode == "agents":
        return words, []
    if mode == "hd":
        return words, [(call, "complete_task", {"summary": f"Wrote and read {steps} notes.",
                                               "evidence": [note_path(tag, 1)]})]
    return words, [(call, "final_answer", {"answer": f"Wrote and read {steps} notes."})]


@dataclass
class Session:
    """One harness's run: its script, and what its requests were."""

    mode: str
    steps: int
    tag: str
    salt: str
    arrived: list[float] = field(default_factory=list)  # each chat request fully read
    sent: list[float | None] = field(default_factory=list)  # each reply's one write began
    sizes: list[int] = field(default_factory=list)      # each chat request's body, bytes
    first_any: float | None = None                      # the first request of any kind
    ports: set[int] = field(default_factory=set)        # the client's ports: its connections
    probes: int = 0                                     # the Local engine's probes, answered
    trouble: list[str] = field(default_factory=list)
    finished: bool = False                              # the finish was sent

    def gaps(self) -> list[float]:
        """Seconds from reply k's last byte to request k+1, for k = 1..steps."""
        return [b - a for a, b in zip(self.sent, self.arrived[1:]) if a is not None]


def check(session: Session, body: dict, k: int) -> str | None:
    """What the real service (or the check that the work was done) refuses in request k."""
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return "messages: the request has no messages"
    calls = turn(session.mode, session.tag, k, session.steps)[1]
    if calls:
        name = calls[0][1]
        offered = [t.get("function", {}).get("name") for t in body.get("tools") or []]
        if name not in offered:
            return f"tools: {name} is not among the tools offered ({offered})"
    owed: set[str] = set()
    for m in messages:
        if owed and m.get("role") != "tool":
            return ("messages: an assistant message with 'tool_calls' must be followed by tool "
                    f"messages responding to each 'tool_call_id' ({sorted(owed)} unanswered)")
        if m.get("role") == "assistant":
            owed = {c.get("id") for c in m.get("tool_calls") or []}
        elif m.get("role") == "tool":
            owed.discard(m.get("tool_call_id"))
    if owed:
        return f"messages: the tool calls {sorted(owed)} were sent back without their results"
    if k > 1 and action(session.tag, k - 1, session.steps).kind == "read":
        if secret(k - 1, session.salt) not in json.dumps(messages, ensure_ascii=False):
            return f"step {k - 1}: what {read_path(k - 1)} holds did not come back"
    return None


def chat_json(text: str, calls: list[tuple[str, str, dict]]) -> dict:
    """A non-streamed Chat Completions reply."""
    message: dict[str, Any] = {"role": "assistant", "content": text or None}
    if calls:
        message["tool_calls"] = [{"id": i, "type": "function",
                                  "function": {"name": n, "arguments": json.dumps(a)}}
                                 for i, n, a in calls]
    return {"id": "chatcmpl-bench", "object": "chat.completion", "created": 1764460800,
            "model": MODEL, "system_fingerprint": "fp_bench",
            "choices": [{"index": 0, "message": message, "logprobs": None,
                         "finish_reason": "tool_calls" if calls else "stop"}],
            "usage": {"prompt_tokens": 900, "completion_tokens": 60, "total_tokens": 960}}


def chat_sse(text: str, calls: list[tuple[str, str, dict]]) -> bytes:
    """The same reply as Chat Completions chunks (tests/engines/fake_servers.chat_events)."""
    from tests.engines.fake_servers import chat_events

    events = chat_events(text, calls, model=MODEL,
                         usage={"prompt_tokens": 900, "completion_tokens": 60,
                                "total_tokens": 960})
    return b"".join(f"data: {d if isinstance(d, str) else json.dumps(d)}\n\n".encode()
                    for _, d in events)


def response(status: int, body: bytes, kind: str = "application/json", chunked: bool = False
             ) -> bytes:
    """A whole HTTP/1.1 response, to be sent in one write."""
    reason = {200: "OK", 400: "Bad Request", 404: "Not Found", 409: "Conflict"}.get(status, "")
    head = [f"HTTP/1.1 {status} {reason}", f"Content-Type: {kind}", "Connection: keep-alive"]
    if chunked:
        head.append("Transfer-Encoding: chunked")
        body = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    else:
        head.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


def _error(status: int, message: str) -> bytes:
    return response(status, json.dumps({"error": {"message": message,
                                                  "type": "invalid_request_error",
                                                  "param": None, "code": None}}).encode())


class PeerServer:
    """The server on 127.0.0.1; begin() a session before each harness's run, end() after."""

    def __init__(self) -> None:
        self.session: Session | None = None
        self.lock = threading.Lock()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def setup(self) -> None:
                super().setup()
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

            def log_message(self, *args: Any) -> None:
                pass

            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                now = time.perf_counter()
                reply, session, index = owner.answer(self.command, self.path.split("?", 1)[0],
                                                     raw, now)
                if session is not None:
                    session.ports.add(self.client_address[1])
                if index is not None:  # the whole reply goes to the kernel in the next call
                    session.sent[index] = time.perf_counter()
                self.wfile.write(reply)  # one write: headers and the whole body

            do_GET = do_POST = _handle

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.httpd.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def base_url(self, mode: str) -> str:
        return f"{self.url}/{mode}/v1"

    def begin(self, session: Session) -> None:
        with self.lock:
            self.session = session

    def end(self) -> Session:
        with self.lock:
            session, self.session = self.session, None
        return session

    def answer(self, method: str, path: str, raw: bytes, now: float
               ) -> tuple[bytes, Session | None, int | None]:
        """The bytes that answer one request, and the session and index under which the
        time its write ends is to be noted (for a model request)."""
        with self.lock:
            s = self.session
            if s is None or not path.startswith(f"/{s.mode}/"):
                return _error(409, f"no run of this harness is going ({path})"), None, None
            if s.first_any is None:
                s.first_any = now
            rest = path[len(s.mode) + 1:]
            if rest == "/v1/models":
                return response(200, json.dumps({"object": "list", "data": [
                    {"id": MODEL, "object": "model", "created": 1764460800,
                     "owned_by": "bench"}]}).encode()), None, None
            if rest == "/props":  # what llama.cpp's llama-server says of its model
                from tests.engines.fake_servers import llama_props

                return response(200, json.dumps(llama_props(True, 262144, MODEL).body).encode()), \
                    None, None
            if rest != "/v1/chat/completions" or method != "POST":
                return _error(404, f"unknown endpoint {method} {rest}"), None, None
            if s.finished:
                s.trouble.append("a request came after the harness was told to finish")
                return _error(400, "the run is over"), None, None
            try:
                body = json.loads(raw)
            except ValueError:
                body = None
            tools = [t.get("function", {}).get("name") for t in (body or {}).get("tools") or []]
            if s.mode == "hd" and tools == ["ping"]:  # the Local engine's probe for tool use
                s.probes += 1
                return response(200, json.dumps(chat_json("", [("call_ping", "ping", {})])
                                                ).encode()), None, None
            s.arrived.append(now)
            s.sent.append(None)
            s.sizes.append(len(raw))
            k = len(s.arrived)
            if body is None:
                s.trouble.append(f"step {k}: the request is not JSON")
                return _error(400, "We could not parse the JSON body of your request."), s, k - 1
            refused = check(s, body, k)
            if refused is not None:
                s.trouble.append(f"step {k}: {refused}")
                s.finished = True
                return _error(400, refused), s, k - 1
            text, calls = turn(s.mode, s.tag, k, s.steps)
            s.finished = k > s.steps
        if body.get("stream"):
            return response(200, chat_sse(text, calls), "text/event-stream", chunked=True), s, k - 1
        return response(200, json.dumps(chat_json(text, calls)).encode()), s, k - 1

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
