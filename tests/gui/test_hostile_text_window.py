"""Issue 34 point 5 in the window: a change's diff (the careful-mode dialog, the evidence)
spells controls out instead of letting them reorder or hide what the person allows."""

from __future__ import annotations

import re

CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def test_a_diff_spells_out_direction_and_terminal_controls():
    from app.gui.evidence.file_diff import diff_html

    html = diff_html("报告 😀\ninvoice.pdf\n", "报告 😀\ninvoice\u202efdp.bat\x1b[8m hidden\n",
                     removed="#b42318", added="#1e8a4c", muted="#888888",
                     removed_bg="#fdd", added_bg="#dfd", note_unchanged="same")
    assert not CONTROLS.search(html)
    assert "invoice\\u202efdp.bat\\x1b[8m hidden" in re.sub(r"<[^>]+>", "", html)
    assert "<div>  报告 😀</div>" in html  # legitimate text as it is
