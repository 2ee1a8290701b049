"""A key the service refused (a loopback Claude answering 401): Run does not start a run that
fails at once, it opens Engine settings with the status saying the key was not accepted, as
for a key that is missing; once a new key is saved, Run runs. English and Chinese."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QCoreApplication

from app.core.settings import EngineSettings, Settings
from app.gui.main_window import MainWindow
from app.gui.settings import language
from tests.engines.fake_servers import claude_error, claude_models
from tests.gui.helpers import demo_copy, open_in


@pytest.fixture(params=["en", "zh_CN"])
def lang(request, qapp):
    language.install(qapp, request.param)
    yield request.param
    language.install(qapp, "en")



def test_run_with_a_refused_key_opens_engine_settings_then_runs_with_a_new_one(
        qtbot, lang, keychain, server, tmp_path, budget_question, monkeypatch):
    keychain.set_password("harness-desk", "anthropic", "sk-ant-api03-revoked-key-000000000")
    server.default("/v1/models", claude_error(401, "authentication_error", "invalid x-api-key"))
    window = MainWindow(Settings(engines={"anthropic": EngineSettings(base_url=server.url)}),
                        demo_delay=0.0, check_engines=False)
    qtbot.addWidget(window)
    window.show()
    started = []
    monkeypatch.setattr(window.runner, "start", lambda *a, **k: started.append(a))
    root = demo_copy(tmp_path)
    open_in(qtbot, window, root)
    window.picker.combo.setCurrentIndex(window.picker.combo.findData("anthropic"))
    panel = window.run_panel
    qtbot.waitUntil(lambda: panel.not_ready[0] == "anthropic", timeout=15_000)
    sentence = window.picker.not_ready_sentence("anthropic")
    assert sentence == QCoreApplication.translate("", "%1 did not accept the saved API key: "
                                                  "paste a new one in Engine settings.") \
        .replace("%1", "Claude")
    if lang == "zh_CN":
        assert not sentence.isascii() and "Claude" in sentence

    window.start_run()  # Run (and Ctrl+R): the key first, not a run that fails at once
    qtbot.waitUntil(lambda: window.engine_settings_dialog is not None, timeout=5000)
    dialog = window.engine_settings_dialog
    qtbot.waitUntil(dialog.isVisible, timeout=2000)
    assert dialog.engine_id == "anthropic"
    assert started == [] and window.budget_dialog is None
    assert panel.detail_label.text() == sentence  # the key was not accepted, said in place
    assert panel.state_label.text() == panel.tr("%1 cannot run yet").replace("%1", "Claude")
    dialog.reject()

    # A new key saved (Engine settings' key_changed): the old answer no longer holds.
    keychain.set_password("harness-desk", "anthropic", "sk-ant-api03-NewWorkingKey-0123456789")
    server.default("/v1/models", claude_models(["claude-sonnet-5-5"]))
    window.settings_flow.recheck("anthropic")
    run_flow = window.run_flow
    run_flow._budget_seen = (window.folder_flow.workspace, "anthropic")  # its budget answered
    window.settings_flow.engine_settings_dialog = None
    window.start_run()
    qtbot.waitUntil(lambda: len(started) == 1, timeout=5000)
    assert window.engine_settings_dialog is None
    qtbot.waitUntil(lambda: not window.picker._checking, timeout=15_000)
