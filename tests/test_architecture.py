"""The shape of the code: core free of Qt, importing app does nothing, CLI stays light."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _python(code: str, cwd: Path, env_dir: Path) -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(env_dir), "PYTHONPATH": str(REPO),
           "HARNESS_DESK_CONFIG_DIR": str(env_dir / "config")}
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=60)


def test_core_and_engines_import_without_qt(tmp_path):
    code = ("import sys, pkgutil, importlib, app.core, app.engines\n"
            "for pkg in (app.core, app.engines):\n"
            "    for m in pkgutil.iter_modules(pkg.__path__):\n"
            "        importlib.import_module(pkg.__name__ + '.' + m.name)\n"
            "bad = [m for m in sys.modules if m.split('.')[0] == 'PySide6']\n"
            "assert not bad, bad\n")
    done = _python(code, tmp_path, tmp_path)
    assert done.returncode == 0, done.stderr


def test_importing_app_prints_nothing_and_creates_no_files(tmp_path):
    done = _python("import app, app.cli, app.core, app.engines, app.export, app.gui", tmp_path,
                   tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "" and done.stderr == ""
    assert list(tmp_path.iterdir()) == []


def test_the_document_libraries_load_only_when_a_document_is_touched(tmp_path):
    code = ("import sys, app.core.tools.toolbox, app.core.documents, app.core.run.loop\n"
            "from app.core.documents import is_document\n"
            "assert is_document('brief.docx')\n"
            "libs = ('docx', 'openpyxl', 'pptx', 'pypdf', 'lxml', 'PIL', 'markdown_it')\n"
            "bad = [m for m in sys.modules if m.split('.')[0] in libs]\n"
            "assert not bad, bad\n")
    done = _python(code, tmp_path, tmp_path)
    assert done.returncode == 0, done.stderr


def test_no_module_in_core_or_engines_mentions_pyside():
    for folder in ("app/core", "app/engines"):
        for path in _sources(folder):
            assert "PySide6" not in path.read_text(encoding="utf-8"), path


def _module_names() -> set[str]:
    names = set()
    for path in (REPO / "app").rglob("*.py"):
        rel = path.relative_to(REPO).with_suffix("")
        names.add(".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts))
    return names


MODULES = _module_names()


def _imports(path: Path) -> set[str]:
    """The app modules a source file imports, in every form and at any depth (lazy imports and
    imports under TYPE_CHECKING count too): `from app.core.records import status_view` is an
    import of the module app.core.records.status_view, not only of its package."""
    import ast

    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names
                         if f"{node.module}.{a.name}" in MODULES)
        elif isinstance(node, ast.ImportFrom) and node.level:
            raise AssertionError(f"{path}: relative import (the code imports absolutely)")
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {m for m in found if m == "app" or m.startswith("app.")}


def _sources(folder: str) -> list[Path]:
    """Every source file of a folder, its subfolders included."""
    paths = sorted((REPO / folder).rglob("*.py"))
    assert paths, folder
    return paths


def test_core_imports_nothing_from_engines_export_gui_or_commands():
    for path in _sources("app/core"):
        bad = {m for m in _imports(path)
               if m.split(".")[:2] in (["app", "engines"], ["app", "export"], ["app", "gui"],
                                        ["app", "commands"], ["app", "cli"])}
        assert not bad, (path.relative_to(REPO), bad)


def test_engines_and_export_never_import_the_window_or_the_cli():
    for folder in ("app/engines", "app/export"):
        for path in _sources(folder):
            bad = {m for m in _imports(path)
                   if m.split(".")[:2] in (["app", "gui"], ["app", "commands"], ["app", "cli"])}
            assert not bad, (path.relative_to(REPO), bad)


def test_the_window_calls_services_never_the_command_line_modules():
    """app/gui reaches the core through services (app/gui/core_calls.py, app.export.service),
    never through app.commands or app.cli, whose job is the terminal's words."""
    paths = sorted((REPO / "app/gui").rglob("*.py"))
    assert len(paths) > 40
    for path in paths:
        bad = {m for m in _imports(path)
               if m.split(".")[:2] in (["app", "commands"], ["app", "cli"])}
        assert not bad, (path.relative_to(REPO), bad)


def test_the_window_is_grouped_by_its_parts():
    """app/gui holds the window's frame; its parts live in subpackages (see docs/architecture.md)."""
    top = sorted(p.stem for p in (REPO / "app/gui").glob("*.py"))
    assert top == sorted(["__init__", "app", "background", "core_calls", "errors",
                          "file_opener", "main_window", "self_test", "window_menus",
                          "window_state", "worker_bridge"]), top
    for part in ("board", "run", "evidence", "engines", "settings", "look", "folder"):
        assert (REPO / "app/gui" / part / "__init__.py").is_file(), part


def test_core_and_engines_are_grouped_by_part():
    """app/core and app/engines hold a few shared modules at the top and their parts in
    subpackages (docs/architecture.md draws the layout)."""
    layout = {
        "app/core": (["__init__", "clean_text", "errors", "places", "resources", "settings"],
                     ["board", "documents", "engine", "lessons", "plan", "policies", "records",
                      "run", "schedule", "tools", "undo", "web", "workspace"]),
        "app/engines": (["__init__", "catalog", "connection", "deadline", "keyed", "keys", "prices",
                         "quick_ready", "raw_stream", "registry", "sdk_import", "setup", "wire",
                         "wire_cache"],
                        ["claude", "demo", "local", "openai"]),
    }
    for folder, (top, parts) in layout.items():
        assert sorted(p.stem for p in (REPO / folder).glob("*.py")) == sorted(top), folder
        found = sorted(p.parent.name for p in (REPO / folder).glob("*/__init__.py"))
        assert found == sorted(parts), (folder, found)


def test_no_import_cycle_between_app_modules():
    graph = {}
    for path in (REPO / "app").rglob("*.py"):
        rel = path.relative_to(REPO).with_suffix("")
        name = ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)
        # importing a package's module runs the package's __init__ first: not a dependency
        # the other way round, so a package's own modules are not its imports
        graph[name] = {m for m in _imports(path) if m != name and not name.startswith(m + ".")}
    seen, stack = set(), []

    def visit(node):
        if node in stack:
            raise AssertionError("import cycle: " + " -> ".join(stack[stack.index(node):] + [node]))
        if node in seen or node not in graph:
            return
        stack.append(node)
        for dep in sorted(graph[node]):
            visit(dep)
        stack.pop()
        seen.add(node)

    for node in sorted(graph):
        visit(node)


def test_export_draws_with_qt_gui_only_and_leaves_the_environment_alone(tmp_path):
    """app/export paints with QtGui (fonts, text documents, the PDF writer, the chart) and
    never imports the widgets; without a window it makes an offscreen application of its own
    through Qt's -platform argument, not by changing QT_QPA_PLATFORM for the process."""
    for path in _sources("app/export"):
        text = path.read_text(encoding="utf-8")
        assert "QtWidgets" not in text, path.relative_to(REPO)
    code = ("import os\n"
            "os.environ.pop('QT_QPA_PLATFORM', None)\n"
            "from app.export.render import ensure_app\n"
            "app = ensure_app()\n"
            "assert 'QT_QPA_PLATFORM' not in os.environ, os.environ['QT_QPA_PLATFORM']\n"
            "assert app.platformName() == 'offscreen', app.platformName()\n")
    done = _python(code, tmp_path, tmp_path)
    assert done.returncode == 0, done.stderr
