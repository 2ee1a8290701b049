#!/usr/bin/env bash
# Refresh the translation sources from the window's code, then build the .qm files the app loads.
# lupdate keeps every existing translation; new strings arrive as type="unfinished" for a
# translator (tests/gui/test_chinese.py fails until none is left).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${PYSIDE_BIN:-$(dirname "$(command -v python)")}"
[ -x "$BIN/pyside6-lupdate" ] || BIN=/work/venv/bin
TS=app/resources/translations/harness_desk_zh_CN.ts
"$BIN/pyside6-lupdate" -locations none -no-obsolete app/gui/*.py -ts "$TS"
"$BIN/pyside6-lrelease" -silent "$TS" -qm "${TS%.ts}.qm"
