#!/usr/bin/env bash
# Refresh the translation sources from the window's code, then build the .qm files the app loads.
#   bash scripts/update_translations.sh            (uses .venv, else the python on PATH)
# lupdate keeps every existing translation; new strings arrive as type="unfinished" for a
# translator (tests/gui/test_chinese.py fails until none is left). See docs/translation.md.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv-python.sh
[ -x "$VENV_PY" ] || VENV_PY="$(command -v python3)"
BIN="$(dirname "$VENV_PY")"
TS=resources/translations/harness_desk_zh_CN.ts
"$BIN/pyside6-lupdate" -locations none -no-obsolete app/gui/*.py -ts "$TS"
"$BIN/pyside6-lrelease" -silent "$TS" -qm "${TS%.ts}.qm"
