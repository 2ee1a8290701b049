"""AI engines behind one small interface. Never imports Qt."""
