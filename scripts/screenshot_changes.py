"""Screenshots of careful mode's approval of a workbook change and of a Word change, shown
as they look in Office (issue 33, point 4), offscreen.

    python scripts/screenshot_changes.py [--lang en|zh_CN] [OUTPUT_FOLDER]

The files are ones Excel and Word saved (Apache POI's test data in tests/data): the monthly
budget gets one income changed with set_cells, the résumé one sentence with edit_file.
Writes approval-workbook.png, approval-word.png and approval-word-as-text.png (the same
change as the AI reads it) into docs/screenshots/ (zh/ for Chinese).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
DATA = REPO / "tests" / "data"
TASKS = {"en": "Update the budget and the CV", "zh_CN": "更新预算表和简历"}


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
        return shoot(out, args.lang)


def shoot(out: Path, lang: str) -> int:
    from PySide6.QtCore import qInstallMessageHandler

    from app.core.documents import edit_document, set_cells
    from app.core.policies.approver import ApprovalRequest
    from app.gui.app import make_application, use_language
    from app.gui.careful.approval_dialog import ApprovalDialog
    from scripts.screenshots import save, wait

    qInstallMessageHandler(lambda *_: None)
    app = make_application()
    use_language(app, lang)
    budget = DATA / "excel" / "simple-monthly-budget.xlsx"
    cv = DATA / "word" / "poi" / "60316.docx"
    changes = [
        ("budget.xlsx", budget.read_bytes(), set_cells(budget, {"C6": 1234.5})[0],
         "approval-workbook.png", False),
        ("cv.docx", cv.read_bytes(),
         edit_document(cv, "Getting the perfect job might be challenging",
                       "Getting the ideal job can be hard"), "approval-word.png", False),
    ]
    changes.append(changes[1][:3] + ("approval-word-as-text.png", True))
    ok = True
    for name, before, after, shot, as_text in changes:
        request = ApprovalRequest(round=2, task=TASKS[lang], path=name, action="change",
                                  before=before, after=after, reasons=["was there"],
                                  policies=["existing_files_need_approval"])
        dialog = ApprovalDialog(request)
        dialog.resize(900, 640)
        dialog.show()
        ok = wait(app, lambda dialog=dialog: not dialog.rendering, 30) and ok
        if as_text:
            dialog.as_text.click()
            ok = wait(app, lambda dialog=dialog: not dialog.rendering, 30) and ok
        wait(app, lambda: False, 0.4)
        save(dialog.grab(), out / shot)
        dialog.closed_unanswered.connect(lambda: None)
        dialog.close()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
