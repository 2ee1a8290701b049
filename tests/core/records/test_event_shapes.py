"""Every event's shape is fixed: its fields in their order, its JSON schema and the bytes it is
written as. events.jsonl is read back by older and newer versions, so a tidy-up of the models
(shared bases for the fields several events carry) must leave all three exactly as they were;
tests/core/data/event_shapes.json holds them as they were before the bases."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from app.core.records.events import Event
from tests.core.records.test_events import ONE_OF_EACH

SHAPES = Path(__file__).parent.parent / "data" / "event_shapes.json"


def current_shapes() -> dict[str, Any]:
    dumped = {type(e).__name__: e.model_dump_json() for e in ONE_OF_EACH}
    return {cls.__name__: {"fields": list(cls.model_fields),
                           "schema": cls.model_json_schema(),
                           "json": dumped[cls.__name__]}
            for cls in Event.__origin__.__args__}  # type: ignore[attr-defined]


def test_every_event_keeps_its_fields_in_order_its_schema_and_its_json_bytes():
    kept = json.loads(SHAPES.read_text(encoding="utf-8"))
    now = current_shapes()
    assert list(now) == list(kept)
    for name, shape in now.items():
        assert shape["fields"] == kept[name]["fields"], name
        assert json.dumps(shape["schema"]) == json.dumps(kept[name]["schema"]), name
        assert shape["json"] == kept[name]["json"], name


if __name__ == "__main__":  # `python -m tests.core.records.test_event_shapes`: a deliberate new shape
    SHAPES.write_text(json.dumps(current_shapes(), indent=1) + "\n", encoding="utf-8")
