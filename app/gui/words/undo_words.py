"""The window's sentences for what an undo did, built from the UndoReport's structured fields
(the core's English messages are for the command line)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from app.core.run.outcomes import RoundResult
from app.gui.words import wording


def tr(text: str, n: int = -1) -> str:
    # lupdate files a module-level tr() under the empty context; look it up there.
    return QCoreApplication.translate("", text, None, n)


def _names(paths: list[str]) -> str:
    shown = ", ".join(paths[:6])
    more = len(paths) - 6
    return shown + (tr(" and %1 more").replace("%1", str(more)) if more > 0 else "")


def undo_report_sentences(report) -> list[str]:
    """One sentence per kind of outcome, in the order a person wants to read them."""
    n = str(report.round)
    out: list[str] = []
    if report.restored:
        out.append(tr("Put back as they were before round %1: %2.").replace("%1", n)
                   .replace("%2", _names(report.restored)))
    if report.removed:
        out.append(tr("Removed, because round %1 had created them: %2.").replace("%1", n)
                   .replace("%2", _names(report.removed)))
    later = getattr(report, "kept_by_round", {})
    for path, saved in report.kept_both:
        by = later.get(path)
        if by is None:
            out.append(tr("%1 was changed after the round, so your version stays and the "
                          "version from before the round is saved beside it as %2.")
                       .replace("%1", path).replace("%2", saved))
        elif by:
            out.append(tr("%1 was changed again by round %3, so the version round %3 left "
                          "stays and the version from before round %2 is saved beside it as %4.")
                       .replace("%1", path).replace("%2", n).replace("%3", str(by))
                       .replace("%4", saved))
        else:
            out.append(tr("%1 was changed again by a later run, so the version it left stays "
                          "and the version from before round %2 is saved beside it as %3.")
                       .replace("%1", path).replace("%2", n).replace("%3", saved))
    for path in report.kept:
        out.append(tr("%1 was created by the round and changed after it, so it stays as you "
                      "left it.").replace("%1", path))
    if report.unchanged:
        out.append(tr("Already as before the round: %1.").replace("%1", _names(report.unchanged)))
    if report.failed:
        out.append(tr("Could not be put back: %1.").replace("%1", _names(report.failed)))
    if not out:
        out.append(tr("Round %1 had nothing to undo.").replace("%1", n))
    if report.task_kept_checked:
        out.append(tr("The task “%1” stays ticked in the checklist; untick it if you want it "
                      "done again.").replace("%1", report.task_kept_checked))
    return out


def _what_it_did(restored: list[str], removed: list[str], kept_both: list,
                 later: dict | None = None) -> list[str]:
    """`later`: the files a later round changed (UndoReport.kept_by_round), so the version
    kept is that round's, not the person's."""
    later = later or {}
    parts = []
    if restored:
        parts.append(tr("put back %1 as before the round").replace("%1", _names(restored)))
    if removed:
        parts.append(tr("deleted %1, which the round had created").replace("%1",
                                                                           _names(removed)))
    yours = [path for path, _saved in kept_both if path not in later]
    theirs = [path for path, _saved in kept_both if path in later]
    if yours:
        parts.append(tr("kept both versions of %1, because you had changed it").replace(
            "%1", _names(yours)))
    if theirs:
        parts.append(tr("kept both versions of %1, because a later round had changed it")
                     .replace("%1", _names(theirs)))
    return parts


def undo_report_headline(report) -> str:
    """One short line for the window's notice bar: exactly what happened."""
    n = str(report.round)
    parts = _what_it_did(report.restored, report.removed, report.kept_both,
                         getattr(report, "kept_by_round", {}))
    if not parts:
        return (tr("Undo of round %1 put nothing back.") if report.failed else
                tr("Round %1 had nothing to undo.")).replace("%1", n)
    return tr("Undid round %1: %2.").replace("%1", n).replace("%2", "; ".join(parts))


def undone_sentences(record) -> list[str]:
    """What an earlier undo of a round did (an UndoneRecord), for its evidence."""
    parts = _what_it_did(record.restored, record.removed, record.kept_both)
    return [tr("You undid this round: %1.").replace("%1", "; ".join(parts))] if parts else []


def undo_question(view, evidence) -> str:
    """The confirmation: which round (its run's start), and what will happen to each file."""
    n = str(view.round)
    started = wording.clock_time(evidence.run_started if evidence else None)
    lines = [(tr("Round %1 of the run started %2: “%3”.").replace("%2", started) if started
              else tr("Round %1: “%3”.")).replace("%1", n).replace("%3", wording.short(
                  view.task, 80))]
    files = evidence.files if evidence else []
    restore = [f.path for f in files if not f.created and not f.is_folder]
    delete = [f.path for f in files if f.created and not f.is_folder]
    if restore:
        lines.append(tr("Puts back as they were before the round: %1.").replace(
            "%1", _names(restore)))
    if delete:
        lines.append(tr("Deletes, because the round created them: %1.").replace(
            "%1", _names(delete)))
    lines.append(tr("A file you changed yourself since is kept, with the earlier version "
                    "saved beside it."))
    if view.result_state == RoundResult.COMPLETED:
        lines.append(tr("The task stays ticked; untick it if you want it done again."))
    return "\n\n".join(lines)
