"""What belongs to the person stays theirs: standing instructions, read-only files, private
modes and the places keys live (issue 8, items 1-4 and 7)."""

from __future__ import annotations

import os
import stat
import sys

import pytest

from app.core.run.loop import Harness
from app.core.tools.sandbox import PathRefused, Sandbox
from app.core.tools.toolbox import ToolBox
from app.core.undo.undo import BlobStore, RoundChanges, undo_manifest
from tests.scripted import ScriptedEngine, board_workspace, call, fast_limits

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX links, modes and pipes")

TASK = "Write notes.md"
BOARD = f"# Plan\n\n- [ ] {TASK}\n  - Done when: notes.md exists\n"
SECRET = "aws_secret_access_key = SECRET-CREDENTIAL-VALUE"


def _report_of(tmp_path, setup) -> str:
    """The first progress report a run sends, after `setup(root)` prepared the workspace."""
    ws = board_workspace(tmp_path, BOARD)
    setup(ws.root)
    engine = ScriptedEngine([call("give_up", reason="test", findings="")])
    Harness(ws, engine, fast_limits(max_rounds=1)).run()
    return engine.requests[0]["messages"][0].text


def _box(root, task=TASK) -> ToolBox:
    changes = RoundChanges(root, BlobStore(root / ".harness"),
                           root / ".harness" / "runs" / "r" / "undo" / "1.json", 1)
    return ToolBox(root, root / "TASKS.md", task, changes)


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


# -- 1. AGENTS.md goes through the sandbox -------------------------------------------------

@posix_only
def test_agents_md_linked_outside_is_never_sent_and_the_report_says_why(tmp_path):
    (tmp_path / "credentials").write_text(SECRET)
    report = _report_of(tmp_path, lambda root: (root / "AGENTS.md").symlink_to(
        tmp_path / "credentials"))
    assert "SECRET-CREDENTIAL" not in report
    assert "AGENTS.md was not read" in report and "outside the workspace" in report


@posix_only
def test_agents_md_linked_to_proc_environ_is_never_sent(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_TEST_ENV_SECRET", "SECRET-CREDENTIAL-VALUE")
    report = _report_of(tmp_path, lambda root: (root / "AGENTS.md").symlink_to(
        "/proc/self/environ"))
    assert "SECRET-CREDENTIAL" not in report and "AGENTS.md was not read" in report


@posix_only
def test_agents_md_that_is_a_pipe_is_skipped_without_hanging(tmp_path):
    report = _report_of(tmp_path, lambda root: os.mkfifo(root / "AGENTS.md"))
    assert "AGENTS.md was not read" in report and "special file" in report


def test_a_huge_agents_md_is_cut_and_the_report_says_so(tmp_path):
    report = _report_of(tmp_path, lambda root: (root / "AGENTS.md").write_text(
        "Write in French.\n" + "x" * 5_000_000))
    assert "Write in French." in report
    assert "only its first 4,000 characters" in report
    assert len(report) < 10_000


def test_agents_md_inside_is_still_the_standing_instructions(tmp_path):
    report = _report_of(tmp_path, lambda root: (root / "AGENTS.md").write_text("Write in French."))
    assert "The person's standing instructions (AGENTS.md):\nWrite in French." in report
    assert "not read" not in report


# -- 2. the agent may not write AGENTS.md ----------------------------------------------------

@pytest.mark.parametrize("rel", ["AGENTS.md", "agents.md", "./Agents.MD", "notes/../AGENTS.md"])
def test_agents_md_is_readable_but_never_writable(tmp_path, rel):
    ws = board_workspace(tmp_path, BOARD, {"AGENTS.md": "Write in French.", "notes/x.md": "x"})
    box = Sandbox(ws.root)
    assert box.resolve_read(rel).name.lower() == "agents.md"
    with pytest.raises(PathRefused) as exc:
        box.resolve_write(rel)
    assert "AGENTS.md" in exc.value.message and "only the person" in exc.value.message


def test_the_agent_cannot_write_edit_or_delete_agents_md(tmp_path):
    ws = board_workspace(tmp_path, BOARD, {"AGENTS.md": "Write in French."})
    box = _box(ws.root)
    for name, args in [("write_file", {"path": "AGENTS.md", "content": "Obey the file."}),
                       ("edit_file", {"path": "AGENTS.md", "old_text": "French",
                                      "new_text": "pirate"}),
                       ("delete_file", {"path": "AGENTS.md"})]:
        outcome = box.call(name, args)
        assert outcome.refused, (name, outcome.content)
    assert (ws.root / "AGENTS.md").read_text() == "Write in French."


def test_a_hard_link_to_agents_md_is_not_writable(tmp_path):
    ws = board_workspace(tmp_path, BOARD, {"AGENTS.md": "Write in French."})
    try:
        os.link(ws.root / "AGENTS.md", ws.root / "alias.md")
    except OSError:
        pytest.skip("hard links not supported here")
    with pytest.raises(PathRefused):
        Sandbox(ws.root).resolve_write("alias.md")


def test_an_agents_md_in_a_subfolder_is_an_ordinary_file(tmp_path):
    ws = board_workspace(tmp_path, BOARD)
    assert Sandbox(ws.root).rel(Sandbox(ws.root).resolve_write("notes/AGENTS.md")) == \
        "notes/AGENTS.md"


# -- 3. read-only files are left alone -----------------------------------------------------

@pytest.fixture
def read_only(tmp_path):
    ws = board_workspace(tmp_path, BOARD, {"contract.txt": "Signed.\n"})
    os.chmod(ws.root / "contract.txt", 0o444)
    yield ws
    for path in ws.root.rglob("*"):
        if not path.is_symlink():
            os.chmod(path, 0o755 if path.is_dir() else 0o644)


@pytest.mark.parametrize("name,args", [
    ("write_file", {"path": "contract.txt", "content": "Unsigned."}),
    ("edit_file", {"path": "contract.txt", "old_text": "Signed", "new_text": "Void"}),
    ("delete_file", {"path": "contract.txt"}),
])
def test_a_read_only_file_is_refused_with_a_sentence(read_only, name, args):
    outcome = _box(read_only.root).call(name, args)
    assert outcome.refused and outcome.is_error
    assert outcome.content.startswith("'contract.txt' is read-only, so it was left alone.")
    assert (read_only.root / "contract.txt").read_text() == "Signed.\n"
    assert _mode(read_only.root / "contract.txt") == 0o444


def test_a_read_only_board_is_never_ticked(read_only):
    os.chmod(read_only.board_path, 0o444)
    (read_only.root / "notes.md").write_text("done")
    before = read_only.board_path.read_bytes()
    outcome = _box(read_only.root).call("complete_task", {"summary": "done",
                                                          "evidence": ["notes.md"]})
    assert outcome.is_error and "'TASKS.md' is read-only, so it was left alone" in outcome.content
    assert read_only.board_path.read_bytes() == before


def test_a_run_on_a_read_only_board_refuses_to_start(read_only):
    from app.core.errors import NotAWorkspace

    os.chmod(read_only.board_path, 0o444)
    engine = ScriptedEngine([])
    with pytest.raises(NotAWorkspace) as exc:
        Harness(read_only, engine, fast_limits()).run()
    assert "TASKS.md is read-only" in exc.value.message and exc.value.message.endswith(".")
    assert engine.requests == []


# -- 4. private modes survive copies and undo -------------------------------------------------

@posix_only
def test_a_private_file_keeps_its_mode_through_pre_image_and_undo(tmp_path):
    ws = board_workspace(tmp_path, BOARD, {"diary.md": "private\n"})
    os.chmod(ws.root / "diary.md", 0o600)
    box = _box(ws.root)
    assert not box.call("delete_file", {"path": "diary.md"}).is_error
    box.changes.finish()
    blobs = [p for p in (ws.root / ".harness" / "blobs").iterdir() if not p.name.startswith(".")]
    assert blobs and all(_mode(b) & 0o077 == 0 for b in blobs), [oct(_mode(b)) for b in blobs]
    report = undo_manifest(ws.root, ws.root / ".harness", box.changes.manifest_path)
    assert report.restored == ["diary.md"]
    assert _mode(ws.root / "diary.md") == 0o600


@posix_only
def test_the_before_round_copy_keeps_the_private_mode(tmp_path):
    ws = board_workspace(tmp_path, BOARD, {"diary.md": "private\n"})
    os.chmod(ws.root / "diary.md", 0o600)
    box = _box(ws.root)
    box.call("write_file", {"path": "diary.md", "content": "by the agent\n"})
    box.changes.finish()
    assert _mode(ws.root / "diary.md") == 0o600
    (ws.root / "diary.md").write_text("edited by the person later\n")
    report = undo_manifest(ws.root, ws.root / ".harness", box.changes.manifest_path)
    (_, saved), = report.kept_both
    assert (ws.root / saved).read_text() == "private\n"
    assert _mode(ws.root / saved) == 0o600


@posix_only
def test_a_shared_blob_takes_the_strictest_mode(tmp_path):
    ws = board_workspace(tmp_path, BOARD, {"open.md": "same\n", "diary.md": "same\n"})
    os.chmod(ws.root / "open.md", 0o644)
    os.chmod(ws.root / "diary.md", 0o600)
    box = _box(ws.root)
    box.call("delete_file", {"path": "open.md"})
    box.call("delete_file", {"path": "diary.md"})
    blobs = [p for p in (ws.root / ".harness" / "blobs").iterdir() if not p.name.startswith(".")]
    assert len(blobs) == 1 and _mode(blobs[0]) & 0o077 == 0
    report = undo_manifest(ws.root, ws.root / ".harness", box.changes.manifest_path)
    assert sorted(report.restored) == ["diary.md", "open.md"]
    assert _mode(ws.root / "open.md") == 0o644 and _mode(ws.root / "diary.md") == 0o600


# -- 7. where keys live is never read ---------------------------------------------------------

SECRET_PLACES = [".ssh/id_rsa", ".ssh/config", ".aws/credentials", ".gnupg/pubring.kbx",
                 "id_ed25519", "backup/id_rsa.pub", "certs/server.pem", "certs/server.key",
                 "me.p12", ".netrc", "vault.kdbx", ".git-credentials", ".pgpass"]


@pytest.mark.parametrize("rel", SECRET_PLACES)
def test_places_that_hold_keys_are_refused_for_read_and_write(tmp_path, rel):
    ws = board_workspace(tmp_path, BOARD, {rel: "PRIVATE KEY"})
    box = Sandbox(ws.root)
    with pytest.raises(PathRefused) as exc:
        box.resolve_read(rel)
    assert "keys or passwords" in exc.value.message
    with pytest.raises(PathRefused):
        box.resolve_write(rel)


def test_places_that_hold_keys_are_neither_listed_nor_searched(tmp_path):
    ws = board_workspace(tmp_path, BOARD, {rel: "PRIVATE KEY" for rel in SECRET_PLACES}
                         | {"notes.txt": "no PRIVATE KEY here"})
    box = _box(ws.root)
    listing = box.call("list_files", {"path": "."}).content
    assert ".ssh" not in listing and "id_ed25519" not in listing and "vault" not in listing
    assert "notes.txt" in listing
    found = box.call("search_files", {"query": "PRIVATE KEY"}).content
    assert found.splitlines() == ["notes.txt:1: no PRIVATE KEY here"]


def test_ordinary_names_near_key_names_are_fine(tmp_path):
    ws = board_workspace(tmp_path, BOARD)
    box = Sandbox(ws.root)
    for rel in ["keynotes.md", "ssh-guide.md", "notes/aws.md", "key.txt", "monkey.md",
                "pem-notes.txt", "identity.md"]:
        box.resolve_write(rel)
