"""What the Claude engine sends: the Messages API request, each message's part built once.

A request is the whole conversation, every step. Each message's blocks are built once
(WireCache), with their digests for the replay prefixes (claude_replay.Chain) and their
JSON as the SDK serializes it; a request joins those (`Body`), so a step serializes only
what is new, and the tools and system prompt (the same every step) are made once per
engine. Cache breakpoints go on the last tool, on the system prompt and on the last block
of the last message: three, under the limit of four.
"""

from __future__ import annotations

import re
from typing import Any

from app.core.engine.conversation import Message, ToolResult, ToolSpec
from app.core.tools.pictures import fitted, parts_for
from app.core.web.types import WebAccess
from app.engines.claude.replay import Chain, block_digest, replay_blocks
from app.engines.claude.send import messages_body
from app.engines.claude.web import web_tools
from app.engines.raw_stream import Body, json_list
from app.engines.wire import stable_tools
from app.engines.wire_cache import Prefix, WireCache, calls_key, results_key

DEFAULT_MAX_TOKENS = 32_000
# Older models refuse a max_tokens above their own output limit.
_OUTPUT_LIMITS = {"claude-3-haiku": 4096, "claude-3-opus": 4096, "claude-3-5-haiku": 8192,
                  "claude-3-5-sonnet": 8192}
# Claude scales down any picture whose long side passes 1568 px (its vision guide): sending
# it smaller saves the upload and the wait, at no cost to what the model sees.
CLAUDE_PICTURE_SIDE = 1568
EPHEMERAL = {"type": "ephemeral"}
_EPHEMERAL_JSON = b',"cache_control":{"type":"ephemeral"}}'
# Claude 5 models and later think adaptively by default, and on the newest of them the
# text between tool calls arrives as thinking; asking for it summarized shows it live.
SUMMARIZED_THINKING = {"type": "adaptive", "display": "summarized"}
_GENERATION = re.compile(r"^claude-[a-z]+-(\d+)(?:-|$)")
# Block types that take a cache breakpoint (the server tools' blocks take one too).
_MARKED = ("text", "tool_result", "tool_use", "server_tool_use", "web_search_tool_result",
           "web_fetch_tool_result")


class ClaudeRequests:
    """The request-building half of AnthropicEngine (a mixin: it uses the engine's model,
    config and options)."""

    model: str
    config: Any
    web: WebAccess | None
    _wire: WireCache
    _sent: tuple[list[dict[str, Any]] | None, str]
    _fixed: tuple[tuple[Any, ...], Any] | None = None  # see _stable
    _body_kept: Body | None = None
    # The last request's turns, their entries and JSON (see _messages), and its messages:
    # empty lists to begin with (AnthropicEngine.__init__).
    _turns: list["_Turn"]
    _out: list[dict[str, Any]]
    _encoded: list[bytes]
    _prefix: Prefix

    @property
    def _body(self) -> Body:
        if self._body_kept is None:
            self._body_kept = messages_body()
        return self._body_kept

    def build_request(self, system: str, tools: list[ToolSpec], messages: list[Message],
                      max_output_tokens: int | None = None) -> dict[str, Any]:
        """The Messages API request body (without `stream`), cache breakpoints included.
        Its parts are shared with later requests: read it, do not change it."""
        system_blocks, tool_defs, head = self._stable(system, tools)
        max_tokens = int(self.config.options.get("max_tokens", self._max_tokens()))
        cap = max_output_tokens
        request: dict[str, Any] = {
            "model": self.model,
            "max_tokens": min(max_tokens, cap) if cap else max_tokens,
            "messages": self._messages(messages, head),
        }
        if system_blocks:
            request["system"] = system_blocks
        if tool_defs:
            request["tools"] = tool_defs
        if self.summarizes_thinking():
            request["thinking"] = dict(SUMMARIZED_THINKING)
        return request

    def encoded(self, request: dict[str, Any]) -> bytes:
        """The bytes the SDK would send for `request` (with stream: true)."""
        return self._body.encode(request)

    def _stable(self, system: str, tools: list[ToolSpec]) -> tuple[list[Any], list[Any], Any]:
        """The system blocks and tool definitions (breakpoints on their last ones) and the
        replay chain's head: made again only when the model, system prompt or tools change."""
        web = self.web
        key = (self.model, system, tuple((t.name, t.description, t.parameters) for t in tools),
               web.model_dump_json() if web is not None else None)
        if self._fixed is None or self._fixed[0] != key:
            tool_defs: list[dict[str, Any]] = [{"name": t.name, "description": t.description,
                                      "input_schema": t.parameters} for t in stable_tools(tools)]
            # The web tools only on a task that may look things up, after ours, so the last
            # of them carries the tools' breakpoint (see claude_web).
            tool_defs += web_tools(web) if web is not None else []
            system_blocks: list[dict[str, Any]] = (
                [{"type": "text", "text": system}] if system else [])
            head = Chain(self.model, system_blocks, tool_defs)
            if system_blocks:
                system_blocks[-1]["cache_control"] = EPHEMERAL
            if tool_defs:
                tool_defs[-1]["cache_control"] = EPHEMERAL
            body = self._body
            body.keep("system", system_blocks, [body.dumps(system_blocks)])
            body.keep("tools", tool_defs, [body.dumps(tool_defs)])
            self._fixed = (key, (system_blocks, tool_defs, head))
        return self._fixed[1]

    def summarizes_thinking(self) -> bool:
        """Whether this model takes `thinking.display` (Claude 5 and later, adaptive thinking)."""
        if "thinking" in self.config.options:
            return bool(self.config.options["thinking"])
        found = _GENERATION.match(self.model)
        return found is not None and int(found.group(1)) >= 5

    def _max_tokens(self) -> int:
        for family, limit in _OUTPUT_LIMITS.items():
            if self.model.startswith(family):
                return limit
        return DEFAULT_MAX_TOKENS

    def _messages(self, messages: list[Message], head: Chain) -> list[dict[str, Any]]:
        """The request's messages: each message's blocks (their digests and JSON) built once
        (WireCache), merged into the API's alternating turns, the replay prefix of each
        reply found in one pass (Chain); the turns of the last request up to its last
        message still unchanged taken as they were (Prefix), that turn made again."""
        sees = self.sees_pictures()
        shown, held = self._prefix.shown_and_held(messages, lambda _: (sees, self.model, head))
        t = self._prefix.states[held - 1] if held else -1  # the turn of the last one held
        if t < 0:
            start, turns, chain, fed = 0, [], head.copy(), 0
        else:
            again = self._turns[t]
            start, turns, chain, fed = again.start, self._turns[:t], again.chain.copy(), again.fed
        rows, wire = [], self._wire
        for i in range(start, len(messages)):
            m, before = messages[i], None
            if m.role == "user":
                key: tuple[Any, ...] = (sees, m.text, results_key(m.tool_results, shown))
                blocks, digs, texts = wire.get(  # wire.get calls the builder at once
                    m, key, lambda: self._made(self._user_blocks(m, shown)))  # noqa: B023
            else:
                # An assistant reply goes back exactly as it came, when its prefix still
                # matches (see claude_replay); replies merged into one turn never do.
                prefix = ""
                if not (turns and turns[-1].role == "assistant"):
                    before = (chain.copy(), fed)
                    for turn in turns[fed:]:
                        chain.feed(turn.role, turn.digests)
                    fed, prefix = len(turns), chain.hexdigest()
                key = (self.model, prefix, m.text, m.record, calls_key(m.tool_calls))
                blocks, digs, texts = wire.get(
                    m, key, lambda: self._made(self._replied(m, prefix)))  # noqa: B023
            if not blocks:
                pass  # the API refuses empty content
            elif turns and turns[-1].role == m.role:  # roles alternate: merged
                turns[-1] = turns[-1].merged(blocks, digs, texts)
            else:
                at, at_fed = before if before is not None else (chain.copy(), fed)
                turns.append(_Turn(i, m.role, blocks, digs, texts, at, at_fed))
            rows.append((m, len(turns) - 1))
        self._prefix.keep(start, rows, shown)
        wire.prune(messages)
        for turn in turns[fed:]:
            chain.feed(turn.role, turn.digests)
        kept = max(t, 0)
        out = self._out[:kept] + [turn.entry for turn in turns[kept:]]
        encoded = self._encoded[:kept] + [turn.json for turn in turns[kept:]]
        self._turns, self._out, self._encoded = turns, out, encoded
        out, encoded = list(out), list(encoded)
        self._sent = (out, chain.hexdigest())  # the prefix of this request's reply
        if out and out[-1]["content"][-1]["type"] in _MARKED:
            # The breakpoint on a copy: the block itself is kept for the next steps without it.
            last = turns[-1]
            out[-1] = {"role": last.role, "content": last.content[:-1] + [
                {**last.content[-1], "cache_control": EPHEMERAL}]}
            encoded[-1] = _entry_json(last.role, last.jsons[:-1] + [
                last.jsons[-1][:-1] + _EPHEMERAL_JSON])
        self._body.keep("messages", out, json_list(encoded))
        return out

    def _made(self, blocks: list[dict[str, Any]]
              ) -> tuple[list[dict[str, Any]], list[bytes], list[bytes]]:
        """A message's blocks with their digests and their JSON (none carries cache_control:
        the last block's is added per request, as the last key, so its JSON ends the same)."""
        assert not any("cache_control" in b for b in blocks)
        dumps = self._body.dumps
        return blocks, [block_digest(b) for b in blocks], [dumps(b) for b in blocks]

    def _replied(self, m: Message, prefix: str) -> list[dict[str, Any]]:
        blocks = replay_blocks(m, self.model, prefix)
        return self._assistant_blocks(m) if blocks is None else blocks

    def _user_blocks(self, m: Message, shown: set[tuple[int, int]]) -> list[dict[str, Any]]:
        # Tool results first: the API wants them at the start of the user turn after tool calls.
        blocks: list[dict[str, Any]] = [{"type": "tool_result", "tool_use_id": r.call_id,
                               "content": self._result_content(r, shown), "is_error": r.is_error}
                              for r in m.tool_results]
        if m.text:
            blocks.append({"type": "text", "text": m.text})
        return blocks

    def _result_content(self, r: ToolResult,
                        shown: set[tuple[int, int]]) -> str | list[dict[str, Any]]:
        """A tool result's content: its text, or a text block and an image block per picture
        (ToolResultBlockParam's content takes text and image blocks)."""
        text, sent = parts_for(r, self.sees_pictures(), shown)
        if not sent:
            return text or "(no output)"
        blocks: list[dict[str, Any]] = [{"type": "text", "text": text}]
        for picture in sent:
            fit = fitted(picture, CLAUDE_PICTURE_SIDE)
            blocks.append({"type": "image", "source": {
                "type": "base64", "media_type": fit.media_type, "data": fit.data}})
        return blocks

    def sees_pictures(self) -> bool:
        """Every Claude model since Claude 3 reads pictures; the `vision` option can say no."""
        return bool(self.config.options.get("vision", True))

    @staticmethod
    def _assistant_blocks(m: Message) -> list[dict[str, Any]]:
        """A reply without a record (another engine's, or a test's): its text and calls."""
        blocks: list[dict[str, Any]] = [{"type": "text", "text": m.text}] if m.text else []
        blocks.extend({"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments}
                      for c in m.tool_calls)
        return blocks



class _Turn:
    """One entry of a request's `messages` (an API turn, of one message or of several merged)
    as made: from message `start` on; `chain` and `fed`, the replay chain and how many turns
    it had been fed when it began, are where a request that makes it again starts."""

    def __init__(self, start: int, role: str, content: list[dict[str, Any]], digests: list[bytes],
                 jsons: list[bytes], chain: Chain, fed: int):
        self.start, self.role, self.chain, self.fed = start, role, chain, fed
        self.content, self.digests, self.jsons = content, digests, jsons

    def merged(self, content: list[dict[str, Any]], digests: list[bytes],
               jsons: list[bytes]) -> "_Turn":
        return _Turn(self.start, self.role, self.content + content, self.digests + digests,
                     self.jsons + jsons, self.chain, self.fed)

    @property
    def entry(self) -> dict[str, Any]:
        return {"role": self.role, "content": self.content}

    @property
    def json(self) -> bytes:
        return _entry_json(self.role, self.jsons)


def _entry_json(role: str, jsons: list[bytes]) -> bytes:
    return b"".join([b'{"role":"', role.encode(), b'","content":', *json_list(jsons), b"}"])
