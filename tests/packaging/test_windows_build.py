"""The Windows build's own parts: the Chinese Setup messages, the ICU stand-in generator, and the
installer scripts/build_windows.sh made (issue 24).

The installer checks run where HARNESS_DESK_WINDOWS_SETUP names a built installer (.ci/run runs
scripts/build_windows.sh first and sets it): the build itself already installed, self-tested
and uninstalled it under Wine, so these check what a person downloads.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app import __version__

REPO = Path(__file__).resolve().parents[2]
WINDOWS = REPO / "installers" / "windows"
CACHE = Path(os.environ.get("HARNESS_DESK_CACHE", Path.home() / ".cache" / "harness-desk"))
SETUP = os.environ.get("HARNESS_DESK_WINDOWS_SETUP", "")
SETUP_LIMIT_BYTES = 45_000_000  # 31.5 MB when first built; the frozen app is the bulk of it


def _messages(path: Path) -> dict[str, str]:
    text = path.read_text(encoding="utf-8-sig")
    return dict(re.findall(r"^([A-Za-z0-9]+)=(.*?)\r?$", text, flags=re.M))


def test_the_chinese_messages_are_utf8_with_a_bom_and_crlf_as_inno_setup_reads_them():
    raw = (WINDOWS / "ChineseSimplified.isl").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    assert b"\r\n" in raw and b"\n" not in raw.replace(b"\r\n", b"")
    messages = _messages(WINDOWS / "ChineseSimplified.isl")
    assert messages["LanguageName"] == "简体中文" and messages["LanguageID"] == "$0804"
    assert messages["ButtonNext"] == "下一步(&N) >"


def test_the_chinese_messages_keep_every_placeholder_of_the_english_ones():
    default = CACHE / "windows" / "innosetup-6.4.1" / "bin" / "Default.isl"
    if not default.is_file():
        pytest.skip("Inno Setup's Default.isl is fetched by scripts/build_windows.sh")
    english, chinese = _messages(default), _messages(WINDOWS / "ChineseSimplified.isl")
    missing = sorted(set(english) - set(chinese))
    assert not missing, f"not translated: {missing}"
    for key, text in english.items():
        marks = sorted(re.findall(r"%\d|%n|\[[a-z/]+\]", text))
        assert sorted(re.findall(r"%\d|%n|\[[a-z/]+\]", chinese[key])) == marks, key
        if "&" in text:
            assert "&" in chinese[key], f"{key} lost its keyboard accelerator"


def test_the_setup_script_offers_both_languages_and_the_per_user_default():
    iss = (WINDOWS / "harness-desk.iss").read_text(encoding="utf-8")
    assert 'MessagesFile: "compiler:Default.isl,ChineseSimplified.isl"' in iss
    assert "PrivilegesRequired=lowest" in iss  # per user, no admin password, for people
    assert "ShowLanguageDialog=auto" in iss


@pytest.mark.skipif(not shutil.which("x86_64-w64-mingw32-gcc"),
                    reason="needs mingw (scripts/build_windows.sh installs it)")
def test_the_icu_stubs_name_exactly_what_a_dll_imports(tmp_path):
    # A small DLL that imports two functions from a made-up icuuc.dll (and one from kernel32):
    # the generator must list those two, no more, from the import table alone.
    gcc = "x86_64-w64-mingw32-gcc"
    (tmp_path / "icu.def").write_text("LIBRARY icuuc.dll\nEXPORTS\n  ucnv_open\n  ucnv_close\n")
    (tmp_path / "icu.c").write_text("void *ucnv_open(void){return 0;}\nvoid ucnv_close(void){}\n")
    subprocess.run([gcc, "-shared", "-o", tmp_path / "icuuc.dll", tmp_path / "icu.c",
                    tmp_path / "icu.def", f"-Wl,--out-implib,{tmp_path / 'libicuuc.a'}"],
                   check=True)
    (tmp_path / "user.c").write_text(
        "#include <windows.h>\nvoid *ucnv_open(const char*, int*); void ucnv_close(void*);\n"
        "__declspec(dllexport) int use(void){ void *c = ucnv_open(\"x\", 0); ucnv_close(c);"
        " return (int)GetTickCount(); }\n")
    subprocess.run([gcc, "-shared", "-o", tmp_path / "Qt6Core.dll", tmp_path / "user.c",
                    "-L", tmp_path, "-licuuc"], check=True)
    out = subprocess.run([sys.executable, WINDOWS / "wine" / "icu_stubs.py",
                          tmp_path / "Qt6Core.dll", tmp_path / "out"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.startswith("2 ICU functions")
    exports = (tmp_path / "out" / "icuuc.def").read_text().split()[3:]
    assert sorted(exports) == ["ucnv_close", "ucnv_open"]


windows_setup = pytest.mark.skipif(
    not SETUP, reason="HARNESS_DESK_WINDOWS_SETUP names no built installer "
                      "(scripts/build_windows.sh makes one; .ci/run sets it)")


@windows_setup
def test_the_installer_is_named_for_this_version_and_within_its_size():
    setup = Path(SETUP)
    assert setup.name == f"HarnessDesk-{__version__}-windows-x64-setup.exe"
    size = setup.stat().st_size
    assert 10_000_000 < size < SETUP_LIMIT_BYTES, size


@windows_setup
def test_the_installer_is_an_inno_setup_program_that_holds_no_wine_stand_in():
    data = Path(SETUP).read_bytes()
    assert data[:2] == b"MZ"
    assert b"Inno Setup" in data
    frozen = REPO / "dist" / "Harness Desk"
    assert (frozen / "_internal" / "PySide6" / "plugins" / "platforms" / "qwindows.dll").is_file()
    names = {p.name.lower() for p in frozen.rglob("*.dll")}
    assert not names & {"bcryptprimitives.dll", "icuuc.dll"}
