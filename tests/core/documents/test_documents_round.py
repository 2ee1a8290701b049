"""A whole round on documents through the loop: the model reads a .docx, edits it, sets cells
of a workbook and writes a new .docx; the events name the changed files; undo of the round
gives both documents back byte for byte and removes the new one."""

from __future__ import annotations

import docx
import openpyxl

from app.core.records.events import FileChanged
from app.core.run.loop import Harness
from app.core.undo.undo import undo_manifest
from tests.document_files import brief_docx, prices_xlsx
from tests.scripted import ScriptedEngine, board_workspace, call, fast_limits

BOARD = "# Bakery\n\n- [ ] Update the brief and prices\n  - Done when: prices are raised\n"


def test_a_round_changes_documents_and_undo_gives_them_back(tmp_path):
    ws = board_workspace(tmp_path, BOARD)
    brief_docx(ws.root / "brief.docx")
    prices_xlsx(ws.root / "prices.xlsx")
    originals = {n: (ws.root / n).read_bytes() for n in ("brief.docx", "prices.xlsx")}
    engine = ScriptedEngine([
        call("read_file", path="brief.docx"),
        call("edit_file", path="brief.docx", old_text="in May", new_text="in June"),
        call("set_cells", path="prices.xlsx", cells={"B2": 3.9, "Notes!B3": "Raised in June"}),
        call("write_file", path="summary.docx", content="# Summary\n\nPrices **raised**.\n"),
        call("complete_task", summary="Raised prices.", evidence=["prices.xlsx"])])
    events = []
    result = Harness(ws, engine, fast_limits(), listeners=[events.append]).run()
    assert result.state == "done"
    read = engine.requests[1]["messages"][-1].tool_results[0].content
    assert read.startswith("1\t# Bakery brief\n") and "We sell **fresh** bread" in read
    changed = [(e.path, e.change) for e in events if isinstance(e, FileChanged)]
    assert changed == [("brief.docx", "wrote"), ("prices.xlsx", "wrote"),
                       ("summary.docx", "wrote")]
    assert "in June." in "".join(p.text for p in docx.Document(ws.root / "brief.docx").paragraphs)
    assert openpyxl.load_workbook(ws.root / "prices.xlsx")["Prices"]["B2"].value == 3.9

    undo_manifest(ws.root, ws.harness_dir, ws.run_files(result.run_id).undo(1))
    assert {n: (ws.root / n).read_bytes() for n in originals} == originals
    assert not (ws.root / "summary.docx").exists()
