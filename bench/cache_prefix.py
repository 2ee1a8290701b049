"""Prompt-cache friendliness of the requests Claude and OpenAI really receive, round after round.

    python bench/cache_prefix.py [--rounds 50] [--json FILE]

The real loop runs the real AnthropicEngine and OpenAIEngine (their SDKs, streaming) against
loopback servers that speak the vendors' wire formats (tests/engines/fake_servers.py), on a
generated workspace of 55 tasks: `--rounds` rounds in one run, then 3 rounds in a second
run with a new engine, as after a restart of the app. Each reply is what a model sends
(thinking or reasoning, a line of text, a tool call); each round reads, searches, writes,
checks and completes its task in 8 steps. What the servers received, byte for byte, is
then read as a provider's prompt cache reads it: tools, then the system prompt, then the
messages (Anthropic documents this order; OpenAI's cache reads the same prefix), each part
exactly as the SDK serialised it, `cache_control` markers left out (they say where to
cache, they are not part of the prompt). Per step from step 2 of a round on:

- served: the share of this step's input that is a byte-identical prefix of the previous
  step's request, i.e. what the cache can serve (the rest is the new reply and tool output);
- kept: the share of the previous step's request that this step repeats byte for byte (100%
  means the harness rewrote nothing a cache had already seen).

Also: whether the system prompt and tools were byte-identical in every request of both runs,
and the first message (the progress report) at the last round against round 1.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import arguments, hand_back, item, median

STEPS = 8
SERVED_TARGET = 0.95
GROWTH_TARGET = 1.2
SECOND_RUN_ROUNDS = 3
WORDS = ("flour butter sugar ovens orders delivery opening hours staff rota sourdough rye "
         "spelt croissant pricing supplier invoice customers weekend market stall").split()


# -- the workspace -------------------------------------------------------------------------

def make_workspace(root: Path, tasks: int) -> None:
    """A small business folder: 20 notes of 1-6 KB, standing instructions, a long board."""
    (root / "notes").mkdir(parents=True)
    for n in range(20):
        lines = [f"# Note {n}: {WORDS[n % len(WORDS)]}", ""]
        for i in range(15 + (n * 7) % 60):
            lines.append(f"- {' '.join(WORDS[(i + n + k) % len(WORDS)] for k in range(9))}.")
        (root / "notes" / f"note-{n:02d}.md").write_text("\n".join(lines) + "\n",
                                                          encoding="utf-8")
    (root / "AGENTS.md").write_text("Write in plain English for the bakery's staff. Keep each "
                                    "section under a page.\n", encoding="utf-8")
    board = ["# Staff handbook", "", "Sections for the new staff handbook.", ""]
    for t in range(tasks):
        board += [f"- [ ] Write section {t + 1} of the handbook ({WORDS[t % len(WORDS)]})",
                  f"  - Done when: handbook/section-{t + 1:02d}.md exists"]
    (root / "TASKS.md").write_text("\n".join(board) + "\n", encoding="utf-8")


def round_calls(round_no: int) -> list[tuple[str, str, dict]]:
    """(what the model says, tool, arguments) for the 8 steps of one round."""
    a, b = f"notes/note-{round_no % 20:02d}.md", f"notes/note-{(round_no * 7 + 3) % 20:02d}.md"
    out = f"handbook/section-{round_no:02d}.md"
    body = "\n".join(f"- {' '.join(WORDS[(i + round_no + k) % len(WORDS)] for k in range(10))}."
                     for i in range(25))
    word = WORDS[round_no % len(WORDS)]
    return [
        (f"Section {round_no} is about {word}; let me see the notes.", "list_files",
         {"path": "notes"}),
        (f"For section {round_no} I'll read {a} first.", "read_file", {"path": a}),
        (f"Searching the notes for {word}, for section {round_no}.", "search_files",
         {"query": word, "path": "notes"}),
        (f"And {b}, for section {round_no}.", "read_file", {"path": b}),
        (f"Writing {out}.", "write_file",
         {"path": out, "content": f"# Section {round_no}\n\n{body}\n"}),
        (f"Checking {out}.", "read_file", {"path": out}),
        (f"One correction to section {round_no}.", "edit_file",
         {"path": out, "old_text": f"# Section {round_no}\n",
          "new_text": f"# Section {round_no}: for new staff\n"}),
        (f"Section {round_no} is written.", "complete_task",
         {"summary": f"Wrote section {round_no} from the two notes.", "evidence": [out]}),
    ]


# -- the vendors' replies ------------------------------------------------------------------

def claude_replies(fake, run: int, first: int, rounds: int) -> list:
    replies = []
    for r in range(first, first + rounds):
        for s, (words, name, args) in enumerate(round_calls(r), 1):
            replies.append(fake.claude_stream([
                fake.thinking_block(f"Step {s}: {words} Then {name}."),
                fake.text_block(words),
                fake.tool_use(f"toolu_{run}_{r:03d}_{s}", name, args)],
                usage=fake.claude_usage(input_tokens=3000, output_tokens=80)))
    return replies


def openai_replies(fake, run: int, first: int, rounds: int) -> list:
    replies = []
    for r in range(first, first + rounds):
        for s, (words, name, args) in enumerate(round_calls(r), 1):
            tag = f"{run}_{r:03d}_{s}"
            replies.append(fake.oa_stream([
                fake.oa_reasoning(f"rs_{tag}", [f"{words} Then {name}."],
                                  encrypted=f"gAAAA{tag}enc=="),
                fake.oa_message(words, phase="commentary", item_id=f"msg_{tag}"),
                fake.oa_call(f"call_{tag}", name, args)],
                usage=fake.oa_usage(input_tokens=3000, output_tokens=80)))
    return replies


VENDORS = {
    "Claude": {"engine": "anthropic", "path": "/v1/messages", "replies": claude_replies,
               "key": ("ANTHROPIC_API_KEY", "sk-ant-api03-BenchKeyForLoopback0123456789abcdef")},
    "OpenAI": {"engine": "openai", "path": "/v1/responses", "replies": openai_replies,
               "key": ("OPENAI_API_KEY", "sk-proj-BenchKeyForLoopback0123456789abcdef")},
}


# -- reading the requests as a cache does -------------------------------------------------

def _dumps(value) -> bytes:
    # How both SDKs serialise a body: no spaces, UTF-8 as is (anthropic/_utils/_json.py,
    # openai likewise); json.loads kept every object's key order, so the bytes are the sent ones.
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()


def _bare(value):
    if isinstance(value, dict):
        return {k: _bare(v) for k, v in value.items() if k != "cache_control"}
    if isinstance(value, list):
        return [_bare(v) for v in value]
    return value


def parts(vendor: str, body: dict) -> tuple[bytes, bytes, list[bytes]]:
    """(tools, system, [each message or input item]) as the SDK sent them, markers left out."""
    body = _bare(body)
    if vendor == "Claude":
        return _dumps(body.get("tools", [])), _dumps(body.get("system", [])), \
            [_dumps(m) for m in body["messages"]]
    items = body["input"]
    system = items[0] if items and items[0].get("role") == "developer" else None
    rest = items[1:] if system is not None else items
    head = {"instructions": body.get("instructions"), "developer": system,
            "prompt_cache_key": body.get("prompt_cache_key")}
    return _dumps(body.get("tools", [])), _dumps(head), [_dumps(i) for i in rest]


def first_message(vendor: str, body: dict) -> str:
    if vendor == "Claude":
        content = body["messages"][0]["content"]
        return "".join(b.get("text", "") for b in content) if isinstance(content, list) else content
    items = [i for i in body["input"] if i.get("role") == "user"]
    return items[0]["content"] if items else ""


def common_prefix(a: bytes, b: bytes) -> int:
    """Length of the longest common prefix, found by halving (fast on long equal runs)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def analyse(vendor: str, runs: list[list[bytes]]) -> dict:
    """Per-step figures over every round of every run (raw request bodies in order)."""
    served, kept, raw_served, heads, firsts = [], [], [], set(), []
    worst = None
    for bodies in runs:
        previous = previous_raw = None
        for raw in bodies:
            body = json.loads(raw)
            tools, system, messages = parts(vendor, body)
            heads.add((tools, system))
            rendered = tools + system + b"".join(messages)
            if len(messages) == 1:  # a new round: the progress report alone
                firsts.append(len(first_message(vendor, body).encode()))
            elif previous is not None:
                shared = common_prefix(previous, rendered)
                served.append(shared / len(rendered))
                kept.append(shared / len(previous))
                raw_served.append(common_prefix(previous_raw, raw) / len(raw))
                if worst is None or served[-1] < worst[0]:
                    worst = (served[-1], len(rendered) - shared, len(previous) - shared)
            previous, previous_raw = rendered, raw
    return {"served": served, "kept": kept, "raw_served": raw_served, "heads": len(heads),
            "firsts": firsts, "worst": worst}


# -- running the loop against the loopback servers ---------------------------------------

def run_vendor(vendor: str, rounds: int, tmp: Path,
               second: int = SECOND_RUN_ROUNDS) -> list[list[bytes]]:
    """The raw request bodies of two runs, `rounds` rounds and then `second` rounds."""
    from tests.engines import fake_servers as fake

    from app.core.run.loop import Harness
    from app.core.settings import Limits, Settings
    from app.core.workspace.workspace import Workspace
    from app.engines.setup import build_engine

    spec = VENDORS[vendor]
    root = tmp / vendor
    make_workspace(root, rounds + second + 2)
    server = fake.FakeServer()
    try:
        runs = []
        for run, (first, count) in enumerate(((1, rounds), (rounds + 1, second)), 1):
            server.requests.clear()
            server.push(spec["path"], *spec["replies"](fake, run, first, count))
            engine = build_engine(Settings(), root, spec["engine"], base_url=server.url + "/v1"
                                  if vendor == "OpenAI" else server.url)
            limits = Limits(max_rounds=count, max_steps=STEPS + 4, retry_base_s=0.01)
            result = Harness(Workspace(root), engine, limits).run()
            if result.exit_reason != "max_rounds":
                raise SystemExit(f"{vendor} run {run} ended early: {result.message}")
            runs.append([r.raw for r in server.requests if r.path == spec["path"]])
            trouble = server.refusals or server.flags
            if trouble:
                raise SystemExit(f"the {vendor} server refused or flagged {len(trouble)} "
                                 f"requests, first: {trouble[0]}")
        return runs
    finally:
        server.close()


def main() -> int:
    parser = arguments(__doc__, runs=1)
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args()
    os.environ.setdefault("HARNESS_DESK_CONFIG_DIR", tempfile.mkdtemp(prefix="hd-bench-config-"))
    os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.null.Keyring"  # keys from env only
    os.environ.update(dict(spec["key"] for spec in VENDORS.values()))
    items = []
    with tempfile.TemporaryDirectory(prefix="hd-bench-cache-") as folder:
        for vendor in VENDORS:
            got = analyse(vendor, run_vendor(vendor, args.rounds, Path(folder)))
            served, kept = got["served"], got["kept"]
            growth = got["firsts"][args.rounds - 1] / got["firsts"][0]
            low, new, lost = got["worst"]
            print(f"{vendor}: {len(served)} steps after the first of their round, "
                  f"{args.rounds} + {SECOND_RUN_ROUNDS} rounds")
            print(f"  served from cache (prefix of the previous request): median "
                  f"{median(served):.1%}, lowest {min(served):.1%} (that step added {new:,} "
                  f"new bytes; {lost:,} bytes of the previous request were not repeated)")
            print(f"  previous request repeated byte for byte: median {median(kept):.2%}, "
                  f"lowest {min(kept):.2%}")
            print(f"  raw request bodies, prefix shared with the previous one: median "
                  f"{median(got['raw_served']):.1%} (JSON key order puts messages first)")
            print(f"  distinct system prompt + tools across both runs: {got['heads']}")
            print(f"  first message: round 1 {got['firsts'][0]:,} bytes, round {args.rounds} "
                  f"{got['firsts'][args.rounds - 1]:,} bytes ({growth:.2f}x)")
            key = vendor.lower()
            items += [
                item(f"cache_kept_{key}", f"{vendor}: previous request repeated byte for byte "
                     "as the next one's prefix (lowest, step 2 on)", f">= {SERVED_TARGET:.0%}",
                     round(min(kept) * 100, 2), "%", min(kept) >= SERVED_TARGET,
                     note="nothing a cache has seen is rewritten",
                     median_pct=round(median(kept) * 100, 2), steps=len(kept)),
                # Shown, not judged: what a cache cannot serve is the step's own new reply
                # and tool output (a 6 KB note read is 6 KB new), which no harness can send
                # from a cache; what the harness decides, rewriting nothing already sent, is
                # the row above. (A ">= 95% at the lowest step" target could not be met by
                # any harness without cutting what the tools return.)
                item(f"cache_served_{key}", f"{vendor}: share of a step's input a prompt cache "
                     "can serve (median, step 2 on)", "shown, no target",
                     round(median(served) * 100, 1), "%", None,
                     note=f"lowest {min(served):.1%}: the rest is that step's new reply and "
                          f"tool output ({new:,} bytes); {lost:,} re-sent bytes lost",
                     lowest_pct=round(min(served) * 100, 1),
                     lowest_step_new_bytes=new, lowest_step_lost_bytes=lost,
                     raw_body_prefix_median_pct=round(median(got["raw_served"]) * 100, 1),
                     steps=len(served)),
                item(f"cache_stable_{key}", f"{vendor}: versions of system prompt + tools in "
                     f"{args.rounds + SECOND_RUN_ROUNDS} rounds of 2 runs", "1", got["heads"], "",
                     got["heads"] == 1),
                item(f"cache_first_{key}", f"{vendor}: first message, round {args.rounds} / "
                     "round 1", f"<= {GROWTH_TARGET}x", round(growth, 2), "x",
                     growth <= GROWTH_TARGET, round_1_bytes=got["firsts"][0],
                     last_round_bytes=got["firsts"][args.rounds - 1],
                     note=f"{got['firsts'][0]:,} and {got['firsts'][args.rounds - 1]:,} bytes"),
            ]
    return hand_back(args.json, items)


if __name__ == "__main__":
    sys.exit(main())
