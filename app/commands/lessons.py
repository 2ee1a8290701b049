"""`harness-desk lessons`: the folder's lessons, numbered, with evidence and the proposed line;
`--accept N` adds a line to AGENTS.md, `--dismiss N` hides a lesson, `--reword` asks an AI."""

from __future__ import annotations

import argparse

from app.core.engine.port import EngineError
from app.core.errors import HarnessError
from app.core.lessons.actions import accept_lesson, dismiss_lesson
from app.core.lessons.lessons import Lesson, find_lessons
from app.core.lessons.reword import reword_lessons
from app.core.lessons.words import headline
from app.core.settings import load_settings
from app.engines.setup import build_engine

_EVIDENCE_SHOWN = 5


def evidence_lines(lesson: Lesson) -> list[str]:
    out = []
    places = lesson.places()
    for ev, n in places[:_EVIDENCE_SHOWN]:
        where = f"run {ev.run_number}, round {ev.round}"
        task = f" — {ev.task}" if ev.task else ""
        times = f" ({n} times)" if n > 1 else ""
        detail = f": {ev.detail}" if ev.detail and lesson.kind != "gave_up" else ""
        out.append(f"     · {where}{task}{times}{detail}")
    if len(places) > _EVIDENCE_SHOWN:
        more = len(places) - _EVIDENCE_SHOWN
        out.append(f"     · and {more} more round{'' if more == 1 else 's'}")
    return out


def print_lessons(path: str, include_dismissed: bool) -> int:
    folder = find_lessons(path)
    shown = folder.shown(include_dismissed)
    runs = len(folder.run_ids)
    if not shown:
        hidden = len(folder.lessons) - len(shown)
        print(f"No lessons from the {runs} run{'s' if runs != 1 else ''} in this folder"
              + (f" ({hidden} dismissed; --all shows them)." if hidden else "."))
        return 0
    language = "Chinese" if folder.language == "zh_CN" else "English"
    print(f"Lessons from the {runs} run{'s' if runs != 1 else ''} in this folder "
          f"(lines in {language}, the language of the folder's files):")
    for lesson in shown:
        print()
        when = (lesson.decided_at or "")[:16].replace("T", " ")
        state = {"accepted": f" [accepted {when} UTC]",
                 "dismissed": " [dismissed]"}.get(lesson.state, "")
        print(f"{lesson.number}. {headline(lesson.kind, lesson.subject, lesson.count)}{state}")
        runs_seen = len(lesson.runs)
        print(f"   Evidence ({lesson.count} in {runs_seen} run{'s' if runs_seen != 1 else ''}):")
        print("\n".join(evidence_lines(lesson)))
        label = "Line in AGENTS.md" if lesson.state == "accepted" else "Proposed line"
        print(f"   {label}: {lesson.line}" + (" (reworded by AI)" if lesson.reworded else ""))
        if lesson.effect is not None:
            print(f"   Effect: {lesson.effect.sentence()}")
    open_ones = [x.number for x in shown if x.state == "open"]
    if open_ones:
        print(f"\nAccept one with: harness-desk lessons FOLDER --accept {open_ones[0]} "
              f"(or --dismiss {open_ones[0]} to hide it).")
    return 0


def cmd_lessons(args: argparse.Namespace) -> int:
    if args.accept is not None:
        done = accept_lesson(args.path, args.accept)
        if done.added:
            print(f"Added to AGENTS.md: - {done.lesson.line}")
        else:
            print(f"AGENTS.md already had this line, so it was left as it is: "
                  f"- {done.lesson.line}")
        print(f"Lesson {done.lesson.number} is accepted; `harness-desk lessons` will show how "
              "often it comes back in later runs.")
        return 0
    if args.dismiss is not None:
        lesson = dismiss_lesson(args.path, args.dismiss)
        print(f"Lesson {lesson.number} is dismissed and hidden; AGENTS.md was not changed.")
        return 0
    if args.reword:
        _reword(args)
    return print_lessons(args.path, args.all)


def _reword(args: argparse.Namespace) -> None:
    engine = build_engine(load_settings().settings, args.path, args.engine, model=args.model,
                          base_url=args.base_url)
    if not engine.is_ai:
        raise HarnessError("Rewording needs an AI engine; choose one with --engine.")
    try:
        changed = reword_lessons(args.path, engine)
    except EngineError as err:
        raise HarnessError(f"The lines were not reworded: {err.message}") from None
    print(f"{changed} line{'s' if changed != 1 else ''} reworded by {engine.label}; the "
          "lessons and their evidence are the harness's own.")
