"""Crash reports for the app's entry points; the writer lives in core (app/core/records/crash.py)."""

from app.core.records.crash import crash_details, crash_dir, save_crash_report

__all__ = ["crash_details", "crash_dir", "save_crash_report"]
