"""The window's parts import one another one way only: no cycle between app.gui's
subpackages (run, board, folder, ...) or its top-level modules, nor between any two of its
modules, whatever the import's form (at the top, inside a function, under TYPE_CHECKING,
relative, `from app.gui.words import wording`, or `importlib.import_module("app.gui...")`)."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
GUI = REPO / "app" / "gui"


def _module_name(path: Path) -> str:
    rel = path.relative_to(REPO).with_suffix("")
    return ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)


def _resolve(name: str, modules: set[str]) -> str | None:
    """The app.gui module `name` is, or is in (a name inside a module: the module)."""
    while name.startswith("app.gui"):
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def imports_of(path: Path, modules: set[str], me: str = "") -> set[str]:
    """Every app.gui module the file (the module `me`) imports, in any form and at any depth."""
    me = me or _module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[:len(parts) - (node.level - 1)]
                base = ".".join(parts + ([base] if base else []))
            # `from app.gui.words import wording` imports the module app.gui.words.wording
            names = [f"{base}.{alias.name}" for alias in node.names] + [base]
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in ("import_module", "__import__"):
                arg = node.args[0]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    names = [arg.value]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and node.value.startswith("app.gui.") and " " not in node.value:
            names = [node.value]  # a module named to be imported later (RUN_NEEDS)
        for name in names:
            target = _resolve(name, modules)
            if target is not None and target != me:
                found.add(target)
    return found


def _graph() -> dict[str, set[str]]:
    paths = sorted(GUI.rglob("*.py"))
    modules = {_module_name(p) for p in paths}
    return {_module_name(p): imports_of(p, modules) for p in paths}


def _part(module: str) -> str:
    """app.gui.words.wording -> app.gui.words; app.gui.main_window stays itself."""
    parts = module.split(".")
    if len(parts) < 3:
        return module
    if len(parts) > 3 or (GUI / parts[2]).is_dir():
        return ".".join(parts[:3])
    return module


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for dep in sorted(graph.get(node, ())):
            if dep not in index:
                visit(dep)
                low[node] = min(low[node], low[dep])
            elif dep in on_stack:
                low[node] = min(low[node], index[dep])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def part_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    parts: dict[str, set[str]] = {}
    for module, deps in graph.items():
        mine = _part(module)
        parts.setdefault(mine, set()).update(_part(d) for d in deps if _part(d) != mine)
    return parts


def _edges_between(graph, group, of=lambda m: m) -> list[str]:
    return sorted(f"{a} -> {b}" for a, deps in graph.items() for b in deps
                  if of(a) in group and of(b) in group and of(a) != of(b))


def test_the_graph_sees_every_import_form(tmp_path):
    modules = {"app.gui.run", "app.gui.run.wording", "app.gui.board", "app.gui.board.board_view",
               "app.gui.look.theme", "app.gui.look", "app.gui.folder", "app.gui.folder.x",
               "app.gui.background", "app.gui.run.run_panel"}
    probe = tmp_path / "probe.py"  # read as if it were app/gui/run/probe.py
    probe.write_text(
        "from typing import TYPE_CHECKING\n"
        "import importlib\n"
        "if TYPE_CHECKING:\n    from app.gui.board.board_view import BoardView\n"
        "def later():\n    from app.gui.look import theme\n"
        "    importlib.import_module('app.gui.folder.x')\n"
        "from . import wording\n"
        "from .run_panel import RunPanel\n"
        "import app.gui.background\n", encoding="utf-8")
    found = imports_of(probe, modules, "app.gui.run.probe")
    assert found == {"app.gui.board.board_view", "app.gui.look.theme", "app.gui.look",
                     "app.gui.folder.x", "app.gui.run.wording", "app.gui.run",
                     "app.gui.run.run_panel", "app.gui.background"}
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycle_between_the_window_parts():
    parts = part_graph(_graph())
    found = cycles(parts)
    graph = _graph()
    assert not found, "\n".join(
        "cycle between " + ", ".join(group) + ":\n  " +
        "\n  ".join(_edges_between(graph, set(group), _part)) for group in found)


def test_no_import_cycle_between_the_window_modules():
    graph = _graph()
    found = cycles(graph)
    assert not found, "\n".join(
        "cycle between " + ", ".join(group) + ":\n  " + "\n  ".join(_edges_between(graph, set(group)))
        for group in found)
