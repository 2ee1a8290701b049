"""The bundled Chinese face: what it covers, and that it is used only where no CJK font is installed."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app.core.resources import resource_path
from app.export.fonts import BUNDLED_CJK
from tests.export_fixtures import fixture_workspace, run_cli
from tests.fontconfig_env import fontconfig_with, latin_only_dirs

BUNDLED = resource_path(*BUNDLED_CJK)
ZH_PHRASES = ("主页改版", "起草着陆页文案", "比较三个最强的定位选项", "根据决定重写主页",
              "主页应该强调速度还是信任？", "写好了着陆页：一个标题和三段文字。")
needs_fontconfig = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                      reason="chooses the machine's fonts through fontconfig")


def gb2312_hanzi() -> str:
    """All 6,763 hanzi of GB 2312 (rows 0xB0-0xF7), the floor of everyday Chinese text."""
    out = []
    for row in range(0xB0, 0xF8):
        for cell in range(0xA1, 0xFF):
            try:
                out.append(bytes([row, cell]).decode("gb2312"))
            except UnicodeDecodeError:
                pass
    return "".join(out)


def test_the_bundled_face_draws_everyday_simplified_chinese(qapp):
    from PySide6.QtGui import QRawFont

    raw = QRawFont(str(BUNDLED), 12)
    assert raw.isValid() and raw.familyName() == "Noto Sans CJK SC"
    hanzi = gb2312_hanzi()
    assert len(hanzi) == 6763
    text = (hanzi + "，。、：；？！“”‘’（）《》【】「」—…·～　" + "０１２３４５６７８９ＡＢＣａｂｃ"
            + "Harness Desk 0123456789 €£¥©℃№→①■●★")
    missing = "".join(ch for ch in text if not raw.supportsCharacter(ord(ch)))  # not a str
    assert missing == ""


def test_the_bundled_face_is_small_and_travels_with_its_licence():
    assert BUNDLED.stat().st_size < 3_000_000
    licence = (BUNDLED.parent / "OFL.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence and "Adobe" in licence


def fonts_seen(env: dict[str, str]) -> dict:
    probe = """
import json
from PySide6.QtGui import QFont, QTextLayout
from app.export.render import ensure_app
ensure_app()
from app.export.fonts import bundled_families, ensure_fonts
families = ensure_fonts()
# What the window draws "Hello 主页" with, in the application's default font.
layout = QTextLayout("Hello 主页", QFont())
layout.beginLayout(); layout.createLine(); layout.endLayout()
runs = [[run.rawFont().familyName(), list(run.glyphIndexes())] for run in layout.glyphRuns()]
print(json.dumps({"families": families, "bundled": bundled_families(), "runs": runs}))
"""
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         env={**_base_env(), **env}, timeout=120,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.splitlines()[-1])


def _base_env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if k != "FONTCONFIG_FILE"}


@needs_fontconfig
def test_a_machine_without_chinese_fonts_draws_with_the_bundled_face(tmp_path):
    seen = fonts_seen(fontconfig_with(tmp_path, latin_only_dirs()))
    assert seen["bundled"] == ["Noto Sans CJK SC"]
    assert seen["families"][-1] == "Noto Sans CJK SC"
    # The window needs no font of its own: Qt's fallback now draws the two Chinese
    # characters with real glyphs (not glyph 0, the empty box) from the bundled face.
    assert ["Noto Sans CJK SC", 2] in [[family, len(glyphs)] for family, glyphs in seen["runs"]]
    assert all(0 not in glyphs for _, glyphs in seen["runs"])


@needs_fontconfig
def test_an_installed_chinese_face_wins_over_the_bundled_one(tmp_path):
    installed = tmp_path / "system-fonts"
    installed.mkdir()
    shutil.copy(BUNDLED, installed / "NotoSansCJKsc-Regular.otf")  # stands in for the real one
    seen = fonts_seen(fontconfig_with(tmp_path, [*latin_only_dirs(), installed]))
    assert seen["bundled"] == []
    assert "Noto Sans CJK SC" in seen["families"]


@needs_fontconfig
@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext is not installed")
def test_a_chinese_pdf_keeps_its_text_on_a_machine_without_chinese_fonts(tmp_path,
                                                                          monkeypatch):
    ws = fixture_workspace(tmp_path / "ws", chinese=True)
    for key, value in fontconfig_with(tmp_path, latin_only_dirs()).items():
        monkeypatch.setenv(key, value)
    out = run_cli("export", ws, "--format", "pdf", "--output", tmp_path / "zh.pdf",
                  config_dir=tmp_path / "config")
    assert out.returncode == 0, out.stderr
    text = subprocess.run(["pdftotext", "-raw", "-enc", "UTF-8", str(tmp_path / "zh.pdf"), "-"],
                          capture_output=True, check=True).stdout.decode("utf-8")
    text = " ".join(text.split())
    for phrase in ZH_PHRASES:
        assert phrase in text, phrase
