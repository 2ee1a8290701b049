"""Loopback HTTP servers that speak the Anthropic, OpenAI and Ollama wire formats, scripted per test."""

from __future__ import annotations

import copy
import hashlib
import json
import socket
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.engines import web_rules


@dataclass
class Reply:
    """One scripted answer: a JSON body, or an SSE stream that may break off."""

    status: int = 200
    body: Any = None                      # JSON body (dict/list) or raw str
    events: list[tuple[str | None, Any]] | None = None  # SSE (event name, data); data str or JSON
    headers: dict[str, str] = field(default_factory=dict)
    cut_after: int | None = None          # send only this many SSE events, then stop
    cut_mode: str = "reset"               # "reset": drop the connection mid-body; "eof": end cleanly
    delay_s: float = 0.0                  # wait before answering (for timeouts)
    pause_after: int | None = None        # after this many SSE events, fall silent for pause_s
    pause_s: float = 0.0
    claude: dict | None = None            # the Messages API reply the events were made from
    response: dict | None = None          # the Responses API response the events were made from


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]  # names lower-cased
    raw: bytes
    client_port: int = 0     # the same port twice: the client kept its connection

    @property
    def json(self) -> Any:
        return json.loads(self.raw) if self.raw else None


class FakeServer:
    """A server on 127.0.0.1 with a queue of replies per path; every request is recorded."""

    def __init__(self) -> None:
        self.requests: list[Recorded] = []
        self.refusals: list[Reply] = []  # requests the fake service refused as the real one would
        self.responses = ResponsesRules()
        self.pictures: list[tuple[str, int, int, int]] = []  # (type, width, height, bytes) sent
        self.queues: dict[str, deque[Reply]] = {}
        self.defaults: dict[str, Reply] = {}
        # path -> rule(request JSON, scripted reply) -> the reply to send: what a real server
        # enforces (a llama.cpp context size, say), applied to every request on that path.
        self.rules: dict[str, Any] = {}
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # chunked streams, and a way to cut one short

            def log_message(self, *args: Any) -> None:
                pass

            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                path = self.path.split("?", 1)[0]
                with server._lock:
                    server.requests.append(Recorded(
                        self.command, path, {k.lower(): v for k, v in self.headers.items()}, raw,
                        self.client_address[1]))
                    reply = server._next(path)
                    if path.endswith("/v1/messages") and self.command == "POST":
                        # What the Messages API enforces on thinking blocks (see claude_rules).
                        body = server.requests[-1].json
                        refused, signer = claude_check(body)
                        refused = refused or _web_refusal(web_rules.check_claude, body, raw)
                        if refused is not None:
                            server.refusals.append(refused)
                            server.queues.setdefault(path, deque()).appendleft(reply)
                            reply = refused
                        elif reply.claude is not None and signer is not None:
                            if _has_web(raw, reply.claude):  # served as the service would
                                reply = _remade(reply, web_rules.serve_claude(body, reply.claude))
                            reply = claude_bound(signer, reply)
                            if body.get("stream") is not True:  # not streamed: the JSON
                                reply = Reply(status=reply.status, body=reply.claude,
                                              headers=reply.headers, claude=reply.claude)
                    if path.endswith("/responses") and self.command == "POST":
                        body = server.requests[-1].json
                        refused = _web_refusal(web_rules.check_responses, body, raw)
                        if refused is not None:
                            server.refusals.append(refused)
                            server.queues.setdefault(path, deque()).appendleft(reply)
                            reply = refused
                        else:
                            if reply.response is not None and _has_web(raw, reply.response):
                                response = web_rules.serve_responses(body, reply.response)
                                reply = Reply(status=reply.status, events=oa_events(response),
                                              headers=reply.headers, response=response)
                            reply = server.responses.answer(body, reply)
                    refused = server._check_pictures(path, self.command, raw)
                    if refused is not None:
                        server.refusals.append(refused)
                        server.queues.setdefault(path, deque()).appendleft(reply)
                        reply = refused
                    elif path in server.rules:
                        reply = server.rules[path](server.requests[-1].json, reply)
                server._send(self, reply)

            do_GET = do_POST = do_DELETE = _handle

        self.httpd = _QuietServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()

    # -- scripting -----------------------------------------------------------------------

    @property
    def port(self) -> int:
        return self.httpd.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def push(self, path: str, *replies: Reply) -> None:
        with self._lock:
            self.queues.setdefault(path, deque()).extend(replies)

    def default(self, path: str, reply: Reply) -> None:
        """A reply given whenever the queue for `path` is empty."""
        self.defaults[path] = reply

    @property
    def flags(self) -> list[str]:
        """What the fake Responses API noticed was sent back out of order or without phase."""
        return self.responses.flags

    def bodies(self, path: str) -> list[Any]:
        return [r.json for r in self.requests if r.path == path]

    def _next(self, path: str) -> Reply:
        queue = self.queues.get(path)
        if queue:
            return queue.popleft()
        if path in self.defaults:
            return self.defaults[path]
        return Reply(status=500, body={"error": {"type": "api_error",
                                                 "message": f"no scripted reply for {path}"}})

    def _check_pictures(self, path: str, method: str, raw: bytes) -> Reply | None:
        """The service's refusal of the pictures in a request (see picture_rules), or None."""
        from tests.engines import picture_rules as rules

        checks = {"/v1/messages": rules.check_claude, "/responses": rules.check_responses,
                  "/chat/completions": rules.check_chat}
        check = next((c for end, c in checks.items() if path.endswith(end)), None)
        if method != "POST" or check is None:
            return None
        if b'image' not in raw and len(raw) <= 32 * 1024 * 1024:
            return None  # no picture: the SDK types are not even imported (they take seconds)
        try:
            self.pictures += check(json.loads(raw), len(raw))
        except rules.Refused as exc:
            if check is rules.check_claude:
                status = 413 if exc.code == "request_too_large" else 400
                kind = exc.code if status == 413 else "invalid_request_error"
                return claude_error(status, kind, str(exc))
            return oa_error(413 if exc.code == "request_too_large" else 400, str(exc),
                            code=exc.code)
        except ValueError:
            return None
        return None

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    # -- sending -------------------------------------------------------------------------

    @staticmethod
    def _send(handler: BaseHTTPRequestHandler, reply: Reply) -> None:
        if reply.delay_s:
            time.sleep(reply.delay_s)
        try:
            if reply.events is None:
                payload = (reply.body if isinstance(reply.body, str)
                           else json.dumps(reply.body if reply.body is not None else {})).encode()
                handler.send_response(reply.status)
                handler.send_header("Content-Type", "application/json")
                handler.send_header("Content-Length", str(len(payload)))
                for k, v in reply.headers.items():
                    handler.send_header(k, v)
                handler.end_headers()
                handler.wfile.write(payload)
                return
            handler.send_response(reply.status)
            handler.send_header("Content-Type", "text/event-stream")
            handler.send_header("Cache-Control", "no-cache")
            handler.send_header("Transfer-Encoding", "chunked")
            for k, v in reply.headers.items():
                handler.send_header(k, v)
            handler.end_headers()
            events = reply.events if reply.cut_after is None else reply.events[:reply.cut_after]
            for n, (name, data) in enumerate(events):
                if reply.pause_after is not None and n == reply.pause_after:
                    time.sleep(reply.pause_s)  # a server that holds the stream open, silent
                text = data if isinstance(data, str) else json.dumps(data)
                chunk = ((f"event: {name}\n" if name else "") + f"data: {text}\n\n").encode()
                handler.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                handler.wfile.flush()
            if reply.cut_after is not None and reply.cut_mode == "reset":
                # Drop the connection without the final chunk: an incomplete chunked body.
                handler.close_connection = True
                handler.connection.shutdown(socket.SHUT_RDWR)
                return
            handler.wfile.write(b"0\r\n\r\n")
            handler.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, OSError):
            handler.close_connection = True


def _has_web(raw: bytes, scripted: Any) -> bool:
    """Whether a request or its scripted reply has web tools or lookups (the SDK's types
    are loaded only then: they take a while)."""
    return b'"web_' in raw or b"server_tool_use" in raw or '"web_' in json.dumps(scripted)


def _web_refusal(check: Any, body: Any, raw: bytes) -> Reply | None:
    """The service's 400 for a request whose web parts it refuses (see web_rules)."""
    if not (b'"web_' in raw or b"server_tool_use" in raw or b'"url_citation"' in raw):
        return None
    try:
        check(body)
    except web_rules.Refused as exc:
        if check is web_rules.check_claude:
            return claude_error(400, "invalid_request_error", str(exc))
        return oa_error(400, str(exc), code="invalid_value")
    return None


def _remade(reply: Reply, message: dict) -> Reply:
    return Reply(status=reply.status, events=claude_events(message), headers=reply.headers,
                 cut_after=reply.cut_after, cut_mode=reply.cut_mode, delay_s=reply.delay_s,
                 claude=message)


class _QuietServer(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a connection the test cut on purpose is not news


def free_port() -> int:
    """A loopback port with nothing listening on it (for "connection refused")."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---- Anthropic Messages API -----------------------------------------------------------------

def text_block(text: str) -> dict:
    return {"type": "text", "text": text}


def tool_use(id_: str, name: str, arguments: dict) -> dict:
    return {"type": "tool_use", "id": id_, "name": name, "input": arguments}


def thinking_block(thought: str, signature: str = "sig-abc") -> dict:
    return {"type": "thinking", "thinking": thought, "signature": signature}


def claude_usage(input_tokens: int = 120, output_tokens: int = 30, cache_read: int = 0,
                 cache_write: int = 0) -> dict:
    return {"input_tokens": input_tokens, "output_tokens": output_tokens,
            "cache_read_input_tokens": cache_read, "cache_creation_input_tokens": cache_write}


def claude_message(blocks: list[dict], stop_reason: str | None = None, usage: dict | None = None,
                   model: str = "claude-sonnet-5-5") -> dict:
    if stop_reason is None:
        stop_reason = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
    return {"id": "msg_01Fake", "type": "message", "role": "assistant", "model": model,
            "content": blocks, "stop_reason": stop_reason, "stop_sequence": None,
            "usage": usage or claude_usage()}


def _pieces(text: str, n: int = 3) -> list[str]:
    size = max(1, -(-len(text) // n))
    return [text[i:i + size] for i in range(0, len(text), size)] or [""]


def claude_events(message: dict) -> list[tuple[str, dict]]:
    """The SSE events the Messages API sends for `message`, deltas split into pieces."""
    usage = message["usage"]
    start = dict(message, content=[], stop_reason=None,
                 usage=dict(usage, output_tokens=1))
    events: list[tuple[str, dict]] = [("message_start", {"type": "message_start", "message": start}),
                                      ("ping", {"type": "ping"})]
    for i, block in enumerate(message["content"]):
        if block["type"] == "text":
            # Citations come first, one citations_delta each, as the service streams them.
            opened, deltas = {"type": "text", "text": ""}, [
                {"type": "citations_delta", "citation": c} for c in block.get("citations") or []
            ] + [{"type": "text_delta", "text": p} for p in _pieces(block["text"])]
        elif block["type"] in ("tool_use", "server_tool_use"):
            opened = {**block, "input": {}}  # the input comes in deltas
            deltas = [{"type": "input_json_delta", "partial_json": p}
                      for p in _pieces(json.dumps(block["input"]), 4)]
        elif block["type"] in ("redacted_thinking", "web_search_tool_result",
                               "web_fetch_tool_result"):
            opened, deltas = dict(block), []  # whole in its start, no deltas
        else:
            opened = {"type": "thinking", "thinking": "", "signature": ""}
            deltas = [{"type": "thinking_delta", "thinking": block["thinking"]},
                      {"type": "signature_delta", "signature": block["signature"]}]
        events.append(("content_block_start",
                       {"type": "content_block_start", "index": i, "content_block": opened}))
        events += [("content_block_delta", {"type": "content_block_delta", "index": i, "delta": d})
                   for d in deltas]
        events.append(("content_block_stop", {"type": "content_block_stop", "index": i}))
    events.append(("message_delta", {"type": "message_delta",
                                     "delta": {"stop_reason": message["stop_reason"],
                                               "stop_sequence": None},
                                     "usage": {"output_tokens": usage["output_tokens"], **(
                                         {"server_tool_use": usage["server_tool_use"]}
                                         if usage.get("server_tool_use") else {})}}))
    events.append(("message_stop", {"type": "message_stop"}))
    return events


def claude_stream(blocks: list[dict], **kw: Any) -> Reply:
    message = claude_message(blocks, **kw)
    return Reply(events=claude_events(message), claude=message)


# What the Messages API enforces: a thinking block is bound to the model and to everything
# before it (system, tools, earlier messages, earlier blocks of its reply). The fake service
# signs each thinking block it sends with a hash of that prefix, and refuses a request whose
# thinking block no longer sits after the same prefix (moved, edited, or after a changed
# earlier message), with the service's 400.
BOUND_TO_ANOTHER = "The block is bound to a different conversation"


def _bare(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _bare(v) for k, v in value.items() if k != "cache_control"}
    if isinstance(value, list):
        return [_bare(v) for v in value]
    return value


def _content(message: dict) -> list[dict]:
    content = message.get("content")
    return [{"type": "text", "text": content}] if isinstance(content, str) else list(content or [])


class _Signer:
    """What a thinking block's signature is bound to, as a chain of hashes: the model, system
    and tools, then each message before the block's (its content without cache_control, in
    order), then the blocks before it in its own message and its thinking. Any change to
    any of them gives another signature; fed message by message, a request of n messages
    is checked in one pass (a hash of the whole prefix per block took 78 ms at 200)."""

    def __init__(self, request: dict):
        self._chain = hashlib.sha256(_canonical({
            "model": request.get("model"), "system": _bare(request.get("system")),
            "tools": _bare(request.get("tools"))}))

    def feed(self, message: dict) -> None:
        self._chain.update(hashlib.sha256(_canonical(_bare(message))).digest())

    def sign(self, before: list[dict], block: dict) -> str:
        h = self._chain.copy()
        h.update(_canonical({"before": _bare(before),
                             "thinking": block.get("thinking", block.get("data"))}))
        return "bound:" + h.hexdigest()[:32]


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, ensure_ascii=False).encode()


def claude_bound(signer: _Signer, reply: Reply) -> Reply:
    """The reply with each thinking block signed for the request `signer` was fed."""
    message = copy.deepcopy(reply.claude)
    blocks = message["content"]
    for i, block in enumerate(blocks):
        if block["type"] == "thinking":
            block["signature"] = signer.sign(blocks[:i], block)
        elif block["type"] == "redacted_thinking":
            block["data"] = signer.sign(blocks[:i], block)
    return Reply(status=reply.status, events=claude_events(message), headers=reply.headers,
                 cut_after=reply.cut_after, cut_mode=reply.cut_mode, delay_s=reply.delay_s,
                 claude=message)


def claude_check(request: Any) -> tuple[Reply | None, _Signer | None]:
    """The service's 400 when a thinking block in the request is not where it was written
    (else None), and a signer fed with the whole request, for signing the reply (None for a
    body that is not an object)."""
    if not isinstance(request, dict):
        return None, None
    signer = _Signer(request)
    for k, m in enumerate(request.get("messages", [])):
        m = dict(m, content=_content(m))
        if m.get("role") == "assistant":
            for j, block in enumerate(m["content"]):
                kind = block.get("type")
                if kind not in ("thinking", "redacted_thinking"):
                    continue
                sent = block.get("signature") if kind == "thinking" else block.get("data")
                if sent != signer.sign(m["content"][:j], block):
                    return claude_error(400, "invalid_request_error",
                                        f"messages.{k}.content.{j}: {BOUND_TO_ANOTHER}."), None
        signer.feed(m)
    return None, signer


def claude_error(status: int, kind: str, message: str, headers: dict | None = None,
                 error_code: str | None = None) -> Reply:
    """An error body; `error_code` goes in error.details, as the service names causes now."""
    error: dict[str, Any] = {"type": kind, "message": message}
    if error_code:
        error["details"] = {"error_code": error_code}
    return Reply(status=status, headers=headers or {}, body={
        "type": "error", "error": error, "request_id": "req_fake"})


def claude_models(ids: list[str]) -> Reply:
    data = [{"type": "model", "id": i, "display_name": i, "created_at": "2026-09-01T00:00:00Z"}
            for i in ids]
    return Reply(body={"data": data, "has_more": False,
                       "first_id": ids[0] if ids else None, "last_id": ids[-1] if ids else None})


# ---- OpenAI Responses API -------------------------------------------------------------------

def oa_usage(input_tokens: int = 200, output_tokens: int = 40, cached: int = 0,
             cache_write: int = 0, reasoning: int = 0) -> dict:
    """Responses usage. `output_tokens` includes the `reasoning` tokens, as OpenAI counts them."""
    return {"input_tokens": input_tokens,
            "input_tokens_details": {"cached_tokens": cached, "cache_write_tokens": cache_write},
            "output_tokens": output_tokens, "output_tokens_details": {"reasoning_tokens": reasoning},
            "total_tokens": input_tokens + output_tokens}


def oa_message(text: str, phase: str | None = None, item_id: str = "msg_fake") -> dict:
    """An assistant message; `phase` "commentary" marks narration between calls, as the
    newest models send it, "final_answer" the end."""
    message = {"type": "message", "id": item_id, "status": "completed", "role": "assistant",
               "content": [{"type": "output_text", "text": text, "annotations": []}]}
    if phase:
        message["phase"] = phase
    return message


def oa_reasoning(item_id: str, summary: list[str] = (), encrypted: str | None = "gAAAAenc==") -> dict:
    """A reasoning output item as sent with include=["reasoning.encrypted_content"] (or without
    its encrypted content when `encrypted` is None)."""
    return {"type": "reasoning", "id": item_id, "status": "completed",
            "summary": [{"type": "summary_text", "text": t} for t in summary],
            "encrypted_content": encrypted}


def oa_call(call_id: str, name: str, arguments: dict) -> dict:
    return {"type": "function_call", "id": f"fc_{call_id}", "call_id": call_id, "name": name,
            "arguments": json.dumps(arguments), "status": "completed"}


def oa_response(output: list[dict], usage: dict | None = None, status: str = "completed",
                model: str = "gpt-6.1-sol") -> dict:
    return {"id": "resp_fake", "object": "response", "created_at": 1764460800, "status": status,
            "model": model, "output": output, "usage": usage or oa_usage(), "error": None,
            "incomplete_details": None, "parallel_tool_calls": True, "tool_choice": "auto",
            "tools": [], "store": False}


def oa_events(response: dict) -> list[tuple[str, dict]]:
    """The SSE events the Responses API sends for `response`."""
    seq = iter(range(10_000))
    events: list[tuple[str, dict]] = []

    def add(kind: str, **data: Any) -> None:
        events.append((kind, {"type": kind, "sequence_number": next(seq), **data}))

    pending = dict(response, status="in_progress", output=[], usage=None)
    add("response.created", response=pending)
    add("response.in_progress", response=pending)
    for i, item in enumerate(response["output"]):
        if item["type"] == "web_search_call":
            add("response.output_item.added", output_index=i,
                item=dict(item, status="in_progress"))
            for stage in ("in_progress", "searching", "completed"):
                add(f"response.web_search_call.{stage}", output_index=i, item_id=item["id"])
        elif item["type"] == "message":
            text = item["content"][0]["text"]
            add("response.output_item.added", output_index=i,
                item=dict(item, status="in_progress", content=[]))
            add("response.content_part.added", output_index=i, content_index=0, item_id=item["id"],
                part={"type": "output_text", "text": "", "annotations": []})
            for piece in _pieces(text):
                add("response.output_text.delta", output_index=i, content_index=0,
                    item_id=item["id"], delta=piece, logprobs=[])
            for j, note in enumerate(item["content"][0].get("annotations") or []):
                add("response.output_text.annotation.added", output_index=i, content_index=0,
                    item_id=item["id"], annotation_index=j, annotation=note)
            add("response.output_text.done", output_index=i, content_index=0, item_id=item["id"],
                text=text, logprobs=[])
        elif item["type"] == "reasoning":
            # The encrypted content is complete only in output_item.done (as with the real API).
            add("response.output_item.added", output_index=i,
                item=dict(item, status="in_progress", summary=[], encrypted_content=None))
            for j, part in enumerate(item["summary"]):
                add("response.reasoning_summary_part.added", output_index=i, item_id=item["id"],
                    summary_index=j, part={"type": "summary_text", "text": ""})
                for piece in _pieces(part["text"]):
                    add("response.reasoning_summary_text.delta", output_index=i,
                        item_id=item["id"], summary_index=j, delta=piece)
                add("response.reasoning_summary_text.done", output_index=i, item_id=item["id"],
                    summary_index=j, text=part["text"])
                add("response.reasoning_summary_part.done", output_index=i, item_id=item["id"],
                    summary_index=j, part=part)
        else:
            add("response.output_item.added", output_index=i,
                item=dict(item, arguments="", status="in_progress"))
            for piece in _pieces(item["arguments"], 4):
                add("response.function_call_arguments.delta", output_index=i, item_id=item["id"],
                    delta=piece)
            add("response.function_call_arguments.done", output_index=i, item_id=item["id"],
                arguments=item["arguments"], name=item["name"])
        add("response.output_item.done", output_index=i, item=item)
    add("response.completed" if response["status"] == "completed" else "response.incomplete",
        response=response)
    return events


def oa_stream(output: list[dict], **kw: Any) -> Reply:
    response = oa_response(output, **kw)
    return Reply(events=oa_events(response), response=response)


class ResponsesRules:
    """What the Responses API asks of the items sent back, and how it reports cache reads.

    Output items must come back in the order returned, each assistant message with its
    `phase`; the service still answers otherwise, so a breach is noted in `flags` for the
    test to see. With `count_cache` on, usage reports what the service would: the prompt is
    rendered as tools, then the input items, then the top-level `instructions` (which the
    latest-model guide says newer models append after the input), and the cached tokens are
    the longest prefix shared with an earlier request of the same prompt_cache_key, at 4
    characters a token, from 1,024 tokens up.
    """

    MIN_CACHED = 1024

    def __init__(self) -> None:
        self.issued: list[list[dict]] = []  # each answered response's output items
        self.flags: list[str] = []
        self.count_cache = False
        self.seen: dict[str, list[str]] = {}
        self._index: dict[tuple[str, Any], tuple[int, int, dict]] = {}

    def answer(self, request: Any, reply: Reply) -> Reply:
        if isinstance(request, dict):
            self._check(request.get("input") or [])
            if self.count_cache and reply.response is not None:
                reply = self._with_cache_usage(request, reply)
        if reply.response is not None:
            self._issue(reply.response["output"])
        return reply

    def _origin(self, item: dict) -> tuple[int, int, dict] | None:
        """The output item (response, position, item) that `item` sends back, the first one
        issued where several match: looked up by id, call id or text (a scan of every
        response per input item took tens of ms at 100 steps, a wait the harness saw)."""
        kind = item.get("type")
        if kind == "reasoning":
            return self._index.get(("reasoning", item.get("id")))
        if kind == "function_call":
            return self._index.get(("function_call", item.get("call_id")))
        if item.get("role") != "assistant":
            return None
        text = item.get("content")
        if isinstance(text, list):
            text = "".join(p.get("text", "") for p in text)
        found = [f for f in (self._index.get(("message", item.get("id"))),
                             self._index.get(("text", text))) if f is not None]
        return min(found, key=lambda f: f[:2]) if found else None

    def _issue(self, output: list[dict]) -> None:
        r = len(self.issued)
        self.issued.append(output)
        for pos, out in enumerate(output):
            if out["type"] == "reasoning":
                keys = [("reasoning", out.get("id"))]
            elif out["type"] == "function_call":
                keys = [("function_call", out.get("call_id"))]
            elif out["type"] == "message":
                keys = [("message", out.get("id"))]
                if out.get("content"):
                    keys.append(("text", out["content"][0]["text"]))
            else:
                keys = []
            for key in keys:
                self._index.setdefault(key, (r, pos, out))

    def _check(self, items: list) -> None:
        placed: dict[int, list[tuple[int, int]]] = {}
        for index, item in enumerate(items):
            if not isinstance(item, dict):
                continue
            found = self._origin(item)
            if found is None:
                continue
            r, pos, out = found
            placed.setdefault(r, []).append((index, pos))
            if out["type"] == "message" and out.get("phase") and item.get("phase") != out["phase"]:
                self.flags.append(f"input[{index}]: an assistant message lost its phase "
                                  f"{out['phase']!r}")
        for r, spots in placed.items():
            indexes = [i for i, _ in spots]
            positions = [p for _, p in spots]
            if positions != sorted(positions) or indexes != list(range(indexes[0],
                                                                       indexes[-1] + 1)):
                self.flags.append(f"response {r}: output items sent back out of order "
                                  f"(positions {positions} at input {indexes})")

    def _with_cache_usage(self, request: dict, reply: Reply) -> Reply:
        parts = [json.dumps(request.get("tools") or [], sort_keys=True)]
        parts += [json.dumps(i, sort_keys=True) for i in request.get("input") or []]
        if request.get("instructions"):
            parts.append(json.dumps({"instructions": request["instructions"]}))
        rendered = "".join(parts)
        key = f"{request.get('model')}|{request.get('prompt_cache_key')}"
        shared = max((_common_prefix(rendered, earlier) for earlier in self.seen.get(key, [])),
                     default=0)
        self.seen.setdefault(key, []).append(rendered)
        cached = shared // 4 if shared // 4 >= self.MIN_CACHED else 0
        total = max(len(rendered) // 4, cached)
        response = copy.deepcopy(reply.response)
        response["usage"] = oa_usage(input_tokens=total, output_tokens=40, cached=cached,
                                     cache_write=total - cached)
        return Reply(status=reply.status, events=oa_events(response), headers=reply.headers,
                     cut_after=reply.cut_after, cut_mode=reply.cut_mode, delay_s=reply.delay_s,
                     response=response)


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def oa_error(status: int, message: str, kind: str = "invalid_request_error",
             code: str | None = None, headers: dict | None = None) -> Reply:
    return Reply(status=status, headers=headers or {},
                 body={"error": {"message": message, "type": kind, "param": None, "code": code}})


def oa_models(ids: list[str]) -> Reply:
    return Reply(body={"object": "list", "data": [
        {"id": i, "object": "model", "created": 1764460800, "owned_by": "system"} for i in ids]})


# ---- Chat Completions (Ollama, LM Studio) -----------------------------------------------------

def chat_events(text: str = "", calls: list[tuple[str, str, dict]] = (), model: str = "qwen3:8b",
                finish: str | None = None, usage: dict | None = None,
                pieces: int = 3) -> list[tuple[None, Any]]:
    """Chat Completions chunks: role, text pieces, tool-call pieces, finish, usage, [DONE]."""
    def chunk(delta: dict, finish_reason: str | None = None, **extra: Any) -> tuple[None, dict]:
        return (None, {"id": "chatcmpl-fake", "object": "chat.completion.chunk",
                       "created": 1764460800, "model": model, "system_fingerprint": "fp_ollama",
                       "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
                       **extra})

    out = [chunk({"role": "assistant", "content": ""})]
    out += [chunk({"content": p}) for p in (_pieces(text, pieces) if text else [])]
    for n, (call_id, name, args) in enumerate(calls):
        out.append(chunk({"tool_calls": [{"index": n, "id": call_id, "type": "function",
                                          "function": {"name": name, "arguments": ""}}]}))
        out += [chunk({"tool_calls": [{"index": n, "function": {"arguments": p}}]})
                for p in _pieces(json.dumps(args), 3)]
    out.append(chunk({}, finish or ("tool_calls" if calls else "stop")))
    u = usage or {"prompt_tokens": 90, "completion_tokens": 12, "total_tokens": 102}
    out.append((None, {"id": "chatcmpl-fake", "object": "chat.completion.chunk",
                       "created": 1764460800, "model": model, "choices": [], "usage": u}))
    out.append((None, "[DONE]"))
    return out


def chat_stream(text: str = "", calls: list[tuple[str, str, dict]] = (), **kw: Any) -> Reply:
    return Reply(events=chat_events(text, calls, **kw))


def ollama_show(capabilities: list[str], parameters: str = "") -> Reply:
    """Ollama's POST /api/show: `capabilities` and the Modelfile's `parameters` as text lines."""
    return Reply(body={"modelfile": "", "parameters": parameters, "template": "",
                       "details": {"family": "qwen3", "parameter_size": "8.2B"},
                       "model_info": {"general.architecture": "qwen3",
                                      "qwen3.context_length": 40960},
                       "capabilities": capabilities})


def ollama_ps(model: str, context_length: int) -> Reply:
    """Ollama's GET /api/ps: the loaded models, each with the context it was loaded with."""
    return Reply(body={"models": [{
        "name": model, "model": model, "size": 6654289920, "digest": "500a1f067a9f",
        "details": {"format": "gguf", "family": "qwen3", "parameter_size": "8.2B",
                    "quantization_level": "Q4_K_M"},
        "expires_at": "2026-12-01T20:00:00Z", "size_vram": 6654289920,
        "context_length": context_length}]})


# ---- llama.cpp's llama-server ------------------------------------------------------------------

def llama_props(supports_tools: bool, n_ctx: int, model: str = "SmolLM2-135M-Instruct") -> Reply:
    """llama-server's GET /props, in the shape of tools/server/server-context.cpp."""
    caps = {"supports_tools": supports_tools, "supports_tool_calls": supports_tools,
            "supports_system_role": True, "supports_parallel_tool_calls": supports_tools,
            "supports_preserve_reasoning": False, "supports_object_arguments": True,
            "supports_typed_content": False, "supports_string_content": True}
    return Reply(body={"default_generation_settings": {"params": {"n_predict": -1},
                                                        "n_ctx": n_ctx},
                       "total_slots": 1, "model_alias": model, "model_path": f"/m/{model}.gguf",
                       "modalities": {"vision": False, "audio": False}, "chat_template": "",
                       "chat_template_caps": caps, "bos_token": "<|im_start|>",
                       "eos_token": "<|im_end|>", "build_info": "b1-fake", "is_sleeping": False})


def llama_context_rule(n_ctx: int, chars_per_token: float = 3.0):
    """What llama-server enforces: a request whose prompt does not fit the slot's context is
    refused with exceed_context_size_error (HTTP 400), with the two numbers as fields.
    Tokens are counted here as the request's characters / chars_per_token."""
    def rule(request: Any, reply: Reply) -> Reply:
        sent = json.dumps({k: request.get(k) for k in ("messages", "tools")})
        tokens = int(len(sent) / chars_per_token)
        if tokens < n_ctx:
            return reply
        return Reply(status=400, body={"error": {
            "code": 400, "type": "exceed_context_size_error", "n_prompt_tokens": tokens,
            "n_ctx": n_ctx,
            "message": f"request ({tokens} tokens) exceeds the available context size "
                       f"({n_ctx} tokens), try increasing it"}})
    return rule


def chat_reply(message: dict, finish: str = "stop", model: str = "m") -> Reply:
    """A non-streamed Chat Completions answer (object "chat.completion")."""
    return Reply(body={"id": "chatcmpl-fake", "object": "chat.completion", "created": 1764460800,
                       "model": model, "choices": [{"index": 0, "finish_reason": finish,
                                                    "message": message}],
                       "usage": {"prompt_tokens": 30, "completion_tokens": 48,
                                 "total_tokens": 78}})


def llama_probe_rule(calls: bool):
    """How a llama-server whose template supports tools answers the Local engine's probe
    (one "ping" tool, tool_choice "required", not streamed): a model that can use tools calls
    it; SmolLM2-135M writes words until the cap (seen on the real server: the "required"
    grammar lets text come first and keeps the model from ending without a call, so it stops
    on "length"). Sampled (any temperature but 0), the small model sometimes starts a JSON
    object it never finishes, which llama.cpp's parser holds back as a partial call: no words,
    no call (what CI's real server answered once); this fake always answers so when sampled,
    so a probe must ask at temperature 0 to get a verdict. Every other request gets its
    scripted reply."""
    def rule(request: Any, reply: Reply) -> Reply:
        names = [t.get("function", {}).get("name") for t in (request or {}).get("tools") or []]
        if names != ["ping"] or (request or {}).get("stream"):
            return reply
        if calls:
            return chat_reply({"role": "assistant", "content": None, "tool_calls": [{
                "id": "call_ping", "type": "function",
                "function": {"name": "ping", "arguments": "{}"}}]}, finish="tool_calls")
        if request.get("temperature", 0.8) != 0:  # llama-server's default temperature is 0.8
            return chat_reply({"role": "assistant", "content": ""}, finish="length")
        return chat_reply({"role": "assistant", "content": "What command to use to ping the "
                           "internet in Python?\n\nUse the command pip install ping"},
                          finish="length")
    return rule


# ---- LM Studio's own REST API ----------------------------------------------------------------

def lm_studio_v0(model: str, capabilities: list[str], max_context: int,
                 loaded_context: int | None = None) -> Reply:
    """LM Studio's GET /api/v0/models/{model} (before 0.4)."""
    body = {"id": model, "object": "model", "type": "llm", "publisher": "lmstudio-community",
            "arch": "qwen2", "compatibility_type": "gguf", "quantization": "Q4_K_M",
            "state": "loaded" if loaded_context else "not-loaded",
            "max_context_length": max_context, "capabilities": capabilities}
    if loaded_context:
        body["loaded_context_length"] = loaded_context
    return Reply(body=body)
