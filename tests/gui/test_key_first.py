"""Claude or OpenAI chosen with no API key: the window says the key is missing, not Ready,
with Engine settings… as the one filled button; after a stop that names Engine settings, that
is the filled one too; Run asks for the key before any budget question; a run that used
nothing says so in plain words."""

from __future__ import annotations

import pytest

from app.gui.look import look
from app.gui.run.run_panel import RunPanel
from app.gui.settings import language
from tests.gui.helpers import demo_copy, open_in


def filled(button) -> bool:
    return button.property(look.TONE_PROPERTY) == "primary"


@pytest.fixture
def no_keys(monkeypatch):
    for name in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9")  # never the real service
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")


def choose(qtbot, window, engine_id: str) -> None:
    window.picker.combo.setCurrentIndex(window.picker.combo.findData(engine_id))
    qtbot.waitUntil(lambda: window.run_panel.key_missing == engine_id, timeout=15_000)


@pytest.mark.parametrize("engine_id, who", [("anthropic", "Claude"), ("openai", "OpenAI")])
def test_an_engine_without_a_key_is_not_ready_and_engine_settings_is_filled(
        qtbot, window, tmp_path, no_keys, engine_id, who):
    open_in(qtbot, window, demo_copy(tmp_path))
    choose(qtbot, window, engine_id)
    panel = window.run_panel
    assert panel.state_label.text() == f"{who} needs your API key"
    assert "Engine settings" in panel.detail_label.text() and "Ready" not in \
        panel.detail_label.text()
    assert panel.engine_action.isVisible() and filled(panel.engine_action)
    assert not filled(panel.primary) and panel.primary.text() == "Run"
    assert not window.notice.isVisible()  # said once, in the status
    # The Demo needs no key: Ready again, Run filled.
    window.picker.combo.setCurrentIndex(window.picker.combo.findData("demo"))
    qtbot.waitUntil(lambda: panel.key_missing == "", timeout=15_000)
    assert panel.state_label.text() != f"{who} needs your API key"
    assert filled(panel.primary) and panel.engine_action.isHidden()


def test_run_with_no_key_asks_for_the_key_not_the_budget(qtbot, window, tmp_path, no_keys,
                                                         budget_question, monkeypatch):
    started = []
    monkeypatch.setattr(window.runner, "start", lambda *a, **k: started.append(a))
    open_in(qtbot, window, demo_copy(tmp_path))
    choose(qtbot, window, "anthropic")
    window.start_run()  # (the run's modules may come first, off the UI thread)
    qtbot.waitUntil(lambda: window.engine_settings_dialog is not None, timeout=5000)
    assert window.budget_dialog is None and started == []
    dialog = window.engine_settings_dialog
    qtbot.waitUntil(dialog.isVisible, timeout=2000)
    assert dialog.engine_id == "anthropic"
    dialog.reject()


@pytest.fixture
def panel(qtbot):
    panel = RunPanel()
    qtbot.addWidget(panel)
    panel.set_mode("run")
    return panel


def test_a_stop_that_names_engine_settings_fills_it_and_says_nothing_was_used(panel):
    panel.reset(is_ai=True)
    panel.show_result("failed", "auth_failed", "", engine_id="anthropic", cause="no_key")
    panel.set_mode("run")
    panel.show_totals(2)
    assert panel.state_label.text() == "Stopped: Claude needs an API key"
    assert filled(panel.engine_action) and not filled(panel.primary)
    assert "tokens" not in panel.meta_label.text() and "$" not in panel.meta_label.text()
    assert panel.meta_label.text().endswith("nothing used, no cost")
    # A stop that names Continue (the round limit) keeps Continue filled.
    panel.show_result("stopped", "max_rounds", "", engine_id="anthropic")
    panel.set_mode("continue")
    assert filled(panel.primary) and panel.engine_action.isHidden()


def test_in_chinese_the_missing_key_and_the_plain_cost(qapp, qtbot):
    assert language.install(qapp, "zh_CN") == "zh_CN"
    try:
        panel = RunPanel()
        qtbot.addWidget(panel)
        panel.set_mode("run")
        panel.engine_now("anthropic", False, False, "no_key")
        assert panel.state_label.text() == "Claude 需要你的 API 密钥"
        assert panel.detail_label.text() == "请在 AI 引擎设置里粘贴你的 Claude API 密钥，然后按“运行”。"
        panel.engine_now("openai", False, False, "no_keychain")
        assert panel.state_label.text() == "OpenAI 需要你的 API 密钥"
        assert "钥匙串" in panel.detail_label.text() and "您" not in panel.detail_label.text()
        assert filled(panel.engine_action) and panel.engine_action.text() == "AI 引擎设置…"
        panel.reset(is_ai=True)
        panel.show_totals(None)
        assert panel.meta_label.text() == "没有产生用量和费用"
    finally:
        language.install(qapp, "en")
