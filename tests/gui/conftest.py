"""GUI tests run offscreen: no display is needed, on CI or on a developer's machine."""

import os

os.environ["QT_QPA_PLATFORM"] = "offscreen"


import pytest


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    """A main window with its own settings folder, no engine checks, the Demo at full speed."""
    from app.core.settings import Settings
    from app.gui.main_window import MainWindow

    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    win = MainWindow(Settings(), demo_delay=0.0, check_engines=False)
    win.show()
    yield win
    # Not qtbot.addWidget: it closes the window before this runs, and a window with a run
    # going asks before it closes. End the run first, then close.
    if win.runner.running:
        with qtbot.waitSignal(win.runner.run_finished, timeout=10_000):
            win.runner.stop()
    win.close()
    win.deleteLater()


@pytest.fixture
def keychain(monkeypatch, tmp_path):
    """An in-memory OS keychain and a settings folder of the test's own, with no key or
    server address from the environment (the window's key tests)."""
    import keyring

    from app.engines import keys
    from tests.memory_keyring import MemoryKeyring

    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    for name in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_BASE_URL", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    keys._stuck = None
    yield backend
    keyring.set_keyring(previous)


@pytest.fixture(autouse=True)
def no_real_file_dialogs(monkeypatch):
    """A native file dialog is modal and would wait for a person forever under pytest: any
    test that reaches "Open a folder…" gets an answer of "cancelled" instead."""
    from PySide6.QtWidgets import QFileDialog

    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(lambda *a, **k: ""))


@pytest.fixture(autouse=True)
def no_budget_question(monkeypatch):
    """The question before a folder's first Claude or OpenAI run (its budget per run) would
    wait for a person forever in the tests that run those engines against a loopback server:
    there it counts as answered with the $2 default. tests/gui/test_first_paid_run.py asks it
    (the `budget_question` fixture)."""
    from app.gui.window.run_flow import RunFlow

    monkeypatch.setattr(RunFlow, "_ask_budget_first", lambda self, root: False)


@pytest.fixture
def budget_question(monkeypatch):
    from app.gui.window.run_flow import RunFlow

    monkeypatch.setattr(RunFlow, "_ask_budget_first", ASK_BUDGET_FIRST)


def _original_question():
    from app.gui.window.run_flow import RunFlow

    return RunFlow._ask_budget_first


ASK_BUDGET_FIRST = _original_question()


@pytest.fixture(params=["en", "zh_CN"])
def lang(request, qapp):
    """The window's words in English, then in Chinese (back to English after)."""
    from app.gui.settings import language

    assert language.install(qapp, request.param) == request.param
    yield request.param
    language.install(qapp, "en")
