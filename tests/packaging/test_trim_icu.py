"""Qt's ICU data, cut for the Linux bundle, still sorts, decodes and names time zones in Chinese."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "installers" / "linux"))
from trim_icu import trim  # noqa: E402

try:
    import PySide6

    ICU_DATA = sorted(Path(PySide6.__file__).parent.glob("Qt/lib/libicudata.so.*"))
except ImportError:
    ICU_DATA = []

pytestmark = pytest.mark.skipif(
    not ICU_DATA or not shutil.which("readelf") or not shutil.which("cc"),
    reason="needs Linux PySide6's own ICU, binutils and a C compiler (as build.spec does)")

PROBE = """
import json
from PySide6.QtCore import QCollator, QLocale, QStringDecoder, QTimeZone
shanghai = QTimeZone(b"Asia/Shanghai")
print(json.dumps({
    "pinyin": sorted(["张", "李", "王"], key=QCollator(QLocale("zh_CN")).sortKey),
    "german": sorted(["Zebra", "Äpfel", "Apfel"], key=QCollator(QLocale("de_DE")).sortKey),
    "codecs": [n for n in ("GB18030", "GBK", "Big5", "windows-1252")
               if QStringDecoder(n).isValid()],
    "codecs_known": len(QStringDecoder.availableCodecs()),
    "turkish_upper": QLocale("tr_TR").toUpper("i"),
    "shanghai": shanghai.displayName(QTimeZone.TimeType.StandardTime,
                                     QTimeZone.NameType.LongName, QLocale("zh_CN")),
}, ensure_ascii=False))
"""


@pytest.fixture(scope="module")
def trimmed(tmp_path_factory):
    out = tmp_path_factory.mktemp("icu") / ICU_DATA[-1].name
    before, after = trim(ICU_DATA[-1], out)
    return out, before, after


def qt_with(library: Path) -> dict:
    # Preloading a library under the same name makes Qt's ICU use it instead of its own.
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                         encoding="utf-8", env={"LD_PRELOAD": str(library),
                                                "QT_QPA_PLATFORM": "offscreen"}, check=True)
    return json.loads(out.stdout)


def test_the_trimmed_data_is_a_sixth_of_the_original(trimmed):
    out, before, after = trimmed
    assert after < before / 5 and out.stat().st_size < 7_000_000


def test_qt_still_sorts_chinese_by_pinyin_and_other_languages_by_unicode_order(trimmed):
    seen = qt_with(trimmed[0])
    assert seen["pinyin"] == ["李", "王", "张"]  # li, wang, zhang: the Chinese rules are kept
    assert seen["german"] == ["Apfel", "Äpfel", "Zebra"]  # German falls back to root order


def test_qt_still_decodes_chinese_and_western_legacy_encodings(trimmed):
    assert qt_with(trimmed[0])["codecs"] == ["GB18030", "GBK", "Big5", "windows-1252"]


def test_qt_still_cases_and_names_time_zones(trimmed):
    seen = qt_with(trimmed[0])
    assert seen["turkish_upper"] == "İ"
    assert seen["shanghai"] == "中国标准时间"


def test_the_probe_really_ran_on_the_trimmed_data(trimmed):
    # Qt's own, complete data gives the same answers but knows more codecs (Shift_JIS...):
    # so the answers above came from the trimmed library, not from Qt's.
    full, cut = qt_with(ICU_DATA[-1]), qt_with(trimmed[0])
    assert full["pinyin"] == cut["pinyin"] and full["shanghai"] == cut["shanghai"]
    assert cut["codecs_known"] < full["codecs_known"]
