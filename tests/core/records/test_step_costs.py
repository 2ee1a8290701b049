"""What a step costs, counted rather than timed: no scans of the workspace, no disk flushes for
a step that only reads, and a first message that does not grow with the rounds."""

from __future__ import annotations

import os

import pytest

from app.core.records import recorder
from app.core.records.events import StepStarted
from app.core.run.loop import Harness
from tests.scripted import ScriptedEngine, board_workspace, call, fast_limits

FOLDERS = 30


class Counted:
    """Counts calls of one os function during a run, per step (by the step_started events)."""

    def __init__(self, monkeypatch, name: str):
        self.total = 0
        self.at_steps: list[int] = []
        real = getattr(os, name)

        def counted(*args, **kw):
            self.total += 1
            return real(*args, **kw)

        monkeypatch.setattr(os, name, counted)

    def listener(self, event) -> None:
        if isinstance(event, StepStarted):
            self.at_steps.append(self.total)

    def per_step(self) -> list[int]:
        """Calls made from each step_started to the next (the step's tools and records)."""
        return [b - a for a, b in zip(self.at_steps, self.at_steps[1:])]


def many_folders(tmp_path):
    files = {f"area-{n:02d}/note-{k}.md": f"# Note {n}.{k}\n\nopening hours {n} {k}\n"
             for n in range(FOLDERS) for k in range(5)}
    board = "# Plan\n\n- [ ] Summarise the notes\n  - Done when: summary.md exists\n"
    return board_workspace(tmp_path, board, files)


def test_steps_that_read_and_write_files_scan_no_folder(tmp_path, monkeypatch):
    ws = many_folders(tmp_path)
    engine = ScriptedEngine([
        call("read_file", path="area-03/note-1.md"),
        call("read_file", path="area-17/note-4.md", offset=2),
        call("write_file", path="summary.md", content="# Summary\n\nHours.\n"),
        call("edit_file", path="summary.md", old_text="Hours.", new_text="Opening hours."),
        call("read_file", path="summary.md"),
        call("complete_task", summary="Summarised.", evidence=["summary.md"]),
    ])
    scans = Counted(monkeypatch, "scandir")
    result = Harness(ws, engine, fast_limits(), listeners=[scans.listener]).run()
    assert result.state == "done"
    assert scans.per_step()[:5] == [0, 0, 0, 0, 0]


def test_listing_or_searching_one_folder_scans_that_folder_only(tmp_path, monkeypatch):
    ws = many_folders(tmp_path)
    engine = ScriptedEngine([
        call("list_files", path="area-07"),
        call("search_files", query="opening hours 7", path="area-07"),
        call("search_files", query="opening hours 12 3"),  # the whole workspace: asked for
        call("write_file", path="summary.md", content="Hours.\n"),
        call("complete_task", summary="Done.", evidence=["summary.md"]),
    ])
    scans = Counted(monkeypatch, "scandir")
    Harness(ws, engine, fast_limits(), listeners=[scans.listener]).run()
    assert scans.per_step()[:4] == [1, 1, 1 + FOLDERS, 0]
    results = [m.tool_results[0].content for m in engine.requests[-1]["messages"][2::2]]
    assert results[1].count("area-07/note-") == 5
    assert results[2] == "area-12/note-3.md:3: opening hours 12 3"


def test_a_step_that_only_reads_flushes_nothing_to_disk(tmp_path, monkeypatch):
    # The flushes of events.jsonl and status.json wait for a checkpoint (a round ending, a
    # question, a wait) or SYNC_INTERVAL_S; here the interval never comes round.
    monkeypatch.setattr(recorder, "SYNC_INTERVAL_S", 1e9)
    ws = many_folders(tmp_path)
    engine = ScriptedEngine([call("read_file", path=f"area-{n:02d}/note-0.md") for n in range(6)]
                            + [call("give_up", reason="Only reading.", findings="Nothing.")])
    flushes = Counted(monkeypatch, "fsync")
    Harness(ws, engine, fast_limits(stall_limit=1), listeners=[flushes.listener]).run()
    assert flushes.per_step()[:5] == [0, 0, 0, 0, 0]
    assert flushes.total >= 3  # the run's start, its round's end and its end are flushed


def test_what_a_kill_leaves_between_flushes_is_whole(tmp_path, monkeypatch):
    # Without the flushes, every record still reaches the OS whole as its event happens.
    monkeypatch.setattr(recorder, "SYNC_INTERVAL_S", 1e9)
    monkeypatch.setattr(os, "fsync", lambda fd: None)
    ws = many_folders(tmp_path)
    seen = []

    def look(event) -> None:
        if isinstance(event, StepStarted):
            from app.core.workspace.files import read_json, read_jsonl
            from app.core.records.records import read_status

            status, warning = read_status(ws.status_path)
            events = list(read_jsonl(ws.run_files(status.run_id).events))
            seen.append((status.step, warning, events[-1]["type"], read_json(ws.status_path)))

    engine = ScriptedEngine([call("read_file", path="area-01/note-0.md"),
                             call("read_file", path="area-02/note-0.md"),
                             call("give_up", reason="r", findings="f")])
    Harness(ws, engine, fast_limits(stall_limit=1), listeners=[look]).run()
    # status.json is whole at every moment, and of the right run and round; a quick step's
    # start reaches it within STATUS_INTERVAL_S (test_status_writes.py), so here it may say
    # an earlier step; events.jsonl has every line.
    assert [(warning, last) for _, warning, last, _ in seen] == [(None, "step_started")] * 3
    assert all(status["round"] == 1 and status["state"] == "running"
               for *_, status in seen)
    steps = [step for step, *_ in seen]
    assert steps == sorted(steps) and all(0 <= s <= n for n, s in enumerate(steps, 1))


@pytest.mark.parametrize("rounds", [50])
def test_the_first_message_does_not_grow_with_the_rounds(tmp_path, rounds):
    tasks = "".join(f"- [ ] Write part {n}\n  - Done when: part-{n}.md exists\n"
                    for n in range(1, rounds + 3))
    ws = board_workspace(tmp_path, "# Book\n\n" + tasks)

    def step(messages):
        n = int(messages[0].text.split("Current task: Write part ")[1].split("\n")[0])
        if len(messages) == 1:
            return call("write_file", path=f"part-{n}.md", content=f"Part {n}.\n")
        return call("complete_task", summary=f"Wrote part {n}.", evidence=[f"part-{n}.md"])

    engine = ScriptedEngine([], then=step)
    result = Harness(ws, engine, fast_limits(max_rounds=rounds)).run()
    assert result.exit_reason == "max_rounds"
    firsts = [r["messages"][0].text for r in engine.requests if len(r["messages"]) == 1]
    assert len(firsts) == rounds
    assert len(firsts[-1]) <= 1.2 * len(firsts[0])


def test_a_long_history_on_one_task_is_recalled_in_short(tmp_path):
    board = "# Plan\n\n- [ ] Find the lost recipe\n  - Done when: recipe.md exists\n"
    ws = board_workspace(tmp_path, board)
    findings = "I looked in every folder and the recipe is not there. " * 200
    engine = ScriptedEngine([], then=call("give_up", reason="Not found.", findings=findings))
    Harness(ws, engine, fast_limits(max_rounds=8, stall_limit=100, max_attempts=100)).run()
    firsts = [r["messages"][0].text for r in engine.requests]
    assert len(firsts) == 8
    assert "Earlier rounds on this task (7)" in firsts[-1]
    assert len(firsts[-1]) < len(firsts[0]) + 5 * 600  # five notes of at most 500 characters


def test_a_write_flushes_only_the_undo_journal_and_the_file_itself(tmp_path, monkeypatch):
    # Issue 23: the post-image kept after each change is not flushed (undo reads only its
    # fingerprint). Issue 36: nor is the pre-image (the journal names it by its SHA-256,
    # which undo checks): a write step flushes the journal's new line and the person's file,
    # at most two flushes. A second write of the same file in the round flushes the file only.
    # Since issue 36 the file's flush (and the journal's, for a new file) runs on the round's
    # flusher thread after the step: each step start waits for it here, so it counts for
    # the step that asked for it.
    from app.core.undo import flush

    monkeypatch.setattr(recorder, "SYNC_INTERVAL_S", 1e9)
    flushers = []
    real_add = flush.Flusher.add
    monkeypatch.setattr(flush.Flusher, "add",
                        lambda self, path: (flushers.append(self), real_add(self, path))[1])
    ws = many_folders(tmp_path)
    engine = ScriptedEngine([
        call("write_file", path="summary.md", content="# Summary\n\nHours.\n"),  # new file
        call("edit_file", path="summary.md", old_text="Hours.", new_text="Opening hours."),
        call("edit_file", path="area-01/note-1.md", old_text="# Note", new_text="# A note"),
        call("read_file", path="summary.md"),
        call("complete_task", summary="Summarised.", evidence=["summary.md"]),
    ])
    flushes = Counted(monkeypatch, "fsync")

    def listener(event) -> None:
        if isinstance(event, StepStarted):
            for flusher in flushers:
                flusher.join()
        flushes.listener(event)

    result = Harness(ws, engine, fast_limits(), listeners=[listener]).run()
    assert result.state == "done"
    # new file: the journal, the file; edit again: the file; a person's file: the journal
    # and the copy of what it held (side by side: one flush's wait), the file; reading:
    # nothing.
    assert flushes.per_step()[:4] == [2, 1, 3, 0]


def test_a_round_stopped_mid_way_without_its_end_is_still_undone(tmp_path, monkeypatch):
    # What a kill leaves: the changes made, the undo record as of the last change, no
    # round end. With the post-images unflushed, undo still puts everything back.
    from app.core.undo.undo import undo_round

    ws = many_folders(tmp_path)
    original = (ws.root / "area-01/note-1.md").read_bytes()

    class Killed(BaseException):
        pass

    def step(messages):
        raise Killed  # the process dies before the round ends

    engine = ScriptedEngine([
        call("write_file", path="new/summary.md", content="# Summary\n"),
        call("edit_file", path="area-01/note-1.md", old_text="# Note", new_text="# A note"),
        call("edit_file", path="area-01/note-1.md", old_text="# A note", new_text="# The note"),
    ], then=step)
    with pytest.raises(Killed):
        Harness(ws, engine, fast_limits()).run()
    assert (ws.root / "area-01/note-1.md").read_bytes() != original
    report = undo_round(ws.root, 1)
    assert report.ok, report.summary()
    assert (ws.root / "area-01/note-1.md").read_bytes() == original
    assert not (ws.root / "new").exists()


def test_a_kept_copy_is_flushed_on_windows_too(tmp_path, monkeypatch):
    """Windows flushes only a handle open for writing, and a kept copy is read-only: the
    read-only open fails there ("permission denied", seen under Wine: every Demo run
    failed at its first round's end), so the copy is made writable for the flush, then
    read-only again."""
    import stat as st

    from app.core.undo import blobs

    copy = tmp_path / "blob"
    copy.write_bytes(b"kept")
    os.chmod(copy, 0o400)
    flushed = []

    def fsync_open(path, flags):
        if not flags & os.O_RDWR:
            raise PermissionError(13, "Permission denied")  # what Windows says
        assert os.stat(path).st_mode & st.S_IWRITE  # writable for the moment of the flush
        flushed.append(flags)

    monkeypatch.setattr(blobs, "_fsync_open", fsync_open)
    monkeypatch.setattr(blobs.os, "name", "nt")
    blobs._fsync_file(copy)
    monkeypatch.setattr(blobs.os, "name", "posix")
    assert len(flushed) == 1 and st.S_IMODE(os.stat(copy).st_mode) == 0o400


def test_a_write_step_hands_its_flushes_over_when_the_model_is_asked_again(tmp_path, monkeypatch):
    # Issue 36: waking the flusher thread inside a write step cost the step 2-5 ms on a
    # loaded machine (the woken thread takes the GIL between the step's own writes, and the
    # step's thread then waits for a core): the step's flushes are handed over once its
    # tools ran and its events are written, right before the model is asked again, so
    # they run while it answers. Nothing is handed over inside the step.
    from app.core.undo import flush

    order: list[str] = []
    real_kick = flush.Flusher.kick

    def kick(self) -> None:
        if self._noted:
            order.append("hand-off")
        real_kick(self)

    monkeypatch.setattr(flush.Flusher, "kick", kick)
    ws = many_folders(tmp_path)
    engine = ScriptedEngine([
        call("write_file", path="summary.md", content="# Summary\n\nHours.\n"),
        call("edit_file", path="summary.md", old_text="Hours.", new_text="Opening hours."),
        call("complete_task", summary="Summarised.", evidence=["summary.md"]),
    ], on_turn=lambda n: order.append("model"))
    result = Harness(ws, engine, fast_limits(), listeners=[lambda e: order.append(e.type)]).run()
    assert result.state == "done"
    steps = [order[i:i + 3] for i, kind in enumerate(order) if kind == "file_changed"]
    assert steps == [["file_changed", "step_started", "hand-off"]] * 2, order
    assert all(order[i + 1] == "model" for i, kind in enumerate(order) if kind == "hand-off")
