"""The Demo engine's steps: a tool call for reading, writing and finishing, and what it read."""

from __future__ import annotations

import re
from typing import Any

Plan = list[tuple[str, dict[str, Any]]]


def read_step(path: str) -> tuple[str, dict[str, Any]]:
    return ("read_file", {"path": path})


def write_step(path: str, content: str) -> tuple[str, dict[str, Any]]:
    return ("write_file", {"path": path, "content": content})


def done_step(summary: str, target: str) -> tuple[str, dict[str, Any]]:
    return ("complete_task", {"summary": summary, "evidence": [target]})


def answer_to(decisions: list[str], topic: str) -> str | None:
    """The person's answer to the decision about `topic`, from the progress report's lines."""
    for line in decisions:
        if topic in line.lower() and "Answer:" in line:
            return line.rsplit("Answer:", 1)[1].strip()
    return None


def line_after(seen: str, label: str) -> str | None:
    """The sentence that follows a bold label in the brief, joined across wrapped lines."""
    text = " ".join(re.sub(r"^\s*\d+[\t:|]\s?", "", ln).strip() for ln in seen.splitlines())
    match = re.search(re.escape(label) + r"\*\*\s*(.+?)(?=\s\*\*|$)", text)
    return match.group(1).strip() if match else None
