"""status.json read without pydantic (core/records/status_view.py) reads every record as the Status
model does: its field list is the model's, a record the app writes is read the same without
the model, a record the model refuses is refused, anything else is left to the model."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core.records import status_view as sv
from app.core.engine.conversation import Usage
from app.core.workspace.files import atomic_write_json
from app.core.records.records import ExitReason, RunState, Status, read_status
from app.core.records.redact import redact_obj
from tests.core.records.test_deep_json import DEEP, DEEP_OBJ

ANNOTATIONS = {sv.TEXT_OR_NONE: str | None, sv.COUNT: int, sv.COUNT_OR_NONE: int | None,
               sv.AMOUNT: float, sv.STATE: RunState, sv.REASON: ExitReason | None,
               sv.USAGE: Usage, sv.FLAG: bool}
SETTINGS = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


def test_the_fields_are_the_models_in_order_with_its_types_and_defaults():
    assert list(sv.FIELDS) == list(Status.model_fields)
    for name, (kind, _default) in sv.FIELDS.items():
        assert Status.model_fields[name].annotation == ANNOTATIONS[kind], name
    assert tuple(RunState) == sv.RUN_STATES
    assert tuple(ExitReason) == sv.EXIT_REASONS
    assert set(sv.FINAL_STATES) <= set(sv.RUN_STATES)
    assert set(sv.EXIT_REASON_WORDS) == set(sv.EXIT_REASONS)
    assert list(sv.StatusView._fields) == [*sv.FIELDS, "extra"]
    assert sv.UsageView._fields == sv.USAGE_FIELDS == tuple(Usage.model_fields)
    assert sv.StatusView().as_json() == Status().model_dump(mode="json")
    # The view declares each field's type for type checkers: the model's, in the view's terms.
    in_view = {sv.STATE: "str", sv.REASON: "str | None", sv.USAGE: "UsageView"}
    assert {name: in_view.get(kind, kind) for name, (kind, _) in sv.FIELDS.items()} == {
        name: text for name, text in sv.StatusView.__annotations__.items() if name != "extra"}
    assert set(sv.UsageView.__annotations__) == set(sv.USAGE_FIELDS)
    for name, (_kind, default) in sv.FIELDS.items():
        if name != "usage":
            assert Status.model_fields[name].default == default, name


def _values(kind: str):
    """Valid values of a field of this kind, as the model holds them."""
    text = st.text(max_size=30)
    count = st.integers(min_value=-(2 ** 70), max_value=2 ** 70)
    return {
        sv.TEXT_OR_NONE: st.none() | text,
        sv.COUNT: count,
        sv.COUNT_OR_NONE: st.none() | count,
        sv.AMOUNT: st.floats(allow_nan=False, allow_infinity=False),
        sv.STATE: st.sampled_from(sv.RUN_STATES),
        sv.REASON: st.none() | st.sampled_from(sv.EXIT_REASONS),
        sv.USAGE: st.builds(Usage, **{n: st.integers(0, 10 ** 9) for n in sv.USAGE_FIELDS}),
        sv.FLAG: st.booleans(),
    }[kind]


JSON_LEAVES = (st.none() | st.booleans() | st.integers() | st.text(max_size=12)
               | st.floats(allow_nan=False, allow_infinity=False))
PLAIN_JSON = st.recursive(JSON_LEAVES, lambda inner: st.lists(inner, max_size=3)
                          | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=8)
EXTRA_NAMES = st.text(min_size=1, max_size=12).filter(lambda k: k not in sv.FIELDS)

valid_statuses = st.fixed_dictionaries(
    {name: _values(kind) for name, (kind, _) in sv.FIELDS.items()}
).flatmap(lambda fields: st.dictionaries(EXTRA_NAMES, PLAIN_JSON, max_size=3).map(
    lambda extra: Status(**fields, **extra)))


def _dumps(value) -> str:  # NaN-safe comparison of two records
    return json.dumps(value, sort_keys=True)


@SETTINGS
@given(status=valid_statuses)
def test_every_record_the_app_writes_is_read_the_same_without_the_model(tmp_path, status):
    path = tmp_path / "status.json"
    atomic_write_json(path, redact_obj(status.model_dump(mode="json")), sync=False)
    by_model, warning = read_status(path)
    assert warning is None
    # Never left to the model: the light path alone reads it.
    view = sv.parse_status(json.loads(path.read_text(encoding="utf-8")))
    assert view.as_json() == by_model.model_dump(mode="json")
    assert sv.read_status_view(path) == (view, None)


# What a person's editor or a damaged disk may leave: the right names with any values,
# numbers as text, whole floats, booleans, non-finite numbers, nesting, unknown names.
ODD_VALUES = (JSON_LEAVES | st.sampled_from([float("nan"), float("inf"), -float("inf"), "3",
                                             " 7 ", "1.5", "1e3", "done", "running", "x", True,
                                             False, 2.0, 2.5, [], {}, [1], {"input_tokens": 1}])
              | st.sampled_from(sv.RUN_STATES + sv.EXIT_REASONS)
              | st.dictionaries(st.sampled_from(sv.USAGE_FIELDS + ("other",)), JSON_LEAVES
                                | st.sampled_from(["4", 4.0, True, None, float("nan")]),
                                max_size=4)
              | PLAIN_JSON)
odd_records = st.dictionaries(st.sampled_from(list(sv.FIELDS)) | EXTRA_NAMES, ODD_VALUES,
                              max_size=8)


@SETTINGS
@given(data=odd_records)
def test_any_record_is_judged_as_the_model_judges_it(tmp_path, data):
    try:
        by_model = Status.model_validate(data).model_dump(mode="json")
    except Exception:  # noqa: BLE001 - ValidationError or RecursionError: refused
        by_model = None
    try:
        light = sv.parse_status(data).as_json()
    except sv._Refused:
        assert by_model is None, f"refused what the model reads: {data!r}"
    except sv._Unsure:
        pass  # the model's own call, below
    else:
        assert by_model is not None, f"read what the model refuses: {data!r}"
        assert _dumps(light) == _dumps(by_model)
    # Whichever way it went, the command reads what the model reads, in the same words.
    path = tmp_path / "status.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    view, warning = sv.read_status_view(path)
    status, model_warning = read_status(path)
    assert warning == model_warning
    assert _dumps(view.as_json()) == _dumps(status.model_dump(mode="json"))


@pytest.mark.parametrize("record", [
    {"state": "finished"}, {"state": "Done"}, {"state": None}, {"state": 1},
    {"exit_reason": "tired"}, {"round": [1]}, {"round": None}, {"cost_usd": {}},
    {"run_id": 7}, {"run_id": True}, {"message": ["a"]}, {"usage": "lots"}, {"usage": None},
    {"usage": {"input_tokens": "many"}}, {"pid": 2.5}, {"step": "three"},
    {"cost_is_upper_estimate": None}, {"cost_is_upper_estimate": [True]},
    {"cost_is_upper_estimate": "perhaps"},
], ids=repr)
def test_a_record_both_refuse_reads_as_damaged_in_one_sentence(tmp_path, record):
    path = tmp_path / "status.json"
    path.write_text(json.dumps({"run_id": "r1", "state": "done", **record}), encoding="utf-8")
    assert read_status(path) == (Status(), sv.DAMAGED)
    assert sv.read_status_view(path) == (sv.StatusView(), sv.DAMAGED)
    assert sv.DAMAGED.count(".") == 1 and sv.DAMAGED.endswith(".")


@pytest.mark.parametrize("content", [b"\x00\xff garbage", b'{"run_id": "x", "sta', b"",
                                     b"[1, 2]", b'"done"', DEEP.encode(), DEEP_OBJ.encode(),
                                     ('{"run_id": "x", "e": ' + "[" * 900 + "]" * 900
                                      + "}").encode()],
                         ids=["garbage", "truncated", "empty", "a list", "a string", "deep list",
                              "deep object", "deep extra field"])
def test_a_damaged_file_reads_alike(tmp_path, content):
    path = tmp_path / "status.json"
    path.write_bytes(content)
    status, warning = read_status(path)
    view, light_warning = sv.read_status_view(path)
    assert light_warning == warning
    assert view.as_json() == status.model_dump(mode="json")


def test_odd_but_acceptable_values_are_read_as_the_model_reads_them(tmp_path):
    path = tmp_path / "status.json"
    path.write_text('{"run_id": "r", "state": "done", "round": "3", "step": 2.0, '
                    '"cost_usd": 1, "pid": true, "usage": {"input_tokens": "5"}, '
                    '"note": NaN}', encoding="utf-8")
    view, warning = sv.read_status_view(path)
    assert warning is None
    assert (view.round, view.step, view.cost_usd, view.pid) == (3, 2, 1.0, 1)
    assert type(view.cost_usd) is float and view.usage.total_tokens == 5
    assert view.extra == {"note": None}  # as the model dumps a non-finite extra
    assert view.as_json() == read_status(path)[0].model_dump(mode="json")


def test_a_missing_file_is_idle_without_a_warning(tmp_path):
    assert sv.read_status_view(tmp_path / "none.json") == (sv.StatusView(), None)
    assert sv.StatusView().state == "idle" and sv.StatusView().run_id is None


def test_the_light_reader_needs_no_pydantic(tmp_path):
    import subprocess
    import sys

    path = tmp_path / "status.json"
    atomic_write_json(path, Status(run_id="r", state="running", round=2, pid=1,
                                   usage=Usage(input_tokens=3)).model_dump(mode="json"))
    code = ("import sys\nfrom pathlib import Path\n"
            "from app.core.records.status_view import read_status_view\n"
            "view, warning = read_status_view(Path(sys.argv[1]))\n"
            "assert (view.state, view.round, warning) == ('running', 2, None), view\n"
            "assert 'pydantic' not in sys.modules, sorted(sys.modules)\n")
    res = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr

