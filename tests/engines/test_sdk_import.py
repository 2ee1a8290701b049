"""An engine's AI SDK imported on a thread while a run gets ready (app/engines/sdk_import.py)."""

from __future__ import annotations

import argparse
import subprocess
import sys

import app.commands.run as run_command
from app.engines.demo.engine import DemoEngine
from app.engines.setup import build_engine as real_build_engine

BOARD = "# Tasks\n\n- [ ] Write notes.md\n  - Done when: notes.md exists\n"


def _fresh(code: str) -> subprocess.CompletedProcess:
    """`code` in a new interpreter (no SDK imported yet), from this checkout."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)


def test_the_openai_engine_loads_openai_on_a_thread_and_claude_anthropic():
    done = _fresh(
        "import sys, threading\n"
        "from app.engines import sdk_import\n"
        "from app.engines.local.engine import LocalEngine\n"
        "from app.engines.openai.engine import OpenAIEngine\n"
        "from app.engines.claude.engine import AnthropicEngine\n"
        "from app.engines.demo.engine import DemoEngine\n"
        "assert 'openai' not in sys.modules and 'anthropic' not in sys.modules\n"
        "DemoEngine().start_loading(); LocalEngine().start_loading()\n"
        "assert threading.active_count() == 1, 'Demo and Local load nothing ahead'\n"
        "OpenAIEngine().start_loading()\n"
        "AnthropicEngine().start_loading()\n"
        "threads = [t for t in threading.enumerate() if t.name.startswith('import ')]\n"
        "assert sorted(t.name for t in threads) == ['import anthropic', 'import openai'], threads\n"
        "assert all(t.daemon for t in threads)\n"
        "sdk_import.ready('openai'); sdk_import.ready('anthropic')\n"
        "import openai, anthropic\n"
        "assert not openai.__spec__._initializing and not anthropic.__spec__._initializing\n"
        "assert openai.OpenAI and anthropic.Anthropic\n"
        "print('ok')\n")
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]


def test_a_package_that_fails_to_import_leaves_no_traceback_and_fails_again_where_used():
    done = _fresh(
        "from app.engines import sdk_import\n"
        "sdk_import.start('no_such_sdk_for_harness_desk')\n"
        "sdk_import.ready('no_such_sdk_for_harness_desk')\n"
        "try:\n"
        "    import no_such_sdk_for_harness_desk\n"
        "except ModuleNotFoundError as exc:\n"
        "    print('raised', exc.name)\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "raised no_such_sdk_for_harness_desk"
    assert done.stderr == ""  # no thread's traceback for the person to see


def test_run_starts_the_engines_loading_before_its_first_turn(tmp_path, monkeypatch, capsys):
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / "TASKS.md").write_text(BOARD, encoding="utf-8")
    calls: list[str] = []

    class Recording(DemoEngine):
        def start_loading(self) -> None:
            calls.append("start_loading")

        def turn(self, *args, **kwargs):
            calls.append("turn")
            return super().turn(*args, **kwargs)

    def build(settings, root, engine_id=None, **kw):
        engine = real_build_engine(settings, root, "demo", demo_delay=0)
        return Recording(engine.config)

    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setattr(run_command, "build_engine", build)
    args = argparse.Namespace(path=str(tmp_path / "ws"), engine="demo", model=None,
                              base_url=None, demo_delay=0.0, yes=True, careful=False,
                              max_rounds=1, max_steps=None, stall_limit=None, max_attempts=None,
                              budget_usd=None, budget_tokens=None)
    run_command.cmd_run(args)
    assert calls[0] == "start_loading" and calls.count("start_loading") == 1
    assert "turn" in calls
