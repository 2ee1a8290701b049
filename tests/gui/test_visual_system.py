"""Issue 35 point 8, what was left: one type scale, one left edge per column, the folder's path
in a tooltip, engine + model + settings as one control, nothing cut mid-word at 800 × 600 (in
English and Chinese, idle, running and finished), and at 200 % the window fits 1440 × 900."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest
from PySide6.QtGui import QFont, QFontInfo
from PySide6.QtWidgets import QAbstractButton, QLabel, QWidget

from app.core.settings import Settings
from app.gui.folder import first_start
from app.gui.look.fit_text import ELLIPSIS, FitLabel, is_word_boundary
from app.gui.main_window import MainWindow
from app.gui.settings import language
from tests.gui.helpers import REPO, demo_copy, open_in, run_past_the_decision


def visible_texts(root: QWidget):
    for w in root.findChildren(QWidget):
        if w.isVisible() and isinstance(w, (QLabel, QAbstractButton)) and w.text().strip():
            yield w


# -- one type scale ------------------------------------------------------------------------
def test_one_type_scale_three_sizes_regular_and_semibold_never_italic(qtbot, window, tmp_path):
    folder = demo_copy(tmp_path)
    open_in(qtbot, window, folder)
    seen: dict[int, list[str]] = {}
    bad: list[str] = []

    def look_at(root: QWidget) -> None:
        for w in visible_texts(root):
            info = QFontInfo(w.font())
            seen.setdefault(info.pixelSize(), []).append(w.text()[:30])
            if w.font().italic():
                bad.append(f"italic: {w.text()!r}")
            if w.font().weight() > QFont.Weight.DemiBold:
                bad.append(f"bolder than semibold: {w.text()!r}")

    look_at(window)
    dialogs: list = []
    window.decision_shown.connect(dialogs.append)

    def with_the_decision_open():
        qtbot.waitUntil(lambda: bool(dialogs), timeout=10_000)
        look_at(dialogs[0])

    run_past_the_decision(qtbot, window, folder, between=with_the_decision_open)
    look_at(window)
    assert bad == []
    assert len(seen) <= 3, {size: texts[:3] for size, texts in seen.items()}


# -- one left edge ---------------------------------------------------------------------------
def test_one_left_edge_per_column(qtbot, window, tmp_path):
    open_in(qtbot, window, demo_copy(tmp_path))
    qtbot.wait(50)
    page, panel = window.splitter, window.run_panel

    def x(widget: QWidget) -> int:
        return widget.mapTo(window, widget.rect().topLeft()).x()

    rounds = next(label for label in page.findChildren(QLabel)
                  if label.text() == "Rounds, newest first")
    tasks = next(label for label in page.findChildren(QLabel) if label.text() == "Tasks"
                 and not panel.isAncestorOf(label))
    right = {name: x(w) for name, w in (("Run", panel.primary), ("state", panel.state_label),
                                        ("detail", panel.detail_label),
                                        ("tasks bar's name", next(
                                            label for label in panel.findChildren(QLabel)
                                            if label.text() == "Tasks")),
                                        ("time and cost", panel.meta_label),
                                        ("Rounds", rounds), ("cards", window.cards))}
    assert len(set(right.values())) == 1, right
    left = {"Open folder": x(window.open_button), "Tasks": x(tasks),
            "the list": x(window.board_view)}
    assert len(set(left.values())) == 1, left


# -- the header ------------------------------------------------------------------------------
def test_the_header_names_the_folder_and_keeps_its_path_in_the_tooltip(qtbot, window, tmp_path):
    folder = demo_copy(tmp_path, "Rosie's Bakery")
    open_in(qtbot, window, folder)
    label = window.folder_label
    shown = label.shown_text() if isinstance(label, FitLabel) else label.text()
    assert shown == "Rosie's Bakery"
    assert str(tmp_path) not in shown
    assert label.toolTip() == str(folder)


def test_engine_model_and_settings_are_one_control(qtbot, window):
    chip = window.top_bar.engine_chip
    for part in (window.picker.combo, window.picker.model, window.engine_settings_button):
        assert chip.isAncestorOf(part) and part.isVisible()
    assert "border" in chip.styleSheet()  # one edge around the three


# -- 800 × 600: nothing cut mid-word ---------------------------------------------------------
def _cut_mid_word(root: QWidget) -> list[str]:
    """Every visible text that neither fits its widget nor ends at a word with "…"."""
    out = []
    for w in visible_texts(root):
        if isinstance(w, FitLabel):
            full, shown = w.full_text(), w.shown_text()
            if shown != full:
                head = shown[:-len(ELLIPSIS)].rstrip()
                if not (shown.endswith(ELLIPSIS) and full.startswith(head)
                        and is_word_boundary(full, len(head))):
                    out.append(f"cut mid-word: {shown!r} of {full!r}")
                continue
            metrics, width = w.fontMetrics(), w.contentsRect().width()
            if not w.wordWrap() and metrics.horizontalAdvance(shown) > width + 1:
                out.append(f"does not fit: {shown!r}")
        elif isinstance(w, QLabel):
            text, width = w.text(), w.contentsRect().width()
            if "<" in text:
                continue  # rich text lays itself out
            full = next((t for t in (w.toolTip(), w.accessibleDescription(), w.accessibleName())
                         if len(t) > len(text) and ELLIPSIS in text), "")
            if full:  # a text cut short by hand: at its end, at a word, and nowhere else
                head = text.strip("“”")[:text.strip("“”").find(ELLIPSIS)].rstrip()
                tail = text.strip("“”").split(ELLIPSIS, 1)[1]
                if tail.strip() or not full.startswith(head) or \
                        not is_word_boundary(full, len(head)):
                    out.append(f"cut mid-word: {text!r} of {full!r}")
            if w.buddy() is not None:
                text = text.replace("&&", "\0").replace("&", "").replace("\0", "&")
            if w.wordWrap():
                if w.heightForWidth(width) > w.contentsRect().height() + 2:
                    out.append(f"wrapped text taller than its label: {text!r}")
            elif max(w.fontMetrics().horizontalAdvance(line)
                     for line in text.split("\n")) > width + 1:
                out.append(f"label cut: {text!r} in {width} px")
        elif w.minimumSizeHint().width() > w.width() + 1:
            out.append(f"button cut: {w.text()!r}")
    return out


@pytest.fixture(params=["en", "zh_CN"])
def small(request, qapp, qtbot, tmp_path, monkeypatch):
    lang = request.param
    assert language.install(qapp, lang) == lang
    language.use_fonts()
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    win = MainWindow(Settings(), demo_delay=0.05, check_engines=False)
    win.show()
    folder = tmp_path / ("a folder with a rather long name to show the path gives way"
                         if lang == "en" else "一个名字相当长的文件夹，用来看路径如何让位")
    shutil.copytree(first_start.bundled_demo(lang), folder)
    open_in(qtbot, win, folder)
    win.resize(800, 600)
    qtbot.waitUntil(lambda: win.width() == 800, timeout=5000)
    qtbot.wait(100)
    yield win, folder
    if win.runner.running:
        with qtbot.waitSignal(win.runner.run_finished, timeout=10_000):
            win.runner.stop()
    win.close()
    win.deleteLater()
    language.install(qapp, "en")


def test_at_800_by_600_no_text_is_cut_mid_word(qtbot, small):
    win, folder = small
    assert _cut_mid_word(win) == [], "idle"
    seen: list = []
    win.runner.event_received.connect(seen.append)
    from app.core.records import events as ev

    def running():
        return sum(isinstance(e, ev.ToolCalled) for e in seen)

    # a long live line while it runs, as a model's narration can be
    win.run_panel.primary.click()
    qtbot.waitUntil(lambda: running() >= 3, timeout=30_000)
    win.run_panel.show_narration("Reading notes/customer-comments.md and comparing what "
                                 "customers said about speed with what they said about trust")
    qtbot.wait(60)
    assert _cut_mid_word(win) == [], "running"
    with qtbot.waitSignal(win.run_ended, timeout=60_000):
        pass
    qtbot.wait(100)
    assert _cut_mid_word(win) == [], "finished"


# -- 200 % -----------------------------------------------------------------------------------
def test_at_200_percent_the_window_fits_a_1440_by_900_screen(tmp_path):
    """In a process of its own (the scale is read when the application starts): a screen of
    1440 × 900 pixels at QT_SCALE_FACTOR=2, the window as it first opens on the demo."""
    screen = tmp_path / "screen.json"
    screen.write_text(json.dumps({"screens": [{
        "name": "laptop", "x": 0, "y": 0, "width": 1440, "height": 900,
        "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}))
    env = {**os.environ, "QT_SCALE_FACTOR": "2",
           "QT_QPA_PLATFORM": f"offscreen:configfile={screen}",
           "HARNESS_DESK_CONFIG_DIR": str(tmp_path / "config")}
    probe = REPO / "tests" / "gui" / "scale_probe.py"
    done = subprocess.run([sys.executable, str(probe), str(tmp_path / "Bakery")], env=env,
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    sizes = json.loads(done.stdout.strip().splitlines()[-1])
    assert sizes["ratio"] == 2.0
    for name in ("window", "minimum"):
        width, height = (v * sizes["ratio"] for v in sizes[name])
        assert width <= 1440 and height <= 900, (name, sizes)
