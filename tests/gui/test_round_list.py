"""The rounds list keeps widgets for the newest page only (issue 36): a window that ran a
thousand rounds holds as many cards as one that ran thirty; older rounds page in on demand."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtWidgets import QLabel, QWidget

from app.gui.run import round_cards
from app.gui.words import wording
from app.gui.run.round_cards import PAGE, RoundCard, RoundCardList, RoundView, card_text


def _view(n: int, **kw) -> RoundView:
    return RoundView(n, f"Task {n}", "completed", [f"out-{n}.md"], 3.0, 0.0, f"Summary {n}.",
                     False, "run-1", **kw)


def _alive_cards(cards: RoundCardList) -> list[RoundCard]:
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    return cards.findChildren(RoundCard)


def test_a_thousand_rounds_keep_one_page_of_cards_and_every_round(qtbot):
    cards = RoundCardList()
    qtbot.addWidget(cards)
    for n in range(1, 1001):
        cards.add(_view(n))
    assert len(_alive_cards(cards)) == PAGE  # before: a widget for every round, for ever
    assert [c.view.round for c in cards.cards] == list(range(1000, 1000 - PAGE, -1))
    assert [v.round for v in cards.rounds] == list(range(1000, 0, -1))
    more = cards.findChild(QWidget, "olderRounds")
    assert more.isVisibleTo(cards) and more.text() == f"Show older rounds ({1000 - PAGE} more)"


def test_show_older_rounds_brings_the_next_page_in_and_gives_it_the_focus(qtbot):
    cards = RoundCardList()
    qtbot.addWidget(cards)
    cards.show()
    for n in range(1, PAGE + 6):
        cards.add(_view(n))
    more = cards.findChild(QWidget, "olderRounds")
    more.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(more.hasFocus, timeout=2000)
    qtbot.keyClick(more, Qt.Key.Key_Space)
    assert [c.view.round for c in cards.cards] == list(range(PAGE + 5, 0, -1))
    assert not more.isVisibleTo(cards)
    qtbot.waitUntil(lambda: cards.cards[PAGE].hasFocus(), timeout=2000)
    assert cards.cards[PAGE].view.round == 5  # the newest of those that came in
    with qtbot.waitSignal(cards.round_opened, timeout=2000) as opened:
        qtbot.keyClick(cards.cards[PAGE], Qt.Key.Key_Return)
    assert opened.args[0].round == 5
    cards.add(_view(PAGE + 6))  # what the person asked for stays: no card is let go
    assert len(cards.cards) == PAGE + 6


def test_history_of_a_thousand_rounds_makes_one_page_of_widgets(qtbot):
    cards = RoundCardList()
    qtbot.addWidget(cards)
    made = []
    real = round_cards.RoundCard.__init__

    def counted(self, *a, **kw):
        made.append(1)
        real(self, *a, **kw)

    round_cards.RoundCard.__init__ = counted
    try:
        plan = QLabel("a planning card")
        cards.show_history([("2026-01-01T09:00:00+00:00", [_view(n) for n in range(1, 501)]),
                            ("2026-01-02T09:00:00+00:00", [_view(n) for n in range(1, 501)])],
                           [("2026-01-01T12:00:00+00:00", plan)])
    finally:
        round_cards.RoundCard.__init__ = real
    assert len(made) == PAGE  # before: a thousand cards built on the UI thread
    assert len(cards.rounds) == 1000
    assert cards.cards[0].view.round == 500
    # The divider and the planning card are among the entries where they happened.
    cards.show_older()
    while cards.findChild(QWidget, "olderRounds").isVisibleTo(cards):
        cards.show_older()
    dividers = cards.findChildren(QLabel, "runDivider")
    assert len(dividers) == 1 and dividers[0].text().startswith("Earlier run")
    widgets = [cards._layout.itemAt(i).widget() for i in range(cards._layout.count())]
    assert widgets.index(dividers[0]) == 501 and widgets.index(plan) == 502


def test_a_card_says_what_card_text_says(qtbot):
    view = _view(7, approvals=[("prices.xlsx", "approved")])
    text = card_text(view)
    card = RoundCard(view)
    qtbot.addWidget(card)
    shown = [label.text() for label in card.findChildren(QLabel)]
    assert shown == [text.head] + [line.text for line in text.lines]
    assert shown == ["Round 7   ✓ Done", "Task 7", "1 file changed: out\u20117.md",
                     "Careful mode: prices.xlsx approved", "Summary 7.",
                     wording.duration(3.0)]  # as before
    assert card.accessibleName() == "Round 7   ✓ Done: Task 7"
    assert card.accessibleDescription() == (
        f"1 file changed: out-7.md. Careful mode: prices.xlsx approved. "
        f"{wording.duration(3.0)}. Summary 7.. Press Enter to open it")
    assert card.findChild(QLabel, "roundApprovals").text() == text.lines[2].text


def test_adding_a_round_does_not_measure_the_other_cards_lines_again(qtbot, monkeypatch):
    """Each round added re-lays out the list, whose layouts ask every card's wrapped lines
    for their height at two widths in turn: measured anew each time, that was 130 text
    layouts a round for 20 cards, most of the UI thread's work during a long run."""
    cards = RoundCardList()
    qtbot.addWidget(cards)
    cards.resize(560, 700)
    cards.show()
    for n in range(1, PAGE + 2):
        cards.add(_view(n, approvals=[("prices.xlsx", "approved")]))
        QCoreApplication.processEvents()
    measured: list[tuple[QLabel, int]] = []
    real = QLabel.heightForWidth
    monkeypatch.setattr(QLabel, "heightForWidth",
                        lambda self, width: measured.append((self, width)) or real(self, width))
    wrapped = [label for card in cards.cards for label in card.findChildren(QLabel)
               if label.wordWrap()]
    assert len(wrapped) >= 2 * PAGE
    for label in wrapped:  # as the layouts ask, round after round
        for width in (553, 268, 553, 268, 553):
            assert label.heightForWidth(width) > 0
    assert len(measured) == 2 * len(wrapped)  # once per width (before: 5 times)
    measured.clear()
    cards.add(_view(PAGE + 2, approvals=[("prices.xlsx", "approved")]))
    QCoreApplication.processEvents()
    new = cards.cards[0]
    assert measured and all(label.parent() is new for label, _ in measured)
    wider = wrapped[0]  # a line's font changing: measured again
    wider.setFont(round_cards.look.scaled_font(wider, 1.5))
    measured.clear()
    wider.heightForWidth(553)
    assert measured == [(wider, 553)]


def test_a_card_read_again_keeps_the_focus_it_had_behind_its_evidence(qtbot):
    """Undo in a round's evidence reads the cards again (history_picker.refresh_cards): the
    card the person opened was replaced while the evidence was open, and when it closed the
    keyboard landed on the window's first button (Open folder…), not on that round."""
    from PySide6.QtWidgets import QDialog, QPushButton, QVBoxLayout

    top = QWidget()
    qtbot.addWidget(top)
    column = QVBoxLayout(top)
    first = QPushButton("Open folder…", top)
    cards = RoundCardList(top)
    column.addWidget(first)
    column.addWidget(cards)
    runs = [("2026-01-01T09:00:00+00:00", [_view(n) for n in range(1, 4)])]
    cards.show_history(runs)
    top.show()
    qtbot.waitExposed(top)
    top.activateWindow()
    opened = cards.cards[1]
    assert opened.view.round == 2
    opened.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(opened.hasFocus, timeout=2000)
    evidence = QDialog(top)
    evidence.setModal(True)
    evidence.show()
    qtbot.waitExposed(evidence)
    runs[0][1][1] = _view(2, undone=True)
    cards.show_history(runs)  # the undone round read again while its evidence is open
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    evidence.close()
    again = cards.cards[1]
    assert again is not opened and again.view.undone
    qtbot.waitUntil(again.hasFocus, timeout=2000)
    assert not first.hasFocus()
