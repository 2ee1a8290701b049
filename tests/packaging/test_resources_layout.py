"""The repository's top level as the design lays it out: resources/ beside app/ (issue 25),
and every way of running the app finds them there through app.core.resources alone."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from app.core import resources

REPO = Path(__file__).resolve().parents[2]


def _tracked(prefix: str) -> list[str]:
    out = subprocess.run(["git", "ls-files", prefix], cwd=REPO, capture_output=True, text=True,
                         check=True).stdout
    return out.split()


def test_resources_are_at_the_top_level_and_not_inside_the_package():
    assert (REPO / "resources" / "prices.json").is_file()
    assert (REPO / "resources" / "demo-workspace" / "TASKS.md").is_file()
    assert (REPO / "resources" / "demo-workspace-zh" / "TASKS.md").is_file()
    assert _tracked("app/resources") == []


def test_a_checkout_finds_the_top_level_folder():
    assert resources.resources_dir().resolve() == (REPO / "resources").resolve()
    assert resources.resource_path("icons", "harness-desk.svg").is_file()


def test_a_bare_checkout_without_an_install_finds_them_too(tmp_path):
    # python -m app from a copy of the source that was never installed: only the checkout's
    # own folders on sys.path, no editable finder.
    code = ("import sys; sys.path[:] = [p for p in sys.path if 'site-packages' not in p];"
            "sys.meta_path[:] = [f for f in sys.meta_path if 'editable' not in repr(f).lower()];"
            f"sys.path.insert(0, {str(REPO)!r});"
            "from app.core.resources import resources_dir; print(resources_dir())")
    out = subprocess.run([sys.executable, "-S", "-c", code], cwd=tmp_path, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert Path(out.stdout.strip()).resolve() == (REPO / "resources").resolve()


def test_a_stale_empty_app_resources_folder_does_not_hide_them(tmp_path, monkeypatch):
    # An old checkout may keep an empty app/resources folder, which Python would take for a
    # namespace package without __init__.py: the lookup must not stop there.
    empty = tmp_path / "resources"
    empty.mkdir()
    monkeypatch.setattr(resources, "files", lambda name: empty)
    assert resources.resources_dir() == resources._CHECKOUT


def test_the_scripts_that_write_resources_write_the_top_level_folder():
    for script in ("scripts/update_translations.sh", "scripts/make_icons.py",
                   "scripts/make_cjk_font.py", "build.spec", "installers/linux/build_deb.sh",
                   "installers/windows/harness-desk.iss"):
        text = (REPO / script).read_text(encoding="utf-8")
        assert "app/resources/icons" not in text.replace("\\", "/"), script
        assert "resources" in text, script
