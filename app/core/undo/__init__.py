"""Undo: pre-images, the round's journal, content-addressed copies and their flushes."""
