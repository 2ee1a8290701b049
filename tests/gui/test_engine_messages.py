"""What the window says when an engine cannot run, in English and in Chinese: one sentence
that names the engine and the button on screen, then the one action, on the status line, the
notice and the round cards. The engines are the real ones, against loopback servers that
speak the vendors' wire format (tests/engines/fake_servers.py), or a port nothing answers."""

from __future__ import annotations

import pytest

from app.core.settings import EngineSettings, Settings
from app.gui.main_window import MainWindow
from app.gui.settings import language
from tests.engines.fake_servers import (claude_error, claude_stream, claude_usage,
                                        free_port, tool_use)
from tests.gui.helpers import demo_copy, open_in, run_until_end
from tests.gui.test_chinese import english_words

KEY = "sk-ant-api03-EngineMessagesTestKey-0123456789abcdef"


@pytest.fixture(params=["en", "zh_CN"])
def lang(request, qapp):
    assert language.install(qapp, request.param) == request.param
    if request.param == "zh_CN":
        language.use_fonts()
    yield request.param
    language.install(qapp, "en")



@pytest.fixture
def open_window(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    # No keychain at all (the variable alone is read once per process, so set it here).
    import keyring
    from keyring.backends import fail

    from app.engines import keys

    monkeypatch.setattr(keyring, "get_keyring", lambda: fail.Keyring())
    monkeypatch.setattr(keys, "_stuck", None)
    for name in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_BASE_URL", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    made = []

    def make(engine_id: str, settings: Settings | None = None) -> MainWindow:
        win = MainWindow(settings or Settings(), demo_delay=0.0, check_engines=False)
        win.show()
        made.append(win)
        open_in(qtbot, win, demo_copy(tmp_path))
        win.picker.combo.setCurrentIndex(win.picker.combo.findData(engine_id))
        return win

    yield make
    for win in made:
        qtbot.waitUntil(lambda win=win: not win.picker._checking, timeout=15_000)
        win.close()
        win.deleteLater()


def said(window) -> tuple[str, str]:
    panel = window.run_panel
    return panel.state_label.text(), panel.detail_label.text()


def no_english(*texts: str) -> None:
    for text in texts:
        assert english_words(text) == [], text
        assert ".  " not in text and "。 " not in text, text  # no space after a full stop


# Each case: (engine, how to set it up, exit_reason, English headline and sentence, Chinese).
def missing_key(monkeypatch, server):
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9")  # never the real service
    return "anthropic", None


def wrong_key(monkeypatch, server):
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
    server.default("/v1/messages", claude_error(401, "authentication_error",
                                                "invalid x-api-key"))
    return "anthropic", None


def rate_limited(monkeypatch, server):
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
    server.default("/v1/messages", claude_error(
        429, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate "
        "limit", headers={"retry-after": "3600"}))
    return "anthropic", None


def server_not_running(monkeypatch, server):
    address = f"http://127.0.0.1:{free_port()}/v1"
    return "local", Settings(engines={"local": EngineSettings(base_url=address)})


CASES = {
    "missing key": (missing_key, "auth_failed", True,
                    ("Stopped: Claude needs an API key",
                     "Claude has no API key yet: paste yours in Engine settings, then press "
                     "Run."),
                    ("已停止：Claude 需要 API 密钥",
                     "Claude 还没有 API 密钥：请在 AI 引擎设置里粘贴你的密钥，然后按“运行”。")),
    "wrong key": (wrong_key, "auth_failed", True,
                  ("Stopped: Claude refused the API key",
                   "Claude did not accept the saved API key: paste a new one in Engine "
                   "settings, then press Run."),
                  ("已停止：Claude 拒绝了 API 密钥",
                   "Claude 没有接受已保存的 API 密钥：请在 AI 引擎设置里粘贴一个新的，然后按“运行”。")),
    "rate limited": (rate_limited, "engine_failures", False,
                     ("Stopped: Claude kept failing",
                      "Claude stayed busy or kept limiting requests for longer than the run "
                      "may wait: wait a few minutes, then press Run."),
                     ("已停止：Claude 一直出错",
                      "Claude 一直繁忙或一直在限制请求频率，超过了这次运行能等的时间：请等几分钟，"
                      "然后按“运行”。")),
    "server not running": (server_not_running, "engine_unreachable", True,
                           ("Stopped: the local server is not running",
                            "Nothing answers at the local server's address: start Ollama or "
                            "LM Studio, then press Run."),
                           ("已停止：本机服务器没有运行",
                            "本机服务器的地址没有任何回应：请启动 Ollama 或 LM Studio，然后按“运行”。")),
}


@pytest.mark.parametrize("case", list(CASES))
def test_an_engine_that_stops_the_run_says_so_in_one_sentence_with_the_one_action(
        qtbot, lang, open_window, server, monkeypatch, case):
    setup, exit_reason, settings_help, english, chinese = CASES[case]
    engine_id, settings = setup(monkeypatch, server)
    window = open_window(engine_id, settings)
    result = run_until_end(qtbot, window)
    assert (result.state, result.exit_reason) == ("failed", exit_reason)
    assert said(window) == (english if lang == "en" else chinese)
    assert window.run_panel.primary.text() == ("Run" if lang == "en" else "运行")
    action = window.run_panel.engine_action
    assert action.isVisible() == settings_help
    if lang == "zh_CN":
        no_english(*said(window), action.text(), action.toolTip(), action.accessibleName())
        qtbot.waitUntil(lambda: not window.picker._checking, timeout=15_000)
        if window.notice.isVisible():  # the run's end, or the engine's not-ready line
            folder = window.workspace.name  # the person's own folder name
            no_english(window.notice.text.text().replace(folder, ""),
                       window.notice.action.text())
        for card in window.cards.cards:
            no_english(card.accessibleName(), card.accessibleDescription())


def test_a_round_the_engine_stopped_reads_in_the_window_s_words_on_its_card(
        qtbot, lang, open_window, server, monkeypatch):
    """The AI answered once (the round is real), then the service refused the key: the
    card says so in the window's language, not in the core's English sentence."""
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
    server.push("/v1/messages", claude_stream([tool_use("toolu_1", "list_files", {"path": "."})],
                                              usage=claude_usage()))
    server.default("/v1/messages", claude_error(401, "authentication_error",
                                                "invalid x-api-key"))
    window = open_window("anthropic")
    result = run_until_end(qtbot, window)
    assert result.exit_reason == "auth_failed" and result.reached_ai
    [card] = window.cards.cards
    assert "invalid x-api-key" not in card.accessibleDescription()
    if lang == "en":
        assert "The AI engine did not answer in this round" in card.accessibleDescription()
    else:
        assert "这一轮里 AI 引擎没有回应" in card.accessibleDescription()
        no_english(card.accessibleName().split(":")[0], card.accessibleDescription())


def test_sentences_run_together_as_each_language_writes_them():
    from app.gui.words.wording import sentences

    assert sentences(["One.", " Two. ", "", "Three."]) == "One. Two. Three."
    assert sentences(["放回原样：a.md。", "已删除：b.md。"]) == "放回原样：a.md。已删除：b.md。"


def test_an_engine_without_a_key_says_why_once_in_the_status(qtbot, lang, open_window):
    """No key (and no keychain): the status says so with Engine settings… filled; the notice
    line does not say it a second time."""
    window = open_window("openai")
    panel = window.run_panel
    qtbot.waitUntil(lambda: panel.key_missing == "openai", timeout=15_000)
    head, text = panel.state_label.text(), panel.detail_label.text()
    assert not window.notice.isVisible() and panel.engine_action.isVisible()
    if lang == "en":
        assert head == "OpenAI needs your API key"
        assert text == ("This computer has no keychain: keep your OpenAI API key for this "
                        "session in Engine settings, then press Run.")
        assert panel.engine_action.text() == "Engine settings…"
    else:
        assert head == "OpenAI 需要你的 API 密钥"
        assert text == ("这台电脑没有可用的钥匙串：可以在 AI 引擎设置里填入你的 OpenAI API 密钥，"
                        "只为本次使用保留，然后按“运行”。")
        no_english(head, text, panel.engine_action.text())
        tip = window.picker.combo.itemData(window.picker.combo.findData("openai"), 3)
        no_english(tip)
