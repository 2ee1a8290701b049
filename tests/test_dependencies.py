"""The declared dependencies match the code: every package the app imports is declared, with a
floor no lower than the first release that has what the code uses."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# The first releases built on httpx2, whose Timeout the engines pass in and whose errors they
# catch (anthropic 1.0.0's MIGRATION.md; openai v3.0.0's release notes: "HTTPX2 is now the
# default HTTP client, and httpx is no longer installed automatically").
FLOORS = {"anthropic": (1, 0), "openai": (3, 0), "httpx2": (2, 7)}


def _declared() -> dict[str, tuple[int, ...]]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    floors = {}
    for spec in project["dependencies"]:
        name = _norm(re.split(r"[<>=!~\[; ]", spec, maxsplit=1)[0])
        found = re.search(r">=\s*([\d.]+)", spec)
        floors[name] = tuple(int(p) for p in found.group(1).split(".")) if found else (0,)
    return floors


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _imported_top_level() -> set[str]:
    names = set()
    for path in (REPO / "app").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module.split(".")[0])
    return names - set(sys.stdlib_module_names) - {"app"}


def test_every_imported_package_is_declared():
    declared = _declared()
    owners = packages_distributions()
    missing = set()
    for module in _imported_top_level():
        dists = {_norm(d) for d in owners.get(module, [module])}
        if not dists & set(declared):
            missing.add(module)
    assert not missing, f"imported but not in pyproject.toml: {sorted(missing)}"


def test_sdk_floors_are_releases_the_code_can_import():
    declared = _declared()
    for name, floor in FLOORS.items():
        assert name in declared, name
        assert declared[name] >= floor, (name, declared[name], floor)
