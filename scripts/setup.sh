#!/usr/bin/env bash
# Create .venv (if missing) and install Harness Desk with its test tools into it.
# pip's chatter goes to .venv/setup.log; it is shown only if something fails.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "Setting up .venv (the first time takes a minute or two)..."
  "$PY" -m venv .venv
fi
log=.venv/setup.log
if ! { .venv/bin/python -m pip install --quiet --upgrade pip \
       && .venv/bin/python -m pip install --quiet -e '.[test]'; } >"$log" 2>&1; then
  tail -n 30 "$log" >&2
  echo "Setting up failed; the whole log is in $log." >&2
  exit 1
fi
