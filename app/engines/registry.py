"""The engine registry: ids, labels, and lazy construction (SDKs load only when used)."""

from __future__ import annotations

import importlib

from app.core.engine.port import Engine, EngineConfig
from app.engines.catalog import CATALOG, EngineEntry

ENGINES: dict[str, EngineEntry] = {e.id: e for e in CATALOG}


def _load_class(entry: EngineEntry) -> type[Engine]:
    module_name, _, class_name = entry.target.partition(":")
    cls: type[Engine] = getattr(importlib.import_module(module_name), class_name)
    return cls

# Engines registered at run time (tests register scripted engines here).
_EXTRA: dict[str, type[Engine]] = {}


def register(engine_class: type[Engine]) -> None:
    _EXTRA[engine_class.id] = engine_class


def engine_ids() -> list[str]:
    return list(ENGINES) + [i for i in _EXTRA if i not in ENGINES]


class UnknownEngine(ValueError):
    pass


def engine_class(engine_id: str) -> type[Engine]:
    if engine_id in _EXTRA:
        return _EXTRA[engine_id]
    entry = ENGINES.get(engine_id)
    if entry is None:
        raise UnknownEngine(
            f"There is no engine called '{engine_id}'. Choose one of: {', '.join(engine_ids())}.")
    return _load_class(entry)


def create_engine(engine_id: str, config: EngineConfig | None = None) -> Engine:
    return engine_class(engine_id)(config)
