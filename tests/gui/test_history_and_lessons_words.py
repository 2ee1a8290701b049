"""The run history is called History where a person looks for it (the Run menu, the label of
the picker above the rounds), and the Lessons view speaks plainly: no "harness", and
"standing instructions" said once with what AGENTS.md is to a person."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from tests.gui.helpers import demo_copy, open_in


def test_history_names_the_run_history_in_the_menu_and_the_picker(qtbot, window, tmp_path):
    open_in(qtbot, window, demo_copy(tmp_path))
    run_menu = window.menuBar().actions()[1].menu()
    assert window.history_action in run_menu.actions()
    assert window.history_action.text() == "Run &history"
    picker = window.history.picker
    label = next(w for w in window.findChildren(QLabel) if w.buddy() is picker)
    assert label.text() == "H&istory:"
    window.history_action.trigger()
    qtbot.waitUntil(lambda: picker.view().isVisible(), timeout=2000)
    picker.hidePopup()


def test_the_lessons_view_says_what_agents_md_is_without_saying_harness(qtbot, window,
                                                                        tmp_path):
    from app.gui.lessons.lessons_view import LessonsDialog

    folder = demo_copy(tmp_path)
    open_in(qtbot, window, folder)
    dialog = LessonsDialog(folder, window.history.open_round, window)
    qtbot.addWidget(dialog)
    texts = [label.text() for label in dialog.findChildren(QLabel)]
    assert not any("harness" in t.lower().replace("harness desk", "") for t in texts)
    intro = next(t for t in texts if "standing instructions" in t)
    assert "a note in your folder that the AI reads at the start of every round" in intro
    kinds = ("refused_path", "refused_tool", "repeated_call")
    for kind in kinds:
        lesson = type("Lesson", (), {"count": 2, "subject": "notes.md", "kind": kind})()
        headline = dialog.headline_of(lesson)
        assert "harness" not in headline.lower().replace("harness desk", ""), headline
