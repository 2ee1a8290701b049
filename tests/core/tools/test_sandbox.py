"""The sandbox refuses every path that could leave the workspace or reach what the agent may not touch."""

from __future__ import annotations

import os
import sys

import pytest

from app.core.tools.sandbox import PathRefused, Sandbox

needs_symlinks = pytest.mark.skipif(sys.platform == "win32", reason="symlinks need privileges")


@pytest.fixture
def ws(tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    (root / "notes").mkdir()
    (root / "notes" / "plan.md").write_text("plan\n")
    (root / "TASKS.md").write_text("- [ ] a task\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("secret\n")
    return root


ESCAPES = [
    "../../etc/passwd", "../outside/secret.txt", "notes/../../outside/secret.txt",
    "/etc/passwd", "C:\\Windows\\x", "C:/Windows/x", "C:x", "c:relative.txt",
    "\\\\server\\share\\x", "//server/share/x", "\\\\.\\PhysicalDrive0", "\\\\?\\C:\\x",
    "\\Windows\\x", "..\\outside\\secret.txt", "~/.ssh/id_rsa",
]
BAD_NAMES = [
    "a.txt:stream", "notes/a.txt:$DATA", "CON", "con", "NUL.txt", "com1.log", "LPT9",
    "notes/aux.md", "PRN.tar.gz", "nul .txt", "COM\u00b9", "notes.", "trailing ", "",
    "   ", "a\x00b", "bad\nname.txt",
]
HIDDEN = [".git/hooks/x", ".git", ".GIT/config", ".env", ".env.local", "config/.env.production",
          ".harness/status.json", ".Harness/blobs/x", "notes/.git/x"]


@pytest.mark.parametrize("rel", ESCAPES + BAD_NAMES + HIDDEN)
def test_dangerous_paths_are_refused_for_read_and_write(ws, rel):
    box = Sandbox(ws)
    with pytest.raises(PathRefused) as read_exc:
        box.resolve_read(rel)
    with pytest.raises(PathRefused):
        box.resolve_write(rel)
    message = read_exc.value.message
    assert message.endswith(".") and "\n" not in message


def test_refusal_message_says_what_is_allowed(ws):
    with pytest.raises(PathRefused) as exc:
        Sandbox(ws).resolve_read("../../etc/passwd")
    assert "outside the workspace" in exc.value.message
    assert "relative to the workspace" in exc.value.message


@pytest.mark.parametrize("rel", ["TASKS.md", "tasks.md", "./Tasks.MD", "notes/../TASKS.md"])
def test_board_is_readable_but_never_writable(ws, rel):
    box = Sandbox(ws)
    assert box.resolve_read(rel).name.lower() == "tasks.md"
    with pytest.raises(PathRefused) as exc:
        box.resolve_write(rel)
    assert exc.value.message == "TASKS.md can only be changed with complete_task or ask_human."


def test_a_tasks_md_in_a_subfolder_is_an_ordinary_file(ws):
    assert Sandbox(ws).resolve_write("notes/TASKS.md") == ws.resolve() / "notes" / "TASKS.md"


def test_hard_link_to_the_board_is_not_writable(ws):
    try:
        os.link(ws / "TASKS.md", ws / "alias.md")
    except OSError:
        pytest.skip("hard links not supported here")
    with pytest.raises(PathRefused):
        Sandbox(ws).resolve_write("alias.md")


@pytest.mark.parametrize("rel,expected", [
    ("notes/plan.md", "notes/plan.md"), ("notes\\plan.md", "notes/plan.md"),
    ("./notes//plan.md", "notes/plan.md"), ("notes/../notes/plan.md", "notes/plan.md"),
    ("new/deep/file.txt", "new/deep/file.txt"), ("environment.md", "environment.md"),
    (".gitignore", ".gitignore"), ("notes/.github/ci.yml", "notes/.github/ci.yml"),
    ("console.txt", "console.txt"), ("com10.txt", "com10.txt"),
])
def test_ordinary_relative_paths_resolve_inside(ws, rel, expected):
    box = Sandbox(ws)
    path = box.resolve_write(rel)
    assert box.rel(path) == expected
    assert path == ws.resolve().joinpath(*expected.split("/"))


def test_root_can_be_listed_but_not_written(ws):
    box = Sandbox(ws)
    assert box.resolve_read(".") == ws.resolve()
    assert box.rel(box.resolve_read(".")) == "."
    with pytest.raises(PathRefused):
        box.resolve_write(".")
    with pytest.raises(PathRefused):
        box.resolve_write("notes/..")


def test_non_text_path_is_refused(ws):
    with pytest.raises(PathRefused):
        Sandbox(ws).resolve_read(None)  # type: ignore[arg-type]


def test_is_hidden(ws):
    box = Sandbox(ws)
    for rel in [".harness", ".git/config", "a/.env", ".env.local", "x/.harness/y", ".GIT"]:
        assert box.is_hidden(rel), rel
    for rel in ["notes/plan.md", ".gitignore", "environment", "a/b.env.txt"]:
        assert not box.is_hidden(rel), rel


def test_rel_refuses_paths_outside(ws, tmp_path):
    with pytest.raises(ValueError):
        Sandbox(ws).rel(tmp_path / "outside" / "secret.txt")


# -- symlinks ----------------------------------------------------------------------------

@needs_symlinks
def test_link_to_outside_folder_is_refused_for_read_and_write(ws, tmp_path):
    (ws / "out").symlink_to(tmp_path / "outside", target_is_directory=True)
    box = Sandbox(ws)
    for rel in ["out", "out/secret.txt", "out/new.txt"]:
        with pytest.raises(PathRefused) as exc:
            box.resolve_read(rel)
        assert "outside the workspace" in exc.value.message
        with pytest.raises(PathRefused):
            box.resolve_write(rel)


@needs_symlinks
def test_leaf_link_to_outside_file_is_refused(ws, tmp_path):
    (ws / "leak.txt").symlink_to(tmp_path / "outside" / "secret.txt")
    box = Sandbox(ws)
    with pytest.raises(PathRefused):
        box.resolve_read("leak.txt")
    with pytest.raises(PathRefused):
        box.resolve_write("leak.txt")


@needs_symlinks
def test_dangling_link_is_refused_for_read_and_write(ws, tmp_path):
    (ws / "gone.txt").symlink_to(ws / "missing.txt")
    (ws / "gonedir").symlink_to(tmp_path / "nowhere", target_is_directory=True)
    box = Sandbox(ws)
    for rel in ["gone.txt", "gonedir/new.txt"]:
        with pytest.raises(PathRefused) as exc:
            box.resolve_read(rel)
        assert "does not exist" in exc.value.message or "outside" in exc.value.message
        with pytest.raises(PathRefused):
            box.resolve_write(rel)


@needs_symlinks
def test_link_inside_to_inside_resolves_to_the_real_file(ws):
    (ws / "plan-link.md").symlink_to(ws / "notes" / "plan.md")
    (ws / "n").symlink_to(ws / "notes", target_is_directory=True)
    box = Sandbox(ws)
    assert box.rel(box.resolve_write("plan-link.md")) == "notes/plan.md"
    assert box.rel(box.resolve_write("n/new.md")) == "notes/new.md"


@needs_symlinks
def test_link_inside_to_the_board_or_git_is_refused(ws):
    (ws / ".git").mkdir()
    (ws / "board.md").symlink_to(ws / "TASKS.md")
    (ws / "hooks").symlink_to(ws / ".git", target_is_directory=True)
    box = Sandbox(ws)
    with pytest.raises(PathRefused):
        box.resolve_write("board.md")
    with pytest.raises(PathRefused):
        box.resolve_read("hooks/config")


@needs_symlinks
def test_dotdot_after_a_link_is_resolved_on_the_text_not_the_target(ws, tmp_path):
    deep = tmp_path / "outside" / "a" / "b"
    deep.mkdir(parents=True)
    (ws / "jump").symlink_to(deep, target_is_directory=True)
    # `jump/..` is the workspace itself, never outside/a.
    box = Sandbox(ws)
    assert box.rel(box.resolve_read("jump/../notes/plan.md")) == "notes/plan.md"


@needs_symlinks
def test_root_given_through_a_link_is_resolved_once(ws, tmp_path):
    alias = tmp_path / "alias"
    alias.symlink_to(ws, target_is_directory=True)
    box = Sandbox(alias)
    assert box.root == ws.resolve()
    assert box.rel(box.resolve_read("notes/plan.md")) == "notes/plan.md"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_named_pipe_is_refused_for_read_and_write_instead_of_hanging(ws):
    os.mkfifo(ws / "notes" / "pipe.txt")
    box = Sandbox(ws)
    for resolve in (box.resolve_read, box.resolve_write):
        with pytest.raises(PathRefused) as caught:
            resolve("notes/pipe.txt")
        assert "special file" in caught.value.message


@pytest.mark.parametrize("rel", ["TASKS.md\u200b", "\u200bTASKS.md", "TAS\u200dKS.md",
                                 "tasks.md\ufeff", "AGENTS.md\u2060", "TASKS\u00ad.md",
                                 "\u202etasks.md", ".git\u200b/config", ".harness\u200c/x",
                                 ".env\u200b", "TASKS.md\x9b", "notes\x8f.md"])
def test_a_look_alike_of_a_protected_name_is_refused(ws, rel):
    # Issue 16: a decoy board, `TASKS.md` plus a zero-width character, looks like the real one.
    with pytest.raises(PathRefused) as caught:
        Sandbox(ws).resolve_write(rel)
    assert "invisible" in caught.value.message or "control" in caught.value.message
    assert not any(p.name != "TASKS.md" and "TASKS" in p.name for p in ws.iterdir())


def test_invisible_characters_elsewhere_are_an_ordinary_name(ws):
    # A zero-width joiner belongs in some scripts (emoji, Indic names): only look-alikes go.
    assert Sandbox(ws).resolve_write("notes/\u0915\u094d\u200d\u0937.md").name.endswith(".md")
