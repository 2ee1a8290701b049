"""The harness core: board, workspace, sandbox, tools, loop, records, undo. Never imports Qt."""
