"""The README and docs/ stand alone: every relative link leads to a file in this repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
_LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_the_docs_folder_has_the_pages_a_contributor_needs():
    names = {p.name for p in PAGES}
    assert {"architecture.md", "board.md", "cli.md", "engines.md", "records.md"} <= names


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(REPO).as_posix())
def test_every_relative_link_resolves_inside_the_repository(page):
    for target in _LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue  # a web address or an anchor on the same page
        path = (page.parent / target.split("#", 1)[0]).resolve()
        assert path.is_relative_to(REPO), f"{page.name} links outside the repository: {target}"
        assert path.exists(), f"{page.name} links to a missing file: {target}"


def test_the_readme_starts_with_the_two_commands():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    start = text.split("## Start here", 1)[1].split("\n## ", 1)[0]
    assert re.findall(r"^bash scripts/\S+$", start, re.M) == ["bash scripts/demo.sh",
                                                                "bash scripts/test.sh"]
