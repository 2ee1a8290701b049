"""The Demo engine's planner: scripted, offline, English or Chinese after the goal's language.

It plays a planning round with the real tools: list the folder, read its first text file,
then propose_tasks with a fixed five-task plan built around the goal (one of them a decision
for the person), or, after a finished run ("next"), three follow-up tasks. A note from the
person ("Try again") becomes a Done-when line of the outline, so a re-plan visibly answers
it. Tasks already on the list are left out.
"""

from __future__ import annotations

import re
from typing import Any, TypedDict

from app.core.engine.conversation import Message

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_TEXT_FILE = re.compile(r"^(\S.*?\.(?:md|txt|csv))\s+\(", re.I)
_SKIP = {"tasks.md", "agents.md"}

class _Words(TypedDict):
    """A language's tasks and decisions: (text, how to tell it is done) or (question, options)."""

    gather: tuple[str, str]
    start: tuple[str, str]
    outline: tuple[str, str]
    note: str
    decide: tuple[str, list[str]]
    draft: tuple[str, str]
    review: tuple[str, str]
    next: tuple[tuple[str, str], tuple[str, list[str]], tuple[str, str]]
    extra: tuple[str, str]
    no_goal: str


_EN: _Words = {
    "gather": ("Collect what this folder already holds for “{g}”",
               "notes/sources.md names each useful file with one line on what it offers"),
    "start": ("Write down what is already known for “{g}”",
              "notes/start.md lists what is known and what is still missing"),
    "outline": ("Draft an outline for “{g}”",
                "outline.md has the main parts, each with two or three points"),
    "note": "outline.md follows your note: {n}",
    "decide": ("How complete should the first version of “{g}” be?",
               ["A short first version to react to", "A complete version in one go"]),
    "draft": ("Write the first version from the outline and your decision",
              "draft.md follows outline.md and the answer to the decision"),
    "review": ("Check the first version against the goal and list what is still missing",
               "review.md lists what is done and what is missing"),
    "next": (("Read what the last run produced and list what could be better",
              "review.md names each file the run wrote, with one improvement for each"),
             ("Which improvement matters most to you?",
              ["The content", "The wording and tone", "The layout"]),
             ("Make the improvement you chose",
              "the changed files show it, and review.md says what changed")),
    "extra": ("Review the list and add what is still missing for “{g}”",
              "TASKS.md covers every part of the goal"),
    "no_goal": "the work in this folder",
}
_ZH: _Words = {
    "gather": ("整理这个文件夹里关于“{g}”的已有资料",
               "notes/sources.md 列出每个有用的文件，并各用一句话说明其内容"),
    "start": ("写下目前关于“{g}”已知的情况", "notes/start.md 列出已知的信息和还缺的信息"),
    "outline": ("为“{g}”拟一份提纲", "outline.md 列出主要部分，每部分两三个要点"),
    "note": "outline.md 体现了你的意见：{n}",
    "decide": ("“{g}”的第一版要做到什么程度？", ["先做一个简短的版本看看效果", "一次做成完整的版本"]),
    "draft": ("根据提纲和你的决定写出第一版", "draft.md 按照 outline.md 和你的决定写成"),
    "review": ("对照目标检查第一版，列出还缺什么", "review.md 列出已完成的部分和还缺的部分"),
    "next": (("阅读上一次运行的成果，列出可以改进的地方",
              "review.md 为运行写过的每个文件列出一条改进建议"),
             ("你最看重哪一项改进？", ["内容", "措辞和语气", "版式"]),
             ("完成你选定的改进", "改过的文件体现了这项改进，review.md 说明改了什么")),
    "extra": ("检查清单，补上“{g}”还缺的部分", "TASKS.md 涵盖了目标的每个部分"),
    "no_goal": "这个文件夹里的工作",
}


def plan_turn(messages: list[Message]) -> tuple[str, dict[str, Any]]:
    """The next tool call of a scripted planning round, from the brief and the results so far."""
    brief = messages[0].text if messages else ""
    step = sum(1 for m in messages if m.role == "assistant")
    if step == 0:
        return "list_files", {"path": "."}
    source = _first_text_file(brief)
    if step == 1 and source is not None:
        return "read_file", {"path": source, "limit": 40}
    return "propose_tasks", {"tasks": proposals_for(brief, has_files=source is not None)}


def proposals_for(brief: str, has_files: bool) -> list[dict[str, Any]]:
    goal = _field(brief, "Goal:")
    if goal.startswith("(none given"):
        goal = ""
    note = _field(brief, "Note from the person:")
    mode_next = any(ln.startswith("Mode: next") for ln in brief.splitlines())
    words = _ZH if _CJK.search(goal + note + ("" if goal else _section_text(brief))) else _EN
    g = goal.rstrip(" .。!！?？") or words["no_goal"]
    if mode_next:
        tasks = [_task(words["next"][0]), _decision(words["next"][1]), _task(words["next"][2])]
    else:
        outline = _task(words["outline"], g)
        if note:
            outline["done_when"].append(words["note"].format(n=note))
        tasks = [_task(words["gather"] if has_files else words["start"], g), outline,
                 _decision(words["decide"], g), _task(words["draft"]), _task(words["review"])]
    taken = {_norm(t) for t in _section(brief, "Already on the person's list")}
    fresh = [t for t in tasks if _norm(("HUMAN: " if t["human"] else "") + t["text"]) not in taken]
    return fresh or [_task(words["extra"], g)]


def _task(pair: tuple[str, str], g: str = "") -> dict[str, Any]:
    text, done = pair
    return {"text": text.format(g=g), "done_when": [done], "human": False, "options": []}


def _decision(pair: tuple[str, list[str]], g: str = "") -> dict[str, Any]:
    question, options = pair
    return {"text": question.format(g=g), "done_when": [], "human": True,
            "options": list(options)}


def _first_text_file(brief: str) -> str | None:
    for line in _section_lines(brief, "The folder's files"):
        m = _TEXT_FILE.match(line)
        if m and m.group(1).lower() not in _SKIP:
            return m.group(1)
    return None


def _field(text: str, label: str) -> str:
    for line in text.splitlines():
        if line.startswith(label):
            return line[len(label):].strip()
    return ""


def _section_lines(brief: str, heading: str) -> list[str]:
    lines = brief.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(heading):
            out = []
            for item in lines[i + 1:]:
                if not item.strip():
                    break
                out.append(item)
            return out
    return []


def _section(brief: str, heading: str) -> list[str]:
    """The task texts of a "- [ ] text" section of the brief."""
    return [re.sub(r"^- \[[ x]\] ", "", ln) for ln in _section_lines(brief, heading)
            if ln.startswith("- [")]


def _section_text(brief: str) -> str:
    return " ".join(_section(brief, "Already on the person's list")
                    + _section_lines(brief, "What the last run did"))


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()
