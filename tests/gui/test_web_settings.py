"""Settings: looking things up on the web (issue 37): lookups per task and the sites."""

from __future__ import annotations

from app.core.settings import Limits, Settings
from app.gui.settings.settings_dialog import SettingsDialog


def test_the_web_settings_show_and_save_the_limits_and_sites(qtbot):
    limits = Limits(max_lookups=7, web_allowed_domains=["gov.uk"])
    dialog = SettingsDialog(Settings(limits=limits))
    qtbot.addWidget(dialog)
    web = dialog.web
    assert web.lookups.value() == 7 and web.allowed.text() == "gov.uk"
    assert web.blocked.text() == ""
    for box in (web.lookups, web.allowed, web.blocked):
        assert box.accessibleName() and box.toolTip()
    web.lookups.setValue(12)
    web.allowed.setText("")
    web.blocked.setText("https://www.Pinterest.com/pins, x.com x.com")
    chosen = dialog.chosen_settings().limits
    assert chosen.max_lookups == 12 and chosen.web_allowed_domains == []
    assert chosen.web_blocked_domains == ["pinterest.com", "x.com"]
    assert chosen.max_steps == limits.max_steps  # the other limits as they were


def test_the_lookups_follow_the_cores_range(qtbot):
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    field = Limits.model_fields["max_lookups"]
    assert dialog.web.lookups.value() == field.default == 20
    assert dialog.web.lookups.maximum() == 500
