"""Per-user settings (engine, model, limits, recent workspaces) in the platform's config dir."""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError

from app.core.files import atomic_write_json, read_json

APP_DIR_NAME = "harness-desk"
CONFIG_ENV = "HARNESS_DESK_CONFIG_DIR"  # lets tests and portable installs pick the folder


class Limits(BaseModel):
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


class EngineSettings(BaseModel):
    model: str = ""
    base_url: str = ""


class Settings(BaseModel):
    engine: str = "demo"
    engines: dict[str, EngineSettings] = Field(default_factory=dict)
    limits: Limits = Field(default_factory=Limits)
    demo_delay_s: float = Field(0.0, ge=0, le=10)
    recent_workspaces: list[str] = Field(default_factory=list)
    ui: dict = Field(default_factory=dict)

    def engine_settings(self, engine_id: str) -> EngineSettings:
        return self.engines.get(engine_id, EngineSettings())


def config_dir() -> Path:
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override)
    from platformdirs import user_config_dir

    return Path(user_config_dir(APP_DIR_NAME, appauthor=False))


def settings_path() -> Path:
    return config_dir() / "settings.json"


class SettingsLoad(BaseModel):
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
    except (ValidationError, ValueError):
        backup = path.with_name("settings.damaged.json")
        if backup.exists():  # keep every damaged copy: the person may want an old one back
            from datetime import datetime

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
