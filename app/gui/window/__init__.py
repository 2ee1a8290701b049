"""The main window's controllers (main_window.py composes them, compose.py wires them): the
settings and engines, the folder, the run, its decisions, planning, and the evidence."""
