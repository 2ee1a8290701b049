"""Token prices per engine and model: the bundled table, with the person's overrides on top."""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from app.core.conversation import Usage
from app.core.engine import Engine
from app.core.resources import resource_path
from app.core.settings import config_dir

PER_TOKENS = 1_000_000  # the table is in US dollars per million tokens

# Snapshot suffixes vendors add to a model family's name: claude-…-20250929, gpt-…-2026-04-23.
_SNAPSHOT = re.compile(r"-(?:\d{8}|\d{4}-\d{2}-\d{2}|latest)$")


class Price(BaseModel):
    """US dollars per million tokens of each kind."""

    model_config = ConfigDict(extra="ignore")

    input: float = Field(0.0, ge=0)
    output: float = Field(0.0, ge=0)
    cache_read: float = Field(0.0, ge=0)
    cache_write: float = Field(0.0, ge=0)


@dataclass(frozen=True)
class PriceQuote:
    price: Price
    estimated: bool  # the model is not in the table, so the engine's default price was used
    entry: str       # the table entry used: a model name, or "default"


@dataclass
class _Table:
    defaults: dict[str, Price]
    models: dict[str, dict[str, Price]]
    warning: str | None = None


_lock = threading.Lock()
_cached: tuple[tuple, _Table] | None = None
ZERO = Price()


def bundled_path() -> Path:
    return resource_path("prices.json")


def override_path() -> Path:
    """The person's own price file; entries there win over the bundled table."""
    return config_dir() / "prices.json"


def _stamp(path: Path) -> tuple:
    try:
        st = path.stat()
        return (str(path), st.st_mtime_ns, st.st_size)
    except OSError:
        return (str(path), None, None)


def _merge(table: _Table, data: object, strict: bool) -> list[str]:
    """Merge one file's entries into the table, field by field. Returns what was skipped."""
    skipped: list[str] = []
    engines = data.get("engines") if isinstance(data, dict) else None
    if not isinstance(engines, dict):
        return ["the file has no \"engines\" section"]
    for engine_id, section in engines.items():
        if not isinstance(section, dict):
            skipped.append(engine_id)
            continue
        entries = [("default", section.get("default"))]
        models = section.get("models")
        entries += list(models.items()) if isinstance(models, dict) else []
        for name, fields in entries:
            if fields is None:
                continue
            if name == "default":
                base = table.defaults.get(engine_id, ZERO)
            else:
                base = table.models.get(engine_id, {}).get(name) or table.defaults.get(engine_id, ZERO)
            try:
                if not isinstance(fields, dict):
                    raise ValueError("not an object")
                price = Price.model_validate({**base.model_dump(), **fields})
            except (ValidationError, ValueError):
                if strict:
                    raise
                skipped.append(f"{engine_id}/{name}")
                continue
            if name == "default":
                table.defaults[engine_id] = price
            else:
                table.models.setdefault(engine_id, {})[name] = price
    return skipped


def _load() -> _Table:
    table = _Table(defaults={}, models={})
    _merge(table, json.loads(bundled_path().read_text(encoding="utf-8")), strict=True)
    path = override_path()
    if path.exists():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            skipped = _merge(table, data, strict=False)
        except (OSError, ValueError) as exc:
            skipped = [f"it is not valid JSON ({exc.__class__.__name__})"]
        if skipped:
            # A typo in the person's file must not stop a run; it is reported instead.
            table.warning = (f"Some entries of your price file {path} were ignored: "
                             f"{', '.join(skipped)}. The bundled prices are used for them.")
    return table


def _table() -> _Table:
    global _cached
    key = (_stamp(bundled_path()), _stamp(override_path()))
    with _lock:
        if _cached is None or _cached[0] != key:
            _cached = (key, _load())
        return _cached[1]


def override_warning() -> str | None:
    """A sentence for the person when their price file had entries that could not be used."""
    return _table().warning


def price_for(engine_id: str, model: str) -> PriceQuote:
    table = _table()
    models = table.models.get(engine_id, {})
    name = (model or "").strip()
    for candidate in (name, _SNAPSHOT.sub("", name)):
        if candidate in models:
            return PriceQuote(models[candidate], estimated=False, entry=candidate)
    default = table.defaults.get(engine_id)
    if default is None:
        # An engine the table does not know (e.g. one registered by a test) costs nothing.
        return PriceQuote(ZERO, estimated=True, entry="default")
    free = default == ZERO and not models  # local and demo: free, not an estimate
    return PriceQuote(default, estimated=not free, entry="default")


def cost_usd(engine_id: str, model: str, usage: Usage) -> float:
    """What one model turn cost, in US dollars, at list prices."""
    p = price_for(engine_id, model).price
    total = (usage.input_tokens * p.input + usage.output_tokens * p.output
             + usage.cache_read_tokens * p.cache_read + usage.cache_write_tokens * p.cache_write)
    return round(total / PER_TOKENS, 8)


def price_known(engine_id: str, model: str) -> bool:
    """Whether this model's price is in the table (or its engine costs nothing).

    False means its cost is a guess from the engine's default price, which the window and
    the run summary say instead of presenting the guess as the bill. An engine the table
    does not know charges nothing, so there is nothing to flag."""
    table = _table()
    if engine_id not in table.defaults:
        return True
    return not price_for(engine_id, model).estimated


def is_estimated(engine_id: str, model: str) -> bool:
    """True when the cost of this model is a guess from the engine's default price."""
    return price_for(engine_id, model).estimated


class PricedEngine(Engine):
    """An engine whose turns cost money, priced from the table (the person can edit it)."""

    def cost_usd(self, usage: Usage) -> float:
        return cost_usd(self.id, self.model, usage)
