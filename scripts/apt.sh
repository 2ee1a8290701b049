# Sourced by .ci/run and scripts/build_windows.sh: apt-get that rides out a Debian mirror in
# the middle of a sync. On 2026-12-05 CI died 2 s in because one index file
# (bookworm-security, binary-i386) had "unexpected size ... Mirror sync in progress?":
# apt-get update exits 100 for that even though every other list arrived.
#
# apt_update tries five times, 10-40 s apart, and then goes on with the
# lists it has (the packages we need are usually in them); apt_install is the judge: it
# retries after a fresh update, and fails with apt's own words if a package is still missing.

APT_OPTS=(-o Acquire::Retries=3 -o Acquire::http::Timeout=60)

apt_update() {
  local attempt
  for attempt in 1 2 3 4 5; do
    if apt-get "${APT_OPTS[@]}" update -qq; then
      return 0
    fi
    [ "$attempt" -lt 5 ] || break
    echo "apt-get update failed (attempt $attempt of 5); trying again in $((attempt * 10)) s" >&2
    sleep $((attempt * 10))
  done
  echo "apt-get update kept failing; going on with the package lists it did fetch" >&2
  return 0
}

apt_install() {
  local attempt
  for attempt in 1 2 3; do
    if apt-get "${APT_OPTS[@]}" install -y -qq --no-install-recommends "$@"; then
      return 0
    fi
    [ "$attempt" -lt 3 ] || break
    echo "apt-get install failed (attempt $attempt of 3); fetching the lists again" >&2
    sleep $((attempt * 30))
    apt_update
  done
  echo "apt-get install $* failed three times" >&2
  return 1
}
