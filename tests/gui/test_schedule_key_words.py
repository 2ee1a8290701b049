"""A scheduled run and the person's key, in the window: a key kept for this session only is
said before the schedule is saved (a scheduled run, a process of its own, never has it), and
a wake that could not read the key from the keychain is worded in the window's language."""

from __future__ import annotations

from datetime import datetime

import pytest

from app.core.engine.port import Availability
from app.core.schedule import records as R
from app.engines.keys import forget_session_key, keep_for_session
from tests.gui.helpers import has_chinese, demo_copy, open_in
from tests.gui.test_schedule_window import crontab, wait_shown  # noqa: F401 (a fixture)


@pytest.fixture
def session_key():
    keep_for_session("anthropic", "sk-ant-api03-SessionOnly-0123456789")
    yield
    forget_session_key("anthropic")


def test_a_key_kept_for_this_session_only_is_said_before_the_schedule_is_saved(
        qtbot, lang, window, tmp_path, session_key):
    ws = demo_copy(tmp_path)
    open_in(qtbot, window, ws)
    wait_shown(qtbot, window)
    picker = window.settings_flow.picker
    picker.readiness["anthropic"] = Availability(True, "ready")  # ready in this window
    picker.readiness["openai"] = Availability(True, "ready")
    dialog = window.schedules.open_dialog()
    dialog.engine.setCurrentIndex(dialog.engine.findData("anthropic"))
    hint = dialog.hint.text()
    assert dialog.hint.isVisibleTo(dialog)
    if lang == "en":
        assert hint == ("Claude's key is kept for this session only, so a scheduled run cannot "
                        "use it: save the key in the keychain from Engine settings.")
    else:
        assert has_chinese(hint) and hint.startswith("Claude ") and "定时运行" in hint
    assert dialog.save_button.isEnabled()  # said, not forbidden
    dialog.engine.setCurrentIndex(dialog.engine.findData("openai"))  # its key is not kept so
    assert not dialog.hint.text()
    dialog.reject()


def test_a_wake_that_could_not_read_the_key_is_worded_by_the_window(qapp, lang):
    from app.gui.words import schedule_words

    rec = R.WakeRecord(time="2026-12-07T07:00:04", schedule_id="abc", folder="/x/My notes",
                       outcome=R.FAILED, exit_code=1, due="2026-12-07T07:00",
                       message="Claude's API key could not be read from the keychain: …",
                       exit_reason="auth_failed", engine="anthropic", kind=R.KIND_KEY)
    said = schedule_words.wake(rec)
    at = schedule_words.moment(datetime(2026, 12, 7, 7, 0))
    if lang == "en":
        assert said == (f"{at}: did not start, because Claude's API key could not be read "
                        "from the keychain: a scheduled run needs you logged in on this "
                        "computer, with its keychain unlocked.")
    else:
        assert has_chinese(said) and said.startswith(at) and "Claude" in said \
            and "钥匙串" in said
