"""A run with a model whose price is not known: counted at the engine's highest price (so the
budget stop never under-counts), recorded as an upper estimate, and said so by `status`,
`run`, the export and the window."""

from __future__ import annotations

import pytest

from app.commands.follow import format_status
from app.commands.run import EventPrinter
from app.core.run.loop import Harness
from app.core.records.records import read_run
from app.core.records.status_view import read_status_view
from app.engines.prices import PricedEngine
from app.export.history import build_history, render_history_markdown
from app.export.markdown import render_markdown
from app.export.summary import build_summary
from tests.scripted import ScriptedEngine, board_workspace, call, fast_limits

BOARD = "# Shop\n\n- [ ] Read the notes\n  - Done when: the notes were read\n"
SENTENCE = "the price of claude-fable-9 is not known, so the highest price is used"


@pytest.fixture(autouse=True)
def config_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))


class ClaudeScript(PricedEngine, ScriptedEngine):
    """The scripted engine, priced from the table as the Claude engine is."""

    id = "anthropic"
    label = "Claude"
    default_model = "claude-fable-9"


def reads(n: int) -> list:
    return [call("read_file", path="notes.md", offset=i + 1) for i in range(n)]


def test_an_unknown_claude_model_is_counted_at_the_highest_claude_price(tmp_path):
    ws = board_workspace(tmp_path, BOARD, {"notes.md": "x"})
    engine = ClaudeScript(reads(3))
    lines: list[str] = []
    printer = EventPrinter()
    Harness(ws, engine, fast_limits(max_steps=3, stall_limit=1),
            listeners=[printer, lambda e: lines.append(e)]).run()
    info = read_run(ws.run_files(lines[0].run_id))
    turns = len(engine.requests)
    # 100 input and 20 output tokens a turn at $25 and $125 a million (Claude Mythos
    # Preview, the highest Claude price): $0.005 a turn. The old "default" entry counted
    # $0.001, a fifth of it.
    assert info.cost_usd == pytest.approx(turns * 0.005)
    assert info.cost_is_upper_estimate is True
    status, warning = read_status_view(ws.status_path)
    assert warning is None and status.cost_is_upper_estimate is True
    text = format_status(status)
    assert f"cost about ${info.cost_usd:.4f} at most – {SENTENCE}" in text


def test_run_says_so_as_it_starts_and_ends(tmp_path, capsys):
    ws = board_workspace(tmp_path, BOARD, {"notes.md": "x"})
    Harness(ws, ClaudeScript(reads(2)), fast_limits(max_steps=2, stall_limit=1),
            listeners=[EventPrinter()]).run()
    out = capsys.readouterr().out
    assert ("Run started with Claude (claude-fable-9): 0 of 1 tasks done. The price of "
            "claude-fable-9 is not known, so its cost is counted at the highest price known "
            "for its engine: the cost shown is the most it can be.") in out
    ended = next(line for line in out.splitlines() if line.startswith("Run ended"))
    assert "; cost about $" in ended and "at most – the price of this model is not known" in ended


def test_the_budget_stops_an_unknown_model_sooner_than_a_known_cheaper_one(tmp_path):
    ran = {}
    for model in ("claude-opus-5", "claude-fable-9"):  # $5/$25 (the old default) and unknown
        (tmp_path / model).mkdir()
        ws = board_workspace(tmp_path / model, BOARD, {"notes.md": "x"})
        engine = ClaudeScript(reads(30))
        engine.config.model = model
        result = Harness(ws, engine, fast_limits(max_steps=30, stall_limit=1,
                                                 budget_usd=0.1)).run()
        info = read_run(ws.run_files(result.run_id))
        assert info.cost_usd <= 0.1
        ran[model] = (result.exit_reason, len(engine.requests), info.cost_is_upper_estimate)
    # At $5/$25 the 30 steps fit in $0.10; counted at the highest price they do not.
    assert ran["claude-opus-5"][0] != "budget_exhausted" and ran["claude-opus-5"][1] == 30
    assert ran["claude-fable-9"][0] == "budget_exhausted" and 1 <= ran["claude-fable-9"][1] < 30
    assert (ran["claude-opus-5"][2], ran["claude-fable-9"][2]) == (False, True)


def test_the_export_says_the_cost_is_at_most(tmp_path):
    ws = board_workspace(tmp_path, BOARD, {"notes.md": "x"})
    Harness(ws, ClaudeScript(reads(2)), fast_limits(max_steps=2, stall_limit=1)).run()
    summary = build_summary(ws.root)
    assert summary.cost_is_upper_estimate is True
    md = render_markdown(summary)
    assert f"| Cost | about ${summary.cost_usd:.2f} at most – {SENTENCE} |" in md
    assert any("the real cost is at most the amount shown" in n for n in summary.notes)
    history = render_history_markdown(build_history(ws.root))
    assert f"| Cost | about ${summary.cost_usd:.2f} at most – {SENTENCE} |" in history
    assert f"| at most ${summary.cost_usd:.2f} |" in history  # the run's row
    chinese = render_markdown(build_summary(ws.root, lang="zh_CN"))
    assert (f"| 费用 | 最多约 ${summary.cost_usd:.2f}——不知道 claude-fable-9 的价格，所以按最高价格计算 |"
            in chinese)


def test_planning_with_an_unknown_model_says_at_most_too(tmp_path):
    from app.core.plan.records import read_plans
    from app.core.plan.planning import Planner
    from tests.core.plan.test_planning import GOOD

    ws = board_workspace(tmp_path, BOARD, {"notes.md": "x"})
    outcome = Planner(ws, ClaudeScript([call("propose_tasks", tasks=GOOD)]),
                      fast_limits()).plan("Plan the fair")
    assert outcome.ok and outcome.cost_is_upper_estimate is True
    assert outcome.cost_usd == pytest.approx(0.005)
    assert read_plans(ws.root)[-1].cost_is_upper_estimate is True
