"""Screenshots of a round's web sources (issue 37), offscreen, from the Demo's scripted lookup:

    python scripts/web_screenshots.py [--lang en|zh_CN] [OUTPUT_FOLDER]

web-card.png (the round cards, the compare round's saying what it looked up), web-decision.png
(the decision dialog with what the AI looked up before it asked), web-evidence.png (that
round opened: its searches, pages and citing sentences), web-approval.png (careful mode's
approval of a change to the note the round wrote, with the sources it rests on; the request
is made here from the round's own record, as the loop would hand it over), web-export.png
(the exported PDF's page with that round's sources as links). English into docs/screenshots/,
Chinese (on the Chinese demo) into docs/screenshots/zh/. Every source is the Demo's made-up,
labelled example on example.com or example.org: nothing is looked up on the network.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))
os.environ["QT_QPA_PLATFORM"] = "offscreen"

from screenshots import over, save, use_empty_keychain, wait  # noqa: E402


def main() -> int:
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--lang", choices=["en", "zh_CN"], default="en")
    parser.add_argument("output", nargs="?")
    args = parser.parse_args()
    default = REPO / "docs" / "screenshots" / ("zh" if args.lang == "zh_CN" else "")
    out = Path(args.output) if args.output else default
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="harness-desk-web-shots-") as tmp:
        os.environ["HARNESS_DESK_CONFIG_DIR"] = str(Path(tmp) / "config")
        from app.gui.folder.first_start import demo_copy

        use_empty_keychain()
        return shoot(demo_copy(fresh=True, lang=args.lang), out, args.lang, Path(tmp))


def shoot(folder: Path, out: Path, lang: str, tmp: Path) -> int:
    from PySide6.QtCore import qInstallMessageHandler

    from app.core.settings import Settings
    from app.gui.app import make_application, use_language
    from app.gui.main_window import MainWindow

    qInstallMessageHandler(lambda *_: None)
    app = make_application()
    use_language(app, lang)
    window = MainWindow(Settings(), demo_delay=0.0)
    window.resize(1180, 760)
    window.show()
    opened: list = []
    window.workspace_opened.connect(opened.append)
    window.open_workspace(folder)
    wait(app, lambda: bool(opened) and window.picker.is_ready("demo") is not None, 10)
    wait(app, lambda: False, 1.0)
    dialogs: list = []
    window.decision_shown.connect(dialogs.append)
    window.run_panel.primary.click()
    wait(app, lambda: bool(dialogs) and dialogs[0].sources.isVisible(), 60)
    dialog = dialogs[0]
    dialog.adjustSize()
    wait(app, lambda: False, 0.5)
    save(over(window, dialog), out / "web-decision.png")
    dialog.later_button.click()
    wait(app, lambda: False, 0.8)
    save(window.grab(), out / "web-card.png")

    card = next(c for c in window.cards.cards if c.view.web is not None)
    shown: list = []
    window.history.evidence_shown.connect(shown.append)
    card.opened.emit(card.view)
    wait(app, lambda: bool(shown) and shown[0].evidence is not None, 10)
    evidence = shown[0]
    evidence.resize(900, 700)
    wait(app, lambda: False, 0.5)
    save(over(window, evidence), out / "web-evidence.png")
    evidence.close()

    save(over(window, approval(folder, card.view)), out / "web-approval.png")
    ok = export_page(folder, out / "web-export.png", lang, tmp)
    window.close()
    return 0 if ok else 1


def approval(folder: Path, view):
    """Careful mode's question about a change to the note the round wrote, carrying the
    round's lookups as the loop hands them to the change gate."""
    from app.core.policies.approver import ApprovalRequest
    from app.core.records.records import read_rounds
    from app.core.workspace.workspace import Workspace
    from app.gui.careful.approval_dialog import ApprovalDialog

    ws = Workspace(folder)
    record = next(r for r in read_rounds(ws.run_files(view.run_id)) if r.round == view.round)
    note = folder / "notes" / "homepage-options.md"
    before = note.read_bytes()
    added = "\n" + "\n".join(c.sentence for c in record.web.citations) + "\n"
    request = ApprovalRequest(round=view.round + 1, task=record.task, path=note.relative_to(
        folder).as_posix(), action="write", before=before, after=before + added.encode(),
        policies=["existing_file"], web=record.web)
    dialog = ApprovalDialog(request)
    dialog.resize(820, 720)
    dialog.show()
    return dialog


def export_page(folder: Path, path: Path, lang: str, tmp: Path) -> bool:
    """The exported PDF's page that lists the compare round's sources, as a picture."""
    from app.export.service import export_summary

    pdf = export_summary(folder, "pdf", tmp / "summary.pdf", lang=lang)
    if shutil.which("pdftoppm") is None or shutil.which("pdftotext") is None:
        print("pdftoppm (poppler-utils) is needed for web-export.png")
        return False
    marker = "查了资料" if lang == "zh_CN" else "Looked up:"
    page = 1
    while True:
        text = subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), str(pdf), "-"],
                              capture_output=True, text=True)
        if text.returncode != 0 or not text.stdout.strip():
            return False
        if marker in text.stdout:
            break
        page += 1
    subprocess.run(["pdftoppm", "-f", str(page), "-l", str(page), "-r", "90", "-png",
                    "-singlefile", str(pdf), str(path.with_suffix(""))], check=True)
    print(f"Saved {path}")
    return True


if __name__ == "__main__":
    sys.exit(main())
