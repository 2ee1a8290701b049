"""Desktop polish: dark mode that reads, crisp tinted icons, a remembered layout, the
shortcuts, and a friendly dialog (never a traceback) for an unexpected error."""

from __future__ import annotations

import json
import re
import sys
import threading

import pytest
from PySide6.QtCore import QSize, Qt, QTimer
from PySide6.QtGui import QColor, QGuiApplication, QKeySequence, QPalette
from PySide6.QtWidgets import QApplication, QLabel, QPushButton, QWidget

from app.core.settings import Settings, load_settings
from app.gui.look import icons, look, theme
from app.gui import window_state
from app.gui.errors import ErrorDialog, install_error_handler
from app.gui.main_window import MainWindow
from tests.gui.helpers import demo_copy, open_in


@pytest.fixture
def config(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    return tmp_path / "config"


def _close(qtbot, win: MainWindow) -> None:
    if win.runner.running:
        with qtbot.waitSignal(win.runner.run_finished, timeout=10_000):
            win.runner.stop()
    win.close()
    win.deleteLater()


@pytest.fixture
def window(qtbot, config):
    win = MainWindow(Settings(), demo_delay=0.0, check_engines=False)
    win.show()
    yield win
    _close(qtbot, win)


@pytest.fixture(params=["light", "dark"])
def scheme(request, qapp):
    theme.apply_scheme(Qt.ColorScheme.Dark if request.param == "dark" else Qt.ColorScheme.Light)
    yield request.param
    theme.apply_scheme(Qt.ColorScheme.Light)  # the next test sees the usual palette


# -- dark mode ---------------------------------------------------------------------------

def _background(widget: QWidget) -> QColor:
    """The colour behind a widget's text: its own background role, or the first parent
    that fills its background (a round card), else the window."""
    w = widget
    while w is not None:
        if w.autoFillBackground() or (w is widget and widget.backgroundRole() in (
                QPalette.ColorRole.Base,)):
            return w.palette().color(w.backgroundRole())
        w = w.parentWidget()
    return widget.palette().color(QPalette.ColorRole.Window)


def _text_colour(widget: QWidget) -> QColor:
    found = re.search(r"(?<![-\w])color:\s*(#[0-9a-fA-F]{6})", widget.styleSheet())
    return QColor(found.group(1)) if found else widget.palette().color(widget.foregroundRole())


def _shown_text_widgets(window: QWidget) -> list[QWidget]:
    # (Disabled controls are exempt from the contrast rule, as in WCAG.)
    return [w for w in window.findChildren(QLabel)
            if w.isVisibleTo(window) and w.text() and w.isEnabled()]


def test_the_window_reads_in_light_and_dark(qtbot, window, tmp_path, scheme):
    open_in(qtbot, window, demo_copy(tmp_path))
    window.run_panel.show_state("Done", "All tasks are checked.", tone="ok")
    window.notice.show_notice("That folder could not be opened.", tone="attention")
    window.cards.show_history([("2026-01-01T10:00:00+00:00", [])])
    palette = QApplication.palette()
    assert theme.is_dark(palette) == (scheme == "dark")
    labels = _shown_text_widgets(window)
    assert len(labels) >= 8
    for label in labels:
        ratio = look.contrast(_text_colour(label), _background(label))
        assert ratio >= look.MIN_CONTRAST, (
            f"{label.text()!r} ({type(label.parentWidget()).__name__}): contrast {ratio:.2f}, "
            f"{_text_colour(label).name()} on {_background(label).name()}")
    for tone in ("ok", "attention", "muted"):
        for ground in (QPalette.ColorRole.Window, QPalette.ColorRole.Base):
            assert look.contrast(look.tone_colour(tone), palette.color(ground)) >= 4.5, tone
    # The checklist, the add field and the primary button read on their own grounds.
    assert look.contrast(palette.color(QPalette.ColorRole.Text),
                         palette.color(QPalette.ColorRole.Base)) >= 4.5
    assert look.contrast(palette.color(QPalette.ColorRole.HighlightedText),
                         look.primary_colour()) >= 4.5
    assert look.css(look.primary_colour()) in window.run_panel.primary.styleSheet()


def test_no_style_sheet_hard_codes_a_colour_that_fails_on_a_dark_window(qtbot, window,
                                                                          tmp_path):
    open_in(qtbot, window, demo_copy(tmp_path))
    window.run_panel.show_state("Needs your decision", tone="attention")
    theme.apply_scheme(Qt.ColorScheme.Dark)
    try:
        dark_window = QApplication.palette().color(QPalette.ColorRole.Window)
        for widget in window.findChildren(QWidget):
            sheet = widget.styleSheet()
            for value in re.findall(r"(?<![-\w])color:\s*(#[0-9a-fA-F]{6})", sheet):
                assert look.contrast(QColor(value), dark_window) >= 4.5, (
                    f"{type(widget).__name__} keeps the text colour {value} on a dark window")
            for value in re.findall(r"background(?:-color)?:\s*(#[0-9a-fA-F]{6})", sheet):
                if value == look.css(look.primary_colour()):
                    continue  # the accent: light in the dark look, under dark text
                assert QColor(value).lightness() < 160, (
                    f"{type(widget).__name__} keeps a light ground {value} in dark mode")
            assert not re.search(r"\b(?:white|black)\b", sheet), type(widget).__name__
        # The colour was worked out again, from the dark palette.
        state = window.run_panel.state_label
        assert _text_colour(state) == look.attention_colour()
        assert look.attention_colour() != look.attention_colour(QPalette(QColor("#efefef")))
    finally:
        theme.apply_scheme(Qt.ColorScheme.Light)
    assert _text_colour(window.run_panel.state_label) == look.attention_colour()


def test_a_system_switch_to_dark_recolours_the_window(qtbot, window):
    state = window.run_panel.state_label
    look.set_tone(state, "attention")
    light = look.css(look.attention_colour())
    follower = theme.SchemeFollower(window)
    try:
        follower._on_color_scheme_changed(Qt.ColorScheme.Dark)  # what colorSchemeChanged calls
        qtbot.waitUntil(lambda: theme.is_dark(), timeout=2000)
        # The window learns of the application's new palette from posted events.
        qtbot.waitUntil(lambda: theme.is_dark(window.palette()), timeout=2000)
        dark = look.css(look.attention_colour())
        assert dark != light and _text_colour(state).name() == dark  # worked out again, dark
    finally:
        theme.apply_scheme(Qt.ColorScheme.Light)
    assert not theme.is_dark()


def test_an_unticked_box_in_the_checklist_shows_on_a_dark_list(qtbot, window, tmp_path):
    from PySide6.QtWidgets import QStyle, QStyleOptionViewItem

    open_in(qtbot, window, demo_copy(tmp_path))
    view = window.board_view.list_view
    qtbot.waitUntil(lambda: view.model().rowCount() >= 2, timeout=5000)
    theme.apply_scheme(Qt.ColorScheme.Dark)
    try:
        qtbot.wait(50)
        index = view.model().index(1, 0)
        assert index.data(Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Unchecked
        option = QStyleOptionViewItem()
        view.initViewItemOption(option)
        option.rect = view.visualRect(index)
        view.delegate.initStyleOption(option, index)
        box = view.style().subElementRect(QStyle.SubElement.SE_ItemViewItemCheckIndicator,
                                          option, view)
        image = view.viewport().grab().toImage()
        ground = QApplication.palette().color(QPalette.ColorRole.Base)
        best = max(look.contrast(image.pixelColor(x, y), ground)
                   for x in range(box.left(), box.right() + 1)
                   for y in range(box.top(), box.bottom() + 1))
        assert best >= 3.0  # WCAG's rule for the edge of a control
    finally:
        theme.apply_scheme(Qt.ColorScheme.Light)


# -- icons -------------------------------------------------------------------------------

def _opaque_colours(icon, size: int, ratio: float) -> set[str]:
    image = icon.pixmap(QSize(size, size), ratio).toImage()
    colours = set()
    for y in range(image.height()):
        for x in range(image.width()):
            pixel = image.pixelColor(x, y)
            if pixel.alpha() == 255:
                colours.add(pixel.name())
    return colours


@pytest.mark.parametrize("name", icons.NAMES)
def test_every_icon_is_an_svg_drawn_in_the_palette_colour(qapp, name, scheme):
    svg = icons.icon_path(name).read_text(encoding="utf-8")
    assert svg.lstrip().startswith("<svg") and "currentColor" in svg
    assert not re.search(r"#[0-9a-fA-F]{3,6}\b", svg), "an icon colour is fixed"
    icon = icons.icon(name)
    crisp = icon.pixmap(QSize(16, 16), 2.0)
    assert crisp.width() == 32 and crisp.devicePixelRatio() == 2.0  # drawn for the screen
    text = QApplication.palette().color(QPalette.ColorRole.ButtonText).name()
    assert _opaque_colours(icon, 24, 2.0) == {text}


def test_buttons_carry_icons_that_follow_the_scheme(qtbot, window, tmp_path):
    open_in(qtbot, window, demo_copy(tmp_path))
    primary = window.run_panel.primary
    assert not primary.icon().isNull() and not window.top_bar.open_button.icon().isNull()
    assert not window.export_action.icon().isNull()
    theme.apply_scheme(Qt.ColorScheme.Dark)
    try:
        on_button = QApplication.palette().color(QPalette.ColorRole.HighlightedText).name()
        assert _opaque_colours(primary.icon(), 20, 1.0) == {on_button}
        text = QApplication.palette().color(QPalette.ColorRole.ButtonText).name()
        assert _opaque_colours(window.top_bar.open_button.icon(), 20, 1.0) == {text}
        assert _opaque_colours(window.export_action.icon(), 20, 1.0) == {text}
    finally:
        theme.apply_scheme(Qt.ColorScheme.Light)


def test_the_window_carries_the_app_icon(window):
    assert icons.icon_path(icons.APP_ICON).is_file()
    app_icon = QApplication.windowIcon()
    assert not app_icon.isNull()
    assert app_icon.pixmap(QSize(32, 32), 2.0).width() == 64  # scalable: crisp on any screen


def test_the_engine_marks_are_redrawn_in_the_new_colours(qtbot, window):
    combo = window.picker.combo
    demo = combo.findData("demo")
    before = _opaque_colours(combo.itemIcon(demo), 14, 1.0)
    theme.apply_scheme(Qt.ColorScheme.Dark)
    try:
        qtbot.wait(50)
        after = _opaque_colours(combo.itemIcon(demo), 14, 1.0)
        assert after and after != before
        assert look.muted_colour().name() in after
    finally:
        theme.apply_scheme(Qt.ColorScheme.Light)


# -- the layout is remembered --------------------------------------------------------------

def test_size_place_and_splitter_are_remembered_across_starts(qtbot, config):
    first = MainWindow(Settings(), demo_delay=0.0, check_engines=False)
    first.apply_settings(Settings())
    first.show()
    first.resize(720, 520)
    first.splitter.setSizes([300, 600])
    sizes = first.splitter.sizes()
    _close(qtbot, first)
    saved = json.loads((config / "settings.json").read_text(encoding="utf-8"))
    assert set(saved["ui"]["window"]) >= {"geometry", "splitter", "maximized"}

    second = MainWindow(check_engines=False)
    second.apply_settings(load_settings().settings)
    second.show()
    try:
        assert (second.width(), second.height()) == (720, 520)
        assert second.splitter.sizes() == sizes
    finally:
        _close(qtbot, second)


def test_a_maximized_window_opens_maximized_next_time(qtbot, config):
    first = MainWindow(check_engines=False)
    first.apply_settings(Settings())
    first.showMaximized()
    qtbot.waitUntil(first.isMaximized, timeout=2000)
    _close(qtbot, first)
    assert load_settings().settings.ui["window"]["maximized"] is True
    second = MainWindow(check_engines=False)
    second.apply_settings(load_settings().settings)
    second.show()
    try:
        qtbot.waitUntil(second.isMaximized, timeout=2000)
    finally:
        _close(qtbot, second)


def test_a_damaged_layout_is_ignored_and_the_window_opens_as_usual(qtbot, config):
    settings = Settings(ui={"window": {"geometry": "not base64 at all!", "splitter": 7,
                                       "maximized": "yes"}})
    win = MainWindow(check_engines=False)
    win.apply_settings(settings)
    win.show()
    try:
        assert (win.width(), win.height()) == _first_size()
        assert not win.isMaximized()
        assert window_state.restore(win, win.splitter, ["nonsense"]) is False
        assert window_state.restore(win, win.splitter, {"geometry": "AAAA"}) is False
    finally:
        _close(qtbot, win)


def _first_size() -> tuple[int, int]:
    """The first size: 1180 × 760, or 95 % of the free area less the window manager's frame
    (a window not yet shown is given window_state.FRAME_GUESS)."""
    area = QGuiApplication.primaryScreen().availableGeometry()
    left, top, right, bottom = window_state.FRAME_GUESS
    return (min(1180, int(area.width() * 0.95) - left - right),
            min(760, int(area.height() * 0.95) - top - bottom))


def test_the_first_start_fits_a_small_screen(qtbot, config):
    # Before: 1180 × 760 whatever the screen; on 1100 × 800 (or a 1366 × 768 laptop, less its
    # task bar) the window ran off the screen, Export and the engine cut at the edge.
    area = QGuiApplication.primaryScreen().availableGeometry()
    assert area.width() < 1180  # the offscreen screen is 800 × 600
    win = MainWindow(check_engines=False)
    win.apply_settings(Settings())
    win.show()
    try:
        assert win.width() <= area.width() and win.height() <= area.height()
        assert area.contains(win.geometry().center())
    finally:
        _close(qtbot, win)


def test_a_place_off_every_screen_comes_back_onto_the_screen(qtbot, window):
    window.move(40_000, 30_000)
    window_state.keep_on_screen(window)
    area = QGuiApplication.primaryScreen().availableGeometry()
    assert area.intersects(window.frameGeometry())
    assert area.contains(window.frameGeometry().topLeft())


# -- shortcuts ---------------------------------------------------------------------------

def test_the_shortcuts_are_in_the_menus_and_do_not_clash(window):
    native = lambda keys: QKeySequence(keys).toString()  # noqa: E731
    assert window.open_action.shortcut().toString() == native(QKeySequence.StandardKey.Open)
    assert window.new_task_action.shortcut().toString() == native(QKeySequence.StandardKey.New)
    assert window.export_action.shortcut().toString() == "Ctrl+E"
    assert window.primary_action.shortcut().toString() == "Ctrl+R"
    assert window.stop_action.shortcut().toString() == "Ctrl+."
    taken: dict[str, str] = {}
    from PySide6.QtGui import QAction

    for action in window.findChildren(QAction):
        for keys in action.shortcuts():
            name = keys.toString()
            assert name not in taken or taken[name] == action.text(), (
                f"{name} is both {taken.get(name)!r} and {action.text()!r}")
            taken[name] = action.text()
    assert "Esc" not in taken  # Esc belongs to dialogs and to editing in the checklist
    window.run_panel.set_mode("run")
    assert "Ctrl+R" in window.run_panel.primary.toolTip()
    window.run_panel.set_mode("running")
    assert "Ctrl+." in window.run_panel.primary.toolTip()
    assert "Ctrl+E" in window.run_panel.export_button.toolTip()
    assert "Ctrl+N" in window.board_view.add_field.toolTip()


def test_ctrl_n_puts_the_cursor_in_add_a_task(qtbot, window, tmp_path):
    open_in(qtbot, window, demo_copy(tmp_path))
    qtbot.waitUntil(window.board_view.add_field.isEnabled, timeout=5000)  # the list is read
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=2000)
    window.board_view.list_view.setFocus()
    qtbot.keyClick(window.board_view.list_view, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    assert window.focusWidget() is window.board_view.add_field


def test_ctrl_dot_stops_a_run_and_ctrl_r_does_not(qtbot, config, tmp_path):
    win = MainWindow(Settings(), demo_delay=0.3, check_engines=False)
    win.show()
    try:
        open_in(qtbot, win, demo_copy(tmp_path))
        win.primary_action.trigger()
        qtbot.waitUntil(lambda: win.run_panel.mode == "running", timeout=10_000)
        win.primary_action.trigger()  # Ctrl+R again: the run goes on
        assert win.run_panel.mode == "running"
        win.activateWindow()
        qtbot.waitUntil(win.isActiveWindow, timeout=2000)
        with qtbot.waitSignal(win.run_ended, timeout=30_000) as ended:
            qtbot.keyClick(win, Qt.Key.Key_Period, Qt.KeyboardModifier.ControlModifier)
        assert ended.args[0].exit_reason == "stopped_by_user"
    finally:
        _close(qtbot, win)


# -- errors ------------------------------------------------------------------------------

@pytest.fixture
def error_handler(qtbot, config, monkeypatch):
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # put back after the test
    monkeypatch.setattr(threading, "excepthook", threading.excepthook)
    owner = QWidget()
    qtbot.addWidget(owner)
    reporter = install_error_handler(owner)
    yield reporter
    owner.close()


def _read_the_dialog(seen: dict) -> None:
    dialog = QApplication.activeModalWidget()
    if not isinstance(dialog, ErrorDialog):
        QTimer.singleShot(20, lambda: _read_the_dialog(seen))
        return
    seen["text"] = " ".join(label.text() for label in dialog.findChildren(QLabel))
    seen["buttons"] = [b.text() for b in dialog.findChildren(QPushButton)]
    seen["title"] = dialog.windowTitle()
    dialog.reject()


@pytest.mark.qt_no_exception_capture
def test_an_exception_in_a_slot_shows_the_friendly_dialog_and_saves_a_crash_report(
        qtbot, error_handler, config):
    button = QPushButton("Fall over")
    qtbot.addWidget(button)

    def _on_clicked() -> None:
        raise RuntimeError("a slot fell over")

    button.clicked.connect(_on_clicked)
    seen: dict = {}
    QTimer.singleShot(20, lambda: _read_the_dialog(seen))
    button.click()
    qtbot.waitUntil(lambda: "text" in seen, timeout=5000)
    reports = list((config / "crash-reports").glob("crash-*.txt"))
    assert len(reports) == 1
    assert "RuntimeError: a slot fell over" in reports[0].read_text(encoding="utf-8")
    assert "Traceback" not in seen["text"] and "RuntimeError" not in seen["text"]
    assert "File \"" not in seen["text"]
    assert "Copy details" in seen["buttons"]
    assert str(reports[0]) in seen["text"]


@pytest.mark.qt_no_exception_capture
def test_an_error_in_background_work_nobody_handles_reaches_the_same_dialog(
        qtbot, error_handler, config):
    from app.gui.background import run_in_background

    def work() -> None:
        raise OSError("the disk went away")

    seen: dict = {}
    QTimer.singleShot(20, lambda: _read_the_dialog(seen))
    run_in_background(work)
    qtbot.waitUntil(lambda: "text" in seen, timeout=5000)
    assert "Traceback" not in seen["text"] and "Your files are safe" in seen["text"]
    reports = list((config / "crash-reports").glob("crash-*.txt"))
    assert len(reports) == 1 and "the disk went away" in reports[0].read_text(encoding="utf-8")
