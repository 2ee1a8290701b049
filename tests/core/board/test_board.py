"""The board keeps every byte it does not mean to change (docs/board.md, "What is kept byte for byte")."""

from __future__ import annotations

import os
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core.board.board import TEMPLATE, Board, BoardError, Task, update_board
from app.core.workspace.files import atomic_write_bytes

# ---------------------------------------------------------------------------------------
# Generated boards: each block yields line bodies and the tasks a reader should see.

_WORDS = st.text(
    alphabet=st.one_of(
        st.characters(blacklist_categories=("Cs", "Cc"), max_codepoint=0x2FFFF),
        # Non-Latin text, odd line breaks, and "¤", which boards(bad_bytes=True) turns invalid.
        st.sampled_from("中文任务完成 \t\u3000\v\f\x85\u2028\u2029\x1c¤"),
    ),
    max_size=20,
).filter(lambda s: "\n" not in s and "\r" not in s)


@st.composite
def _task_block(draw):
    bullet = draw(st.sampled_from("-*+"))
    box = draw(st.sampled_from(" xX"))
    gap = draw(st.sampled_from([" ", "  ", "\t"]))
    text = draw(_WORDS)
    line = f"{bullet}{gap}[{box}]" + (draw(st.sampled_from([" ", "\t"])) + text if text or draw(st.booleans()) else "")
    details = []
    for _ in range(draw(st.integers(0, 3))):
        indent = draw(st.sampled_from(["  ", "    ", "\t", " \t"]))
        sub = draw(st.sampled_from(["- ", "* ", "+ ", "", "- [ ] "]))
        key = draw(st.sampled_from(["Done when: ", "Option: ", "Evidence: ", "Answer: ", "note "]))
        details.append(indent + sub + key + draw(_WORDS))
    return [line] + details, [(text.strip(), box != " ", bullet, len(details))]


@st.composite
def _fence_block(draw):
    char = draw(st.sampled_from("`~"))
    size = draw(st.integers(3, 5))
    inner = ["- [ ] not a task", "* [x] nor this", "", "  - Done when: code", "代码 ~~ ``"]
    if size > 3:
        inner.append(char * 3)  # a shorter fence does not close a longer one
    body = draw(st.lists(st.sampled_from(inner), max_size=4))
    info = draw(st.sampled_from(["", "python", " md"]))
    # Unindented: an indented fence right under a task would be one of its details.
    return [char * size + info] + body + [char * (size + draw(st.integers(0, 1)))], []


_blocks = st.one_of(
    _task_block(),
    _fence_block(),
    _WORDS.map(lambda s: (["#" * 2 + " " + s], [])),
    _WORDS.map(lambda s: (["P " + s], [])),  # a paragraph: never starts like a task or fence
    st.just(([""], [])),
)


@st.composite
def boards(draw, unique_texts=False, bad_bytes=False):
    """(raw bytes, expected tasks as (text, checked, bullet, detail count))."""
    bodies, expected = [], []
    for lines, tasks in draw(st.lists(_blocks, max_size=12)):
        if unique_texts and tasks:
            # A unique suffix, so "find by text" names exactly this task.
            lines = [lines[0] + f" #{len(expected)}"] + lines[1:]
        bodies += lines
        expected += tasks
    mode = draw(st.sampled_from(["lf", "crlf", "mixed"]))
    eols = [draw(st.sampled_from(["\n", "\r\n"])) if mode == "mixed" else ("\n" if mode == "lf" else "\r\n")
            for _ in bodies]
    if eols and draw(st.booleans()):
        eols[-1] = ""  # no final newline
    bom = "\ufeff" if draw(st.booleans()) else ""
    text = bom + "".join(b + e for b, e in zip(bodies, eols))
    raw = text.encode("utf-8")
    if bad_bytes:
        raw = raw.replace("¤".encode(), b"\xa4\xff")  # not UTF-8 at all: must survive as bytes
    return raw, expected


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


# ---------------------------------------------------------------------------------------
# Properties


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_parse_then_write_is_byte_identical_and_finds_the_expected_tasks(case):
    raw, expected = case
    board = Board.parse(raw)
    assert board.to_bytes() == raw
    got = [(t.text, t.checked, t.bullet, len(t.details)) for t in board.tasks]
    assert got == expected


@settings(max_examples=300)
@given(st.binary(max_size=300))
def test_any_bytes_round_trip_even_invalid_utf8(raw):
    assert Board.parse(raw).to_bytes() == raw


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(boards(unique_texts=True, bad_bytes=True), st.data())
def test_set_checked_changes_only_that_tasks_checkbox_character(case, data):
    raw, _ = case
    board = Board.parse(raw)
    if not board.tasks:
        return
    task = data.draw(st.sampled_from(board.tasks))
    after = board.set_checked(task.text, not task.checked)
    assert after.checked is (not task.checked) and after.line_no == task.line_no
    old, new = _lines(raw), _lines(board.to_bytes())
    assert len(old) == len(new)
    changed = [i for i, (a, b) in enumerate(zip(old, new)) if a != b]
    assert len(changed) == 1
    a, b = old[changed[0]], new[changed[0]]
    diff = [i for i in range(len(a)) if a[i] != b[i]]
    assert len(a) == len(b) and len(diff) == 1
    assert (a[diff[0]:diff[0] + 1], b[diff[0]:diff[0] + 1]) in {(b" ", b"x"), (b"x", b" "), (b"X", b" ")}


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(boards(unique_texts=True, bad_bytes=True), st.data())
def test_inserted_decision_only_adds_lines(case, data):
    raw, _ = case
    board = Board.parse(raw)
    name = data.draw(st.sampled_from([t.text for t in board.tasks] + [None]))
    human = board.insert_human_before(name, "Speed\nor trust?", ["speed", "trust"], ["a.md"])
    assert human.is_human and human.question == "Speed or trust?" and human.options == ["speed", "trust"]
    out = board.to_bytes()
    assert out.startswith(b"\xef\xbb\xbf") == raw.startswith(b"\xef\xbb\xbf")
    old, new = _lines(raw.removeprefix(b"\xef\xbb\xbf")), _lines(out.removeprefix(b"\xef\xbb\xbf"))
    k = human.line_no
    assert [ln.rstrip(b"\r") for ln in new[k:k + 4]][1:] == [
        f"  {human.bullet} Option: speed".encode(), f"  {human.bullet} Option: trust".encode(),
        f"  {human.bullet} Evidence: a.md".encode()]
    rest = new[:k] + new[k + 4:]
    # Only a bare last line may gain a line ending, when the decision goes after it.
    assert rest[:-1] == old[:-1] and rest[-1] in (old[-1], old[-1] + b"\r")


# ---------------------------------------------------------------------------------------
# Explicit cases

EXAMPLE = (
    "# Homepage refresh\n\nNotes the user wrote stay exactly as they are.\n\n"
    "- [x] Draft the landing page copy\n"
    "- [ ] Compare the three strongest positioning options\n"
    "  - Done when: comparison.md lists pros and cons of each\n"
    "- [ ] HUMAN: Should the homepage emphasize speed or trust?\n"
    "  - Option: speed\n  - Option: trust\n  - Evidence: comparison.md\n"
    "  - Recommendation: trust\n"
    "- [ ] Rewrite the homepage based on that decision\n"
)


def test_product_example_reads_tasks_details_and_decision():
    board = Board.parse(EXAMPLE)
    assert board.tasks[0].text == "Draft the landing page copy"
    assert board.counts() == (1, 4)
    nxt = board.next_task()
    assert nxt.text.startswith("Compare") and nxt.done_when == ["comparison.md lists pros and cons of each"]
    human = board.tasks[2]
    assert human.is_human and human.question == "Should the homepage emphasize speed or trust?"
    assert human.options == ["speed", "trust"] and human.evidence == ["comparison.md"]
    assert human.recommendation == "trust" and human.answer is None
    assert board.to_bytes() == EXAMPLE.encode()


def test_crlf_board_round_trips_and_checking_keeps_crlf():
    raw = EXAMPLE.replace("\n", "\r\n").encode()
    board = Board.parse(raw)
    assert board.to_bytes() == raw
    board.set_checked("Compare the three strongest positioning options")
    assert board.to_bytes() == raw.replace(b"- [ ] Compare", b"- [x] Compare")


def test_bom_is_kept_and_the_first_line_can_be_a_task():
    raw = b"\xef\xbb\xbf- [ ] First\n- [ ] Second\n"
    board = Board.parse(raw)
    assert [t.text for t in board.tasks] == ["First", "Second"]
    board.set_checked("First")
    assert board.to_bytes() == b"\xef\xbb\xbf- [x] First\n- [ ] Second\n"


def test_tab_indented_details_belong_to_the_task():
    board = Board.parse("- [ ] Write\n\t- Done when: draft.md exists\n\tfree note\n")
    assert board.tasks[0].details == ["Done when: draft.md exists", "free note"]
    assert board.tasks[0].done_when == ["draft.md exists"]


def test_star_and_plus_bullets_and_capital_x_are_tasks():
    board = Board.parse("* [ ] a\n+ [X] b\n- [x] c\n-[ ] not a task\n- [] nor this\n - [ ] indented\n")
    assert [(t.text, t.checked, t.bullet) for t in board.tasks] == [
        ("a", False, "*"), ("b", True, "+"), ("c", True, "-")]


def test_nested_checkbox_is_a_detail_not_a_task():
    board = Board.parse("- [ ] Parent\n  - [ ] child step\n- [ ] Next\n")
    assert [t.text for t in board.tasks] == ["Parent", "Next"]
    assert board.tasks[0].details == ["[ ] child step"]


def test_blank_line_ends_the_details():
    board = Board.parse("- [ ] A\n  - Done when: one\n\n  - Done when: two\n- [ ] B\n")
    assert board.tasks[0].done_when == ["one"]
    board.add_details("A", ["Evidence: x.md"])
    assert board.to_bytes() == b"- [ ] A\n  - Done when: one\n  - Evidence: x.md\n\n  - Done when: two\n- [ ] B\n"


def test_checkbox_in_fenced_code_is_not_a_task():
    raw = ("```md\n- [ ] in backticks\n```\n"
           "~~~\n- [ ] in tildes\n```\n- [ ] still in tildes\n~~~\n"
           "````\n```\n- [ ] inside a longer fence\n````\n"
           "- [ ] Real task\n")
    board = Board.parse(raw)
    assert [t.text for t in board.tasks] == ["Real task"]


def test_fence_indented_up_to_three_spaces_still_counts_but_four_does_not():
    board = Board.parse("Intro\n   ```\n- [ ] in code\n   ```\n    ```\n- [ ] real\n")
    assert [t.text for t in board.tasks] == ["real"]


def test_unclosed_fence_hides_what_follows_and_new_tasks_go_before_it():
    board = Board.parse("# T\n```\n- [ ] hidden\n")
    assert board.tasks == []
    task = board.add_task("Visible")
    assert task.text == "Visible" and board.to_bytes() == b"# T\n- [ ] Visible\n```\n- [ ] hidden\n"


def test_chinese_text_round_trips_and_is_found():
    raw = ("# 首页改版\n\n- [ ] 比较三个定位方案\n  - Done when: 对比.md 列出优缺点\n"
           "- [ ] HUMAN: 强调速度还是信任？\n").encode()
    board = Board.parse(raw)
    assert board.to_bytes() == raw
    assert board.find("比较三个定位方案").done_when == ["对比.md 列出优缺点"]
    assert board.tasks[1].question == "强调速度还是信任？"
    board.set_checked("比较三个定位方案")
    assert board.to_bytes() == raw.replace(b"- [ ] \xe6\xaf\x94", b"- [x] \xe6\xaf\x94")


def test_two_thousand_tasks_parse_and_check_the_last_one():
    raw = "".join(f"- [ ] Task number {i}\r\n  - Done when: file{i}.md exists\r\n" for i in range(2000)).encode()
    start = time.perf_counter()
    board = Board.parse(raw)
    parsed = time.perf_counter()
    board.set_checked("Task number 1999")
    out = board.to_bytes()
    done = time.perf_counter()
    print(f"\n2,000 tasks: parse {1000 * (parsed - start):.1f} ms, "
          f"check+write {1000 * (done - parsed):.1f} ms")
    assert board.counts() == (1, 2000)
    assert out == raw.replace(b"- [ ] Task number 1999\r", b"- [x] Task number 1999\r")


def test_insert_human_before_keeps_crlf_and_the_bullet():
    raw = b"# T\r\n* [x] Draft\r\n* [ ] Rewrite\r\n"
    board = Board.parse(raw)
    human = board.insert_human_before("Rewrite", "Speed or trust?", ["speed", "trust"],
                                      ["comparison.md"], "trust")
    assert board.to_bytes() == (b"# T\r\n* [x] Draft\r\n* [ ] HUMAN: Speed or trust?\r\n"
                                b"  * Option: speed\r\n  * Option: trust\r\n"
                                b"  * Evidence: comparison.md\r\n  * Recommendation: trust\r\n"
                                b"* [ ] Rewrite\r\n")
    assert human.index == 1 and board.next_task().is_human


def test_insert_human_at_the_end_when_the_task_is_gone():
    board = Board.parse("- [ ] A\n  - Done when: x\n\nClosing notes.")
    board.insert_human_before("Vanished", "Why?", ["a", "b"], [])
    assert board.to_bytes() == (b"- [ ] A\n  - Done when: x\n- [ ] HUMAN: Why?\n  - Option: a\n"
                                b"  - Option: b\n\nClosing notes.")


def test_answer_human_checks_the_decision_and_records_the_answer():
    board = Board.parse(EXAMPLE)
    task = board.answer_human("trust,\nbecause\r\nclients asked")
    assert task.checked and task.answer == "trust, because clients asked"
    assert board.to_bytes() == EXAMPLE.replace("- [ ] HUMAN", "- [x] HUMAN").replace(
        "  - Recommendation: trust\n", "  - Recommendation: trust\n  - Answer: trust, because clients asked\n").encode()
    assert board.next_task().text == "Compare the three strongest positioning options"
    with pytest.raises(BoardError, match=r"There is no open decision on the board\."):
        board.answer_human("again")
    # Answering the named decision again replaces the answer in place.
    board.answer_human("speed", text="HUMAN: Should the homepage emphasize speed or trust?")
    assert board.tasks[2].answer == "speed" and board.tasks[2].details.count("Answer: speed") == 1


def test_find_by_text_after_the_person_reordered_tasks():
    board = Board.parse("- [ ] Alpha\n- [ ] Beta\n")
    beta_id = board.find("Beta").task_id
    board = Board.parse("- [ ] Beta\n- [ ] Alpha\n")  # the person moved Beta up in their editor
    found = board.find("Beta")
    assert found.line_no == 0 and found.task_id == beta_id
    assert board.find("  beta  ").text == "Beta"  # spacing and case are forgiven
    assert board.find("Gamma") is None


def test_find_prefers_an_unchecked_task_with_the_same_text():
    board = Board.parse("- [x] Tidy\n- [ ] Tidy\n")
    assert board.find("Tidy").index == 1
    board.set_checked("Tidy", False)  # unchecking targets the checked one
    assert board.to_bytes() == b"- [ ] Tidy\n- [ ] Tidy\n"


def test_set_checked_on_a_missing_task_says_so():
    with pytest.raises(BoardError, match="no longer on the board"):
        Board.parse("- [ ] A\n").set_checked("B")


def test_add_task_and_details_without_a_final_newline():
    board = Board.parse("+ [ ] A\n\tnote")
    board.add_details("A", ["Done when: x\nand y", ""])
    board.add_task("B")
    assert board.to_bytes() == b"+ [ ] A\n\tnote\n\tDone when: x and y\n+ [ ] B"
    assert board.find("A").done_when == ["x and y"]


def test_add_task_to_an_empty_board():
    board = Board.parse(b"")
    board.add_task("First")
    assert board.to_bytes() == b"- [ ] First\n"
    with pytest.raises(BoardError):
        board.add_task(" \n ")


def test_invalid_utf8_bytes_survive_a_change():
    raw = b"# Caf\xe9\r\n- [ ] Fix \xff\xfe name\r\n- [ ] Next\r\n"
    board = Board.parse(raw)
    board.set_checked("Next")
    board.add_details(board.tasks[0].text, ["Evidence: notes.md"])
    assert board.to_bytes() == (b"# Caf\xe9\r\n- [ ] Fix \xff\xfe name\r\n  - Evidence: notes.md\r\n"
                                b"- [x] Next\r\n")
    assert len(board.tasks[0].task_id) == 10


def test_load_of_a_missing_board_explains_in_plain_words(tmp_path):
    with pytest.raises(BoardError, match=r"There is no TASKS\.md in this folder"):
        Board.load(tmp_path / "TASKS.md")


def test_template_has_two_example_tasks_and_no_decision():
    board = Board.parse(TEMPLATE)
    assert len(board.tasks) == 2 and not any(t.is_human for t in board.tasks)
    assert all(t.done_when for t in board.tasks)
    assert "HUMAN:" in TEMPLATE and "Done when:" in TEMPLATE


def test_the_chinese_template_is_the_same_list_in_chinese():
    from app.core.board.board import TEMPLATE_ZH_CN, template

    assert template(None) == template("en") == TEMPLATE
    assert template("zh_CN") == template("zh-CN") == template("zh") == TEMPLATE_ZH_CN
    english, chinese = Board.parse(TEMPLATE), Board.parse(TEMPLATE_ZH_CN)
    assert len(chinese.tasks) == len(english.tasks) == 2
    assert not any(t.is_human for t in chinese.tasks)
    assert [len(t.done_when) for t in chinese.tasks] == [len(t.done_when) for t in english.tasks]
    assert all("\u4e00" <= t.text[0] <= "\u9fff" for t in chinese.tasks)  # in Chinese
    assert "HUMAN:" in TEMPLATE_ZH_CN and "Done when:" in TEMPLATE_ZH_CN  # the format's keys


def test_init_workspace_writes_the_template_asked_for_and_never_makes_a_gone_folder(tmp_path):
    from app.core.board.board import TEMPLATE_ZH_CN
    from app.core.errors import FolderGone
    from app.core.workspace.workspace import init_workspace

    ws, created = init_workspace(tmp_path / "zh", template=TEMPLATE_ZH_CN)
    assert created and ws.board_path.read_text(encoding="utf-8") == TEMPLATE_ZH_CN
    ws, created = init_workspace(tmp_path / "en")  # the CLI's init: English
    assert created and ws.board_path.read_text(encoding="utf-8") == TEMPLATE
    with pytest.raises(FolderGone, match=r"This folder is gone: it was moved or deleted\."):
        init_workspace(tmp_path / "gone", make_folder=False)
    assert not (tmp_path / "gone").exists()


def test_task_fields_match_the_contract():
    task = Task(index=0, line_no=3, text="HUMAN:  Pick one ", checked=False,
                details=["Option: a", "option : b", "Answer: a", "Answer: b", "DONE  WHEN: c"], bullet="*")
    assert task.question == "Pick one" and task.options == ["a", "b"] and task.answer == "a"
    assert task.done_when == ["c"]
    assert task.task_id == Task(9, 9, "human: pick   ONE", True, [], "-").task_id


def test_update_board_merges_a_concurrent_edit(tmp_path):
    path = tmp_path / "TASKS.md"
    path.write_bytes(b"# Plan\r\n- [ ] Write intro\r\n- [ ] Write outro\r\n")
    calls = []

    def change(board: Board) -> Task:
        calls.append(1)
        if len(calls) == 1:
            # The person saves in their editor while the harness is mid-update.
            atomic_write_bytes(path, b"# Plan\r\n- [ ] Write outro\r\n- [ ] Write intro\r\n- [ ] Add photos\r\n")
        return board.set_checked("Write intro")

    task = update_board(path, change)
    assert len(calls) == 2 and task.checked and task.line_no == 2
    assert path.read_bytes() == b"# Plan\r\n- [ ] Write outro\r\n- [x] Write intro\r\n- [ ] Add photos\r\n"


def test_update_board_gives_up_on_a_file_that_never_settles(tmp_path):
    path = tmp_path / "TASKS.md"
    path.write_bytes(b"- [ ] A\n")

    def change(board: Board) -> None:
        path.write_bytes(path.read_bytes() + b"x")

    with pytest.raises(BoardError, match="kept changing"):
        update_board(path, change)


def test_update_board_leaves_the_file_alone_when_nothing_changed(tmp_path):
    path = tmp_path / "TASKS.md"
    path.write_bytes(b"- [ ] A")
    before = path.stat().st_mtime_ns
    assert update_board(path, lambda b: b.counts()) == (0, 1)
    assert path.stat().st_mtime_ns == before and path.read_bytes() == b"- [ ] A"


# ---------------------------------------------------------------------------------------
# The person's editor saving while the harness reads or writes (in-place saves, symlinks).

def _forty_task_board(saved: int) -> bytes:
    return (f"# Plan\n\nSaved {saved} times.\n\n".encode()
            + b"".join(f"- [ ] Task {i}\n  - Done when: out{i}.md exists\n".encode() for i in range(40)))


def _save_in_place(path, data: bytes, pause: float = 0.005) -> None:
    # Like Notepad, or vim with backupcopy=yes: same file, truncated, then written in two goes.
    with open(path, "r+b") as fh:
        fh.truncate(0)
        fh.write(data[: len(data) // 2])
        fh.flush()
        time.sleep(pause)
        fh.write(data[len(data) // 2:])


def test_an_editor_saving_in_place_during_a_run_loses_no_tasks(tmp_path):
    import random
    import threading

    path = tmp_path / "TASKS.md"
    path.write_bytes(_forty_task_board(0))
    stop = threading.Event()
    seen_by_editor: list[int] = []  # tasks on disk each time the editor is about to save

    def editor() -> None:
        rnd = random.Random(7)
        saved = 0
        while not stop.wait(rnd.uniform(0.02, 0.2)):
            saved += 1
            current = path.read_bytes()  # nobody else writes in place: this is a whole file
            seen_by_editor.append(len(Board.parse(current).tasks))
            # Keep the harness's checkmarks, as an editor that reloaded the file would.
            _save_in_place(path, current.replace(f"Saved {saved - 1} times".encode(),
                                                 f"Saved {saved} times".encode()))

    loads: list[int] = []
    updates = 0
    busy: list[str] = []
    thread = threading.Thread(target=editor, daemon=True)
    thread.start()
    try:
        end = time.monotonic() + 1.5
        i = 0
        while time.monotonic() < end:
            i += 1
            try:
                update_board(path, lambda b, i=i: b.set_checked(f"Task {i % 40}", i % 80 < 40))
                updates += 1
                loads.append(len(Board.load(path).tasks))
            except BoardError as exc:
                # Only "the file would not hold still" is acceptable, never "task is gone".
                assert "changing" in str(exc), exc
                busy.append(str(exc))
    finally:
        stop.set()
        thread.join(5)
    assert not thread.is_alive()
    assert len(seen_by_editor) >= 5 and updates >= 5 and len(loads) >= 5, (seen_by_editor, updates, busy)
    assert set(loads) == {40}, loads
    assert set(seen_by_editor) == {40}, seen_by_editor
    assert len(Board.load(path).tasks) == 40


def _editor_finishes_during_the_first_wait(monkeypatch, path, rest: bytes) -> list[float]:
    """Play an editor that appends the rest of its save while the board reader waits."""
    import app.core.board.board as board_module

    real_sleep = board_module._sleep
    pauses: list[float] = []

    def wait(seconds: float) -> None:
        pauses.append(seconds)
        if len(pauses) == 1:
            with open(path, "ab") as fh:
                fh.write(rest)
        real_sleep(seconds)

    monkeypatch.setattr(board_module, "_sleep", wait)
    return pauses


def test_load_waits_out_a_save_caught_halfway(tmp_path, monkeypatch):
    path = tmp_path / "TASKS.md"
    whole = _forty_task_board(1)
    path.write_bytes(whole[:len(whole) // 3])  # the editor has written a third so far
    pauses = _editor_finishes_during_the_first_wait(monkeypatch, path, whole[len(whole) // 3:])
    assert len(Board.load(path).tasks) == 40
    assert len(pauses) == 2  # half, whole, whole: accepted on the first agreement


def test_update_board_never_writes_back_a_save_caught_halfway(tmp_path, monkeypatch):
    path = tmp_path / "TASKS.md"
    whole = _forty_task_board(1)
    path.write_bytes(whole[:len(whole) // 2])
    _editor_finishes_during_the_first_wait(monkeypatch, path, whole[len(whole) // 2:])
    update_board(path, lambda b: b.set_checked("Task 39"))
    board = Board.load(path)
    assert len(board.tasks) == 40 and board.tasks[39].checked
    assert path.read_bytes() == whole.replace(b"- [ ] Task 39", b"- [x] Task 39")


def test_a_board_that_keeps_changing_stops_with_a_sentence_within_the_limit(tmp_path, monkeypatch):
    import app.core.board.board as board_module

    path = tmp_path / "TASKS.md"
    path.write_bytes(b"- [ ] A\n")
    real_sleep = board_module._sleep

    def editor_types_while_we_wait(seconds: float) -> None:
        with open(path, "ab") as fh:
            fh.write(b"x")
        real_sleep(seconds)

    monkeypatch.setattr(board_module, "_sleep", editor_types_while_we_wait)
    monkeypatch.setattr(board_module, "_SETTLE_LIMIT_S", 0.3)
    for attempt in (lambda: Board.load(path), lambda: update_board(path, lambda b: b.set_checked("A"))):
        started = time.monotonic()
        with pytest.raises(BoardError, match=r"TASKS\.md keeps changing") as info:
            attempt()
        assert 0.3 <= time.monotonic() - started < 2.0
        assert "\n" not in str(info.value) and "Errno" not in str(info.value)
    assert b"[x]" not in path.read_bytes()


def test_the_default_wait_for_a_settled_board_is_short_and_bounded():
    import app.core.board.board as board_module

    assert 0.01 <= board_module._SETTLE_S <= 0.05
    assert board_module._SETTLE_LIMIT_S <= 2.5


def test_a_board_removed_and_recreated_by_the_editor_is_read_once_back(tmp_path, monkeypatch):
    import app.core.board.board as board_module

    path = tmp_path / "TASKS.md"
    path.write_bytes(b"- [ ] A\n")
    path.rename(tmp_path / "TASKS.md~")  # vim's default save: old file aside, new one written
    real_sleep = board_module._sleep
    pauses = []

    def editor_writes_the_new_file(seconds: float) -> None:
        pauses.append(seconds)
        if len(pauses) == 1:
            path.write_bytes(b"- [ ] A\n- [ ] B\n")
        real_sleep(seconds)

    monkeypatch.setattr(board_module, "_sleep", editor_writes_the_new_file)
    assert [t.text for t in Board.load(path).tasks] == ["A", "B"]


def test_update_board_refuses_a_change_that_would_drop_tasks(tmp_path):
    path = tmp_path / "TASKS.md"
    path.write_bytes(b"- [ ] A\n- [ ] B\n")

    def drops_a_task(board: Board) -> None:
        board._lines.pop()  # no real change does this today; the guard is for the next one
        board._scan()

    with pytest.raises(BoardError, match="would have removed tasks"):
        update_board(path, drops_a_task)
    assert path.read_bytes() == b"- [ ] A\n- [ ] B\n"


def test_update_board_writes_through_a_symlinked_board(tmp_path):
    import os

    shared = tmp_path / "shared"
    ws = tmp_path / "ws"
    shared.mkdir()
    ws.mkdir()
    (shared / "TASKS.md").write_bytes(b"- [ ] A\n- [ ] B\n")
    try:
        os.symlink(os.path.join("..", "shared", "TASKS.md"), ws / "TASKS.md")
    except (OSError, NotImplementedError):
        pytest.skip("this system cannot make symlinks")
    update_board(ws / "TASKS.md", lambda b: b.set_checked("A"))
    assert (ws / "TASKS.md").is_symlink()
    assert os.readlink(ws / "TASKS.md") == os.path.join("..", "shared", "TASKS.md")
    assert (shared / "TASKS.md").read_bytes() == b"- [x] A\n- [ ] B\n"
    assert sorted(p.name for p in shared.iterdir()) == ["TASKS.md"]  # no temp file left behind
    assert sorted(p.name for p in ws.iterdir()) == ["TASKS.md"]
    assert Board.load(ws / "TASKS.md").tasks[0].checked


def test_a_board_nobody_wrote_for_seconds_is_read_once_without_waiting(tmp_path, monkeypatch):
    import app.core.board.board as board_module

    path = tmp_path / "TASKS.md"
    path.write_text("- [ ] One\n- [ ] Two\n", encoding="utf-8")
    old = time.time() - 60
    os.utime(path, (old, old))
    waits = []
    monkeypatch.setattr(board_module, "_sleep", waits.append)
    assert [t.text for t in Board.load(path).tasks] == ["One", "Two"]
    assert waits == []


def test_checking_a_task_without_text_on_a_crlf_board():
    # "- [ ]\r\n": the checkbox is found on the line without its ending.
    board = Board.parse(b"- [ ]\r\n- [ ] B\r\n")
    board.set_checked("")
    assert board.to_bytes() == b"- [x]\r\n- [ ] B\r\n"


def test_a_board_seen_to_hold_still_is_not_waited_for_again_until_it_changes(tmp_path,
                                                                            monkeypatch):
    """A run reads a just-saved board several times before its first request; the wait that
    saw it hold still holds for that very state (bytes, size, mtime, inode) until it moves."""
    import app.core.board.board as board_module

    path = tmp_path / "TASKS.md"
    path.write_bytes(b"- [ ] A\n")  # just now: within the quiet time, so it is waited for
    waits: list[float] = []
    real_sleep = board_module._sleep
    monkeypatch.setattr(board_module, "_sleep", lambda s: (waits.append(s), real_sleep(s)))
    assert [t.text for t in Board.load(path).tasks] == ["A"] and len(waits) == 1
    assert [t.text for t in Board.load(path).tasks] == ["A"] and len(waits) == 1
    path.write_bytes(b"- [ ] A\n- [ ] B\n")  # an editor's save: waited for again
    assert [t.text for t in Board.load(path).tasks] == ["A", "B"] and len(waits) == 2
    assert [t.text for t in Board.load(path).tasks] == ["A", "B"] and len(waits) == 2
