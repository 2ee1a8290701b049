#!/usr/bin/env bash
# Run a command inside a private D-Bus session with an unlocked, throwaway GNOME Keyring (the
# real Secret Service), with HARNESS_DESK_REAL_KEYCHAIN=1 so the keychain tests run.
# Usage: bash .ci/keyring-session.sh COMMAND [ARGS...]
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage: bash .ci/keyring-session.sh COMMAND [ARGS...]" >&2
  exit 2
fi
for tool in dbus-run-session gnome-keyring-daemon; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "$tool is missing: install dbus and gnome-keyring (apt-get install dbus gnome-keyring)." >&2
    exit 1
  fi
done

if [ "${HARNESS_DESK_KEYRING_SESSION:-}" != "inside" ]; then
  # First pass: start a fresh session bus and run this script again inside it.
  export HARNESS_DESK_KEYRING_SESSION=inside
  exec dbus-run-session -- bash "$0" "$@"
fi
unset HARNESS_DESK_KEYRING_SESSION  # a nested call gets a session of its own

# The keyring lives in a temporary folder: the user's own keyrings are never read or changed,
# and a new login keyring is created unlocked with a known password.
keyring_dir=$(mktemp -d "${TMPDIR:-/tmp}/harness-desk-keyring.XXXXXX")
trap 'rm -rf "$keyring_dir"' EXIT
mkdir -m 700 "$keyring_dir/data" "$keyring_dir/run"
daemon_env=$(printf '%s' "harness-desk-ci" |
  XDG_DATA_HOME="$keyring_dir/data" XDG_RUNTIME_DIR="$keyring_dir/run" \
  gnome-keyring-daemon --unlock --components=secrets)
while IFS='=' read -r name value; do
  case "$name" in GNOME_KEYRING_CONTROL|SSH_AUTH_SOCK) export "$name=$value" ;; esac
done <<< "$daemon_env"

# Wait (up to 5 s) until the Secret Service answers on the bus.
if command -v dbus-send >/dev/null 2>&1; then
  for _ in $(seq 50); do
    if dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null |
        grep -q "boolean true"; then
      break
    fi
    sleep 0.1
  done
fi

export HARNESS_DESK_REAL_KEYCHAIN=1
set +e
"$@"
code=$?
set -e
exit "$code"
