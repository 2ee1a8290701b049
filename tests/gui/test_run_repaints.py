"""What a run's events cost the UI thread: a tone set again restyles nothing, a progress bar
moves without painting the window there and then, and both still show what they should."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton, QVBoxLayout, QWidget

from app.gui.look import look


class Counter(QObject):
    def __init__(self, kinds):
        super().__init__()
        self.kinds, self.seen = kinds, 0

    def eventFilter(self, obj, event):  # noqa: N802 (Qt's name)
        if event.type() in self.kinds:
            self.seen += 1
        return False


def _text_of(label) -> str:
    return label.palette().color(QPalette.ColorRole.WindowText).name()


def test_the_same_tone_again_does_not_restyle_and_the_colour_is_right(qtbot):
    label = QLabel("Working on the menu")
    qtbot.addWidget(label)
    label.show()
    plain = _text_of(label)
    look.set_tone(label, "attention")
    assert _text_of(label) == look.css(look.attention_colour())
    # In every state, as a style sheet's `color:` was, and with no style sheet at all.
    assert label.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.WindowText) \
        == look.attention_colour()
    assert label.styleSheet() == ""
    restyled = Counter((QEvent.Type.StyleChange, QEvent.Type.PaletteChange))
    label.installEventFilter(restyled)
    for _ in range(20):  # a run sets its state label's tone on every round
        look.set_tone(label, "attention")
    assert restyled.seen == 0
    look.set_tone(label, "ok")  # a different tone still applies
    assert _text_of(label) == look.css(look.ok_colour())
    assert restyled.seen >= 1
    look.set_tone(label, None)
    assert _text_of(label) == plain and label.property(look.TONE_PROPERTY) == ""


def test_a_tone_never_parses_a_style_sheet_nor_polishes_a_card_again(qtbot):
    """A round card's labels are toned as the card is made: a style sheet on each would make
    Qt parse it and polish the label again (the rounds list's stalls, issue 36)."""
    card = QWidget()
    layout = QVBoxLayout(card)
    labels = [QLabel(f"line {n}", card) for n in range(3)]
    for label in labels:
        layout.addWidget(label)
    qtbot.addWidget(card)
    card.show()
    polished = Counter((QEvent.Type.Polish, QEvent.Type.StyleChange))
    for widget in (card, *labels):
        widget.installEventFilter(polished)
    for tone in ("muted", "ok", "attention", None, "muted"):
        for label in labels:
            look.set_tone(label, tone)
    assert polished.seen == 0
    assert all(label.styleSheet() == "" for label in labels)
    assert _text_of(labels[0]) == look.css(look.muted_colour())


def test_a_primary_button_made_plain_again_loses_its_fill(qtbot):
    button = QPushButton("Run")
    qtbot.addWidget(button)
    look.set_tone(button, "primary")
    assert look.css(look.primary_colour()) in button.styleSheet()
    look.set_tone(button, "muted")
    assert button.styleSheet() == ""
    assert button.palette().color(QPalette.ColorRole.ButtonText) == look.muted_colour()


def test_a_progress_bar_moves_without_a_synchronous_repaint_and_shows_its_value(qtbot):
    window = QWidget()
    QVBoxLayout(window)
    bar = QProgressBar(window)
    bar.setFormat("%v of %m steps")
    window.layout().addWidget(bar)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    qtbot.wait(20)
    painted = Counter((QEvent.Type.Paint,))
    bar.installEventFilter(painted)
    bar.setValue(1)  # Qt's own setValue paints at once (QProgressBar::setValue -> repaint)
    assert painted.seen == 1
    painted.seen = 0
    look.set_bar(bar, 3, 25)
    assert painted.seen == 0  # nothing painted inside the call: the window's next paint
    assert (bar.value(), bar.maximum(), bar.text()) == (3, 25, "3 of 25 steps")
    assert bar.updatesEnabled()
    qtbot.waitUntil(lambda: painted.seen >= 1, timeout=2000)  # drawn with the next paint
    painted.seen = 0
    look.set_bar(bar, 0, 1)  # a smaller range (Qt resets and repaints): not at once either
    assert painted.seen == 0 and (bar.value(), bar.maximum()) == (0, 1)
    qtbot.waitUntil(lambda: painted.seen >= 1, timeout=2000)


def test_the_muted_colour_is_worked_out_once_per_palette_and_still_reads(qapp, monkeypatch):
    """Each checklist row's tag is painted in it, on every repaint during a run."""
    worked = []
    real = look._muted_for
    monkeypatch.setattr(look, "_muted_for", lambda *a: worked.append(a) or real(*a))
    monkeypatch.setattr(look, "_muted", {})
    palette = QPalette(qapp.palette())
    first = look.muted_colour(palette)
    again = look.muted_colour(palette)
    assert len(worked) == 1
    assert first == again and first is not again  # a copy: a caller may change it
    for ground in (QPalette.ColorRole.Window, QPalette.ColorRole.Base):
        assert look.contrast(first, palette.color(ground)) >= look.MIN_CONTRAST
    dark = QPalette(palette)
    dark.setColor(QPalette.ColorRole.Window, look.QColor("#1e1e1e"))
    dark.setColor(QPalette.ColorRole.Base, look.QColor("#121212"))
    dark.setColor(QPalette.ColorRole.WindowText, look.QColor("#f0f0f0"))
    on_dark = look.muted_colour(dark)
    assert on_dark != first
    assert look.contrast(on_dark, dark.color(QPalette.ColorRole.Base)) >= look.MIN_CONTRAST


def test_the_same_look_again_recolours_nothing_and_a_new_one_recolours(qtbot, monkeypatch):
    """The start-up set the look twice (the build-out, then the settings), and each walked
    every widget and redrew every icon twice although the palette had not changed."""
    from PySide6.QtCore import Qt

    from app.gui.look import theme

    theme.apply_scheme(Qt.ColorScheme.Light)
    walks = []
    monkeypatch.setattr(theme, "recolour", lambda: walks.append(theme.is_dark()))
    follower = theme.SchemeFollower()
    follower.set_mode("light")
    follower.set_mode("light")
    qtbot.wait(20)
    assert walks == []
    try:
        follower.set_mode("dark")
        qtbot.waitUntil(lambda: len(walks) == 2, timeout=2000)  # now, and once Qt has told
        assert walks == [True, True]                            # the widgets
    finally:
        follower.set_mode("light")
    qtbot.waitUntil(lambda: len(walks) == 4, timeout=2000)
    assert not theme.is_dark()
