"""The person's files, reachable: a file a round changed opens in its own program and shows in
its folder; "Open it" after an export that opens nothing says so. The opener is replaced at the
window's edge, so these tests record what would have been opened instead of starting a program.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QObject, Qt, QUrl

from app.gui import file_opener
from tests.gui.helpers import demo_copy, open_in, run_until_end


@pytest.fixture
def opened(monkeypatch):
    """What would have been opened: ("url", path) for QDesktopServices.openUrl, ("launch",
    argv) for a program started directly. `opened.answer` is what openUrl returns."""
    calls: list = []

    class Recorder(list):
        answer = True

    calls = Recorder()

    def open_url(url: QUrl) -> bool:
        calls.append(("url", Path(url.toLocalFile())))
        return calls.answer

    monkeypatch.setattr(file_opener.opener, "open_url", open_url)
    monkeypatch.setattr(file_opener.opener, "launch", lambda argv: calls.append(("launch", argv)))
    return calls




def test_open_hands_the_file_to_the_system(qtbot, opened, tmp_path):
    note = tmp_path / "notes.md"
    note.write_text("hello")
    owner, said = QObject(), []
    file_opener.open_file(owner, note, said.append)
    qtbot.waitUntil(lambda: bool(opened), timeout=5000)
    assert opened == [("url", note)] and said == []


def test_open_says_when_no_program_opened_the_file(qtbot, opened, tmp_path):
    opened.answer = False
    odd = tmp_path / "odd.xyz"
    odd.write_text("?")
    owner, said = QObject(), []
    file_opener.open_file(owner, odd, said.append)
    qtbot.waitUntil(lambda: bool(said), timeout=5000)
    assert said == ["No program opened odd.xyz: your computer has no program set for this "
                    "kind of file. Use Show in folder and open it from there."]


def test_open_says_when_the_file_is_gone(qtbot, opened, tmp_path):
    owner, said = QObject(), []
    file_opener.open_file(owner, tmp_path / "gone.md", said.append)
    qtbot.waitUntil(lambda: bool(said), timeout=5000)
    assert said == ["gone.md is no longer in the folder, so it cannot be opened."]
    assert opened == []


@pytest.mark.parametrize("platform, expected", [
    ("win32", lambda f: [("launch", ["explorer", f"/select,{f}"])]),
    ("darwin", lambda f: [("launch", ["open", "-R", str(f)])]),
    ("linux", lambda f: [("url", f.parent)]),
])
def test_show_in_folder_selects_the_file_where_the_system_can(qtbot, opened, tmp_path,
                                                               monkeypatch, platform, expected):
    monkeypatch.setattr(file_opener.opener, "platform", platform)
    (tmp_path / "sub").mkdir()
    f = tmp_path / "sub" / "price list.md"
    f.write_text("x")
    owner, said = QObject(), []
    file_opener.show_in_folder(owner, f, said.append)
    qtbot.waitUntil(lambda: bool(opened), timeout=5000)
    assert opened == expected(f) and said == []


def test_show_in_folder_says_when_it_cannot(qtbot, opened, tmp_path, monkeypatch):
    monkeypatch.setattr(file_opener.opener, "platform", "darwin")

    def refuse(argv):
        raise FileNotFoundError(2, "No such file or directory")

    monkeypatch.setattr(file_opener.opener, "launch", refuse)
    f = tmp_path / "a.md"
    f.write_text("x")
    owner, said = QObject(), []
    file_opener.show_in_folder(owner, f, said.append)
    qtbot.waitUntil(lambda: bool(said), timeout=5000)
    assert said == ["The folder of a.md could not be shown: No such file or directory"]


def _evidence(qtbot, window, tmp_path):
    folder = demo_copy(tmp_path)
    open_in(qtbot, window, folder)
    run_until_end(qtbot, window)
    card = next(c for c in window.cards.cards if c.view.changed)
    with qtbot.waitSignal(window.history.evidence_shown, timeout=5000) as shown:
        qtbot.mouseClick(card, Qt.MouseButton.LeftButton)
    dialog = shown.args[0]
    qtbot.waitUntil(lambda: dialog.evidence is not None, timeout=10_000)
    return folder, dialog


def test_a_file_in_a_rounds_evidence_opens_and_shows_in_its_folder(qtbot, window, tmp_path,
                                                                   opened):
    folder, dialog = _evidence(qtbot, window, tmp_path)
    row = next(i for i, f in enumerate(dialog.evidence.files) if not f.deleted)
    dialog.file_list.setCurrentRow(row)
    path = folder / dialog.evidence.files[row].path
    actions = dialog.file_actions
    assert actions.open_button.isEnabled() and actions.show_button.isEnabled()
    actions.open_button.click()
    qtbot.waitUntil(lambda: len(opened) == 1, timeout=5000)
    assert opened[0] == ("url", path)
    file_opener.opener.platform = "linux"
    actions.show_button.click()
    qtbot.waitUntil(lambda: len(opened) == 2, timeout=5000)
    assert opened[1] == ("url", path.parent)
    # The context menu offers the same, beside "Protect this file".
    rect = dialog.file_list.visualItemRect(dialog.file_list.item(row))
    with qtbot.waitSignal(actions.menu_shown, timeout=5000) as menu:
        dialog.file_list.customContextMenuRequested.emit(rect.center())
    texts = [a.text() for a in menu.args[0].actions() if not a.isSeparator()]
    assert texts == ["Open", "Show in folder", "Protect this file"]
    next(a for a in menu.args[0].actions() if a.text() == "Open").trigger()
    qtbot.waitUntil(lambda: len(opened) == 3, timeout=5000)
    assert opened[2] == ("url", path)
    menu.args[0].close()
    dialog.close()


def test_a_file_that_will_not_open_is_said_in_the_evidence(qtbot, window, tmp_path, opened):
    folder, dialog = _evidence(qtbot, window, tmp_path)
    row = next(i for i, f in enumerate(dialog.evidence.files) if not f.deleted)
    dialog.file_list.setCurrentRow(row)
    opened.answer = False
    dialog.file_actions.open_button.click()
    qtbot.waitUntil(lambda: dialog.file_actions.problem.isVisible(), timeout=5000)
    name = Path(dialog.evidence.files[row].path).name
    assert dialog.file_actions.problem.text().startswith(f"No program opened {name}:")
    dialog.close()


def test_open_it_after_export_says_when_nothing_opened_the_summary(qtbot, window, tmp_path,
                                                                   opened):
    from app.gui.evidence import export_flow

    folder = demo_copy(tmp_path)
    open_in(qtbot, window, folder)
    # The demo's first run stops at its decision; the dialog (and the notice naming the
    # question) comes a few turns after the run's end: let it come before the export, or its
    # notice replaces the export's "Open it" (it did, once, in the whole suite).
    with qtbot.waitSignal(window.decision_shown, timeout=60_000) as shown:
        run_until_end(qtbot, window)
    shown.args[0].close()
    target = tmp_path / "summary.md"
    export_flow.write(window, folder, "md", target, None, window.notice)
    qtbot.waitUntil(lambda: window.notice.action.text() == "Open it", timeout=60_000)
    opened.answer = False
    window.notice.action.click()
    qtbot.waitUntil(lambda: "no program opened it" in window.notice.text.text(), timeout=5000)
    assert opened == [("url", target)]
    assert window.notice.text.text() == (
        "The summary was saved, but no program opened it: your computer has no program set for "
        f"this kind of file. It is at {target}.")
