"""Screenshots of a Word document's before and after in a round's evidence (offscreen).

    python scripts/screenshot_documents.py [--lang en|zh_CN] [OUTPUT_FOLDER]

On a fresh copy of the demo (in that language) the Demo engine runs to Done, its last round
writing drafts/contact.docx; then one more real round, through the real tools, edits that
Word document in place (Saturday's closing time, with edit_file) under a task added to the
board. The evidence of both rounds is opened as the window shows it:
evidence-document-new.png (the new document, every line added) and evidence-document.png
(the edit: the changed words marked). Into docs/screenshots/ (zh/ for Chinese).
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
from pathlib import Path
from typing import ClassVar

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

WORDS = {
    "en": ("Keep the shop open until 15:00 on Saturdays",
           "drafts/contact.docx says Saturday 7:00–15:00",
           "Saturday 7:00–14:00", "Saturday 7:00–15:00", "trust"),
    "zh_CN": ("周六营业到 15:00", "drafts/contact.docx 写明周六 7:00–15:00",
              "周六 7:00–14:00", "周六 7:00–15:00", "信任"),
}


def edit_round(folder: Path, lang: str) -> str:
    """One real round that edits the Word draft in place; its run id."""
    from app.core.engine.conversation import ModelTurn, ToolCall, Usage
    from app.core.engine.port import Availability, Engine
    from app.core.run.loop import Harness
    from app.core.settings import Limits
    from app.core.workspace.workspace import Workspace

    task, done_when, old, new, _ = WORDS[lang]
    board = folder / "TASKS.md"
    board.write_text(board.read_text(encoding="utf-8").rstrip("\n")
                     + f"\n- [ ] {task}\n  - Done when: {done_when}\n", encoding="utf-8")

    class Edit(Engine):
        id, label, is_ai, default_model = "scripted", "Scripted edit", False, "scripted"
        steps: ClassVar[list] = [("edit_file", {"path": "drafts/contact.docx", "old_text": old,
                                "new_text": new}),
                 ("complete_task", {"summary": new, "evidence": ["drafts/contact.docx"]})]

        def availability(self) -> Availability:
            return Availability(True, "Scripted.")

        def turn(self, system, tools, messages, *, cancel: threading.Event | None = None,
                 on_text=None, max_output_tokens=None) -> ModelTurn:
            n = sum(1 for m in messages if m.role == "assistant")
            name, args = self.steps[n]
            return ModelTurn(tool_calls=[ToolCall(id=f"e{n}", name=name, arguments=args)],
                             usage=Usage(), model="scripted", stop_reason="tool_use")

    result = Harness(Workspace(folder), Edit(), Limits()).run()
    if result.state != "done":
        raise SystemExit(f"The edit round ended {result.state}: {result.message}")
    return result.run_id


def main() -> int:
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--lang", choices=["en", "zh_CN"], default="en")
    parser.add_argument("output", nargs="?")
    args = parser.parse_args()
    out = Path(args.output) if args.output else (
        REPO / "docs" / "screenshots" / ("zh" if args.lang == "zh_CN" else ""))
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="harness-desk-shots-") as tmp:
        os.environ["HARNESS_DESK_CONFIG_DIR"] = str(Path(tmp) / "config")
        from app.core.board.board import update_board
        from app.core.run.loop import Harness
        from app.core.settings import Limits
        from app.core.workspace.workspace import Workspace
        from app.engines.demo.engine import DemoEngine
        from app.gui.folder.first_start import demo_copy

        folder = demo_copy(fresh=True, lang=args.lang)
        ws = Workspace(folder)
        Harness(ws, DemoEngine(), Limits()).run()
        update_board(ws.board_path, lambda b: b.answer_human(WORDS[args.lang][4]))
        demo_run = Harness(ws, DemoEngine(), Limits()).run().run_id
        edit_run = edit_round(folder, args.lang)
        return shoot(folder, out, args.lang, demo_run, edit_run)


def shoot(folder: Path, out: Path, lang: str, demo_run: str, edit_run: str) -> int:
    from PySide6.QtCore import qInstallMessageHandler

    from app.core.records.records import read_rounds
    from app.core.settings import Settings
    from app.core.workspace.workspace import Workspace
    from app.gui.app import make_application, use_language
    from app.gui.evidence.evidence_dialog import EvidenceDialog
    from app.gui.main_window import MainWindow
    from app.gui.run.round_cards import RoundView
    from scripts.screenshots import over, save, wait

    qInstallMessageHandler(lambda *_: None)
    app = make_application()
    use_language(app, lang)
    window = MainWindow(Settings())
    window.resize(1180, 760)
    window.show()
    opened: list = []
    window.workspace_opened.connect(opened.append)
    window.open_workspace(folder)
    wait(app, lambda: bool(opened), 10)
    wait(app, lambda: False, 1.5)
    files = Workspace(folder).run_files
    contact = next(r for r in read_rounds(files(demo_run))
                   if "drafts/contact.docx" in r.changed_artifacts)
    edit = read_rounds(files(edit_run))[0]
    ok = True
    for record, run_id, name in ((contact, demo_run, "evidence-document-new.png"),
                                 (edit, edit_run, "evidence-document.png")):
        view = RoundView(record.round, record.task, record.result_state,
                         list(record.changed_artifacts), run_id=run_id, summary=record.summary)
        dialog = EvidenceDialog(folder, view, window)
        dialog.resize(960, 600)
        dialog.show()
        wait(app, lambda dialog=dialog: dialog.evidence is not None, 20)
        paths = [f.path for f in dialog.evidence.files]
        ok = ok and "drafts/contact.docx" in paths
        if "drafts/contact.docx" in paths:
            dialog.file_list.setCurrentRow(paths.index("drafts/contact.docx"))
        wait(app, lambda: False, 0.6)
        save(over(window, dialog), out / name)
        print(f"Wrote {out / name}")
        dialog.close()
    wait(app, lambda: False, 1.0)  # the window's own readings finish before it closes
    window.close()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
