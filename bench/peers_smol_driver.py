"""smolagents' side of `bench.peers`, run by the python of its own virtual environment:
a ToolCallingAgent on OpenAIModel (the openai SDK) with two file tools, as its docs show.

    python peers_smol_driver.py BASE_URL MODEL MAX_STEPS TASK

Run in the workspace (the tools' paths are relative to it). Not imported by the project.
"""

import sys
from pathlib import Path

from smolagents import OpenAIModel, ToolCallingAgent, tool


@tool
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


@tool
def read_file(path: str) -> str:
    """Read a text file of the workspace.

    Args:
        path: The file's path in the workspace.
    """
    return Path(path).read_text(encoding="utf-8")


def main() -> int:
    base_url, model, max_steps, task = sys.argv[1:5]
    agent = ToolCallingAgent(tools=[write_file, read_file],
                             model=OpenAIModel(model_id=model, api_base=base_url,
                                               api_key="sk-bench-loopback"),
                             max_steps=int(max_steps))
    answer = agent.run(task)
    return 0 if answer else 1


if __name__ == "__main__":
    sys.exit(main())
