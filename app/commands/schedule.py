"""`harness-desk schedule`: make, list, pause, resume and remove a folder's recurring run,
written into the computer's own scheduler (app.schedulers)."""

from __future__ import annotations

import argparse
import os
import subprocess
from datetime import datetime
from pathlib import Path

from app.commands.run import confirm_folder
from app.core.errors import UsageError
from app.core.schedule import store
from app.core.schedule.launch import app_environment, output_log, run_command
from app.core.schedule.model import (Schedule, ScheduleError, budget_words, describe,
                                     next_time, parse_every)
from app.core.schedule.records import folder_records
from app.core.settings import load_settings
from app.core.workspace.workspace import Workspace
from app.engines.registry import UnknownEngine, engine_class
from app.schedulers.service import install as write, remove as take, remove_all as remove_every


def cmd_schedule(args: argparse.Namespace) -> int:
    if args.catch_up:
        return catch_up()
    if args.remove_all:
        return remove_all()
    if args.list:
        return list_schedules(args.path)
    if not args.path:
        raise UsageError("Name the folder: harness-desk schedule FOLDER --every ... "
                         "(or --list to see every schedule).")
    if args.remove or args.pause or args.resume:
        return change(args.path, drop=args.remove, paused=bool(args.pause))
    if not args.every:
        raise UsageError("Say when to run: --every day, weekdays, month, or days such as "
                         "mon,thu, with --at HH:MM.")
    return make(args)


def folder_of(path: str) -> str:
    return str(Path(path).expanduser().resolve())


def make(args: argparse.Namespace) -> int:
    ws = Workspace(args.path).require_runnable()
    confirm_folder(ws, args.yes)
    if not (args.budget_usd or args.budget_tokens):
        raise UsageError("A scheduled run needs a budget, so it can never spend more than you "
                         "meant: add --budget-usd X or --budget-tokens N.")
    try:
        kind, days = parse_every(args.every)
        if args.day is not None and kind != "monthly":
            raise ScheduleError("--day is for a monthly schedule (--every month).")
        settings = load_settings().settings
        engine = args.engine or settings.engine
        _check_engine(engine)
        schedule = Schedule(
            folder=folder_of(args.path), kind=kind, time=args.at, days=days,
            day_of_month=args.day or 1, engine=engine, model=args.model,
            budget_usd=args.budget_usd, budget_tokens=args.budget_tokens,
            careful=args.careful, created_at=datetime.now().isoformat(timespec="seconds"))
        schedule.check()
    except ScheduleError as err:
        raise UsageError(str(err)) from None
    install(schedule)
    print(f"Scheduled: {schedule.folder} {describe(schedule)}, with the {engine} engine"
          f"{f' ({schedule.model})' if schedule.model else ''}, at most "
          f"{budget_words(schedule)} per run, careful mode "
          f"{'on' if schedule.careful else 'off'}.")
    print(f"Next run: {_when(next_time(schedule, datetime.now()))}. The computer's scheduler "
          f"({schedule.backend}) starts it, also while the window is closed.")
    return 0


def install(schedule: Schedule) -> None:
    write(schedule)


def remove(schedule: Schedule) -> None:
    take(schedule)


def change(path: str, drop: bool = False, paused: bool = False) -> int:
    schedule = store.for_folder(path)
    if schedule is None:
        raise UsageError(f"{folder_of(path)} has no schedule. See them all with: "
                         "harness-desk schedule --list")
    if drop:
        remove(schedule)
        print(f"Removed the schedule of {schedule.folder}. Nothing more will run on its own.")
        return 0
    schedule.paused = paused
    store.save(schedule)
    if schedule.paused:
        print(f"Paused the schedule of {schedule.folder}: nothing runs until you resume it "
              f"(harness-desk schedule \"{schedule.folder}\" --resume).")
    else:
        print(f"Resumed the schedule of {schedule.folder}. Next run: "
              f"{_when(next_time(schedule, datetime.now()))}.")
    return 0


def list_schedules(path: str | None) -> int:
    schedules = store.all_schedules()
    if path:
        schedules = [s for s in schedules if s.folder == folder_of(path)]
    if not schedules:
        print("No schedules." if not path else f"{folder_of(path)} has no schedule.")
        return 0
    for s in schedules:
        state = "paused" if s.paused else f"next run {_when(next_time(s, datetime.now()))}"
        print(f"{s.folder}\n  {describe(s)}, {s.engine}{f' ({s.model})' if s.model else ''}, "
              f"at most {budget_words(s)} per run, careful mode "
              f"{'on' if s.careful else 'off'}; {state} ({s.backend})")
        last = folder_records(s.folder)[-1:] if Path(s.folder).is_dir() else []
        for r in last:
            print(f"  last: {r.time.replace('T', ' ')}, {r.outcome.replace('_', ' ')}"
                  f"{': ' + r.message if r.message else ''}")
    return 0


def catch_up() -> int:
    """cron's catch-up (app.schedulers.cron): start each cron schedule whose latest due time
    has not run, once, as the scheduler would have. The runs claim their times themselves."""

    started = 0
    for s in store.all_schedules():
        if s.backend != "cron" or s.paused or not store.is_due(s, datetime.now(), slack_s=0):
            continue
        log = output_log(s.id)
        log.parent.mkdir(parents=True, exist_ok=True)
        with open(log, "wb") as out:
            subprocess.Popen(run_command(s.folder), stdout=out, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, start_new_session=True,
                             env={**os.environ, **app_environment()})
        started += 1
    print(f"Started {started} missed scheduled run{'' if started == 1 else 's'}.")
    return 0


def remove_all() -> int:
    """Every schedule and every entry this app wrote (the uninstallers call this)."""
    count = remove_every()
    print(f"Removed {count} schedule{'' if count == 1 else 's'}.")
    return 0


def _check_engine(engine: str) -> None:
    try:
        engine_class(engine)
    except UnknownEngine as err:
        raise ScheduleError(str(err)) from None


def _when(moment: datetime) -> str:
    return moment.strftime("%a %d %b %Y, %H:%M")
