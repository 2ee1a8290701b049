"""The board (TASKS.md): parse tasks, change only the lines meant to change, write back byte for byte."""

from __future__ import annotations

import os
import threading
import time
from itertools import chain
from pathlib import Path
from typing import Any, Callable, Iterator, TypeVar

from app.core.board.lock import board_lock
from app.core.board.markdown import last_block_start, task_lines
from app.core.board.task import (  # BoardError .. one_line: re-exported
    KEYED_DETAIL, TASK_LINE, BoardError as BoardError, StaleTask as StaleTask, Task as Task,
    TaskRef as TaskRef, detail_split, encode, norm, one_line as one_line, split_eol)
from app.core.workspace.files import atomic_write_bytes, read_bytes

T = TypeVar("T")

BOM = "\ufeff"
_UPDATE_RETRIES = 5
# A stable read (see _stable_read): two reads this far apart must agree, for at most this long.
_SETTLE_S = 0.025
_SETTLE_LIMIT_S = 2.0
_QUIET_S = 3.0  # a board not written for this long is not mid-save
_sleep = time.sleep  # one name, so tests can play the editor while we wait
# The last board update_board wrote to each path, or _stable_read saw hold still (a few):
# (bytes, size, mtime, inode, device).
_WRITTEN: dict[str, tuple[Any, ...]] = {}
_WRITTEN_LOCK = threading.Lock()
# The board last read from bytes or written by update_board, as (its bytes, a copy of it):
# reading the same bytes again (a write's own read, the checklist right after a tick, the
# loop between steps) takes a copy, a fifth of a parse on a long board.
_LAST: tuple[bytes, "Board"] | None = None

TEMPLATE = """# Tasks

Write one task per line as "- [ ] what you want done", in the order they should be done.
Under a task, add "  - Done when: ..." lines that say how to tell it is finished.
Start a task with "HUMAN:" when it is a decision only you should make; the run stops and asks you.

- [ ] List the files in this folder and what each one is for
  - Done when: overview.md has one line per file
- [ ] Suggest three clearer titles for the main document
  - Done when: titles.md lists three titles, each with one sentence on why
"""

# The same in Simplified Chinese, for a window shown in Chinese. The keys the board reads
# ("- [ ]", "Done when:", "HUMAN:") stay as they are: they are the format, not the words.
TEMPLATE_ZH_CN = """# 任务

每行写一个任务，格式是“- [ ] 你想做的事”，按要做的先后顺序排列。
在任务下面加“  - Done when: ……”行，写明怎样算做完。
如果某件事只该由你来决定，就在任务开头写“HUMAN:”，运行到那里会停下来问你。

- [ ] 列出这个文件夹里的文件，以及每个文件的用途
  - Done when: overview.md 里每个文件占一行
- [ ] 为主要文档想三个更清楚的标题
  - Done when: titles.md 列出三个标题，每个附一句理由
"""


def template(lang: str | None = None) -> str:
    """The starter TASKS.md in `lang` ("zh_CN", "zh" or "zh-CN": Simplified Chinese; anything
    else, or None: English)."""
    if lang and lang.replace("-", "_").lower() in ("zh", "zh_cn", "zh_hans"):
        return TEMPLATE_ZH_CN
    return TEMPLATE


class Board:
    """Lines are kept with their own endings; tasks are re-derived after every change (but a
    tick, which cannot change which lines are tasks, only updates its own task).

    Rules beyond docs/board.md: which lines are tasks is decided by CommonMark (board_md);
    details stay line-based: the contiguous non-blank indented lines right after a task (a
    blank line ends them), whatever Markdown makes of them; "HUMAN:" and detail keys are
    matched case-insensitively; only LF and CRLF end a line (a lone CR stays inside its
    line, and the parser reads it as a space).
    """

    def __init__(self, lines: list[str], bom: str = ""):
        self._lines = lines
        self._bom = bom
        self._scan()

    @classmethod
    def parse(cls, data: bytes | str) -> "Board":
        global _LAST
        last, raw = _LAST, isinstance(data, (bytes, bytearray))
        if cls is Board and raw and last is not None and data == last[0]:
            return last[1]._copy()
        text = data if isinstance(data, str) else data.decode("utf-8", "surrogateescape")
        bom = BOM if text.startswith(BOM) else ""
        board = cls(_split_lines(text[len(bom):]), bom)
        if cls is Board and not isinstance(data, str):
            _LAST = (bytes(data), board._copy())  # a copy: the caller may change its board
        return board

    def reads_back_as_itself(self, data: bytes) -> bool:
        """Whether Board.parse(data), `data` being this board's to_bytes(), reads these very
        lines, so its tasks are these: true unless a change put a line break inside a line,
        or a character UTF-8 cannot carry. Cheap next to a parse (no task is looked for)."""
        text = data.decode("utf-8", "surrogateescape")
        bom = BOM if text.startswith(BOM) else ""
        return bom == self._bom and _split_lines(text[len(bom):]) == self._lines

    def _copy(self) -> "Board":
        new = Board.__new__(Board)
        new._lines, new._bom, new._ends = list(self._lines), self._bom, list(self._ends)
        new._tasks = [Task(t.index, t.line_no, t.text, t.checked, list(t.details), t.bullet)
                      for t in self._tasks]
        return new

    @classmethod
    def load(cls, path: Path | str) -> "Board":
        return cls.parse(_stable_read(Path(path)))

    def to_bytes(self) -> bytes:
        return encode(self._bom + "".join(self._lines))

    def __str__(self) -> str:
        return self._bom + "".join(self._lines)

    # -- reading -------------------------------------------------------------------------

    def _scan(self) -> None:
        # Each line without its ending (split_eol, inline: this runs on every change).
        bodies = [ln[:-2] if ln.endswith("\r\n") else ln[:-1] if ln.endswith("\n") else ln
                  for ln in self._lines]
        tasks: list[Task] = []
        ends: list[int] = []  # line after each task's last detail: where new details go
        n = len(bodies)
        for i in task_lines(bodies):  # in order; a task line is never indented
            body = bodies[i]
            m = TASK_LINE.match(body)
            if m is None:  # "- [ ]" then a lone CR: the parser's task, not the board's
                continue
            details: list[str] = []
            j = i + 1
            while j < n and bodies[j][:1] in (" ", "\t") and bodies[j].strip():
                details.append(detail_split(bodies[j])[1])
                j += 1
            tasks.append(Task(len(tasks), i, body[m.end():].strip(), m.group(2) != " ",
                              details, m.group(1)))
            ends.append(j)
        self._tasks, self._ends = tasks, ends

    @property
    def tasks(self) -> list[Task]:
        return list(self._tasks)

    @property
    def lines(self) -> list[str]:
        """The board's lines, each with its own line ending (first line without the BOM)."""
        return list(self._lines)

    def next_task(self) -> Task | None:
        return next((t for t in self._tasks if not t.checked), None)

    def counts(self) -> tuple[int, int]:
        return sum(t.checked for t in self._tasks), len(self._tasks)

    def find(self, text: str) -> Task | None:
        return self._find(text, want_checked=False)

    def _find(self, text: str, want_checked: bool) -> Task | None:
        # The person may have reordered or retyped tasks since we last looked: match by text,
        # exact first, then ignoring spacing and case; prefer the task in the state we expect.
        target = text.strip()
        for same in (lambda t: t.text == target, lambda t: norm(t.text) == norm(target)):
            hits = [t for t in self._tasks if same(t)]
            if hits:
                return next((t for t in hits if t.checked == want_checked), hits[0])
        return None

    def _require(self, text: str, want_checked: bool = False) -> Task:
        task = self._find(text, want_checked)
        if task is None:
            raise BoardError(f"The task \"{one_line(text)}\" is no longer on the board.")
        return task

    # -- changing ------------------------------------------------------------------------

    def _eol(self) -> str:
        crlf = sum(1 for ln in self._lines if ln.endswith("\r\n"))
        lf = sum(1 for ln in self._lines if ln.endswith("\n")) - crlf
        return "\r\n" if crlf > lf else "\n"

    @property
    def eol(self) -> str:
        """The line ending most of the board's lines use (LF when tied or none)."""
        return self._eol()

    def span(self, task: Task) -> tuple[int, int]:
        """The task's lines: its own and its details, as a range of line indexes."""
        return task.line_no, self._ends[task.index]

    def task_at(self, ref: TaskRef, name: str = "TASKS.md") -> Task:
        """The task a ref names, or StaleTask when its position or text moved on."""
        if 0 <= ref.index < len(self._tasks) and self._tasks[ref.index].text == ref.text:
            return self._tasks[ref.index]
        raise StaleTask(name)

    def replace_lines(self, start: int, end: int, lines: list[str]) -> None:
        """Replace lines [start, end) with `lines`, each with or without its line ending.

        A line without an ending gets the board's, unless it becomes the file's last line;
        the file keeps or lacks its final newline as before. Tasks are read again.
        """
        eol = self._eol()
        new = list(lines)
        at_end = end == len(self._lines)
        bare_end = at_end and bool(self._lines) and not split_eol(self._lines[-1])[1]
        if bare_end and start == end:
            self._lines[-1] += eol  # appending after a bare last line: end that line first
        for i, line in enumerate(new):
            last = at_end and i == len(new) - 1
            if last and bare_end:
                new[i] = split_eol(line)[0]
            elif not last and not split_eol(line)[1]:
                new[i] = line + eol
        self._lines[start:end] = new
        self._scan()

    def _insert(self, at: int, bodies: list[str]) -> None:
        eol = self._eol()
        self.replace_lines(at, at, [b + eol for b in bodies])

    def signature(self) -> list[tuple[str, bool, tuple[str, ...]]]:
        """Each task as (text, checked, details): what a change must keep for the others."""
        return [(t.text, t.checked, tuple(t.details)) for t in self._tasks]

    def _append_spots(self) -> Iterator[int]:
        if self._tasks:
            yield self._ends[-1]
        yield len(self._lines)
        # The end is inside something that hides tasks (an unclosed fence or comment):
        # go before the last top-level block instead.
        start = last_block_start([split_eol(ln)[0] for ln in self._lines])
        if start is not None:
            yield start

    def place_task(self, index: int, lines: list[str], near: int | None = None) -> Task:
        """Insert a task's lines (task line first) so that it becomes task `index`.

        `index` is clamped to 0..len(tasks); len(tasks) puts it after the last task (or, on
        a board without tasks, at the end). Line `near` is tried first (where an undone
        delete was). The result is checked: every other task reads exactly as before, or
        the board is left unchanged and BoardError says why.
        """
        index = min(max(index, 0), len(self._tasks))
        before, saved = self.signature(), list(self._lines)
        spots = iter([self._tasks[index].line_no]) if index < len(self._tasks) \
            else self._append_spots()
        tried = set()
        first = [near] if near is not None and 0 <= near <= len(saved) else []
        for at in chain(first, spots):  # lazily: the last spot parses the whole board
            if at in tried:
                continue
            tried.add(at)
            self.replace_lines(at, at, lines)
            after = self.signature()
            if len(after) == len(before) + 1 and after[:index] + after[index + 1:] == before \
                    and self._tasks[index].line_no == at:
                return self._tasks[index]
            self._lines = list(saved)
            self._scan()
        raise BoardError("There is no place for that task where Markdown would read it as a "
                         "task without changing the others; add it in an editor instead.")

    def detail_prefix(self, task: Task) -> str:
        """How a new detail line of this task starts (indent and bullet)."""
        # Follow the style of the task's existing details (tabs, 4 spaces, `*`) if it has any.
        if task.details:
            prefix = detail_split(split_eol(self._lines[task.line_no + 1])[0])[0]
            return prefix if prefix[-1:] in (" ", "\t") else prefix + " "
        return "  " + task.bullet + " "

    def set_checked(self, text: str, checked: bool = True) -> Task:
        return self._check(self._require(text, want_checked=not checked), checked)

    def _check(self, task: Task, checked: bool) -> Task:
        if task.checked != checked:  # an existing "X" stays "X": no change, no diff
            line = self._lines[task.line_no]
            match = TASK_LINE.match(split_eol(line)[0])
            assert match is not None  # a task's line: it matched when the board was scanned
            pos = match.start(2)  # "- [ ]\r\n": no text, CRLF
            self._lines[task.line_no] = line[:pos] + ("x" if checked else " ") + line[pos + 1:]
            # No new scan: a checkbox's character never changes which lines are tasks ("[ ]"
            # and "[x]" both make a candidate line and neither a suspect one, see board_md;
            # neither can be a link reference definition, which needs "]:").
            self._tasks[task.index] = Task(task.index, task.line_no, task.text, checked,
                                           list(task.details), task.bullet)
        return self._tasks[task.index]

    def check(self, task: Task, checked: bool) -> Task:
        """Tick (or untick) `task`, one of this board's own: one character changes."""
        return self._check(task, checked)

    def add_details(self, text: str, lines: list[str]) -> None:
        task = self._require(text)
        bodies = [v for v in (one_line(x) for x in lines) if v]
        if bodies:
            prefix = self.detail_prefix(task)
            self._insert(self._ends[task.index], [prefix + b for b in bodies])

    def insert_human_before(self, text: str | None, question: str, options: list[str],
                            evidence: list[str], recommendation: str | None = None) -> Task:
        question = one_line(question)
        if not question:
            raise BoardError("A decision needs a question.")
        target = self._find(text, want_checked=False) if text is not None else None
        if target is not None:
            index, bullet = target.index, target.bullet
        else:
            index = len(self._tasks)
            bullet = self._tasks[-1].bullet if self._tasks else "-"
        details = [f"Option: {v}" for v in map(one_line, options) if v]
        details += [f"Evidence: {v}" for v in map(one_line, evidence) if v]
        if recommendation and one_line(recommendation):
            details.append(f"Recommendation: {one_line(recommendation)}")
        eol = self._eol()
        return self.place_task(index, [f"{bullet} [ ] HUMAN: {question}{eol}"]
                               + [f"  {bullet} {d}{eol}" for d in details])

    def answer_human(self, answer: str, text: str | None = None) -> Task:
        answer = one_line(answer)
        if not answer:
            raise BoardError("An answer needs some text.")
        if text is None:
            task = next((t for t in self._tasks if t.is_human and not t.checked), None)
        else:
            task = self._find(text, want_checked=False)
            task = task if task is not None and task.is_human else None
        if task is None:
            raise BoardError("There is no open decision on the board.")
        task = self._check(task, True)
        for i in range(task.line_no + 1, self._ends[task.index]):
            body, eol = split_eol(self._lines[i])
            prefix, content = detail_split(body)
            m = KEYED_DETAIL.match(content)
            if m and m.group(1).lower() == "answer":
                # Answered again: replace the old answer rather than add one nobody reads.
                self._lines[i] = prefix + f"Answer: {answer}" + eol
                self._scan()
                return self._tasks[task.index]
        self._insert(self._ends[task.index], [self.detail_prefix(task) + f"Answer: {answer}"])
        return self._tasks[task.index]

    def add_task(self, text: str) -> Task:
        text = one_line(text)
        if not text:
            raise BoardError("A task needs some text.")
        bullet = self._tasks[-1].bullet if self._tasks else "-"
        return self.place_task(len(self._tasks), [f"{bullet} [ ] {text}{self._eol()}"])


def _read(path: Path | str, name: str | None = None) -> bytes:
    """One plain read; every failure becomes a sentence naming the file as the person knows it."""
    path = Path(path)
    name = name or path.name
    try:
        return read_bytes(path)
    except FileNotFoundError:
        raise BoardError(f"There is no {name} in this folder. Create one with "
                         "\"harness-desk init\" or from the app.") from None
    except IsADirectoryError:
        raise BoardError(f"{name} is a folder, not a file.") from None
    except OSError as exc:
        raise BoardError(f"Could not read {name}: {exc.strerror or exc}.") from None


def _sample(path: Path, name: str) -> tuple[tuple[Any, ...], bytes | BoardError]:
    """(what to compare, what to hand back): the bytes plus size, mtime and inode, or the error."""
    try:
        data = _read(path, name)
        st = os.stat(path)
    except BoardError as exc:
        return ("error", str(exc)), exc
    except OSError:  # gone between the read and the stat: mid-save; never equal to anything
        return ("vanished", object()), BoardError(f"There is no {name} in this folder.")
    return (data, st.st_size, st.st_mtime_ns, st.st_ino, st.st_dev), data


def _remember(path: Path, key: tuple[Any, ...]) -> None:
    """Note the board at `path` as it stands (written by us, or seen to hold still), for
    _stable_read: any save since would have moved its mtime or size."""
    with _WRITTEN_LOCK:
        _WRITTEN.pop(str(path), None)
        _WRITTEN[str(path)] = key
        while len(_WRITTEN) > 8:
            del _WRITTEN[next(iter(_WRITTEN))]


def _stable_read(path: Path, name: str | None = None) -> bytes:
    """The board's bytes once the file holds still: two reads _SETTLE_S apart must agree.

    Why: editors like Notepad, or vim with backupcopy=yes, save in place: truncate, then
    write, sometimes in several pieces. A single read can land in between and see half a
    board (or an empty one). The loop would then find "no tasks left" and end the run as
    done, and update_board would os.replace the file with that half board: the editor's
    remaining writes go to the replaced, now nameless inode and the tasks are gone. Editors
    that save by rename leave a moment with no file at all; that must not end a run either.
    Two agreeing reads (bytes, size, mtime, inode) 25 ms apart rule out any save that does
    not pause longer than that halfway; one extra read and 25 ms per load is cheap next to a
    round. A missing or unreadable file is reported only when it stays so for two reads.
    Bounded: a file that never settles gives a sentence after _SETTLE_LIMIT_S.
    """
    name = name or path.name
    deadline = time.monotonic() + _SETTLE_LIMIT_S
    key, value = _sample(path, name)
    # Every write of a save moves the mtime, so a file untouched for a few seconds is not
    # being saved: the common case costs one read (the margin covers FAT's 2 s mtimes).
    if not isinstance(value, BoardError) and time.time() - key[2] / 1e9 > _QUIET_S:
        return value
    with _WRITTEN_LOCK:
        if not isinstance(value, BoardError) and key in _WRITTEN.values():
            return value  # just as we wrote it: any save since would have moved mtime or size
    while True:
        _sleep(_SETTLE_S)
        new_key, new_value = _sample(path, name)
        if new_key == key:
            if isinstance(new_value, BoardError):
                raise new_value
            _remember(path, new_key)  # held still: this very state read again needs no wait
            return new_value
        if time.monotonic() >= deadline:
            raise BoardError(f"{name} keeps changing, as if an editor were still saving it. "
                             "Save it, then try again.")
        key = new_key


def _split_lines(text: str) -> list[str]:
    # Only \n ends a line: str.splitlines would also split on \v, \x85, \u2028 and lose bytes.
    lines = text.split("\n")
    tail = lines.pop()
    lines = [ln + "\n" for ln in lines]
    if tail:
        lines.append(tail)
    return lines


def update_board(path: Path | str, change: Callable[[Board], T], *, removes_tasks: bool = False) -> T:
    """Apply `change` to the board on disk without losing an edit the person made meanwhile.

    The board is read with _stable_read, so a save caught halfway is never the starting
    point. The person's editor may still save between our read and our write: we re-read
    just before writing and, if the bytes moved, run `change` again on the fresh board. A
    tiny window between that check and os.replace remains; no portable lock covers other
    editors. Our own writers (the checklist, the run, another process of ours) never race:
    each holds the board's lock (board_lock.py) from its read to its write. As a last guard,
    a board with fewer tasks than we read is never written unless
    the caller says its change removes tasks (`removes_tasks`; no change does today).

    A symlinked TASKS.md (a board shared between folders) is updated where it lives: the
    link's target is replaced atomically in the target's folder and the link stays a link.
    """
    path = Path(path)
    with board_lock(path, path.name):  # every writer of ours, one at a time (board_lock.py)
        return _update_locked(path, change, removes_tasks)


def _update_locked(path: Path, change: Callable[[Board], T], removes_tasks: bool) -> T:
    for _ in range(_UPDATE_RETRIES):
        real = Path(os.path.realpath(path))
        before = _stable_read(real, path.name)
        board = Board.parse(before)
        had = len(board.tasks)
        result = change(board)
        after = board.to_bytes()
        same = board.reads_back_as_itself(after)  # then its tasks are what a re-read finds
        if after != before and not removes_tasks and \
                len((board if same else Board.parse(after)).tasks) < had:
            raise BoardError(f"The harness did not save {path.name}: the change would have "
                             "removed tasks from it.")
        try:
            moved = _read(real, path.name) != before
        except BoardError:  # gone for a moment (an editor saving by rename): read it again
            moved = True
        if moved:
            continue
        if after != before:
            atomic_write_bytes(real, after)
            if same:
                global _LAST
                _LAST = (after, board._copy())  # a copy: `change` may keep a Task
            try:  # our bytes, and the file as it stands: an editor already at it differs
                st = os.stat(real)
            except OSError:
                return result
            _remember(real, (after, st.st_size, st.st_mtime_ns, st.st_ino, st.st_dev))
        return result
    raise BoardError(f"{path.name} kept changing while the harness tried to update it. "
                     "Try again in a moment.")
