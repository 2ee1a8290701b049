"""Recorded runs on disk for the export tests, written with the real record models."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

from app.core.engine.conversation import Usage
from app.core.records.events import (Event, FileChanged, HumanNeeded, RoundFinished, RoundStarted,
                             RunFinished, RunStarted)
from app.core.records.records import RoundRecord, RunInfo

PLANTED_KEY = "sk-ant-api03-XXXXXXXXXXXXXXXXXXXXXXXX"

BOARD = """# Homepage refresh

Notes the user wrote stay exactly as they are.

- [x] Draft the landing page copy
  - Done when: landing.md has a headline and three paragraphs
- [x] Compare the three strongest positioning options
  - Done when: comparison.md lists pros and cons of each
- [x] HUMAN: Should the homepage emphasize speed or trust?
  - Option: speed
  - Option: trust
  - Evidence: comparison.md
  - Recommendation: trust
  - Answer: trust
- [ ] Rewrite the homepage based on that decision | with care
- [ ] HUMAN: Which photo goes on the front page?
  - Option: team photo
  - Option: product shot
"""

BOARD_ZH = """# 主页改版

- [x] 起草着陆页文案
- [x] 比较三个最强的定位选项
- [x] HUMAN: 主页应该强调速度还是信任？
  - Option: 速度
  - Option: 信任
  - Answer: 信任
- [ ] 根据决定重写主页
"""

# (task, result_state, changed files, summary, error, seconds)
ROUNDS = [
    ("Draft the landing page copy", "completed", ["landing.md"],
     "Wrote landing.md with a headline and three paragraphs.\nKept the tone plain.", None, 42),
    ("Compare the three strongest positioning options", "gave_up", [],
     "Could not find the positioning notes; the folder has no notes.md.",
     None, 95),
    ("Compare the three strongest positioning options", "completed",
     ["comparison.md", "notes/positioning_v2.md"],
     "comparison.md lists pros and cons of speed, trust and price. Key in the logs was "
     f"{PLANTED_KEY} which must never be shown.", None, 130),
    ("Rewrite the homepage based on that decision | with care", "engine_error", [],
     "", "The AI engine did not answer in time (HTTP 529, overloaded).", 18),
]

ROUNDS_ZH = [
    ("起草着陆页文案", "completed", ["着陆页.md"], "写好了着陆页：一个标题和三段文字。", None, 30),
    ("比较三个最强的定位选项", "needs_human", ["比较.md"], "需要你决定主页的重点。", None, 60),
]


def _iso(t: datetime) -> str:
    return t.isoformat(timespec="milliseconds")


def make_workspace(root: Path, board: str = BOARD) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "TASKS.md").write_text(board, encoding="utf-8")
    (root / ".harness" / "runs").mkdir(parents=True, exist_ok=True)
    return root


def make_run(root: Path, rounds=ROUNDS, *, run_id: str = "20250303-140000-a1b2c3",
             engine: str = "anthropic", is_ai: bool = True, finished: bool = True,
             state: str = "blocked_by_human", exit_reason: str | None = "human_decision_needed",
             decision: tuple[str, list[str]] | None = ("Which photo goes on the front page?",
                                                       ["team photo", "product shot"]),
             start: datetime | None = None) -> Path:
    """Write run.json, rounds.jsonl and events.jsonl as the recorder does."""
    start = start or datetime(2025, 3, 3, 14, 0, 0, tzinfo=timezone.utc)
    run_dir = root / ".harness" / "runs" / run_id
    run_dir.mkdir(parents=True, exist_ok=True)
    events: list[Event] = [RunStarted(time=_iso(start), run_id=run_id, engine=engine,
                                      engine_label="Claude (Anthropic)" if is_ai else
                                      "Demo (offline, no AI)", is_ai=is_ai,
                                      model="claude-sonnet-4-5" if is_ai else "")]
    records: list[RoundRecord] = []
    t = start
    usage_sum = Usage()
    cost = 0.0
    for n, (task, result, changed, summary, error, secs) in enumerate(rounds, 1):
        began, t = t, t + timedelta(seconds=secs)
        usage = Usage(input_tokens=1200 * n, output_tokens=300 * n, cache_read_tokens=800) \
            if is_ai else Usage()
        round_cost = 0.0123 * n if is_ai else 0.0
        usage_sum, cost = usage_sum + usage, cost + round_cost
        events.append(RoundStarted(time=_iso(began), run_id=run_id, round=n, task=task))
        for path in changed:
            events.append(FileChanged(time=_iso(t), run_id=run_id, round=n, path=path))
        records.append(RoundRecord(
            run_id=run_id, round=n, task_id=f"t{n}", task=task, started_at=_iso(began),
            finished_at=_iso(t), result_state=result, changed_artifacts=changed,
            summary=summary, error=error, steps=3 + n, usage=usage, cost_usd=round_cost,
            notices=["stall notice"] if result == "gave_up" else []))
        events.append(RoundFinished(time=_iso(t), run_id=run_id, round=n, task=task,
                                    result_state=result, summary=summary))
    if decision:
        events.append(HumanNeeded(time=_iso(t), run_id=run_id, round=len(rounds),
                                  question=decision[0], options=decision[1],
                                  evidence=["comparison.md"], recommendation=decision[1][0],
                                  task=rounds[-1][0]))
    board = (root / "TASKS.md").read_text(encoding="utf-8")
    total = board.count("- [")
    done = board.count("- [x]")
    info = RunInfo(run_id=run_id, workspace=str(root), engine=engine,
                   engine_label="Claude (Anthropic)" if is_ai else "Demo (offline, no AI)",
                   model="claude-sonnet-4-5" if is_ai else "", is_ai=is_ai,
                   limits={"max_steps": 25, "max_rounds": 50}, started_at=_iso(start),
                   rounds=len(records), tasks_completed=done, tasks_total=total,
                   usage=usage_sum, cost_usd=round(cost, 6))
    if finished:
        info.finished_at = _iso(t + timedelta(seconds=1))
        info.state, info.exit_reason = state, exit_reason
        info.message = "The run stopped for your decision."
        events.append(RunFinished(time=info.finished_at, run_id=run_id, state=state,
                                  exit_reason=exit_reason or ""))
    (run_dir / "run.json").write_text(json.dumps(info.model_dump(mode="json"), indent=2),
                                      encoding="utf-8")
    _write_jsonl(run_dir / "rounds.jsonl", [r.model_dump(mode="json") for r in records])
    _write_jsonl(run_dir / "events.jsonl", [e.model_dump(mode="json") for e in events])
    return run_dir


def truncate_run(run_dir: Path) -> None:
    """Make it look killed mid-way: no end in run.json, the last round record cut mid-line."""
    info = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    info.update(finished_at=None, state="running", exit_reason=None, message=None)
    (run_dir / "run.json").write_text(json.dumps(info), encoding="utf-8")
    raw = (run_dir / "rounds.jsonl").read_bytes()
    lines = raw.splitlines(keepends=True)
    (run_dir / "rounds.jsonl").write_bytes(b"".join(lines[:-1]) + lines[-1][: len(lines[-1]) // 2])
    events = (run_dir / "events.jsonl").read_bytes().splitlines(keepends=True)
    kept = [e for e in events if b'"run_finished"' not in e]
    (run_dir / "events.jsonl").write_bytes(b"".join(kept))


def _write_jsonl(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                    encoding="utf-8")


def fixture_workspace(tmp: Path, chinese: bool = False) -> Path:
    """A workspace with one finished run (English) or a Chinese board and run."""
    ws = make_workspace(tmp / ("zh" if chinese else "homepage"), BOARD_ZH if chinese else BOARD)
    if chinese:
        make_run(ws, ROUNDS_ZH, decision=("主页应该强调速度还是信任？", ["速度", "信任"]))
    else:
        make_run(ws)
    return ws


# -- a real run with the Demo engine, through the CLI -------------------------------------

REPO = Path(__file__).resolve().parents[1]
DEMO_WORKSPACE = REPO / "resources" / "demo-workspace"


def cli_env(config_dir: Path) -> dict[str, str]:
    """The environment of a headless machine: no display, no keys, our own config folder."""
    import os

    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
           and not k.startswith(("HARNESS_DESK_", "ANTHROPIC_", "OPENAI_"))}
    env["HARNESS_DESK_CONFIG_DIR"] = str(config_dir)
    env["PYTHONIOENCODING"] = "utf-8"
    return env


def run_cli(*args: object, config_dir: Path, timeout: float = 120):
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "app", *map(str, args)], cwd=REPO,
                          env=cli_env(config_dir), capture_output=True, text=True,
                          encoding="utf-8", errors="replace", timeout=timeout,
                          stdin=subprocess.DEVNULL)


def record_demo_run(tmp: Path) -> Path:
    """Copy the demo workspace, run to the decision, answer "trust", run again to done."""
    import shutil

    ws = tmp / "Rosie bakery"
    shutil.copytree(DEMO_WORKSPACE, ws)
    config = tmp / "config"
    first = run_cli("run", ws, "--engine", "demo", config_dir=config)
    assert first.returncode == 3, first.stdout + first.stderr  # blocked by the decision
    answer = run_cli("decide", ws, "--answer", "trust", config_dir=config)
    assert answer.returncode == 0, answer.stdout + answer.stderr
    second = run_cli("run", ws, "--engine", "demo", config_dir=config)
    assert second.returncode == 0, second.stdout + second.stderr
    return ws
