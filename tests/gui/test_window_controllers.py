"""The main window is a few controllers it composes (app/gui/window/), not one class
assembled from mixins that share state by probing each other (`getattr(self, "careful",
None)`): each controller is a QObject of its own, in a module short enough to read in one
sitting, and the window's public names reach them."""

from __future__ import annotations

import ast
from pathlib import Path

from PySide6.QtCore import QObject

REPO = Path(__file__).resolve().parents[2]
CONTROLLERS = ("settings_flow.SettingsFlow", "folder_flow.FolderFlow", "run_flow.RunFlow",
               "decision_flow.DecisionFlow", "plan_flow.PlanFlow", "evidence_flow.EvidenceFlow")


def test_the_window_has_no_mixins():
    from PySide6.QtWidgets import QMainWindow

    from app.gui.main_window import MainWindow

    assert MainWindow.__bases__ == (QMainWindow,)
    ours = [c.__qualname__ for c in MainWindow.__mro__ if c.__module__.startswith("app.")]
    assert ours == ["MainWindow"], ours


def test_each_controller_is_a_qobject_of_its_own():
    import importlib

    for spec in CONTROLLERS:
        module, name = spec.split(".")
        cls = getattr(importlib.import_module(f"app.gui.window.{module}"), name)
        assert issubclass(cls, QObject), spec
        assert [c for c in cls.__mro__ if c.__module__.startswith("app.")] == [cls], spec


def _window_sources() -> list[Path]:
    return [REPO / "app/gui/main_window.py", *sorted((REPO / "app/gui/window").glob("*.py"))]


def test_no_part_probes_another_for_what_it_has():
    """`getattr(self, "x", None)` or `getattr(window, ...)`: state one part hopes another
    made. A controller is given what it uses when it is made."""
    for path in _window_sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("getattr",
                                                                               "hasattr"):
                target = ast.unparse(node.args[0])
                assert not target.startswith(("self", "window")) or \
                    not isinstance(node.args[1], ast.Constant), (path.name, ast.unparse(node))


def test_the_window_modules_read_in_one_sitting():
    for path in _window_sources():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        assert lines < 340, (path.name, lines)


def test_the_window_names_reach_its_controllers(window):
    assert window.settings is window.settings_flow.settings
    assert window.runner is window.run_flow.runner
    assert window.notifier is window.decision_flow.notifier
    assert window.history is window.evidence_flow.history
    window.demo_delay = 0.25
    assert window.run_flow.demo_delay == 0.25 and window.run_flow.demo_delay_s() == 0.25
    try:
        window.decision_dialog = None
    except AttributeError as exc:
        assert "decision_flow.decision_dialog" in str(exc)
    else:
        raise AssertionError("a controller's state was set from outside it")
