#!/usr/bin/env bash
# Set up, then open Harness Desk on a fresh copy of the bundled demo workspace with the Demo
# engine. Where no window can open (no display, or no window in this version) the same demo
# runs in the terminal, and says so.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
. scripts/venv-python.sh
exec "$VENV_PY" -m app "$@"
