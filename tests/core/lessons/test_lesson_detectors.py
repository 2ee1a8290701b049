"""Each detector on records of real loop runs (a scripted engine): what it sees, and what it
leaves alone."""

from __future__ import annotations

from app.core.board.decide import decide
from app.core.lessons import detectors as d
from app.core.lessons.history import read_history
from app.core.lessons.lessons import find_lessons
from app.core.lessons.words import folder_language
from app.core.run.loop import Harness
from tests.scripted import ScriptedEngine, board_workspace, call, fast_limits, text

BOARD = "# Shop\n\n- [ ] Write the summary\n  - Done when: summary.md exists\n"


def run(ws, script, then=None, **limits):
    limits.setdefault("max_steps", 10)
    return Harness(ws, ScriptedEngine(script, then=then), fast_limits(**limits)).run()


def seen(ws, detector):
    history = read_history(ws)
    return [s for r in history.runs for s in detector(r, history)]


def done(name="summary.md"):
    return [call("write_file", path=name, content="x\n"),
            call("complete_task", summary="done", evidence=[name])]


def test_tool_errors_are_seen_per_call_and_need_three_to_teach(tmp_path):
    ws = board_workspace(tmp_path, BOARD, {"notes.md": "one\n"})
    edit = call("edit_file", path="notes.md", old_text="missing", new_text="x")
    run(ws, [edit, call("read_file", path="notes.md"), edit] + done())
    found = seen(ws, d.tool_errors)
    assert [(s.subject, s.round) for s in found] == [("edit_file", 1), ("edit_file", 1)]
    assert "missing" in found[0].detail or "not" in found[0].detail.lower()
    assert find_lessons(ws.root).lessons == []
    ws.board_path.write_text(BOARD.replace("summary", "summary two"), encoding="utf-8")
    run(ws, [edit] + done("two.md"))
    [lesson] = find_lessons(ws.root).lessons
    assert (lesson.kind, lesson.count, len(lesson.runs)) == ("tool_error", 3, 2)


def test_a_correction_for_repeating_names_the_repeated_tool(tmp_path):
    ws = board_workspace(tmp_path, BOARD, {"notes.md": "one\n"})
    same = call("list_files", path=".")
    run(ws, [same, same, same] + done())
    [s] = seen(ws, d.repeated_calls)
    assert (s.kind, s.subject, s.round) == ("repeated_call", "list_files", 1)


def test_a_give_up_with_findings_is_a_lesson_at_once_and_one_without_is_not(tmp_path):
    ws = board_workspace(tmp_path, BOARD)
    run(ws, [call("give_up", reason="no data", findings="   ")], stall_limit=1)
    assert seen(ws, d.give_ups_with_findings) == []
    ws.board_path.write_text(BOARD.replace("summary", "price list"), encoding="utf-8")
    run(ws, [call("give_up", reason="no data", findings="prices.csv has no 2025 column")],
        stall_limit=1)
    [lesson] = find_lessons(ws.root).lessons
    assert lesson.kind == "gave_up" and lesson.subject == "Write the price list"
    assert "prices.csv has no 2025 column" in lesson.line


def test_long_rounds_count_once_per_round_from_stall_notices_or_the_step_limit(tmp_path):
    ws = board_workspace(tmp_path, BOARD, {"a.md": "a\n", "b.md": "b\n"})
    wander = [call("read_file", path="a.md"), call("read_file", path="b.md")] * 3
    run(ws, wander, max_steps=5, stall_limit=1)
    found = seen(ws, d.long_rounds)
    assert [(s.kind, s.round) for s in found] == [("long_round", 1)]


def test_a_question_already_answered_and_asked_again_is_a_lesson(tmp_path):
    ws = board_workspace(tmp_path, BOARD)
    ask = call("ask_human", question="Blue or green?", options=["blue", "green"],
               evidence=["brief"])
    run(ws, [ask])
    assert seen(ws, d.questions_already_answered) == []  # not answered yet
    decide(ws.root, "green")
    run(ws, [call("ask_human", question="blue or green ?", options=["blue", "green"],
                  evidence=["brief"])])
    [lesson] = find_lessons(ws.root).lessons
    assert (lesson.kind, lesson.count) == ("asked_again", 2)
    assert lesson.line == ("I already decided “Blue or green?”: green. Follow that answer and "
                           "do not ask it again.")


def test_refusals_of_how_a_tool_was_called_are_tool_misuse_not_a_path(tmp_path):
    ws = board_workspace(tmp_path, BOARD)
    bad = call("run_shell", command="ls")
    run(ws, [bad, call("read_file", path=".git/config"), bad] + done())
    assert [s.subject for s in seen(ws, d.refused_tools)] == ["run_shell", "run_shell"]
    assert [s.subject for s in seen(ws, d.refused_paths)] == [".git/config"]
    [lesson] = find_lessons(ws.root).lessons
    assert lesson.kind == "refused_tool" and "run_shell" in lesson.line


def test_a_round_that_completed_after_reading_a_file_is_not_a_stall(tmp_path):
    ws = board_workspace(tmp_path, BOARD, {"notes.md": "one\n"})
    run(ws, [call("read_file", path="notes.md")] + done())
    assert seen(ws, d.rereads_in_stalled_rounds) == []


def test_every_detector_is_listed_once_with_a_threshold():
    names = [f.__name__ for _, f, _ in d.DETECTORS]
    assert len(names) == len(set(names)) == len({k for k, _, _ in d.DETECTORS})
    assert all(n >= 1 for _, _, n in d.DETECTORS)


def test_the_lines_follow_the_folders_language(tmp_path):
    ws = board_workspace(tmp_path, "# 面包店\n\n- [ ] 写一份总结\n", {"notes.md": "一\n"})
    assert folder_language(ws.root) == "zh_CN"
    (ws.root / "AGENTS.md").write_text("Write in English please.\n", encoding="utf-8")
    assert folder_language(ws.root) == "en"  # AGENTS.md speaks first
    (ws.root / "AGENTS.md").unlink()
    stall = [call("read_file", path="notes.md"), text("嗯"), text("嗯"), text("嗯")]
    run(ws, stall * 2)
    lessons = find_lessons(ws.root).lessons
    reread = next(x for x in lessons if x.kind == "reread")
    assert reread.line == reread.lines["zh_CN"] and "notes.md" in reread.line
    assert reread.lines["en"].startswith("Read notes.md once")


def test_an_undo_that_had_nothing_to_put_back_is_not_counted(tmp_path):
    from app.core.undo.undo import undo_round

    ws = board_workspace(tmp_path, BOARD, {"summary.md": "mine\n"})
    run(ws, done())
    (ws.root / "summary.md").write_text("mine\n", encoding="utf-8")  # the person put it back
    report = undo_round(ws.root, 1)
    assert report.unchanged == ["summary.md"] and not report.restored
    assert seen(ws, d.undone_rounds) == []
    (ws.root / "summary.md").write_text("x\n", encoding="utf-8")     # as the round left it
    assert undo_round(ws.root, 1).restored == ["summary.md"]
    assert [(s.subject, s.round) for s in seen(ws, d.undone_rounds)] == [("summary.md", 1)]


def careful_run(ws, script, *answers, careful=True):
    """A run in careful mode where the person answers each question from `answers`."""
    from app.core.policies.approver import Answer

    queue = [Answer(a) for a in answers]

    class Person:
        def ask(self, request, cancel):
            return queue.pop(0) if queue else None

    engine = ScriptedEngine(script, then=call("give_up", reason="stuck", findings=""))
    return Harness(ws, engine, fast_limits(max_steps=10), careful=careful,
                   approver=Person()).run()


def test_dont_allow_in_careful_mode_is_a_lesson_at_once_and_not_a_tool_error(tmp_path):
    ws = board_workspace(tmp_path, BOARD, {"prices.md": "bread 3\n"})
    change = call("write_file", path="prices.md", content="bread 4\n")
    careful_run(ws, [change, change, change] + done(), "deny", "deny", "deny")
    assert [(s.subject, s.round) for s in seen(ws, d.changes_not_allowed)] == [("prices.md", 1)]
    assert seen(ws, d.tool_errors) == []  # the three refusals are not "write_file failed"
    [lesson] = find_lessons(ws.root).lessons
    assert (lesson.kind, lesson.subject, lesson.files) == ("not_allowed", "prices.md",
                                                           ["prices.md"])
    assert lesson.line == ("Do not change or delete prices.md: I did not allow it when careful "
                           "mode asked. Write a new file beside it if you need to.")


def test_an_allowed_change_teaches_nothing(tmp_path):
    ws = board_workspace(tmp_path, BOARD, {"prices.md": "bread 3\n"})
    careful_run(ws, [call("write_file", path="prices.md", content="bread 4\n")] + done(),
                "allow")
    assert seen(ws, d.changes_not_allowed) == [] and find_lessons(ws.root).lessons == []


def test_tries_at_a_protected_file_teach_after_two_in_any_mode(tmp_path):
    from app.core.workspace.folder_settings import FolderSettings, save_folder_settings

    ws = board_workspace(tmp_path, BOARD, {"private/diary.md": "dear diary\n"})
    save_folder_settings(ws.harness_dir, FolderSettings(protected=["private"]))
    touch = call("delete_file", path="private/diary.md")
    careful_run(ws, [touch] + done(), careful=False)
    assert [s.subject for s in seen(ws, d.protected_refusals)] == ["private/diary.md"]
    assert find_lessons(ws.root).lessons == []  # once is not yet a pattern
    ws.board_path.write_text(BOARD.replace("summary", "summary two"), encoding="utf-8")
    careful_run(ws, [touch] + done("two.md"), careful=False)
    [lesson] = find_lessons(ws.root).lessons
    assert (lesson.kind, lesson.count, len(lesson.runs)) == ("protected", 2, 2)
    assert (ws.root / "private/diary.md").read_text() == "dear diary\n"
    assert "is protected and will never be changed" in lesson.line


def test_a_give_up_finding_ending_in_a_full_stop_is_said_with_one():
    from app.core.lessons.detectors import Sighting
    from app.core.lessons.words import proposed_line

    seen = [Sighting("gave_up", "Tidy the notes", "r1", 1, 2, "Tidy the notes",
                     "notes.md is old. Keep it.")]
    en = proposed_line("gave_up", "Tidy the notes", seen, "en")
    assert en == ("About “Tidy the notes”: an earlier round gave up and found: notes.md is old. "
                  "Keep it. Start from that, or ask me first.")
    seen_zh = [Sighting("gave_up", "整理笔记", "r1", 1, 2, "整理笔记", "笔记已经过时。")]
    assert "发现：笔记已经过时。请从" in proposed_line("gave_up", "整理笔记", seen_zh, "zh_CN")
