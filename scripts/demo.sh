#!/usr/bin/env bash
# Set up, then open the Harness Desk window on a fresh copy of the bundled demo workspace with
# the Demo engine (a copy you changed earlier is kept; a new one is made beside it). Where no
# window can open (a machine without a display) the same demo runs in the terminal, and says so.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
. scripts/venv-python.sh
exec "$VENV_PY" -m app open --demo "$@"
