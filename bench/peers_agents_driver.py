"""openai-agents' side of `bench.peers`, run by the python of its own virtual environment:
an Agent on OpenAIChatCompletionsModel (the openai SDK's Chat Completions) with two file
tools, run by Runner.run_sync, as its docs show for a model behind another base URL.

    python peers_agents_driver.py BASE_URL MODEL MAX_TURNS TASK

Run in the workspace (the tools' paths are relative to it). Tracing is off: it would upload
each run to OpenAI's platform. Not imported by the project.
"""

import sys
from pathlib import Path

from agents import (Agent, OpenAIChatCompletionsModel, Runner, function_tool,
                    set_tracing_disabled)
from openai import AsyncOpenAI


@function_tool
def write_file(path: str, content: str) -> str:
    """Create a file or replace all of it (folders are made as needed).

    Args:
        path: The file's path in the workspace.
        content: The whole new content.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(content, encoding="utf-8")
    return f"Wrote {len(content)} characters to {path}."


@function_tool
def read_file(path: str) -> str:
    """Read a text file of the workspace.

    Args:
        path: The file's path in the workspace.
    """
    return Path(path).read_text(encoding="utf-8")


def main() -> int:
    base_url, model, max_turns, task = sys.argv[1:5]
    set_tracing_disabled(True)
    client = AsyncOpenAI(base_url=base_url, api_key="sk-bench-loopback")
    agent = Agent(name="Assistant", instructions="You write and read files as asked.",
                  tools=[write_file, read_file],
                  model=OpenAIChatCompletionsModel(model=model, openai_client=client))
    result = Runner.run_sync(agent, task, max_turns=int(max_turns))
    return 0 if result.final_output else 1


if __name__ == "__main__":
    sys.exit(main())
