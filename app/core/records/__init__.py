"""The records a run leaves (events, rounds, run, status) and how they read."""
