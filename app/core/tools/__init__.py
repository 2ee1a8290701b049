"""The agent's tools behind one bounded, sandboxed ToolBox, and what they read."""
