"""GUI tests run offscreen: no display is needed, on CI or on a developer's machine."""

import os

os.environ["QT_QPA_PLATFORM"] = "offscreen"


import pytest  # noqa: E402


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


@pytest.fixture(autouse=True)
def no_real_file_dialogs(monkeypatch):
    """A native file dialog is modal and would wait for a person forever under pytest: any
    test that reaches "Open a folder…" gets an answer of "cancelled" instead."""
    from PySide6.QtWidgets import QFileDialog

    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(lambda *a, **k: ""))
