"""Plan with AI: a goal in a sentence becomes proposed tasks the person ticks, edits and adds."""
