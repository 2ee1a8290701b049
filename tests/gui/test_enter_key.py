"""Enter in every single-line field of every dialog does what its label says (issue 35).

Each dialog's visible one-line fields are listed from the dialog itself, so a field added
later without a line here fails the test. Enter in the goal box plans (and is not taken by
the Stop button that replaced Plan); Enter in "What should change?" plans again and keeps
the dialog open; Enter in an answer uses it; in the key field it saves the key; in a
settings field it saves the settings.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractSpinBox, QLineEdit

from app.core.board.board import Board
from app.core.engine.port import EngineConfig
from app.core.settings import EngineSettings, Limits, Settings
from app.engines.demo.engine import DemoEngine


def one_line_fields(dialog) -> list[QLineEdit]:
    """Every visible single-line field of the dialog (a spin box's or combo box's own too)."""
    return [f for f in dialog.findChildren(QLineEdit) if f.isVisible()]


def press_enter(qtbot, field: QLineEdit) -> None:
    field.setFocus()
    qtbot.keyClick(field, Qt.Key.Key_Return)


def owner(field: QLineEdit):
    parent = field.parentWidget()
    return parent if isinstance(parent, QAbstractSpinBox) or \
        type(parent).__name__ == "QComboBox" else field


@pytest.fixture
def folder(tmp_path) -> Path:
    f = tmp_path / "Party"
    f.mkdir()
    (f / "ideas.md").write_text("Garden party for 12 children.\n", encoding="utf-8")
    return f


def test_enter_in_the_plan_dialog_plans_and_plans_again_and_never_stops_or_closes(
        qtbot, folder):
    from app.gui.plan.plan_dialog import PlanDialog

    dialog = PlanDialog(folder, lambda: DemoEngine(EngineConfig(options={"delay_s": 0.05})),
                        Limits(), "Demo", engine_is_ai=False)
    qtbot.addWidget(dialog)
    dialog.show()
    assert one_line_fields(dialog) == [dialog.goal]  # the rest shows once there are proposals
    dialog.goal.setText("Plan a birthday party")
    with qtbot.waitSignal(dialog.runner.plan_finished, timeout=15_000) as finished:
        press_enter(qtbot, dialog.goal)
        assert dialog.runner.running  # the same key press did not click Stop
    assert finished.args[0].result == "proposed" and dialog.isVisible()
    assert "stopped" not in dialog.status.text()
    assert set(one_line_fields(dialog)) == {dialog.goal, dialog.note}
    dialog.note.setText("fewer tasks")
    with qtbot.waitSignal(dialog.runner.plan_finished, timeout=15_000) as again:
        press_enter(qtbot, dialog.note)
    assert again.args[0].result == "proposed"
    assert dialog.isVisible() and dialog.list.proposals()  # the proposals are still there


def test_enter_in_the_answer_field_uses_the_answer(qtbot, tmp_path):
    from app.gui import core_calls
    from app.gui.run.decision_dialog import DecisionDialog

    (tmp_path / "TASKS.md").write_text("- [ ] HUMAN: Speed or trust?\n", encoding="utf-8")
    task = core_calls.open_decision(tmp_path)
    dialog = DecisionDialog(task, tmp_path, lambda a: core_calls.decide(tmp_path, a, task.text))
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.other_button.click()
    assert one_line_fields(dialog) == [dialog.other_edit]
    qtbot.keyClicks(dialog.other_edit, "Both, speed first")
    with qtbot.waitSignal(dialog.answered, timeout=5000):
        press_enter(qtbot, dialog.other_edit)
    assert Board.load(tmp_path / "TASKS.md").tasks[0].answer == "Both, speed first"



def engine_dialog(qtbot, engine_id: str):
    from app.gui.engines.engine_settings import EngineSettingsDialog

    closed = "http://127.0.0.1:9"  # nothing answers there: no network in tests
    settings = Settings(engines={e: EngineSettings(base_url=closed) for e in
                                 ("anthropic", "local")})
    dialog = EngineSettingsDialog(settings, engine_id)
    qtbot.addWidget(dialog)
    with qtbot.waitSignal(dialog.connection_checked, timeout=30_000, raising=False):
        dialog.show()  # its first look at the engine; nothing answers, quickly or not
    return dialog


def test_enter_in_the_key_field_saves_the_key_and_in_the_others_saves_the_settings(
        qtbot, keychain):
    dialog = engine_dialog(qtbot, "anthropic")
    fields = one_line_fields(dialog)
    model = dialog.model.lineEdit()
    assert set(fields) == {dialog.key_field, model}
    qtbot.keyClicks(dialog.key_field, "sk-ant-api03-EnterKeyTest-0123456789abcdef")
    with qtbot.waitSignal(dialog.key_changed, timeout=10_000):
        press_enter(qtbot, dialog.key_field)
    assert dialog.isVisible()  # "Save key": the key is kept, the dialog stays
    assert keychain.store == {("harness-desk", "anthropic"):
                              "sk-ant-api03-EnterKeyTest-0123456789abcdef"}
    model.setText("claude-test-model")
    with qtbot.waitSignal(dialog.settings_saved, timeout=5000) as saved:
        press_enter(qtbot, model)
    assert saved.args[0].engines["anthropic"].model == "claude-test-model"
    assert not dialog.isVisible()


def test_enter_in_the_server_address_saves_it(qtbot, keychain):
    dialog = engine_dialog(qtbot, "local")
    assert set(one_line_fields(dialog)) == {dialog.address, dialog.model.lineEdit()}
    dialog.address.selectAll()
    qtbot.keyClicks(dialog.address, "http://127.0.0.1:11434")  # typed, as a person does
    with qtbot.waitSignal(dialog.settings_saved, timeout=5000) as saved:
        press_enter(qtbot, dialog.address)
    assert saved.args[0].engines["local"].base_url == "http://127.0.0.1:11434"


def test_enter_in_each_settings_field_saves_the_settings(qtbot):
    from app.gui.settings.settings_dialog import SettingsDialog

    for index in range(8):
        dialog = SettingsDialog(Settings(limits=Limits(budget_usd=2.0)))
        qtbot.addWidget(dialog)
        dialog.show()
        fields = one_line_fields(dialog)
        assert {owner(f) for f in fields} == {dialog.rounds, dialog.steps, dialog.stall,
                                              dialog.budget, dialog.web.lookups,
                                              dialog.web.allowed, dialog.web.blocked}
        if index >= len(fields):
            break
        with qtbot.waitSignal(dialog.settings_saved, timeout=5000):
            press_enter(qtbot, fields[index])
        assert not dialog.isVisible()
