"""An optional clearer wording of the open lessons' lines, in one cheap call through the engine
port. The AI only rewords: the lessons, their numbers and their evidence stay the harness's
own, and an answer that does not fit (another count, an empty or overlong line) changes nothing."""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path

from app.core.clean_text import clean_line
from app.core.engine.conversation import Message
from app.core.engine.port import Engine
from app.core.lessons.lessons import find_lessons
from app.core.lessons.store import load_store, save_store
from app.core.workspace.workspace import Workspace

MAX_LINE = 300
_OUTPUT_TOKENS = 1200
SYSTEM = (
    "You reword standing instructions for an AI assistant that works on a person's folder of "
    "files. You get a JSON array of lines. Return only a JSON array of the same length, in the "
    "same order: each line reworded to be short, plain and clear, in the same language as the "
    "line, keeping every file name, tool name and quoted answer exactly. Do not add, merge, "
    "drop or explain lines.")


def reword_lessons(root: Path | str, engine: Engine,
                   cancel: threading.Event | None = None) -> int:
    """Reword the open lessons' lines with `engine` (one call); keep the new wording in the
    store. Returns how many lines changed. Engine errors (EngineError) reach the caller."""
    ws = Workspace(root).require(need_board=False)
    folder = find_lessons(ws.root)
    open_lessons = [x for x in folder.lessons if x.state == "open"]
    if not open_lessons:
        return 0
    originals = [x.lines[folder.language] for x in open_lessons]
    turn = engine.turn(SYSTEM, [], [Message(role="user", text=json.dumps(
        originals, ensure_ascii=False))], cancel=cancel, max_output_tokens=_OUTPUT_TOKENS)
    reworded = parse_lines(turn.text, len(originals))
    if reworded is None:
        return 0
    store = load_store(ws.harness_dir)
    changed = 0
    for lesson, line in zip(open_lessons, reworded):
        if line != lesson.line:
            store.reworded[lesson.key] = line
            changed += 1
    if changed:
        save_store(ws.harness_dir, store)
    return changed


def parse_lines(text: str, count: int) -> list[str] | None:
    """The reworded lines from the AI's answer, or None when it is not `count` short lines."""
    match = re.search(r"\[.*\]", text or "", re.S)
    if not match:
        return None
    try:
        data = json.loads(match.group(0))
    except ValueError:
        return None
    if not isinstance(data, list) or len(data) != count:
        return None
    lines = [" ".join(clean_line(x).split()) if isinstance(x, str) else "" for x in data]
    if any(not x or len(x) > MAX_LINE for x in lines):
        return None
    return lines
