#!/usr/bin/env bash
# The linter and the type checker, run before the tests (scripts/test.sh, .ci/run).
# Rules and strictness are in pyproject.toml ([tool.ruff], [tool.mypy]).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/venv-python.sh
"$VENV_PY" -m ruff check app tests bench scripts
"$VENV_PY" -m mypy
