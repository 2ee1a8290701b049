"""Reading documents against reading text of the same rendered size: time and peak memory.

A 50-page Word document, a 10,000-row sheet and a 200-page PDF are made with the libraries.
Each is read whole through read_file (every page of its rendering, as a model paging with
offset would), and so is a text file holding exactly that rendering. Each case runs in a
fresh process, so its peak memory (resident, from the first read on; the libraries'
imports count) is its own; the time is the median of several
reads (CPU seconds: steadier than wall time on a shared machine), each with a new ToolBox
and the kept renderings cleared (nothing cached), after one read that loads the libraries.
The rendering runs in the measuring process (the document worker with ISOLATED off): in the
app it runs in a worker process, which this process's CPU and memory would leave out.

    python bench/documents.py [--runs 5] [--json FILE]
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import REPO, arguments, hand_back, item, median

TIME_TARGET = 100.0   # x the text file's time (text is read in microseconds a line)
MEMORY_TARGET = 3.0   # x the text file's peak RSS

CHILD = r"""
import json, resource, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from app.core.documents import worker
from app.core.tools.document_cache import RENDERINGS
from app.core.tools.toolbox import ToolBox
from app.core.undo.undo import BlobStore, RoundChanges

root, name, runs = Path(sys.argv[2]), sys.argv[3], int(sys.argv[4])

# The reading itself, in this process: in the app it runs in a worker process, whose CPU
# and memory this process's clocks would not see.
worker.ISOLATED = False

def read_all():
    RENDERINGS.clear()  # the run's kept renderings (search_files') would serve every read
    changes = RoundChanges(root, BlobStore(root / ".harness"), root / ".harness/u.json", 1)
    box = ToolBox(root, root / "TASKS.md", "Read", changes)
    offset, chars = 1, 0
    while True:
        out = box.call("read_file", {"path": name, "offset": offset})
        assert not out.is_error, out.content
        chars += len(out.content)
        if "The file continues" not in out.content:
            return chars
        offset = int(out.content.rsplit("offset=", 1)[1].split(" ")[0])

def peak_kb():
    try:  # Linux: the high-water mark since it was last reset
        for line in open("/proc/self/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

try:  # reset the high-water mark: the reads' peak, not the imports' before them
    with open("/proc/self/clear_refs", "w") as fh:
        fh.write("5")
except OSError:
    pass
start = time.process_time()
chars = read_all()
first = time.process_time() - start
times = []
for _ in range(runs):
    start = time.process_time()
    read_all()
    times.append(time.process_time() - start)
print(json.dumps({"first": first, "times": times, "peak_kb": peak_kb(), "chars": chars}))
"""


def make(folder: Path) -> list[tuple[str, str, str]]:
    from app.core.documents import render_document
    from tests.document_files import long_docx, pdf_bytes, prices_xlsx

    (folder / "TASKS.md").write_text("# W\n\n- [ ] Read\n")
    long_docx(folder / "long.docx", pages=50)
    prices_xlsx(folder / "sheet.xlsx", rows=10_000)
    line = "Fresh bread and cakes for the village market, baked every morning at seven."
    page = "\n".join(f"{n}. {line}" for n in range(1, 41))  # 40 lines, about 3 KB a page
    (folder / "long.pdf").write_bytes(pdf_bytes([f"Page {n}\n{page}" for n in range(1, 201)]))
    cases = []
    for name, title in (("long.docx", "50-page Word document"),
                        ("sheet.xlsx", "10,000-row sheet"), ("long.pdf", "200-page PDF")):
        text_name = name + ".txt"
        (folder / text_name).write_text(render_document(folder / name), encoding="utf-8")
        cases.append((name, text_name, title))
    return cases


def measure(folder: Path, name: str, runs: int) -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD, str(REPO), str(folder), name, str(runs)],
                          capture_output=True, text=True, timeout=900, cwd=REPO)
    if done.returncode != 0:
        raise SystemExit(f"reading {name} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout)


def main() -> int:
    parser = arguments(__doc__, runs=5)
    args = parser.parse_args()
    items = []
    with tempfile.TemporaryDirectory(prefix="hd-bench-docs-") as tmp:
        folder = Path(tmp)
        for name, text_name, title in make(folder):
            doc, text = measure(folder, name, args.runs), measure(folder, text_name, args.runs)
            time_ratio = median(doc["times"]) / median(text["times"])
            memory_ratio = doc["peak_kb"] / text["peak_kb"]
            size = (folder / text_name).stat().st_size
            print(f"{title:24} {size / 1e6:5.2f} MB rendered: read {median(doc['times']) * 1000:7.1f}"
                  f" ms vs text {median(text['times']) * 1000:6.1f} ms ({time_ratio:5.1f}x; first "
                  f"read {doc['first'] * 1000:.0f} ms), peak RSS {doc['peak_kb'] / 1024:5.1f} MB vs "
                  f"{text['peak_kb'] / 1024:5.1f} MB ({memory_ratio:.2f}x)")
            key = name.split(".")[0] + "_" + name.split(".")[1]
            passed = time_ratio <= TIME_TARGET and memory_ratio <= MEMORY_TARGET
            items.append(item(f"documents_{key}", f"Reading a {title} whole / the same text",
                              f"<= {TIME_TARGET:.0f}x time, <= {MEMORY_TARGET:.0f}x memory",
                              round(time_ratio, 1), "x", passed,
                              f"time {time_ratio:.1f}x, peak memory {memory_ratio:.2f}x",
                              rendered_bytes=size, doc_ms=round(median(doc["times"]) * 1000, 1),
                              text_ms=round(median(text["times"]) * 1000, 1),
                              doc_first_ms=round(doc["first"] * 1000, 1),
                              doc_peak_mb=round(doc["peak_kb"] / 1024, 1),
                              text_peak_mb=round(text["peak_kb"] / 1024, 1),
                              memory_ratio=round(memory_ratio, 2)))
    return hand_back(args.json, items)


if __name__ == "__main__":
    sys.exit(main())
