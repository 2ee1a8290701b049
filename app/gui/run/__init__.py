"""The run: starting and following a run, its round cards, history, decisions and the words for events."""
