"""A closed window lets go of its folder (issue 24): on Windows an open handle, such as a file
watcher's on the folder, keeps the person from renaming or deleting it after closing the app
("[WinError 145] Directory is not empty" in the frozen self-test under Wine)."""

from __future__ import annotations

from tests.gui.helpers import demo_copy, open_in


def _watched(window) -> list[str]:
    watcher = window.board_view._file._watcher
    return watcher.files() + watcher.directories()


def test_an_open_folder_is_watched(qtbot, window, tmp_path):
    folder = demo_copy(tmp_path)
    open_in(qtbot, window, folder)
    qtbot.waitUntil(lambda: str(folder / "TASKS.md") in _watched(window), timeout=10_000)
    assert str(folder) in _watched(window)


def test_closing_the_window_stops_watching_the_folder(qtbot, window, tmp_path):
    folder = demo_copy(tmp_path)
    open_in(qtbot, window, folder)
    qtbot.waitUntil(lambda: str(folder / "TASKS.md") in _watched(window), timeout=10_000)
    window.close()
    assert _watched(window) == []


def test_opening_another_folder_lets_go_of_the_first(qtbot, window, tmp_path):
    first, second = demo_copy(tmp_path, "First"), demo_copy(tmp_path, "Second")
    open_in(qtbot, window, first)
    open_in(qtbot, window, second)
    qtbot.waitUntil(lambda: str(second / "TASKS.md") in _watched(window), timeout=10_000)
    assert not [p for p in _watched(window) if p.startswith(str(first))]
