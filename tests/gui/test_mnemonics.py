"""No two visible buttons, labels or menu items of one window, dialog or menu share an Alt
letter (a mnemonic), in English and in Chinese: Alt+letter always goes where it says."""

from __future__ import annotations

from collections import defaultdict

import pytest
from PySide6.QtWidgets import QAbstractButton, QGroupBox, QLabel, QMenu, QWidget

from tests.gui.helpers import demo_copy, open_in


def mnemonic(text: str) -> str:
    """The letter after a single "&" (Qt's mnemonic), lower case; "" for none."""
    i = 0
    while i < len(text) - 1:
        if text[i] == "&":
            if text[i + 1] != "&":
                return text[i + 1].lower()
            i += 1
        i += 1
    return ""


def clashes(named: list[tuple[str, str]]) -> dict[str, list[str]]:
    letters: dict[str, list[str]] = defaultdict(list)
    for text, letter in named:
        if letter:
            letters[letter].append(text)
    return {k: v for k, v in letters.items() if len(v) > 1}


def in_view(top: QWidget) -> list[tuple[str, str]]:
    """The mnemonics a person can reach with Alt in `top`: its visible buttons, labels with a
    buddy and group boxes, and (for a main window) its menu bar's titles."""
    named = []
    for widget in top.findChildren(QWidget):
        if not widget.isVisible() or widget.window() is not top or isinstance(widget, QMenu):
            continue
        if isinstance(widget, (QAbstractButton, QGroupBox)):
            text = widget.text() if isinstance(widget, QAbstractButton) else widget.title()
        elif isinstance(widget, QLabel) and widget.buddy() is not None:
            text = widget.text()
        else:
            continue
        named.append((text, mnemonic(text)))
    bar = getattr(top, "menuBar", None)
    if callable(bar):
        named += [(a.text(), mnemonic(a.text())) for a in bar().actions() if a.isVisible()]
    return named


def menus_of(window) -> list[QMenu]:
    return [a.menu() for a in window.menuBar().actions() if a.menu() is not None]


@pytest.fixture
def main(qtbot, tmp_path, monkeypatch, lang):
    from app.core.settings import Settings
    from app.gui.main_window import MainWindow

    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    win = MainWindow(Settings(), demo_delay=0.0, check_engines=False)
    win.show()
    open_in(qtbot, win, demo_copy(tmp_path))
    yield win
    win.close()
    win.deleteLater()


def test_the_window_and_each_menu(main):
    assert clashes(in_view(main)) == {}
    for menu in menus_of(main):
        items = [(a.text(), mnemonic(a.text())) for a in menu.actions()
                 if a.isVisible() and not a.isSeparator()]
        assert clashes(items) == {}, menu.title()


def test_the_settings_dialog_with_the_folders_safety(qtbot, main):
    main.open_settings()
    dialog = main.settings_dialog
    qtbot.waitUntil(dialog.isVisible, timeout=5000)
    assert clashes(in_view(dialog)) == {}
    dialog.reject()


def test_the_engine_settings_dialog(qtbot, main):
    main.open_engine_settings()
    dialog = main.engine_settings_dialog
    qtbot.waitUntil(dialog.isVisible, timeout=5000)
    assert clashes(in_view(dialog)) == {}
    dialog.reject()


def test_the_export_and_decision_dialogs(qtbot, main, tmp_path):
    from app.gui import core_calls
    from app.gui.evidence.export_flow import ExportDialog
    from app.gui.run.decision_dialog import DecisionDialog

    export = ExportDialog(main.workspace, main.notice, parent=main)
    qtbot.addWidget(export)
    export.show()
    assert clashes(in_view(export)) == {}
    root = main.workspace
    (root / "TASKS.md").write_text(
        "# Shop\n\n- [ ] HUMAN: Which colour?\n  - Option: blue\n  - Option: green\n"
        "  - Evidence: notes/colours.md\n", encoding="utf-8")
    task = core_calls.open_decision(root)
    decision = DecisionDialog(task, root, lambda a: None, main)
    qtbot.addWidget(decision)
    decision.show()
    assert clashes(in_view(decision)) == {}


def test_the_settings_dialogs_save_has_its_own_letter(qtbot, main):
    """Alt+S (or whatever Save is given) presses Save, not a field that happens to share the
    letter: the dialog's main button has a letter, and no other control has it."""
    from PySide6.QtWidgets import QDialogButtonBox

    main.open_settings()
    dialog = main.settings_dialog
    qtbot.waitUntil(dialog.isVisible, timeout=5000)
    save = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Save)
    named = in_view(dialog)
    assert mnemonic(save.text()), save.text()
    assert clashes(named) == {}
    dialog.reject()


def test_the_evidence_dialogs_undo_has_a_letter(qtbot, main, tmp_path):
    import json

    from app.core.undo.blobs import BlobStore
    from app.core.workspace.workspace import Workspace
    from app.gui.evidence.evidence_dialog import EvidenceDialog
    from app.gui.run.round_cards import RoundView

    ws = Workspace(tmp_path / "round")
    ws.root.mkdir()
    (ws.root / "notes.md").write_text("new\n", encoding="utf-8")
    blobs = BlobStore(ws.harness_dir)
    undo = ws.run_files("r1").undo(1)
    undo.parent.mkdir(parents=True)
    undo.write_text(json.dumps({"round": 1, "files": {"notes.md": {
        "before": blobs.put(b"old\n"), "after": blobs.put(b"new\n")}}}), encoding="utf-8")
    dialog = EvidenceDialog(ws.root, RoundView(1, "Update the notes", "completed",
                                               run_id="r1"))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.evidence is not None, timeout=10_000)
    assert dialog.undo_button.isVisible()
    assert mnemonic(dialog.undo_button.text()), dialog.undo_button.text()
    assert clashes(in_view(dialog)) == {}
