"""Render a run summary as Markdown, HTML, ODT or PDF bytes, from the one Markdown it has."""

from __future__ import annotations

import base64
import io
import re
import sys
import zipfile
from html import escape as escape_html
from xml.sax.saxutils import escape as escape_xml

from app import NAME
from app.core.errors import HarnessError
from app.core.records.redact import redact
from app.export.chart import draw_chart, render_chart
from app.export.doc_style import heading_margins_pt, style_document
from app.export.fonts import CJK, font_families
from app.export.markdown import render_markdown
from app.export.pdf import write_pdf
from app.export.summary import CHART_NAME, RunSummary
from app.export.words import tr

FORMATS = ("md", "html", "pdf", "odt")
# For the window's save dialog: format and filter, the most shareable first.
SAVE_FILTERS = [("pdf", "PDF document (*.pdf)"),
                ("odt", "Word or LibreOffice document (*.odt)"),
                ("html", "Web page (*.html)"),
                ("md", "Markdown text (*.md)")]
CHART_WIDTH_PX = 640  # fits the text width of A4 and Letter with 20 mm margins

# Territories whose paper is Letter; everyone else uses A4.
_LETTER = {"UnitedStates", "Canada", "Mexico", "Chile", "Colombia", "CostaRica", "Guatemala",
           "DominicanRepublic", "ElSalvador", "Panama", "Philippines", "PuertoRico",
           "Venezuela", "Nicaragua", "Honduras", "Belize", "UnitedStatesVirginIslands",
           "UnitedStatesOutlyingIslands", "AmericanSamoa", "Guam", "NorthernMarianaIslands"}


class ExportError(HarnessError):
    """The export could not be written; the message says why in one sentence."""


def ensure_app():
    """A QGuiApplication for fonts and painting. The window's own application is used when
    there is one; otherwise (the CLI) export needs no screen, so it always draws offscreen,
    which also works over SSH with a DISPLAY that leads nowhere."""
    from PySide6.QtGui import QGuiApplication  # noqa: PLC0415 - Qt, only when export draws

    app = QGuiApplication.instance()
    if app is None:
        # Qt's own -platform argument: offscreen for this application alone, not a change
        # of QT_QPA_PLATFORM for the whole process and whatever it starts.
        app = QGuiApplication([sys.argv[0] if sys.argv else NAME, "-platform", "offscreen"])
    return app


def page_size_for(locale=None):
    """Letter where the locale's territory uses it (US, Canada, Mexico, …), A4 elsewhere."""
    from PySide6.QtCore import QLocale  # noqa: PLC0415 - Qt, only when export draws
    from PySide6.QtGui import QPageSize  # noqa: PLC0415 - Qt, only when export draws

    locale = locale or QLocale.system()
    name = getattr(locale.territory(), "name", "")
    letter = name in _LETTER
    return QPageSize(QPageSize.PageSizeId.Letter if letter else QPageSize.PageSizeId.A4)


# -- building the document ---------------------------------------------------------------

def build_document(summary: RunSummary, chart_png: bytes | None):
    """A QTextDocument from the summary's Markdown, styled for reading and printing."""
    return markdown_document(render_markdown(summary, chart=CHART_NAME if chart_png else None),
                             _doc_title(summary), chart_png, lang=summary.lang)


def markdown_document(markdown: str, title: str, chart_png: bytes | None = None,
                      lang: str = "en"):
    """A QTextDocument from Markdown (a run's or a folder's history), styled for reading and
    printing; `chart_png` is the image the Markdown names CHART_NAME. A Chinese document
    is set in its Chinese face first (full-width punctuation drawn as Chinese)."""
    from PySide6.QtCore import QUrl  # noqa: PLC0415 - Qt, only when export draws
    from PySide6.QtGui import (  # noqa: PLC0415 - Qt, only when export draws
        QFont, QImage, QTextDocument, QTextOption)


    doc = QTextDocument()
    font = QFont()
    font.setFamilies(font_families("sans", lang))
    font.setPointSizeF(10)
    # No ligatures: Qt's PDF text map would turn "fi" into one character (U+FB01), and a
    # search for "finish" in the PDF would miss it.
    font.setFeature(QFont.Tag("liga"), 0)
    doc.setDefaultFont(font)
    option = QTextOption()
    option.setUseDesignMetrics(True)  # the same line breaks on screen, in ODT and in PDF
    option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    doc.setDefaultTextOption(option)
    doc.setDocumentMargin(0)
    doc.setMarkdown(markdown, QTextDocument.MarkdownFeature.MarkdownDialectGitHub)
    # After setMarkdown, which clears the document's title and resources.
    doc.setMetaInformation(QTextDocument.MetaInformation.DocumentTitle, title)
    if chart_png:
        # PySide6 takes the format as str at run time (bytes raise ValueError); its stub says
        # bytes.
        image = QImage.fromData(chart_png, "PNG")  # type: ignore[arg-type]
        doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(CHART_NAME), image)
    style_document(doc, font_families("mono", lang), CHART_WIDTH_PX)
    return doc


def _doc_title(summary: RunSummary) -> str:
    return redact(tr(summary.lang, "{title} — run summary", title=summary.title))


def _chart(summary: RunSummary) -> bytes | None:
    if not any(r.recorded for r in summary.rounds):
        return None
    return render_chart(summary, families=font_families("sans", summary.lang))


# -- the four formats ---------------------------------------------------------------------

def to_markdown(summary: RunSummary) -> bytes:
    return render_markdown(summary).encode("utf-8")


def to_html(summary: RunSummary) -> bytes:
    ensure_app()
    chart = _chart(summary)
    return html_of(build_document(summary, chart), chart, summary.lang)


def html_of(doc, chart: bytes | None = None, lang: str = "en") -> bytes:
    """A document as one self-contained web page that reads well in any browser, marked
    with its language (a browser then picks a Chinese face for Chinese)."""
    html = redact(_html_with_escaped_title(doc))
    html = re.sub(r"<html\b[^>]*>", f'<html lang="{"zh-CN" if lang == "zh_CN" else "en"}">',
                  html, count=1)
    # The reader's machine may have none of our fonts: end each list with a generic family,
    # or a browser falls back to its default, usually a serif.
    html = re.sub(r"font-family:((?:'[^']*',?)+)",
                  lambda m: f"font-family:{m[1]},{'monospace' if 'Mono' in m[1] else 'sans-serif'}",
                  html)
    if chart:
        # One self-contained file: the chart travels inside it.
        data = "data:image/png;base64," + base64.b64encode(chart).decode("ascii")
        html = html.replace(f'src="{CHART_NAME}"', f'src="{data}"')
    # Qt writes HTML 4 for its own renderer; browsers also want a readable measure and
    # cell borders drawn the same way Qt draws them.
    extra = (f'<meta name="generator" content="{NAME}" />'
             '<meta name="viewport" content="width=device-width, initial-scale=1" />'
             '<style type="text/css">body { max-width: 52em; margin: 2em auto; padding: 0 1em; '
             'line-height: 1.35; } img { max-width: 100%; height: auto; } '
             'table { border-collapse: collapse; margin-bottom: 0.8em; } '
             'td, th { border: 1px solid #c3cbd3; vertical-align: top; }</style>')
    html = html.replace("</head>", extra + "</head>", 1)
    return html.encode("utf-8")


def _html_with_escaped_title(doc) -> str:
    """doc.toHtml(), with the title escaped: Qt writes it raw, so a board headed
    `</title><script>...` would run in the reader's browser. Everything else Qt escapes."""
    from PySide6.QtGui import QTextDocument  # noqa: PLC0415 - Qt, only when export draws

    key = QTextDocument.MetaInformation.DocumentTitle
    title = doc.metaInformation(key)
    doc.setMetaInformation(key, "")
    try:
        html = doc.toHtml()
    finally:
        doc.setMetaInformation(key, title)
    safe = f"<title>{escape_html(title, quote=False)}</title>"
    if "<title></title>" in html:
        return html.replace("<title></title>", safe, 1)
    return html.replace("</head>", safe + "</head>", 1)


def to_odt(summary: RunSummary) -> bytes:
    ensure_app()
    return odt_of(build_document(summary, _chart(summary)), _doc_title(summary), summary.lang)


def odt_of(doc, title: str, lang: str = "en") -> bytes:
    """A document as an ODT file that LibreOffice and Word open with its tables intact."""
    from PySide6.QtCore import (  # noqa: PLC0415 - Qt, only when export draws
        QBuffer, QByteArray, QIODevice)
    from PySide6.QtGui import QTextDocumentWriter  # noqa: PLC0415 - Qt, only when export draws

    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QTextDocumentWriter(buf, b"odf")
    ok = writer.write(doc)
    buf.close()
    if not ok:
        raise ExportError("Qt could not write the ODT document.")
    return _polish_odt(bytes(data.data()), title, lang)


_ODT_META = """<?xml version="1.0" encoding="UTF-8"?>
<office:document-meta xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" \
xmlns:dc="http://purl.org/dc/elements/1.1/" \
xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" office:version="1.2">
<office:meta><meta:generator>{generator}</meta:generator><dc:title>{title}</dc:title>\
</office:meta></office:document-meta>
"""


_ODT_WIDTH_CM = 17.0  # the text width of A4 with LibreOffice's and Word's 2 cm margins


def _odt_headings_and_cjk(content: str, families: list[str]) -> str:
    """Headings keep with the next paragraph; sizes and weights also apply to CJK text.

    Word processors style East Asian characters through separate "-asian" properties;
    without them a Chinese heading comes out in body size.
    """
    headings = heading_margins_pt()

    def paragraph(m: re.Match) -> str:
        tag = m.group(0)
        top = re.search(r'fo:margin-top="([^"]*)"', tag)
        bottom = re.search(r'fo:margin-bottom="([^"]*)"', tag)
        if top and bottom and (top[1], bottom[1]) in headings:
            return tag[:-2].rstrip() + ' fo:keep-with-next="always"/>'
        return tag

    cjk = next((f for f in families if f in CJK), None)

    def text(m: re.Match) -> str:
        tag, extra = m.group(0), []
        for attr in ("font-size", "font-weight", "font-style"):
            value = re.search(rf'fo:{attr}="([^"]*)"', tag)
            if value:
                extra += [f'style:{attr}-asian="{value[1]}"', f'style:{attr}-complex="{value[1]}"']
        if cjk and "fo:font-family" in tag:
            extra.append(f'style:font-family-asian="{cjk}"')
        return tag[:-2].rstrip() + (" " + " ".join(extra) if extra else "") + "/>"

    content = re.sub(r"<style:paragraph-properties\b[^>]*/>", paragraph, content)
    return re.sub(r"<style:text-properties\b[^>]*/>", text, content)


def _polish_odt(data: bytes, title: str, lang: str = "en") -> bytes:
    """Fix what Qt's ODF writer gets wrong, and add the title and generator.

    Qt writes a 100% wide table as style:width="100pt" (a 3.5 cm sliver in LibreOffice and
    Word) and column shares as percentages ODF does not know; ODF wants table:align="margins"
    and relative widths ("53*").
    """
    src = zipfile.ZipFile(io.BytesIO(data))
    content = src.read("content.xml").decode("utf-8")
    content = content.replace('style:width="100pt"', f'style:width="{_ODT_WIDTH_CM}cm" '
                              'table:align="margins"')
    content = re.sub(r'style:column-width="([\d.]+)%"',
                     lambda m: f'style:column-width="{float(m[1]) * _ODT_WIDTH_CM / 100:.2f}cm" '
                               f'style:rel-column-width="{round(float(m[1]) * 100)}*"', content)
    content = _odt_headings_and_cjk(content, font_families("sans", lang))
    manifest = src.read("META-INF/manifest.xml").decode("utf-8").replace(
        "</manifest:manifest>", ' <manifest:file-entry manifest:media-type="text/xml" '
        'manifest:full-path="meta.xml"/>\n</manifest:manifest>')
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        # The mimetype entry comes first and uncompressed, so the type can be sniffed.
        z.writestr(zipfile.ZipInfo("mimetype"), src.read("mimetype"),
                   compress_type=zipfile.ZIP_STORED)
        for name in src.namelist():
            if name == "mimetype":
                continue
            body = {"content.xml": content.encode("utf-8"),
                    "META-INF/manifest.xml": manifest.encode("utf-8")}.get(name)
            z.writestr(name, body if body is not None else src.read(name))
        z.writestr("meta.xml", _ODT_META.format(generator=escape_xml(NAME),
                                                title=escape_xml(title)).encode("utf-8"))
    return out.getvalue()


def to_pdf(summary: RunSummary, locale=None) -> bytes:
    ensure_app()
    families = font_families("sans", summary.lang)
    doc = build_document(summary, _chart(summary))
    # In the PDF the chart is painted as vectors where the image stood: crisp at any zoom.
    vector = (CHART_NAME, lambda painter, rect: draw_chart(painter, summary, rect,
                                                           families=families))
    return write_pdf(doc, page_size_for(locale), title=_doc_title(summary),
                     footer=redact(tr(summary.lang, "{title} · run {run_id}",
                                      title=summary.title, run_id=summary.run_id)),
                     families=families, vector=vector, lang=summary.lang)


def render(summary: RunSummary, fmt: str, locale=None) -> bytes:
    """The document in `fmt` (one of FORMATS). `locale` picks the PDF's paper size."""
    if fmt == "md":
        return to_markdown(summary)
    if fmt == "html":
        return to_html(summary)
    if fmt == "odt":
        return to_odt(summary)
    if fmt == "pdf":
        return to_pdf(summary, locale)
    raise ExportError(f"Unknown format \"{fmt}\"; choose one of {', '.join(FORMATS)}.")
