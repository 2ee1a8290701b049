"""Things that do not move: the History box keeps its width when the first run is listed;
Careful mode stays put as the filled button's words change; the status block is as tall
when a run has ended as while it went. English and Chinese."""

from __future__ import annotations

from types import SimpleNamespace


from app.gui.run.history_picker import HistoryPicker
from app.gui.run.run_panel import MODES, RunPanel
from tests.gui.helpers import open_in, run_until_end


def test_the_history_box_keeps_its_width_when_runs_are_listed(qtbot, lang):
    picker = HistoryPicker()
    qtbot.addWidget(picker)
    empty = picker.sizeHint().width()
    run = SimpleNamespace(run_id="r1", started_at="2026-12-05T11:05:00+00:00", is_ai=True,
                          engine="anthropic", engine_label="Claude (Anthropic)",
                          state="failed", exit_reason="engine_failures", cost_usd=0.1234,
                          cost_is_upper_estimate=False)
    picker.show_runs([run])
    assert picker.sizeHint().width() == empty
    picker.setCurrentIndex(1)
    assert picker.sizeHint().width() == empty
    label = picker.itemText(1)
    assert label in picker.toolTip()  # read whole, though the box may end it in "…"
    assert picker.view().minimumWidth() > picker.fontMetrics().horizontalAdvance(label)


def test_the_filled_button_keeps_its_width_whatever_it_says(qtbot, lang):
    panel = RunPanel()
    qtbot.addWidget(panel)
    panel.resize(700, 300)
    panel.show()
    widths = set()
    for mode in MODES:
        panel.set_mode(mode)
        qtbot.wait(1)
        widths.add(panel.primary.width())
        assert panel.primary.sizeHint().width() <= panel.primary.width()  # not cut
    assert len(widths) == 1


def test_after_a_run_the_status_block_leaves_no_empty_band(qtbot, window, tmp_path, lang):
    """Between runs the block is as tall as what it says (issue 35): a band kept empty after a
    run (tried 2026-12-05 so the rounds would not move up at its end) took 190 px of an
    800 x 600 window from the rounds, the page a person reads after a run."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "TASKS.md").write_text("# Docs\n\n- [ ] Fix the total in budget.xlsx\n",
                                     encoding="utf-8")
    open_in(qtbot, window, folder)
    block = window.run_panel.status_block
    heights = []
    live = block.set_live

    def set_live(on: bool) -> None:
        live(on)
        if on:
            heights.append(block.height())  # as tall as while the run goes
    block.set_live = set_live
    run_until_end(qtbot, window)
    qtbot.waitUntil(lambda: not block.live, timeout=5000)
    qtbot.wait(50)
    assert heights and block.height() < heights[0]
