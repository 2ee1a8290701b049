"""What a run's events cost the UI thread: a tone set again restyles nothing, a progress bar
moves without painting the window there and then, and both still show what they should."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QLabel, QProgressBar, QVBoxLayout, QWidget

from app.gui.look import look


class Counter(QObject):
    def __init__(self, kinds):
        super().__init__()
        self.kinds, self.seen = kinds, 0

    def eventFilter(self, obj, event):  # noqa: N802 (Qt's name)
        if event.type() in self.kinds:
            self.seen += 1
        return False


def test_the_same_tone_again_does_not_restyle_and_the_colour_is_right(qtbot):
    label = QLabel("Working on the menu")
    qtbot.addWidget(label)
    label.show()
    look.set_tone(label, "attention")
    sheet = label.styleSheet()
    assert look.css(look.attention_colour()) in sheet
    restyled = Counter((QEvent.Type.StyleChange,))
    label.installEventFilter(restyled)
    for _ in range(20):  # a run sets its state label's tone on every round
        look.set_tone(label, "attention")
    assert restyled.seen == 0
    assert label.styleSheet() == sheet
    look.set_tone(label, "ok")  # a different tone still applies
    assert look.css(look.ok_colour()) in label.styleSheet()
    assert restyled.seen >= 1
    look.set_tone(label, None)
    assert label.styleSheet() == "" and label.property(look.TONE_PROPERTY) == ""


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
