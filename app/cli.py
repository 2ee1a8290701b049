"""The command line: argument parsing and the headless commands (docs/cli.md).

Commands import only what they need: `status`, `decide` and `undo` never load Qt or the AI
SDKs. Every error reaches the person as one plain sentence on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from app import NAME, __version__
from app.core.clean_text import CleanStream, clean_line
from app.core.errors import EXIT_FAILED, EXIT_USAGE, HarnessError, UsageError


class _Parser(argparse.ArgumentParser):
    """argparse that reports a bad command line as one sentence instead of a usage block."""

    def error(self, message: str):
        raise UsageError(f"{_sentence(message)} See `{self.prog} --help`.")


def _sentence(message: str) -> str:
    text = message.strip()
    if text.startswith("argument ") and ": " in text:
        flag, _, why = text[len("argument "):].partition(": ")
        text = f"Bad value for {flag.split('/')[0]}: {why}"
    text = text[0].upper() + text[1:] if text else "The command line was not understood"
    return text if text.endswith(".") else text + "."


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with `only`, one that knows just that command. Building
    all twelve costs a light command like `status` a fifth of its time: argparse looks up
    translations and measures the terminal for every argument it is given."""
    p = _Parser(
        prog="harness-desk",
        description=f"{NAME}: put an AI to work on a folder of your files and stay in control.")
    p.add_argument("--version", action="version", version=f"{NAME} {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    for name, (help_text, add_arguments) in COMMANDS.items():
        if only in (None, name):
            add_arguments(sub.add_parser(name, help=help_text))
    return p


def _init_args(s: argparse.ArgumentParser) -> None:
    s.add_argument("path")


def _run_args(s: argparse.ArgumentParser) -> None:
    s.add_argument("path")
    s.add_argument("--engine", help="demo, anthropic, openai or local")
    s.add_argument("--model")
    s.add_argument("--base-url")
    s.add_argument("--max-rounds", type=_positive_int)
    s.add_argument("--max-steps", type=_positive_int)
    s.add_argument("--stall-limit", type=_positive_int)
    s.add_argument("--max-attempts", type=_positive_int)
    s.add_argument("--budget-usd", type=_non_negative_float)
    s.add_argument("--budget-tokens", type=_positive_int)
    s.add_argument("--demo-delay", type=_non_negative_float, metavar="SECONDS",
                   help="pause between the Demo engine's steps (default 0)")
    s.add_argument("--yes", action="store_true",
                   help="do not ask before working on a home or system folder")
    s.add_argument("--careful", action="store_true",
                   help="ask before changing or deleting files that were in the folder "
                        "before the run (also on when the folder's settings say so)")
    s.add_argument("--scheduled", action="store_true",
                   help="the run the computer's scheduler starts: the folder's schedule gives "
                        "the engine, model, budget and careful mode; no one is asked anything")


def _schedule_args(s: argparse.ArgumentParser) -> None:
    s.add_argument("path", nargs="?")
    s.add_argument("--every", metavar="WHEN",
                   help="day, weekdays (Monday to Friday), month, or days such as mon,thu")
    s.add_argument("--at", default="09:00", metavar="HH:MM", help="the time (default 09:00)")
    s.add_argument("--day", type=_positive_int, metavar="N",
                   help="with --every month: the day of the month (default 1; a day past the "
                        "month's end means its last day)")
    s.add_argument("--engine", help="demo, anthropic, openai or local (default: settings')")
    s.add_argument("--model")
    s.add_argument("--budget-usd", type=_non_negative_float,
                   help="the most one run may spend, in US dollars (this or --budget-tokens "
                        "is required)")
    s.add_argument("--budget-tokens", type=_positive_int)
    s.add_argument("--careful", action="store_true",
                   help="a change to a file that was in the folder waits for your answer")
    s.add_argument("--yes", action="store_true",
                   help="do not ask before scheduling a home or system folder")
    what = s.add_mutually_exclusive_group()
    what.add_argument("--list", action="store_true", help="show the schedules (all, or PATH's)")
    what.add_argument("--remove", action="store_true", help="remove PATH's schedule")
    what.add_argument("--pause", action="store_true", help="pause PATH's schedule")
    what.add_argument("--resume", action="store_true", help="resume PATH's paused schedule")
    what.add_argument("--catch-up", action="store_true", help=argparse.SUPPRESS)
    what.add_argument("--remove-all", action="store_true",
                      help="remove every schedule (the uninstallers use this)")


def _status_args(s: argparse.ArgumentParser) -> None:
    s.add_argument("path")
    s.add_argument("--json", action="store_true")


def _watch_args(s: argparse.ArgumentParser) -> None:
    s.add_argument("path")
    s.add_argument("--wait", action="store_true",
                   help="if no run is active, wait for the next one to start")


def _decide_args(s: argparse.ArgumentParser) -> None:
    s.add_argument("path")
    s.add_argument("--answer", required=True)


def _approve_args(s: argparse.ArgumentParser) -> None:
    s.add_argument("path")


def _undo_args(s: argparse.ArgumentParser) -> None:
    s.add_argument("path")
    s.add_argument("--round", type=_positive_int, required=True)
    s.add_argument("--run", dest="run_id")


def _export_args(s: argparse.ArgumentParser) -> None:
    s.add_argument("path")
    s.add_argument("--format", required=True, choices=["md", "html", "pdf", "odt"])
    s.add_argument("--output", required=True)
    s.add_argument("--run", dest="run_id",
                   help="a run id (the latest by default), or \"all\" for every run in order")


def _plan_args(s: argparse.ArgumentParser) -> None:
    s.add_argument("path")
    s.add_argument("goal", nargs="?", help="what you want to achieve, in a sentence")
    s.add_argument("--engine", help="demo, anthropic, openai or local")
    s.add_argument("--model")
    s.add_argument("--base-url")
    s.add_argument("--add", action="store_true",
                   help="append the proposals to TASKS.md (without GOAL: the last plan's)")
    s.add_argument("--pick", metavar="N,N", help="with --add: only these task numbers")
    s.add_argument("--next", action="store_true",
                   help="suggest what comes next, from the last run's summaries")
    s.add_argument("--note", help="what to change, when planning again")
    s.add_argument("--max-steps", type=_positive_int)
    s.add_argument("--budget-usd", type=_non_negative_float)
    s.add_argument("--budget-tokens", type=_positive_int)
    s.add_argument("--demo-delay", type=_non_negative_float, metavar="SECONDS",
                   help="pause between the Demo engine's steps (default 0)")
    s.add_argument("--yes", action="store_true",
                   help="do not ask before planning on a home or system folder")


def _lessons_args(s: argparse.ArgumentParser) -> None:
    s.add_argument("path")
    what = s.add_mutually_exclusive_group()
    what.add_argument("--accept", type=_positive_int, metavar="N",
                      help="add lesson N's line to AGENTS.md")
    what.add_argument("--dismiss", type=_positive_int, metavar="N", help="hide lesson N")
    what.add_argument("--reword", action="store_true",
                      help="ask an AI engine once to word the open lessons' lines more clearly")
    s.add_argument("--all", action="store_true", help="also list dismissed lessons")
    s.add_argument("--engine", help="the engine --reword uses (default: the one in settings)")
    s.add_argument("--model")
    s.add_argument("--base-url")


def _engines_args(s: argparse.ArgumentParser) -> None:
    s.add_argument("--json", action="store_true")


def _open_args(s: argparse.ArgumentParser) -> None:
    s.add_argument("path", nargs="?")
    s.add_argument("--demo", action="store_true",
                   help="open a fresh copy of the demo workspace with the Demo engine")
    s.add_argument("--lang", choices=["en", "zh_CN"],
                   help="the window's language (default: Settings, else the system's)")


def _self_test_args(s: argparse.ArgumentParser) -> None:
    s.add_argument("--lang", choices=["en", "zh_CN"], help="check the window in this language")


# Each command: its line in --help, and its arguments (in --help's order).
COMMANDS = {
    "init": ("create TASKS.md from a template and .harness/", _init_args),
    "run": ("run headless, one line per event", _run_args),
    "schedule": ("run the folder on a schedule, also with the window closed",
                 _schedule_args),
    "status": ("print the status of the current or last run", _status_args),
    "watch": ("follow a run live until it ends", _watch_args),
    "decide": ("answer the first open HUMAN decision", _decide_args),
    "approve": ("show the changes waiting for your approval, and answer them", _approve_args),
    "undo": ("restore what a round changed", _undo_args),
    "export": ("write the run summary document", _export_args),
    "plan": ("propose tasks for a goal; --add puts them on the board", _plan_args),
    "lessons": ("lessons from this folder's runs, for AGENTS.md", _lessons_args),
    "engines": ("list engines and whether each is ready", _engines_args),
    "open": ("open the app (also: harness-desk [PATH])", _open_args),
    "self-test": ("check the window headlessly (offscreen), end to end", _self_test_args),
}


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def _non_negative_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return value


def main(argv: list[str] | None = None) -> int:
    # Whatever a command prints (a model's question, a document's part name, an old record)
    # reaches the terminal without the controls that would drive it (clean_text); the
    # commands clean what they print themselves, and this is the guard behind them.
    streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = (None if s is None else CleanStream(s) for s in streams)
    try:
        return _main(sys.argv[1:] if argv is None else argv)
    finally:
        sys.stdout, sys.stderr = streams


def _main(argv: list[str]) -> int:
    # We use no pydantic plugins; looking for them scans every installed package's metadata
    # on the first validation, a sixth of what `status` costs.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    # `harness-desk [PATH]` opens the app: route a bare path to the `open` command.
    if argv and argv[0] not in COMMANDS and (not argv[0].startswith("-")
                                             or argv[0].split("=")[0] == "--lang"):
        argv = ["open", *argv]
    if not argv:
        argv = ["open"]
    try:
        args = build_parser(argv[0] if argv[0] in COMMANDS else None).parse_args(argv)
    except UsageError as err:
        _say_error(err.message)
        return err.exit_code
    except SystemExit as exc:  # --help and --version print and exit 0
        return EXIT_USAGE if exc.code else 0
    try:
        _friendly_streams()
        return _dispatch(args)
    except HarnessError as err:
        _say_error(err.message)
        return err.exit_code
    except KeyboardInterrupt:
        _say_error("Interrupted.")
        return 130
    except BrokenPipeError:
        # The reader went away (`| head`): finish quietly, as command-line tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_FAILED
    except Exception as exc:  # last resort: a sentence on screen, the details in a file
        from app.crash import save_crash_report  # noqa: PLC0415 - `status` stays light

        where = save_crash_report(exc)
        # The error's own text may end in a full stop; the sentence adds its own.
        _say_error(f"Something went wrong: {_one_line(exc).rstrip('.')}. "
                   f"Details were saved to {where}.")
        return EXIT_FAILED


def _dispatch(args: argparse.Namespace) -> int:
    try:
        if args.command == "init":
            return cmd_init(args)
        if args.command == "run" and args.scheduled:
            from app.commands.scheduled_run import (  # noqa: PLC0415 - `status` stays light
                cmd_scheduled_run)

            return cmd_scheduled_run(args)
        if args.command == "schedule":
            from app.commands.schedule import cmd_schedule  # noqa: PLC0415 - `status` stays light

            return cmd_schedule(args)
        if args.command == "run":
            from app.commands.run import cmd_run  # noqa: PLC0415 - `status` stays light

            return cmd_run(args)
        if args.command == "status":
            from app.commands.follow import cmd_status  # noqa: PLC0415 - `decide` stays light

            return cmd_status(args)
        if args.command == "watch":
            from app.commands.follow import cmd_watch  # noqa: PLC0415 - `decide` stays light

            return cmd_watch(args)
        if args.command == "decide":
            return cmd_decide(args)
        if args.command == "approve":
            from app.commands.approve import cmd_approve  # noqa: PLC0415 - `status` stays light

            return cmd_approve(args)
        if args.command == "undo":
            return cmd_undo(args)
        if args.command == "export":
            from app.commands.export import cmd_export  # noqa: PLC0415 - `status` stays light

            return cmd_export(args.path, args.format, args.output, args.run_id)
        if args.command == "plan":
            from app.commands.plan import cmd_plan  # noqa: PLC0415 - `status` stays light

            return cmd_plan(args)
        if args.command == "lessons":
            from app.commands.lessons import cmd_lessons  # noqa: PLC0415 - `status` stays light

            return cmd_lessons(args)
        if args.command == "engines":
            from app.commands.engines import cmd_engines  # noqa: PLC0415 - `status` stays light

            return cmd_engines(args)
        if args.command == "self-test":
            from app.gui.self_test import run_self_test  # noqa: PLC0415 - `status` stays light: Qt only here

            return run_self_test(lang=args.lang)
        from app.commands.open import cmd_open  # noqa: PLC0415 - `status` stays light

        return cmd_open(args)
    except Exception as err:
        # Imported only now: `status` and `undo` never load the board, so cannot raise this.
        from app.core.board.board import BoardError  # noqa: PLC0415 - `status` stays light

        if isinstance(err, BoardError):
            raise UsageError(str(err)) from None
        raise


def cmd_init(args: argparse.Namespace) -> int:
    from app.core.workspace.workspace import init_workspace  # noqa: PLC0415 - `engines` stays light

    ws, created = init_workspace(args.path)
    if created:
        print(f"Created {ws.board_path}. Write your tasks there, then run: "
              f"harness-desk run {_quote(ws.root)} --engine demo")
    else:
        print(f"{ws.board_path} already exists and was left as it is. "
              f"The harness folder is ready.")
    return 0


def cmd_decide(args: argparse.Namespace) -> int:
    from app.core.board.decide import EmptyAnswer, decide  # noqa: PLC0415 - `status` stays light

    try:
        decided = decide(args.path, args.answer,
                         folder_word=_quote(Path(args.path).expanduser()))
    except EmptyAnswer:  # the library's sentence cannot name the flag
        raise UsageError("The answer is empty. Write what you decided after --answer.") from None
    print(f"Answered: {clean_line(decided.question)} → {decided.answer}")
    print(f"Continue the run with: harness-desk run {_quote(Path(args.path).expanduser())}")
    return 0


def cmd_undo(args: argparse.Namespace) -> int:
    from app.core.undo.undo import undo_round  # noqa: PLC0415 - `status` stays light

    report = undo_round(args.path, args.round, args.run_id)
    if not report.ok:  # something did not come back: say so, and fail
        print(f"Run {report.run_id}: {report.summary()}", file=sys.stderr)
        return EXIT_FAILED
    print(f"Run {report.run_id}: {report.summary()}")
    if report.task_kept_checked is not None:
        print(f"The task it completed stays checked on the board (“{report.task_kept_checked}”). "
              "Untick it in TASKS.md if you want it done again.")
    return 0


def _friendly_streams() -> None:
    """A console that cannot show a character (Chinese on a legacy Windows code page, a byte
    that was never text) shows a replacement mark instead of crashing the command."""
    for stream in (sys.stdout, sys.stderr):
        try:
            # A TextIOWrapper has it; a stream that has not raises AttributeError, below.
            stream.reconfigure(errors="replace")  # type: ignore[union-attr]
        except (AttributeError, ValueError):
            pass


def _say_error(message: str) -> None:
    from app.core.records.redact import redact  # noqa: PLC0415 - `status` stays light

    print(redact(message), file=sys.stderr)


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:200]


def _quote(path: Path) -> str:
    text = str(path)
    return f'"{text}"' if " " in text else text


if __name__ == "__main__":
    sys.exit(main())
