"""Resolving a path on POSIX (issue 23): one lstat a component and no realpath unless a link
is met, the same real path as the walk that asks realpath of every component (Windows's)."""

from __future__ import annotations

import os

import pytest

from app.core.tools.sandbox import PathRefused, Sandbox

posix = pytest.mark.skipif(os.name != "posix", reason="the POSIX walk")


def tree(tmp_path):
    root = tmp_path / "ws"
    (root / "area" / "deep").mkdir(parents=True)
    (root / "area" / "deep" / "note.md").write_text("n", encoding="utf-8")
    (root / "elsewhere").mkdir()
    (root / "elsewhere" / "inner.md").write_text("i", encoding="utf-8")
    (root / "area" / "to-elsewhere").symlink_to(root / "elsewhere", target_is_directory=True)
    (tmp_path / "outside.md").write_text("o", encoding="utf-8")
    (root / "area" / "out").symlink_to(tmp_path / "outside.md")
    return root


@posix
def test_a_path_without_links_is_resolved_without_realpath(tmp_path, monkeypatch):
    box = Sandbox(tree(tmp_path))
    asked: list[str] = []
    real = os.path.realpath
    monkeypatch.setattr(os.path, "realpath", lambda p, *a, **k: asked.append(p) or real(p, *a, **k))
    assert box.resolve_read("area/deep/note.md") == box.root / "area" / "deep" / "note.md"
    assert box.resolve_write("area/deep/new/part.md") == box.root / "area/deep/new/part.md"
    assert asked == []
    assert box.resolve_read("area/to-elsewhere/inner.md") == box.root / "elsewhere" / "inner.md"
    assert asked  # a link: followed by realpath, and checked
    with pytest.raises(PathRefused, match="outside the workspace"):
        box.resolve_read("area/out")


@posix
@pytest.mark.parametrize("rel", ["area/deep/note.md", "area/deep", "area/to-elsewhere/inner.md",
                                 "area/to-elsewhere", "area/deep/note.md/below", "new/a.md",
                                 "area/to-elsewhere/new/b.md", "."])
def test_the_posix_walk_finds_what_the_walk_of_every_component_finds(tmp_path, rel):
    box = Sandbox(tree(tmp_path))
    parts = box._lexical(rel, writing=False)
    assert box._walk(rel, parts) == box._walk_from(rel, parts, 0, box.root)
