"""Engines and keys: the engine picker, Engine settings and the window's calls into the keychain."""
