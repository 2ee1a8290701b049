"""Modules imported after the window's Qt are not read as source by PySide6 (issue 23)."""

from __future__ import annotations

import importlib
import inspect
import sys

import app.gui.app  # noqa: F401 - what the window imports first (it quietens the hook)


def _fresh_module(tmp_path, monkeypatch, name: str, text: str):
    (tmp_path / f"{name}.py").write_text(text, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    return __import__(name)  # an import statement's way, through PySide6's hook


def test_an_import_after_qt_reads_no_source_and_is_judged_by_its_names(tmp_path, monkeypatch):
    read = []
    real = inspect.getsource
    monkeypatch.setattr(inspect, "getsource", lambda obj: read.append(obj) or real(obj))
    plain = _fresh_module(tmp_path, monkeypatch, "hd_plain_module",
                          "import json\n# mentions PySide6 only in a comment\nX = 1\n")
    qt = _fresh_module(tmp_path, monkeypatch, "hd_qt_module",
                       "from PySide6.QtCore import QObject\nclass Thing(QObject):\n    pass\n")
    assert read == []
    feature = sys.modules["shibokensupport.feature"]
    assert feature.pyside_feature_dict[plain.__name__] == -1
    assert feature.pyside_feature_dict[qt.__name__] == 0
    assert qt.Thing().objectName() == ""  # Qt works as ever in a module that uses it
