"""search_files over a folder of 50 Office files, the second time, against the same search
over their text.

Fifty documents are made with the libraries (Word, Excel, PDF and PowerPoint, a little
different each), and beside them, in a folder of their own, 50 text files holding exactly
their renderings. The files are dated a minute back, as a person's folder is. One search
of the documents is made first (each rendered once), then the same search is timed over
both folders, interleaved, each with a new ToolBox (a new round, as a person's next round
is): wall-clock time, since documents are rendered in a worker process.

    python bench/search_documents.py [--runs 7] [--json FILE]
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import arguments, hand_back, item, machine_line, median

TARGET = 1.2   # x the same search over the documents' text
FILES = 50
QUERY = "scone"


def make(docs: Path, texts: Path, count: int = FILES) -> None:
    """`count` documents in `docs`, and their renderings as .txt files in `texts`."""
    from app.core.documents import render_document
    from tests.document_files import brief_docx, deck_pptx, long_docx, pdf_bytes, prices_xlsx

    for n in range(count):
        kind = n % 4
        if kind == 0:
            path = long_docx(docs / f"report {n:02d}.docx", pages=2) if n % 8 \
                else brief_docx(docs / f"brief {n:02d}.docx")
        elif kind == 1:
            path = prices_xlsx(docs / f"prices {n:02d}.xlsx", rows=40 + n)
        elif kind == 2:
            path = docs / f"menu {n:02d}.pdf"
            lines = [f"Day {d}: rye loaf, seeded bread, {'scone' if d == n % 7 else 'bun'}"
                     for d in range(30)]
            path.write_bytes(pdf_bytes([f"Menu {n} page {p}\n" + "\n".join(lines)
                                        for p in range(1, 4)]))
        else:
            path = deck_pptx(docs / f"deck {n:02d}.pptx")
        (texts / (path.name + ".txt")).write_text(render_document(path), encoding="utf-8")
    back = time.time() - 60   # a person's folder: written a while ago
    for folder in (docs, texts):
        for path in folder.iterdir():
            os.utime(path, (back, back))


def search_once(root: Path) -> tuple[float, str]:
    from app.core.tools.toolbox import ToolBox
    from app.core.undo.undo import BlobStore, RoundChanges

    changes = RoundChanges(root, BlobStore(root / ".harness"), root / ".harness/u.json", 1)
    box = ToolBox(root, root / "TASKS.md", "Find", changes)
    start = time.perf_counter()
    out = box.call("search_files", {"query": QUERY})
    took = time.perf_counter() - start
    assert not out.is_error, out.content
    return took, out.content


def main() -> int:
    parser = arguments(__doc__, runs=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hd-bench-search-") as tmp:
        docs, texts = Path(tmp) / "docs", Path(tmp) / "texts"
        docs.mkdir()
        texts.mkdir()
        make(docs, texts)
        first, found = search_once(docs)
        _, found_text = search_once(texts)
        hits = found.count("\n") + 1
        if hits != found_text.count("\n") + 1:
            raise SystemExit(f"the two searches found different lines:\n{found}\n--\n{found_text}")
        doc_times, text_times = [], []
        for _ in range(args.runs):
            doc_times.append(search_once(docs)[0])
            text_times.append(search_once(texts)[0])
    doc_s, text_s = median(doc_times), median(text_times)
    ratio = doc_s / text_s
    print(f"search_files for {QUERY!r} over {FILES} Office files: first {first * 1000:.0f} ms, "
          f"then {doc_s * 1000:.1f} ms; over their text {text_s * 1000:.1f} ms ({ratio:.2f}x; "
          f"{hits} lines found)")
    print(machine_line())
    return hand_back(args.json, [item(
        "search_documents_again", f"Second search_files over {FILES} Office files / the same "
        "search over their text", f"<= {TARGET:g}x", round(ratio, 2), "x", ratio <= TARGET,
        f"{doc_s * 1000:.0f} ms vs {text_s * 1000:.0f} ms; first search {first:.1f} s",
        first_ms=round(first * 1000, 1), doc_ms=round(doc_s * 1000, 2),
        text_ms=round(text_s * 1000, 2), files=FILES, lines_found=hits)])


if __name__ == "__main__":
    sys.exit(main())
