"""Settings: limits, a budget, the Demo engine's speed and the language, saved to the settings
file and used by the next run."""

from __future__ import annotations

import json


from app.core.settings import Limits, Settings, load_settings, settings_path
from app.gui.settings.settings_dialog import SettingsDialog
from tests.gui.helpers import demo_copy, open_in, run_until_end


def open_settings(qtbot, window) -> SettingsDialog:
    window.settings_action.trigger()
    dialog = window.settings_dialog
    qtbot.waitUntil(dialog.isVisible, timeout=2000)
    return dialog


def test_the_dialog_shows_the_current_settings(qtbot):
    limits = Limits(max_rounds=7, max_steps=12, stall_limit=3, budget_usd=1.5)
    dialog = SettingsDialog(Settings(limits=limits, demo_delay_s=1.5, language="en"))
    qtbot.addWidget(dialog)
    assert (dialog.rounds.value(), dialog.steps.value(), dialog.stall.value()) == (7, 12, 3)
    assert dialog.budget_on.isChecked() and dialog.budget.value() == 1.5
    assert dialog.demo_speed.currentData() == 1.5
    assert dialog.language.currentData() == "en"
    for box in (dialog.rounds, dialog.steps, dialog.stall, dialog.budget, dialog.demo_speed,
                dialog.language):
        assert box.accessibleName() and box.toolTip()


def test_a_two_dollar_budget_by_default_and_the_core_ranges_hold(qtbot):
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    assert dialog.budget_on.isChecked() and dialog.budget.value() == 2.0
    fields = Limits.model_fields
    assert dialog.steps.maximum() == 500 and dialog.rounds.maximum() == 10_000
    assert dialog.stall.maximum() == 100 and fields["max_steps"].default == dialog.steps.value()
    chosen = dialog.chosen_settings()
    assert chosen.limits.budget_usd == 2.0 and chosen.ui["budget_chosen"]


def test_a_budget_turned_off_stays_off(qtbot):
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    dialog.budget_on.setChecked(False)
    assert not dialog.budget.isEnabled()
    chosen = dialog.chosen_settings()
    assert chosen.limits.budget_usd is None and chosen.ui["budget_chosen"]
    again = SettingsDialog(chosen)
    qtbot.addWidget(again)
    assert not again.budget_on.isChecked()


def test_each_limit_is_explained_in_a_line(qtbot):
    from PySide6.QtWidgets import QLabel

    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    lines = [label.text() for label in dialog.findChildren(QLabel)]
    for words in ("A round is the AI working on one task; the run stops after this many.",
                  "A step is one thing the AI does, such as reading or writing a file; a round "
                  "stops after this many.",
                  "When this many rounds in a row finish no task, the run stops so it does not "
                  "go round in circles."):
        assert words in lines


def test_ctrl_comma_opens_it_and_the_file_menu_lists_it(qtbot, window):
    assert window.settings_action.shortcut().toString() == "Ctrl+,"
    file_menu = window.menuBar().actions()[0].menu()
    assert window.settings_action in file_menu.actions()
    assert window.engine_settings_action in file_menu.actions()
    dialog = open_settings(qtbot, window)
    assert dialog.windowTitle() == "Settings"


def test_saved_limits_reach_the_file_and_the_next_run(qtbot, window, tmp_path):
    folder = demo_copy(tmp_path)
    open_in(qtbot, window, folder)
    dialog = open_settings(qtbot, window)
    dialog.rounds.setValue(1)
    dialog.steps.setValue(40)
    dialog.stall.setValue(4)
    dialog.budget_on.setChecked(True)
    dialog.budget.setValue(3.25)
    dialog.demo_speed.setCurrentIndex(dialog.demo_speed.findData(3.0))
    dialog.button_box().button(dialog.button_box().StandardButton.Save).click()
    qtbot.waitUntil(lambda: load_settings().settings.limits.max_rounds == 1, timeout=5000)

    saved = json.loads(settings_path().read_text(encoding="utf-8"))
    assert saved["limits"]["max_steps"] == 40 and saved["limits"]["stall_limit"] == 4
    assert saved["limits"]["budget_usd"] == 3.25 and saved["demo_delay_s"] == 3.0
    assert not list(settings_path().parent.glob("*.tmp*"))  # written atomically, nothing left

    result = run_until_end(qtbot, window)  # one round per run now: it stops after the first
    assert (result.state, result.exit_reason) == ("stopped", "max_rounds")
    assert window.run_panel.state_label.text() == "Stopped at the round limit"


def test_a_new_language_is_kept_and_shows_on_the_next_start(qtbot, window):
    dialog = open_settings(qtbot, window)
    assert dialog.language.currentData() == "system"
    assert [dialog.language.itemText(i) for i in range(3)] == \
        ["Follow the system", "English", "简体中文"]
    dialog.language.setCurrentIndex(dialog.language.findData("zh_CN"))
    assert dialog.language_note.isVisible()
    with qtbot.waitSignal(dialog.language_changed, timeout=1000) as changed:
        dialog.accept()
    assert changed.args == ["zh_CN"]
    qtbot.waitUntil(lambda: load_settings().settings.language == "zh_CN", timeout=5000)
    assert "next time" in window.notice.text.text() and window.notice.isVisible()


def test_cancel_changes_nothing(qtbot, window):
    dialog = open_settings(qtbot, window)
    dialog.rounds.setValue(3)
    dialog.reject()
    assert window.settings.limits.max_rounds == Limits().max_rounds
    assert not settings_path().exists()


def test_a_language_this_version_does_not_know_follows_the_system():
    assert Settings.model_validate({"language": "fr"}).language == "system"
    assert Settings.model_validate({"language": "zh_CN"}).language == "zh_CN"


def test_an_untouched_demo_speed_stays_unset(qtbot):
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    assert dialog.demo_speed.currentData() == 0.6  # shown as the window's normal pace
    assert dialog.chosen_settings().demo_delay_s == 0.0
    from app.gui.window.run_flow import DEMO_STEP_S
    from app.gui.settings.settings_dialog import NORMAL_SPEED

    assert NORMAL_SPEED == DEMO_STEP_S
