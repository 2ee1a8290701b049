"""The run: the loop, how a round ends, and what the harness says to the agent."""
