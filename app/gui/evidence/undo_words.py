"""The window's sentences for what an undo did, built from the UndoReport's structured fields
(the core's English messages are for the command line)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication


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
    for path, saved in report.kept_both:
        out.append(tr("%1 was changed after the round, so your version stays and the version "
                      "from before the round is saved beside it as %2.")
                   .replace("%1", path).replace("%2", saved))
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


def undo_report_headline(report) -> str:
    """One short line for the window's notice bar."""
    n = str(report.round)
    back = len(report.restored) + len(report.removed)
    if report.failed and not back:
        return tr("Undo of round %1 put nothing back.").replace("%1", n)
    text = tr("Undid round %1: %n file(s) put back.", back).replace("%1", n)
    if report.kept_both:
        text += " " + tr("%n file(s) kept in both versions, because you had changed them.",
                         len(report.kept_both))
    return text
