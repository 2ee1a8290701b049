"""Export from the window: the dialog's format and scope, a save dialog (patched to answer with
a temp path), the file written off the UI thread, then offered to open."""

from __future__ import annotations

from datetime import date

import pytest
from PySide6.QtWidgets import QFileDialog

from tests.gui.helpers import demo_copy, open_in, run_past_the_decision

FIRST_RUN_TASK = "Draft the \"About us\" page"
SECOND_RUN_TASK = "contact page"


@pytest.fixture
def folder(qtbot, window, tmp_path):
    folder = demo_copy(tmp_path)
    open_in(qtbot, window, folder)
    run_past_the_decision(qtbot, window, folder)
    return folder


def _save_as(monkeypatch, path, asked: list):
    def answer(parent, caption, suggested, filters):
        asked.append((suggested, filters))
        return str(path), filters
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(answer))


def _export(qtbot, window, monkeypatch, target, fmt: str, whole: bool):
    asked: list = []
    _save_as(monkeypatch, target, asked)
    window.export_summary()
    dialog = window.export_dialog
    assert dialog.isVisible()
    dialog.format_buttons[fmt].setChecked(True)
    (dialog.whole_history if whole else dialog.this_run).setChecked(True)
    with qtbot.waitSignal(dialog.saved, timeout=60_000) as saved:
        dialog.save_button.click()
    assert saved.args[0] == target and target.is_file()
    return asked[0]


def test_export_this_run_as_markdown_writes_the_latest_run_only(qtbot, window, folder,
                                                               tmp_path, monkeypatch):
    target = tmp_path / "out" / "summary.md"
    target.parent.mkdir()
    suggested, filters = _export(qtbot, window, monkeypatch, target, "md", whole=False)
    assert suggested.endswith(f"Bakery summary {date.today().isoformat()}.md")
    assert "*.md" in filters
    text = target.read_text(encoding="utf-8")
    assert SECOND_RUN_TASK in text and "History of the folder" not in text
    assert "Saved the summary as" in window.notice.text.text()
    assert window.notice.action.text() == "Open it"


def test_export_the_whole_history_has_both_runs_tasks(qtbot, window, folder, tmp_path,
                                                     monkeypatch):
    target = tmp_path / "history.md"
    suggested, _ = _export(qtbot, window, monkeypatch, target, "md", whole=True)
    assert "Bakery history" in suggested
    text = target.read_text(encoding="utf-8")
    assert "History of the folder" in text and "2 runs" in text
    assert f"Run 1, round 2: {FIRST_RUN_TASK}" in text
    assert SECOND_RUN_TASK in text.split("\n## Run 2:")[1]
    assert "Answer:** trust" in text


@pytest.mark.parametrize("fmt,magic", [("pdf", b"%PDF"), ("odt", b"PK"), ("html", b"<!DOCTYPE")])
def test_the_whole_history_in_each_document_format(qtbot, window, folder, tmp_path,
                                                   monkeypatch, fmt, magic):
    target = tmp_path / f"history.{fmt}"
    _export(qtbot, window, monkeypatch, target, fmt, whole=True)
    data = target.read_bytes()
    assert data.startswith(magic)
    if fmt == "html":
        assert FIRST_RUN_TASK.replace('"', "&quot;") in data.decode("utf-8") or \
            "About us" in data.decode("utf-8")


def test_cancelling_the_save_dialog_writes_nothing_and_keeps_the_dialog(qtbot, window, folder,
                                                                        tmp_path, monkeypatch):
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a: ("", "")))
    window.export_summary()
    dialog = window.export_dialog
    dialog.save_button.click()
    assert dialog.isVisible()
    assert not list(tmp_path.glob("*.pdf"))
    dialog.reject()


@pytest.mark.parametrize("chinese", [False, True])
def test_save_is_the_filled_button_and_the_title_has_room(qtbot, qapp, tmp_path, chinese):
    """Save… is the one filled button (the default), Cancel is plain with no icon, and the
    dialog is wide enough for its title bar's "Export summary — Harness Desk"."""
    from PySide6.QtGui import QFont, QFontMetrics

    from app.gui.evidence.export_flow import ExportDialog
    from app.gui.look import look
    from app.gui.look.notice_bar import NoticeBar
    from app.gui.settings import language

    language.install(qapp, "zh_CN" if chinese else "en")
    try:
        notice = NoticeBar()
        qtbot.addWidget(notice)
        dialog = ExportDialog(demo_copy(tmp_path), notice)
        qtbot.addWidget(dialog)
        dialog.show()
        save = dialog.save_button
        assert save.isDefault() and save.property(look.TONE_PROPERTY) == "primary"
        others = [b for b in dialog.findChildren(type(save)) if b is not save and b.isVisible()]
        assert others and all(b.icon().isNull() for b in others)
        assert all(b.property(look.TONE_PROPERTY) != "primary" for b in others)
        bold = QFont(dialog.font())
        bold.setBold(True)
        title = f"{dialog.windowTitle()} — Harness Desk"
        assert dialog.width() >= QFontMetrics(bold).horizontalAdvance(title) + 120
    finally:
        language.install(qapp, "en")
