"""What a person found after a run (walk8a): the round cards, each round's evidence, Undo, an
older run in History, Lessons and the exported summary, in English and Chinese, at 1280x800
and 800x600."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from app.core.run.reports import samples_message
from app.export.service import export_summary
from app.export.words import tr
from tests.export_fixtures import make_run, make_workspace

# A folder of the person's own tasks with one task of the Demo's bakery example, which the
# Demo does for real (drafts/contact.docx) and ticks; the other two it only shows as samples.
MIXED_BOARD = ("# Shop paperwork\n\n- [ ] Summarise cases.docx in a few lines\n"
               "- [ ] Check the monthly budget\n"
               "- [x] Write the opening hours and contact page\n")
MIXED_ROUNDS = [
    ("Summarise cases.docx in a few lines", "sample", ["demo-output/summarise.md"],
     "Wrote a sample note for this task (no AI was used).", None, 3),
    ("Check the monthly budget", "sample", [],
     "Its sample note from an earlier round was already there, word for word, so nothing "
     "was written (no AI was used).", None, 2),
    ("Write the opening hours and contact page", "completed", ["drafts/contact.docx"],
     "Wrote the opening hours and contact page as a Word document.", None, 3)]


def _demo_export(tmp_path, lang: str, rounds=MIXED_ROUNDS, board=MIXED_BOARD) -> str:
    ws = make_workspace(tmp_path / "shop", board)
    run_dir = make_run(ws, rounds, engine="demo", is_ai=False, state="stopped",
                       exit_reason="samples_shown", decision=None)
    info = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    sampled = len({r[0] for r in rounds if r[1] == "sample"})
    info["message"] = samples_message(sampled)  # the core's own ending, as a real run has it
    (run_dir / "run.json").write_text(json.dumps(info), encoding="utf-8")
    return export_summary(ws, "md", tmp_path / "out.md", lang=lang).read_text(encoding="utf-8")


def _ended(text: str, lang: str) -> str:
    (row,) = [ln for ln in text.splitlines() if ln.startswith(f"| {tr(lang, 'How it ended')} |")]
    return row


def test_a_demo_run_that_did_an_example_task_does_not_say_it_ticked_none(tmp_path):
    text = _demo_export(tmp_path, "en")
    ended = _ended(text, "en")
    assert "| Tasks done | 1 of 3 |" in text
    # Before: "…showed 2 tasks as a sample and ticked none: it wrote sample notes under
    # demo-output/ and changed nothing of yours." beside "Tasks done: 1 of 3".
    assert "changed nothing of yours" not in ended
    assert ("The Demo engine showed 2 tasks as a sample and ticked none of them: for those it "
            "only wrote sample notes under demo-output/.") in ended
    assert ("It did one task of its built-in example for real and ticked it: “Write the "
            "opening hours and contact page”.") in ended
    assert ended.count("The Demo engine showed") == 1  # said once, not the core's line again


def test_a_demo_run_of_samples_only_still_says_it_changed_nothing(tmp_path):
    rounds = MIXED_ROUNDS[:2]
    board = MIXED_BOARD.replace("- [x] Write the opening hours and contact page\n", "")
    ended = _ended(_demo_export(tmp_path, "en", rounds, board), "en")
    assert ("The Demo engine showed 2 tasks as a sample and ticked none of them: it wrote "
            "sample notes under demo-output/ and changed nothing of yours.") in ended
    assert "built-in example" not in ended


def test_a_chinese_export_of_a_demo_run_says_every_line_in_chinese(tmp_path):
    text = _demo_export(tmp_path, "zh_CN")
    ended = _ended(text, "zh_CN")
    assert "它按自带的示例真正做完并勾选了一项任务：“Write the opening hours and contact page”" \
        in ended
    assert "没有改动你的任何东西" not in ended
    # The Demo's fixed lines of its sample rounds, in the window's Chinese, not English:
    assert "为这个任务写了一份示例笔记（没有用到 AI）。" in text
    assert "这个任务的示例笔记在之前的一轮里已经写好，内容一字不差，所以这次没有再写（没有用到 AI）。" \
        in text
    assert "Wrote a sample note" not in text and "Its sample note" not in text


# -- a round's evidence and the lessons fit an 800 × 600 screen ----------------------------
def _inside(widget, dialog) -> bool:
    """Is all of `widget` within the dialog, and the dialog within its screen?"""
    from PySide6.QtCore import QRect

    box = QRect(widget.mapTo(dialog, widget.rect().topLeft()), widget.size())
    area = dialog.screen().availableGeometry()
    return dialog.rect().contains(box) and dialog.width() <= area.width() - 40 and \
        dialog.height() <= area.height() - 60


def test_a_rounds_evidence_fits_a_small_screen_with_undo_and_close_on_it(qtbot, tmp_path):
    from PySide6.QtWidgets import QDialogButtonBox

    from tests.gui.test_document_evidence import a_round, open_evidence, word

    old = word(tmp_path / "old.docx", ["Center aligned."])
    new = word(tmp_path / "new.docx", ["Centred text."])
    a_round(tmp_path, {"par-alignment.docx": (old, new)})
    dialog = open_evidence(qtbot, tmp_path)
    area = dialog.screen().availableGeometry()
    assert area.width() < 900 + 40  # the offscreen screen is 800 × 600, as on :82
    dialog.show()
    qtbot.waitExposed(dialog)
    close = dialog.findChild(QDialogButtonBox)
    # Before: 900 × 640 on an 800 × 600 screen, Undo and Close below its edge.
    assert _inside(dialog.undo_button, dialog) and _inside(close, dialog)


def a_run_undone(tmp_path):
    """A folder whose one run wrote notes.md, which the person then undid: one lesson."""
    from app.core.run.loop import Harness
    from app.core.undo.undo import undo_round
    from tests.scripted import ScriptedEngine, board_workspace, call, fast_limits

    ws = board_workspace(tmp_path, "- [ ] Write the notes\n")
    Harness(ws, ScriptedEngine([call("write_file", path="notes.md", content="Notes\n"),
                                call("complete_task", summary="Wrote them.",
                                     evidence=["notes.md"])]), fast_limits()).run()
    undo_round(ws.root, 1)
    return ws.root


def test_the_lessons_fit_a_small_screen(qtbot, tmp_path):
    from PySide6.QtWidgets import QDialogButtonBox

    from app.gui.lessons.lessons_view import LessonsDialog

    dialog = LessonsDialog(a_run_undone(tmp_path))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.lesson is not None, timeout=10_000)
    assert _inside(dialog.accept_button, dialog)
    assert _inside(dialog.findChild(QDialogButtonBox), dialog)


# -- History lists a run made outside the window -------------------------------------------
def test_history_lists_a_run_made_in_the_terminal_when_the_person_comes_to_it(qtbot, window,
                                                                             tmp_path):
    from PySide6.QtCore import Qt

    from tests.gui.helpers import open_in

    ws = make_workspace(tmp_path / "shop", MIXED_BOARD)
    make_run(ws, MIXED_ROUNDS, run_id="20261205-140700-000-aaaaaa", engine="demo",
             is_ai=False, state="stopped", exit_reason="samples_shown", decision=None)
    open_in(qtbot, window, ws)
    picker = window._page.history_picker
    qtbot.waitUntil(lambda: picker.count() == 2, timeout=10_000)  # "Recent runs" and the run
    # The window stays open; a run is made in the terminal (or by a schedule) meanwhile.
    make_run(ws, MIXED_ROUNDS[:1], run_id="20261205-141000-000-bbbbbb", engine="demo",
             is_ai=False, state="stopped", exit_reason="samples_shown", decision=None)
    picker.setFocus(Qt.FocusReason.ShortcutFocusReason)  # Alt+I, "History:"
    # Before: listed only at the folder's opening and after the window's own runs.
    qtbot.waitUntil(lambda: picker.count() == 3, timeout=10_000)
    assert picker.itemData(1) == "20261205-141000-000-bbbbbb"  # newest first
    picker.setCurrentIndex(2)
    picker.clearFocus()
    picker.setFocus(Qt.FocusReason.ShortcutFocusReason)
    qtbot.wait(300)
    assert picker.currentData() == "20261205-140700-000-aaaaaa"  # the choice stays


# -- a Demo round's document claims no AI read it ------------------------------------------
@pytest.mark.parametrize("is_ai", [False, True])
def test_a_demo_rounds_new_word_document_is_shown_as_text_not_as_an_ai_reads_it(
        qtbot, tmp_path, lang, is_ai):
    from app.gui.evidence.evidence_dialog import EvidenceDialog
    from app.gui.run.round_cards import RoundView
    from tests.gui.test_document_evidence import a_round, word

    new = word(tmp_path / "new.docx", ["Tuesday to Friday 7:00–16:00."])
    a_round(tmp_path, {"drafts/contact.docx": (None, new)})
    (tmp_path / "drafts").mkdir()
    (tmp_path / "drafts" / "contact.docx").write_bytes(new)  # as the round left it
    view = RoundView(1, "Write the opening hours and contact page", "completed", run_id="r1",
                     is_ai=is_ai)
    dialog = EvidenceDialog(tmp_path, view)
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.evidence is not None, timeout=10_000)
    dialog.file_list.setCurrentRow(0)
    qtbot.waitUntil(lambda: not dialog.comparing, timeout=10_000)
    toggle = dialog.source_toggle
    plain = {"en": "Show as text", "zh_CN": "按文字显示"}[lang]
    as_ai = {"en": "Show as the AI reads it", "zh_CN": "按 AI 读到的样子显示"}[lang]
    assert toggle.text() == (as_ai if is_ai else plain)
    toggle.click()
    qtbot.waitUntil(lambda: not dialog.comparing, timeout=10_000)
    note = dialog.diff.toPlainText().splitlines()[0]
    if is_ai:
        assert "AI" in note
    else:  # before: "A document: its text is compared as the AI reads it …" in a Demo round
        assert "AI" not in note and {"en": "as plain text", "zh_CN": "纯文字"}[lang] in note
    assert "Tuesday to Friday 7:00–16:00." in dialog.diff.toPlainText()


def test_a_demo_rounds_evidence_in_chinese_does_not_say_an_ai_explained_it(qtbot, tmp_path,
                                                                          qapp):
    from app.gui.evidence.evidence_dialog import EvidenceDialog
    from app.gui.run.round_cards import RoundView
    from app.gui.settings import language
    ws = make_workspace(tmp_path / "shop", MIXED_BOARD)
    make_run(ws, MIXED_ROUNDS[:1], run_id="r1", engine="demo", is_ai=False, state="stopped",
             exit_reason="samples_shown", decision=None)
    view = RoundView(1, MIXED_ROUNDS[0][0], "sample", MIXED_ROUNDS[0][2], run_id="r1",
                     is_ai=False)
    assert language.install(qapp, "zh_CN") == "zh_CN"
    try:
        dialog = EvidenceDialog(ws, view)
        qtbot.addWidget(dialog)
        qtbot.waitUntil(lambda: dialog.evidence is not None, timeout=10_000)
        details = dialog.details.text()
    finally:
        language.install(qapp, "en")
    # Before: "AI 的说明：为这个任务写了一份示例笔记（没有用到 AI）。" – "the AI's account: … (no AI
    # was used)", of a round no AI took part in.
    assert "AI 的说明" not in details
    assert "它说它做了：为这个任务写了一份示例笔记（没有用到 AI）。" in details


# -- the exported PDF marks an undone round's outcome in the chart's colour too --------------
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_an_undone_rounds_outcome_has_its_colour_square_in_the_document(tmp_path, qapp, lang):
    from app.export.render import build_document
    from app.export.summary import build_summary

    ws = make_workspace(tmp_path / "shop", MIXED_BOARD)
    run_dir = make_run(ws, MIXED_ROUNDS, engine="demo", is_ai=False, state="stopped",
                       exit_reason="samples_shown", decision=None)
    (run_dir / "undo").mkdir(exist_ok=True)
    (run_dir / "undo" / "1.undone.json").write_text(json.dumps({
        "round": 1, "undone_at": "2025-03-03T14:10:00+00:00",
        "removed": ["demo-output/summarise.md"]}), encoding="utf-8")
    summary = build_summary(ws, lang=lang)
    assert summary.rounds[0].outcome == tr(lang, "{outcome}, then undone",
                                           outcome=tr(lang, "Shown as a sample, not done"))
    lines = build_document(summary, None).toPlainText().splitlines()
    outcome_lines = [ln for ln in lines if tr(lang, "Shown as a sample, not done") in ln
                     and "·" in ln]
    # Before: "■ Shown as a sample, not done" on round 2, but no square on round 1's
    # "Shown as a sample, not done, then undone".
    assert len(outcome_lines) == 2 and all(ln.startswith("\u25a0 ") for ln in outcome_lines)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_history_of_runs_keeps_its_table_short_and_says_the_demo_ending_under_the_run(
        tmp_path, lang):
    ws = make_workspace(tmp_path / "shop", MIXED_BOARD)
    make_run(ws, MIXED_ROUNDS, engine="demo", is_ai=False, state="stopped",
             exit_reason="samples_shown", decision=None)
    text = export_summary(ws, "md", tmp_path / "all.md", "all", lang=lang).read_text(
        encoding="utf-8")
    (row,) = [ln for ln in text.splitlines() if ln.startswith("| 1 |")]
    assert tr(lang, "Shown as a sample, not done.") in row
    assert {"en": "built-in example", "zh_CN": "自带的示例"}[lang] not in row  # a narrow column
    under = [ln for ln in text.splitlines() if {"en": "It did one task of its built-in "
             "example for real", "zh_CN": "它按自带的示例真正做完"}[lang] in ln]
    assert len(under) == 1 and not under[0].startswith("|")  # said once, under "Run 1"


def test_the_history_box_shows_a_runs_whole_date_in_chinese(qtbot, lang):
    from PySide6.QtWidgets import QStyle, QStyleOptionComboBox

    from app.gui.run.history_picker import HistoryPicker, _when

    picker = HistoryPicker()
    qtbot.addWidget(picker)
    when = _when("2026-12-05T14:07:00+00:00")
    picker.addItem(f"{when} · Demo", "r1")
    picker.setCurrentIndex(1)
    picker.resize(picker.sizeHint())
    picker.show()
    option = QStyleOptionComboBox()
    picker.initStyleOption(option)
    field = picker.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                          QStyle.SubControl.SC_ComboBoxEditField, picker)
    # Before: "2026年12月5日 14:0", the box counted in a Chinese font's average character.
    assert field.width() >= picker.fontMetrics().horizontalAdvance(when)


def test_tab_in_a_rounds_evidence_goes_as_the_eye_reads(qtbot, tmp_path):
    from PySide6.QtWidgets import QDialogButtonBox

    from tests.gui.test_document_evidence import a_round, open_evidence

    a_round(tmp_path, {"notes/summary.md": (None, b"# Summary\n\nThree points.\n")})
    dialog = open_evidence(qtbot, tmp_path)
    dialog.show()
    qtbot.waitExposed(dialog)
    qtbot.waitUntil(lambda: not dialog.comparing, timeout=10_000)
    assert dialog.source_toggle.isVisible()  # "Show source", under the new file
    close = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Close)
    order, widget = [], dialog.file_list
    for _ in range(6):
        widget = widget.nextInFocusChain()
        while not (widget.isVisible() and widget.isEnabled() and
                   widget.focusPolicy() & Qt.FocusPolicy.TabFocus):
            widget = widget.nextInFocusChain()
        order.append(widget)
    actions = dialog.file_actions
    # Before: the list, the file, "Show source", then Open and Show in folder back on the left.
    assert order[:4] == [dialog.diff, actions.open_button, actions.show_button,
                         dialog.source_toggle]
    assert order[4] in (dialog.undo_button, close)


def test_a_chinese_window_of_800_by_600_shows_a_chosen_runs_date_with_no_side_scrolling(
        qapp, qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QAbstractScrollArea

    from app.core.settings import Settings
    from app.gui.main_window import MainWindow
    from app.gui.settings import language
    from tests.gui.helpers import open_in

    assert language.install(qapp, "zh_CN") == "zh_CN"
    language.use_fonts()
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    win = MainWindow(Settings(), demo_delay=0.0, check_engines=False)
    try:
        win.show()
        ws = make_workspace(tmp_path / "shop", MIXED_BOARD)
        make_run(ws, MIXED_ROUNDS, run_id="20261205-140700-000-aaaaaa", engine="demo",
                 is_ai=False, state="stopped", exit_reason="samples_shown", decision=None)
        open_in(qtbot, win, ws)
        win.resize(800, 600)
        qtbot.waitUntil(lambda: win.width() == 800, timeout=5000)
        picker = win._page.history_picker
        qtbot.waitUntil(lambda: picker.count() == 2, timeout=10_000)
        picker.setCurrentIndex(1)
        qtbot.wait(200)
        # Before: "2026年12月5日 14:0" in the box. And the rounds' column no wider than the
        # window (on a real 800 × 600 display a box counted in "X"s alone, 49 px wider, put a
        # side scroll bar under it; offscreen the window's frame leaves that room).
        when = picker.currentText().split(" · ")[0]
        assert picker.width() - 30 >= picker.fontMetrics().horizontalAdvance(when)
        sideways = [a for a in win.findChildren(QAbstractScrollArea) if a.isVisible()
                    and a.horizontalScrollBar().isVisible()]
        assert sideways == []
    finally:
        win.close()
        win.deleteLater()
        language.install(qapp, "en")
