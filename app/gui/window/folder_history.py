"""A folder's earlier rounds on its cards, read once its checklist is on screen.

Opening a folder shows its checklist and the run's panel from `inspect_quickly`
(workspace_info.py); the earlier runs' rounds come from their records, read through
pydantic, which on start-up took about 40% of the time to a usable window. So
they are read off the UI thread after that, and on start-up only once the first folder is
usable: read meanwhile, they would hold the GIL the window's first paint needs. The folder
says `workspace_opened` once they are shown, so the folder is then wholly on screen.

For the run's controller (run_flow.py, the `run` below), whose cards and run these are;
with what the Demo did in a run, or would do with the open tasks (demo_rounds, demo_work),
which the run panel's sentences name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.run.outcomes import ExitReason, RoundResult, RunState
from app.gui.background import run_for
from app.gui.folder.usable import after_usable
from app.gui.run.round_cards import RoundView

if TYPE_CHECKING:
    from app.gui.folder.workspace_info import FolderInfo


def show_history_later(run, info: FolderInfo) -> None:
    """Read `info`'s earlier rounds in the background, at once or (on start-up, the first
    folder) once it is usable, then show them and emit the folder's `workspace_opened`."""
    runs_before = _runs_seen(run)

    def read() -> None:
        from app.gui.folder.workspace_info import read_history  # noqa: PLC0415 - window start-up (bench/startup.py)

        if run.folder.workspace == info.folder:
            run.history.reload_runs()  # the run history's list (above the cards)

        run_for(run, lambda: read_history(info), lambda read: _show(run, read, runs_before),
                lambda exc: _unread(run, info))

    after_usable(run.window, read)


def _runs_seen(run) -> tuple:
    """What changes when a run begins in the window (see _show)."""
    return run.last_run_started, run.run_began, run.runner.running


def _show(run, info: FolderInfo, runs_before: tuple) -> None:
    if run.folder.workspace != info.folder:
        return  # another folder was opened meanwhile: its own rounds come
    # A run begun meanwhile has its own cards on the list, which the older runs must not
    # replace; the run history (the picker above) still has every earlier run.
    if _runs_seen(run) == runs_before:
        from app.gui.plan.plan_card import plan_cards  # noqa: PLC0415 - window start-up (bench/startup.py)

        runs = [(started, [RoundView.from_record(r, is_ai, r.round in undone)
                           for r in rounds])
                for started, rounds, is_ai, undone in info.history]
        cut = info.interrupted
        if cut is not None and cut.round and runs:  # the round it was in when cut off
            runs[-1][1].append(RoundView(cut.round, cut.task, "interrupted",
                                         list(cut.round_files), run_id=cut.run_id))
        run.cards.show_history(runs, plan_cards(info.plans))
        run.last_run_started = info.history[-1][0] if info.history else None
        if run.panel.mode == "choose_engine" and info.history:  # the Demo's last run
            _demo_ending(run, [(r.task, r.result_state) for r in info.history[-1][1]])
    run.folder.workspace_opened.emit(info.folder)


def demo_rounds(rounds: list[tuple[str, str]]) -> tuple[int, list[str]]:
    """Of a Demo run's rounds (task, result), how many tasks it showed as a sample, and the
    tasks of its built-in example it did for real, each once in round order."""
    def tasks(state: str) -> list[str]:
        return list(dict.fromkeys(" ".join(t.split()) for t, result in rounds if result == state))

    return len(tasks(RoundResult.SAMPLE)), tasks(RoundResult.COMPLETED)


def demo_work(tasks: list[tuple[str, list[str]]]) -> tuple[bool, list[str]]:
    """What the Demo would do with the open `tasks` (text, done-when lines): whether any is
    one it only shows a sample for (not a task of the bundled demo's), and the texts of those
    of the bundled demo's, which it does for real. Called off the UI thread."""
    from app.engines.demo.script import is_scripted  # noqa: PLC0415 - off the UI thread: the window never imports the Demo's scripts (tests/gui/test_next_step.py)

    example = [text for text, done_when in tasks if is_scripted(text, done_when)]
    return len(example) < len(tasks), example


def _demo_ending(run, rounds: list[tuple[str, str]]) -> None:
    """The folder opened again after a Demo run that also did tasks of its example: the
    panel's sentence (said from status.json alone until the rounds are read) names them."""
    from app.gui.words import wording  # noqa: PLC0415 - window start-up (bench/startup.py)

    shown, did = demo_rounds(rounds)
    if did:
        run.panel.show_state(*wording.finished(RunState.STOPPED, ExitReason.SAMPLES_SHOWN,
                                               shown=shown, did=did), tone="attention")


def _unread(run, info: FolderInfo) -> None:
    """The records could not be read (a damaged disk, say): the folder is open all the
    same, its cards empty, as a folder never run shows them."""
    if run.folder.workspace == info.folder:
        run.folder.workspace_opened.emit(info.folder)
