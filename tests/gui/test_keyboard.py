"""The keyboard in the main window (issue 18, point 12): Tab goes top to bottom and left to
right, every stop is named and shows a ring in light and dark, Enter and Space alike, and an
Enter a text field passed on never presses some other button."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QApplication, QWidget

from tests.gui.helpers import demo_copy, open_in, run_past_the_decision
from tests.gui.test_accessibility import spoken_name


def _focused() -> QWidget:
    widget = QApplication.focusWidget()
    assert widget is not None, "nothing has the keyboard focus"
    return widget


def _grab(window, widget) -> bytes:
    """The window's pixels around `widget`, with room for a ring."""
    rect = QRect(widget.mapTo(window, widget.rect().topLeft()), widget.size()).adjusted(
        -5, -5, 5, 5).intersected(window.rect())
    image = window.grab(rect).toImage()
    return bytes(image.constBits())


def _walk(qtbot, window, start: QWidget) -> list[QWidget]:
    """Every stop Tab visits from `start` until it comes round to it again."""
    start.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(start.hasFocus, timeout=5000)
    stops = [start]
    for _ in range(60):
        qtbot.keyClick(_focused(), Qt.Key.Key_Tab)
        if _focused() is start:
            return stops
        assert _focused() not in stops, f"Tab went round without reaching {start!r} again"
        stops.append(_focused())
    raise AssertionError("Tab never came back to where it started")


@pytest.fixture
def finished_demo(qtbot, window, tmp_path):
    """The demo run to its end (a decision answered on the way): six round cards."""
    folder = demo_copy(tmp_path)
    open_in(qtbot, window, folder)
    run_past_the_decision(qtbot, window, folder)
    qtbot.waitUntil(lambda: len(window.cards.cards) == 6, timeout=10_000)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)
    return window


@pytest.mark.parametrize("look", ["light", "dark"])
def test_tab_goes_top_to_bottom_left_to_right_and_every_stop_is_named_and_ringed(
        qtbot, finished_demo, look):
    from app.gui.look import theme

    window = finished_demo
    window.scheme.set_mode(look)
    qtbot.wait(50)  # the palette's change reaches the widgets
    assert theme.is_dark() == (look == "dark")
    window.notice.hide()  # the run's notes come and go; the layout under them is what counts
    window.board_notice.hide()
    stops = _walk(qtbot, window, window.open_button)
    names = [spoken_name(w) for w in stops]
    assert all(name.strip() for name in names), names
    panel, board = window.run_panel, window.board_view
    # All done: Export summary… is the one filled button, so not a second time beside it.
    assert panel.primary.text() == "Export summary…" and not panel.export_button.isVisible()
    fixed = [window.open_button, window.picker.combo, window.engine_settings_button,
             board.list_view, board.add_field, board.plan_button, panel.primary,
             window.careful.switch, window.history.picker]
    assert [w for w in stops if w in fixed] == fixed  # the top bar, the checklist, the run
    cards = [w for w in stops if w in window.cards.cards]
    assert [c.view.round for c in cards] == [6, 5, 4, 3, 2, 1]  # the newest, on top, first
    assert stops[-len(cards):] == cards
    for widget in stops:  # each stop shows that it has the focus
        widget.setFocus(Qt.FocusReason.TabFocusReason)
        qtbot.waitUntil(widget.hasFocus, timeout=2000)
        ring = window.findChild(QWidget, "focusRing")
        assert ring is not None and ring.isVisible(), spoken_name(widget)
        ringed = _grab(window, widget)
        widget.clearFocus()
        qtbot.waitUntil(lambda ring=ring: not ring.isVisible(), timeout=2000)
        plain = _grab(window, widget)
        assert ringed != plain, f"{spoken_name(widget)} looks the same with the focus"


def test_the_ring_stands_out_from_the_window_in_light_and_dark():
    from app.gui.look import look, theme
    from app.gui.look.focus_ring import RING_CONTRAST, ring_colour
    from PySide6.QtGui import QPalette

    for palette in (QApplication.style().standardPalette(), theme.dark_palette()):
        colour = ring_colour(palette)
        for role in (QPalette.ColorRole.Window, QPalette.ColorRole.Base):
            assert look.contrast(colour, palette.color(role)) >= RING_CONTRAST


def test_tab_into_the_rounds_reaches_the_newest_card_in_view_and_enter_opens_that_one(
        qtbot, finished_demo):
    window = finished_demo
    window.resize(1000, 640)  # the oldest cards are below the fold
    qtbot.wait(50)
    start = window.history.picker
    start.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(start.hasFocus, timeout=2000)
    qtbot.keyClick(start, Qt.Key.Key_Tab)
    card = _focused()
    assert card is window.cards.cards[0] and card.view.round == 6  # the one on top
    viewport = window.cards.viewport()
    top_left = card.mapTo(viewport, card.rect().topLeft())
    assert viewport.rect().contains(QRect(top_left, card.size()).center())
    for _ in range(5):  # down to the oldest: each one scrolled into view as it is reached
        qtbot.keyClick(_focused(), Qt.Key.Key_Tab)
    oldest = _focused()
    assert oldest.view.round == 1
    seen = QRect(oldest.mapTo(viewport, oldest.rect().topLeft()), oldest.size())
    assert viewport.rect().intersects(seen) and viewport.rect().contains(seen.center())
    with qtbot.waitSignal(window.cards.round_opened, timeout=5000) as opened:
        qtbot.keyClick(oldest, Qt.Key.Key_Return)
    assert opened.args[0].round == 1


def test_enter_typed_into_add_a_task_presses_no_other_button(qtbot, window, tmp_path):
    """The hang in the GUI suite: Enter in "Add a task…" is passed on by the line edit after
    it adds the task, and the window pressed whatever button had the focus ("Open
    folder…", whose dialog then waited for ever)."""
    folder = demo_copy(tmp_path)
    open_in(qtbot, window, folder)
    qtbot.waitUntil(lambda: window.board_view.add_field.isEnabled(), timeout=5000)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)
    button = window.run_panel.export_button
    button.setEnabled(True)
    button.setFocus()
    qtbot.waitUntil(button.hasFocus, timeout=2000)
    add = window.board_view.add_field
    with qtbot.assertNotEmitted(button.clicked, wait=400):
        qtbot.keyClicks(add, "Buy more flour")
        qtbot.keyClick(add, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "- [ ] Buy more flour" in (folder / "TASKS.md").read_text(
        encoding="utf-8"), timeout=5000)


def test_enter_on_a_drop_down_list_opens_it_as_space_does(qtbot, window, tmp_path):
    open_in(qtbot, window, demo_copy(tmp_path))
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)
    combo = window.picker.combo
    combo.setFocus()
    qtbot.waitUntil(combo.hasFocus, timeout=2000)
    qtbot.keyClick(combo, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: combo.view().isVisible(), timeout=2000)
    combo.hidePopup()


def test_alt_m_takes_the_keyboard_to_the_model_box_and_alt_e_to_the_engine(qtbot, window,
                                                                           tmp_path):
    """The engine chip names the model with a "·", which carries no mnemonic: Alt+M, the key
    the "&Model" label had, still reaches the model box (and does nothing while the Demo,
    which has no model, is chosen)."""
    open_in(qtbot, window, demo_copy(tmp_path))
    qtbot.waitUntil(lambda: window.board_view.add_field.isEnabled(), timeout=5000)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)
    picker = window.picker
    start = window.board_view.add_field
    start.setFocus()
    qtbot.waitUntil(start.hasFocus, timeout=2000)
    qtbot.keyClick(start, Qt.Key.Key_M, Qt.KeyboardModifier.AltModifier)
    qtbot.wait(100)
    assert not picker.model.hasFocus()  # the Demo's model box is not in use
    assert start.hasFocus()

    picker.combo.setCurrentIndex(picker.combo.findData("anthropic"))
    qtbot.waitUntil(picker.model.isEnabled, timeout=2000)
    start.setFocus()
    qtbot.waitUntil(start.hasFocus, timeout=2000)
    qtbot.keyClick(start, Qt.Key.Key_M, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: picker.model.isAncestorOf(_focused()) or picker.model.hasFocus(),
                    timeout=2000)
    qtbot.keyClick(_focused(), Qt.Key.Key_E, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(picker.combo.hasFocus, timeout=2000)
