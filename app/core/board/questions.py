"""How a decision the person wrote can be answered, from its own words.

A HUMAN task with `Option:` lines is answered with those options. Without them the question
itself says how: an either/or question ("… on 1 February or wait until after Easter?",
"二月一日涨价还是复活节后再涨？") is answered with its alternatives, a yes/no question ("Should we
open on Sundays?", "周日开门吗？") with yes or no, and any other question ("Which supplier?")
with the person's own words. No Qt here: the window words the yes/no buttons itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

OPTIONS, YES_NO, TEXT = "options", "yes_no", "text"

# A question that opens with one of these (then a subject) is asked to be answered yes or no.
_AUXILIARIES = ("is", "are", "was", "were", "am", "do", "does", "did", "should", "shall", "can",
                "could", "will", "would", "may", "might", "must", "have", "has", "had", "need")
_SUBJECTS = ("we", "i", "you", "they", "it", "he", "she", "this", "that", "there")
# "Should we …", "Do I …", "Would you rather …": the words before the first alternative.
_LEAD = re.compile(r"^(?:(?:%s)(?:\s+not|n't)?\s+(?:%s)(?:\s+rather)?|whether(?:\s+to)?)\s+"
                   % ("|".join(_AUXILIARIES), "|".join(_SUBJECTS)), re.I)
_LEAD_WHETHER = re.compile(r"^whether(?:\s+to)?\s+", re.I)
_ZH_LEAD = re.compile(r"^(?:请问|我们|咱们|你|是否|应该|要|该|是)+")
_ZH_YES_NO = re.compile(r"(?:吗|(?<![什怎多那这])么|嘛)$|(.)不\1|是否")
_CJK = re.compile(r"[\u3400-\u9fff]")
MAX_CHOICES = 4


@dataclass(frozen=True)
class Choices:
    """How to answer: `kind` OPTIONS with `options` in the question's own words, YES_NO, or
    TEXT (a line of the person's own)."""

    kind: str
    options: list[str] = field(default_factory=list)


def answer_choices(question: str, options: list[str] | None = None) -> Choices:
    """How this decision is answered (see the module's docstring)."""
    given = [o.strip() for o in options or [] if o.strip()]
    if given:
        return Choices(OPTIONS, given)
    text = " ".join(question.split()).strip()
    text = re.sub(r"^HUMAN\s*:\s*", "", text, flags=re.I)
    if _CJK.search(text):
        return _chinese(text)
    return _english(text)


def _english(text: str) -> Choices:
    body = text.rstrip(" ?.!").strip()
    parts = re.split(r",?\s+or\s+", body, flags=re.I)
    first = body.split(" ", 1)[0].lower().replace("’", "'")
    first = {"can't": "can", "won't": "will"}.get(first, first.removesuffix("n't"))
    yes_no = first in _AUXILIARIES
    if len(parts) == 2 and parts[1].strip().lower() == "not":  # "… or not?"
        return Choices(YES_NO if yes_no else TEXT)
    if 2 <= len(parts) <= MAX_CHOICES and all(p.strip() for p in parts):
        alternatives = _alternatives(parts)
        if alternatives:
            return Choices(OPTIONS, alternatives)
    return Choices(YES_NO if yes_no else TEXT)


_WH = ("what", "which", "who", "whom", "where", "when", "how", "why")


def _alternatives(parts: list[str]) -> list[str]:
    """["Should we put the prices up on 1 February", "wait until after Easter"] ->
    ["Put the prices up on 1 February", "Wait until after Easter"]; a short last part
    ("Should the homepage lead with speed", "trust") takes as many words off the first
    ("Speed", "Trust"); "Red, green" before "or blue" is two alternatives, and "Which
    colour, red" only one."""
    first, rest = parts[0].strip(), [p.strip() for p in parts[1:]]
    if "," in first and all(len(p.split()) <= 3 for p in rest):
        pieces = [p.strip() for p in first.split(",")]
        listed = [p for p in pieces[1:] if p]
        head = pieces[0]
        if head.split(" ", 1)[0].lower() in _WH or len(head.split()) > 3:
            if not listed:
                return []
            first, rest = listed[0], listed[1:] + rest  # the lead-in is no alternative
        else:
            first, rest = head, listed + rest
    if first.split(" ", 1)[0].lower() in _WH:
        return []  # "Which is better, … or …" without a comma: a question in its own words
    first = _LEAD.sub("", first) if _LEAD.match(first) else _LEAD_WHETHER.sub("", first)
    longest = max(len(p.split()) for p in rest)
    if longest <= 2 and len(first.split()) > longest:
        first = " ".join(first.split()[-len(rest[0].split()):])
    out = [_capital(p) for p in [first] + rest if p]
    if len(out) < 2 or len(out) > MAX_CHOICES or len({o.casefold() for o in out}) != len(out):
        return []
    return out


def _chinese(text: str) -> Choices:
    body = re.sub(r"[？?。！!\s]+$", "", text)
    body = re.sub(r"(?:呢|啊|呀)$", "", body)
    parts = [p for p in re.split(r"还是|或者|或是", body)]
    if 2 <= len(parts) <= MAX_CHOICES and all(p.strip(" ，,") for p in parts):
        parts = [p.strip(" ，,") for p in parts]
        first = _ZH_LEAD.sub("", parts[0]) or parts[0]
        rest = [_ZH_LEAD.sub("", p) or p for p in parts[1:]]
        shortest = max(len(p) for p in rest)
        if shortest <= 2 and len(first) > 2 * shortest:
            first = first[-len(rest[0]):]
        out = [first] + rest
        if len(set(out)) == len(out):
            return Choices(OPTIONS, out)
    if _ZH_YES_NO.search(body):
        return Choices(YES_NO)
    return Choices(TEXT)


def _capital(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:]
