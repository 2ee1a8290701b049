"""The Demo engine uses no AI, and the window never says an AI did what the Demo did: not the
decision's caption, not the export dialog's introduction. English and Chinese."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from app.gui.evidence.export_flow import ExportDialog
from tests.gui.helpers import demo_copy, open_in, run_until_end


def _words(widget) -> list[str]:
    return [label.text() for label in widget.findChildren(QLabel)]


def test_the_demos_decision_is_asked_by_the_run_not_an_ai(qtbot, window, tmp_path, lang):
    open_in(qtbot, window, demo_copy(tmp_path))
    with qtbot.waitSignal(window.decision_shown, timeout=60_000) as shown:
        run_until_end(qtbot, window)
    dialog = shown.args[0]
    words = _words(dialog)
    caption = dialog.tr("The run stopped to ask you:")
    assert caption in words
    assert not [w for w in words if "The AI stopped" in w or "AI 停" in w]
    # nor the lines under it: why the option is recommended, what it rests on, what was
    # looked up (each said "the AI", 2026-12-05)
    headings = [dialog.sources.heading.text()] if getattr(dialog, "sources", None) else []
    claims = [w for w in words + headings if "the AI" in w or "The AI" in w or w.startswith("AI ")]
    assert not claims, claims
    assert any(w.startswith(dialog.tr("Why it is recommended: %1").split("%1")[0]) for w in words)
    if lang == "zh_CN":
        assert caption == "需要你来决定："
    dialog.close()


def test_the_export_dialog_does_not_say_an_ai_did_the_demos_work(qtbot, tmp_path, lang):
    dialog = ExportDialog(demo_copy(tmp_path), notice=None)  # type: ignore[arg-type]
    qtbot.addWidget(dialog)
    intro = _words(dialog)[0]
    assert "Bakery" in intro
    assert "what the AI did" not in intro and "AI 在" not in intro
    if lang == "zh_CN":
        assert intro.startswith("保存一份文档")


def test_the_decision_notices_say_no_ai_asked_or_carries_on(qtbot, window, tmp_path, lang):
    """The banner before a question is read, and the panel after an answer the run waits for,
    were "The AI needs a decision from you." and "Press Continue to let the AI carry on.",
    on the Demo too (2026-12-05)."""
    open_in(qtbot, window, demo_copy(tmp_path))
    flow = window.decision_flow
    banner = flow._decision_words("")
    flow.decision_dialog = None  # answered, and the run is not going: Continue is next
    flow._on_answered("Keep both")
    said = [banner, window.run_panel.state_label.text(), window.run_panel.detail_label.text()]
    assert not [w for w in said if "AI" in w], said
    assert window.run_panel.state_label.text() == flow.tr("Answered: %1").replace("%1",
                                                                               "Keep both")
    if lang == "zh_CN":
        assert said[0] == "需要你做一个决定。"
        assert said[2] == "按“继续”接着做。"


def test_ready_says_press_run_without_naming_an_ai(qtbot, window, tmp_path, lang):
    """Ready's sentence, once the demo's welcome is gone, was "Press Run to start the AI on
    the first unchecked task.", on the Demo too (walk8b, 2026-12-05): one sentence now, true
    for every engine."""
    open_in(qtbot, window, demo_copy(tmp_path))
    panel = window.run_panel
    panel.welcome = ""
    if not panel.demo_samples and not panel.key_missing and not panel.not_ready[0]:
        panel.show_ready()
    said = panel.detail_label.text()
    assert panel.state_label.text() == panel.tr("Ready")
    assert said == panel.tr("Press Run to start on the first unchecked task.")
    assert "AI" not in said
    if lang == "zh_CN":
        assert said == "按“运行”，从第一个未勾选的任务开始。"
