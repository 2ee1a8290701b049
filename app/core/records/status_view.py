"""status.json read without pydantic, for `harness-desk status`: typed, validated, and light.

Importing pydantic costs a command more than everything else it does, and `status` reads one
small record. Two measured rows need this reader (measured 2026-12-05 with records.read_status,
the `Status` model, in its place, interleaved in one run, load average 2.1-2.5):
- `status_vs_python` (bench/status_latency.py, target <= +100 ms over `python -c pass`): +24 ms
  with this reader, +293 ms with the model (pydantic alone: +209 ms);
- `startup_window` (bench/startup.py): the window reads a folder's status before it is usable
  (app/gui/folder/workspace_info.py, tests/gui/test_startup_reads.py); with the model, pydantic
  loads first and the usable window comes 96 ms later (median of 9: 571 ms, not 475).

It reads the same fields as the `Status` model (app/core/records/records.py), with the same
defaults, checked by hand. The model stays the one source of truth: it writes the file, and
tests/core/records/test_status_view.py proves that the two read every record alike and that
FIELDS is the model's field list.

Each value gets one of three verdicts. The exact JSON type a field holds when the model
writes it is taken as it is. A value pydantic can never accept (a list for a number, a
word that is no run state) makes the file damaged, as it does for the model. Anything
in between (a number as a string, a whole float for a count, a non-finite number) is
left to the model itself, whose lax rules are not worth copying: the file is then read
by records.read_status, pydantic and all. A file the app wrote never takes that way.
"""

from __future__ import annotations

import math
from collections import namedtuple
from pathlib import Path

from app.core.workspace.files import read_json
from app.core.run.outcomes import FINAL_STATES as FINAL_STATES  # re-exported: read with the status
from app.core.run.outcomes import DAMAGED as DAMAGED  # re-exported: read with the status
from app.core.run.outcomes import EXIT_REASON_WORDS as EXIT_REASON_WORDS  # likewise
from app.core.run.outcomes import ExitReason, RunState

# Not `typing`: importing it costs `status` 5-8 ms; type checkers read this as they read
# typing.TYPE_CHECKING.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

RUN_STATES = tuple(state.value for state in RunState)
EXIT_REASONS = tuple(reason.value for reason in ExitReason)


# The kinds of value a field holds, as the model declares them.
TEXT_OR_NONE, COUNT, COUNT_OR_NONE, AMOUNT, STATE, REASON, USAGE, FLAG = (
    "str | None", "int", "int | None", "float", "RunState", "ExitReason | None", "Usage", "bool")

# Status's fields in the model's order: (kind, default). A test holds it to the model.
FIELDS: dict[str, tuple[str, Any]] = {
    "run_id": (TEXT_OR_NONE, None),
    "state": (STATE, RunState.IDLE.value),
    "current_task": (TEXT_OR_NONE, None),
    "round": (COUNT, 0),
    "step": (COUNT, 0),
    "max_steps": (COUNT, 0),
    "completed_tasks": (COUNT, 0),
    "total_tasks": (COUNT, 0),
    "last_event": (TEXT_OR_NONE, None),
    "exit_reason": (REASON, None),
    "message": (TEXT_OR_NONE, None),
    "started_at": (TEXT_OR_NONE, None),
    "updated_at": (TEXT_OR_NONE, None),
    "finished_at": (TEXT_OR_NONE, None),
    "engine": (TEXT_OR_NONE, None),
    "model": (TEXT_OR_NONE, None),
    "usage": (USAGE, None),  # UsageView()
    "cost_usd": (AMOUNT, 0.0),
    "next_attempt_at": (TEXT_OR_NONE, None),
    "step_tokens": (COUNT, 0),
    "pid": (COUNT_OR_NONE, None),
    "cost_is_upper_estimate": (FLAG, False),
}
_PLAIN_DEPTH = 32  # extra fields nested deeper are the model's to judge
USAGE_FIELDS = ("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens")


class _Unsure(Exception):
    """The value is one only the model can judge (it may coerce it)."""


class _Refused(Exception):
    """The value is one the model refuses too."""


# The two named tuples as a type checker reads them: their fields, typed, with their
# defaults. The classes below declare the same fields again: what the view says at run time
# (tests/core/records/test_status_view.py holds it to the model).
if TYPE_CHECKING:
    from typing import NamedTuple

    class _UsageTuple(NamedTuple):
        input_tokens: int = 0
        output_tokens: int = 0
        cache_read_tokens: int = 0
        cache_write_tokens: int = 0
else:
    _UsageTuple = namedtuple("UsageView", USAGE_FIELDS, defaults=(0,) * len(USAGE_FIELDS))


class UsageView(_UsageTuple):
    """Usage's token counts."""

    __slots__ = ()
    input_tokens: int
    output_tokens: int
    cache_read_tokens: int
    cache_write_tokens: int

    @property
    def total_tokens(self) -> int:
        return (self.input_tokens + self.output_tokens
                + self.cache_read_tokens + self.cache_write_tokens)


_DEFAULTS = [UsageView() if kind == USAGE else default for kind, default in FIELDS.values()]


if TYPE_CHECKING:
    class _StatusTuple(NamedTuple):
        run_id: str | None = None
        state: str = "idle"  # one of RUN_STATES
        current_task: str | None = None
        round: int = 0
        step: int = 0
        max_steps: int = 0
        completed_tasks: int = 0
        total_tasks: int = 0
        last_event: str | None = None
        exit_reason: str | None = None  # one of EXIT_REASONS
        message: str | None = None
        started_at: str | None = None
        updated_at: str | None = None
        finished_at: str | None = None
        engine: str | None = None
        model: str | None = None
        usage: UsageView = UsageView()
        cost_usd: float = 0.0
        next_attempt_at: str | None = None
        step_tokens: int = 0
        pid: int | None = None
        cost_is_upper_estimate: bool = False
        extra: dict[str, Any] | None = None  # fields this version does not know, as they were
else:
    _StatusTuple = namedtuple("StatusView", [*FIELDS, "extra"], defaults=[*_DEFAULTS, None])


class StatusView(_StatusTuple):
    """What status.json says, field for field as the Status model reads it, with FIELDS'
    defaults. Immutable: a changed view is made with _replace. (A named tuple, not a
    dataclass or typing.NamedTuple: importing those costs `status` 5-15 ms each.)"""

    __slots__ = ()
    run_id: str | None
    state: str  # one of RUN_STATES
    current_task: str | None
    round: int
    step: int
    max_steps: int
    completed_tasks: int
    total_tasks: int
    last_event: str | None
    exit_reason: str | None  # one of EXIT_REASONS
    message: str | None
    started_at: str | None
    updated_at: str | None
    finished_at: str | None
    engine: str | None
    model: str | None
    usage: UsageView
    cost_usd: float
    next_attempt_at: str | None
    step_tokens: int
    pid: int | None
    cost_is_upper_estimate: bool
    extra: dict[str, Any] | None  # fields this version does not know, as they were

    def as_json(self) -> dict[str, Any]:
        """The record as `Status.model_dump(mode="json")` gives it."""
        out = {name: getattr(self, name) for name in FIELDS}
        out["usage"] = dict(zip(USAGE_FIELDS, self.usage))
        out.update(self.extra or {})
        return out


def read_status_view(path: Path) -> tuple[StatusView, str | None]:
    """Read status.json as records.read_status does: a missing file is idle; a damaged one
    reads as idle with the sentence DAMAGED."""
    if not path.exists():
        return StatusView(), None
    data = read_json(path)
    try:
        return parse_status(data), None
    except _Refused:
        return StatusView(), DAMAGED
    except _Unsure:
        from app.core.records.records import read_status  # noqa: PLC0415 - `status` stays light (no pydantic)

        status, warning = read_status(path)
        return view_of(status.model_dump(mode="json")), warning


def parse_status(data: Any) -> StatusView:
    """The view of a decoded status.json; raises _Refused or _Unsure (see the docstring)."""
    if not isinstance(data, dict):
        raise _Refused
    values: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    for name, value in data.items():
        if name in FIELDS:
            values[name] = _checked(FIELDS[name][0], value)
        else:
            _plain(value)
            extra[name] = value
    return StatusView(**values, extra=extra or None)


def view_of(dumped: dict[str, Any]) -> StatusView:
    """The view of what the model dumped (mode="json"): taken as it is, the model has judged."""
    values = {name: value for name, value in dumped.items() if name in FIELDS}
    values["usage"] = UsageView(**{name: dumped["usage"][name] for name in USAGE_FIELDS})
    extra = {name: value for name, value in dumped.items() if name not in FIELDS}
    return StatusView(**values, extra=extra or None)


def _checked(kind: str, value: Any) -> Any:
    if kind == USAGE:
        if not isinstance(value, dict):
            raise _Refused
        # Usage ignores fields it does not know, as the model does.
        return UsageView(**{k: _checked(COUNT, v) for k, v in value.items() if k in USAGE_FIELDS})
    if value is None:
        if kind in (TEXT_OR_NONE, COUNT_OR_NONE, REASON):
            return None
        raise _Refused
    if isinstance(value, (list, dict)):
        raise _Refused  # never a scalar, to the model either
    if kind == TEXT_OR_NONE:
        if type(value) is str:
            return value
        raise _Refused  # the model turns no number or boolean into text
    if kind in (STATE, REASON):
        if type(value) is not str:
            raise _Refused
        if value in (RUN_STATES if kind == STATE else EXIT_REASONS):
            return value
        raise _Refused
    if kind in (COUNT, COUNT_OR_NONE) and type(value) is int:
        return value
    if kind == AMOUNT and type(value) is float and math.isfinite(value):
        return value
    if kind == FLAG and type(value) is bool:
        return value
    raise _Unsure  # "3" or 3.0 for a count, 3 for an amount, true, NaN: the model's call


def _plain(value: Any, depth: int = 0) -> None:
    """An extra field is kept as it is, unless it holds what the model would dump otherwise
    (a non-finite number becomes null) or nests deeper than it would bother to (at some
    depth its dump fails, and the file is damaged)."""
    if isinstance(value, float) and not math.isfinite(value):
        raise _Unsure
    if isinstance(value, (dict, list)):
        if depth >= _PLAIN_DEPTH:
            raise _Unsure
        for item in value.values() if isinstance(value, dict) else value:
            _plain(item, depth + 1)
