"""Save screenshots of the window's main states into docs/screenshots/ (offscreen, no display).

    python scripts/screenshots.py [--lang en|zh_CN] [--dark] [OUTPUT_FOLDER]

empty.png (no folder open), board.png (the demo, before Run), running.png (a round under
way), decision.png (the decision dialog over the window), approval.png (careful mode asking
before the second run rewrites a note), done.png (every task checked),
evidence.png (a round opened to its files before and after), history.png (an earlier run's
rounds), export.png (the export dialog), engine-settings.png (Engine settings for Claude, as
a first-time user sees it: no key yet), settings.png (the Settings dialog).
Runs on a temporary copy of the demo workspace with a throwaway settings folder and an empty
in-memory keychain (the machine's is never touched).
With --dark the window is shown in its dark palette, into docs/screenshots/dark/. With
--lang zh_CN the window is in Simplified Chinese, on the Chinese demo workspace, and the
pictures go to docs/screenshots/zh/ (with --dark too: docs/screenshots/zh/dark/).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path
from typing import ClassVar

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ["QT_QPA_PLATFORM"] = "offscreen"


def main() -> int:
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--lang", choices=["en", "zh_CN"], default="en")
    parser.add_argument("--dark", action="store_true")
    parser.add_argument("output", nargs="?")
    args = parser.parse_args()
    default = REPO / "docs" / "screenshots"
    if args.lang == "zh_CN":
        default = default / "zh"
    if args.dark:
        default = default / "dark"
    out = Path(args.output) if args.output else default
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="harness-desk-shots-") as tmp:
        os.environ["HARNESS_DESK_CONFIG_DIR"] = str(Path(tmp) / "config")
        from app.gui.folder.first_start import demo_copy

        use_empty_keychain()
        # the very copy a first start opens, in that language
        return shoot(demo_copy(fresh=True, lang=args.lang), out, args.dark, args.lang)


def shoot(folder: Path, out: Path, dark: bool = False, lang: str = "en") -> int:
    from PySide6.QtCore import qInstallMessageHandler

    from app.core.records import events as ev
    from app.core.settings import Settings
    from app.gui.app import make_application, use_language
    from app.gui.main_window import MainWindow

    qInstallMessageHandler(lambda *_: None)  # the offscreen platform's notes are not news
    app = make_application()
    use_language(app, lang)
    # Dark through the window's own look setting (Settings ▸ Look): the window applies it as it
    # opens, so a dark palette set before it would be replaced, and offscreen has no system dark.
    window = MainWindow(Settings(look="dark" if dark else "system"), demo_delay=0.6)
    window.resize(1180, 760)
    window.show()
    wait(app, lambda: False, 0.8)
    save(window.grab(), out / "empty.png")

    opened: list = []
    window.workspace_opened.connect(opened.append)
    window.open_workspace(folder)
    wait(app, lambda: bool(opened) and window.picker.is_ready("demo") is not None, 10)
    wait(app, lambda: False, 1.5)  # engine checks answer; the checklist settles
    save(window.grab(), out / "board.png")

    seen: list = []
    window.runner.event_received.connect(seen.append)
    window.run_panel.primary.click()
    wait(app, lambda: sum(isinstance(e, ev.ToolCalled) for e in seen) >= 6, 30)
    save(window.grab(), out / "running.png")

    dialogs: list = []
    window.decision_shown.connect(dialogs.append)
    wait(app, lambda: bool(dialogs), 60)
    dialog = dialogs[0]
    wait(app, lambda: False, 0.5)
    save(over(window, dialog), out / "decision.png")

    ended: list = []
    window.run_ended.connect(ended.append)
    # Careful mode on for the second run: it rewrites a note that was already there.
    saved: list = []
    approvals: list = []
    window.careful.folder_settings_changed.connect(saved.append)
    window.careful.dialog_shown.connect(approvals.append)
    window.careful.switch.setChecked(True)
    wait(app, lambda: bool(saved), 10)
    dialog.recommended_button.click()  # answering carries on at once
    wait(app, lambda: bool(approvals), 60)
    wait(app, lambda: False, 0.5)
    save(over(window, approvals[0]), out / "approval.png")
    approvals[0].allow.click()
    wait(app, lambda: bool(ended), 60)
    wait(app, lambda: False, 0.8)
    save(window.grab(), out / "done.png")
    ok = ended and ended[0].state == "done"
    ok = shoot_evidence_history_export(app, window, out) and ok
    shoot_settings(app, window, out)
    window.close()
    return 0 if ok else 1


def shoot_evidence_history_export(app, window, out: Path) -> bool:
    """evidence.png (a round card opened: the file before and after), history.png (an
    earlier run picked above the round cards), export.png (the export dialog)."""
    latest = window.cards.cards[0].view.run_id
    # its first round, numbered on
    card = next(c for c in window.cards.cards if c.view.run_id == latest and c.view.round == 4)
    shown: list = []
    window.history.evidence_shown.connect(shown.append)
    card.opened.emit(card.view)
    wait(app, lambda: bool(shown) and shown[0].evidence is not None, 10)
    dialog = shown[0]
    dialog.resize(900, 560)
    wait(app, lambda: False, 0.5)
    save(over(window, dialog), out / "evidence.png")
    dialog.close()

    picker = window.splitter.history_picker
    wait(app, lambda: picker.count() >= 3, 10)
    picker.setCurrentIndex(picker.count() - 1)
    picker.activated.emit(picker.count() - 1)
    first = picker.currentData()
    wait(app, lambda: {c.view.run_id for c in window.cards.cards} == {first}, 10)
    wait(app, lambda: False, 0.5)
    save(window.grab(), out / "history.png")

    window.export_summary()
    exporting = window.export_dialog
    exporting.whole_history.setChecked(True)
    wait(app, lambda: False, 0.5)
    save(over(window, exporting), out / "export.png")
    exporting.reject()
    return bool(shown) and bool(window.cards.cards)


def over(window, dialog):
    """The window dimmed, with `dialog` drawn in its middle (offscreen dialogs have no
    window manager to place them)."""
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QColor, QPainter

    shot = window.grab()
    painter = QPainter(shot)
    painter.fillRect(shot.rect(), QColor(0, 0, 0, 64))
    picture = dialog.grab()
    at = QPoint((shot.width() - picture.width()) // 2, (shot.height() - picture.height()) // 2)
    painter.drawPixmap(at, picture)
    # The dialog's edge, as a window manager's frame would draw it: in the dark look the
    # dialog's ground is the window's, and without an edge it melts into the dimmed window.
    painter.setPen(dialog.palette().color(dialog.palette().ColorRole.Mid))
    painter.drawRect(picture.rect().translated(at).adjusted(-1, -1, 0, 0))
    painter.end()
    return shot


def shoot_settings(app, window, out: Path) -> None:
    """The two settings dialogs, each over the window as a person first opens them."""
    checked: list = []
    window.open_engine_settings("anthropic")
    engine_dialog = window.engine_settings_dialog
    engine_dialog.connection_checked.connect(checked.append)
    wait(app, lambda: bool(checked) and "anthropic" in engine_dialog._states, 15)
    wait(app, lambda: False, 0.3)
    save(over(window, engine_dialog), out / "engine-settings.png")
    engine_dialog.reject()

    window.open_settings()
    wait(app, lambda: False, 0.3)
    save(over(window, window.settings_dialog), out / "settings.png")
    window.settings_dialog.reject()


def use_empty_keychain() -> None:
    """An empty keychain in memory, so the screenshots show what
    a first-time user on a desktop sees, and nothing is read from or written to the real one."""
    import keyring
    from keyring.backend import KeyringBackend

    class EmptyKeychain(KeyringBackend):
        priority = 1
        store: ClassVar[dict] = {}

        def get_password(self, service, username):
            return self.store.get((service, username))

        def set_password(self, service, username, password):
            self.store[(service, username)] = password

        def delete_password(self, service, username):
            self.store.pop((service, username), None)

    keyring.set_keyring(EmptyKeychain())


def wait(app, done, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            return False
        app.processEvents()
        time.sleep(0.01)
    return True


def save(pixmap, path: Path) -> None:
    pixmap.save(str(path), "PNG")
    print(f"Saved {path}")


if __name__ == "__main__":
    sys.exit(main())
