"""Contrast over the palette the window really uses, in light and dark (WCAG 2.2): every text
at least 4.5:1 on the surface it is drawn on, every control's outline (check box, radio
button, text field, text area, button, drop-down, number box) and the focus ring at least
3:1 against the surface around it. Text colours are read from the widgets (their palette or
style sheet); outlines from the pixels the style really drew."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (QAbstractButton, QApplication, QCheckBox, QComboBox, QLabel,
                               QLineEdit, QPlainTextEdit, QPushButton, QRadioButton, QSpinBox,
                               QStyle, QStyleOptionButton, QVBoxLayout, QWidget)

from app.core.settings import Settings
from app.gui.look import focus_ring, look, theme
from app.gui.main_window import MainWindow
from tests.gui.helpers import demo_copy, open_in

TEXT, OUTLINE = 4.5, 3.0
ROLES = QPalette.ColorRole


@pytest.fixture(params=["light", "dark"])
def scheme(request, qapp):
    theme.apply_scheme(Qt.ColorScheme.Dark if request.param == "dark" else Qt.ColorScheme.Light)
    QApplication.processEvents()
    yield request.param
    theme.apply_scheme(Qt.ColorScheme.Light)


def surface_behind(widget: QWidget) -> QColor:
    """The colour a widget is drawn on: the first parent that paints its own ground (a card,
    a list), else the window."""
    w = widget.parentWidget()
    while w is not None:
        if w.autoFillBackground():
            return w.palette().color(w.backgroundRole())
        w = w.parentWidget()
    return widget.palette().color(ROLES.Window)


def text_colour(widget: QWidget) -> QColor:
    found = re.search(r"(?<![-\w])color:\s*(#[0-9a-fA-F]{6})", widget.styleSheet())
    return QColor(found.group(1)) if found else widget.palette().color(widget.foregroundRole())


def edge_contrast(widget: QWidget, rect=None) -> float:
    """The best contrast, against the surface around it, of the pixels on the left edge of
    `rect` (the widget's own rectangle by default), at its vertical middle: its outline."""
    rect = rect or widget.rect()
    ground = surface_behind(widget)
    image = widget.grab().toImage()
    ratio = image.devicePixelRatio()
    y = round((rect.top() + rect.height() / 2) * ratio)
    xs = range(max(0, round((rect.left() - 1) * ratio)), round((rect.left() + 3) * ratio))
    return max(look.contrast(image.pixelColor(QPoint(x, y)), ground) for x in xs)


def indicator_rect(button: QAbstractButton):
    option = QStyleOptionButton()
    option.initFrom(button)
    element = QStyle.SubElement.SE_CheckBoxIndicator if isinstance(button, QCheckBox) \
        else QStyle.SubElement.SE_RadioButtonIndicator
    return button.style().subElementRect(element, option, button)


@pytest.fixture
def controls(qtbot, scheme):
    """One of each control, on the window's surface and on a card."""
    page = QWidget()
    column = QVBoxLayout(page)
    card = QWidget(page)
    card.setAutoFillBackground(True)
    card.setBackgroundRole(ROLES.Base)
    inner = QVBoxLayout(card)
    made = []
    for parent, layout in ((page, column), (card, inner)):
        combo = QComboBox(parent)
        combo.addItems(["Claude", "Demo"])
        spin = QSpinBox(parent)
        made += [QCheckBox("Careful mode", parent), QRadioButton("PDF", parent),
                 QLineEdit(parent), QPlainTextEdit(parent), QPushButton("Export…", parent),
                 combo, spin]
        for widget in made[-7:]:
            layout.addWidget(widget)
    column.addWidget(card)
    qtbot.addWidget(page)
    page.resize(320, 640)
    page.show()
    qtbot.waitExposed(page)
    yield made
    page.close()


def test_every_control_outline_stands_out_from_its_surface(controls, scheme):
    failing = []
    for widget in controls:
        rect = indicator_rect(widget) if isinstance(widget, (QCheckBox, QRadioButton)) \
            else None
        ratio = edge_contrast(widget, rect)
        if ratio < OUTLINE:
            failing.append(f"{type(widget).__name__} on {surface_behind(widget).name()}: "
                           f"{ratio:.2f}")
    assert failing == []


def test_the_focus_ring_and_the_accent_stand_out_in_both_looks(qapp, scheme):
    palette = QApplication.palette()
    for ground in (ROLES.Window, ROLES.Base):
        assert look.contrast(focus_ring.ring_colour(palette), palette.color(ground)) >= OUTLINE
        # the progress fill and the selection are the accent: seen against the surfaces
        assert look.contrast(palette.color(ROLES.Highlight), palette.color(ground)) >= OUTLINE
        for role in (ROLES.Link, ROLES.LinkVisited, ROLES.PlaceholderText, ROLES.Text,
                     ROLES.WindowText, ROLES.ButtonText):
            assert look.contrast(palette.color(role), palette.color(ground)) >= TEXT, role
    assert look.contrast(palette.color(ROLES.HighlightedText),
                         palette.color(ROLES.Highlight)) >= TEXT
    assert look.contrast(palette.color(ROLES.ToolTipText),
                         palette.color(ROLES.ToolTipBase)) >= TEXT
    assert look.contrast(palette.color(ROLES.HighlightedText), look.primary_colour()) >= TEXT


def test_one_accent_two_surfaces_one_border_two_text_greys(qapp, scheme):
    palette = QApplication.palette()
    accent = palette.color(ROLES.Highlight)
    # Links, selection, progress and the primary button are one colour, never #0000ff.
    assert {palette.color(r).name() for r in (ROLES.Link, ROLES.LinkVisited)} == \
        {theme.link_colour(palette).name()}
    assert theme.link_colour(palette).hue() == pytest.approx(accent.hue(), abs=8)
    assert "#0000ff" not in {palette.color(r).name() for r in ROLES
                             if r != ROLES.NColorRoles}
    surfaces = {palette.color(r).name() for r in (ROLES.Window, ROLES.Base, ROLES.AlternateBase,
                                                  ROLES.Button, ROLES.ToolTipBase)}
    assert len(surfaces) == 2
    greys = {palette.color(r).name() for r in (ROLES.WindowText, ROLES.Text, ROLES.ButtonText)}
    assert len(greys) == 1 and look.muted_colour().name() == \
        palette.color(ROLES.PlaceholderText).name()


def test_every_text_of_the_window_reads_in_both_looks(qtbot, tmp_path, monkeypatch, scheme):
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    window = MainWindow(Settings(), demo_delay=0.0, check_engines=False)
    window.show()
    try:
        open_in(qtbot, window, demo_copy(tmp_path))
        with qtbot.waitSignal(window.run_ended, timeout=60_000):
            window.run_panel.primary.click()  # rounds on cards, a decision in amber
        qtbot.wait(100)
        shown = [w for w in window.findChildren(QWidget)
                 if isinstance(w, (QLabel, QAbstractButton)) and w.isVisibleTo(window)
                 and w.text() and w.isEnabled() and not w.styleSheet().count("background")]
        assert len(shown) >= 15
        failing = []
        for widget in shown:
            ratio = look.contrast(text_colour(widget), surface_behind(widget))
            if ratio < TEXT:
                failing.append(f"{widget.text()[:30]!r}: {ratio:.2f} "
                               f"({text_colour(widget).name()} on "
                               f"{surface_behind(widget).name()})")
        assert failing == []
    finally:
        if window.runner.running:
            with qtbot.waitSignal(window.runner.run_finished, timeout=10_000):
                window.runner.stop()
        window.close()
