"""What every round's first request carries before the task: tool definitions and system prompt.

    python bench/request_size.py [--json FILE]

Each engine (Claude, OpenAI, Local) builds the first request of a round from the real system
prompt and tools, with a progress report for a one-line task, and encodes it as its SDK
sends it (no network: the bytes are what would go on the wire). The fixed part, tools plus
system prompt (without Claude's cache markers, which are not prompt), is what every request
of every round repeats and what a local model on a CPU processes again each round before
it reads a word of the task; the whole first request is shown beside it.

Target: the fixed part a third lighter than before issue 36 for each engine, i.e. at most
two thirds of what it was at commit 4044fd6 (Claude 6,569 B, OpenAI 6,885 B, Local 6,899 B:
tools then 4,856 / 5,166 / 5,183 B, system prompt 1,713 / 1,719 / 1,716 B), written as an
absolute byte limit per engine so that one run can judge it. Not a ratio to a peer:
openai-agents' 1,341-byte first request carries the two toy tools of the peers' task and no
rules, so a ratio to it would measure that task, not the rules a person's folder needs
(sandbox, careful mode, undo, the ending tools, documents).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import arguments, hand_back, item

# Tools + system prompt as sent at commit 4044fd6, before issue 36 (and the first request).
BEFORE_BYTES = {"Claude": 6569, "OpenAI": 6885, "Local": 6899}
BEFORE_FIRST = {"Claude": 7224, "OpenAI": 7444, "Local": 7439}
BOARD = "# Plan\n\n- [ ] Write notes.md\n  - Done when: notes.md exists\n"


def _dumps(value) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def _bare(value):
    if isinstance(value, dict):
        return {k: _bare(v) for k, v in value.items() if k != "cache_control"}
    if isinstance(value, list):
        return [_bare(v) for v in value]
    return value


def engines() -> dict:
    from app.core.engine.port import EngineConfig
    from app.engines.claude.engine import AnthropicEngine
    from app.engines.local.engine import LocalEngine
    from app.engines.openai.engine import OpenAIEngine

    return {
        "Claude": AnthropicEngine(EngineConfig(model="claude-sonnet-4-5")),
        "OpenAI": OpenAIEngine(EngineConfig(model="gpt-5", cache_key="bench")),
        "Local": LocalEngine(EngineConfig(model="qwen3:8b",
                                          base_url="http://127.0.0.1:9/v1")),
    }


def fixed_part(name: str, body: dict) -> tuple[int, int]:
    """(tools bytes, system prompt bytes) of an encoded request body."""
    body = _bare(body)
    tools = len(_dumps(body.get("tools", [])))
    if name == "Claude":
        system = len(_dumps(body.get("system", [])))
    elif name == "OpenAI":
        system = len(_dumps(body["input"][0]))  # the developer message
    else:
        system = len(_dumps(body["messages"][0]))  # the system message
    return tools, system


def measure() -> dict[str, dict[str, int]]:
    from app.core.board.board import Board
    from app.core.engine.conversation import Message
    from app.core.run.reports import SYSTEM_PROMPT, progress_report
    from app.core.tools.toolbox import TOOL_SPECS

    board = Board.parse(BOARD)
    report = progress_report(board, board.tasks[0], [])
    out = {}
    for name, engine in engines().items():
        request = engine.build_request(SYSTEM_PROMPT, TOOL_SPECS,
                                       [Message(role="user", text=report)])
        raw = engine.encoded(request)
        tools, system = fixed_part(name, json.loads(raw))
        out[name] = {"tools": tools, "system": system, "first_request": len(raw)}
    return out


def main() -> int:
    parser = arguments(__doc__, runs=1)
    args = parser.parse_args()
    os.environ.setdefault("HARNESS_DESK_CONFIG_DIR", tempfile.mkdtemp(prefix="hd-bench-config-"))
    os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.null.Keyring"
    items = []
    for name, got in measure().items():
        fixed = got["tools"] + got["system"]
        before, limit = BEFORE_BYTES[name], BEFORE_BYTES[name] * 2 // 3
        print(f"{name}: tools {got['tools']:,} B + system prompt {got['system']:,} B = "
              f"{fixed:,} B (before issue 36: {before:,} B; {1 - fixed / before:.1%} lighter); "
              f"the whole first request {got['first_request']:,} B (before: "
              f"{BEFORE_FIRST[name]:,} B)")
        items.append(item(
            f"request_fixed_{name.lower()}", f"{name}: tool definitions + system prompt in "
            "every request", f"<= {limit:,} B", fixed, " B", fixed <= limit,
            note=f"{got['tools']:,} tools + {got['system']:,} system; {before:,} before "
                 f"issue 36 ({1 - fixed / before:.0%} lighter); first request "
                 f"{got['first_request']:,} ({BEFORE_FIRST[name]:,} before)",
            tools_bytes=got["tools"], system_bytes=got["system"], before_bytes=before,
            first_request_bytes=got["first_request"],
            first_request_before_bytes=BEFORE_FIRST[name]))
    return hand_back(args.json, items)


if __name__ == "__main__":
    sys.exit(main())
