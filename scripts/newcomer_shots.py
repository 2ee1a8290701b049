"""The pictures for issue 18 (the window as a newcomer meets it), offscreen, into
docs/screenshots/newcomer/: an empty folder (point 3), an undone round (point 4), one story
across a decision (point 5), and the window at 800 × 600 (point 14), in English and Chinese.

    python scripts/newcomer_shots.py [--lang en|zh_CN] [OUTPUT_FOLDER]
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))
os.environ["QT_QPA_PLATFORM"] = "offscreen"


def main() -> int:
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--lang", choices=["en", "zh_CN"], default="en")
    parser.add_argument("output", nargs="?")
    args = parser.parse_args()
    out = Path(args.output) if args.output else REPO / "docs" / "screenshots" / "newcomer"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="harness-desk-newcomer-") as tmp:
        os.environ["HARNESS_DESK_CONFIG_DIR"] = str(Path(tmp) / "config")
        from screenshots import use_empty_keychain

        use_empty_keychain()
        return shoot(Path(tmp), out, args.lang)


def shoot(tmp: Path, out: Path, lang: str) -> int:
    from PySide6.QtCore import QTimer, qInstallMessageHandler
    from PySide6.QtWidgets import QApplication, QMessageBox

    from app.core.settings import Settings
    from app.gui.app import make_application, use_language
    from app.gui.folder.first_start import bundled_demo
    from app.gui.main_window import MainWindow
    from screenshots import over, save, wait

    qInstallMessageHandler(lambda *_: None)
    app = make_application()
    use_language(app, lang)
    tag = "" if lang == "en" else "-zh"
    window = MainWindow(Settings(), demo_delay=0.0)
    window.resize(1180, 760)
    window.show()

    def open_folder(folder: Path) -> None:
        opened: list = []
        window.workspace_opened.connect(opened.append)
        window.open_workspace(folder)
        wait(app, lambda: bool(opened), 10)
        wait(app, lambda: False, 1.0)

    empty = tmp / ("An empty folder" if lang == "en" else "空文件夹")
    empty.mkdir()
    open_folder(empty)
    save(window.grab(), out / f"03-empty-folder{tag}.png")

    demo = tmp / ("Bakery" if lang == "en" else "面包房")
    shutil.copytree(bundled_demo(lang), demo)
    open_folder(demo)
    ended: list = []
    window.run_ended.connect(ended.append)
    dialogs: list = []
    window.decision_shown.connect(dialogs.append)
    window.run_panel.primary.click()
    wait(app, lambda: bool(dialogs), 60)
    dialogs[0].recommended_button.click()  # carries on at once
    wait(app, lambda: len(ended) >= 2, 60)
    wait(app, lambda: False, 0.8)
    save(window.grab(), out / f"05-one-story{tag}.png")

    card = next(c for c in window.cards.cards if c.view.round == 5)
    shown: list = []
    window.history.evidence_shown.connect(shown.append)
    window.history.open_round(card.view)
    wait(app, lambda: bool(shown) and shown[0].evidence is not None, 10)
    evidence = shown[0]
    asked: list = []

    def confirm():
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(50, confirm)
            return
        wait(app, lambda: False, 0.3)
        asked.append(over(window, box))
        next(b for b in box.buttons()
             if box.buttonRole(b) == QMessageBox.ButtonRole.DestructiveRole).click()

    QTimer.singleShot(50, confirm)
    undone: list = []
    evidence.undone.connect(undone.append)
    evidence.undo_button.click()
    wait(app, lambda: bool(undone), 10)
    if asked:
        save(asked[0], out / f"04-undo-question{tag}.png")
    wait(app, lambda: False, 0.5)
    save(over(window, evidence), out / f"04-undone-evidence{tag}.png")
    evidence.close()
    wait(app, lambda: any(c.view.undone for c in window.cards.cards), 10)
    wait(app, lambda: False, 0.5)
    save(window.grab(), out / f"04-undone{tag}.png")

    window.resize(800, 600)
    wait(app, lambda: False, 1.0)
    save(window.grab(), out / f"14-800x600{tag}.png")
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
