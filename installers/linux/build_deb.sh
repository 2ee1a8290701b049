#!/usr/bin/env bash
# Package the frozen app (dist/harness-desk/, from build.spec) as a .deb: the app under
# /opt/harness-desk, `harness-desk` on PATH, a menu entry and icons; its prerm removes the
# schedules people made (cron lines, systemd user timers) when the package is removed. Depends lists the
# Debian packages of every system library the bundle links to and does not carry.
# Usage: bash installers/linux/build_deb.sh APP_DIR VERSION OUT_DIR
set -euo pipefail
app=$(cd "$1" && pwd) version=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
icons="$here/../../resources/icons"
arch=$(dpkg --print-architecture)
maintainer=${DEB_MAINTAINER:-"Harness Desk <packaging@harness-desk.invalid>"}

root=$(mktemp -d "${TMPDIR:-/tmp}/harness-desk-deb.XXXXXX")
trap 'rm -rf "$root"' EXIT
install -d "$root/opt/harness-desk" "$root/usr/bin" "$root/usr/share/applications" \
  "$root/usr/share/icons/hicolor/scalable/apps" "$root/usr/share/doc/harness-desk" "$root/DEBIAN"
cp -a "$app/." "$root/opt/harness-desk/"
# The bootloader finds its folder through /proc/self/exe, so a link on PATH is enough.
ln -s /opt/harness-desk/harness-desk "$root/usr/bin/harness-desk"
install -m 644 "$here/harness-desk.desktop" "$root/usr/share/applications/"
install -m 644 "$icons/harness-desk.svg" "$root/usr/share/icons/hicolor/scalable/apps/"
for png in "$icons"/harness-desk-*.png; do
  size=$(basename "$png" .png); size=${size#harness-desk-}
  install -D -m 644 "$png" "$root/usr/share/icons/hicolor/${size}x${size}/apps/harness-desk.png"
done
cat > "$root/usr/share/doc/harness-desk/copyright" <<COPYRIGHT
Harness Desk $version

The bundled Noto Sans CJK SC subset is under the SIL Open Font License 1.1:
/opt/harness-desk/_internal/app/resources/fonts/OFL.txt
COPYRIGHT
find "$root" -type d -exec chmod 755 {} +
# Removing the package removes every person's schedules (issue 38; an upgrade keeps them).
install -m 755 "$here/prerm" "$root/DEBIAN/prerm"

# Depends: dpkg-shlibdeps reads what every binary links to (with the lowest versions that
# provide the symbols used); packages whose libraries the bundle carries itself drop out.
work=$(mktemp -d "${TMPDIR:-/tmp}/harness-desk-shlibs.XXXXXX")
trap 'rm -rf "$root" "$work"' EXIT
mkdir "$work/debian"
printf 'Source: harness-desk\n\nPackage: harness-desk\nArchitecture: any\n' > "$work/debian/control"
mapfile -t binaries < <(find "$app" -type f -name '*.so*'; echo "$app/harness-desk")
mapfile -t libdirs < <(find "$app" -name '*.so*' -printf '%h\n' | sort -u | sed 's/^/-l/')
if ! (cd "$work" && dpkg-shlibdeps -O --ignore-missing-info "${libdirs[@]}" "${binaries[@]}" \
      > shlibs.out 2> shlibs.log); then
  tail -n 20 "$work/shlibs.log" >&2
  echo "dpkg-shlibdeps could not work out the package's Depends (see above)." >&2
  exit 1
fi
depends=$(sed -n 's/^shlibs:Depends=//p' "$work/shlibs.out")
owner() {  # the package that installed a library, under /lib or /usr/lib (merged /usr)
  local path
  path=$(ldconfig -p | awk -v lib="$1" '$1 == lib { print $NF; exit }')
  [ -n "$path" ] || return 0
  for candidate in "$path" "$(realpath "$path")" "/usr$path"; do
    dpkg -S "$candidate" 2>/dev/null | head -n1 | cut -d: -f1 | grep . && return 0
  done
  return 0
}
carried=$(find "$app" -name 'lib*.so*' -printf '%f\n' | sort -u |
  while read -r lib; do owner "$lib"; done | sort -u)
depends=$(tr ',' '\n' <<< "$depends" | sed 's/^ *//' |
  awk 'NR == FNR { if ($0 != "") carried[$0] = 1; next } !($1 in carried)' \
    <(printf '%s\n' "$carried") - | paste -sd, - | sed 's/,/, /g')
if [ -z "$depends" ]; then
  echo "dpkg-shlibdeps found no dependencies, which cannot be right for this app." >&2
  exit 1
fi

installed_kib=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<CONTROL
Package: harness-desk
Version: $version
Section: utils
Priority: optional
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $installed_kib
Depends: $depends
Description: Put an AI to work on a folder of your own files
 Harness Desk runs an AI agent on a folder of your files, one task of a
 TASKS.md checklist at a time, with undo, records and questions for you when
 a decision is yours. Engines: Claude, OpenAI, a local Ollama or LM Studio
 server, and an offline Demo.
CONTROL

mkdir -p "$out"
deb="$out/harness-desk_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "$deb"
