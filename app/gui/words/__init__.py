"""The window's words: the sentences a person reads about runs, rounds, engines, approvals,
undo and schedules, worked out from records with no widgets. Every part of the window uses
them; they use no part of it."""
