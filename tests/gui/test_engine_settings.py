"""Engine settings: a key kept in the keychain (never a file), the local server's address, the
model list, and "Test connection" answering in plain words within seconds."""

from __future__ import annotations

import time
from pathlib import Path

import keyring
import pytest
from PySide6.QtCore import Qt
from keyring.backends import fail

from app.core.settings import EngineSettings, Settings, load_settings
from app.engines import keys
from app.gui.engines.engine_settings import EngineSettingsDialog
from app.gui.main_window import MainWindow
from tests.engines.fake_servers import claude_error, claude_models, free_port
from tests.gui.helpers import demo_copy, open_in

KEY = "sk-ant-api03-DialogTestKey-0123456789abcdefXYZ"


@pytest.fixture(autouse=True)
def _keychain(keychain):
    """Every test here: the in-memory keychain (tests/gui/conftest.py)."""
    return keychain



def claude_at(url: str, model: str = "claude-sonnet-5-5") -> Settings:
    return Settings(engines={"anthropic": EngineSettings(base_url=url, model=model)})


def open_dialog(qtbot, settings: Settings, engine_id: str = "anthropic") -> EngineSettingsDialog:
    """The dialog, once its first look at the keychain and the engine has come back."""
    dialog = EngineSettingsDialog(settings, engine_id)
    qtbot.addWidget(dialog)
    with qtbot.waitSignal(dialog.connection_checked, timeout=15_000):
        dialog.show()
    if engine_id != "local":
        qtbot.waitUntil(lambda: engine_id in dialog._states, timeout=5000)
    return dialog


def test_connection(qtbot, dialog) -> tuple[str, float]:
    started = time.monotonic()
    with qtbot.waitSignal(dialog.connection_checked, timeout=10_000) as checked:
        dialog.test_button.click()
    return checked.args[0], time.monotonic() - started


test_connection.__test__ = False  # a helper, not a test


def store_through(qtbot, dialog, secret: str) -> None:
    """Type the key and press Save key; saving tests the connection with it at once."""
    qtbot.keyClicks(dialog.key_field, secret)
    with qtbot.waitSignals([dialog.key_changed, dialog.connection_checked], timeout=10_000):
        dialog.save_key_button.click()


# -- the key ---------------------------------------------------------------------------------

def test_a_key_is_stored_in_the_keychain_and_removed_again(qtbot, keychain, server):
    server.default("/v1/models", claude_models(["claude-sonnet-5-5"]))
    dialog = open_dialog(qtbot, claude_at(server.url))
    assert dialog.key_field.echoMode() == dialog.key_field.EchoMode.Password
    assert dialog.key_status.text() == "No key is stored yet."
    assert not dialog.remove_key_button.isEnabled()

    store_through(qtbot, dialog, KEY)
    assert keychain.store == {("harness-desk", "anthropic"): KEY}
    assert dialog.key_status.text() == "Stored in your computer's keychain."
    assert dialog.key_field.text() == ""  # the field forgets it once it is in the keychain
    assert dialog.remove_key_button.isEnabled()
    assert dialog.verdict.text() == "Ready. The engine answered and can do the work."

    with qtbot.waitSignal(dialog.key_changed, timeout=10_000):
        dialog.remove_key_button.click()
    assert keychain.store == {}
    assert dialog.key_status.text() == "No key is stored yet."
    assert not dialog.remove_key_button.isEnabled()
    assert dialog.verdict.text() == "The key was removed from the keychain."


def test_the_key_never_reaches_a_file(qtbot, keychain, server, tmp_path):
    server.default("/v1/models", claude_models(["claude-sonnet-5-5"]))
    folder = demo_copy(tmp_path, "Bakery")
    window = MainWindow(claude_at(server.url), demo_delay=0.0, check_engines=False)
    qtbot.addWidget(window)
    window.show()
    open_in(qtbot, window, folder)
    window.engine_settings_button.click()
    dialog = window.engine_settings_dialog
    qtbot.waitUntil(lambda: "anthropic" in dialog._states, timeout=5000)
    store_through(qtbot, dialog, KEY)
    assert dialog.verdict.text().startswith("Ready")
    dialog.model.setEditText("claude-sonnet-5-5")
    dialog.accept()
    qtbot.waitUntil(lambda: load_settings().settings.engine_settings("anthropic").model
                    == "claude-sonnet-5-5", timeout=5000)
    qtbot.waitUntil(lambda: window.settings_flow.writes.idle, timeout=5000)

    assert keychain.store[("harness-desk", "anthropic")] == KEY
    qtbot.waitUntil(lambda: window.picker.is_ready("anthropic") is True, timeout=10_000)
    config = Path(tmp_path / "config")
    written = [p for root in (config, folder) for p in root.rglob("*") if p.is_file()]
    assert any(p.name == "settings.json" for p in written)
    for path in written:
        data = path.read_bytes()
        assert KEY.encode() not in data and KEY.encode("utf-16-le") not in data, path


def test_enter_in_the_key_field_saves_the_key_and_keeps_the_dialog_open(qtbot, keychain,
                                                                         server):
    server.default("/v1/models", claude_models(["claude-sonnet-5-5"]))
    dialog = open_dialog(qtbot, claude_at(server.url))
    qtbot.keyClicks(dialog.key_field, KEY)
    with qtbot.waitSignal(dialog.key_changed, timeout=10_000):
        qtbot.keyClick(dialog.key_field, Qt.Key.Key_Return)
    assert dialog.isVisible() and dialog.result() == 0
    assert keychain.store == {("harness-desk", "anthropic"): KEY}


def test_save_with_a_key_typed_stores_it_before_closing(qtbot, keychain, server):
    server.default("/v1/models", claude_models(["claude-sonnet-5-5"]))
    dialog = open_dialog(qtbot, claude_at(server.url))
    qtbot.keyClicks(dialog.key_field, KEY)
    with qtbot.waitSignals([dialog.key_changed, dialog.settings_saved], timeout=10_000):
        dialog.accept()
    assert keychain.store == {("harness-desk", "anthropic"): KEY}
    assert not dialog.isVisible()


def test_without_a_keychain_the_key_can_be_kept_for_this_session_only(qtbot, server,
                                                                       tmp_path):
    """No usable keychain: the field stays usable and offers to keep the key in memory for
    this session, said plainly; the window's engine becomes ready at once with it, and the
    key is on no file, in no record and in no export."""
    keyring.set_keyring(fail.Keyring())
    server.default("/v1/models", claude_models(["claude-sonnet-5-5"]))
    folder = demo_copy(tmp_path, "Bakery")
    window = MainWindow(claude_at(server.url), demo_delay=0.0, check_engines=False)
    qtbot.addWidget(window)
    window.show()
    open_in(qtbot, window, folder)
    window.picker.combo.setCurrentIndex(window.picker.combo.findData("anthropic"))
    qtbot.waitUntil(lambda: window.picker.is_ready("anthropic") is False, timeout=10_000)
    panel = window.run_panel  # said once, in the status, with Engine settings… filled
    assert panel.state_label.text() == "Claude needs your API key"
    assert panel.detail_label.text() == ("This computer has no keychain: keep your Claude API "
                                         "key for this session in Engine settings, then "
                                         "press Run.")
    assert not window.notice.isVisible()
    panel.engine_action.click()  # "Engine settings…"
    dialog = window.engine_settings_dialog
    qtbot.waitUntil(lambda: "anthropic" in dialog._states, timeout=5000)
    assert dialog.key_status.text().startswith(
        "This computer has no keychain Harness Desk can use, so the key can be kept for this "
        "session only: in memory until you quit, never written to a file;")
    assert dialog.key_field.isEnabled()
    assert dialog.save_key_button.text() == "Keep for this &session"
    try:
        store_through(qtbot, dialog, KEY)
        assert dialog.key_status.text() == ("Kept for this session only: in memory until you "
                                            "quit Harness Desk, never written to a file.")
        assert dialog.verdict.text() == "Ready. The engine answered and can do the work."
        assert keys.lookup_key("anthropic") == (KEY, "session")
        qtbot.waitUntil(lambda: window.picker.is_ready("anthropic") is True, timeout=10_000)
        assert not window.notice.isVisible()
        assert panel.state_label.text() == "Ready" and panel.engine_action.isHidden()
        dialog.reject()
        written = [p for root in (tmp_path / "config", folder) for p in root.rglob("*")
                   if p.is_file()]
        for path in written:
            data = path.read_bytes()
            assert KEY.encode() not in data and KEY.encode("utf-16-le") not in data, path
        # Remove forgets it: the engine is not ready again.
        dialog = EngineSettingsDialog(claude_at(server.url), "anthropic")
        qtbot.addWidget(dialog)
        qtbot.waitUntil(lambda: "anthropic" in dialog._states, timeout=5000)
        dialog.key_changed.connect(window.settings_flow.recheck)
        with qtbot.waitSignal(dialog.key_changed, timeout=10_000):
            dialog.remove_key_button.click()
        assert keys.lookup_key("anthropic") == (None, "")
        assert dialog.verdict.text() == "The key kept for this session is forgotten."
        qtbot.waitUntil(lambda: window.picker.is_ready("anthropic") is False, timeout=10_000)
    finally:
        keys.forget_session_key("anthropic")


def test_readiness_follows_a_key_saved_while_a_check_is_on_its_way(qtbot, keychain, server):
    """A check that read the old (revoked) key is still waiting for the service when the new
    key is saved: the window asks again at once, and the old answer does not count."""
    import anthropic  # noqa: F401  loaded now: the check's seconds all go to the service

    keychain.set_password("harness-desk", "anthropic", "sk-ant-api03-revoked-key-000000000")
    slow_no = claude_error(401, "authentication_error", "invalid x-api-key")
    slow_no.delay_s = 1.5
    server.push("/v1/models", slow_no)
    server.default("/v1/models", claude_models(["claude-sonnet-5-5"]))
    window = MainWindow(claude_at(server.url), demo_delay=0.0, check_engines=False)
    qtbot.addWidget(window)
    window.show()
    window.picker.combo.setCurrentIndex(window.picker.combo.findData("anthropic"))
    qtbot.waitUntil(lambda: any(r.path == "/v1/models" for r in server.requests), timeout=20_000)
    keys.set_key("anthropic", KEY)  # what Save key does, then it says so:
    window.settings_flow.recheck("anthropic")
    qtbot.waitUntil(lambda: window.picker.is_ready("anthropic") is True, timeout=10_000)
    qtbot.wait(2000)  # the slow "401" to the old key has come back by now, and changed nothing
    assert window.picker.is_ready("anthropic") is True
    assert not window.notice.isVisible()


def test_a_rejected_key_is_named_as_rejected_not_as_missing(qtbot, keychain, server):
    keychain.set_password("harness-desk", "anthropic", "sk-ant-api03-revoked-key-000000000")
    server.default("/v1/models", claude_error(401, "authentication_error", "invalid x-api-key"))
    window = MainWindow(claude_at(server.url), demo_delay=0.0, check_engines=False)
    qtbot.addWidget(window)
    window.show()
    window.picker.combo.setCurrentIndex(window.picker.combo.findData("anthropic"))
    qtbot.waitUntil(lambda: window.notice.isVisible(), timeout=10_000)
    assert window.notice.text.text() == ("Claude did not accept the saved API key: paste a new "
                                         "one in Engine settings.")
    assert window.notice.action.text() == "Engine settings…"


# -- Test connection -------------------------------------------------------------------------

def test_ready_is_said_in_plain_words_within_seconds(qtbot, keychain, server):
    keychain.set_password("harness-desk", "anthropic", KEY)
    server.default("/v1/models", claude_models(["claude-sonnet-5-5", "claude-opus-5"]))
    dialog = open_dialog(qtbot, claude_at(server.url))
    verdict, seconds = test_connection(qtbot, dialog)
    assert verdict == "ready" and seconds < 5
    assert dialog.verdict.text() == "Ready. The engine answered and can do the work."
    assert "claude-sonnet-5-5" in dialog.verdict_detail.text()
    # The model list is the engine's own now, not the built-in fallback.
    assert [dialog.model.itemText(i) for i in range(dialog.model.count())] == \
        ["claude-sonnet-5-5", "claude-opus-5"]


def test_a_rejected_key_is_said_in_plain_words(qtbot, keychain, server):
    keychain.set_password("harness-desk", "anthropic", "sk-ant-api03-revoked-key-000000000")
    server.default("/v1/models", claude_error(401, "authentication_error", "invalid x-api-key"))
    dialog = open_dialog(qtbot, claude_at(server.url))
    verdict, seconds = test_connection(qtbot, dialog)
    assert verdict == "key_rejected" and seconds < 5
    assert dialog.verdict.text().startswith("The key was rejected.")
    # The models offered are the known ones, since the engine would not list its own.
    assert dialog.model.findText("claude-sonnet-5-5") >= 0


def test_a_model_the_key_cannot_use_is_named(qtbot, keychain, server):
    keychain.set_password("harness-desk", "anthropic", KEY)
    server.default("/v1/models", claude_models(["claude-opus-5"]))
    dialog = open_dialog(qtbot, claude_at(server.url, model="claude-nonesuch-1"))
    verdict, _ = test_connection(qtbot, dialog)
    assert verdict == "no_model"
    assert dialog.verdict.text() == ("Claude has no model called “claude-nonesuch-1” that your "
                                     "key can use: choose one from the Model list.")


def test_no_server_running_is_said_in_plain_words(qtbot):
    address = f"http://127.0.0.1:{free_port()}/v1"
    dialog = open_dialog(qtbot, Settings(engines={"local": EngineSettings(base_url=address)}),
                         "local")
    assert dialog.address.isVisible() and not dialog.key_field.isVisible()
    verdict, seconds = test_connection(qtbot, dialog)
    assert verdict == "not_running" and seconds < 5
    assert dialog.verdict.text() == ("Nothing answers at this address: start Ollama, LM "
                                     "Studio or llama.cpp's llama-server, or correct the "
                                     "address, then press Test connection.")


def test_without_a_key_the_test_says_to_paste_one(qtbot, server):
    server.default("/v1/models", claude_models(["claude-sonnet-5-5"]))
    dialog = open_dialog(qtbot, claude_at(server.url))
    verdict, _ = test_connection(qtbot, dialog)
    assert verdict == "no_key"
    assert "Paste your key above" in dialog.verdict.text()


# -- address and model -----------------------------------------------------------------------

def test_the_local_presets_fill_the_address_and_save_keeps_it(qtbot):
    dialog = open_dialog(qtbot, Settings(engines={"local": EngineSettings(
        base_url=f"http://127.0.0.1:{free_port()}/v1")}), "local")
    assert set(dialog.presets) == {"Ollama", "LM Studio"}
    dialog.presets["LM Studio"].click()
    assert dialog.address.text() == "http://localhost:1234/v1"
    dialog.model.setEditText("qwen3:8b")
    with qtbot.waitSignal(dialog.settings_saved, timeout=1000) as saved:
        dialog.accept()
    local = saved.args[0].engine_settings("local")
    assert (local.base_url, local.model) == ("http://localhost:1234/v1", "qwen3:8b")


def test_known_models_are_offered_before_the_engine_answers(qtbot):
    dialog = EngineSettingsDialog(Settings(), "openai")
    qtbot.addWidget(dialog)
    assert dialog.model.count() > 0 and dialog.model.findText("gpt-5.5") >= 0


# -- reaching it -----------------------------------------------------------------------------

def test_the_gear_and_a_not_ready_engines_message_open_it(qtbot, tmp_path):
    settings = Settings(engine="local", engines={"local": EngineSettings(
        base_url=f"http://127.0.0.1:{free_port()}/v1")})
    window = MainWindow(settings, demo_delay=0.0, check_engines=False)
    qtbot.addWidget(window)
    window.show()
    gear = window.engine_settings_button
    assert gear.accessibleName() == "Engine settings…" and gear.toolTip()
    window.picker.check("local")
    qtbot.waitUntil(lambda: window.picker.is_ready("local") is False, timeout=10_000)
    assert window.notice.isVisible() and window.notice.action.text() == "Engine settings…"
    window.notice.action.click()
    dialog = window.engine_settings_dialog
    assert dialog.isVisible() and dialog.engine_id == "local"
    assert window.engine_settings_action.text() == "En&gine settings…"


def test_the_dialog_keeps_every_sentence_whole_when_made_smaller(qtbot):
    """No keychain: the long note about keeping the key for this session is never cut off,
    however small the dialog is dragged, and it says what to do."""
    from PySide6.QtWidgets import QLabel

    keyring.set_keyring(fail.Keyring())
    dialog = EngineSettingsDialog(Settings(), "anthropic")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: "anthropic" in dialog._states, timeout=5000)
    # what to do is said once, under Test connection (walk8b): the note says why
    qtbot.waitUntil(lambda: "press Keep for this session" in dialog.verdict.text(),
                    timeout=10_000)
    assert "press Keep for this session" not in dialog.key_status.text()
    assert "D-Bus" not in dialog.key_status.text() and "backend" not in dialog.key_status.text()
    layout = dialog.layout()
    layout.invalidate()
    assert dialog.minimumHeight() >= layout.totalHeightForWidth(dialog.width())
    dialog.resize(dialog.width(), 120)
    qtbot.wait(100)  # the layout places its widgets
    for label in dialog.findChildren(QLabel):
        if label.isVisible() and label.wordWrap() and label.text():
            assert label.height() >= label.heightForWidth(label.width()), label.text()
    from PySide6.QtWidgets import QDialogButtonBox

    buttons = dialog.findChild(QDialogButtonBox)
    assert buttons.geometry().bottom() <= dialog.height()


def test_no_answer_is_said_once_and_the_address_is_in_the_tooltip(qtbot, keychain):
    """Under Xvfb with no network: "No answer. Check your internet connection and try again."
    and under it the engine's own "Could not connect … Check your internet connection and try
    again.": the same advice twice. The address is for a helper: in the tooltip."""
    keychain.set_password("harness-desk", "anthropic", KEY)
    url = f"http://127.0.0.1:{free_port()}"
    dialog = open_dialog(qtbot, claude_at(url))
    verdict, _seconds = test_connection(qtbot, dialog)
    assert verdict == "no_answer"
    assert dialog.verdict.text() == "No answer. Check your internet connection and try again."
    assert not dialog.verdict_detail.isVisible()
    assert "127.0.0.1" in dialog.verdict.toolTip()
