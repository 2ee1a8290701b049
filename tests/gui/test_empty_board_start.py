"""A TASKS.md with no task, opened on start-up as app.py opens a named folder (read before the
window asks, the settings loaded once the folder has settled): the settings still come and
the engine's readiness is checked, its dot filled, as on a folder with tasks. English and
Chinese (the dot's words)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QCoreApplication, Qt

from app.core.settings import Settings
from app.gui.folder import early_read
from app.gui.main_window import MainWindow
from app.gui.settings import language
from tests.gui.helpers import DEMO_TASK


@pytest.fixture(params=["en", "zh_CN"])
def lang(request, qapp):
    language.install(qapp, request.param)
    yield request.param
    language.install(qapp, "en")


@pytest.mark.parametrize("board", ["# Tasks\n\n", "# Tasks\n\n" + DEMO_TASK])
def test_a_folder_with_no_task_settles_and_its_engine_is_checked(qtbot, tmp_path, monkeypatch,
                                                                 lang, board):
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    for name in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    for name in ("ANTHROPIC_BASE_URL", "OPENAI_BASE_URL"):
        monkeypatch.setenv(name, "http://127.0.0.1:9")  # never the real services (local: loopback)
    folder = tmp_path / "Notes"
    folder.mkdir()
    (folder / "TASKS.md").write_text(board, encoding="utf-8")
    early = early_read.EarlyRead(folder)
    qtbot.waitUntil(lambda: early.done, timeout=10_000)  # read before the window asks
    window = MainWindow(defer_pages=True)  # app.main's window, checks and all
    qtbot.addWidget(window)
    window.show()
    window.open_workspace(folder, early)
    window.after_first_folder(lambda: window.apply_settings(Settings()))  # app.py's order
    qtbot.waitUntil(lambda: window.settings_flow.settings is not None, timeout=10_000)
    picker = window.picker
    qtbot.waitUntil(lambda: picker.is_ready("demo") is True, timeout=15_000)
    spoken = picker.combo.itemData(picker.combo.findData("demo"),
                                   Qt.ItemDataRole.AccessibleTextRole)
    assert spoken.endswith(QCoreApplication.translate("EnginePicker", "ready"))
    if lang == "zh_CN":
        assert not spoken.isascii()
    qtbot.waitUntil(lambda: not picker._checking, timeout=15_000)
