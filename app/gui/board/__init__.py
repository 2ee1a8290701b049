"""The board: the checklist TASKS.md as a list, the selected task's details, undo of edits."""
