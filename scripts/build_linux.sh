#!/usr/bin/env bash
# Build the Linux packages in dist/: the frozen app (build.spec, onedir) in dist/harness-desk/,
# harness-desk_VERSION_ARCH.deb and harness-desk-VERSION-linux-ARCH.tar.gz. Prints the
# bundle's size and fails past 130 MB (issue 13's 120 MB, plus the document libraries of
# issue 17). Needs binutils and dpkg-dev (see .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
LIMIT_MB=130
bash scripts/setup.sh
. scripts/venv-python.sh
log=.venv/build.log
if ! "$VENV_PY" -m pip install --quiet -e '.[build]' >"$log" 2>&1; then
  tail -n 30 "$log" >&2
  echo "Installing PyInstaller failed; the whole log is in $log." >&2
  exit 1
fi
version=$("$VENV_PY" -c 'import app; print(app.__version__)')
arch=$(dpkg --print-architecture 2>/dev/null || uname -m)

start=$SECONDS
rm -rf dist/harness-desk build/build dist/harness-desk_*.deb dist/harness-desk-*.tar.gz
if ! "$VENV_PY" -m PyInstaller --noconfirm --clean --log-level WARN build.spec >"$log" 2>&1; then
  tail -n 30 "$log" >&2
  echo "The PyInstaller build failed; the whole log is in $log." >&2
  exit 1
fi
echo "Frozen app: dist/harness-desk/ in $((SECONDS - start)) s"
size_mb=$(( $(du -sb dist/harness-desk | cut -f1) / 1000000 ))
echo "Bundle size (onedir, unpacked): $size_mb MB (limit $LIMIT_MB MB)"
if [ "$size_mb" -gt "$LIMIT_MB" ]; then
  echo "The bundle is larger than $LIMIT_MB MB: leave out what the app does not use (build.spec)." >&2
  exit 1
fi

start=$SECONDS
deb=$(bash installers/linux/build_deb.sh dist/harness-desk "$version" dist)
echo "Debian package: $deb ($(( $(stat -c %s "$deb") / 1000000 )) MB, installed" \
  "$(( $(dpkg-deb -f "$deb" Installed-Size) * 1024 / 1000000 )) MB) in $((SECONDS - start)) s"
tarball="dist/harness-desk-$version-linux-$(uname -m).tar.gz"
tar -C dist -czf "$tarball" harness-desk
echo "Archive: $tarball ($(( $(stat -c %s "$tarball") / 1000000 )) MB)"
