"""A paid engine's first run in a folder has a budget per run ($2 unless the person chose
another), shown and changeable before the run starts."""

from __future__ import annotations

import pytest

from app.core.settings import Settings, load_settings
from app.gui.settings import budget_rules
from tests.gui.helpers import demo_copy, open_in


def test_the_window_runs_with_two_dollars_until_the_person_chooses():
    assert budget_rules.run_limits(Settings()).budget_usd == 2.0
    chosen_off = budget_rules.with_budget(Settings(), None)
    assert budget_rules.run_limits(chosen_off).budget_usd is None
    assert budget_rules.run_limits(budget_rules.with_budget(Settings(), 7.5)).budget_usd == 7.5


class _Run:
    def __init__(self, engine):
        self.engine = engine


def test_only_a_paid_engines_first_run_in_a_folder_asks():
    assert budget_rules.first_paid_run("anthropic", [])
    assert budget_rules.first_paid_run("openai", [_Run("demo"), _Run("local")])
    assert not budget_rules.first_paid_run("openai", [_Run("anthropic")])
    assert not budget_rules.first_paid_run("demo", [])
    assert not budget_rules.first_paid_run("local", [])


@pytest.fixture
def started(window, monkeypatch, budget_question):
    """The limits each run started with (the runner records instead of calling Claude)."""
    runs: list = []
    monkeypatch.setattr(window.runner, "start",
                        lambda root, factory, limits, **kw: runs.append(limits))
    return runs


def _claude_first_run(qtbot, window, tmp_path):
    folder = demo_copy(tmp_path)
    open_in(qtbot, window, folder)
    window.picker.select("anthropic")
    window.start_run()
    dialog = window.budget_dialog
    qtbot.waitUntil(dialog.isVisible, timeout=2000)
    return dialog


def test_the_first_claude_run_shows_its_budget_and_runs_with_the_one_chosen(
        qtbot, window, tmp_path, started):
    dialog = _claude_first_run(qtbot, window, tmp_path)
    assert started == []  # nothing runs before the person has seen the budget
    assert dialog.line.on.isChecked() and dialog.line.amount.value() == 2.0
    assert dialog.windowTitle() == "Before the first run with Claude"
    dialog.line.amount.setValue(5.0)
    dialog.run_button.click()
    assert [limits.budget_usd for limits in started] == [5.0]
    qtbot.waitUntil(lambda: load_settings().settings.limits.budget_usd == 5.0, timeout=5000)
    assert load_settings().settings.ui["budget_chosen"]


def test_cancel_starts_nothing_and_keeps_the_settings(qtbot, window, tmp_path, started):
    dialog = _claude_first_run(qtbot, window, tmp_path)
    dialog.reject()
    assert started == [] and window.settings.limits.budget_usd is None
    assert not window.settings.ui.get("budget_chosen")


def test_the_demo_runs_without_asking(qtbot, window, tmp_path, started):
    folder = demo_copy(tmp_path)
    open_in(qtbot, window, folder)
    window.picker.select("demo")
    window.start_run()
    assert len(started) == 1 and getattr(window, "budget_dialog", None) is None


def test_enter_in_the_amount_runs_with_it(qtbot, window, tmp_path, started):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QLineEdit

    dialog = _claude_first_run(qtbot, window, tmp_path)
    [field] = [f for f in dialog.findChildren(QLineEdit) if f.isVisible()]
    assert field.parentWidget() is dialog.line.amount  # the only one-line field
    dialog.line.amount.setValue(3.5)
    field.setFocus()
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert [limits.budget_usd for limits in started] == [3.5]
    assert not dialog.isVisible()
