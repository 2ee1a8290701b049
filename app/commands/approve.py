"""Careful mode at a terminal: show the proposed change as a short diff and ask."""

from __future__ import annotations

import difflib
import queue
import sys
import threading
from pathlib import Path
from typing import TextIO

from app.core.board.board import Board
from app.core.clean_text import clean_line, reveal
from app.core.board.decide import decide
from app.core.documents import DocumentError, is_document, render_bytes
from app.core.policies import pending
from app.core.policies.approver import Answer, ApprovalRequest
from app.core.policies.pending import ALLOW, DENY
from app.core.workspace.workspace import Workspace

MAX_DIFF_LINES = 40
_CHOICES = {"y": "allow", "yes": "allow", "a": "allow_task", "all": "allow_task",
            "n": "deny", "no": "deny"}


def short_diff(request: ApprovalRequest, limit: int = MAX_DIFF_LINES) -> list[str]:
    """The change as a person reads it: the changed lines with a little context."""
    if request.action == "delete":
        size = len(request.before or b"")
        return [f"The whole file would be deleted ({size:,} bytes). Undo can bring it back."]

    if is_document(request.path):  # as the text the AI reads: headings with #, tables with |
        try:
            before, after = _rendered(request.before, request.path), _rendered(request.after,
                                                                             request.path)
        except DocumentError as exc:
            return [clean_line(exc.message)]
    else:
        before, after = _text(request.before), _text(request.after)
    if (before is None and request.before is not None) or after is None:
        return [f"{request.path} is not plain text: {len(request.before or b''):,} bytes "
                f"before, {len(request.after or b''):,} bytes after."]
    lines = list(difflib.unified_diff((before or "").splitlines(), (after or "").splitlines(),
                                      "before", "after", n=2, lineterm=""))[2:]
    if not lines:
        return ["(no visible change)"]
    if len(lines) > limit:
        lines = lines[:limit] + [f"… and {len(lines) - limit} more lines"]
    # The content is what would be written, controls and all: spelled out (\x1b, \u202e),
    # never obeyed by the terminal nor dropped from view, so what is allowed is what is seen.
    return [reveal(line) for line in lines]


def _rendered(data: bytes | None, name: str) -> str | None:
    return None if data is None else render_bytes(data, name)


def _text(data: bytes | None) -> str | None:
    if data is None:
        return None
    try:
        return data.decode("utf-8").lstrip("\ufeff")
    except UnicodeDecodeError:
        return None


class TerminalApprover:
    """Asks at the terminal, on the run's thread; the input is read by one helper thread so
    Ctrl+C (which sets `cancel`) is seen while waiting. End of input is no answer."""

    def __init__(self, stdin: TextIO | None = None, out: TextIO | None = None):
        self.stdin = stdin or sys.stdin
        self.out = out or sys.stdout
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._reader: threading.Thread | None = None

    def ask(self, request: ApprovalRequest, cancel: threading.Event) -> Answer | None:
        verb = "delete" if request.action == "delete" else "change"
        print(f"\nThe AI wants to {verb} {request.path}.", file=self.out)
        for reason in request.reasons:
            print(f"  {clean_line(reason)}", file=self.out)
        for line in short_diff(request):
            print(f"    {line}", file=self.out)
        request.shown.mark("terminal")
        while True:
            print("Allow this? [y] yes, [n] no, [a] yes to every change for this task: ",
                  end="", file=self.out, flush=True)
            answer = self._next_line(cancel)
            if answer is None:
                print("\nNo answer: the change is kept, not made.", file=self.out, flush=True)
                return None
            kind = _CHOICES.get(answer.strip().lower())
            if kind is not None:
                return Answer(kind)  # type: ignore[arg-type]
            print("Please type y, n or a.", file=self.out)

    def _next_line(self, cancel: threading.Event) -> str | None:
        if self._reader is None:
            self._reader = threading.Thread(target=self._read, daemon=True,
                                            name="careful-terminal-input")
            self._reader.start()
        while not cancel.is_set():
            try:
                return self._lines.get(timeout=0.1)
            except queue.Empty:
                continue
        return None

    def _read(self) -> None:
        while True:
            try:
                line = self.stdin.readline()
            except (OSError, ValueError):
                line = ""
            if not line:
                self._lines.put(None)  # end of input: nobody will answer
                return
            self._lines.put(line)


# -- harness-desk approve PATH: the changes kept for the board, shown and answered ---------------
def cmd_approve(args) -> int:
    """Show each kept change whose question waits on the board, as a diff; at a terminal
    ask Allow / Don't allow / later. Showing it is what lets `decide --answer Allow` allow it."""

    ws = Workspace(args.path).require()
    folder = str(Path(args.path).expanduser())
    folder = f'"{folder}"' if " " in folder else folder  # as the other commands print it
    board = Board.load(ws.board_path)
    changes = pending.open_changes(ws.harness_dir / "pending", board)
    if not changes:
        print("No change is waiting for your approval in this folder.")
        return 0
    at_terminal = sys.stdin is not None and sys.stdin.isatty()
    answered = False
    for kept in changes:
        verb = "delete" if kept.action == "delete" else "change"
        name = clean_line(kept.path)
        print(f"\nThe AI wants to {verb} {name} (change {kept.id}).")
        request = pending.kept_request(ws.root, kept)
        if request is None:
            print(f"  {name} changed after the AI proposed this, so this change can no "
                  "longer be made; the next run tells the AI.")
            continue
        for reason in kept.reasons:
            print(f"  {clean_line(reason)}")
        for line in short_diff(request):
            print(f"    {line}")
        kept = pending.mark_shown(kept, "approve")
        question = next(t for t in pending.questions_of(board, kept) if not t.checked)
        if not at_terminal:
            print(f"To answer it: harness-desk decide {folder} --answer Allow "
                  "(or --answer \"Don't allow\").")
            continue
        choice = _ask_kept()
        if choice is None:
            print("Not answered: the change keeps waiting, unmade.")
            continue
        decide(ws.root, choice, task_text=question.text, seen="approve", folder_word=folder)
        answered = True
        print(f"Allowed: {name} will be changed exactly as shown when the run continues."
              if choice == pending.ALLOW and kept.action != "delete" else
              f"Allowed: {name} will be deleted when the run continues."
              if choice == pending.ALLOW else f"Not allowed: {name} stays as it is.")
    if answered:
        print(f"Continue the run with: harness-desk run {folder}")
    return 0


def _ask_kept() -> str | None:
    while True:
        print("Allow this? [y] yes, [n] no, [Enter] decide later: ", end="", flush=True)
        line = sys.stdin.readline()
        word = line.strip().lower()
        if not line or not word:
            return None
        if word in ("y", "yes"):
            return ALLOW
        if word in ("n", "no"):
            return DENY
        print("Please type y or n, or press Enter to decide later.")
