"""The engine dropdown: Demo, Claude, OpenAI, Local, each marked ready or not, with the reason."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from app.core.settings import Settings
from app.gui.engines.engine_picker import EnginePicker


@pytest.fixture
def picker(qtbot, tmp_path, monkeypatch, request):
    request_finalizer = request.addfinalizer
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    for name in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_BASE_URL", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    import keyring

    from app.engines import keys
    from tests.memory_keyring import MemoryKeyring

    previous = keyring.get_keyring()
    keyring.set_keyring(MemoryKeyring())  # an empty keychain: no key, never the real one
    keys._stuck = None
    request_finalizer(lambda: keyring.set_keyring(previous))
    widget = EnginePicker()
    # Local: a port where nothing listens, so "not ready" comes at once and never by chance.
    settings = Settings.model_validate(
        {"engines": {"local": {"base_url": "http://127.0.0.1:9/v1"}}})
    widget.settings_now = lambda: settings
    qtbot.addWidget(widget)
    return widget


def item_text(picker: EnginePicker, engine_id: str, role) -> str:
    return picker.combo.itemData(picker.combo.findData(engine_id), role) or ""


def test_the_four_engines_are_offered_demo_first(picker):
    labels = [picker.combo.itemText(i) for i in range(picker.combo.count())]
    assert labels == ["Demo (offline, no AI)", "Claude", "OpenAI", "Local (Ollama, LM Studio)"]
    assert picker.engine_id == "demo" and not picker.model.isEnabled()


def test_each_engine_is_marked_ready_or_not_with_how_to_make_it_ready(qtbot, picker):
    picker.check_all()
    qtbot.waitUntil(lambda: len(picker.readiness) == 4, timeout=30_000)
    assert picker.is_ready("demo") is True
    assert item_text(picker, "demo", Qt.ItemDataRole.AccessibleTextRole).endswith(", ready")
    assert picker.is_ready("anthropic") is False
    # One sentence of the window's: why, for this engine, and where to put it right.
    assert item_text(picker, "anthropic", Qt.ItemDataRole.ToolTipRole) == \
        "Claude needs your API key before it can run: paste it in Engine settings."
    assert item_text(picker, "anthropic", Qt.ItemDataRole.AccessibleTextRole) == \
        "Claude, not ready"
    assert picker.is_ready("local") is False
    assert item_text(picker, "local", Qt.ItemDataRole.ToolTipRole) == (
        "Nothing is answering at http://127.0.0.1:9/v1: start your local server there (Ollama, "
        "LM Studio, llama.cpp's llama-server or another), or correct the address in Engine "
        "settings.")


def test_choosing_an_engine_says_so_and_names_it_for_a_screen_reader(qtbot, picker):
    with qtbot.waitSignal(picker.engine_changed, timeout=1000) as chosen:
        picker.combo.setCurrentIndex(picker.combo.findData("openai"))
    assert chosen.args == ["openai"]
    assert picker.model.isEnabled()
    assert picker.combo.accessibleName().startswith("Engine: OpenAI")
    assert "engine is the AI service" in picker.combo.toolTip()


def test_a_model_typed_in_is_kept_and_reported(qtbot, picker):
    picker.select("anthropic", {"anthropic": ""})
    picker.model.setEditText("claude-test-1")
    with qtbot.waitSignal(picker.model_changed, timeout=1000) as changed:
        picker.model.lineEdit().editingFinished.emit()
    assert changed.args == ["claude-test-1"] and picker.model_name == "claude-test-1"
