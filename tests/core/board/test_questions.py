"""How a decision is answered from its own words (issue 35: an either/or question got Yes/No)."""

from __future__ import annotations

import pytest

from app.core.board.questions import OPTIONS, TEXT, YES_NO, answer_choices


@pytest.mark.parametrize("question, options", [
    ("Should we put the prices up on 1 February or wait until after Easter?",
     ["Put the prices up on 1 February", "Wait until after Easter"]),
    ("HUMAN: Should we put the prices up on 1 February or wait until after Easter?",
     ["Put the prices up on 1 February", "Wait until after Easter"]),
    ("Should the homepage lead with speed or trust?", ["Speed", "Trust"]),
    ("Speed or trust?", ["Speed", "Trust"]),
    ("Red, green or blue?", ["Red", "Green", "Blue"]),
    ("What colour should the logo be, red or blue?", ["Red", "Blue"]),
    ("Do you want tea or coffee?", ["Tea", "Coffee"]),
    ("二月一日涨价还是复活节后再涨？", ["二月一日涨价", "复活节后再涨"]),
    ("我们应该二月涨价还是等到复活节以后？", ["二月涨价", "等到复活节以后"]),
    ("首页主打速度还是信任？", ["速度", "信任"]),
    ("周日开门，或者周一开门？", ["周日开门", "周一开门"]),
])
def test_an_either_or_question_is_answered_with_its_alternatives(question, options):
    assert answer_choices(question) == answer_choices(question, [])
    choices = answer_choices(question)
    assert (choices.kind, choices.options) == (OPTIONS, options)


@pytest.mark.parametrize("question", [
    "Should we open on Sundays?", "Is the price list up to date?", "Can't we hire a helper?",
    "Would you like a logo or not?", "周日开门吗？", "要不要请一个帮手？", "是否需要新的标志？",
])
def test_a_yes_no_question_is_answered_yes_or_no(question):
    assert answer_choices(question).kind == YES_NO


@pytest.mark.parametrize("question", [
    "Which supplier should we use?", "What should the shop be called?", "How much is a loaf?",
    "Which is better?", "用哪家供应商？", "店名叫什么？",
])
def test_any_other_question_is_answered_in_the_persons_own_words(question):
    assert answer_choices(question).kind == TEXT


def test_the_options_written_on_the_board_come_first():
    choices = answer_choices("Should we open on Sundays?", ["Yes, from May", " ", "No"])
    assert (choices.kind, choices.options) == (OPTIONS, ["Yes, from May", "No"])
