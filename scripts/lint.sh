#!/usr/bin/env bash
# The linter and the type checker, run before the tests (scripts/test.sh, .ci/run).
# Rules and strictness are in pyproject.toml ([tool.ruff], [tool.mypy]). A failure ends with
# one line that says which check failed; the findings are above it.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/venv-python.sh
if ! "$VENV_PY" -m ruff check app tests bench scripts; then
  echo "Lint failed: ruff check found the problems above (bash scripts/lint.sh runs it again)." >&2
  exit 1
fi
if ! "$VENV_PY" scripts/noqa_reasons.py; then
  echo "Lint failed: an import kept inside a function does not say why (above; scripts/noqa_reasons.py)." >&2
  exit 1
fi
if ! "$VENV_PY" -m mypy; then
  echo "Lint failed: mypy found the type errors above (bash scripts/lint.sh runs it again)." >&2
  exit 1
fi
