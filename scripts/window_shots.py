"""Screenshots of the run panel on a real X display (Xvfb + a window manager), taken with
ImageMagick's `import -window root`: the demo folder idle (Ready), running, and finished,
in English or Chinese, the window maximized on a screen of the display's size.

    DISPLAY=:99 python scripts/window_shots.py [--lang en|zh_CN] [--repo CHECKOUT] OUTPUT_FOLDER

Writes idle-WxH.png, running-WxH.png and finished-WxH.png (W×H: the screen's size). --repo
takes the window's code from another checkout (the pictures "before" a change). Runs on a
fresh copy of the demo with a throwaway settings folder and an empty in-memory keychain.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def main() -> int:
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--lang", choices=["en", "zh_CN"], default="en")
    parser.add_argument("--repo", default=str(REPO))
    parser.add_argument("output")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO / "scripts"))
    sys.path.insert(0, args.repo)
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="harness-desk-xshots-") as tmp:
        os.environ["HARNESS_DESK_CONFIG_DIR"] = str(Path(tmp) / "config")
        from screenshots import use_empty_keychain

        os.environ["QT_QPA_PLATFORM"] = "xcb"  # screenshots.py asks for offscreen: a real display
        use_empty_keychain()
        return shoot(Path(tmp), out, args.lang)


def grab_screen(path: Path) -> None:
    subprocess.run(["import", "-window", "root", str(path)], check=True)
    print(f"Saved {path}")


def shoot(tmp: Path, out: Path, lang: str) -> int:
    import shutil

    from PySide6.QtCore import qInstallMessageHandler

    from app.core import events as ev
    from app.core.settings import Settings
    from app.gui.app import make_application, use_language
    from app.gui.folder.first_start import bundled_demo
    from app.gui.main_window import MainWindow
    from screenshots import wait

    qInstallMessageHandler(lambda *_: None)
    app = make_application()
    use_language(app, lang)
    window = MainWindow(Settings(), demo_delay=0.8)
    window.showMaximized()
    wait(app, lambda: False, 1.0)
    screen = app.primaryScreen().size()
    size = f"{screen.width()}x{screen.height()}"
    demo = tmp / ("Rosie's Bakery" if lang == "en" else "罗西面包房")
    shutil.copytree(bundled_demo(lang), demo)
    opened: list = []
    window.workspace_opened.connect(opened.append)
    window.open_workspace(demo)
    wait(app, lambda: bool(opened) and window.picker.is_ready("demo") is not None, 15)
    wait(app, lambda: False, 1.5)
    grab_screen(out / f"idle-{size}.png")

    seen: list = []
    window.runner.event_received.connect(seen.append)
    dialogs: list = []
    window.decision_shown.connect(dialogs.append)
    ended: list = []
    window.run_ended.connect(ended.append)
    window.run_panel.primary.click()
    wait(app, lambda: sum(isinstance(e, ev.ToolCalled) for e in seen) >= 5, 60)
    wait(app, lambda: False, 0.3)
    grab_screen(out / f"running-{size}.png")

    wait(app, lambda: bool(dialogs), 120)
    dialogs[0].recommended_button.click()  # answering carries on at once
    wait(app, lambda: len(ended) >= 2, 180)
    wait(app, lambda: False, 1.5)
    grab_screen(out / f"finished-{size}.png")
    window.close()
    return 0 if len(ended) >= 2 else 1


if __name__ == "__main__":
    sys.exit(main())
