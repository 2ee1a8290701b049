"""The window's calls into the core and engines (the services), in one place.

Every function here may touch disk, the keychain or the network: the window calls them only
through `app.gui.background` (or from the run's worker thread), never on the UI thread.
Nothing here imports Qt.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from app.engines.catalog import CATALOG
from app.gui.settings import language

if TYPE_CHECKING:  # imported when called: the window shows before pydantic and the engines load
    from app.core.board.board import Task
    from app.core.board.decide import Decided
    from app.core.engine.port import Availability, Engine
    from app.core.settings import Limits, Settings
    from app.engines.catalog import EngineEntry


def engine_choices() -> list[EngineEntry]:
    """The engines the window offers, in the order of the dropdown: the engines' catalog
    itself, which loads no engine module (the dropdown is built right after the first
    paint, on the UI thread)."""
    return list(CATALOG)


def engine_readiness(engine_id: str, settings: Settings | None = None) -> Availability:
    """Whether the engine can run now, and why not in one sentence; never raises."""
    from app.engines.setup import engine_readiness as readiness  # noqa: PLC0415 - window start-up (bench/startup.py)

    return readiness(engine_id, settings)


def build_engine(settings: Settings, root: Path, engine_id: str, *, model: str | None = None,
                 demo_delay: float | None = None) -> Engine:
    """The engine for a run (imports its SDK: call it on the run's thread)."""
    from app.engines.setup import build_engine as build  # noqa: PLC0415 - window start-up (bench/startup.py)

    return build(settings, root, engine_id, model=model or None, demo_delay=demo_delay)


def run_limits(settings: Settings) -> Limits:
    """The limits of a run from the window: the budget per run is on until the person
    chooses (app.gui.settings.budget)."""
    from app.gui.settings.budget_rules import run_limits as with_default_budget  # noqa: PLC0415 - window start-up (bench/startup.py)

    return with_default_budget(settings)


def open_decision(root: Path) -> Task | None:
    """The first unanswered HUMAN task on the board, or None."""
    from app.core.board.decide import open_decision as first_open  # noqa: PLC0415 - window start-up (bench/startup.py)

    return first_open(root)


def decide(root: Path, answer: str, task_text: str | None = None) -> Decided:
    """Write the person's answer to a decision (the one named, else the first open one)."""
    from app.core.board.decide import decide as answer_decision  # noqa: PLC0415 - window start-up (bench/startup.py)

    return answer_decision(root, answer, task_text=task_text)


def create_board(root: Path, lang: str | None = None) -> Path:
    """TASKS.md from the template in the window's language (`lang`, else the one it shows
    now), and .harness/, in a folder that has none. A folder gone meanwhile is never made
    again: FolderGone."""
    from app.core.board.board import template  # noqa: PLC0415 - window start-up (bench/startup.py)
    from app.core.workspace.workspace import init_workspace  # noqa: PLC0415 - window start-up (bench/startup.py)

    ws, _created = init_workspace(root, template=template(lang or language.current()),
                                  make_folder=False)
    return ws.board_path


def export_summary(root: Path, fmt: str, output: Path, run_id: str | None = None,
                   lang: str | None = None) -> Path:
    """The summary document, written in the window's language (`lang`, else the one the
    window shows now)."""
    from app.export.service import export_summary as export  # noqa: PLC0415 - window start-up (bench/startup.py)

    return export(root, fmt, output, run_id, lang=lang or language.current())


def undo_round(root: Path, round_no: int, run_id: str | None = None):
    """Put back what a round changed (the core's undo; refused while a run is going)."""
    from app.core.undo.undo import undo_round as undo  # noqa: PLC0415 - window start-up (bench/startup.py)

    return undo(root, round_no, run_id)


def keychain_backend(timeout_s: float = 5.0) -> tuple[str, bool, str]:
    """(the active keyring backend's class, usable, a sentence on where keys are kept or why
    they cannot be). Answers within about `timeout_s` whatever the system's keychain does."""
    from app.engines.keys import keychain_status  # noqa: PLC0415 - window start-up (bench/startup.py)
    from app.engines.deadline import within  # noqa: PLC0415 - window start-up (bench/startup.py)

    try:
        backend = within(timeout_s, _active_keyring, name="keychain-name")
    except Exception as exc:  # no backend at all, or a hung D-Bus: say so, do not hang
        backend = f"none ({type(exc).__name__})"
    usable, sentence = keychain_status(timeout_s)
    return backend, usable, sentence


def _active_keyring() -> str:
    import keyring  # noqa: PLC0415 - keyring, only for a key

    backend = keyring.get_keyring()
    inner = list(getattr(backend, "backends", []) or [])  # a chainer names what it chains
    names = [f"{type(b).__module__}.{type(b).__name__}" for b in inner] or \
        [f"{type(backend).__module__}.{type(backend).__name__}"]
    return ", ".join(names)
