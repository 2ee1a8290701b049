"""The Lessons view with real Qt widgets: after a window run through the Claude engine (official
SDK, loopback server) stalls on one file, the run panel offers its lessons; the view shows the
evidence with links to the rounds, AGENTS.md as it will read, Accept and Dismiss; in English
and in Chinese."""

from __future__ import annotations

import re

import keyring
import pytest
from PySide6.QtCore import Qt

from app.core.engine.port import EngineConfig
from app.engines import keys
from app.engines.claude.engine import AnthropicEngine
from app.gui import core_calls
from tests.engines.fake_servers import FakeServer
from tests.gui.helpers import open_in
from tests.lesson_runs import KEY, MESSAGES, stalled_on_notes, words, workspace
from tests.memory_keyring import MemoryKeyring

ZH_BOARD = "# 面包店\n\n- [ ] 写一份总结\n  - Done when: summary.md 列出三点\n"


@pytest.fixture
def server(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)
    previous = keyring.get_keyring()
    keyring.set_keyring(MemoryKeyring())
    keys._stuck = None
    s = FakeServer()
    # The window's run uses the real Claude engine, pointed at the loopback server.
    monkeypatch.setattr(core_calls, "build_engine", lambda *a, **k: AnthropicEngine(
        EngineConfig(model="claude-sonnet-5-5", base_url=s.url, timeout_s=5)))
    yield s
    s.close()
    keyring.set_keyring(previous)
    keys._stuck = None


def run_in_window(qtbot, window, server, replies) -> None:
    server.push(MESSAGES, *replies)
    server.default(MESSAGES, words("Let me think."))
    window.decision_shown.connect(lambda dialog: dialog.close())
    with qtbot.waitSignal(window.run_ended, timeout=60_000) as ended:
        window.run_panel.primary.click()
    assert ended.args[0].exit_reason == "no_progress"


def open_view(qtbot, window):
    panel = window.run_panel
    qtbot.waitUntil(lambda: panel.lessons_button.isVisible(), timeout=10_000)
    qtbot.mouseClick(panel.lessons_button, Qt.MouseButton.LeftButton)
    view = window.lessons_dialog
    qtbot.waitUntil(lambda: view.folder is not None and view.lesson is not None, timeout=10_000)
    qtbot.waitUntil(lambda: "Reading" not in view.preview.toPlainText()
                    and "读取" not in view.preview.toPlainText(), timeout=10_000)
    return view


def test_a_stalled_run_offers_its_lessons_and_accept_writes_agents_md(window, qtbot, tmp_path,
                                                                      server):
    ws = workspace(tmp_path / "Shop")
    open_in(qtbot, window, ws.root)
    assert not window.run_panel.lessons_button.isVisible()
    run_in_window(qtbot, window, server, stalled_on_notes())
    view = open_view(qtbot, window)
    assert window.run_panel.lessons_button.text() == "2 lessons from this run"
    assert view.lesson_list.count() == 2
    assert view.lesson_list.item(0).text() == \
        "1. notes.md was read in round after round that made no progress (2 times)"
    assert view.headline.text().startswith("1. notes.md was read")
    assert 'href="ev:0">Run 1, round 1</a> — Write the summary' in view.evidence.text()
    assert 'href="ev:1">Run 1, round 2</a>' in view.evidence.text()
    line = view.lesson.line
    assert view.line_label.text() == line and line.startswith("Read notes.md once")
    assert view.preview.toPlainText() == f"- {line}\n"
    assert not (ws.root / "AGENTS.md").exists()  # nothing written before Accept

    # A link opens that round's evidence dialog.
    with qtbot.waitSignal(window.history.evidence_shown, timeout=10_000) as shown:
        view.evidence.linkActivated.emit("ev:1")
    assert shown.args[0].view.round == 2 and shown.args[0].view.task == "Write the summary"
    shown.args[0].close()

    with qtbot.waitSignal(view.loaded, timeout=10_000):
        qtbot.mouseClick(view.accept_button, Qt.MouseButton.LeftButton)
    assert (ws.root / "AGENTS.md").read_text(encoding="utf-8") == f"- {line}\n"
    assert view.message.text() == "Added to AGENTS.md. The next rounds read it."
    qtbot.waitUntil(lambda: view.lesson is not None and view.lesson.state == "accepted",
                    timeout=10_000)
    assert view.lesson_list.item(0).text().startswith("✓ 1.")
    assert view.state_label.text().endswith(" · no run since it was accepted")
    assert not view.accept_button.isEnabled()

    view.lesson_list.setCurrentRow(1)
    qtbot.waitUntil(lambda: view.lesson.number == 2 and view.preview.toPlainText().count("- ")
                    == 2, timeout=10_000)
    assert view.accept_button.isEnabled()
    assert view.preview.toPlainText() == f"- {line}\n- {view.lesson.line}\n"
    with qtbot.waitSignal(view.loaded, timeout=10_000):
        qtbot.mouseClick(view.dismiss_button, Qt.MouseButton.LeftButton)
    assert view.lesson_list.count() == 1
    assert (ws.root / "AGENTS.md").read_text(encoding="utf-8") == f"- {line}\n"
    qtbot.waitUntil(lambda: not window.run_panel.lessons_button.isVisible(), timeout=10_000)


def test_a_line_past_the_cap_is_refused_in_words_and_accept_is_off(window, qtbot, tmp_path,
                                                                   server):
    ws = workspace(tmp_path / "Shop")
    full = "x" * 3990 + "\n"
    (ws.root / "AGENTS.md").write_text(full, encoding="utf-8")
    open_in(qtbot, window, ws.root)
    run_in_window(qtbot, window, server, stalled_on_notes())
    view = open_view(qtbot, window)
    assert view.message.text().startswith("With this line AGENTS.md would be 4,")
    assert not view.accept_button.isEnabled() and view.dismiss_button.isEnabled()
    assert (ws.root / "AGENTS.md").read_text(encoding="utf-8") == full


def test_the_lessons_view_in_chinese_has_no_english_word_of_ours(qtbot, tmp_path, server,
                                                                 monkeypatch, qapp):
    from app.core.settings import Settings
    from app.gui.main_window import MainWindow
    from app.gui.settings import language
    from tests.gui.test_chinese import english_words, visible_texts

    assert language.install(qapp, "zh_CN") == "zh_CN"
    language.use_fonts()
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    window = MainWindow(Settings(), demo_delay=0.0, check_engines=False)
    window.show()
    try:
        ws = workspace(tmp_path / "面包店", ZH_BOARD)
        open_in(qtbot, window, ws.root)
        run_in_window(qtbot, window, server, stalled_on_notes())
        view = open_view(qtbot, window)
        assert window.run_panel.lessons_button.text() == "本次运行得到 2 条经验"
        assert view.lesson.line.startswith("notes.md 已经读过")  # the folder speaks Chinese
        texts = visible_texts(view)
        # The notice line (now held in the run's status block) quotes the board's question,
        # words of the folder's TASKS.md, not the window's; it was never scanned here.
        notice = visible_texts(window.notice)
        texts.update({k: v for k, v in visible_texts(window.run_panel).items()
                      if k not in notice})
        with qtbot.waitSignal(view.loaded, timeout=10_000):
            qtbot.mouseClick(view.accept_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: view.lesson.state == "accepted", timeout=10_000)
        texts.update(visible_texts(view))
        # The evidence is rich text: its markup is not seen, only its words.
        texts = {k: re.sub(r"<[^>]+>", " ", v) for k, v in texts.items()}
        english = {where: english_words(text) for where, text in texts.items()
                   if english_words(text)}
        assert "\n".join(f"{k} -> {v}" for k, v in english.items()) == ""
        assert "第 1 次运行，第 1 轮" in view.evidence.text()
    finally:
        window.close()
        language.install(qapp, "en")
