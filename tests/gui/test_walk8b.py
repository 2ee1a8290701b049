"""What a newcomer found in Settings, Engine settings and the folder's schedule, keyboard only,
in English and Chinese, at 1280x800 and 800x600 (walk8b)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from app.core.schedule import store
from app.core.settings import EngineSettings, Settings
from app.core.workspace.folder_settings import FolderSettings
from app.gui.careful.folder_safety import FolderSafetyGroup
from app.gui.engines.engine_settings import EngineSettingsDialog
from tests.engines.fake_servers import free_port
from tests.gui.helpers import has_chinese, demo_copy, open_in
from tests.gui.test_schedule_window import crontab, wait_shown  # noqa: F401 (a fixture)


def open_settings(qtbot, window, folder: Path):
    open_in(qtbot, window, folder)
    window.settings_flow.open_settings()
    dialog = window.settings_flow.settings_dialog
    qtbot.waitUntil(dialog.isVisible, timeout=5_000)
    return dialog


# -- Settings: the folder's group ------------------------------------------------------------

def test_tab_reaches_the_folders_settings_where_they_are_seen_not_after_save(
        qtbot, window, tmp_path):
    """Tab went from "Never these sites" to the Demo's speed, the language, the look, Save
    and Cancel, and only then to careful mode and the protected files, which sit between
    the web group and the Demo's speed."""
    dialog = open_settings(qtbot, window, demo_copy(tmp_path))
    group = dialog.folder_safety
    buttons = dialog.button_box()
    wanted = [dialog.web.blocked, group.careful, group.web, group.protected, group.add_file,
              group.add_folder, group.remove, dialog.demo_speed, dialog.language, dialog.look,
              buttons.button(QDialogButtonBox.StandardButton.Save),
              buttons.button(QDialogButtonBox.StandardButton.Cancel)]
    chain, widget = [], dialog.web.blocked
    for _ in range(200):
        if widget in wanted and widget not in chain:
            chain.append(widget)
        widget = widget.nextInFocusChain()
    assert chain == wanted
    dialog.reject()


def test_careful_mode_in_settings_has_its_alt_letter_and_the_protected_list_says_it_plainly(
        qtbot, lang, tmp_path):
    group = FolderSafetyGroup(tmp_path, FolderSettings())
    qtbot.addWidget(group)
    careful = group.careful.text()
    assert "&" in careful  # Alt+C, as on the window's own Careful mode
    words = [label.text() for label in group.findChildren(type(group.problem))]
    if lang == "en":
        assert careful == ("&Careful mode: ask me before the AI changes or deletes a file that "
                           "was already here")
        assert ("Files and folders the AI may never change, careful mode or not (nor add new "
                "files inside these folders):") in words
        assert not [w for w in words if "every mode" in w]
    else:
        assert has_chinese(careful) and "(&C)" in careful
        assert [w for w in words if has_chinese(w) and "谨慎模式" in w]


def test_remove_protection_is_greyed_until_a_file_is_chosen_and_then_keeps_going(
        qtbot, lang, tmp_path):
    """Pressed with nothing chosen, Remove protection did nothing and said nothing."""
    (tmp_path / "Cities.xlsx").write_bytes(b"x")
    (tmp_path / "Letter.docx").write_bytes(b"x")
    group = FolderSafetyGroup(tmp_path, FolderSettings(protected=["Cities.xlsx",
                                                                  "Letter.docx"]))
    qtbot.addWidget(group)
    assert not group.remove.isEnabled()
    greyed_tip = group.remove.toolTip()
    assert (greyed_tip == "Choose a file or folder in the list first." if lang == "en"
            else has_chinese(greyed_tip))
    group.protected.setCurrentRow(0)
    assert group.remove.isEnabled()
    assert group.remove.toolTip() != greyed_tip
    group.remove.click()
    assert group.entries() == ["Letter.docx"]
    assert group.remove.isEnabled()  # the next one is chosen: Remove can be pressed again
    group.remove.click()
    assert group.entries() == [] and not group.remove.isEnabled()


# -- Engine settings: a local server that is not running ---------------------------------------

def test_nothing_at_the_local_address_is_one_sentence_with_what_to_do(qtbot, lang):
    """It was two sentences saying the same thing (the engine's own after the window's), and
    "The server is not running" guessed: the address may be the wrong one."""
    address = f"http://127.0.0.1:{free_port()}/v1"
    dialog = EngineSettingsDialog(Settings(engines={"local": EngineSettings(base_url=address)}),
                                  "local")
    qtbot.addWidget(dialog)
    dialog.show()
    with qtbot.waitSignal(dialog.connection_checked, timeout=15_000) as got:
        dialog.test_connection()
    assert got.args == ["not_running"]
    assert not dialog.verdict_detail.isVisible()
    said = dialog.verdict.text()
    if lang == "en":
        assert said == ("Nothing answers at this address: start Ollama, LM Studio or "
                        "llama.cpp's llama-server, or correct the address, then press Test "
                        "connection.")
    else:
        assert has_chinese(said) and "Ollama" in said and "改正地址" in said  # not a guess
    assert address not in said


# -- the folder's schedule --------------------------------------------------------------------

def test_a_new_schedule_starts_with_the_persons_budget_and_ready_to_save(qtbot, window,
                                                                          tmp_path):
    """It opened at $0.00 with Save greyed and a warning, though Settings has a budget."""
    ws = demo_copy(tmp_path)
    window.settings_flow.change(Settings(limits=Settings().limits.with_overrides(
        budget_usd=3.5), engine="local"))
    open_in(qtbot, window, ws)
    wait_shown(qtbot, window)
    dialog = window.schedules.open_dialog()
    assert dialog.budget.value() == 3.5
    assert dialog.save_button.isEnabled() and not dialog.hint.isVisible()
    assert dialog.model.placeholderText() == "the model chosen in Engine settings"
    dialog.reject()


def test_a_schedule_of_the_demo_engine_says_it_would_only_show_a_sample(qtbot, lang, window,
                                                                         tmp_path):
    ws = demo_copy(tmp_path)
    open_in(qtbot, window, ws)
    wait_shown(qtbot, window)
    dialog = window.schedules.open_dialog()
    dialog.engine.setCurrentIndex(dialog.engine.findData("local"))
    assert dialog.model.isEnabled() and not dialog.hint.text()
    dialog.engine.setCurrentIndex(dialog.engine.findData("demo"))
    assert not dialog.model.isEnabled()  # the Demo engine has no model to choose
    hint = dialog.hint.text()
    if lang == "en":
        assert hint == ("The Demo engine uses no AI: on a schedule it would only show a sample "
                        "run each time. To get the work done, choose an AI engine above.")
    else:
        assert has_chinese(hint) and "AI" in hint
    assert dialog.save_button.isEnabled()  # said, not forbidden
    dialog.reject()


def test_the_schedule_dialog_keeps_its_place_when_the_days_go(qtbot, window, tmp_path):
    """Every day instead of some days hid the Days row and the dialog kept its height: the
    sentence at the top slid down and gaps opened between the rows."""
    ws = demo_copy(tmp_path)
    open_in(qtbot, window, ws)
    wait_shown(qtbot, window)
    dialog = window.schedules.open_dialog()
    qtbot.waitUntil(dialog.isVisible, timeout=5_000)
    qtbot.wait(50)
    intro = dialog.layout().itemAt(0).widget()
    top, height = intro.y(), dialog.height()
    dialog.kind.setCurrentIndex(0)  # every day
    qtbot.wait(50)
    assert intro.y() == top
    assert dialog.height() < height - dialog.days_row.sizeHint().height() // 2
    dialog.kind.setCurrentIndex(1)  # the days come back, with room for them
    qtbot.waitUntil(lambda: dialog.days_row.isVisible(), timeout=2_000)
    qtbot.wait(50)
    assert intro.y() == top and dialog.days_row.height() > 0
    assert dialog.height() >= dialog.layout().totalMinimumSize().height()
    dialog.reject()


def test_removing_the_schedule_says_so_and_keeps_the_keyboard_on_its_line(
        qtbot, lang, window, tmp_path, crontab):  # noqa: F811 (the fixture)
    """Remove took the schedule away without a word, and the keyboard jumped to Open
    folder at the top of the window."""
    from app.core.schedule.model import Schedule
    from app.schedulers.service import install

    ws = demo_copy(tmp_path)
    install(Schedule(folder=str(ws.resolve()), kind="daily", time="07:00",
                     budget_usd=1.0, engine="demo").check())
    window.activateWindow()
    open_in(qtbot, window, ws)
    view = window.schedules.view
    qtbot.waitUntil(lambda: view.remove_button.isVisible(), timeout=10_000)
    view.remove_button.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is view.remove_button, timeout=2_000)
    view.remove_button.click()
    qtbot.waitUntil(lambda: store.for_folder(ws) is None, timeout=10_000)
    qtbot.waitUntil(lambda: not view.remove_button.isVisible(), timeout=5_000)
    assert "harness-desk-schedule" not in crontab.read_text()
    assert QApplication.focusWidget() is view.change_button
    said = window.notice.text.text()
    if lang == "en":
        assert said == "The schedule is removed: this folder no longer runs on its own."
    else:
        assert has_chinese(said)


# -- Settings: a setting reached by its Alt letter -----------------------------------------------

def test_a_setting_reached_by_its_alt_letter_is_scrolled_into_sight(qtbot, window, tmp_path):
    """At 800x600, Alt+L focused the language below the fold without scrolling to it: End
    then chose 简体中文 where no one could see it."""
    dialog = open_settings(qtbot, window, demo_copy(tmp_path))
    dialog.resize(dialog.width(), 380)  # the groups do not all fit: the page scrolls
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow, timeout=5_000)
    viewport = dialog.scroll_area.viewport()
    bar = dialog.scroll_area.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0, timeout=5_000)
    assert bar.value() == 0
    for letter, widget in (("l", dialog.language), ("r", dialog.rounds)):  # down, back up
        qtbot.keyClick(dialog, letter, Qt.KeyboardModifier.AltModifier)
        qtbot.waitUntil(lambda w=widget: w.hasFocus(), timeout=2_000)
        top_left = widget.mapTo(viewport, widget.rect().topLeft())
        assert 0 <= top_left.y() and top_left.y() + widget.height() <= viewport.height()
    dialog.reject()


def test_the_budget_has_its_alt_letter_too(qtbot, window, tmp_path):
    dialog = open_settings(qtbot, window, demo_copy(tmp_path))
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow, timeout=5_000)
    qtbot.keyClick(dialog, "b", Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(dialog.budget_on.hasFocus, timeout=2_000)
    dialog.reject()


# -- the engine the settings bring -----------------------------------------------------------------

def test_a_folder_read_before_the_settings_does_not_keep_the_demos_sentence(qtbot, window,
                                                                            tmp_path):
    """With OpenAI saved as the engine, `harness-desk open FOLDER` read the person's tasks
    while the picker still showed the Demo; the settings then put OpenAI in the picker
    without a word to the run panel, which kept saying "Ready to show a sample: The Demo
    engine uses no AI…" beside OpenAI."""
    folder = tmp_path / "Mine"
    folder.mkdir()
    (folder / "TASKS.md").write_text("- [ ] Summarise Case notes.docx in summary.md\n",
                                     encoding="utf-8")
    open_in(qtbot, window, folder)
    panel = window.run_panel
    qtbot.waitUntil(lambda: panel.demo_samples, timeout=10_000)  # the Demo, on one's tasks
    window.settings_flow.apply(Settings(engine="openai"), window.splitter)
    assert window.settings_flow.picker.engine_id == "openai"
    qtbot.waitUntil(lambda: not panel.demo_samples, timeout=5_000)
    assert panel.state_label.text() != "Ready to show a sample"
    assert not panel.choose_engine.isVisible()


# -- Engine settings: a model the engine does not have ---------------------------------------------

def test_a_default_model_the_key_cannot_use_is_named_not_there_is_no_such_model(
        qtbot, lang, keychain, server):
    """With the Model field empty ("the engine's default"), the test said "There is no such
    model. Pick one from the list.": the person had typed no model."""
    from app.engines.connection import known_models
    from tests.engines.fake_servers import oa_models

    keychain.set_password("harness-desk", "openai", "sk-proj-abc123")
    server.default("/v1/models", oa_models(["gpt-5.1", "gpt-5-mini"]))
    settings = Settings(engines={"openai": EngineSettings(base_url=server.url + "/v1")})
    dialog = EngineSettingsDialog(settings, "openai")
    qtbot.addWidget(dialog)
    dialog.show()
    with qtbot.waitSignal(dialog.connection_checked, timeout=15_000) as got:
        dialog.test_connection()
    assert got.args == ["no_model"]
    default = known_models("openai")[0]  # the engine's default, what the test asked for
    assert default and default not in ("gpt-5.1", "gpt-5-mini")
    said = dialog.verdict.text()
    assert f"“{default}”" in said
    if lang == "en":
        assert said == (f"OpenAI has no model called “{default}” that your key can use: choose "
                        "one from the Model list.")
    else:
        assert has_chinese(said) and "OpenAI" in said


# -- Engine settings: something that is not an address --------------------------------------------

def test_a_key_pasted_as_the_local_address_is_said_and_not_saved(qtbot, lang):
    """A key pasted in the Server address box was saved without a word; the test then said
    "Nothing answers at this address" and the window "cannot be used"."""
    dialog = EngineSettingsDialog(Settings(), "local")
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.address.setFocus()
    dialog.address.selectAll()
    qtbot.keyClicks(dialog.address, "sk-proj-abc123")
    with qtbot.waitSignal(dialog.connection_checked, timeout=2_000) as got:
        dialog.test_button.click()
    assert got.args == ["bad_address"]
    said = dialog.verdict.text()
    assert "sk-proj" not in said  # a key is never repeated on screen
    if lang == "en":
        assert said == ("The server address is not a web address; one looks like "
                        "http://localhost:11434/v1. Correct it, or press Ollama or LM Studio.")
    else:
        assert has_chinese(said) and "http://localhost:11434/v1" in said
    saved = []
    dialog.settings_saved.connect(saved.append)
    dialog.engine.setCurrentIndex(dialog.engine.findData("anthropic"))
    dialog.accept()  # Save, from another engine's page
    assert saved == [] and dialog.isVisible()
    assert dialog.engine_id == "local" and dialog.verdict.text() == said
    dialog.presets["Ollama"].click()
    dialog.accept()
    assert saved and saved[0].engines["local"].base_url.startswith("http://localhost:11434")


@pytest.mark.parametrize("url,bad", [("", False), ("http://localhost:11434/v1", False),
                                     ("https://gpu-box.lan:1234/v1", False),
                                     ("sk-proj-abc123", True), ("localhost:11434", True),
                                     ("http://localhost:99999/v1", True), ("http://", True)])
def test_what_counts_as_an_address(url, bad):
    from app.gui.engines.key_calls import not_an_address

    assert not_an_address(url) is bad


def test_the_local_servers_headline_opens_with_a_capital(qtbot, window, tmp_path):
    """"the local server cannot run yet", as the run panel's headline."""
    open_in(qtbot, window, demo_copy(tmp_path))
    panel = window.run_panel
    panel.engine_now("local", False, why="The local server is not ready yet.")
    assert panel.state_label.text() == "The local server cannot run yet"


def test_the_web_sentence_says_where_to_allow_a_lookup_with_and_without_a_folder(
        qtbot, lang, window, tmp_path):
    """"Only tasks you allow (in their details, or a whole folder under This folder)": a
    group that shows only with a folder open, named as if it were "this folder"."""
    from app.gui.settings.settings_dialog import SettingsDialog

    alone = SettingsDialog(Settings())  # no folder open
    qtbot.addWidget(alone)
    dialog = open_settings(qtbot, window, demo_copy(tmp_path))
    without, with_folder = alone.web.note.text(), dialog.web.note.text()
    for text in (without, with_folder):
        assert "under This folder" not in text
    if lang == "en":
        assert without.startswith("Only tasks you allow may look things up: tick “This task "
                                  "may look things up on the web” in a task's details. ")
        assert "or allow every task in this folder under “This folder” below." in with_folder
    else:
        assert has_chinese(without) and "这个任务可以上网查资料" in without
        assert "此文件夹" not in without and "“此文件夹”" in with_folder
    dialog.reject()


def test_the_schedules_sentence_has_the_column_to_itself_with_its_buttons_under_it(
        qtbot, lang, window, tmp_path, crontab):  # noqa: F811 (the fixture)
    """At 800x600 in Chinese the sentence sat squeezed to four short lines beside three
    wide buttons; it reads across the column now, the buttons under it at its left edge."""
    from app.core.schedule.model import Schedule
    from app.schedulers.service import install

    ws = demo_copy(tmp_path)
    install(Schedule(folder=str(ws.resolve()), kind="weekdays", days=[0], time="07:00",
                     budget_usd=2.0, engine="demo").check())
    window.resize(800, 600)
    open_in(qtbot, window, ws)
    view = window.schedules.view
    qtbot.waitUntil(lambda: view.remove_button.isVisible(), timeout=10_000)
    qtbot.wait(50)
    line, change = view.line, view.change_button
    assert line.width() >= view.width() * 0.9
    assert change.y() >= line.y() + line.height() - 1  # under the sentence, not beside it
    assert abs(change.x() - line.x()) <= 2
    assert line.height() <= 3 * line.fontMetrics().lineSpacing() + 2


def test_the_schedule_dialog_gives_each_alt_letter_one_place(qtbot, lang, window, tmp_path,
                                                             crontab):  # noqa: F811 (the fixture)
    """Alt+R, underlined on "Remove schedule", went to "Run:" above: both had R."""
    from app.core.schedule.model import Schedule
    from app.schedulers.service import install
    from tests.gui.test_mnemonics import clashes, in_view

    ws = demo_copy(tmp_path)
    install(Schedule(folder=str(ws.resolve()), kind="weekdays", days=[0], time="07:00",
                     budget_usd=2.0, engine="demo").check())
    open_in(qtbot, window, ws)
    qtbot.waitUntil(lambda: window.schedules.view.remove_button.isVisible(), timeout=10_000)
    dialog = window.schedules.open_dialog()
    qtbot.waitUntil(dialog.isVisible, timeout=5_000)
    assert dialog.remove_button.isVisible()
    assert clashes(in_view(dialog)) == {}
    dialog.reject()


# -- the sources a round looked up ---------------------------------------------------------------

def test_a_demo_rounds_sources_claim_no_ai_and_say_they_are_made_up(qtbot, lang):
    """A Demo round's evidence said "Sources the AI looked up" over the Demo's made-up
    pages, and "The AI service looked these pages up" under them."""
    from app.engines.demo.web import COMPARE_TASKS, lookup_for
    from app.gui.evidence.sources_view import SourcesView

    view = SourcesView()
    qtbot.addWidget(view)
    task = next(iter(COMPARE_TASKS))  # the bundled demo's compare task
    view.show_web(lookup_for(task, 0, asked_before=False))
    shown = f"{view.heading.text()} {view.browser.accessibleName()} " \
            f"{view.browser.toPlainText()}"
    if lang == "en":
        assert view.heading.text() == "Sources this round looked up"
        assert "AI" not in shown
        assert ("Made up for the demo: the Demo engine looked nothing up, and nothing left "
                "this computer.") in view.browser.toPlainText()
    else:
        assert has_chinese(view.heading.text()) and "AI" not in view.heading.text()
        assert "为演示编造：演示引擎什么都没有查" in view.browser.toPlainText()
        assert "AI 服务" not in view.browser.toPlainText()


def test_a_real_engines_sources_still_say_the_service_looked_them_up(qtbot):
    from app.core.web.types import WebActivity, WebPage
    from app.gui.evidence.sources_view import SourcesView

    view = SourcesView()
    qtbot.addWidget(view)
    view.show_web(WebActivity(pages=[WebPage(url="https://www.food.gov.uk/x", title="Food")],
                              fetch_count=1))
    assert "The AI service looked these pages up, not Harness Desk." in \
        view.browser.toPlainText()


# -- Engine settings on a computer with no keychain -------------------------------------------------

def test_without_a_keychain_the_dialog_never_says_the_key_goes_in_one_and_says_what_to_press_once(
        qtbot, lang, keychain):
    """The intro said "The key is kept in your computer's keychain" right above "This
    computer has no keychain"; and "press Keep for this session" was said twice."""
    import keyring
    from keyring.backends import fail

    keyring.set_keyring(fail.Keyring())
    dialog = EngineSettingsDialog(Settings(), "anthropic")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: "anthropic" in dialog._states, timeout=5_000)
    qtbot.waitUntil(lambda: dialog.verdict.text() != "", timeout=10_000)
    intro, status, verdict = (dialog.intro.text(), dialog.key_status.text(),
                              dialog.verdict.text())
    press = dialog.save_key_button.text().replace("&", "")
    if lang == "en":
        assert "keychain" not in intro
        assert status.startswith("This computer has no keychain Harness Desk can use")
        assert verdict == ("There is no key yet: paste your key above and press Keep for this "
                           "session.")
    else:
        assert "钥匙串" not in intro and "钥匙串" in status
        press = press.split("(")[0]
    said = f"{intro} {status} {verdict}"
    assert said.count(press) == 1, said
    dialog.engine.setCurrentIndex(dialog.engine.findData("openai"))
    qtbot.waitUntil(lambda: "openai" in dialog._states, timeout=5_000)
    assert ("keychain" if lang == "en" else "钥匙串") not in dialog.intro.text()


def test_the_schedules_line_names_its_engine(qtbot, lang):
    """The line said when and how much, not with which engine: the schedule keeps the engine
    it was made with, whatever the picker shows later, and a Demo schedule only shows
    samples."""
    from datetime import datetime

    from app.core.schedule.model import Schedule
    from app.gui.words import schedule_words

    at = datetime(2026, 12, 4, 12, 0)
    claude = schedule_words.summary(Schedule(folder="/x", kind="daily", time="07:00",
                                             budget_usd=1.5, engine="anthropic").check(), at)
    demo = schedule_words.summary(Schedule(folder="/x", kind="daily", time="07:00",
                                           budget_usd=1.5, engine="demo").check(), at)
    if lang == "en":
        assert claude.startswith("Runs on a schedule with Claude, every day at 07:00, with at "
                                 "most $1.50 a run. Next run: ")
        assert demo.startswith("Runs on a schedule with the Demo engine, every day at 07:00")
    else:
        assert claude.startswith("定时运行（引擎：Claude）：") and "$1.50" in claude
        assert demo.startswith("定时运行（引擎：演示引擎）：")


def test_the_next_run_reads_as_a_date_in_chinese(qtbot, lang):
    """"下次运行：周一 7 12月, 07:00": the English order with Chinese words."""
    from datetime import datetime

    from app.gui.words import schedule_words

    said = schedule_words.moment(datetime(2026, 12, 7, 7, 0))
    if lang == "en":
        assert said == "Mon 7 Dec, 07:00"
    else:
        assert said == "12月7日 周一 07:00"


def test_a_schedule_of_an_engine_that_cannot_run_says_so_before_it_is_saved(
        qtbot, lang, window, tmp_path):
    """Claude with no API key could be scheduled without a word: each wake would stop."""
    from app.core.engine.port import Availability

    ws = demo_copy(tmp_path)
    open_in(qtbot, window, ws)
    wait_shown(qtbot, window)
    picker = window.settings_flow.picker
    picker.readiness["anthropic"] = Availability(False, "no key", reason="no_key")
    picker.readiness["local"] = Availability(True, "ready")
    dialog = window.schedules.open_dialog()
    dialog.engine.setCurrentIndex(dialog.engine.findData("anthropic"))
    hint = dialog.hint.text()
    if lang == "en":
        assert hint == ("Claude needs your API key before it can run: paste it in Engine "
                        "settings. Until then, its scheduled runs would stop at once.")
    else:
        assert has_chinese(hint) and "Claude" in hint and "定时运行" in hint
    assert dialog.save_button.isEnabled()  # said, not forbidden
    dialog.engine.setCurrentIndex(dialog.engine.findData("local"))
    assert not dialog.hint.text()
    dialog.reject()


def test_a_new_schedule_keeps_the_folders_careful_mode(qtbot, window, tmp_path):
    """Careful mode on for the folder, a new schedule's Careful mode box was unticked."""
    ws = demo_copy(tmp_path)
    open_in(qtbot, window, ws)
    wait_shown(qtbot, window)
    window.careful.folder = window.careful.folder.model_copy(update={"careful": True})
    dialog = window.schedules.open_dialog()
    assert dialog.careful.isChecked()
    dialog.reject()
    window.careful.folder = window.careful.folder.model_copy(update={"careful": False})
    dialog = window.schedules.open_dialog()
    assert not dialog.careful.isChecked()
    dialog.reject()
