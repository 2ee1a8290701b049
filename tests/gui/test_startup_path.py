"""What runs before the window's first paint: `harness-desk open FOLDER` as a person starts it,
in a fresh process, watched up to the first Expose of its window (as bench/startup.py does)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# Prints, at the window's first Expose, the heavy libraries already imported, the language
# the window was built in and whether the `Qt` namespace was built yet, then exits.
FIRST_PAINT = r"""
import os, sys
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QWidget
class FirstExpose(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Expose:
            heavy = sorted({m.split('.')[0] for m in sys.modules}
                           & {'pydantic', 'pydantic_core', 'anthropic', 'openai', 'httpx'})
            from app.gui.settings import language
            import PySide6.QtCore as core  # PySide builds a class's enums on first use
            qt = 'Qt-built' if 'Qt' in vars(core) else 'Qt-unbuilt'
            print('shown', ','.join(heavy) or '-', language.current(), qt, flush=True)
            os._exit(0)
        return False
_probe = FirstExpose()
_show = QWidget.show
def show(self):
    if self.isWindow():
        self.winId()
        self.windowHandle().installEventFilter(_probe)
    _show(self)
QWidget.show = show
from app.cli import main
sys.exit(main(["open", sys.argv[1]]))
"""


def first_paint(tmp_path: Path, settings: dict | None = None) -> list[str]:
    config = tmp_path / "config"
    config.mkdir()
    if settings is not None:
        (config / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    folder = tmp_path / "Folder"
    folder.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("HARNESS_DESK_")}
    env.update(HARNESS_DESK_CONFIG_DIR=str(config), PYTHONPATH=str(REPO),
               QT_QPA_PLATFORM="offscreen", LANG="en_US.UTF-8", LANGUAGE="en_US")
    done = subprocess.run([sys.executable, "-c", FIRST_PAINT, str(folder)], env=env,
                          capture_output=True, text=True, timeout=120, cwd=REPO)
    line = next((x for x in done.stdout.splitlines() if x.startswith("shown")), None)
    assert line is not None, done.stdout + done.stderr
    return line.split()[1:]


def test_the_first_paint_loads_no_pydantic_and_no_ai_sdk(tmp_path):
    """Reading the language setting used to import app.core.settings, so pydantic (about a
    third of the start-up) loaded before the window could show."""
    heavy, lang, _ = first_paint(tmp_path, {"language": "en", "engine": "demo"})
    assert heavy == "-"
    assert lang == "en"


def test_the_first_paint_does_not_build_the_qt_namespace(tmp_path):
    """PySide6 makes the ~90 Python enums of `Qt` the first time anything reads it (about
    50 ms, a fifth of a bare window's start): the frame shows first, the pages need it."""
    assert first_paint(tmp_path)[2] == "Qt-unbuilt"


def test_the_language_chosen_in_settings_still_builds_the_first_window(tmp_path):
    heavy, lang, _ = first_paint(tmp_path, {"language": "zh_CN"})
    assert (heavy, lang) == ("-", "zh_CN")


def test_the_language_is_read_from_the_file_the_settings_are_saved_in(tmp_path, monkeypatch):
    from app.core.settings import settings_path
    from app.gui.settings import language

    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path))
    settings_path().write_text(json.dumps({"language": "zh_CN"}), encoding="utf-8")
    assert language.stored_choice() == "zh_CN"
    settings_path().write_text("{damaged", encoding="utf-8")
    assert language.stored_choice() == "system"


BUILD = r"""
import sys
from app.gui.app import make_application
import app.gui.main_window as main_window
from app.gui.main_window import MainWindow
main_window._load_the_rest = lambda: None  # its own thread imports the harness meanwhile
qt_app = make_application()
window = MainWindow(defer_pages=True)
window.show()
window.finish_building()
print('pydantic' in sys.modules, window.careful.switch.isChecked(),
      window.careful.folder.careful, 'pydantic' in sys.modules, flush=True)
"""


def test_building_the_window_out_loads_no_pydantic_and_careful_mode_starts_off(tmp_path):
    """The frame's build-out (top bar, menus, pages) is what a person waits for after the
    first paint; careful mode's folder settings (pydantic) load only when first read."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HARNESS_DESK_")}
    env.update(HARNESS_DESK_CONFIG_DIR=str(tmp_path), PYTHONPATH=str(REPO),
               QT_QPA_PLATFORM="offscreen")
    done = subprocess.run([sys.executable, "-c", BUILD], env=env, capture_output=True,
                          text=True, timeout=120, cwd=REPO)
    assert done.stdout.split() == ["False", "False", "False", "True"], done.stdout + done.stderr


def test_on_start_up_the_warm_up_waits_until_the_first_folder_is_on_screen(qtbot, tmp_path,
                                                                          monkeypatch):
    """The imports a run will need go to a worker thread once the folder is usable (its
    checklist drawn, Run enabled): begun earlier, they competed for the GIL with the
    folder's own loading and first paint."""
    import app.gui.main_window as main_window
    from app.core.settings import Settings
    from tests.gui.helpers import demo_copy

    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    warmed, shown = [], []
    monkeypatch.setattr(main_window, "_load_the_rest", lambda: warmed.append(list(shown)))
    window = main_window.MainWindow(defer_pages=True, check_engines=False)
    qtbot.addWidget(window)
    window.show()
    window.finish_building()
    window.apply_settings(Settings())
    folder = demo_copy(tmp_path)
    window.became_usable.connect(lambda: shown.append(folder))
    qtbot.wait(50)
    assert warmed == []
    window.open_workspace(folder)
    qtbot.waitUntil(lambda: bool(warmed), timeout=10_000)
    assert warmed == [[folder]]  # after the folder was usable, and once
    window.open_workspace(folder)
    qtbot.wait(100)
    assert len(warmed) == 1


def test_a_window_built_at_once_warms_up_at_once(qtbot, tmp_path, monkeypatch):
    import app.gui.main_window as main_window

    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    warmed = []
    monkeypatch.setattr(main_window, "_load_the_rest", lambda: warmed.append(True))
    window = main_window.MainWindow(check_engines=False)
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: warmed == [True], timeout=10_000)
