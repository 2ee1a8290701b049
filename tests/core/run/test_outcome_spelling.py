"""The words a round and a run end with are spelled once, in app/core/run/outcomes.py: no code in
app/ compares a state, an exit_reason or a result_state with a bare string, nor keys a table
of them by one."""

from __future__ import annotations

import ast
from pathlib import Path

from app.core.run.outcomes import ExitReason, RoundResult, RunState

APP = Path(__file__).resolve().parents[3] / "app"
WORDS = {w.value for w in (*RunState, *ExitReason, *RoundResult)}
# Names that hold an outcome: what they are compared with must be a type, not a word.
HOLDERS = {"state", "exit_reason", "result_state", "result", "reason"}
# Other vocabularies that happen to share a word, each spelled once in its own module:
# planning's results (plan_records.PlanResult), the run panel's modes, the window's change
# answers, engines' own stop reasons and codes, document workers' message kinds.
ELSEWHERE = {"app/core/plan/records.py", "app/core/plan/planning.py", "app/commands/plan.py",
             "app/gui/plan/plan_runner.py", "app/gui/plan/plan_dialog.py"}


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


def _words(node: ast.AST) -> list[str]:
    """Outcome words spelled as string constants in `node` (a constant or a tuple of them)."""
    items = node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else [node]
    return [i.value for i in items if isinstance(i, ast.Constant) and i.value in WORDS]


def _compared(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and _name(node.left) in HOLDERS:
            for right in node.comparators:
                found += [(node.lineno, w) for w in _words(right)]
    return found


def test_no_outcome_is_compared_with_a_bare_word():
    found = []
    for path in sorted(APP.rglob("*.py")):
        rel = path.relative_to(APP.parent).as_posix()
        if rel == "app/core/run/outcomes.py" or rel in ELSEWHERE:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{rel}:{line}: {word!r}" for line, word in _compared(tree)]
    assert not found, "use app.core.run.outcomes instead of:\n" + "\n".join(found)


def test_the_check_sees_a_bare_word():
    tree = ast.parse('if result.state == "done" or r.result_state in ("gave_up", "x"): pass')
    assert _compared(tree) == [(1, "done"), (1, "gave_up")]
