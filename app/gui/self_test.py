"""`harness-desk self-test`: the whole window flow, headless, on a temporary copy of the demo.

Opens the main window offscreen, runs the Demo engine to its decision, answers it by clicking
the dialog's recommended option, continues to Done, exports a PDF and names the keychain
backend. One line per check; exit 0 only when every check passed. Built to run the same in a
source checkout, an installed app and a frozen (PyInstaller) build.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QEventLoop, qInstallMessageHandler

from app.core.documents import DocumentError, render_document, write_document
from app.core.resources import resource_path
from app.core.run.outcomes import RunState
from app.core.settings import Settings
from app.core.workspace.files import read_bytes
from app.gui import core_calls
from app.gui.app import after_first_expose, make_application, use_language
from app.gui.background import run_in_background
from app.gui.folder.first_start import DEMO_SOURCES
from app.gui.main_window import MainWindow

STEP_TIMEOUT_S = 60.0


class Check:
    def __init__(self, out: Callable[[str], None]):
        self.out = out
        self.results: list[bool] = []

    def __call__(self, ok: bool, what: str, detail: str = "") -> bool:
        self.results.append(bool(ok))
        self.out(f"{'ok  ' if ok else 'FAIL'}  {what}{': ' + detail if detail else ''}")
        return bool(ok)


def run_self_test(out: Callable[[str], None] = print, lang: str | None = None) -> int:
    started = time.perf_counter()
    os.environ["QT_QPA_PLATFORM"] = "offscreen"  # headless, even on a desktop
    # On Windows a file still open (a log, a watch) keeps the folder; leaving a temp folder
    # behind is not a failed self-test.
    with tempfile.TemporaryDirectory(prefix="harness-desk-self-test-",
                                     ignore_cleanup_errors=True) as tmp:
        # A throwaway settings folder: the person's own settings and recent list stay as they are.
        os.environ["HARNESS_DESK_CONFIG_DIR"] = str(Path(tmp) / "config")
        check = Check(out)
        try:
            _flow(Path(tmp), started, check, lang)
        except Exception as exc:  # a check that blew up is a failed check, said in one line
            check(False, "self-test", f"{type(exc).__name__}: {' '.join(str(exc).split())[:300]}")
    passed = all(check.results) and bool(check.results)
    out(f"self-test {'passed' if passed else 'FAILED'}: "
        f"{sum(check.results)} of {len(check.results)} checks")
    return 0 if passed else 1


def _quiet_platform_notes(mode: Any, context: Any, message: str) -> None:
    """The offscreen platform says what it cannot do (raise a window, size hints); those notes
    are not failures, so they are kept off the self-test's one-line-per-check output."""
    if "This plugin does not support" in message:
        return
    sys.stderr.write(message + "\n")


def _flow(tmp: Path, started: float, check: Check, lang: str | None = None) -> None:

    qInstallMessageHandler(_quiet_platform_notes)
    app = make_application()
    shown_in = use_language(app, lang)
    check(shown_in == (lang or shown_in), "window language", shown_in)
    ws = tmp / "Demo workspace"
    shutil.copytree(resource_path(DEMO_SOURCES[shown_in]), ws)

    shown: dict[str, float] = {}

    window = MainWindow(demo_delay=0.0, check_engines=False, defer_pages=True)
    after_first_expose(window, lambda: shown.setdefault("at", time.perf_counter()))
    window.show()
    _wait(app, lambda: "at" in shown, 10)
    first = (shown.get("at", time.perf_counter()) - started) * 1000
    check(window.isVisible() and "at" in shown, "main window shown",
          f"{first:.0f} ms after the self-test started")

    window.apply_settings(Settings())  # defaults: the person's own settings stay untouched

    opened: list[Path] = []
    window.workspace_opened.connect(opened.append)
    window.open_workspace(ws)
    listed = _wait(app, lambda: bool(opened) and window.board_view.model.rowCount() >= 5, 10)
    check(listed, "demo workspace opened",
          f"{window.board_view.model.rowCount()} tasks on the list")

    ended: list[Any] = []
    dialogs: list[Any] = []
    window.run_ended.connect(ended.append)
    window.decision_shown.connect(dialogs.append)
    window.run_panel.primary.click()
    reached = _wait(app, lambda: bool(ended) and bool(dialogs), STEP_TIMEOUT_S)
    state = ended[0].state if ended else "no end"
    check(reached and state == RunState.BLOCKED_BY_HUMAN, "Demo run stopped at its decision", state)
    if not dialogs:
        return

    dialog = dialogs[0]
    button = dialog.recommended_button or dialog.option_buttons[0]
    words = button.text()
    ended.clear()
    button.click()  # answering carries on at once
    answered = _wait(app, lambda: b"Answer:" in read_bytes(ws / "TASKS.md"), 10)
    check(answered, "decision answered through the dialog", words)

    _wait(app, lambda: bool(ended), STEP_TIMEOUT_S)
    state = ended[0].state if ended else "no end"
    done, total = window.run_panel.tasks_bar.value(), window.run_panel.tasks_bar.maximum()
    check(state == RunState.DONE and done == total, "run continued to Done",
          f"{state}, {done} of {total} tasks")

    pdf = tmp / "summary.pdf"
    result: dict[str, Any] = {}

    run_in_background(lambda: core_calls.export_summary(ws, "pdf", pdf),
                      lambda p: result.setdefault("path", p),
                      lambda e: result.setdefault("error", e))
    _wait(app, lambda: bool(result), STEP_TIMEOUT_S)
    data = pdf.read_bytes() if pdf.exists() else b""
    check(data.startswith(b"%PDF") and len(data) > 1000, "summary exported as PDF",
          f"{len(data):,} bytes" if data else str(result.get("error", "nothing written")))

    check(*_documents(tmp, pdf))

    backend, usable, sentence = core_calls.keychain_backend()
    check(bool(backend), "keychain backend", f"{backend} ({'usable' if usable else 'not usable'}"
          f": {sentence})")
    window.close()
    app.processEvents()


def _documents(tmp: Path, pdf: Path) -> tuple[bool, str, str]:
    """A Word document and a workbook written from Markdown and read back, and the summary
    PDF read as text: the document libraries and their data files are in the build."""
    try:
        for name, markdown, expect in (
                ("check.docx", "# Check\n\nSome **bold** text.\n", "Some **bold** text."),
                ("check.xlsx", "## Prices\n\n| Item | Price |\n|---|---|\n| Bread | 3.5 |\n",
                 "\n2|Bread|3.5\n")):
            (tmp / name).write_bytes(write_document(tmp / name, markdown, existing=False))
            if expect not in render_document(tmp / name):
                return False, "documents written and read back", f"{name} reads back wrong"
        pages = render_document(pdf).count("## Page ") if pdf.exists() else 0
    except DocumentError as exc:
        return False, "documents written and read back", exc.message
    return pages > 0, "documents written and read back", f".docx, .xlsx; summary PDF: {pages} pages"


def _wait(app: Any, done: Callable[[], bool], timeout_s: float) -> bool:
    """Let the event loop run until `done()` or the timeout."""
    deadline = time.monotonic() + timeout_s
    while not done():
        if time.monotonic() > deadline:
            return False
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        time.sleep(0.005)
    return True
