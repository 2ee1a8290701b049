"""How the computer's scheduler starts this app: the installed program's own command line.

A frozen build (the .deb, the Windows installer, the macOS app) is its own executable; an
installed or checked-out Python package runs as `python -m app` with the interpreter that
runs now (a virtual environment's too), with the package's folder on PYTHONPATH so a
checkout works from any working folder. A folder of settings picked for this process
(HARNESS_DESK_CONFIG_DIR: tests, portable installs) goes with it, so the scheduled run reads
the same schedules.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from app.core.places import CONFIG_ENV, config_dir


def app_command() -> list[str]:
    if getattr(sys, "frozen", False):
        return [sys.executable]
    return [sys.executable, "-m", "app"]


def app_environment() -> dict[str, str]:
    env = {}
    if not getattr(sys, "frozen", False):
        env["PYTHONPATH"] = str(Path(__file__).resolve().parents[3])
    if os.environ.get(CONFIG_ENV):
        env[CONFIG_ENV] = str(config_dir())
    return env


def run_command(folder: str) -> list[str]:
    """What a wake runs: the headless run of the folder, as its schedule says."""
    return [*app_command(), "run", folder, "--scheduled"]


def catch_up_command() -> list[str]:
    """What cron's catch-up wakes run (app.schedulers.cron)."""
    return [*app_command(), "schedule", "--catch-up"]


def output_log(schedule_id: str) -> Path:
    """The last wake's own output (the run's lines), kept for a person who wants to look;
    what it did is in the folder's records either way."""
    return config_dir() / "schedule-output" / f"{schedule_id}.log"
