"""Which lines are tasks is CommonMark's call (docs/board.md): comments, code, quotes, nested items are not."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from app.core.board.board import Board, BoardError, update_board
from app.core.board.markdown import task_lines


def _texts(raw: str | bytes) -> list[str]:
    return [t.text for t in Board.parse(raw).tasks]


# ---------------------------------------------------------------------------------------
# Not tasks, one construct at a time

def test_task_commented_out_over_several_lines_is_never_worked_on(tmp_path):
    raw = "- [ ] Keep the logo\n<!--\n- [ ] Delete the old drafts\n-->\n- [ ] Write the intro\n"
    board = Board.parse(raw)
    assert [t.text for t in board.tasks] == ["Keep the logo", "Write the intro"]
    path = tmp_path / "TASKS.md"
    path.write_text(raw)
    update_board(path, lambda b: b.set_checked("Keep the logo"))
    assert Board.load(path).next_task().text == "Write the intro"
    assert "- [ ] Delete the old drafts" in path.read_text()


def test_task_commented_out_on_one_line_is_not_a_task():
    assert _texts("<!-- - [ ] Delete the old drafts -->\n- [ ] Real\n") == ["Real"]


def test_unclosed_comment_hides_everything_after_it():
    assert _texts("- [ ] Before\n\n<!-- later:\n- [ ] After\n- [ ] And this\n") == ["Before"]


def test_comment_opened_inside_a_paragraph_does_not_hide_the_next_item():
    # Inline HTML cannot span blocks: CommonMark (and GitHub) show this item as a task.
    assert _texts("Some words <!--\n- [ ] Shown\n-->\n") == ["Shown"]


def test_tasks_inside_an_html_block_are_not_tasks():
    raw = "<div>\n- [ ] in a div\n</div>\n\n<details>\n- [x] in details\n\n- [ ] after the blank line\n"
    assert _texts(raw) == ["after the blank line"]


def test_tasks_inside_a_pre_block_are_not_tasks_even_across_blank_lines():
    assert _texts("<pre>\n- [ ] a\n\n- [ ] b\n</pre>\n- [ ] c\n") == ["c"]


def test_custom_tag_block_hides_until_a_blank_line():
    assert _texts("<my-note>\n- [ ] hidden\n\n- [ ] shown\n") == ["shown"]


def test_tasks_in_a_blockquote_are_not_tasks():
    raw = "> - [ ] quoted\n> * [x] quoted too\n>\n> text\n- [ ] after the quote\n"
    assert _texts(raw) == ["after the quote"]


def test_indented_code_is_not_a_task():
    assert _texts("Intro\n\n    - [ ] code\n    - [x] more code\n\n- [ ] real\n") == ["real"]


@pytest.mark.parametrize("fence", ["```", "~~~", "````", "   ```", "```md", "~~~ text"])
def test_fences_of_any_kind_hide_tasks(fence):
    close = fence.strip().split()[0].rstrip("md")
    assert _texts(f"{fence}\n- [ ] in code\n{close}\n- [ ] real\n") == ["real"]


def test_fence_in_a_blockquote_ends_with_the_quote():
    assert _texts("> ```\n> - [ ] code\n- [ ] real\n") == ["real"]


def test_ordered_list_items_are_not_tasks():
    assert _texts("1. [ ] one\n2) [x] two\n- [ ] bullet\n") == ["bullet"]


def test_nested_items_are_not_tasks():
    raw = "- Groceries\n  - [ ] milk\n  * [x] eggs\n- [ ] Parent\n  - [ ] child step\n"
    board = Board.parse(raw)
    assert [t.text for t in board.tasks] == ["Parent"]
    assert board.tasks[0].details == ["[ ] child step"]


def test_five_columns_after_the_bullet_make_code_not_a_task():
    raw = "-     [ ] code\n-\t\t[ ] code\n-    [ ] four spaces\n-\t[ ] tab\n- \t[ ] space tab\n"
    assert _texts(raw) == ["four spaces", "tab", "space tab"]


def test_item_turned_into_a_setext_heading_is_not_a_task():
    assert _texts("- [ ] Title\n  ---\n- [ ] Real\n---\n") == ["Real"]


def test_item_indented_by_up_to_three_spaces_is_not_a_task():
    assert _texts("Notes\n - [ ] one space\n   - [ ] three\n") == []


def test_html_inside_a_task_line_is_fine():
    assert _texts("- [ ] Fix the <b>bold</b> title\n- [ ] <!-- odd --> but a task\n") == [
        "Fix the <b>bold</b> title", "<!-- odd --> but a task"]


def test_lone_cr_stays_inside_its_line():
    # The board ends lines at LF and CRLF only; the parser reads a lone CR as a space.
    # Read as line endings, the CR before the backticks would open a fence and hide C.
    board = Board.parse(b"- [ ] A\r- [ ] B\nNote\r```\n- [ ] C\n")
    assert [t.text for t in board.tasks] == ["A\r- [ ] B", "C"]


def test_new_task_goes_before_an_unclosed_comment_at_the_end():
    board = Board.parse("# Plan\n<!-- draft\n- [ ] hidden\n")
    board.add_task("Visible")
    assert board.to_bytes() == b"# Plan\n- [ ] Visible\n<!-- draft\n- [ ] hidden\n"
    assert [t.text for t in board.tasks] == ["Visible"]


def test_a_long_board_with_a_comment_in_the_middle_parses_only_around_it():
    lines = [f"- [ ] Task {i}\n  - Done when: {i}.md\n" for i in range(300)]
    lines.insert(150, "<!--\n- [ ] commented\n-->\n")
    board = Board.parse("".join(lines))
    assert len(board.tasks) == 300 and "commented" not in [t.text for t in board.tasks]


# ---------------------------------------------------------------------------------------
# Differential: generated boards mixing all of the above, against a plain full parse.

_WORD = st.text(st.characters(blacklist_categories=("Cs", "Cc"), max_codepoint=0x2FFF)
                | st.sampled_from(" \t<>`~-=[]"), max_size=8)
_TASKISH = st.builds(
    lambda indent, bullet, gap, box, sep, text: f"{indent}{bullet}{gap}[{box}]{sep}{text}",
    st.sampled_from(["", "", "", " ", "  ", "   ", "    "]), st.sampled_from("-*+"),
    st.sampled_from([" ", " ", "  ", "\t", " \t", "    ", "     ", "\t\t", ""]),
    st.sampled_from(" xX"), st.sampled_from([" ", "\t", "", "  "]), _WORD)
_DETAIL = st.builds(lambda i, k, w: i + k + w, st.sampled_from(["  ", "    ", "\t", " "]),
                    st.sampled_from(["- Done when: ", "- Option: ", "note ", "- [ ] ", "```",
                                     "<!--", "---", "===", "> ", "1. "]), _WORD)
_PLAIN_TASK = st.builds(lambda b, w: f"- [{b}] {w}", st.sampled_from(" x"), _WORD)
_LINE = st.one_of(
    _PLAIN_TASK, _PLAIN_TASK, _PLAIN_TASK, _TASKISH, _DETAIL, _WORD.map(lambda w: "P " + w), st.just(""), st.just(""),
    st.sampled_from(["```", "~~~", "````", "   ```", "    ```", "```py", "~~~~", "<!--", "-->",
                     "<!-- x -->", "text <!--", "<div>", "</div>", "<pre>", "</pre>",
                     "<my-tag>", "<span>", "> quote", "> - [ ] q", "> ```", ">", "1. [ ] o",
                     "2) [x] o", "1. item", "---", "===", "***", "  ---", "- plain item",
                     "  - [ ] nested", "    - [ ] code", "# Heading", "[ref]: /url", "-", "- "]),
)


@st.composite
def mixed_boards(draw):
    bodies = draw(st.lists(_LINE, max_size=40))
    eol = draw(st.sampled_from(["\n", "\r\n"]))
    text = "".join(b + eol for b in bodies)
    if text and draw(st.booleans()):
        text = text[: -len(eol)]
    return text


def _parser_tasks(text: str) -> list[tuple[int, str, bool]]:
    """Top-level bullet items, unindented, whose first paragraph starts with a checkbox."""
    lines = text.split("\n")
    out, stack = [], []
    tokens = MarkdownIt("commonmark").parse(text)
    for i, tok in enumerate(tokens):
        if tok.nesting == 1:
            stack.append(tok.type)
        elif tok.nesting == -1:
            stack.pop()
        if tok.type != "list_item_open" or stack != ["bullet_list_open", "list_item_open"]:
            continue
        para, inline = tokens[i + 1], tokens[i + 2]
        line = lines[tok.map[0]].rstrip("\r")
        if para.type != "paragraph_open" or para.map[0] != tok.map[0] or line[:1] not in "-*+":
            continue
        m = re.match(r"\[([ xX])\](?=[ \t\n]|$)", inline.content)
        if m:
            out.append((tok.map[0], inline.content[m.end():].split("\n")[0].strip(),
                        m.group(1) != " "))
    return out


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mixed_boards(), st.booleans())
def test_board_tasks_are_the_parsers_top_level_checkbox_items(text, bom):
    board = Board.parse(("\ufeff" if bom else "") + text)
    got = [(t.line_no, t.text, t.checked) for t in board.tasks]
    assert got == _parser_tasks(text)
    assert board.to_bytes() == (("\ufeff" if bom else "") + text).encode()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mixed_boards())
def test_parsing_only_around_suspect_lines_equals_parsing_everything(text):
    bodies = [b.removesuffix("\r") for b in text.split("\n")]
    assert task_lines(bodies) == task_lines(bodies, parse_all=True)


def _tasks(board: Board) -> list[tuple]:
    return [(t.index, t.line_no, t.text, t.checked, t.details, t.bullet) for t in board.tasks]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mixed_boards(), st.data())
def test_a_tick_without_a_new_scan_reads_as_a_full_parse_of_the_ticked_file(text, data):
    """Board.check changes one character and does not scan again: the tasks it keeps must be
    exactly what a parse of the new bytes finds, on any board CommonMark can make."""
    board = Board.parse(text)
    if not board.tasks:
        return
    task = board.tasks[data.draw(st.integers(0, len(board.tasks) - 1))]
    board.check(task, not task.checked)
    fresh = Board.parse(board.to_bytes().decode("utf-8", "surrogateescape") + "")
    assert _tasks(board) == _tasks(fresh)
    assert board._ends == fresh._ends


def test_reading_back_the_board_just_written_takes_a_copy_not_the_same_board(tmp_path):
    path = tmp_path / "TASKS.md"
    path.write_bytes(b"# Tasks\n\n- [ ] one\n  - Done when: a\n- [ ] two\n")
    update_board(path, lambda b: b.set_checked("one"))
    first, second = Board.load(path), Board.load(path)
    assert _tasks(first) == _tasks(Board.parse(path.read_text() + "")) and first.tasks[0].checked
    first.tasks[0].details.append("changed by a caller")
    first.replace_lines(0, 1, ["# Renamed\n"])
    assert _tasks(second) == _tasks(Board.load(path))  # the kept board was not touched
    assert Board.load(path).lines[0] == "# Tasks\n"


def test_a_change_that_puts_a_line_break_inside_a_line_is_judged_by_a_real_parse(tmp_path):
    """A board whose lines would split differently when read back is not trusted for its own
    task count: the guard against losing tasks parses the bytes it is about to write."""
    path = tmp_path / "TASKS.md"
    path.write_bytes(b"- [ ] one\n- [ ] two\n")
    board = Board.parse(path.read_bytes())
    board._lines[0] = "- [ ] one\n```\n"  # a fence hidden inside one line: hides "two"
    assert not board.reads_back_as_itself(board.to_bytes())
    with pytest.raises(BoardError, match="would have removed tasks"):
        update_board(path, lambda b: b._lines.__setitem__(0, "- [ ] one\n```\n"))
    assert path.read_bytes() == b"- [ ] one\n- [ ] two\n"


def test_the_same_bytes_read_twice_give_equal_boards_that_do_not_share_anything():
    data = b"# Tasks\n\n- [ ] one\n  - Done when: a\n- [x] two\n"
    first = Board.parse(data)
    first.tasks[0].details.append("changed by a caller")
    first.check(first.tasks[0], True)
    second = Board.parse(bytearray(data))
    assert [(t.text, t.checked, t.details) for t in second.tasks] == [
        ("one", False, ["Done when: a"]), ("two", True, [])]
    assert second.to_bytes() == data
