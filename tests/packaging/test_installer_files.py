"""The installers' own files hold together: the icons parse, and every path a script names exists."""

from __future__ import annotations

import plistlib
import re
import struct
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ICONS = REPO / "resources" / "icons"
ISS = REPO / "installers" / "windows" / "harness-desk.iss"
PNG = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int]:
    assert data.startswith(PNG)
    return struct.unpack(">II", data[16:24])


def test_the_windows_icon_holds_every_size_from_16_to_256():
    data = (ICONS / "harness-desk.ico").read_bytes()
    reserved, kind, count = struct.unpack_from("<HHH", data)
    assert (reserved, kind) == (0, 1)
    sizes = []
    for i in range(count):
        width, _, _, _, _, _, length, offset = struct.unpack_from("<BBBBHHII", data, 6 + 16 * i)
        w, h = png_size(data[offset:offset + length])
        assert w == h == (width or 256)
        sizes.append(w)
    assert sizes == [16, 24, 32, 48, 64, 128, 256]


def test_the_macos_icon_holds_every_size_up_to_1024():
    data = (ICONS / "harness-desk.icns").read_bytes()
    assert data[:4] == b"icns" and struct.unpack(">I", data[4:8])[0] == len(data)
    found, at = {}, 8
    while at < len(data):
        kind, length = data[at:at + 4].decode(), struct.unpack(">I", data[at + 4:at + 8])[0]
        found[kind] = png_size(data[at + 8:at + length])[0]
        at += length
    assert found == {"icp4": 16, "icp5": 32, "ic11": 32, "icp6": 64, "ic12": 64, "ic07": 128,
                     "ic08": 256, "ic13": 256, "ic09": 512, "ic14": 512, "ic10": 1024}


def test_the_linux_icons_come_in_the_sizes_the_deb_installs():
    for size in (16, 24, 32, 48, 64, 128, 256, 512):
        assert png_size((ICONS / f"harness-desk-{size}.png").read_bytes()) == (size, size)
    assert (ICONS / "harness-desk.svg").read_text(encoding="utf-8").lstrip().startswith("<svg")


def test_the_windows_setup_installs_per_user_by_default_with_a_fixed_id():
    script = ISS.read_text(encoding="utf-8")
    setting = dict(re.findall(r"^(\w+)=(.*)$", script, re.M))
    assert setting["PrivilegesRequired"] == "lowest"
    assert setting["PrivilegesRequiredOverridesAllowed"] == "dialog"
    assert re.fullmatch(r"\{\{[0-9A-F]{8}(-[0-9A-F]{4}){3}-[0-9A-F]{12}\}", setting["AppId"])
    assert (ISS.parent / setting["SetupIconFile"].replace("\\", "/")).is_file()
    # The name build_installer.ps1 and the workflow look for.
    assert setting["OutputBaseFilename"] == "HarnessDesk-{#AppVersion}-windows-x64-setup"
    assert "SignTool=signtool" in script and "Tasks: desktopicon" in script


def test_the_macos_entitlements_are_the_two_a_frozen_python_needs():
    with (REPO / "installers" / "macos" / "entitlements.plist").open("rb") as f:
        assert plistlib.load(f) == {
            "com.apple.security.cs.allow-unsigned-executable-memory": True,
            "com.apple.security.cs.disable-library-validation": True,
        }


def test_the_menu_entry_names_the_launcher_and_the_icon():
    entry = (REPO / "installers" / "linux" / "harness-desk.desktop").read_text(encoding="utf-8")
    assert entry.startswith("[Desktop Entry]\n")
    fields = dict(line.split("=", 1) for line in entry.splitlines()[1:] if "=" in line)
    assert fields["Type"] == "Application" and fields["Exec"] == "harness-desk %f"
    assert fields["Icon"] == "harness-desk" and fields["Terminal"] == "false"


def test_no_qt_module_the_app_imports_is_left_out_of_the_build():
    spec = (REPO / "build.spec").read_text(encoding="utf-8")
    excludes = spec.split("excludes = [", 1)[1].split("]", 1)[0]
    left_out = set(re.findall(r'"(PySide6\.Qt\w+)"', excludes))
    imported = set()
    for path in (REPO / "app").rglob("*.py"):
        imported |= set(re.findall(r"\b(PySide6\.Qt\w+)\b", path.read_text(encoding="utf-8")))
    assert left_out and not imported & left_out, imported & left_out


def test_uninstalling_removes_the_schedules_on_windows_and_linux():
    """Issue 38: the Windows uninstaller runs the app's own `schedule --remove-all` (hidden,
    waited for, before the files go); the .deb's prerm removes every person's cron lines and
    systemd user timers on removal, and nothing on an upgrade."""
    from app.cli import build_parser

    iss = ISS.read_text(encoding="utf-8")
    section = iss.split("[UninstallRun]", 1)[1].split("\n[", 1)[0]
    line = next(x for x in section.splitlines() if x.startswith("Filename:"))
    assert 'Filename: "{app}\\{#AppExe}"' in line
    params = re.search(r'Parameters: "([^"]+)"', line).group(1)
    assert params == "schedule --remove-all"
    assert build_parser().parse_args(params.split()).remove_all  # the app knows the command
    assert "runhidden" in line and "waituntilterminated" in line and "RunOnceId" in line
    prerm = REPO / "installers" / "linux" / "prerm"
    assert prerm.stat().st_mode & 0o111
    text = prerm.read_text(encoding="utf-8")
    assert "remove|purge|deconfigure) ;;" in text and "*) exit 0 ;;" in text
    from app.schedulers import cron, systemd

    assert cron.MARK in text and cron.CATCH_UP_MARK in text and systemd.PREFIX in text
    build = (REPO / "installers" / "linux" / "build_deb.sh").read_text(encoding="utf-8")
    assert 'install -m 755 "$here/prerm" "$root/DEBIAN/prerm"' in build
