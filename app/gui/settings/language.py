"""The window's language: English or Simplified Chinese, from --lang, Settings or the system.

Our own strings come from resources/translations/harness_desk_<lang>.qm; Qt's standard
dialogs (file pickers, message box buttons) from Qt's own qtbase_<lang>.qm shipped with PySide6.
The choice is read before the first window is built, so nothing is ever shown in two languages.
"""

from __future__ import annotations

import json
import os

from PySide6.QtCore import QLibraryInfo, QLocale, QTranslator
from PySide6.QtWidgets import QApplication

from app.core.resources import resource_path
from app.export.fonts import ensure_fonts
from app.gui.look import fonts

LANGUAGES = ("en", "zh_CN")
SETTING_CHOICES = ("system", "en", "zh_CN")
LANG_ENV = "HARNESS_DESK_LANG"  # what --lang sets, so a self-test or a child sees it too
TRANSLATIONS = "translations"
SETTINGS_FILE = "settings.json"  # app.core.settings.settings_path() names the same file

_installed: list[QTranslator] = []
_current = "en"


def normalise(code: str | None) -> str | None:
    """'zh_CN', 'zh-CN', 'zh', 'zh_Hans_CN' -> 'zh_CN'; 'en', 'en_GB' -> 'en'; else None."""
    if not code:
        return None
    code = code.strip().replace("-", "_")
    low = code.lower()
    if low in ("system", ""):
        return None
    if low.startswith("zh"):
        # Traditional Chinese readers are better served by English than by Simplified.
        traditional = any(part in low for part in ("_tw", "_hk", "_mo", "hant"))
        return None if traditional else "zh_CN"
    if low.startswith("en"):
        return "en"
    return None


def system_language() -> str:
    """The language the operating system asks for, among ours; English otherwise."""
    for name in QLocale.system().uiLanguages():
        found = normalise(name)
        if found:
            return found
    return "en"


def stored_choice() -> str:
    """The language chosen in Settings ("system", "en" or "zh_CN"), read straight from the
    settings file: this runs before the window, and before the harness is imported (the
    light `places` module finds the file; `app.core.settings` would load pydantic, which
    costs more than the whole first paint)."""
    try:
        # Inside the try: a broken install still opens, in the system's language.
        from app.core.places import config_dir  # noqa: PLC0415 - an ImportError is caught below

        data = json.loads((config_dir() / SETTINGS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError, ImportError, RecursionError):
        return "system"
    if not isinstance(data, dict):
        return "system"
    value = data.get("language") or (data.get("ui") or {}).get("language")
    return value if value in SETTING_CHOICES else "system"


def resolve(forced: str | None = None) -> str:
    """--lang (or its environment variable) first, then the Settings choice, then the system."""
    for asked in (forced, os.environ.get(LANG_ENV), stored_choice()):
        found = normalise(asked)
        if found:
            return found
    return system_language()


def install(app: QApplication, lang: str) -> str:
    """Load the translators for `lang` into the application (replacing any loaded before)
    and make its locale the default, so numbers, dates and Qt's dialogs agree. Returns the
    language now in use: English when our .qm for `lang` is missing."""
    global _current
    for old in _installed:
        app.removeTranslator(old)
    _installed.clear()
    _current = "en"
    if lang == "en":
        QLocale.setDefault(QLocale("en_US"))
        fonts.for_language("en", app)
        return _current
    ours = QTranslator(app)
    if not ours.load(str(resource_path(TRANSLATIONS, f"harness_desk_{lang}.qm"))):
        return _current
    qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    qt_own = QTranslator(app)
    if qt_own.load(f"qtbase_{lang}", qt_dir):
        app.installTranslator(qt_own)
        _installed.append(qt_own)
    app.installTranslator(ours)
    _installed.append(ours)
    QLocale.setDefault(QLocale(lang))
    _current = lang
    fonts.for_language(lang, app)
    return _current


def current() -> str:
    """The language the window is showing now: "en" or "zh_CN"."""
    return _current


def use_fonts() -> None:
    """Make Chinese drawable even on a machine with no CJK font (the bundled face)."""
    ensure_fonts()
