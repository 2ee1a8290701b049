"""Settings: the Settings dialog, applying its choices, and the window's language."""
