"""What the start-up reads before the window is usable (issue 36, point 1): the checklist and
the Run button need the board and status.json, not the run records (read through pydantic,
about 40% of the time to a usable window); those, the folder's careful-mode settings and the
icons' other sizes come after, and the earlier rounds still reach the cards."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QSize
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication

from tests.export_fixtures import DEMO_WORKSPACE, run_cli

REPO = Path(__file__).resolve().parents[2]

# `harness-desk open FOLDER` in a fresh process: at `became_usable` it prints what is loaded,
# the run panel's mode and the GIL's switch interval; once the folder is wholly shown
# (`workspace_opened`, after the earlier rounds are on the cards) the number of cards.
USABLE = r"""
import os, sys
import app.gui.main_window as mw
_build = mw.MainWindow.finish_building
def finish_building(self):
    fresh = self._page is None
    _build(self)
    if fresh:
        def usable():
            heavy = sorted({m.split('.')[0] for m in sys.modules} & {'pydantic', 'pydantic_core'})
            print('usable', ','.join(heavy) or '-', self.run_panel.mode, sys.getswitchinterval(),
                  flush=True)
        self.became_usable.connect(usable)
        from app.gui.look import warm_types
        self.workspace_opened.connect(lambda _f: (print('cards', len(self.cards._entries),
                                                       warm_types._warming is not None,
                                                       flush=True), os._exit(0)))
mw.MainWindow.finish_building = finish_building
from PySide6.QtCore import QTimer
QTimer.singleShot(60_000, lambda: (print('timed out', flush=True), os._exit(1)))
from app.cli import main
sys.exit(main(["open", sys.argv[1]]))
"""


def test_a_folder_with_runs_is_usable_before_its_run_records_are_read(tmp_path):
    folder = tmp_path / "Bakery"
    shutil.copytree(DEMO_WORKSPACE, folder)
    config = tmp_path / "config"
    ran = run_cli("run", folder, "--engine", "demo", config_dir=config)
    assert ran.returncode == 3, ran.stdout + ran.stderr  # stopped at the demo's decision
    env = {k: v for k, v in os.environ.items() if not k.startswith("HARNESS_DESK_")}
    env.update(HARNESS_DESK_CONFIG_DIR=str(config), PYTHONPATH=str(REPO),
               QT_QPA_PLATFORM="offscreen", LANG="en_US.UTF-8", LANGUAGE="en_US")
    done = subprocess.run([sys.executable, "-c", USABLE, str(folder)], env=env,
                          capture_output=True, text=True, timeout=120, cwd=REPO)
    lines = [x.split() for x in done.stdout.splitlines() if x.startswith(("usable", "cards"))]
    assert [x[0] for x in lines] == ["usable", "cards"], done.stdout + done.stderr
    _, heavy, mode, interval = lines[0]
    assert heavy == "-"  # no pydantic: status.json and the board were read without it
    assert mode == "answer"  # and say where the last run left off: the open decision
    assert float(interval) <= 0.001  # the UI thread gets the GIL back within a millisecond
    assert int(lines[1][1]) > 0  # the earlier run's rounds came to the cards after
    assert lines[1][2] == "True"  # and PySide's classes are being readied (warm_types.py)


def test_the_quick_look_at_a_folder_needs_no_pydantic(tmp_path):
    folder = tmp_path / "Bakery"
    shutil.copytree(DEMO_WORKSPACE, folder)
    (folder / ".harness").mkdir(exist_ok=True)
    (folder / ".harness" / "status.json").write_text(
        '{"state": "stopped", "exit_reason": "max_rounds", "current_task": "Bake"}',
        encoding="utf-8")
    code = ("import sys\nfrom app.gui.folder.workspace_info import inspect_quickly\n"
            f"info = inspect_quickly({str(folder)!r})\n"
            "print(info.status.state, info.status.exit_reason, info.has_board, "
            "'pydantic' in sys.modules)")
    env = dict(os.environ, PYTHONPATH=str(REPO), HARNESS_DESK_CONFIG_DIR=str(tmp_path / "c"))
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=60, cwd=REPO)
    assert done.stdout.split() == ["stopped", "max_rounds", "True", "False"], done.stderr


def test_the_full_look_reads_the_same_folder_as_before(tmp_path):
    from app.gui.folder.workspace_info import inspect_folder, inspect_quickly, read_history

    folder = tmp_path / "Bakery"
    shutil.copytree(DEMO_WORKSPACE, folder)
    ran = run_cli("run", folder, "--engine", "demo", config_dir=tmp_path / "config")
    assert ran.returncode == 3, ran.stdout + ran.stderr
    quick = inspect_quickly(folder)
    assert quick.history == [] and not quick.history_read and len(quick.run_ids) == 1
    whole = inspect_folder(folder)
    assert whole.history_read and len(whole.history) == 1 and whole.history[0][1]
    assert read_history(quick).history[0][1] == whole.history[0][1]
    assert whole.status.state == "blocked_by_human" and whole.open_decision is not None


def test_careful_mode_reads_no_settings_a_folder_does_not_have(tmp_path):
    from app.core.workspace import folder_settings
    from app.gui.careful import careful_flow

    assert careful_flow.FOLDER_FILE == folder_settings.FILE_NAME
    (tmp_path / ".harness").mkdir()
    assert careful_flow._load(tmp_path) is None  # the defaults, without pydantic
    folder_settings.save_folder_settings(tmp_path / ".harness",
                                         folder_settings.FolderSettings(careful=True))
    assert careful_flow._load(tmp_path).careful is True


def test_an_icon_draws_only_the_sizes_a_screen_asks_for(qapp, monkeypatch):
    """All nine sizes of every icon were drawn as the window was built; now each size is
    drawn when first shown, once."""
    import PySide6.QtSvg as qtsvg

    from app.gui.look import icons

    drawn = []

    class Counting(qtsvg.QSvgRenderer):
        def render(self, painter, *args):
            drawn.append(painter.device().width())
            return super().render(painter, *args)

    monkeypatch.setattr(qtsvg, "QSvgRenderer", Counting)
    icon = icons.tinted("run", QColor("#123456"))
    assert drawn == []
    assert icon.pixmap(QSize(16, 16)).width() == 16
    assert icon.pixmap(QSize(16, 16)).width() == 16
    crisp = icon.pixmap(QSize(16, 16), 2.0)
    assert crisp.width() == 32 and crisp.devicePixelRatio() == 2.0
    assert drawn == [16, 32]


WARM = r"""
import enum
from PySide6.QtWidgets import QApplication, QScrollArea
from app.gui.look import warm_types
app = QApplication([])
made = []
_create = enum.EnumType._create_
def create(cls, name, names, **kw):
    made.append(name)
    return _create(cls, name, names, **kw)
enum.EnumType._create_ = create
if WARM:
    warming = warm_types.warm_in_slices()
    while not warming.done:
        app.processEvents()
    print('slices', len(warming.slices), 'enums', len(made))
    import gc
    print('frozen', gc.get_freeze_count(), 'collectable', len(gc.get_objects()))
made.clear()
QScrollArea().viewport()  # a widget handed back: PySide readies every widget class
print('viewport', len(made))
"""


def _warm_probe(tmp_path, warm: bool) -> list[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen")
    done = subprocess.run([sys.executable, "-c", f"WARM = {warm}\n" + WARM], env=env,
                          capture_output=True, text=True, timeout=120, cwd=REPO)
    return done.stdout.split() or [done.stderr]


def test_widget_classes_are_readied_in_slices_before_a_dialog_needs_them(tmp_path):
    """The first decision dialog's scroll area readied ~80 enum classes at once (80-170 ms
    of a held UI thread); readied beforehand in idle slices, it readies none."""
    cold = _warm_probe(tmp_path, False)
    assert cold[0] == "viewport" and int(cold[1]) > 20, cold  # what the warming spares
    warm = _warm_probe(tmp_path, True)
    assert warm[0] == "slices" and int(warm[1]) > 5 and int(warm[3]) > 20, warm
    assert warm[8:] == ["viewport", "0"], warm


def test_what_start_up_made_is_left_out_of_the_collectors_full_passes(tmp_path):
    """A full garbage collection walked every object the start-up made (a 47 ms stall in the
    first run, bench/ui_stall_cold.py): once the window is usable they are frozen, and so
    are the classes readied after; a collection looks at what came since."""
    warm = _warm_probe(tmp_path, True)
    assert warm[4] == "frozen" and warm[6] == "collectable", warm
    frozen, collectable = int(warm[5]), int(warm[7])
    assert frozen > 20_000 and collectable < frozen // 20, warm


def test_the_board_read_by_the_first_look_is_shown_at_once_and_checked_again(qtbot, tmp_path):
    """The folder's first look reads TASKS.md off the UI thread already; the checklist shows
    that read at once instead of reading it again a turn later, and a change made since is
    still read."""
    from app.core.board.board import Board
    from app.gui.board.board_file import BoardFile

    path = tmp_path / "TASKS.md"
    path.write_text("# Tasks\n\n- [ ] One\n", encoding="utf-8")
    looked = Board.load(path)
    path.write_text("# Tasks\n\n- [ ] One\n- [ ] Two\n", encoding="utf-8")  # changed since
    file = BoardFile()
    got = []
    file.board_read.connect(got.append)
    file.open(path, looked)
    assert got == []  # on the next turn of the event loop, as a read's result comes
    QApplication.processEvents()
    assert got == [looked]  # with no read of its own first
    qtbot.waitUntil(lambda: len(got) == 2, timeout=10_000)
    assert [t.text for t in got[1].tasks] == ["One", "Two"]
