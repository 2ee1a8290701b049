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
# Every module of the window, in its subpackages too (app/gui/board/, app/gui/run/, ...).
mapfile -t SOURCES < <(find app/gui -name '*.py' -not -path '*/__pycache__/*' | LC_ALL=C sort)
"$BIN/pyside6-lupdate" -locations none -no-obsolete "${SOURCES[@]}" -ts "$TS"
"$BIN/pyside6-lrelease" -silent "$TS" -qm "${TS%.ts}.qm"
