"""Checklist verbs change only the lines of the task they name, and name it by position and text."""

from __future__ import annotations

import os
import re
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core.board import verbs
from app.core.board.board import Board, BoardError, StaleTask, TaskRef
from app.core.board.task import HUMAN_PREFIX, one_line
from tests.core.board.test_board import _WORDS, _fence_block, _task_block

BOM = b"\xef\xbb\xbf"

# ---------------------------------------------------------------------------------------
# Generated boards: tasks (some identical), tasks hidden in comments and code, prose.

_comment = st.lists(st.sampled_from(["- [ ] Same", "- [x] hidden", "notes"]), max_size=2).map(
    lambda body: (["<!--"] + body + ["-->"], []))


@st.composite
def board_files(draw):
    bodies: list[str] = []
    seen: list[list[str]] = []
    for _ in range(draw(st.integers(0, 10))):
        kind = draw(st.sampled_from(["task", "task", "task", "same", "again", "fence", "comment",
                                     "prose", "blank"]))
        if kind == "again" and seen:
            lines = draw(st.sampled_from(seen))  # the very same task lines once more
        elif kind == "same":
            lines = ["- [ ] Same"] + draw(st.lists(st.just("  - Done when: same"), max_size=1))
        elif kind in ("task", "again"):
            lines = draw(_task_block())[0]
        elif kind == "fence":
            lines = draw(_fence_block())[0]
        elif kind == "comment":
            lines = draw(_comment)[0]
        else:
            lines = ["P " + draw(_WORDS)] if kind == "prose" else [""]
        if kind in ("task", "same", "again"):
            seen.append(lines)
        bodies += lines
    mode = draw(st.sampled_from(["lf", "crlf", "mixed"]))
    eols = [draw(st.sampled_from(["\n", "\r\n"])) if mode == "mixed" else
            ("\n" if mode == "lf" else "\r\n") for _ in bodies]
    if eols and draw(st.booleans()):
        eols[-1] = ""  # no final newline
    text = "".join(b + e for b, e in zip(bodies, eols))
    return (BOM if draw(st.booleans()) else b"") + text.encode("utf-8")


def _lines(data: bytes) -> list[bytes]:
    """Lines with their endings; only LF ends a line (as on the board)."""
    parts = data.removeprefix(BOM).split(b"\n")
    return [p + b"\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def _same_apart_from(old: bytes, span_old: tuple[int, int], new: bytes,
                     span_new: tuple[int, int]) -> None:
    """Every line outside the touched task's lines is byte-identical and in the same order.

    One allowance: a bare last line may gain a line ending when lines go after it."""
    assert new.startswith(BOM) == old.startswith(BOM)
    a, b = _lines(old), _lines(new)
    rest_a = a[:span_old[0]] + a[span_old[1]:]
    rest_b = b[:span_new[0]] + b[span_new[1]:]
    assert len(rest_a) == len(rest_b)
    assert rest_a[:-1] == rest_b[:-1]
    if rest_a:
        last_a, last_b = rest_a[-1], rest_b[-1]
        assert last_b == last_a or (not last_a.endswith(b"\n")
                                    and last_b in (last_a + b"\n", last_a + b"\r\n"))


@contextmanager
def _board(raw: bytes):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "TASKS.md"
        path.write_bytes(raw)
        _age(path)
        yield path


def _age(path: Path) -> None:
    # A board untouched for a minute is read once (no settle wait): keeps 1,000s of examples fast.
    old = time.time() - 60
    os.utime(path, (old, old))


def _read(path: Path) -> Board:
    return Board.parse(path.read_bytes())


_SETTINGS = settings(max_examples=120, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

# ---------------------------------------------------------------------------------------
# Properties, one per verb


@_SETTINGS
@given(board_files(), st.data())
def test_set_checked_flips_one_character_of_that_task(raw, data):
    board = Board.parse(raw)
    if not board.tasks:
        return
    task = data.draw(st.sampled_from(board.tasks))
    with _board(raw) as path:
        ref = verbs.set_checked(path, task.ref, not task.checked)
        after = _read(path)
        out = path.read_bytes()
    expected = board.signature()
    expected[task.index] = (task.text, not task.checked, expected[task.index][2])
    assert after.signature() == expected and ref == task.ref
    _same_apart_from(raw, (task.line_no, task.line_no + 1), out, (task.line_no, task.line_no + 1))
    old, new = _lines(raw)[task.line_no], _lines(out)[task.line_no]
    assert len(old) == len(new) and sum(x != y for x, y in zip(old, new)) == 1


@_SETTINGS
@given(board_files(), st.data(), _WORDS)
def test_rename_changes_only_that_tasks_text(raw, data, new_text):
    board = Board.parse(raw)
    if not board.tasks:
        return
    task = data.draw(st.sampled_from(board.tasks))
    with _board(raw) as path:
        if not one_line(new_text) or (re.fullmatch(r"(?i)human[ \t]*:.*", one_line(new_text)) \
                and not one_line(new_text).split(":", 1)[1].strip()):
            with pytest.raises(BoardError, match=r"^A (task needs some text|decision needs a "
                                                 r"question)\.$"):
                verbs.rename_task(path, task.ref, new_text)
            assert path.read_bytes() == raw
            return
        ref = verbs.rename_task(path, task.ref, new_text)
        after = _read(path)
        out = path.read_bytes()
    renamed = after.tasks[task.index]
    assert ref == renamed.ref
    if task.is_human:
        assert renamed.is_human
        typed = one_line(new_text)
        assert renamed.question == (typed[HUMAN_PREFIX.match(typed).end():].strip()
                                    if HUMAN_PREFIX.match(typed) else typed)
    else:
        assert renamed.text == one_line(new_text)
    expected = board.signature()
    expected[task.index] = (renamed.text,) + expected[task.index][1:]
    assert after.signature() == expected
    _same_apart_from(raw, (task.line_no, task.line_no + 1), out, (task.line_no, task.line_no + 1))


@_SETTINGS
@given(board_files(), st.data(), st.booleans())
def test_set_human_adds_or_removes_only_the_prefix(raw, data, human):
    board = Board.parse(raw)
    if not board.tasks:
        return
    task = data.draw(st.sampled_from(board.tasks))
    want = task.text if human == task.is_human else (
        f"HUMAN: {task.text}" if human else task.question)
    with _board(raw) as path:
        if not (task.question if task.is_human else task.text):
            if human != task.is_human:
                with pytest.raises(BoardError):
                    verbs.set_human(path, task.ref, human)
                assert path.read_bytes() == raw
            return
        ref = verbs.set_human(path, task.ref, human)
        after, out = _read(path), path.read_bytes()
    expected = board.signature()
    expected[task.index] = (want,) + expected[task.index][1:]
    assert after.signature() == expected and ref.text == want
    assert after.tasks[task.index].is_human == (human or HUMAN_PREFIX.match(want) is not None)
    _same_apart_from(raw, (task.line_no, task.line_no + 1), out, (task.line_no, task.line_no + 1))


@_SETTINGS
@given(board_files(), st.data(), st.sampled_from(["Done when", "Option", "evidence", "Note"]),
       st.lists(_WORDS, max_size=3))
def test_set_details_replaces_only_that_keys_lines(raw, data, key, values):
    board = Board.parse(raw)
    if not board.tasks:
        return
    task = data.draw(st.sampled_from(board.tasks))
    keyed = re.compile(re.escape(key).replace(r"\ ", r"[ \t]+") + r"[ \t]*:", re.I)
    details = list(task.details)
    hits = [i for i, d in enumerate(details) if keyed.match(d)]
    new = [f"{key}: {v}" for v in map(one_line, values) if v]
    at = hits[0] if hits else len(details)
    kept = [d for i, d in enumerate(details) if i not in hits]
    cut = sum(1 for i in range(at) if i not in hits)
    want = kept[:cut] + new + kept[cut:]
    with _board(raw) as path:
        ref = verbs.set_details(path, task.ref, key, values)
        after, out = _read(path), path.read_bytes()
    expected = board.signature()
    expected[task.index] = (task.text, task.checked, tuple(want))
    assert after.signature() == expected and ref == task.ref
    _same_apart_from(raw, board.span(task), out, after.span(after.tasks[task.index]))


@_SETTINGS
@given(board_files(), st.data(), _WORDS, st.booleans(), st.lists(_WORDS, max_size=2))
def test_add_task_inserts_only_its_lines_at_that_position(raw, data, text, human, options):
    board = Board.parse(raw)
    n = len(board.tasks)
    at = data.draw(st.sampled_from([None, -1, 0, n // 2, n, n + 3]))
    with _board(raw) as path:
        try:
            verbs._task_text(text, human)
        except BoardError:
            with pytest.raises(BoardError):
                verbs.add_task(path, text, at=at, human=human, options=options)
            assert path.read_bytes() == raw
            return
        ref = verbs.add_task(path, text, at=at, human=human, options=options)
        after, out = _read(path), path.read_bytes()
    k = n if at is None else min(max(at, 0), n)
    added = after.tasks[k]
    assert ref == added.ref and not added.checked and added.is_human == (
        human or bool(HUMAN_PREFIX.match(one_line(text))))
    assert added.options == [one_line(v) for v in options if one_line(v)]
    expected = board.signature()
    expected.insert(k, after.signature()[k])
    assert after.signature() == expected
    _same_apart_from(raw, (added.line_no, added.line_no), out, after.span(added))


@_SETTINGS
@given(board_files(), st.data())
def test_delete_removes_only_its_lines_and_restore_puts_back_the_exact_bytes(raw, data):
    board = Board.parse(raw)
    if not board.tasks:
        return
    task = data.draw(st.sampled_from(board.tasks))
    with _board(raw) as path:
        removed = verbs.delete_task(path, task.ref)
        after, out = _read(path), path.read_bytes()
        _age(path)
        ref = verbs.restore_task(path, removed)
        restored = path.read_bytes()
    expected = board.signature()
    del expected[task.index]
    assert after.signature() == expected
    start, end = board.span(task)
    assert removed.index == task.index and removed.text == task.text
    assert BOM * raw.startswith(BOM) + b"".join(_lines(raw)[:start] + _lines(raw)[end:]) == out
    assert b"".join(removed.lines[i].encode("utf-8", "surrogateescape")
                    for i in range(len(removed.lines))) == b"".join(_lines(raw)[start:end])
    assert restored == raw and ref == task.ref


@_SETTINGS
@given(board_files(), st.data())
def test_move_carries_the_task_with_its_details_and_nothing_else(raw, data):
    board = Board.parse(raw)
    if not board.tasks:
        return
    task = data.draw(st.sampled_from(board.tasks))
    n = len(board.tasks)
    to = data.draw(st.integers(-1, n + 1))
    with _board(raw) as path:
        ref = verbs.move_task(path, task.ref, to)
        after, out = _read(path), path.read_bytes()
    k = min(max(to, 0), n - 1)
    expected = board.signature()
    expected.insert(k, expected.pop(task.index))
    assert after.signature() == expected and ref == TaskRef(k, task.text)
    moved = after.tasks[k]
    _same_apart_from(raw, board.span(task), out, after.span(moved))
    old_block = b"".join(_lines(raw)[slice(*board.span(task))]).rstrip(b"\r\n")
    assert b"".join(_lines(out)[slice(*after.span(moved))]).rstrip(b"\r\n") == old_block


# ---------------------------------------------------------------------------------------
# Explicit cases


def _file(tmp_path, data: bytes) -> Path:
    path = tmp_path / "TASKS.md"
    path.write_bytes(data)
    _age(path)
    return path


def test_identical_task_lines_are_told_apart_by_position(tmp_path):
    path = _file(tmp_path, b"- [ ] Same\n- [ ] Same\n  - Done when: b\n- [ ] Same\n")
    refs = [t.ref for t in _read(path).tasks]
    assert refs == [TaskRef(0, "Same"), TaskRef(1, "Same"), TaskRef(2, "Same")]
    verbs.set_checked(path, refs[1], True)
    assert path.read_bytes() == b"- [ ] Same\n- [x] Same\n  - Done when: b\n- [ ] Same\n"
    _age(path)
    removed = verbs.delete_task(path, refs[1])
    assert removed.lines == ("- [x] Same\n", "  - Done when: b\n")
    assert path.read_bytes() == b"- [ ] Same\n- [ ] Same\n"


def test_a_ref_whose_task_moved_or_changed_is_stale_and_nothing_is_written(tmp_path):
    path = _file(tmp_path, b"- [ ] Alpha\n- [ ] Beta\n")
    beta = _read(path).tasks[1].ref
    path.write_bytes(b"- [ ] Beta\n- [ ] Alpha\n")  # the person reordered in their editor
    _age(path)
    for call in (lambda: verbs.set_checked(path, beta, True), lambda: verbs.delete_task(path, beta),
                 lambda: verbs.rename_task(path, beta, "B"), lambda: verbs.move_task(path, beta, 0),
                 lambda: verbs.set_human(path, beta, True),
                 lambda: verbs.set_details(path, beta, "Option", ["x"]),
                 lambda: verbs.set_checked(path, TaskRef(7, "Beta"), True)):
        with pytest.raises(StaleTask) as info:
            call()
        assert str(info.value) == ("That task changed in TASKS.md since you opened it; "
                                   "the list has been refreshed.")
    assert path.read_bytes() == b"- [ ] Beta\n- [ ] Alpha\n"


def test_crlf_and_bom_survive_every_verb(tmp_path):
    raw = BOM + b"# Plan\r\n\r\n* [ ] Draft\r\n  * Done when: draft.md\r\n* [x] Review\r\n"
    path = _file(tmp_path, raw)
    ref = verbs.add_task(path, "Publish", human=True, options=["now", "later"])
    assert ref == TaskRef(2, "HUMAN: Publish")
    assert path.read_bytes() == raw + b"* [ ] HUMAN: Publish\r\n  * Option: now\r\n  * Option: later\r\n"
    ref = verbs.move_task(path, ref, 0)
    ref = verbs.rename_task(path, ref, "Publish\r\ntoday?")
    assert ref == TaskRef(0, "HUMAN: Publish today?")
    verbs.set_details(path, _read(path).tasks[1].ref, "Done when", ["draft.md exists", "spellchecked"])
    assert path.read_bytes() == (BOM + b"# Plan\r\n\r\n* [ ] HUMAN: Publish today?\r\n"
                                 b"  * Option: now\r\n  * Option: later\r\n* [ ] Draft\r\n"
                                 b"  * Done when: draft.md exists\r\n  * Done when: spellchecked\r\n"
                                 b"* [x] Review\r\n")


def test_no_final_newline_is_kept_when_adding_and_details_change(tmp_path):
    path = _file(tmp_path, b"- [ ] A\n  - Option: 1")
    verbs.set_details(path, TaskRef(0, "A"), "option", ["2", "3"])
    assert path.read_bytes() == b"- [ ] A\n  - option: 2\n  - option: 3"
    verbs.add_task(path, "B")
    assert path.read_bytes() == b"- [ ] A\n  - option: 2\n  - option: 3\n- [ ] B"


def test_set_details_goes_in_place_of_the_first_and_keeps_other_details(tmp_path):
    path = _file(tmp_path, b"- [ ] A\n\t* Evidence: e\n\t* Option: 1\n\tnote\n\t* option : 2\n- [ ] B\n")
    verbs.set_details(path, TaskRef(0, "A"), "Option", ["x"])
    assert path.read_bytes() == b"- [ ] A\n\t* Evidence: e\n\t* Option: x\n\tnote\n- [ ] B\n"
    verbs.set_details(path, TaskRef(0, "A"), "Option", [])
    assert path.read_bytes() == b"- [ ] A\n\t* Evidence: e\n\tnote\n- [ ] B\n"
    verbs.set_details(path, TaskRef(1, "B"), "Done when", ["b.md"])
    assert path.read_bytes() == b"- [ ] A\n\t* Evidence: e\n\tnote\n- [ ] B\n  - Done when: b.md\n"
    assert _read(path).tasks[1].done_when == ["b.md"]


def test_renaming_a_decision_keeps_it_a_decision(tmp_path):
    path = _file(tmp_path, b"- [ ] human:  Speed or trust?\n- [ ] Plain\n")
    ref = verbs.rename_task(path, TaskRef(0, "human:  Speed or trust?"), "Speed, trust or price?")
    assert ref.text == "human:  Speed, trust or price?"
    ref = verbs.rename_task(path, ref, "HUMAN: Price?")
    assert ref.text == "HUMAN: Price?"
    assert verbs.rename_task(path, TaskRef(1, "Plain"), "HUMAN: Now a decision").text == \
        "HUMAN: Now a decision"
    assert verbs.set_human(path, ref, False).text == "Price?"
    assert path.read_bytes() == b"- [ ] Price?\n- [ ] HUMAN: Now a decision\n"


def test_empty_texts_are_refused_with_a_sentence(tmp_path):
    path = _file(tmp_path, b"- [ ] A\n")
    for call, sentence in ((lambda: verbs.add_task(path, " \n "), "A task needs some text."),
                           (lambda: verbs.add_task(path, "HUMAN:", ), "A decision needs a question."),
                           (lambda: verbs.add_task(path, "", human=True), "A decision needs a question."),
                           (lambda: verbs.rename_task(path, TaskRef(0, "A"), "\r\n"), "A task needs some text."),
                           (lambda: verbs.set_details(path, TaskRef(0, "A"), " : ", ["x"]),
                            "A detail needs a name, like \"Done when\".")):
        with pytest.raises(BoardError) as info:
            call()
        assert str(info.value) == sentence
    assert path.read_bytes() == b"- [ ] A\n"


def test_verbs_never_touch_a_commented_out_task_with_the_same_text(tmp_path):
    raw = b"<!--\n- [ ] Tidy\n-->\n- [ ] Tidy\n"
    path = _file(tmp_path, raw)
    ref = _read(path).tasks[0].ref
    assert ref == TaskRef(0, "Tidy")
    verbs.set_checked(path, ref, True)
    assert path.read_bytes() == b"<!--\n- [ ] Tidy\n-->\n- [x] Tidy\n"
    verbs.add_task(path, "First", at=0)
    assert path.read_bytes() == b"<!--\n- [ ] Tidy\n-->\n- [ ] First\n- [x] Tidy\n"


def test_a_new_task_goes_before_an_unclosed_comment_at_the_end(tmp_path):
    path = _file(tmp_path, b"# Plan\n<!-- ideas\n- [ ] maybe\n")
    assert verbs.add_task(path, "Now") == TaskRef(0, "Now")
    assert path.read_bytes() == b"# Plan\n- [ ] Now\n<!-- ideas\n- [ ] maybe\n"


def test_a_change_that_would_change_how_other_lines_read_is_refused(tmp_path):
    # "<span>" continues A's paragraph; without A it would open an HTML block hiding B.
    raw = b"- [ ] A\n<span>\n- [ ] B\n"
    path = _file(tmp_path, raw)
    assert [t.text for t in _read(path).tasks] == ["A", "B"]
    with pytest.raises(BoardError, match=r"would also have changed other tasks in TASKS\.md"):
        verbs.delete_task(path, TaskRef(0, "A"))
    with pytest.raises(BoardError, match="would also have changed other tasks"):
        verbs.move_task(path, TaskRef(0, "A"), 1)
    assert path.read_bytes() == raw


def test_restore_after_the_board_changed_goes_back_to_that_position(tmp_path):
    path = _file(tmp_path, b"- [ ] A\n- [ ] B\n  - Done when: b\n- [ ] C\n")
    removed = verbs.delete_task(path, TaskRef(1, "B"))
    assert removed == verbs.RemovedTask(1, 1, "B", ("- [ ] B\n", "  - Done when: b\n"))
    path.write_bytes(b"# Notes\n\n- [ ] A\n- [ ] C\n- [ ] D\n")  # edited meanwhile
    _age(path)
    assert verbs.restore_task(path, removed) == TaskRef(1, "B")
    assert path.read_bytes() == b"# Notes\n\n- [ ] A\n- [ ] B\n  - Done when: b\n- [ ] C\n- [ ] D\n"


def test_checking_an_already_checked_task_writes_nothing(tmp_path):
    path = _file(tmp_path, b"- [X] Done\n")
    before = path.stat().st_mtime_ns
    assert verbs.set_checked(path, TaskRef(0, "Done"), True) == TaskRef(0, "Done")
    assert verbs.move_task(path, TaskRef(0, "Done"), 5) == TaskRef(0, "Done")
    assert path.stat().st_mtime_ns == before
