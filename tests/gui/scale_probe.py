"""Run by test_visual_system in a process of its own (QT_SCALE_FACTOR is read when the
application starts): open the window as a first start does, on a copy of the demo, and print
its size and its minimum size, idle and when the demo waits for its decision (the widest
filled button, "Answer the question…"), and the screen's pixel ratio as one JSON line."""

from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def main(folder: str) -> int:
    from app.core.settings import Settings
    from app.gui.app import make_application
    from app.gui.folder.first_start import bundled_demo
    from app.gui.main_window import MainWindow

    app = make_application()
    window = MainWindow(Settings(), demo_delay=0.0, check_engines=False)
    window.show()
    shutil.copytree(bundled_demo("en"), folder)
    opened: list = []
    window.workspace_opened.connect(opened.append)
    window.open_workspace(Path(folder))
    deadline = time.monotonic() + 20
    while not opened and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.01)
    def settle(until=lambda: False, seconds: float = 0.3) -> None:
        end = time.monotonic() + seconds
        while not until() and time.monotonic() < end:
            app.processEvents()
            time.sleep(0.01)

    settle()
    sizes = [(window.frameGeometry().size(), window.minimumSizeHint())]  # idle: Run
    ended: list = []
    window.run_ended.connect(ended.append)
    window.run_panel.primary.click()
    settle(lambda: bool(ended), 60)  # the demo stops at its decision: "Answer the question…"
    if window.decision_dialog is not None:
        window.decision_dialog.close()
    settle()
    sizes.append((window.frameGeometry().size(), window.minimumSizeHint()))
    print(json.dumps({"window": [max(s.width() for s, _m in sizes),
                                 max(s.height() for s, _m in sizes)],
                      "minimum": [max(m.width() for _s, m in sizes),
                                  max(m.height() for _s, m in sizes)],
                      "ratio": window.screen().devicePixelRatio(),
                      "opened": bool(opened), "ended": bool(ended)}))
    window.close()
    return 0 if opened and ended else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
