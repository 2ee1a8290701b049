"""Exporting a run summary: Markdown, HTML, ODT and PDF, checked from the outside."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest

from app.core.board.board import Board
from app.export.chart import render_chart
from app.commands.export import cmd_export
from app.export.service import export_summary
from tests.export_fixtures import (PLANTED_KEY, fixture_workspace, make_run, make_workspace,
                                   record_demo_run, run_cli, truncate_run)

RUN = "20250303-140000-a1b2c3"
FORMATS = ("md", "html", "odt", "pdf")
ODT_MIME = "application/vnd.oasis.opendocument.text"

needs_poppler = pytest.mark.skipif(shutil.which("pdftotext") is None,
                                   reason="pdftotext (poppler-utils) is not installed")


def flat(text: str) -> str:
    return " ".join(text.split())


def pdf_text(path: Path) -> str:
    # -raw keeps the order Qt drew the text in, so a wrapped table cell reads as one phrase.
    out = subprocess.run(["pdftotext", "-raw", "-enc", "UTF-8", str(path), "-"],
                         capture_output=True, check=True)
    return flat(out.stdout.decode("utf-8"))


def pdf_info(path: Path) -> dict[str, str]:
    out = subprocess.run(["pdfinfo", str(path)], capture_output=True, check=True, text=True)
    return {k.strip(): v.strip() for k, _, v in
            (line.partition(":") for line in out.stdout.splitlines())}


def odt_text(path: Path) -> str:
    with zipfile.ZipFile(path) as z:
        root = ET.fromstring(z.read("content.xml"))
    return flat(" ".join(root.itertext()))


def visible_text(path: Path, fmt: str) -> str:
    if fmt == "pdf":
        return pdf_text(path)
    if fmt == "odt":
        return odt_text(path)
    raw = path.read_text(encoding="utf-8")
    if fmt == "md":  # roughly what a reader sees: no emphasis marks, escapes or code ticks
        raw = re.sub(r"\\(.)", r"\1", raw.replace("**", "").replace("`", ""))
    if fmt == "html":
        import html

        raw = html.unescape(re.sub(r"<[^>]+>", " ", raw))
    return flat(raw)


def export_all(ws: Path, out_dir: Path, run_id: str | None = None) -> dict[str, Path]:
    return {fmt: export_summary(ws, fmt, out_dir / f"summary.{fmt}", run_id) for fmt in FORMATS}


# -- every format, from a fixture run -------------------------------------------------------

@needs_poppler
def test_every_format_names_every_task_and_decision(qapp, tmp_path):
    ws = fixture_workspace(tmp_path)
    tasks = Board.load(ws / "TASKS.md").tasks
    files = export_all(ws, tmp_path / "out")
    for fmt, path in files.items():
        text = visible_text(path, fmt)
        for task in tasks:  # a decision by its question: "HUMAN:" is the file's marker
            assert flat(task.question if task.is_human else task.text) in text, (fmt, task.text)
        assert "HUMAN" not in text, fmt
        for question in ("Should the homepage emphasize speed or trust?",
                         "Which photo goes on the front page?"):
            assert question in text, (fmt, question)
        assert "Answer: trust" in text and "not answered yet" in text, fmt
        assert "Stopped to ask you a decision." in text, fmt
        assert "human_decision_needed" not in text, fmt


def test_markdown_and_html_hold_the_tables(qapp, tmp_path):
    ws = fixture_workspace(tmp_path)
    md = export_summary(ws, "md", tmp_path / "s.md").read_text(encoding="utf-8")
    assert "| # | Task | State | Rounds |" in md and "| File | Changed in round |" in md
    html = export_summary(ws, "html", tmp_path / "s.html").read_text(encoding="utf-8")
    assert html.count("<table") >= 3
    assert "Harness Desk" in html and "<title>Homepage refresh — run summary</title>" in html
    # The chart travels inside the file.
    assert 'src="data:image/png;base64,' in html
    for cell in ("Draft the landing page copy", "Waiting for your decision",
                 "notes/positioning_v2.md"):
        assert re.search(r"<td[^>]*>.*?" + re.escape(cell), html, re.S), cell


def test_odt_is_a_valid_document_with_the_chart(qapp, tmp_path):
    path = export_summary(fixture_workspace(tmp_path), "odt", tmp_path / "s.odt")
    with zipfile.ZipFile(path) as z:
        assert z.testzip() is None
        first = z.infolist()[0]
        # ODF: "mimetype" first and stored, so tools can sniff the type from the bytes.
        assert first.filename == "mimetype" and first.compress_type == zipfile.ZIP_STORED
        assert z.read("mimetype").decode() == ODT_MIME
        ET.fromstring(z.read("content.xml"))  # well-formed
        manifest = z.read("META-INF/manifest.xml").decode()
        pictures = [n for n in z.namelist() if n.startswith("Pictures/")]
        assert pictures and pictures[0] in manifest
        assert z.read(pictures[0])[:8] == b"\x89PNG\r\n\x1a\n"
    assert "Which photo goes on the front page?" in odt_text(path)


def test_odt_tables_are_page_wide_and_chinese_headings_keep_their_size(qapp, tmp_path):
    path = export_summary(fixture_workspace(tmp_path, chinese=True), "odt", tmp_path / "zh.odt")
    with zipfile.ZipFile(path) as z:
        content = z.read("content.xml").decode("utf-8")
        meta = z.read("meta.xml").decode("utf-8")
        assert "meta.xml" in z.read("META-INF/manifest.xml").decode("utf-8")
    assert "<dc:title>主页改版 — run summary</dc:title>" in meta and "Harness Desk" in meta
    assert 'style:width="100pt"' not in content and 'table:align="margins"' in content
    assert 'style:column-width="' in content and "%" not in re.findall(
        r'style:column-width="[^"]*"', content)[0]
    assert 'style:font-size-asian="21pt"' in content  # the title, in Chinese
    assert 'fo:keep-with-next="always"' in content
    assert "起草着陆页文案" in odt_text(path)


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")
@needs_poppler
def test_libreoffice_opens_the_odt(qapp, tmp_path):
    path = export_summary(fixture_workspace(tmp_path), "odt", tmp_path / "s.odt")
    subprocess.run(["soffice", "--headless", f"-env:UserInstallation={(tmp_path / 'lo').as_uri()}",
                    "--convert-to", "pdf", "--outdir", str(tmp_path / "out"), str(path)],
                   capture_output=True, timeout=180, check=True)
    text = pdf_text(tmp_path / "out" / "s.pdf")
    assert "Which photo goes on the front page?" in text and "Draft the landing page copy" in text


@needs_poppler
def test_pdf_has_metadata_page_numbers_and_locale_paper(qapp, tmp_path):
    from PySide6.QtCore import QLocale

    ws = fixture_workspace(tmp_path)
    a4 = export_summary(ws, "pdf", tmp_path / "a4.pdf", locale=QLocale("de_DE"))
    letter = export_summary(ws, "pdf", tmp_path / "letter.pdf", locale=QLocale("en_US"))
    info = pdf_info(a4)
    assert info["Title"] == "Homepage refresh — run summary"
    assert info["Creator"] == "Harness Desk"
    assert "A4" in info["Page size"] and "letter" in pdf_info(letter)["Page size"].lower()
    pages = int(info["Pages"])
    text = pdf_text(a4)
    for n in range(1, pages + 1):
        assert f"Page {n} of {pages}" in text
    # The chart is drawn as vectors: its words are text, and no bitmap blurs it.
    assert "Rounds of this run" in text and "Task completed" in text


@needs_poppler
def test_chinese_board_comes_out_as_text_in_the_pdf(qapp, tmp_path):
    ws = fixture_workspace(tmp_path, chinese=True)
    path = export_summary(ws, "pdf", tmp_path / "zh.pdf")
    text = pdf_text(path)
    # 页 and 文 share glyphs with radicals (⻚, ⽂); they must come back as themselves.
    for phrase in ("主页改版", "起草着陆页文案", "比较三个最强的定位选项", "根据决定重写主页",
                   "主页应该强调速度还是信任？", "写好了着陆页：一个标题和三段文字。", "着陆页.md"):
        assert phrase in text, phrase
    assert not re.search("[\u2e80-\u2fdf\u31c0-\u31ef]", text)
    fonts = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True).stdout
    assert "CJK" in fonts  # real glyphs from a CJK font, not boxes from a Latin one


@needs_poppler
def test_truncated_run_exports_with_a_clear_note(qapp, tmp_path):
    ws = fixture_workspace(tmp_path)
    truncate_run(ws / ".harness" / "runs" / RUN)
    for fmt, path in export_all(ws, tmp_path / "out").items():
        text = visible_text(path, fmt)
        assert "This run did not finish" in text, fmt
        assert "Interrupted: the run stopped during this round" in text, fmt
        assert "Draft the landing page copy" in text, fmt


@needs_poppler
def test_no_key_shaped_string_in_any_format(qapp, tmp_path):
    ws = fixture_workspace(tmp_path)
    for fmt, path in export_all(ws, tmp_path / "out").items():
        raw = path.read_bytes()
        assert PLANTED_KEY.encode() not in raw and b"sk-ant-" not in raw, fmt
        text = visible_text(path, fmt)
        assert "sk-ant-" not in text and "[redacted]" in text, fmt


def test_chart_is_a_png_with_or_without_rounds(qapp, tmp_path):
    from app.export.summary import build_summary

    summary = build_summary(fixture_workspace(tmp_path))
    png = render_chart(summary)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5000
    empty = render_chart(summary.model_copy(update={"rounds": []}))
    assert empty[:8] == b"\x89PNG\r\n\x1a\n"


def test_run_with_no_rounds_exports_without_a_chart(qapp, tmp_path):
    ws = make_workspace(tmp_path / "w")
    make_run(ws, [], decision=None)
    html = export_summary(ws, "html", tmp_path / "s.html").read_text(encoding="utf-8")
    assert "No rounds were recorded." in html and "<img" not in html
    assert export_summary(ws, "pdf", tmp_path / "s.pdf").read_bytes().startswith(b"%PDF")


# -- the command the CLI calls ----------------------------------------------------------------

def test_export_command_writes_and_says_so(qapp, tmp_path, capsys):
    ws = fixture_workspace(tmp_path)
    out = tmp_path / "deep" / "folder" / "summary.pdf"
    assert cmd_export(str(ws), "pdf", str(out), None) == 0
    assert capsys.readouterr().out.strip() == f"Wrote {out}"
    assert out.read_bytes().startswith(b"%PDF")
    # No --format: taken from the file name.
    assert cmd_export(str(ws), None, str(tmp_path / "s.markdown"), RUN) == 0


@pytest.mark.parametrize("case", ["no run", "bad format", "unknown run", "folder as output",
                                  "no folder"])
def test_export_command_bad_input_is_one_sentence(qapp, tmp_path, capsys, case):
    ws = fixture_workspace(tmp_path) if case != "no run" else make_workspace(tmp_path / "e")
    out = tmp_path / "out.pdf"
    out.write_bytes(b"previous export")
    args = {"no run": (str(ws), "pdf", str(out), None),
            "bad format": (str(ws), "docx", str(out), None),
            "unknown run": (str(ws), "pdf", str(out), "20990101-000000-000000"),
            "folder as output": (str(ws), "pdf", str(tmp_path), None),
            "no folder": (str(tmp_path / "nowhere"), "pdf", str(out), None)}[case]
    assert cmd_export(*args) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip()
    assert err and "\n" not in err and "Traceback" not in err and err.endswith("."), err
    assert out.read_bytes() == b"previous export"  # a failed export leaves no half file


# -- a real recorded run, through the CLI, with no display -------------------------------------

@pytest.fixture(scope="module")
def demo_run(tmp_path_factory):
    return record_demo_run(tmp_path_factory.mktemp("demo"))


@needs_poppler
def test_real_demo_run_exports_headless_in_every_format(demo_run, tmp_path):
    board = Board.load(demo_run / "TASKS.md")
    decisions = [t for t in board.tasks if t.is_human]
    assert decisions and all(t.checked for t in board.tasks)
    for fmt in FORMATS:
        out = tmp_path / f"bakery.{fmt}"
        started = time.perf_counter()
        result = run_cli("export", demo_run, "--format", fmt, "--output", out,
                         config_dir=tmp_path / "config")
        seconds = time.perf_counter() - started
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip() == f"Wrote {out}" and result.stderr == ""
        print(f"export {fmt}: {out.stat().st_size} bytes in {seconds:.2f} s")
        text = visible_text(out, fmt)
        for task in board.tasks:
            assert flat(task.question if task.is_human else task.text) in text, (fmt, task.text)
        for d in decisions:
            assert flat(d.question) in text and f"Answer: {d.answer}" in text, fmt
        assert "Demo — no AI was used" in text, fmt
        assert "Every task on the board is done." in text, fmt
    with zipfile.ZipFile(tmp_path / "bakery.odt") as z:
        assert z.read("mimetype").decode() == ODT_MIME


def test_real_demo_run_earlier_run_by_id(demo_run, tmp_path):
    runs = [json.loads(p.read_text(encoding="utf-8"))
            for p in (demo_run / ".harness" / "runs").glob("*/run.json")]
    first = min(runs, key=lambda r: r["started_at"])["run_id"]
    out = tmp_path / "first.md"
    result = run_cli("export", demo_run, "--format", "md", "--output", out, "--run", first,
                     config_dir=tmp_path / "config")
    assert result.returncode == 0, result.stderr
    md = out.read_text(encoding="utf-8")
    assert f"run `{first}`" in md and "Stopped to ask you a decision." in md
    assert "| Tasks done | 2 of 6 |" in md  # as that run ended, not as the board is now
    assert "Later runs have worked on this board since" in md


def test_cli_export_with_no_run_is_one_sentence(tmp_path):
    ws = make_workspace(tmp_path / "empty")
    result = run_cli("export", ws, "--format", "pdf", "--output", tmp_path / "x.pdf",
                     config_dir=tmp_path / "config")
    assert result.returncode == 1 and result.stdout == ""
    assert "no recorded run" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "x.pdf").exists()


def test_cli_export_works_with_a_display_that_leads_nowhere(demo_run, tmp_path):
    """An SSH session or container often inherits a DISPLAY with no X server behind it."""
    import subprocess
    import sys

    from tests.export_fixtures import REPO, cli_env

    env = cli_env(tmp_path / "config")
    env["DISPLAY"] = ":99"
    out = tmp_path / "ssh.pdf"
    result = subprocess.run([sys.executable, "-m", "app", "export", str(demo_run), "--format",
                             "pdf", "--output", str(out)], cwd=REPO, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert out.read_bytes().startswith(b"%PDF")
