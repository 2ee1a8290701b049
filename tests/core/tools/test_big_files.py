"""Big files are streamed, never held whole: reading, deleting, undoing (issue 8, item 10).

Each measurement runs in a fresh interpreter, so the peak memory (ru_maxrss) is the tool's own.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

resource = pytest.importorskip("resource")  # POSIX: ru_maxrss

SIZE = 256 * 1024 * 1024
# What a tool may add to the process's peak, whatever the file's size: a few read buffers.
ALLOWED_GROWTH_MB = 48
REPO = Path(__file__).resolve().parents[3]

MEASURE = r"""
import json, resource, sys
from pathlib import Path
from app.core.tools.toolbox import ToolBox
from app.core.undo.undo import BlobStore, RoundChanges, undo_manifest

root = Path(sys.argv[1])
steps = json.loads(sys.argv[2])
changes = RoundChanges(root, BlobStore(root / ".harness"), root / ".harness/runs/r/undo/1.json", 1)
box = ToolBox(root, root / "TASKS.md", "Tidy up", changes)
box.call("list_files", {"path": "."})  # warm up: imports and first allocations
def peak_mb():
    scale = 1 if sys.platform == "darwin" else 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale / 2**20
start = peak_mb()
out = []
for name, args in steps:
    if name == "finish":
        changes.finish()
        out.append("")
    elif name == "undo":
        out.append(undo_manifest(root, root / ".harness", changes.manifest_path).summary())
    else:
        out.append(box.call(name, args).content)
print(json.dumps({"growth_mb": peak_mb() - start, "out": out}))
"""


def _measure(root: Path, *steps: tuple[str, dict]) -> tuple[float, list[str]]:
    proc = subprocess.run([sys.executable, "-c", MEASURE, str(root), json.dumps(steps)],
                          capture_output=True, text=True, timeout=240, cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    return result["growth_mb"], result["out"]


@pytest.fixture
def ws(tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    (root / "TASKS.md").write_text("- [ ] Tidy up\n")
    return root


def _sparse(path: Path, head: bytes = b"") -> Path:
    """A file of SIZE bytes that takes no disk space: `head`, then zeros (one endless line)."""
    with open(path, "wb") as fh:
        fh.write(head)
        fh.truncate(SIZE)
    return path


def test_reading_a_file_with_one_huge_line_stays_small(ws):
    # Text for longer than the binary sniff looks, then one line that runs to the end.
    _sparse(ws / "log.txt", b"first line\n" + b"x" * 10_000)
    growth, (first, second) = _measure(ws, ("read_file", {"path": "log.txt"}),
                                       ("read_file", {"path": "log.txt", "offset": 2}))
    assert growth < ALLOWED_GROWTH_MB, f"read_file grew the process by {growth:.0f} MB"
    assert first.startswith("1\tfirst line\n") and "offset=2" in first
    assert second.startswith("2\txxxx") and "only its start is shown" in second


def test_deleting_a_huge_file_keeps_its_pre_image_without_holding_it(ws):
    _sparse(ws / "video.bin", b"\x00\x01binary")
    growth, (deleted, _, undone) = _measure(ws, ("delete_file", {"path": "video.bin"}),
                                            ("finish", {}), ("undo", {}))
    assert growth < ALLOWED_GROWTH_MB, f"delete and undo grew the process by {growth:.0f} MB"
    assert deleted.startswith("Deleted 'video.bin'")
    assert "1 restored" in undone
    restored = ws / "video.bin"
    assert restored.stat().st_size == SIZE
    with open(restored, "rb") as fh:
        assert fh.read(8) == b"\x00\x01binary"
        fh.seek(SIZE - 4096)
        assert fh.read() == bytes(4096)


def test_editing_a_huge_file_is_refused_without_reading_it(ws):
    _sparse(ws / "data.csv", b"a,b\n")
    growth, (edited,) = _measure(ws, ("edit_file", {"path": "data.csv", "old_text": "a,b",
                                                    "new_text": "x,y"}))
    assert growth < ALLOWED_GROWTH_MB, f"edit_file grew the process by {growth:.0f} MB"
    assert "too large" in edited


def test_overwriting_a_huge_file_keeps_its_pre_image_without_holding_it(ws):
    _sparse(ws / "dump.sql", b"-- dump\n")
    growth, (written, _, undone) = _measure(
        ws, ("write_file", {"path": "dump.sql", "content": "small now\n"}), ("finish", {}),
        ("undo", {}))
    assert growth < ALLOWED_GROWTH_MB, f"write and undo grew the process by {growth:.0f} MB"
    assert written.startswith("Replaced 'dump.sql'") and "1 restored" in undone
    assert (ws / "dump.sql").stat().st_size == SIZE


@pytest.mark.parametrize("data,lines", [
    (b"", []),
    (b"ab\ncd", [(b"ab\n", False), (b"cd", False)]),
    (b"abcd\nx\n", [(b"abcd\n", False), (b"x\n", False)]),      # ends exactly at the bound
    (b"abcd\r\nx", [(b"abcd\r\n", False), (b"x", False)]),
    (b"abcd", [(b"abcd", False)]),
    (b"abcde\nx", [(b"abcd", True), (b"x", False)]),
    (b"abcd" + b"z" * 3_000_000 + b"\nlast\n", [(b"abcd", True), (b"last\n", False)]),
    (b"abcdefgh", [(b"abcd", True)]),
])
def test_bounded_lines_cut_long_lines_and_keep_the_rest(data, lines):
    import io

    from app.core.workspace.files import bounded_lines

    assert list(bounded_lines(io.BufferedReader(io.BytesIO(data)), 4)) == lines
