"""`harness-desk` as a person starts it: the self-test, and the terminal demo without a display."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def env_for(config: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("HARNESS_DESK_", "ANTHROPIC_", "OPENAI_", "QT_QPA"))
           and k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(HARNESS_DESK_CONFIG_DIR=str(config), PYTHONPATH=str(REPO),
               PYTHONIOENCODING="utf-8", **extra)
    return env


def harness_desk(*args: str, env: dict[str, str], timeout: float = 120):
    return subprocess.run([sys.executable, "-m", "app", *args], env=env, capture_output=True,
                          text=True, encoding="utf-8", timeout=timeout,
                          stdin=subprocess.DEVNULL, cwd=REPO)


def test_self_test_runs_the_window_flow_headless_and_passes(tmp_path):
    done = harness_desk("self-test", env=env_for(tmp_path / "config"))
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    for check in ("main window shown", "Demo run stopped at its decision",
                  "decision answered through the dialog", "run continued to Done",
                  "summary exported as PDF", "documents written and read back",
                  "keychain backend"):
        assert any(line.startswith("ok") and check in line for line in lines), done.stdout
    assert lines[-1].startswith("self-test passed")
    assert "Traceback" not in done.stderr
    # The person's own settings folder is left alone: the self-test used a throwaway one.
    assert not (tmp_path / "config" / "settings.json").exists()


@pytest.mark.skipif(sys.platform != "linux", reason="'no display' is a Linux desktop notion")
def test_without_a_display_the_demo_runs_in_the_terminal_and_says_so(tmp_path):
    env = env_for(tmp_path / "config", HARNESS_DESK_DEMO_DELAY="0")
    done = harness_desk(env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "there is no display here, so the demo runs in this terminal" in done.stdout
    assert "Every task on the board is done." in done.stdout


@pytest.mark.skipif(sys.platform != "linux", reason="'no display' is a Linux desktop notion")
def test_a_later_demo_never_wipes_a_demo_copy_the_person_changed(tmp_path):
    env = env_for(tmp_path / "config", HARNESS_DESK_DEMO_DELAY="0")
    assert harness_desk(env=env).returncode == 0
    first = tmp_path / "config" / "Demo workspace (terminal)"
    (first / "my-notes.md").write_text("mine", encoding="utf-8")
    assert harness_desk(env=env).returncode == 0
    assert (first / "my-notes.md").read_text(encoding="utf-8") == "mine"
    assert (tmp_path / "config" / "Demo workspace (terminal) 2" / "TASKS.md").is_file()


@pytest.mark.skipif(sys.platform != "linux", reason="'no display' is a Linux desktop notion")
def test_the_terminal_demo_speaks_plain_words_and_leaves_the_windows_demo_untouched(tmp_path):
    """Issue 18, point 18: no internal words (needs_human, (blocked_by_human)) in the
    terminal demo, and a window opened after it opens "Demo workspace", not "… 2"."""
    from app.gui.folder.first_start import demo_copy

    env = env_for(tmp_path / "config", HARNESS_DESK_DEMO_DELAY="0")
    done = harness_desk(env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    for word in ("needs_human", "blocked_by_human", "all_tasks_done", "(done)"):
        assert word not in done.stdout, word
    assert "ended: asked for your decision" in done.stdout
    import os
    os.environ["HARNESS_DESK_CONFIG_DIR"] = str(tmp_path / "config")
    try:
        assert demo_copy(fresh=True).name == "Demo workspace"
    finally:
        del os.environ["HARNESS_DESK_CONFIG_DIR"]


def test_a_folder_that_does_not_exist_is_one_sentence(tmp_path):
    done = harness_desk(str(tmp_path / "nowhere"), env=env_for(tmp_path / "config"))
    assert done.returncode == 2
    assert "There is no command or folder called" in done.stderr
    assert "Traceback" not in done.stderr
