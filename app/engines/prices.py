"""Token prices per engine and model: the bundled table, with the person's overrides on top."""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from app.core.engine.conversation import Usage
from app.core.engine.port import Engine
from app.core.resources import resource_path
from app.core.places import config_dir
from app.core.web.types import WebActivity

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
    # The model is not in the table, so it is priced at the highest price the table knows
    # for its engine, field by field: what it costs is at most what is counted.
    upper_estimate: bool
    entry: str       # the table entry used: a model name, or HIGHEST (or "default": free)


HIGHEST = "highest"
_FIELDS = ("input", "output", "cache_read", "cache_write")


@dataclass
class _Table:
    defaults: dict[str, Price]
    models: dict[str, dict[str, Price]]
    warning: str | None = None
    # "web_per_1000": per engine, US dollars per 1,000 lookups
    web: dict[str, dict[str, Any]] = field(default_factory=dict)


_lock = threading.Lock()
_cached: tuple[tuple[Any, ...], _Table] | None = None
ZERO = Price()


def bundled_path() -> Path:
    return resource_path("prices.json")


def override_path() -> Path:
    """The person's own price file; entries there win over the bundled table."""
    return config_dir() / "prices.json"


def _stamp(path: Path) -> tuple[Any, ...]:
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
    bundled = json.loads(bundled_path().read_text(encoding="utf-8"))
    _merge(table, bundled, strict=True)
    table.web = {k: dict(v) for k, v in (bundled.get("web_per_1000") or {}).items()
                 if isinstance(v, dict)}
    path = override_path()
    if path.exists():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            skipped = _merge(table, data, strict=False)
            skipped += _merge_web(table, data)
        except (OSError, ValueError) as exc:
            skipped = [f"it is not valid JSON ({exc.__class__.__name__})"]
        if skipped:
            # A typo in the person's file must not stop a run; it is reported instead.
            table.warning = (f"Some entries of your price file {path} were ignored: "
                             f"{', '.join(skipped)}. The bundled prices are used for them.")
    return table


def _merge_web(table: _Table, data: object) -> list[str]:
    """The person's web prices over the bundled ones, field by field; what was skipped."""
    section = data.get("web_per_1000") if isinstance(data, dict) else None
    if not isinstance(section, dict):
        return []
    skipped = []
    for engine_id, fields in section.items():
        if not isinstance(fields, dict):
            continue  # "about" and the like
        good = {k: float(v) for k, v in fields.items() if k in ("search", "fetch")
                and isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0}
        if len(good) < sum(1 for k in fields if k in ("search", "fetch")):
            skipped.append(f"web_per_1000/{engine_id}")
        table.web.setdefault(engine_id, {}).update(good)
    return skipped


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


def _highest(default: Price, models: dict[str, Price]) -> Price:
    """The highest price of each kind of token the table knows for one engine (its default
    included), taken field by field: no model of the engine costs more of any kind."""
    known = [default, *models.values()]
    return Price(**{name: max(getattr(p, name) for p in known) for name in _FIELDS})


def price_for(engine_id: str, model: str) -> PriceQuote:
    """The price a model's turns are counted at. A model the table does not know is counted
    at the engine's highest known price (an upper estimate), never a cheaper guess: the
    budget stop may then stop early, but never lets a run spend past it."""
    table = _table()
    models = table.models.get(engine_id, {})
    name = (model or "").strip()
    for candidate in (name, _SNAPSHOT.sub("", name)):
        if candidate in models:
            return PriceQuote(models[candidate], upper_estimate=False, entry=candidate)
    default = table.defaults.get(engine_id)
    if default is None:
        # An engine the table does not know (e.g. one registered by a test) costs nothing.
        return PriceQuote(ZERO, upper_estimate=False, entry="default")
    if default == ZERO and not models:  # local and demo: free, not an estimate
        return PriceQuote(default, upper_estimate=False, entry="default")
    return PriceQuote(_highest(default, models), upper_estimate=True, entry=HIGHEST)


def cost_usd(engine_id: str, model: str, usage: Usage) -> float:
    """What one model turn cost, in US dollars, at list prices."""
    p = price_for(engine_id, model).price
    total = (usage.input_tokens * p.input + usage.output_tokens * p.output
             + usage.cache_read_tokens * p.cache_read + usage.cache_write_tokens * p.cache_write)
    return round(total / PER_TOKENS, 8)


def price_known(engine_id: str, model: str) -> bool:
    """Whether this model's price is in the table (or its engine costs nothing).

    False means its cost is an upper estimate at the engine's highest known price, which
    the records, the window, `status`, `run` and the exports say instead of presenting it
    as the bill. An engine the table does not know charges nothing: nothing to flag."""
    return not price_for(engine_id, model).upper_estimate


def web_prices(engine_id: str) -> tuple[float, float]:
    """US dollars per 1,000 (searches, fetches) the engine's service runs for the model: the
    table's "web_per_1000" (the bundled one's sources say where each was read; the person's
    price file may change them); (0, 0) for an engine that cannot look things up."""
    entry = (_table().web or {}).get(engine_id) or {}
    return float(entry.get("search") or 0.0), float(entry.get("fetch") or 0.0)


def web_cost_usd(engine_id: str, web: WebActivity | None) -> float:
    """What a turn's searches and fetches cost beyond their tokens."""
    if web is None or not web.lookups:
        return 0.0
    search, fetch = web_prices(engine_id)
    return round((web.search_count * search + web.fetch_count * fetch) / 1000, 8)


class PricedEngine(Engine):
    """An engine whose turns cost money, priced from the table (the person can edit it)."""

    def cost_usd(self, usage: Usage) -> float:
        return cost_usd(self.id, self.model, usage)

    def web_cost_usd(self, web: WebActivity | None) -> float:
        return web_cost_usd(self.id, web)

    def cost_is_upper_estimate(self) -> bool:
        return not price_known(self.id, self.model)
