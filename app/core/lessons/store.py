"""What the person did with each lesson (accepted when, or dismissed), the lessons' stable
numbers and any AI rewording, kept in .harness/lessons.json. Written atomically; a damaged
or unreadable file reads as empty (the lessons come back from the records), never a crash."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import ConfigDict, Field, ValidationError

from app.core.workspace.files import atomic_write_json, read_json
from app.core.records.model import Record

STORE_NAME = "lessons.json"


class Decision(Record):
    model_config = ConfigDict(extra="ignore")

    state: Literal["accepted", "dismissed"]
    at: str                    # when the person accepted or dismissed it (UTC, ISO 8601)
    line: str = ""             # the line written to AGENTS.md, as written


class LessonStore(Record):
    model_config = ConfigDict(extra="ignore")

    version: int = 1
    numbers: dict[str, int] = Field(default_factory=dict)     # cause key -> its number
    decisions: dict[str, Decision] = Field(default_factory=dict)
    reworded: dict[str, str] = Field(default_factory=dict)    # cause key -> the AI's wording

    def number_for(self, key: str) -> int:
        """The key's number, giving it the next free one the first time it is seen."""
        if key not in self.numbers:
            self.numbers[key] = max(self.numbers.values(), default=0) + 1
        return self.numbers[key]


def store_path(harness_dir: Path) -> Path:
    return harness_dir / STORE_NAME


def load_store(harness_dir: Path) -> LessonStore:
    data = read_json(store_path(harness_dir))
    if not isinstance(data, dict):
        return LessonStore()
    try:
        return LessonStore.model_validate(data)
    except ValidationError:
        return LessonStore()


def save_store(harness_dir: Path, store: LessonStore) -> None:
    atomic_write_json(store_path(harness_dir), store.model_dump(mode="json"))
