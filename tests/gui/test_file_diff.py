"""The evidence window's diff is right and bounded (issue 16, point 4): lines matched without
difflib's near-quadratic matcher, words marked only in small blocks, "too big" past a bound."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.gui.evidence.file_diff import TooBig, diff_html, matching_lines, opcodes

COLOURS = dict(removed="r", added="g", muted="m", removed_bg="x", added_bg="y",
               note_unchanged="same")
_lines = st.lists(st.sampled_from(["", "a", "b", "- item", "## Week 1", "x"]), max_size=40)


@settings(max_examples=300, deadline=None)
@given(_lines, _lines)
def test_the_opcodes_turn_before_into_after_and_equal_means_equal(a, b):
    blocks = matching_lines(a, b, time.monotonic() + 10)
    rebuilt, at = [], 0
    for tag, i1, i2, j1, j2 in opcodes(blocks, len(a), len(b)):
        assert i1 == at
        at = i2
        if tag == "equal":
            assert a[i1:i2] == b[j1:j2]
        rebuilt += b[j1:j2]
    assert rebuilt == b and at == len(a)


def test_a_few_edits_in_a_file_of_repeated_lines_are_found_exactly():
    before = "".join(f"- item\n\n## Week {i % 7}\n- item\n" for i in range(4000))
    after = before.replace("## Week 3", "## Week three", 2)
    shown = diff_html(before, after, **COLOURS)
    assert shown.count('<div style="color:g;">') == 2  # two lines added...
    assert shown.count('<div style="color:r;">') == 2  # ...for the two rewritten
    assert "three" in shown


def test_a_rewrite_of_a_big_file_is_too_big_to_compare_and_says_so_at_once():
    before = "".join(f"- item {i % 9}\n" for i in range(30000))
    after = "".join(f"line {i} is new\n" for i in range(30000))
    with pytest.raises(TooBig):
        diff_html(before, after, **COLOURS)
    with pytest.raises(TooBig):  # and the time bound holds whatever the text
        diff_html(before, before.replace("item 3", "item three"), **COLOURS, time_limit_s=0)


def test_words_are_marked_only_in_small_blocks():
    small = diff_html("one two three\n", "one 2 three\n", **COLOURS)
    assert '<span style="background:x;">two ' in small
    long_a = "".join(f"word{i} " * 40 + "\n" for i in range(60))
    long_b = "".join(f"word{i} " * 39 + "changed\n" for i in range(60))
    assert "background:" not in diff_html(long_a, long_b, **COLOURS)
