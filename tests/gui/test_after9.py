"""What the window said after a Demo run on a board with one task of the Demo's bakery example
(done for real: drafts/contact.docx) among the person's own (after9): the panel's sentences
before and after the run, a new file on a round card, a file name kept whole in the undo
question, and Ctrl+R when the next step is choosing an engine."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtGui import QTextLayout, QTextOption
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox

from app.core.records.records import read_rounds
from app.core.workspace.workspace import Workspace
from app.gui import window_menus
from tests.gui.helpers import demo_copy, open_in, run_past_the_decision, run_until_end

CONTACT = "Write the opening hours and contact page"
# The person's own task first (shown as a sample), then the bakery's (done for real).
MIXED = ("- [ ] Check the monthly budget\n"
         f"- [ ] {CONTACT}\n"
         "  - Done when: drafts/contact.docx lists the opening hours, address and phone number "
         "from brief.docx, and the price of each cake from prices.xlsx\n")
NOTE = "demo-output/check-the-monthly-budget.md"  # the Demo's sample note for the own task
SHOWN = NOTE.replace("-", "\u2011").replace("/", "/\u2060")  # whole on a line where it fits

BEFORE = {
    "en": ("The Demo engine uses no AI: on your own tasks it only shows how a run looks and "
           "writes sample notes in a demo-output folder, ticking none of them. One task is of "
           f"its built-in example, which it does for real and ticks: “{CONTACT}”. To get your "
           "own tasks done, choose an AI engine."),
    "zh_CN": ("演示引擎不使用 AI：在你自己的任务上，它只演示一次运行的样子，并在 demo-output 文件夹里"
              "写示例笔记，一项也不勾选。有一项任务属于它自带的示例，它会真正做完并勾选："
              f"“{CONTACT}”。要真正完成你自己的任务，请选择一个 AI 引擎。"),
}
AFTER = {
    "en": ("The Demo engine showed 1 task as a sample and did not tick it: it only wrote a "
           "sample note for it under demo-output/. It did one task of its built-in example for "
           f"real and ticked it: “{CONTACT}”. Choose an AI engine to do the work on your own "
           "tasks."),
    "zh_CN": ("演示引擎把 1 项任务做成了示例，没有勾选它：它只在 demo-output/ 里为它写了一份示例笔记。"
              f"它按自带的示例真正做完并勾选了一项任务：“{CONTACT}”。要真正完成你自己的任务，请选择"
              "一个 AI 引擎。"),
}


@pytest.fixture
def mixed(tmp_path):
    folder = demo_copy(tmp_path)
    (folder / "TASKS.md").write_text(MIXED, encoding="utf-8")
    return folder


def _after_a_run(qtbot, window, folder):
    open_in(qtbot, window, folder)
    result = run_until_end(qtbot, window)
    assert result.exit_reason == "samples_shown"
    return result


# -- 1. the panel says what the Demo did, before and after ----------------------------------

def test_the_panel_names_the_example_task_the_demo_does_for_real(qtbot, lang, window, mixed):
    panel = window.run_panel
    open_in(qtbot, window, mixed)
    qtbot.waitUntil(lambda: panel.detail_label.text() == BEFORE[lang], timeout=5000)
    # Before: "…ticking nothing and changing nothing of yours" with the bakery task on the list.
    run_until_end(qtbot, window)
    board = (mixed / "TASKS.md").read_text(encoding="utf-8")
    assert f"- [x] {CONTACT}" in board and "- [ ] Check the monthly budget" in board
    assert (mixed / "drafts" / "contact.docx").is_file()
    # Before: "…and ticked no task: your tasks and files are as you left them."
    assert panel.detail_label.text() == AFTER[lang]
    assert panel.state_label.text() == {"en": "Shown as a sample, not done",
                                        "zh_CN": "只是示例，并未完成"}[lang]


def test_the_folder_opened_again_says_the_same_once_its_rounds_are_read(qtbot, lang, window,
                                                                        mixed, tmp_path):
    _after_a_run(qtbot, window, mixed)
    other = tmp_path / "Other"
    other.mkdir()
    open_in(qtbot, window, other)
    open_in(qtbot, window, mixed)  # waits for the rounds to be read and shown
    assert window.run_panel.mode == "choose_engine"
    # Before: status.json's "…ticked no task: your tasks and files are as you left them."
    assert window.run_panel.detail_label.text() == AFTER[lang]


def test_a_demo_run_on_the_persons_tasks_alone_still_says_it_changed_nothing(qtbot, window,
                                                                            tmp_path):
    folder = demo_copy(tmp_path)
    (folder / "TASKS.md").write_text("- [ ] Check the monthly budget\n", encoding="utf-8")
    panel = window.run_panel
    open_in(qtbot, window, folder)
    qtbot.waitUntil(lambda: "ticking nothing and changing nothing of yours"
                    in panel.detail_label.text(), timeout=5000)
    run_until_end(qtbot, window)
    assert panel.detail_label.text().startswith(
        "The Demo engine wrote sample notes in the demo-output folder and ticked no task: your "
        "tasks and files are as you left them.")


# -- 2. a new file is new on its card; a file name stays whole ----------------------------

def test_a_round_card_says_new_file_for_a_file_the_round_made(qtbot, lang, window, mixed):
    result = _after_a_run(qtbot, window, mixed)
    cards = {c.view.task: c for c in window.cards.cards}
    new = {"en": "1 new file: %1", "zh_CN": "新建了 1 个文件：%1"}[lang]
    contact = cards[CONTACT].findChildren(QLabel)
    # Before: "1 file changed: drafts/contact.docx", a file that was not there before.
    assert any(label.text() == new.replace("%1", "drafts/\u2060contact.docx")
               for label in contact)
    assert any(label.text() == new.replace("%1", SHOWN)
               for label in cards["Check the monthly budget"].findChildren(QLabel))
    # The same read back from the records (the folder opened again).
    from app.gui.words.round_text import RoundView, card_text

    ws = Workspace(mixed)
    records = read_rounds(ws.run_files(result.run_id))
    said = [card_text(RoundView.from_record(r, is_ai=False)).lines[1].text for r in records]
    assert new.replace("%1", "drafts/\u2060contact.docx") in said


def test_a_round_that_made_some_files_and_changed_others_counts_both(lang):
    from app.gui.words.round_text import files_line

    changed = ["a.md", "b.md", "par-alignment.docx"]
    assert files_line(changed, ["par-alignment.docx"]) == {
        "en": "1 new file, 2 changed: par\u2011alignment.docx, a.md, b.md",
        "zh_CN": "新建了 1 个文件，改动了 2 个：par\u2011alignment.docx, a.md, b.md",
    }[lang]
    assert files_line(changed, []) == {
        "en": "3 files changed: a.md, b.md, par\u2011alignment.docx",
        "zh_CN": "改动了 3 个文件：a.md, b.md, par\u2011alignment.docx"}[lang]
    assert files_line(["a.md", "b.md"], ["a.md", "b.md"]) == {
        "en": "2 new files: a.md, b.md", "zh_CN": "新建了 2 个文件：a.md, b.md"}[lang]


def _lines(text: str, label: QLabel, width: int) -> list[str]:
    """The lines `label` shows `text` in at `width` (Qt's own wrapping, as a word-wrapped
    label lays it out)."""
    out = []
    for paragraph in text.split("\n"):
        layout = QTextLayout(paragraph, label.font())
        option = QTextOption()
        option.setWrapMode(QTextOption.WrapMode.WordWrap)
        layout.setTextOption(option)
        layout.beginLayout()
        while (line := layout.createLine()).isValid():
            line.setLineWidth(width)
            out.append(paragraph[line.textStart():line.textStart() + line.textLength()])
        layout.endLayout()
    return out


def test_the_undo_question_keeps_a_file_name_whole_on_one_line(qtbot, lang, window, mixed):
    _after_a_run(qtbot, window, mixed)
    card = next(c for c in window.cards.cards if c.view.task == "Check the monthly budget")
    with qtbot.waitSignal(window.history.evidence_shown, timeout=5000) as shown:
        card.opened.emit(card.view)
    dialog = shown.args[0]
    qtbot.waitUntil(lambda: dialog.evidence is not None, timeout=10_000)
    asked: list[tuple[str, list[str]]] = []

    def read_and_cancel():
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, read_and_cancel)
            return
        label = box.findChild(QLabel, "qt_msgbox_label")
        shown_name = SHOWN
        name_width = label.fontMetrics().horizontalAdvance(shown_name + ".")
        # At every width from the name's own (with its full stop) up to the box's, the name
        # is on one line.
        whole = [any(shown_name in line for line in _lines(label.text(), label, w))
                 for w in range(name_width + 2, max(label.width(), name_width + 3), 7)]
        asked.append((label.text(), whole))
        box.button(QMessageBox.StandardButton.Cancel).click()

    QTimer.singleShot(20, read_and_cancel)
    dialog.undo_button.click()
    qtbot.waitUntil(lambda: bool(asked), timeout=5000)
    text, whole = asked[0]
    # Before: "demo-output/check-the-monthly-budget.md" broke after "check-" or "monthly-".
    assert NOTE not in text and SHOWN in text
    assert whole and all(whole)
    dialog.close()


# -- 4. Ctrl+R does what the filled button says --------------------------------------------

def test_ctrl_r_after_a_demo_sample_run_opens_the_choice_of_an_engine(qtbot, window, mixed):
    _after_a_run(qtbot, window, mixed)
    panel, combo = window.run_panel, window.picker.combo
    assert panel.mode == "choose_engine"
    window_menus.refresh_states(window)
    assert window.primary_action.isEnabled()
    # Before: enabled, and pressing it did nothing (it acted only to run or continue).
    window.primary_action.trigger()
    qtbot.waitUntil(lambda: combo.view().isVisible(), timeout=3000)
    combo.hidePopup()


def test_ctrl_r_is_greyed_with_its_reason_while_a_decision_waits(qtbot, window, tmp_path):
    folder = demo_copy(tmp_path)
    open_in(qtbot, window, folder)

    def check():
        window_menus.refresh_states(window)
        assert window.run_panel.mode == "answer"
        action = window.primary_action
        assert not action.isEnabled()
        assert action.toolTip() == "A decision is waiting for you: answer it first (Ctrl+D)."

    run_past_the_decision(qtbot, window, folder, between=check)


def test_the_demos_answer_coming_late_keeps_a_run_going_elsewhere_said(qtbot, window, tmp_path):
    """What the Demo would do with the open tasks is worked out off the UI thread: an answer
    that came after the folder said "A run is going elsewhere" replaced it with Ready (a
    window opened while another ran the folder; test_folder_gone failed 1 run in 20)."""
    open_in(qtbot, window, demo_copy(tmp_path))
    panel = window.run_panel
    panel.show_state(panel.tr("A run is going elsewhere"), "", tone="attention")
    panel.set_mode("run")
    panel.set_demo_samples(False, ["Write the opening hours and contact page"])
    assert panel.state_label.text() == panel.tr("A run is going elsewhere")
    panel.show_ready()  # Ready's own words are still brought up to date
    panel.set_demo_samples(True, [])
    assert panel.state_label.text() == panel.tr("Ready to show a sample")
