"""Which folder the window opens on, and that a demo copy the person changed is never wiped."""

from __future__ import annotations

import pytest

from app.core.settings import Settings
from app.gui.folder import first_start


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    return tmp_path / "config"


def test_the_first_start_opens_a_copy_of_the_demo(data_dir):
    folder = first_start.start_folder(None, Settings())
    assert folder == data_dir / "Demo workspace"
    assert first_start.is_pristine_demo(folder)
    assert first_start.is_demo_copy(folder)


def test_a_later_start_opens_the_last_folder(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    settings = first_start.remembered(Settings(), mine)
    assert first_start.start_folder(None, settings) == mine.resolve()


def test_when_every_recent_folder_is_gone_the_welcome_page_shows(tmp_path):
    settings = Settings(recent_workspaces=[str(tmp_path / "gone")])
    assert first_start.start_folder(None, settings) is None


def test_a_path_given_wins_and_a_file_means_its_folder(tmp_path):
    (tmp_path / "notes.md").write_text("x", encoding="utf-8")
    assert first_start.start_folder(str(tmp_path / "notes.md"), Settings()) == tmp_path


def test_a_changed_demo_copy_is_never_wiped_by_a_fresh_demo(data_dir):
    first = first_start.demo_copy(fresh=True)
    (first / "brief.md").write_text("Rosie's own words", encoding="utf-8")
    second = first_start.demo_copy(fresh=True)
    assert second != first
    assert (first / "brief.md").read_text(encoding="utf-8") == "Rosie's own words"
    assert first_start.is_pristine_demo(second)


def test_a_run_demo_copy_is_kept_too(data_dir):
    first = first_start.demo_copy(fresh=True)
    (first / ".harness").mkdir()
    assert first_start.demo_copy(fresh=True) != first
    assert first.is_dir()


def test_an_untouched_copy_is_reused_rather_than_copied_again(data_dir):
    first = first_start.demo_copy(fresh=True)
    assert first_start.demo_copy(fresh=True) == first
    assert len(first_start.demo_copies()) == 1


def test_the_last_demo_copy_is_reopened_as_it_was_left(data_dir):
    first = first_start.demo_copy(fresh=True)
    (first / "mine.md").write_text("kept", encoding="utf-8")
    assert first_start.demo_copy(fresh=False) == first


def test_recent_folders_are_most_recent_first_without_repeats(tmp_path):
    settings = Settings()
    for name in ("a", "b", "a"):
        (tmp_path / name).mkdir(exist_ok=True)
        settings = first_start.remembered(settings, tmp_path / name)
    assert [p.rsplit("/", 1)[-1] for p in settings.recent_workspaces] == ["a", "b"]
