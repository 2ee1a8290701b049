#!/usr/bin/env bash
# Turn the PyInstaller build (dist/Harness Desk.app) into a disk image for this Mac's
# architecture: dist/HarnessDesk-VERSION-macos-ARCH.dmg, with an Applications link to drag to.
#
#   bash installers/macos/build_dmg.sh VERSION
#
# Signing, when MACOS_SIGN_IDENTITY names a "Developer ID Application: ..." identity in the
# keychain: every binary inside-out with the hardened runtime and a secure timestamp, the
# app with entitlements.plist, then the disk image. Notarizing, when credentials are set
# (an App Store Connect API key: NOTARY_KEY_PATH, NOTARY_KEY_ID, NOTARY_ISSUER; or an Apple
# ID: APPLE_ID, APPLE_TEAM_ID, APPLE_APP_PASSWORD): notarytool submits and waits, and
# stapler attaches the ticket so the image opens offline. Without them each step is skipped
# with a note, and the image opens after a right-click > Open.
set -euo pipefail
cd "$(dirname "$0")/../.."
version=${1:?usage: build_dmg.sh VERSION}
app="dist/Harness Desk.app"
arch=$(uname -m)  # arm64 or x86_64: one image per architecture
dmg="dist/HarnessDesk-$version-macos-$arch.dmg"
entitlements="installers/macos/entitlements.plist"
identity=${MACOS_SIGN_IDENTITY:-}
[ -d "$app" ] || { echo "$app is missing: run pyinstaller build.spec first." >&2; exit 1; }

is_macho() { file -b "$1" | grep -q "Mach-O"; }

sign() {  # sign one path with the hardened runtime; executables get the entitlements
  codesign --force --timestamp --options runtime --sign "$identity" "$@"
}

if [ -n "$identity" ]; then
  echo "Signing $app as \"$identity\" (inside-out)"
  # 1. Every Mach-O file but the app's main executable, deepest paths first (macOS tools:
  #    paths hold spaces but never newlines).
  find "$app/Contents" -type f | awk -F/ '{ print NF "\t" $0 }' | sort -t$'\t' -k1,1nr |
    cut -f2- | while IFS= read -r file; do
      [ "$file" = "$app/Contents/MacOS/Harness Desk" ] && continue
      if is_macho "$file"; then sign "$file"; fi
    done
  # 2. Frameworks as bundles (their own seal over Resources and Info.plist), deepest first.
  find "$app/Contents" -type d -name "*.framework" | awk -F/ '{ print NF "\t" $0 }' |
    sort -t$'\t' -k1,1nr | cut -f2- | while IFS= read -r framework; do sign "$framework"; done
  # 3. The app last: its main executable, with the entitlements the runtime needs.
  sign --entitlements "$entitlements" "$app"
  codesign --verify --deep --strict --verbose=2 "$app"
else
  echo "MACOS_SIGN_IDENTITY is not set: the app keeps PyInstaller's ad-hoc signature."
fi

echo "Building $dmg"
staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT
ditto "$app" "$staging/Harness Desk.app"  # keeps links, signatures and attributes
ln -s /Applications "$staging/Applications"
rm -f "$dmg"
hdiutil create -volname "Harness Desk" -srcfolder "$staging" -fs HFS+ -format UDZO \
  -imagekey zlib-level=9 -ov "$dmg"
[ -n "$identity" ] && codesign --force --timestamp --sign "$identity" "$dmg"

notary=()
if [ -n "${NOTARY_KEY_PATH:-}" ] && [ -n "${NOTARY_KEY_ID:-}" ] && [ -n "${NOTARY_ISSUER:-}" ]; then
  notary=(--key "$NOTARY_KEY_PATH" --key-id "$NOTARY_KEY_ID" --issuer "$NOTARY_ISSUER")
elif [ -n "${APPLE_ID:-}" ] && [ -n "${APPLE_TEAM_ID:-}" ] && [ -n "${APPLE_APP_PASSWORD:-}" ]; then
  notary=(--apple-id "$APPLE_ID" --team-id "$APPLE_TEAM_ID" --password "$APPLE_APP_PASSWORD")
fi
if [ -n "$identity" ] && [ ${#notary[@]} -gt 0 ]; then
  echo "Notarizing $dmg (this waits for Apple's answer)"
  result=$(xcrun notarytool submit "$dmg" "${notary[@]}" --wait --output-format json)
  echo "$result"
  status=$(plutil -extract status raw - <<< "$result" 2>/dev/null || true)
  if [ "$status" != "Accepted" ]; then
    id=$(plutil -extract id raw - <<< "$result" 2>/dev/null || true)
    [ -n "$id" ] && xcrun notarytool log "$id" "${notary[@]}" || true
    echo "Notarization was not accepted (status: ${status:-unknown})." >&2
    exit 1
  fi
  xcrun stapler staple "$dmg"
  xcrun stapler validate "$dmg"
  spctl --assess --type open --context context:primary-signature --verbose=2 "$dmg"
else
  echo "No signing identity or notarization credentials: the image is not notarized."
fi
echo "$dmg"
