#!/usr/bin/env bash
# Create .venv (if missing) and install Harness Desk with its test tools into it.
# pip's chatter goes to .venv/setup.log; it is shown only if something fails.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-$(command -v python3 || command -v python)}
. scripts/venv-python.sh
if [ ! -x "$VENV_PY" ]; then
  echo "Setting up .venv (the first time takes a minute or two)..."
  "$PY" -m venv .venv
  . scripts/venv-python.sh
fi
log=.venv/setup.log
if ! { "$VENV_PY" -m pip install --quiet --upgrade pip \
       && "$VENV_PY" -m pip install --quiet -e '.[test]'; } >"$log" 2>&1; then
  tail -n 30 "$log" >&2
  echo "Setting up failed; the whole log is in $log." >&2
  exit 1
fi
