"""The window's own sentences, written from the events' structured fields and translatable.

The core's English `message` fields stay for the command line and the records; the window
shows them only as details. Every visible sentence is built here through Qt's translation
(module-level, so under lupdate's empty context), so a Chinese translation can cover all of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QDateTime, QLocale

from app.core.run.outcomes import ExitReason, RoundResult, RunState


# lupdate files a module-level tr() under the empty context, so that is where it is looked up;
# the texts marked with QT_TRANSLATE_NOOP("Wording", ...) below are looked up by tip().
MODULE_CONTEXT = ""


def tr(text: str, n: int = -1) -> str:
    return QCoreApplication.translate(MODULE_CONTEXT, text, None, n)


def sentences(parts) -> str:
    """Sentences run together as the language writes them: a space after an English full
    stop, none after a Chinese one (。！？), and never two."""
    out = ""
    for part in (p.strip() for p in parts):
        if part:
            out += ("" if not out or out.endswith(("。", "！", "？", "：", "；")) else " ") + part
    return out


def clock_time(stamp: str | None) -> str:
    """An event's time as the person reads it: "14:05" today, else its date too, in the one
    date format of the window (date_time)."""
    if stamp is None:
        return ""
    try:
        when = datetime.fromisoformat(stamp).astimezone()
    except (TypeError, ValueError):
        return ""
    today = datetime.now().astimezone().date()
    return when.strftime("%H:%M") if when.date() == today else date_time(stamp)


def date_time(stamp: str | None) -> str:
    """A recorded time with its date, in the one format the window uses everywhere (the run
    history's): "4 Dec 2026, 18:31", in Chinese "2026年12月4日 18:31"; "" when unreadable."""

    try:
        local = datetime.fromisoformat(stamp or "").astimezone()
    except (TypeError, ValueError):
        return ""
    moment = QDateTime.fromSecsSinceEpoch(int(local.timestamp()))
    return QLocale().toString(moment, QCoreApplication.translate("HistoryPicker",
                                                                 "d MMM yyyy, HH:mm"))


def short(text: str, limit: int = 80) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


# -- how long, how much --------------------------------------------------------------------
def duration(seconds: float) -> str:
    """A duration as the exported summary says it too (work_totals.clock: whole seconds)."""
    from app.core.records.work_totals import clock  # noqa: PLC0415 - window start-up (bench/startup.py)

    parts = clock(max(0.0, seconds))
    if parts is None:
        return tr("under 1 s")
    hours, minutes, secs = parts
    if hours:
        return tr("%1 h %2 min").replace("%1", str(hours)).replace("%2", str(minutes))
    if minutes:
        return (tr("%1 min %2 s").replace("%1", str(minutes)).replace("%2", str(secs)) if secs
                else tr("%1 min").replace("%1", str(minutes)))
    return tr("%1 s").replace("%1", str(secs))


def money(usd: float) -> str:
    if usd <= 0:
        return "$0.00"
    return f"${usd:.4f}" if usd < 0.01 else f"${usd:,.2f}"


def cost(usd: float, upper: bool = False) -> str:
    """'$0.42', or 'about $0.42 at most' when the model's price is not known (it is then
    counted at the highest price known for its engine)."""
    return tr("about %1 at most").replace("%1", money(usd)) if upper else money(usd)


def unknown_price(model: str) -> str:
    """Why a cost reads 'at most', in a sentence."""
    return tr("The price of %1 is not known, so the highest price is used: the real cost is "
              "at most this.").replace("%1", model or tr("this model"))


def tokens_and_cost(tokens: int, usd: float, is_ai: bool, upper: bool = False) -> str:
    if not is_ai:
        return tr("no AI used, so no usage and no cost")
    return tr("%1 tokens · %2").replace("%1", f"{tokens:,}").replace("%2", cost(usd, upper))


# -- the state of a run --------------------------------------------------------------------
def working_on(task: str) -> str:
    return tr("Working on: %1").replace("%1", short(task, 120))


def waiting(seconds: float, code: str) -> str:
    why = {
        "transient": tr("the service is busy"),
        "stream_broken": tr("the connection dropped"),
    }.get(code, tr("the service asked to wait"))
    return tr("Waiting %1 s: %2").replace("%1", str(max(0, round(seconds)))).replace("%2", why)


def finished(state: str, exit_reason: str, task: str = "", rounds: int = 0, *,
             engine_id: str = "", model: str = "", cause: str = "",
             button: str = "", shown: int = 0, did: Sequence[str] = ()) -> tuple[str, str]:
    """(headline, what to do next) for the end of a run; an engine's stop names the engine
    (`engine_id`, its `model`, the finer `cause`) and the button on screen (`button`). A
    Demo run that showed `shown` tasks as a sample may also have done the tasks `did` of
    its built-in example for real (and ticked them): then it says so, naming them."""
    if state == RunState.DONE:
        return tr("Done"), tr("Every task on the list is checked. The rounds below show which "
                              "files were written. Add more tasks, or export a summary to share.")
    if exit_reason == ExitReason.SAMPLES_SHOWN and did:  # the export's words (demo_words.py)
        return tr("Shown as a sample, not done"), sentences((
            tr("The Demo engine showed 1 task as a sample and did not tick it: it only wrote a "
               "sample note for it under demo-output/.") if shown == 1 else
            tr("The Demo engine showed %1 tasks as a sample and ticked none of them: for those "
               "it only wrote sample notes under demo-output/.").replace("%1", str(shown)),
            example_tasks(did, done=True),
            tr("Choose an AI engine to do the work on your own tasks.")))
    if exit_reason == ExitReason.SAMPLES_SHOWN:
        return tr("Shown as a sample, not done"), tr(
            "The Demo engine wrote sample notes in the demo-output folder and ticked no task: "
            "your tasks and files are as you left them. Choose an AI engine to get the work "
            "done.")
    if exit_reason == ExitReason.HUMAN_DECISION_NEEDED:
        return tr("Needs your decision"), tr("Answer the question to let the work carry on.")
    if exit_reason == ExitReason.NO_PROGRESS and cause == "lookup_limit":  # core.web_round.LOOKUP_LIMIT
        head = tr("Stopped: “%1” used up its web lookups").replace("%1", short(task, 70)) \
            if task else tr("Stopped: a task used up its web lookups")
        return head, tr("The task reached its limit of web lookups for this run. Raise “Web "
                        "lookups per task” in Settings, then choose what happens next.")
    if exit_reason == ExitReason.NO_PROGRESS:
        head = tr("Stopped: no progress on “%1”").replace("%1", short(task, 70)) if task \
            else tr("Stopped: no progress")
        return head, tr("The AI kept trying without getting anywhere. Choose what happens "
                        "next.")
    if exit_reason == ExitReason.STOPPED_BY_USER:
        return tr("Stopped"), tr("You stopped the run. Nothing was left half-written. Press "
                                 "Continue to carry on.")
    if exit_reason == ExitReason.MAX_ROUNDS:
        return tr("Stopped at the round limit"), tr("The run used all of its rounds. Press "
                                                    "Continue to give it more.")
    if exit_reason == ExitReason.BUDGET_EXHAUSTED:
        return tr("Stopped at the spending limit"), tr("The run reached the budget you set.")
    if exit_reason == "workspace_locked":
        return tr("Already running elsewhere"), tr("Another run is working in this folder "
                                                   "(another window or the terminal). Wait for "
                                                   "it to finish, then press Run.")
    from app.gui.words import engine_words  # noqa: PLC0415 - window start-up (bench/startup.py)

    said = engine_words.stopped(exit_reason, cause or exit_reason, engine_id, model,
                                button or tr("Run"))
    if said is not None:
        return said
    return tr("Stopped because of a problem"), tr("See the details below. Your files are safe.")


def demo_samples_sentence(example: Sequence[str] = ()) -> str:
    """What the Demo engine will do on a person's own folder, before the run: on their tasks
    only samples; the open tasks of its built-in example (`example`), done for real."""
    if example:
        return sentences((
            tr("The Demo engine uses no AI: on your own tasks it only shows how a run looks "
               "and writes sample notes in a demo-output folder, ticking none of them."),
            example_tasks(example, done=False),
            tr("To get your own tasks done, choose an AI engine.")))
    return tr("The Demo engine uses no AI: on your tasks it only shows how a run looks and "
              "writes sample notes in a demo-output folder, ticking nothing and changing "
              "nothing of yours; to get the work done, choose an AI engine.")


def example_tasks(tasks: Sequence[str], done: bool) -> str:
    """The tasks of the Demo's built-in example on the list, by name: it does them for real
    and ticks them (`done`: it did)."""
    names = tr(", ").join(f"“{short(t, 70)}”" for t in tasks[:3])
    if len(tasks) > 3:
        names += tr(" and %1 more").replace("%1", str(len(tasks) - 3))
    if done:
        return (tr("It did one task of its built-in example for real and ticked it: %1.")
                if len(tasks) == 1 else
                tr("It did %2 tasks of its built-in example for real and ticked them: %1.")
                ).replace("%2", str(len(tasks))).replace("%1", names)
    return (tr("One task is of its built-in example, which it does for real and ticks: %1.")
            if len(tasks) == 1 else
            tr("%2 tasks are of its built-in example, which it does for real and ticks: %1.")
            ).replace("%2", str(len(tasks))).replace("%1", names)


# -- what the AI is doing now ---------------------------------------------------------------
def narration_for_tool(tool: str, arguments: dict) -> str:
    path = str(arguments.get("path") or "")
    verbs = {
        "list_files": tr("Looking at the files in %1") if path not in ("", ".")
        else tr("Looking at the files in the folder"),
        "read_file": tr("Reading %1"),
        "write_file": tr("Writing %1"),
        "edit_file": tr("Editing %1"),
        "delete_file": tr("Deleting %1"),
        "set_cells": tr("Changing cells in %1"),
        "search_files": tr("Searching the files for “%1”"),
        "complete_task": tr("Marking the task as done"),
        "ask_human": tr("Writing a question for you"),
        "give_up": tr("Giving up on this task for now"),
    }
    text = verbs.get(tool, tr("Using %1").replace("%1", tool))
    if tool == "search_files":
        return text.replace("%1", short(str(arguments.get("query") or ""), 40)) + "…"
    return text.replace("%1", short(path, 60)) + "…"


def held_open(path: str) -> str:
    return tr("%1 is open in another program; close it there and the AI will try again next "
              "round.").replace("%1", path)


def narration_for_notice(kind: str) -> str:
    return {
        "nudge": tr("The harness reminded the AI to use its tools."),
        "correction": tr("The harness told the AI its last actions had no effect."),
        "stall": tr("The harness told the AI it is running out of steps."),
        "final_warning": tr("The harness gave the AI a final warning for this round."),
    }.get(kind, tr("The harness sent the AI a note."))


# -- rounds -----------------------------------------------------------------------------------
def round_outcome(result_state: str, lookup_cap: int = 0) -> tuple[str, str]:
    """(a mark, the outcome in words) for a round card; `lookup_cap`: the task's cap on web
    lookups when reaching it ended the round (RoundRecord.lookup_cap), else 0."""
    if result_state == RoundResult.STEP_LIMIT and lookup_cap:
        return "!", (tr("Reached this task's limit of 1 web lookup") if lookup_cap == 1 else
                     tr("Reached this task's limit of %1 web lookups").replace(
                         "%1", str(lookup_cap)))
    return {
        RoundResult.COMPLETED: ("✓", tr("Done")),
        RoundResult.NEEDS_HUMAN: ("?", tr("Asked you a question")),
        RoundResult.GAVE_UP: ("✗", tr("Gave up")),
        RoundResult.STEP_LIMIT: ("!", tr("Ran out of steps")),
        RoundResult.NO_ACTION: ("!", tr("Stopped going round in circles")),
        RoundResult.TIMEOUT: ("!", tr("Ran out of time")),
        RoundResult.ENGINE_ERROR: ("!", tr("Engine problem")),
        RoundResult.CANCELLED: ("■", tr("Stopped by you")),
        RoundResult.SAMPLE: ("◇", tr("Shown as a sample, not done")),
        "interrupted": ("■", tr("Cut off when the app closed")),
    }.get(result_state, ("•", result_state))


def interrupted(run) -> str:
    """What a run cut off mid-way (an `InterruptedRun`) had finished, and what to do."""
    parts = []
    if run.tasks_completed:
        parts.append(tr("It finished %n task(s): %1.", len(run.tasks_completed)).replace(
            "%1", "; ".join(f"“{short(t, 60)}”" for t in run.tasks_completed)))
    if run.files_changed:
        parts.append(tr("It changed %n file(s): %1.", len(run.files_changed)).replace(
            "%1", ", ".join(run.files_changed[:5]) + ("…" if len(run.files_changed) > 5
                                                      else "")))
    if not parts:
        parts.append(tr("It had not finished anything yet."))
    parts.append(tr("Press Continue to carry on from there."))
    return sentences(parts)


# -- the decision the harness asks when a task makes no progress ------------------------------
def no_progress_question(task: str) -> str:
    return tr("No progress on “%1”: what now?").replace("%1", short(task, 100))


def no_progress_option(option: str) -> str:
    """The harness's no-progress options (written in English on the board) in the window's words."""
    return {"Try again": tr("Try again"),
            "Skip this task (check it yourself)": tr("Skip this task (check it yourself)"),
            "Rewrite the task": tr("Rewrite the task")}.get(option, option)


# -- words the person may not know ----------------------------------------------------------
# Marked for translation here (lupdate finds QT_TRANSLATE_NOOP), translated when shown (tip);
# str(): the text it returns, which PySide6's stub types as object.
ROUND_TIP = str(QT_TRANSLATE_NOOP(
    "Wording", "A round is one attempt at one task, with a fresh start: the AI reads the "
    "task, works on it, and ends the round by finishing, asking you, or giving up."))
STEP_TIP = str(QT_TRANSLATE_NOOP(
    "Wording", "A step is one turn of the AI inside a round: it answers once and its file "
    "actions are carried out. Each round has a limit on steps, so it never runs on forever."))
ENGINE_TIP = str(QT_TRANSLATE_NOOP(
    "Wording", "The engine is the AI service that does the work: Demo (offline, no AI, free), "
    "Claude, OpenAI, or a local model on this computer."))


def tip(text: str) -> str:
    return QCoreApplication.translate("Wording", text)
