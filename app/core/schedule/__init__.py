"""Recurring runs: a folder's schedule, kept for the person, and what its runs did.

The computer's own scheduler (systemd, cron, launchd, Task Scheduler; app.schedulers) does
the waking; each wake runs the headless `harness-desk run FOLDER --scheduled`. Qt-free.
"""
