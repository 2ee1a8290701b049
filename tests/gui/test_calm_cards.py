"""A round card says only what happened, once: a Demo round that found its sample note
already there (no file changed) does not also say it wrote one; an undone round names the
files it had changed, not "Had changed: 1 file changed: …". English and Chinese."""

from __future__ import annotations


from app.core.run.outcomes import RoundResult
from app.gui.words.round_text import RoundView, card_text, plain
from tests.gui.helpers import open_in, run_until_end


def _said(view: RoundView) -> list[str]:
    """A card's lines, its file names as typed (shown with U+2011 and U+2060: kept whole)."""
    return [plain(line.text) for line in card_text(view).lines]


def test_a_sample_round_that_changed_nothing_does_not_say_it_wrote(lang):
    wrote = _said(RoundView(1, "Fix the total", RoundResult.SAMPLE, ["demo-output/a.md"], 2.0,
                            is_ai=False))
    again = _said(RoundView(4, "Fix the total", RoundResult.SAMPLE, [], 2.0, is_ai=False))
    assert wrote[2] != again[2]  # "wrote a sample note" only where a file was written
    assert again[2] not in "".join(wrote)
    if lang == "en":
        assert again[1] == "No files changed"
        assert "Wrote" not in again[2] and "already there" in again[2]
    else:
        assert again[2].isascii() is False and "写了" not in again[2]


def test_an_undone_round_names_its_files_plainly_once(lang):
    lines = _said(RoundView(1, "Summarise", RoundResult.SAMPLE, ["demo-output/summary.md"],
                            2.0, is_ai=False, undone=True))
    files = lines[1]
    assert files.count("demo-output/summary.md") == 1
    assert files.endswith((": demo-output/summary.md", "：demo-output/summary.md"))
    if lang == "en":
        assert files == "Had changed: demo-output/summary.md"


def test_the_demo_run_again_on_the_same_tasks_says_its_notes_were_already_there(
        qtbot, window, tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "TASKS.md").write_text("# Docs\n\n- [ ] Fix the total in budget.xlsx\n",
                                     encoding="utf-8")
    open_in(qtbot, window, folder)
    assert run_until_end(qtbot, window).exit_reason == "samples_shown"
    qtbot.waitUntil(lambda: len(window.cards.cards) == 1, timeout=5000)
    first = window.cards.cards[0].view
    assert first.changed  # the sample note was written
    window.run_panel.set_mode("run")
    assert run_until_end(qtbot, window).exit_reason == "samples_shown"
    qtbot.waitUntil(lambda: len(window.cards.cards) == 2, timeout=5000)
    again = window.cards.cards[0].view
    said = _said(again)
    assert again.changed == [] and said[1] == "No files changed"
    assert not [t for t in said if t.startswith("Wrote")]
