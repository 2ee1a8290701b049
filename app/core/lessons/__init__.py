"""Lessons from this folder's runs: what went wrong or was wasteful, found in the records without
an AI, grouped by cause, proposed as standing instructions for AGENTS.md, and their effect.

The pieces: history (the records read back), detectors (one named function per kind of
trouble), words (the proposed line in English or Chinese), lessons (grouping, numbers,
effect), store (what the person decided), agents_file and actions (accept, dismiss), reword
(an optional AI rewording of the lines).
"""
