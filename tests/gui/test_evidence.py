"""A round card opens to its evidence: each changed file before and after, and Undo this round
that restores the files byte for byte, keeps a file the person edited since, and says so."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from app.gui.words.round_text import plain
from tests.gui.helpers import demo_copy, open_in, run_past_the_decision

OPTIONS = "notes/homepage-options.md"  # round 4 (the second run's first) rewrites it


@pytest.fixture
def two_runs(qtbot, window, tmp_path):
    """The demo after both runs, with the options note as it was before the second run."""
    folder = demo_copy(tmp_path)
    open_in(qtbot, window, folder)
    seen: list[bytes] = []
    first, second = run_past_the_decision(
        qtbot, window, folder, between=lambda: seen.append((folder / OPTIONS).read_bytes()))
    before = seen[0]
    assert (first.state, second.state) == ("blocked_by_human", "done")
    return folder, before, second.run_id


def _open_card(qtbot, window, run_id: str, round_no: int, key: bool = False):
    card = next(c for c in window.cards.cards
                if c.view.run_id == run_id and c.view.round == round_no)
    with qtbot.waitSignal(window.history.evidence_shown, timeout=5000) as shown:
        if key:
            card.setFocus()
            qtbot.keyClick(card, Qt.Key.Key_Return)
        else:
            qtbot.mouseClick(card, Qt.MouseButton.LeftButton)
    dialog = shown.args[0]
    qtbot.waitUntil(lambda: dialog.evidence is not None, timeout=10_000)
    return dialog


def _put_the_files_back() -> None:
    def click():
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, click)
            return
        next(b for b in box.buttons() if b.text().startswith("Undo round")).click()
    QTimer.singleShot(20, click)


def _diff_text(qtbot, dialog) -> str:
    """The diff as shown, once it is made (off the UI thread)."""
    qtbot.waitUntil(lambda: not dialog.comparing, timeout=10_000)
    return dialog.diff.toPlainText()


def _undo(qtbot, dialog):
    _put_the_files_back()
    with qtbot.waitSignal(dialog.undone, timeout=10_000) as undone:
        dialog.undo_button.click()
    return undone.args[0]


def test_a_round_card_opens_to_the_changed_file_before_and_after(qtbot, window, two_runs):
    folder, before, run_id = two_runs
    after = (folder / OPTIONS).read_text(encoding="utf-8")
    dialog = _open_card(qtbot, window, run_id, 4)
    paths = [f.path for f in dialog.evidence.files]
    assert OPTIONS in paths
    dialog.file_list.setCurrentRow(paths.index(OPTIONS))
    shown = _diff_text(qtbot, dialog)
    old_lines = before.decode("utf-8").splitlines()
    added = [ln for ln in after.splitlines() if ln.strip() and ln not in old_lines]
    assert added  # the round added the decision under the comparison
    assert any(line.startswith("+") and added[0] in line for line in shown.splitlines())
    # the lines before it show as they were, unmarked, around the change
    assert any(line.startswith(" ") and old_lines[-1] in line for line in shown.splitlines())
    assert "Round 4" in dialog.windowTitle()
    assert dialog.undo_button.isEnabled()
    assert (folder / OPTIONS).read_text(encoding="utf-8") == after  # looking changed nothing


def test_enter_on_a_card_opens_it_and_a_created_file_shows_as_new(qtbot, window, two_runs):
    folder, _before, run_id = two_runs
    dialog = _open_card(qtbot, window, run_id, 5, key=True)
    created = [f for f in dialog.evidence.files if f.created]
    assert created and all(f.before is None for f in created)
    row = dialog.evidence.files.index(created[0])
    dialog.file_list.setCurrentRow(row)
    assert "new file" in dialog.file_list.item(row).text()
    formatted = _diff_text(qtbot, dialog)  # a new Markdown file reads as formatted text
    assert "\n# " not in formatted  # said once, above it: not again in the view
    assert dialog.legend.text() == "Nothing to compare: the file is new."
    assert "new" not in formatted.splitlines()[0]
    dialog.source_toggle.click()  # and its lines as written: every one of them new
    lines = _diff_text(qtbot, dialog).splitlines()
    assert lines and all(line.startswith("+") for line in lines if line.strip())


def test_undo_from_a_round_card_restores_the_files_byte_for_byte_and_reports(
        qtbot, window, two_runs):
    folder, before, run_id = two_runs
    manifest = json.loads((folder / ".harness" / "runs" / run_id / "undo" / "4.json")
                          .read_text(encoding="utf-8"))
    untouched = {p: p.read_bytes() for p in folder.rglob("*")
                 if p.is_file() and ".harness" not in p.parts
                 and p.relative_to(folder).as_posix() not in manifest["files"]}
    dialog = _open_card(qtbot, window, run_id, 4)
    report = _undo(qtbot, dialog)
    assert report.ok and OPTIONS in report.restored
    assert (folder / OPTIONS).read_bytes() == before
    assert all(p.read_bytes() == data for p, data in untouched.items())
    # (as a screen reader says it: the shown names keep their hyphens and slashes joined)
    assert OPTIONS in plain(dialog.report.text()) and "Put back" in dialog.report.text()
    assert not dialog.undo_button.isEnabled()
    status = window.run_panel  # said once, in the status (not again in the notice)
    assert status.state_label.text() == "Round 4 undone"
    assert not window.notice.isVisible() or "Undid" not in window.notice.text.text()
    assert f"Put back as they were before round 4: {OPTIONS}" in status.detail_label.text()
    # Its title and heading say what stands now, as its card does: not "Done".
    assert dialog.windowTitle() == "Round 4 — Undone"
    assert dialog.head.text() == "Round 4   ↶ Undone: its changes were taken back"
    dialog.close()
    again = _open_card(qtbot, window, run_id, 4)
    assert again.windowTitle() == "Round 4 — Undone" and "Done" not in again.head.text()


def test_a_file_edited_after_the_round_is_kept_twice_and_the_report_says_so(
        qtbot, window, two_runs):
    folder, before, run_id = two_runs
    mine = (folder / OPTIONS).read_bytes() + "Rosie: agreed.\n".encode()
    (folder / OPTIONS).write_bytes(mine)
    dialog = _open_card(qtbot, window, run_id, 4)
    report = _undo(qtbot, dialog)
    assert (folder / OPTIONS).read_bytes() == mine
    (path, saved), = report.kept_both
    assert path == OPTIONS and (folder / saved).read_bytes() == before
    text = dialog.report.text()
    assert "your version stays" in text and saved in text
    assert f"{OPTIONS} was changed after the round, so your version stays" in \
        window.run_panel.detail_label.text()


def test_undo_is_offered_only_after_confirming(qtbot, window, two_runs):
    folder, before, run_id = two_runs
    after = (folder / OPTIONS).read_bytes()
    dialog = _open_card(qtbot, window, run_id, 4)

    def cancel():
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, cancel)
            return
        assert box.defaultButton() is box.button(QMessageBox.StandardButton.Cancel)
        box.button(QMessageBox.StandardButton.Cancel).click()
    QTimer.singleShot(20, cancel)
    dialog.undo_button.click()
    assert (folder / OPTIONS).read_bytes() == after
    assert dialog.undo_button.isEnabled()


def test_history_lists_both_runs_with_their_outcome_and_shows_an_earlier_runs_rounds(
        qtbot, window, two_runs):
    folder, _before, second = two_runs
    picker = window.splitter.history_picker
    qtbot.waitUntil(lambda: picker.count() == 3, timeout=10_000)
    labels = [picker.itemText(i) for i in range(picker.count())]
    assert labels[0] == "Recent runs"
    assert "Demo" in labels[1] and "Done" in labels[1]                 # newest first
    assert "Asked you a question" in labels[2]
    first = picker.itemData(2)
    picker.setCurrentIndex(2)
    picker.activated.emit(2)
    qtbot.waitUntil(lambda: {c.view.run_id for c in window.cards.cards} == {first},
                    timeout=10_000)
    assert len(window.cards.cards) == 3
    dialog = _open_card(qtbot, window, first, 2)
    assert any(f.path == "drafts/about-us.md" and f.created for f in dialog.evidence.files)
    dialog.close()
    picker.setCurrentIndex(0)
    picker.activated.emit(0)
    qtbot.waitUntil(lambda: {c.view.run_id for c in window.cards.cards} == {first, second},
                    timeout=10_000)


def test_a_rewritten_line_shows_removed_in_red_added_in_green_with_the_changed_word_marked():
    from app.gui.evidence.file_diff import diff_html

    html = diff_html("one\nthe cake is sweet\nthree\n", "one\nthe cake is savoury\nthree\n",
                     removed="#b42318", added="#1e8a4c", muted="#888888",
                     removed_bg="#fdd", added_bg="#dfd", note_unchanged="same")
    assert '<div style="color:#b42318;">− the cake is <span style="background:#fdd;">sweet'\
        in html
    assert '<div style="color:#1e8a4c;">+ the cake is <span style="background:#dfd;">savoury'\
        in html
    assert "<div>  one</div>" in html and "<div>  three</div>" in html  # context, unmarked


def test_a_binary_file_shows_its_sizes_not_its_bytes(tmp_path):
    from app.core.undo.blobs import BlobStore
    from app.core.workspace.workspace import Workspace
    from app.gui.evidence.evidence_data import read_evidence

    ws = Workspace(tmp_path)
    blobs = BlobStore(ws.harness_dir)
    before, after = blobs.put(b"\x89PNG\x00" * 10), blobs.put(b"\x89PNG\x00" * 300)
    undo = ws.run_files("r1").undo(1)
    undo.parent.mkdir(parents=True)
    undo.write_text(json.dumps({"round": 1, "files": {
        "logo.png": {"before": before, "after": after}}}), encoding="utf-8")
    found = read_evidence(tmp_path, "r1", 1)
    (logo,) = found.files
    assert not logo.is_text and (logo.before_size, logo.after_size) == (50, 1500)
    assert found.can_undo


def test_while_a_run_is_going_a_rounds_evidence_opens_but_undo_waits(qtbot, window, tmp_path):
    window.demo_delay = 0.3
    open_in(qtbot, window, demo_copy(tmp_path))
    window.run_panel.primary.click()
    qtbot.waitUntil(lambda: bool(window.cards.cards), timeout=30_000)
    card = window.cards.cards[0]
    dialog = _open_card(qtbot, window, card.view.run_id, card.view.round)
    assert window.runner.running
    assert dialog.evidence.files and not dialog.undo_button.isEnabled()
    assert "once it stops" in dialog.undo_button.toolTip()
    dialog.close()
    with qtbot.waitSignal(window.runner.run_finished, timeout=10_000):
        window.runner.stop()


def test_the_window_says_a_later_rounds_version_was_kept_not_yours(qapp):
    # Issue 16, point 5: the version kept is round 2's, not the person's.
    from app.core.undo.undo import UndoReport
    from app.gui.words.undo_words import undo_report_headline, undo_report_sentences

    report = UndoReport(round=1, kept_both=[("plan.md", "plan (before round 1).md")],
                        kept_by_round={"plan.md": 2})
    [sentence] = undo_report_sentences(report)
    assert "round 2" in sentence and "plan (before round 1).md" in sentence
    assert "your version" not in sentence
    headline = undo_report_headline(report)
    assert "later round" in headline and "you had changed" not in headline
    theirs = UndoReport(round=1, kept_both=[("plan.md", "plan (before round 1).md")])
    assert "your version" in undo_report_sentences(theirs)[0]


def test_a_big_file_is_compared_off_the_ui_thread_and_too_big_says_so(qtbot, tmp_path,
                                                                     monkeypatch):
    # Issue 16, point 4: the diff froze the window (75 s for an 87 KB notes file).
    import threading

    from app.gui.evidence import file_diff
    from app.gui.evidence.evidence_data import FileVersions, RoundEvidence
    from app.gui.evidence.evidence_dialog import EvidenceDialog
    from app.gui.run.round_cards import RoundView

    threads = []
    real = file_diff.diff_html

    def spy(*args, **kwargs):
        threads.append(threading.current_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(file_diff, "diff_html", spy)
    monkeypatch.setattr(EvidenceDialog, "load", lambda self: None)
    notes = "".join(f"- item\n\n## Week {i % 7}\n- item\n" for i in range(4000)).encode()
    edited = notes.replace(b"## Week 3", b"## Week three", 5)
    rewritten = "".join(f"line {i} was rewritten\n" for i in range(6000)).encode()
    files = [FileVersions("notes.md", notes, edited, len(notes), len(edited)),
             FileVersions("big.md", notes, rewritten, len(notes), len(rewritten))]
    view = RoundView(run_id="r", round=1, task="t", result_state="completed")
    dialog = EvidenceDialog(tmp_path, view)
    qtbot.addWidget(dialog)
    dialog._on_loaded(RoundEvidence(run_id="r", round=1, files=files))
    text = _diff_text(qtbot, dialog)
    assert threads and threads[0] is not threading.main_thread()
    assert "+ ## Week three" in text and "− ## Week 3" in text
    dialog.file_list.setCurrentRow(1)
    assert "too big to compare here" in _diff_text(qtbot, dialog)
def test_an_undone_round_is_shown_undone_everywhere_in_exact_words(qtbot, window, two_runs,
                                                                   tmp_path):
    """Issue 18, point 4: the confirmation says which round and that a new file is deleted;
    afterwards the banner, the state, the card, its evidence and the export all say undone."""
    from app.export.service import export_summary

    folder, _before, run_id = two_runs
    dialog = _open_card(qtbot, window, run_id, 5)
    created = next(f.path for f in dialog.evidence.files if f.created)
    asked = []

    def answer():
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, answer)
            return
        asked.append((box.windowTitle(), plain(box.text())))
        next(b for b in box.buttons() if b.text() == "Undo round 5").click()

    QTimer.singleShot(20, answer)
    with qtbot.waitSignal(dialog.undone, timeout=10_000):
        dialog.undo_button.click()
    title, text = asked[0]
    assert title == "Undo round 5?"
    assert "of the run started" in text  # the run it belongs to
    assert f"Deletes, because the round created them: {created}" in text
    assert not (folder / created).exists()

    said = window.run_panel.detail_label.text()
    assert f"Removed, because round 5 had created them: {created}" in said
    assert "Put back" not in said.split(".")[0] or created not in said.split(".")[0]
    assert window.run_panel.state_label.text() == "Round 5 undone"
    assert not window.notice.isVisible() or "Undid" not in window.notice.text.text()  # once
    qtbot.waitUntil(lambda: any(c.view.undone for c in window.cards.cards), timeout=10_000)
    card = next(c for c in window.cards.cards if c.view.run_id == run_id and c.view.round == 5)
    assert "Undone" in card.accessibleName() and "✓ Done" not in card.accessibleName()
    other = next(c for c in window.cards.cards if c.view.run_id == run_id and c.view.round == 4)
    assert not other.view.undone

    again = _open_card(qtbot, window, run_id, 5)
    assert not again.undo_button.isEnabled() and again.undo_button.text() == "Undone"
    assert "You undid this round" in again.report.text()

    written = export_summary(folder, "md", tmp_path / "run.md", run_id)
    md = written.read_text(encoding="utf-8")
    assert "then undone" in md and "which the round had created" in md
    assert "5 (undone)" in md


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_demo_sample_round_says_its_sentence_and_its_undo_in_the_windows_language(
        qtbot, window, tmp_path, qapp, lang):
    from app.gui.evidence.evidence_dialog import EvidenceDialog
    from app.gui.settings import language
    from tests.gui.helpers import run_until_end

    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "TASKS.md").write_text("# Docs\n\n- [ ] Summarise every document here\n",
                                     encoding="utf-8")
    open_in(qtbot, window, folder)
    assert run_until_end(qtbot, window).exit_reason == "samples_shown"
    qtbot.waitUntil(lambda: bool(window.cards.cards), timeout=5000)
    view = window.cards.cards[0].view
    assert language.install(qapp, lang) == lang
    try:
        dialog = EvidenceDialog(folder, view, window)
        qtbot.addWidget(dialog)
        qtbot.waitUntil(lambda: dialog.evidence is not None, timeout=10_000)
        details = dialog.details.text()
        if lang == "en":
            assert "What it says it did: Wrote a sample note for this task (no AI was used)." \
                in details
        else:
            assert "它说它做了：为这个任务写了一份示例笔记（没有用到 AI）。" in details
            assert "Wrote a sample" not in details
        def put_back():  # the confirmation's "Undo round 1" in either language
            if not isinstance(QApplication.activeModalWidget(), QMessageBox):
                QTimer.singleShot(20, put_back)
                return
            dialog.put_back.click()
        QTimer.singleShot(20, put_back)
        with qtbot.waitSignal(dialog.undone, timeout=10_000) as undone:
            dialog.undo_button.click()
        assert undone.args[0].ok
        assert dialog.windowTitle() == ("Round 1 — Undone" if lang == "en" else "第 1 轮 — 已撤销")
        assert dialog.head.text().endswith("Undone: its changes were taken back" if lang == "en"
                                           else "已撤销：改动已还原")
    finally:
        language.install(qapp, "en")


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_new_file_is_shown_as_it_reads_once_with_its_name_whole(qtbot, window, two_runs,
                                                                   qapp, lang):
    """A new Word document is shown as a new Markdown file is: plainly, as it reads, and
    "the file is new" is said once (above it, not again inside); the list shows its name
    whole, its folder under it."""
    from app.gui.evidence.evidence_dialog import EvidenceDialog
    from app.gui.settings import language

    folder, _before, run_id = two_runs
    card = next(c for c in window.cards.cards if c.view.run_id == run_id and
                any(p.endswith(".docx") for p in c.view.changed))
    assert language.install(qapp, lang) == lang
    try:
        dialog = EvidenceDialog(folder, card.view, window)
        qtbot.addWidget(dialog)
        dialog.resize(900, 600)
        dialog.show()
        qtbot.waitUntil(lambda: dialog.evidence is not None, timeout=10_000)
        new = dialog.tr("Nothing to compare: the file is new.")
        for row, f in enumerate(dialog.evidence.files):
            if not f.created:
                continue
            dialog.file_list.setCurrentRow(row)
            shown = _diff_text(qtbot, dialog)
            html = dialog.diff.toHtml()
            assert dialog.legend.text() == new, f.path
            assert new not in shown and "every line of it is new" not in shown
            assert "underline" not in html, f.path  # not every word marked as added
            name, under = dialog.file_list.item(row).text().splitlines()
            assert f.path.endswith(name) and "/" not in name
            width = dialog.file_list.fontMetrics().horizontalAdvance(name)
            assert width <= dialog.file_list.viewport().width(), (name, width)
        docx = next(f for f in dialog.evidence.files if f.path.endswith(".docx"))
        dialog.file_list.setCurrentRow(dialog.evidence.files.index(docx))
        assert "Opening hours" in _diff_text(qtbot, dialog) or lang != "en"
        dialog.close()
    finally:
        language.install(qapp, "en")


def test_a_files_size_is_said_in_kb_never_in_bytes(qtbot, qapp, window, two_runs):
    """Round 4's note went from 548 to 590 bytes: the list says "0.5 KB → 0.6 KB" (in
    Chinese too), never "bytes"/"字节", a word this person does not use."""
    from app.gui.evidence.evidence_dialog import size_words
    from app.gui.settings import language

    _folder, _before, run_id = two_runs
    dialog = _open_card(qtbot, window, run_id, 4)
    paths = [f.path for f in dialog.evidence.files]
    row = paths.index(OPTIONS)
    shown = dialog.file_list.item(row).text()
    assert "changed, 0.5 KB → 0.6 KB" in shown and "bytes" not in shown
    assert (size_words(0), size_words(20), size_words(1536)) == ("empty", "0.1 KB", "1.5 KB")
    try:
        assert language.install(qapp, "zh_CN") == "zh_CN"
        said = dialog._change_words(dialog.evidence.files[row])
        assert said == "已修改，0.5 KB → 0.6 KB" and size_words(0) == "空文件"
    finally:
        language.install(qapp, "en")
