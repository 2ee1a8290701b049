"""Evidence and undo: what a round read and changed, file previews and diffs, undo, export."""
