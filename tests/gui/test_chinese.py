"""The window in Simplified Chinese: every string translated, the .qm built from the .ts, no
English word of ours on screen, Chinese drawn with a real font, and the Chinese demo."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontDatabase, QFontMetrics
from PySide6.QtWidgets import (QAbstractButton, QComboBox, QLabel, QLineEdit,
                               QPlainTextEdit, QWidget)

from app.core.settings import Settings
from app.gui.folder import first_start
from app.gui.settings import language
from app.gui.main_window import MainWindow
from tests.gui.helpers import open_in

REPO = Path(__file__).resolve().parents[2]
TS = REPO / "resources" / "translations" / "harness_desk_zh_CN.ts"
QM = TS.with_suffix(".qm")
TOOLS = Path(sys.executable).parent

# Words that stay as they are in Chinese text: names, file formats, keys, the board's markers.
KEPT = ["Harness Desk", "Claude", "OpenAI", "Anthropic", "Ollama", "LM Studio", "TASKS.md",
        "llama-server", "llama.cpp",  # product names, as Ollama and LM Studio are
        "LibreOffice", "Word", "English",
        "PDF", "ODT", "HTML", "Markdown", "API", "AI", "HUMAN", "Ctrl", "Alt", "Shift",
        "Enter", "Esc", "Tab", "F2", "Up", "Down"]
FILE_OR_PATH = re.compile(r"\S*[/\\]\S*|\S+\.(?:md|txt|csv|html|json|pdf|odt|docx|xlsx|pptx|png|jpg)\b")
# A model's name (claude-sonnet-5, gpt-5-mini, llama3.1:8b) or a web address is a name too.
MODEL_OR_SITE = re.compile(r"\b[A-Za-z][\w.]*(?:[-:][\w.]+)*[-:.]?\d[\w.:-]*|\b[\w-]+(?:\.[\w-]+)*\.(?:com|ai|org)\b"
                           r"|\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b")  # and ANTHROPIC_API_KEY
ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")


def english_words(text: str) -> list[str]:
    text = MODEL_OR_SITE.sub(" ", FILE_OR_PATH.sub(" ", text))
    for kept in KEPT:
        text = text.replace(kept, " ")
    text = re.sub(r"\(&?[A-Z]\)", " ", text)  # a mnemonic: 文件(&F)
    return ENGLISH_WORD.findall(text)


def visible_texts(root: QWidget) -> dict[str, str]:
    """Every text a person can see or hear of `root` and its children: labels, buttons,
    placeholders, tooltips, accessible names and descriptions, menu and combo entries."""
    found: dict[str, str] = {}

    def note(where: str, text: str | None) -> None:
        if text and text.strip():
            found[f"{where}: {text}"] = text

    for w in [root, *root.findChildren(QWidget)]:
        name = type(w).__name__ + (f"#{w.objectName()}" if w.objectName() else "")
        if isinstance(w, (QLabel, QAbstractButton)):
            note(name, w.text())
        if isinstance(w, (QLineEdit, QPlainTextEdit)):
            note(name + " placeholder", w.placeholderText())
        if isinstance(w, QComboBox):
            for i in range(w.count()):
                note(name + " item", w.itemText(i))
            if w.lineEdit() is not None:
                note(name + " placeholder", w.lineEdit().placeholderText())
        note(name + " tooltip", w.toolTip())
        note(name + " accessible name", w.accessibleName())
        note(name + " accessible description", w.accessibleDescription())
        if w.isWindow():
            note(name + " title", w.windowTitle())
        for action in w.actions():
            note(name + " action", action.text())
            note(name + " action tip", action.toolTip())
    return found


@pytest.fixture
def chinese(qapp):
    assert language.install(qapp, "zh_CN") == "zh_CN"
    language.use_fonts()
    yield qapp
    language.install(qapp, "en")


@pytest.fixture
def window(chinese, qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    win = MainWindow(Settings(), demo_delay=0.0, check_engines=False)
    win.show()
    yield win
    if win.runner.running:
        with qtbot.waitSignal(win.runner.run_finished, timeout=10_000):
            win.runner.stop()
    win.close()


def chinese_demo(tmp_path: Path) -> Path:
    target = tmp_path / "演示工作区"
    shutil.copytree(first_start.bundled_demo("zh_CN"), target)
    return target


# -- the translation files ------------------------------------------------------------------
def messages():
    for context in ET.parse(TS).getroot().iter("context"):
        for message in context.iter("message"):
            yield context.findtext("name") or "", message


def translated(message) -> str:
    """A message's translation; Chinese has one plural form, so a %n message has one too."""
    translation = message.find("translation")
    forms = [f.text or "" for f in translation.iter("numerusform")]
    return forms[0] if len(forms) == 1 else "" if forms else (translation.text or "")


def test_every_message_in_the_ts_is_translated_keeping_its_placeholders_and_keys():
    count = 0
    for context, message in messages():
        source, translation = message.findtext("source"), message.find("translation")
        where = f"{context}: {source!r}"
        assert translation.get("type") not in ("unfinished", "obsolete", "vanished"), where
        text = translated(message)
        assert text.strip(), where
        assert sorted(re.findall(r"%\d|%v|%m|%n", source)) == \
            sorted(re.findall(r"%\d|%v|%m|%n", text)), where
        assert ("&" in source.replace("&&", "")) == ("&" in text), where
        count += 1
    assert count >= 250


def test_the_ts_covers_every_string_in_the_window_code(tmp_path):
    """lupdate over app/gui finds nothing the committed .ts lacks (run
    scripts/update_translations.sh, then translate what it marks unfinished)."""
    fresh = tmp_path / "fresh.ts"
    shutil.copy(TS, fresh)
    sources = sorted(str(p) for p in (REPO / "app" / "gui").rglob("*.py"))
    subprocess.run([str(TOOLS / "pyside6-lupdate"), "-locations", "none", "-no-obsolete",
                    *sources, "-ts", str(fresh)], check=True, capture_output=True)
    left = [(c, m.findtext("source")) for c, m in _messages_of(fresh)
            if m.find("translation").get("type") == "unfinished"]
    assert left == []


def test_the_committed_qm_is_built_from_the_committed_ts(tmp_path):
    built = tmp_path / "built.qm"
    subprocess.run([str(TOOLS / "pyside6-lrelease"), "-silent", str(TS), "-qm", str(built)],
                   check=True, capture_output=True)
    assert built.read_bytes() == QM.read_bytes()


def _messages_of(path: Path):
    for context in ET.parse(path).getroot().iter("context"):
        for message in context.iter("message"):
            yield context.findtext("name") or "", message


# -- which language ---------------------------------------------------------------------------
def test_lang_beats_the_settings_choice_which_beats_the_system(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path))
    monkeypatch.delenv(language.LANG_ENV, raising=False)
    monkeypatch.setattr(language, "system_language", lambda: "en")
    assert language.resolve() == "en"
    (tmp_path / "settings.json").write_text('{"language": "zh_CN"}', encoding="utf-8")
    assert language.resolve() == "zh_CN"
    assert language.resolve("en") == "en"
    (tmp_path / "settings.json").write_text('{"language": "system"}', encoding="utf-8")
    monkeypatch.setattr(language, "system_language", lambda: "zh_CN")
    assert language.resolve() == "zh_CN"


@pytest.mark.parametrize("code, expected", [("zh_CN", "zh_CN"), ("zh-Hans-CN", "zh_CN"),
                                            ("zh", "zh_CN"), ("zh_TW", None), ("en_GB", "en"),
                                            ("fr_FR", None), ("system", None)])
def test_language_names_from_the_system_are_understood(code, expected):
    assert language.normalise(code) == expected


def test_a_first_start_in_chinese_opens_the_chinese_demo(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path))
    folder = first_start.start_folder(None, Settings(), lang="zh_CN")
    assert folder.name == "演示工作区" and first_start.is_demo_copy(folder)
    assert "罗西面包房" in (folder / "TASKS.md").read_text(encoding="utf-8")
    assert first_start.is_pristine_demo(folder)
    english = first_start.demo_copy(fresh=True, lang="en")
    assert english.name == "Demo workspace" and english != folder


# -- on screen ------------------------------------------------------------------------------
def test_chinese_is_drawn_with_a_font_that_has_every_character_we_show(chinese):
    """Even with no CJK font installed (the bundled face then steps in), every character of
    the translations and of the Chinese demo has a glyph: no boxes anywhere."""
    cjk = [f for f in QFontDatabase.families()
           if QFontDatabase.WritingSystem.SimplifiedChinese in QFontDatabase.writingSystems(f)]
    assert cjk, "no font for Chinese, not even the bundled one"
    shown = {c for _, m in messages() for c in translated(m) if ord(c) > 0x2E7F}
    for path in first_start.bundled_demo("zh_CN").rglob("*.md"):
        shown |= {c for c in path.read_text(encoding="utf-8") if ord(c) > 0x2E7F}
    assert len(shown) > 300
    metrics = [QFontMetrics(QFont(f)) for f in cjk]
    missing = sorted(c for c in shown if not any(m.inFontUcs4(ord(c)) for m in metrics))
    assert missing == []


def test_the_window_in_chinese_shows_no_english_word_of_ours(window, qtbot, tmp_path,
                                                             monkeypatch):
    import keyring
    from keyring.backends import fail

    monkeypatch.setattr(keyring, "get_keyring", lambda: fail.Keyring())
    texts = visible_texts(window)  # the welcome page, before any folder
    open_in(qtbot, window, chinese_demo(tmp_path))
    texts.update(visible_texts(window))
    dialogs = []
    window.decision_shown.connect(dialogs.append)
    with qtbot.waitSignal(window.run_ended, timeout=60_000):
        window.run_panel.primary.click()
    qtbot.waitUntil(lambda: bool(dialogs), timeout=10_000)
    texts.update(visible_texts(window))
    texts.update(visible_texts(dialogs[0]))
    with qtbot.waitSignal(window.run_ended, timeout=60_000) as ended:
        dialogs[0].recommended_button.click()  # carries on at once
    assert ended.args[0].state == "done"
    texts.update(visible_texts(window))
    # A round card opened to its evidence, and the export dialog
    card = window.cards.cards[0]
    with qtbot.waitSignal(window.history.evidence_shown, timeout=5000) as shown:
        qtbot.mouseClick(card, Qt.MouseButton.LeftButton)
    evidence = shown.args[0]
    qtbot.waitUntil(lambda: evidence.evidence is not None, timeout=10_000)
    texts.update(visible_texts(evidence))
    evidence.close()
    window.export_summary()
    texts.update(visible_texts(window.export_dialog))
    window.export_dialog.close()
    # Settings and Engine settings (no keychain here: the dialog says so, in Chinese)
    window.open_settings()
    texts.update(visible_texts(window.settings_dialog))
    window.settings_dialog.reject()
    window.open_engine_settings("anthropic")
    dialog = window.engine_settings_dialog
    qtbot.wait(300)  # the keychain's answer
    texts.update(visible_texts(dialog))
    dialog.reject()
    english = {where: english_words(text) for where, text in texts.items()
               if english_words(text)}
    assert "\n".join(f"{k} -> {v}" for k, v in english.items()) == ""
    assert len(texts) > 60  # the walk really saw the window


def test_the_decision_dialog_takes_a_chinese_recommendation_with_a_full_width_colon(
        window, qtbot, tmp_path):
    open_in(qtbot, window, chinese_demo(tmp_path))
    dialogs = []
    window.decision_shown.connect(dialogs.append)
    with qtbot.waitSignal(window.run_ended, timeout=60_000):
        window.run_panel.primary.click()
    qtbot.waitUntil(lambda: bool(dialogs), timeout=10_000)
    assert dialogs[0].recommended_button.text().startswith("信任")
    assert "（推荐）" in dialogs[0].recommended_button.text()


def test_the_check_itself_catches_english_and_lets_names_and_files_through():
    assert english_words("Export summary… (Ctrl+E)") == ["Export", "summary"]
    assert english_words("用 Claude 写 drafts/about-us.md 和 TASKS.md，导出 PDF（Ctrl+R）") == []
    assert english_words("文件(&F)") == [] and english_words("Round 2") == ["Round"]


def test_the_harness_own_no_progress_decision_is_worded_by_the_window(chinese):
    from app.core.board.board import Board
    from app.gui.board.board_model import BoardItemModel

    board = Board.parse(
        "- [x] HUMAN: The loop stopped because no progress was detected on: 画标志\n"
        "  - Option: Try again\n  - Option: Skip this task (check it yourself)\n"
        "  - Option: Rewrite the task\n  - Answer: Try again\n- [ ] 画标志\n")
    model = BoardItemModel()
    model.reset_tasks(board.tasks)
    first = model.index(0)
    assert model.data(first) == "“画标志”没有进展：接下来怎么办？"
    assert model.data(first, BoardItemModel.AnswerRole) == "再试一次"
    assert english_words(model.data(first, Qt.ItemDataRole.ToolTipRole)) == []
    # the file keeps the harness's words: editing starts from them
    assert model.data(first, Qt.ItemDataRole.EditRole).startswith("The loop stopped")


def test_qt_standard_buttons_are_in_chinese_too_and_english_comes_back(chinese):
    from PySide6.QtWidgets import QDialogButtonBox

    def cancel_word() -> str:
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        return box.button(QDialogButtonBox.StandardButton.Cancel).text()

    assert cancel_word() == "取消"
    assert language.current() == "zh_CN"
    assert language.install(chinese, "en") == "en"
    assert cancel_word() == "Cancel"


def test_each_module_level_tr_looks_up_where_lupdate_files_it(chinese):
    """lupdate files a module-level tr("...") under the empty context, whatever context the
    function passes at run time; a module whose tr used its own name would stay English."""
    import importlib
    import inspect

    checked = []
    for path in sorted((REPO / "app" / "gui").rglob("*.py")):
        parts = path.relative_to(REPO).with_suffix("").parts
        module = importlib.import_module(".".join(parts[:-1] if parts[-1] == "__init__"
                                                  else parts))
        tr = getattr(module, "tr", None)
        if inspect.isfunction(tr):
            assert tr("Done") == "已完成", path.name  # "Done" is in the empty context (wording)
            checked.append(path.stem)
    assert "wording" in checked
