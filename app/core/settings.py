"""Per-user settings (engine, model, limits, recent workspaces) in the platform's config dir."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError, field_validator


from app.core.records.model import Record
from app.core.errors import UsageError
from app.core.workspace.files import atomic_write_json, read_json

from app.core.web.types import DEFAULT_MAX_LOOKUPS
from app.core.places import APP_DIR_NAME, CONFIG_ENV as CONFIG_ENV, config_dir as config_dir  # noqa: F401 (re-exported)

LANGUAGES = ("system", "en", "zh_CN")  # the `language` setting's values
LOOKS = ("system", "light", "dark")     # the `look` setting's values


class Limits(Record):
    max_steps: int = Field(25, ge=1, le=500)
    max_rounds: int = Field(50, ge=1, le=10_000)
    stall_limit: int = Field(2, ge=1, le=100)
    max_attempts: int = Field(3, ge=1, le=100)
    round_seconds: float = Field(600.0, gt=0)
    max_engine_failures: int = Field(3, ge=1, le=100)
    budget_usd: float | None = Field(None, ge=0)
    budget_tokens: int | None = Field(None, ge=0)
    max_retry_wait_s: float = Field(300.0, ge=0)  # total time one step may wait on retries
    retry_base_s: float = Field(2.0, ge=0)        # first backoff delay; doubles, with jitter
    max_retries: int = Field(5, ge=0, le=20)      # attempts after the first, per model call
    # Web lookups, on tasks that may look things up: searches and fetches one
    # task may make in a run (its round stops when they are used up), and the sites the
    # services may search and read: only `web_allowed_domains` when any, never
    # `web_blocked_domains`.
    max_lookups: int = Field(DEFAULT_MAX_LOOKUPS, ge=1, le=500)
    web_allowed_domains: list[str] = Field(default_factory=list)
    web_blocked_domains: list[str] = Field(default_factory=list)

    @field_validator("web_allowed_domains", "web_blocked_domains", mode="before")
    @classmethod
    def _domains(cls, value: object) -> object:
        return clean_domains(value)

    def with_overrides(self, **values: object) -> "Limits":
        """These limits with some replaced (None leaves a limit as it is), validated.

        Raises LimitError naming the first bad limit; TypeError for a name that is no limit.
        """
        unknown = sorted(set(values) - set(type(self).model_fields))
        if unknown:
            raise TypeError(f"not a limit: {', '.join(unknown)}")
        data = self.model_dump()
        data.update({k: v for k, v in values.items() if v is not None})
        try:
            return type(self).model_validate(data)
        except ValidationError as err:
            raise LimitError.from_validation(err) from None


# Each limit as a person reads it, for sentences about a bad value.
LIMIT_WORDS = {
    "max_steps": "Steps per round", "max_rounds": "Rounds per run",
    "stall_limit": "Rounds without progress", "max_attempts": "Tries per task",
    "round_seconds": "Seconds per round", "max_engine_failures": "Engine failures in a row",
    "budget_usd": "The budget in US dollars", "budget_tokens": "The budget in tokens",
    "max_retry_wait_s": "Seconds to wait on retries", "retry_base_s": "The first retry delay",
    "max_retries": "Retries per model call", "max_lookups": "Web lookups per task",
}


def clean_domains(value: object) -> list[str]:
    """Sites as the services take them (a site covers its subdomains there):
    "https://www.Example.com/x" -> "example.com";
    blanks and repeats dropped (a list of anything else reads as none)."""
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    if not isinstance(value, (list, tuple)):
        return []
    out: list[str] = []
    for item in value:
        if not isinstance(item, str):
            continue
        host = item.strip().lower().split("://", 1)[-1].split("/", 1)[0].strip(".")
        host = host[4:] if host.startswith("www.") else host  # the site, its subdomains too
        if host and host not in out:
            out.append(host)
    return out


class LimitError(UsageError):
    """A limit was given a value it cannot take.

    `field` is the limit's name (`max_steps`), `message` a sentence for the person
    ("Steps per round must be at most 500."), `reason` the bare validation wording the
    command line puts after its flag ("input should be less than or equal to 500").
    """

    def __init__(self, field: str, message: str, reason: str = ""):
        super().__init__(message)
        self.field = field
        self.reason = reason or message

    @classmethod
    def from_validation(cls, err: ValidationError) -> "LimitError":
        problem = err.errors()[0]
        field = str(problem["loc"][0]) if problem.get("loc") else ""
        ctx = problem.get("ctx") or {}
        kind = problem.get("type", "")
        if kind == "less_than_equal":
            rule = f"must be at most {ctx['le']:g}"
        elif kind == "greater_than_equal":
            rule = f"must be at least {ctx['ge']:g}"
        elif kind == "greater_than":
            rule = f"must be more than {ctx['gt']:g}"
        elif kind.startswith("int_"):
            rule = "must be a whole number"
        elif kind.startswith("float_"):
            rule = "must be a number"
        else:
            rule = "has a value that cannot be used"
        words = LIMIT_WORDS.get(field, field.replace("_", " ").capitalize() or "A limit")
        return cls(field, f"{words} {rule}.", problem["msg"].lower())


class EngineSettings(Record):
    model: str = ""
    base_url: str = ""


class Settings(Record):
    engine: str = "demo"
    engines: dict[str, EngineSettings] = Field(default_factory=dict)
    limits: Limits = Field(default_factory=Limits)
    demo_delay_s: float = Field(0.0, ge=0, le=10)
    recent_workspaces: list[str] = Field(default_factory=list)
    language: Literal["system", "en", "zh_CN"] = "system"  # "system": follow the system's
    look: Literal["system", "light", "dark"] = "system"     # the window's light or dark look
    ui: dict[str, Any] = Field(default_factory=dict)

    @field_validator("look", mode="before")
    @classmethod
    def _known_look(cls, value: object) -> object:
        return value if value in LOOKS else "system"

    @field_validator("language", mode="before")
    @classmethod
    def _known_language(cls, value: object) -> object:
        # A language this version does not know (a newer version's file) follows the system
        # rather than resetting every other setting as a damaged file would.
        return value if value in LANGUAGES else "system"

    def engine_settings(self, engine_id: str) -> EngineSettings:
        return self.engines.get(engine_id, EngineSettings())


def settings_path() -> Path:
    return config_dir() / "settings.json"


class SettingsLoad(Record):
    settings: Settings
    warning: str | None = None  # set when a damaged file was reset; shown to the person once


def load_settings() -> SettingsLoad:
    """Load settings; a missing file gives defaults, a damaged one is kept aside and reset."""
    path = settings_path()
    if not path.exists():
        return SettingsLoad(settings=Settings())
    data = read_json(path)
    try:
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        return SettingsLoad(settings=Settings.model_validate(data))
    except (ValidationError, ValueError, RecursionError):
        backup = path.with_name("settings.damaged.json")
        if backup.exists():  # keep every damaged copy: the person may want an old one back
            backup = path.with_name(f"settings.damaged-{datetime.now():%Y%m%d-%H%M%S}.json")
        try:
            os.replace(path, backup)
        except OSError:
            pass
        return SettingsLoad(
            settings=Settings(),
            warning=f"Your settings file could not be read, so defaults are in use. "
                    f"The old file was kept as {backup.name}.")


def save_settings(settings: Settings) -> None:
    atomic_write_json(settings_path(), settings.model_dump(mode="json"))
