"""A machine with only the fonts we name: a fontconfig setup for a child process (Linux)."""

from __future__ import annotations

from pathlib import Path


def fontconfig_with(tmp_path: Path, font_dirs: list[Path]) -> dict[str, str]:
    """Environment variables under which fontconfig sees only font_dirs."""
    dirs = "".join(f"<dir>{d}</dir>" for d in font_dirs)
    conf = tmp_path / "fonts.conf"
    conf.write_text(f'<?xml version="1.0"?><fontconfig>{dirs}'
                    f"<cachedir>{tmp_path / 'fc-cache'}</cachedir></fontconfig>",
                    encoding="utf-8")
    return {"FONTCONFIG_FILE": str(conf)}


def latin_only_dirs() -> list[Path]:
    """Latin fonts and no Chinese ones. DejaVu comes with fontconfig on Debian; without it
    the machine simply has no fonts at all, which keeps the point of the test."""
    return [d for d in (Path("/usr/share/fonts/truetype/dejavu"),) if d.is_dir()]
