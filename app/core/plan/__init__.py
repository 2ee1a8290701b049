"""Planning: a round that turns a goal into proposed tasks, and what it leaves on disk."""
