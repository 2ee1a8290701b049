"""The installed Qt binding does not corrupt the interpreter (PySide6 6.12.0 on Python 3.11
dropped a reference to None on every void call and aborted the process after a few thousand)."""

from __future__ import annotations

import subprocess
import sys

CODE = """
import sys
from PySide6.QtCore import QObject
obj = QObject()
before = sys.getrefcount(None)
for _ in range(50_000):
    obj.setObjectName("x")
print(sys.getrefcount(None) - before)
"""


def test_many_void_calls_leave_none_alone():
    done = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True,
                          timeout=120, env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr[-500:]
    assert abs(int(done.stdout.strip())) < 100
