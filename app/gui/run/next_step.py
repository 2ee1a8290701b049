"""The run panel's one filled button: its words for each state (one filled button in view: the step to take now).

Run, Stop, Continue; "Answer the question…" when a decision waits; "Review the change…" when
careful mode waits; Export summary… (or Add a task, with nothing to export) when every task
is done; "Choose an AI engine…" after the Demo engine showed a person's tasks as samples.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication


def tr(text: str) -> str:
    # A module-level tr(): lupdate files these under the empty context (as in wording.py).
    return QCoreApplication.translate("", text)


def words(mode: str, exported: bool) -> tuple[str, str, str, str]:
    """(the button's text, its spoken name, its tooltip, its icon) in `mode`; `exported`:
    there is a run to export."""
    return {
        "none": (tr("Run"), tr("Run"), tr("Open a folder first"), "run"),
        "no_board": (tr("Run"), tr("Run"), tr("Create the task list first"), "run"),
        "run": (tr("Run"), tr("Run"),
                tr("Start on the first unchecked task (Ctrl+R)"), "run"),
        "running": (tr("Stop"), tr("Stop"),
                    tr("Stop after the current step; nothing is left half-written "
                       "(Ctrl+.)"), "stop"),
        "stopping": (tr("Stopping…"), tr("Stopping"),
                     tr("Stopping after the current step…"), "stop"),
        "continue": (tr("Continue"), tr("Continue"),
                     tr("Carry on from where the run stopped (Ctrl+R)"), "continue"),
        "answer": (tr("Answer the question…"), tr("Answer the question"),
                   tr("Open the question and choose your answer (Ctrl+D)"), "decision"),
        "review": (tr("Review the change…"), tr("Review the change"),
                   tr("See the change the run asks to make, and allow it or not"),
                   "decision"),
        # Everything done: what there is to share, else (nothing run here) a new task.
        "done": (tr("Export summary…"), tr("Export summary"),
                 tr("Save a PDF, document or web page that tells what the last run "
                    "did, to read or share (Ctrl+E)."), "export") if exported else
                (tr("Add a task"), tr("Add a task"),
                 tr("Write a new task at the end of the list (Ctrl+N)"), "continue"),
        "choose_engine": (tr("Choose an AI engine…"), tr("Choose an AI engine"),
                          tr("The Demo engine only shows samples on your own tasks; "
                             "an AI engine does the work"), "settings"),
    }[mode]
