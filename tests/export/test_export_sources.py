"""The exported summary lists each round's web sources as links (issue 37), in every format
and in Chinese: the Demo's compare round, with its made-up, labelled sources."""

from __future__ import annotations

import io
import re
import shutil
import zipfile

import pytest

from app.core.run.loop import Harness
from app.core.resources import resource_path
from app.core.workspace.workspace import Workspace
from app.engines.demo.engine import DemoEngine
from app.engines.demo.web import ORDERS_URL, VISITORS_URL
from app.export.service import export_summary
from tests.scripted import demo_copy, fast_limits


@pytest.fixture(scope="module")
def asked(tmp_path_factory):
    """The demo's first run: three rounds, the third looked things up, then asked."""
    ws = demo_copy(tmp_path_factory.mktemp("web"))
    assert Harness(ws, DemoEngine(), fast_limits()).run().exit_reason == "human_decision_needed"
    return ws


def _export(ws, fmt: str, tmp_path, lang: str = "en") -> bytes:
    return export_summary(ws.root, fmt, tmp_path / f"summary-{lang}.{fmt}", lang=lang).read_bytes()


def test_markdown_lists_the_rounds_searches_and_pages_as_links(asked, tmp_path):
    md = _export(asked, "md", tmp_path).decode("utf-8")
    round3 = md[md.index("### Round 3:"):]
    assert "**Looked up:** 2 searches, 2 pages read" in round3
    assert "- Searched for “bakery homepage: order cakes online or tell our story”: 2 results" \
        in round3
    assert "- Searched for “Ashford Green bakery website reviews”: found nothing" in round3
    assert (f"- [Example source (made up for the demo): How small bakeries take cake orders]"
            f"(<{ORDERS_URL}>) — example.com · read in full · retrieved ") in round3
    assert f"(<{VISITORS_URL}>) — example.org · a search result" in round3
    assert "Looked up" not in md[:md.index("### Round 3:")]  # rounds 1 and 2 looked nothing up


def test_html_odt_and_pdf_carry_the_links(asked, tmp_path):
    html = _export(asked, "html", tmp_path).decode("utf-8")
    assert re.search(r'<a href="' + re.escape(ORDERS_URL) + r'"[^>]*>.*?Example source',
                     html, re.S)
    assert f'href="{VISITORS_URL}"' in html
    odt = _export(asked, "odt", tmp_path)
    with zipfile.ZipFile(io.BytesIO(odt)) as z:
        content = z.read("content.xml").decode("utf-8")
    assert f'xlink:href="{ORDERS_URL}"' in content and f'xlink:href="{VISITORS_URL}"' in content
    pdf = _export(asked, "pdf", tmp_path)
    uris = set(re.findall(rb"/URI\s*\(([^)]*)\)", pdf))
    assert {ORDERS_URL.encode(), VISITORS_URL.encode()} <= uris  # clickable in a PDF reader


def test_a_chinese_summary_says_it_in_chinese(tmp_path):
    target = tmp_path / "演示"
    shutil.copytree(resource_path("demo-workspace-zh"), target)
    ws = Workspace(target)
    Harness(ws, DemoEngine(), fast_limits()).run()
    md = _export(ws, "md", tmp_path, lang="zh_CN").decode("utf-8")
    assert "**查了资料：** 搜索 2 次，读了 2 个网页" in md  # bold: a space after the label
    assert "搜索“青石镇 面包房 网站 评价”：什么也没找到" in md
    assert f"[示例来源（为演示编造）：小面包房怎样接蛋糕订单](<{ORDERS_URL}>) — example.com · 读了全文 · 获取于 " in md
    html = _export(ws, "html", tmp_path, lang="zh_CN").decode("utf-8")
    assert "查了资料：" in html and "**" not in html  # drawn bold, no stray marks
    assert f'href="{ORDERS_URL}"' in html


def test_only_a_web_address_becomes_a_link():
    from app.core.web.types import WebActivity, WebPage
    from app.export.markdown import md_cell
    from app.export.sources import sources_lines

    web = WebActivity(pages=[WebPage(url="file:///home/rosie/secret.txt", title="Odd"),
                             WebPage(url="https://example.com/a b", title="[A] page")])
    web.pages.append(WebPage(url="https://example.org/x>\n# Owned <", title="T"))
    lines = sources_lines(web, "en", md_cell)
    assert "- [T](<https://example.org/x%3E%0A#%20Owned%20%3C>) — example.org · a search result" \
        in lines  # a planted address cannot break out of its link
    assert "- Odd — a search result" in lines  # shown, never a link to a file
    assert "- [\\[A\\] page](<https://example.com/a%20b>) — example.com · a search result" \
        in lines


def test_the_whole_history_lists_the_sources_too(asked, tmp_path):
    md = export_summary(asked.root, "md", tmp_path / "all.md", run_id="all").read_text(
        encoding="utf-8")
    assert f"(<{ORDERS_URL}>) — example.com · read in full" in md
    assert "**Looked up:** 2 searches, 2 pages read" in md
