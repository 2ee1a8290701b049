"""The budget per run's rules (no Qt: the window's core calls use them too).

Claude and OpenAI charge for every run. Until the person chooses a budget in Settings (or
before the first paid run in a folder, app.gui.settings.budget), the window's runs stop at
DEFAULT_BUDGET_USD; the Demo and local engines cost nothing, so a budget never stops them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.core.settings import Limits, Settings

DEFAULT_BUDGET_USD = 2.0
PAID_ENGINES = ("anthropic", "openai")
CHOSEN = "budget_chosen"  # in Settings.ui: the person has set the budget (on or off) themselves


def chosen(settings: Settings) -> bool:
    return bool(settings.ui.get(CHOSEN)) or settings.limits.budget_usd is not None


def budget_of(settings: Settings) -> float | None:
    """The budget per run in US dollars the window's runs use (None: no budget)."""
    return settings.limits.budget_usd if chosen(settings) else DEFAULT_BUDGET_USD


def run_limits(settings: Settings) -> Limits:
    return settings.limits.model_copy(update={"budget_usd": budget_of(settings)})


def with_budget(settings: Settings, usd: float | None) -> Settings:
    """`settings` with the person's budget (None: no budget), remembered as chosen."""
    limits = settings.limits.model_copy(update={"budget_usd": usd})
    return settings.model_copy(update={"limits": type(limits).model_validate(limits.model_dump()),
                                       "ui": {**settings.ui, CHOSEN: True}})


def first_paid_run(engine_id: str, runs: list) -> bool:
    """True when a run of `engine_id` would be the folder's first run of a paid engine."""
    return engine_id in PAID_ENGINES and not any(
        getattr(run, "engine", "") in PAID_ENGINES for run in runs)
