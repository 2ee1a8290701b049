"""Screenshots of the run panel on a real X display (Xvfb + a window manager), taken with
ImageMagick's `import -window root`: the demo folder idle (Ready), running, and finished,
in English or Chinese, light or dark, the window maximized on a screen of the display's size.

    DISPLAY=:99 python scripts/window_shots.py [--lang en|zh_CN] [--dark] [--repo CHECKOUT]
        [--folder FOLDER] OUTPUT

--dark sets the window's own look setting to Dark (Settings ▸ Look): under Xvfb there is no
system dark preference to follow, and the window applies its look setting as it opens, so a
palette set before it would be replaced by the light one.

The window manager draws the title bar in its own fonts: on a machine without a Chinese font,
start openbox under a fontconfig file that adds the app's (resources/fonts), or the Chinese
title shows as boxes:

    <fontconfig><include>/etc/fonts/fonts.conf</include><dir>…/resources/fonts</dir></fontconfig>

Writes idle-WxH.png, running-WxH.png and finished-WxH.png (W×H: the screen's size). --repo
takes the window's code from another checkout (the pictures "before" a change). Runs on a
fresh copy of the demo with a throwaway settings folder and an empty in-memory keychain.

--folder takes a copy of FOLDER instead of the demo (a person's own documents, with or without
a TASKS.md): the same three pictures, with the Demo engine; each decision the run stops for is
answered with its recommended option (else its first) until a run ends without one.
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
    parser.add_argument("--dark", action="store_true")
    parser.add_argument("--repo", default=str(REPO))
    parser.add_argument("--folder", help="a copy of this folder instead of the demo")
    parser.add_argument("output")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO / "scripts"))
    import screenshots  # noqa: F401  (it puts this checkout first on the path as it loads)

    sys.path.insert(0, args.repo)  # so the window's code comes from --repo, ahead of it
    import app as package

    if Path(package.__file__).resolve().parent.parent != Path(args.repo).resolve():
        print(f"The window's code came from {package.__file__}, not {args.repo}.",
              file=sys.stderr)
        return 1
    if Path(args.repo).resolve() != REPO:
        # This checkout's editable install maps app.resources to its own resources/: the
        # other window's translations, fonts and icons are in its own.
        from app.core import resources

        theirs = Path(args.repo).resolve() / "resources"
        resources.resources_dir = lambda: theirs
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="harness-desk-xshots-") as tmp:
        os.environ["HARNESS_DESK_CONFIG_DIR"] = str(Path(tmp) / "config")
        from screenshots import use_empty_keychain

        os.environ["QT_QPA_PLATFORM"] = "xcb"  # screenshots.py asks for offscreen: a real display
        use_empty_keychain()
        own = Path(args.folder).resolve() if args.folder else None
        return shoot(Path(tmp), out, args.lang, args.dark, own)


def grab_screen(path: Path) -> None:
    subprocess.run(["import", "-window", "root", str(path)], check=True)
    print(f"Saved {path}")


def theme_is_dark() -> bool:
    from PySide6.QtWidgets import QApplication

    return QApplication.palette().window().color().lightness() < 128


def shoot(tmp: Path, out: Path, lang: str, dark: bool = False, own: Path | None = None) -> int:
    import shutil

    from PySide6.QtCore import qInstallMessageHandler

    from app.core.records import events as ev
    from app.core.settings import Settings
    from app.gui.app import make_application, use_language
    from app.gui.folder.first_start import bundled_demo
    from app.gui.main_window import MainWindow
    from screenshots import wait

    qInstallMessageHandler(lambda *_: None)
    app = make_application()
    use_language(app, lang)
    window = MainWindow(Settings(look="dark" if dark else "system"), demo_delay=0.8)
    window.showMaximized()
    wait(app, lambda: False, 1.0)
    if dark and not theme_is_dark():
        print("The window did not take the dark look.", file=sys.stderr)
        return 1
    screen = app.primaryScreen().size()
    size = f"{screen.width()}x{screen.height()}"
    if own is not None:
        demo = tmp / own.name
        shutil.copytree(own, demo, ignore=shutil.ignore_patterns(".harness"))
    else:
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
    if not window.run_panel.primary.isEnabled():  # a folder with no task list: nothing to run
        window.close()
        return 0
    window.run_panel.primary.click()
    wait(app, lambda: sum(isinstance(e, ev.ToolCalled) for e in seen) >= 5 or bool(ended), 60)
    wait(app, lambda: False, 0.3)
    grab_screen(out / f"running-{size}.png")

    if own is None:
        wait(app, lambda: bool(dialogs), 120)
        dialogs[0].recommended_button.click()  # answering carries on at once
        wait(app, lambda: len(ended) >= 2, 180)
    else:  # a person's own board: answer each decision the run stops for, until it ends
        for answered in range(20):  # a board with more decisions than that is not a walk

            def news(n: int = answered) -> bool:
                return len(dialogs) > n or len(ended) > n

            if not wait(app, news, 180) or len(dialogs) == answered:
                break  # ended without asking (or never ended)
            dialog = dialogs[answered]
            (dialog.recommended_button or dialog.option_buttons[0]).click()
    wait(app, lambda: False, 1.5)
    grab_screen(out / f"finished-{size}.png")
    window.close()
    return 0 if ended else 1


if __name__ == "__main__":
    sys.exit(main())
