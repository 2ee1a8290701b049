"""The vendor SDKs stay behind their adapters (app/engines/claude/sdk.py, openai_sdk.py), and
pyproject.toml lets in only the SDK releases those adapters were tested with.

An adapter's SUPPORTED is the range its tests (test_claude_sdk.py, test_openai_sdk.py,
test_sdk_path.py, test_stream_events.py) were last run green on, and its upper bound is
the next minor release after the installed one: a bound lifted in pyproject.toml alone,
or in both before the newer SDK is installed (so before the adapter's tests ran on it),
fails here."""

from __future__ import annotations

import ast
import re
import tomllib
from importlib.metadata import version
from pathlib import Path

import anthropic
import openai
import pytest
from packaging.requirements import Requirement
from packaging.version import Version

from app.engines.claude import sdk as claude_sdk
from app.engines.openai import sdk as openai_sdk

REPO = next(p for p in Path(__file__).resolve().parents if (p / "pyproject.toml").exists())
ADAPTERS = {"anthropic": claude_sdk, "openai": openai_sdk}
ADAPTER_FILES = {Path(adapter.__file__).resolve() for adapter in ADAPTERS.values()}
# Methods the SDKs' clients keep private (a leading underscore), reached only by an adapter.
CLIENT_PRIVATE = {name for client in (anthropic.Anthropic, openai.OpenAI) for name in dir(client)
                  if name.startswith("_") and not name.startswith("__")}


def _requirements() -> dict[str, Requirement]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    found = {}
    for line in project["dependencies"]:
        requirement = Requirement(line)
        found[requirement.name.lower()] = requirement
    return found


@pytest.mark.parametrize("name", sorted(ADAPTERS))
def test_pyproject_bounds_the_sdk_to_what_its_adapter_was_tested_with(name):
    adapter = ADAPTERS[name]
    specifier = _requirements()[name].specifier
    supported = Requirement(f"{name}{adapter.SUPPORTED}").specifier
    assert specifier == supported, (
        f"pyproject.toml lets in {name}{specifier}, but {adapter.__name__} was tested with "
        f"{name}{supported}: run its tests with the new release, then raise both")
    uppers = [s for s in specifier if s.operator in ("<", "<=", "==", "~=")]
    assert uppers, f"{name} has no upper bound in pyproject.toml"


@pytest.mark.parametrize("name", sorted(ADAPTERS))
def test_the_installed_sdk_is_the_newest_minor_release_the_bound_lets_in(name):
    adapter = ADAPTERS[name]
    supported = Requirement(f"{name}{adapter.SUPPORTED}").specifier
    installed = Version(version(name))
    assert installed in supported, (name, str(installed), adapter.SUPPORTED)
    (upper,) = [Version(s.version) for s in supported if s.operator == "<"]
    assert upper.release[:2] == (installed.major, installed.minor + 1), (
        f"{adapter.__name__}.SUPPORTED reaches {upper}, past {installed}, the release "
        f"its tests ran on here")


def _private_uses(path: Path, client_private: set[str] = CLIENT_PRIVATE) -> list[str]:
    """Where `path` imports a vendor SDK's private part or calls its client's private
    methods, in every form: `import anthropic._x`, `from openai.lib._x import y`,
    `from anthropic import _x`, `importlib.import_module("openai._x")`, `client._make_x()`."""

    def private(module: str) -> bool:
        parts = module.split(".")
        return parts[0] in ADAPTERS and any(p.startswith("_") for p in parts[1:])

    text = path.read_text(encoding="utf-8")
    if not any(word in text for word in (*ADAPTERS, *client_private)):
        return []  # not a word of it: nothing to parse
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, f"import {a.name}") for a in node.names if private(a.name)]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [f"{node.module}.{a.name}" for a in node.names]
            found += [(node.lineno, f"from {n}") for n in [node.module, *names] if private(n)][:1]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "import_module" and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and private(node.args[0].value)):
            found.append((node.lineno, f"import_module({node.args[0].value!r})"))
        elif (isinstance(node, ast.Attribute) and node.attr in client_private
              and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))):
            found.append((node.lineno, f".{node.attr}"))
    where = path.relative_to(path.parents[1])
    return [f"{where}:{line} {use}" for line, use in found]


def _ours(files: list[Path]) -> set[str]:
    """The private names our own code defines (methods, and attributes set on self), which
    are ours wherever they are used, though an SDK client has one of that name too."""
    names = set()
    for path in files:
        text = path.read_text(encoding="utf-8")
        names |= set(re.findall(r"\bdef (_\w+)", text))
        names |= set(re.findall(r"\bself\.(_\w+)\s*(?::|=(?!=))", text))  # set, or declared
    return names


def test_only_the_adapters_touch_the_sdks_private_parts():
    files = [p for folder in ("app", "bench", "scripts", "tests")
             for p in (REPO / folder).rglob("*.py") if p not in ADAPTER_FILES]
    sdk_only = CLIENT_PRIVATE - _ours(files)
    assert {"_make_sse_decoder", "_make_status_error"} <= sdk_only
    found = [use for path in files for use in _private_uses(path, sdk_only)]
    assert not found, "private SDK parts used outside the adapters:\n" + "\n".join(found)


def test_the_check_sees_every_form_of_use(tmp_path):
    sample = tmp_path / "private_sample.py"
    sample.write_text("import anthropic._base_client\n"
                      "from openai.lib._parsing import x\n"
                      "from openai import _httpx2\n"
                      "importlib.import_module('anthropic._utils')\n"
                      "client._make_sse_decoder()\n"
                      "self._make_status_error()\n"
                      "from anthropic.types import MessageParam\n", encoding="utf-8")
    found = _private_uses(sample)
    assert [use.split(" ", 1)[1] for use in found] == [
        "import anthropic._base_client", "from openai.lib._parsing",
        "from openai._httpx2", "import_module('anthropic._utils')", "._make_sse_decoder"]
    assert all(_private_uses(adapter) for adapter in ADAPTER_FILES)  # they are seen there
