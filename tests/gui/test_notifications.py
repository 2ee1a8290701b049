"""When a run needs the person or ends: a banner in the window always; the taskbar alert and a
system notification only when the window is not in front (and the platform has them)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication, QSystemTrayIcon

from tests.gui.helpers import demo_copy, open_in, run_until_end


@pytest.fixture
def desktop(monkeypatch):
    """A desktop with a tray that shows messages; records the alerts and the messages."""
    seen: dict[str, list] = {"alerts": [], "messages": []}
    monkeypatch.setattr(QSystemTrayIcon, "isSystemTrayAvailable", staticmethod(lambda: True))
    monkeypatch.setattr(QSystemTrayIcon, "supportsMessages", staticmethod(lambda: True))
    monkeypatch.setattr(QSystemTrayIcon, "showMessage",
                        lambda self, title, text, *rest: seen["messages"].append((title, text)))
    monkeypatch.setattr(QApplication, "alert",
                        staticmethod(lambda widget, ms=0: seen["alerts"].append(widget)))
    return seen


def in_front(window, monkeypatch, value: bool) -> None:
    monkeypatch.setattr(window.notifier, "in_front", lambda: value)


def test_a_decision_in_the_background_is_a_banner_an_alert_and_a_system_message(
        qtbot, window, tmp_path, desktop, monkeypatch):
    open_in(qtbot, window, demo_copy(tmp_path))
    in_front(window, monkeypatch, False)
    result = run_until_end(qtbot, window)
    assert result.state == "blocked_by_human"
    banner = window.notice
    assert banner.isVisible()
    assert banner.text.text().startswith("Your decision is needed: Should the homepage lead "
                                         "with speed")  # the question, not the task
    assert banner.action.text() == "Answer…" and banner.action.isVisible()
    assert desktop["alerts"] and desktop["alerts"][-1] is window
    assert desktop["messages"] == [("Harness Desk needs your decision", banner.text.text())]


def test_the_banners_button_opens_the_decision(qtbot, window, tmp_path, desktop, monkeypatch):
    open_in(qtbot, window, demo_copy(tmp_path))
    in_front(window, monkeypatch, True)
    with qtbot.waitSignal(window.decision_shown, timeout=60_000):
        run_until_end(qtbot, window)
    window.decision_dialog.close()
    qtbot.waitUntil(lambda: window.decision_dialog is None, timeout=5000)
    with qtbot.waitSignal(window.decision_shown, timeout=10_000):
        window.notice.action.click()


def test_in_front_there_is_only_the_banner(qtbot, window, tmp_path, desktop, monkeypatch):
    open_in(qtbot, window, demo_copy(tmp_path))
    in_front(window, monkeypatch, True)
    run_until_end(qtbot, window)
    assert window.notice.isVisible()
    assert desktop["messages"] == []
    assert desktop["alerts"] == []


def test_a_run_that_ends_says_so_and_notifies_only_in_the_background(
        qtbot, window, tmp_path, desktop, monkeypatch):
    folder = demo_copy(tmp_path, "Bakery")
    open_in(qtbot, window, folder)
    with qtbot.waitSignal(window.decision_shown, timeout=60_000) as shown:
        run_until_end(qtbot, window)  # the demo stops at its decision first
    dialog = shown.args[0]
    in_front(window, monkeypatch, False)
    desktop["messages"].clear()
    with qtbot.waitSignal(window.run_ended, timeout=60_000) as ended:
        dialog.recommended_button.click()
    result = ended.args[0]
    assert result.state == "done"
    assert window.notice.isVisible()
    assert window.notice.text.text() == "The run in “Bakery” has ended: Done."
    assert desktop["messages"] == [("Harness Desk: the run has ended",
                                    "The run in “Bakery” has ended: Done.")]


def test_without_a_tray_there_is_no_system_message_but_still_the_banner(
        qtbot, window, tmp_path, monkeypatch):
    sent = []
    monkeypatch.setattr(QSystemTrayIcon, "isSystemTrayAvailable", staticmethod(lambda: False))
    monkeypatch.setattr(QSystemTrayIcon, "showMessage", lambda self, *a: sent.append(a))
    window.notifier.system_notified.connect(lambda *a: sent.append(a))
    in_front(window, monkeypatch, False)
    window.notifier.notify("Title", "Something happened.")
    assert window.notice.isVisible() and window.notice.text.text() == "Something happened."
    assert sent == []


def test_in_front_a_stopped_run_is_said_once_by_its_status(qtbot, window, tmp_path, desktop,
                                                           monkeypatch):
    """The Demo on a task of the person's own stops ("Shown as a sample, not done"): the
    status block says so under its heading; no banner repeats the heading below it."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "TASKS.md").write_text("# Docs\n\n- [ ] Summarise every document here\n",
                                     encoding="utf-8")
    open_in(qtbot, window, folder)
    in_front(window, monkeypatch, True)
    result = run_until_end(qtbot, window)
    assert result.exit_reason == "samples_shown"
    qtbot.wait(50)  # the ending's notice comes a turn or two later
    assert window.run_panel.state_label.text() == "Shown as a sample, not done"
    assert not window.notice.isVisible()
    assert desktop["messages"] == [] and desktop["alerts"] == []
