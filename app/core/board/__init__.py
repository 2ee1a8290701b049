"""The board (TASKS.md): parse, lock, change only the lines meant to change, answer decisions."""
