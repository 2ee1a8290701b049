#!/usr/bin/env bash
# Set up, then run the whole test suite (Qt offscreen). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
. scripts/venv-python.sh
# The linter and the type checker first: a finding fails the run before any test starts.
bash scripts/lint.sh
export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}
set +e
"$VENV_PY" -m pytest "$@"
code=$?
set -e
if [ "$code" -eq 5 ]; then
  echo "pytest collected no tests: that is a failure here." >&2
  exit 1
fi
exit "$code"
