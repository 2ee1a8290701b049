# Sourced by the scripts: VENV_PY is the virtual environment's Python, wherever the platform
# puts it (.venv/bin on Linux and macOS, .venv/Scripts on Windows under Git Bash).
if [ -x .venv/Scripts/python.exe ]; then
  VENV_PY=.venv/Scripts/python.exe
else
  VENV_PY=.venv/bin/python
fi
