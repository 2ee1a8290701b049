"""The sources a round looked up on the web: its searches (the query, how many
results or "found nothing"), the pages it read (title, site, when retrieved, each a link
that opens in the person's browser) and the sentences of the AI's reply that cite them.

Shown in a round's evidence, in the decision dialog (what the AI looked up before it asked)
and in careful mode's approval ("This proposal rests on these sources"). It is hidden for a
round that looked nothing up. The app itself never opens a page: a link goes to the browser.
"""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import QEvent, QSize, Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QTextCursor
from PySide6.QtWidgets import (QLabel, QScrollArea, QSizePolicy, QTextBrowser, QVBoxLayout,
                               QWidget)

from app.core.records.events import HumanNeeded
from app.core.records.records import read_events, read_rounds
from app.core.workspace.workspace import Workspace
from app.engines.demo.web import ORDERS_URL, VISITORS_URL
from app.gui.look import look
from app.gui.words import web_words
from app.gui.words.web_words import tr
from app.gui.words.wording import date_time

OPENABLE = ("http", "https")


class _SourcesList(QTextBrowser):
    """The list of links, exactly as tall as what it holds: no blank band under a short list.
    Capped at `cap` it scrolls in its own box; uncapped (on a page that scrolls as a whole)
    it never shows a scroll bar of its own, so there is one scroll, the page's."""

    link_focused = Signal()  # Tab moved to one of its links

    def __init__(self, parent: QWidget, cap: int | None):
        super().__init__(parent)
        self.cap = cap
        self._heights: dict[int, int] = {}  # width -> its height, until the list changes
        self.document().contentsChanged.connect(self._heights.clear)
        policy = QSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        if cap is None:
            self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

    def focusNextPrevChild(self, next: bool) -> bool:  # noqa: N802, A002 (Qt's names)
        moved = super().focusNextPrevChild(next)  # Tab: to its next link, else out of it
        if self.hasFocus() and self.textCursor().hasSelection():
            self.link_focused.emit()
        return moved

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt's name)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._heights.clear()  # the same words, drawn another size
            self.updateGeometry()
        super().changeEvent(event)

    def hasHeightForWidth(self) -> bool:  # noqa: N802 (Qt's name)
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 (Qt's name)
        if width not in self._heights:
            frame = 2 * self.frameWidth()
            doc = self.document().clone(self)
            doc.setTextWidth(max(1, width - frame))
            self._heights[width] = int(doc.size().height() + 0.999) + frame + 1
            doc.deleteLater()
        whole = self._heights[width]
        if self.cap is None:
            return whole
        # In its own box, a fifth of the screen at most: on a short screen the file or the
        # question under it keeps the room (at 800x600, 120 px: five lines and its scroll bar).
        screen = self.screen()
        room = screen.availableGeometry().height() // 5 if screen is not None else self.cap
        return min(whole, self.cap, max(room, 3 * self.fontMetrics().lineSpacing()))

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        hint = super().sizeHint()
        return QSize(hint.width(), self.heightForWidth(max(self.width(), hint.width())))


class SourcesView(QWidget):
    """A heading and the sources as a list of links; `show_web(None)` hides it.

    `max_height` caps the list (it scrolls in its own box past it); None: it is as tall as
    all it holds, for a page that scrolls as a whole (the decision dialog's)."""

    link_opened = Signal(str)  # the address handed to the browser

    def __init__(self, parent: QWidget | None = None, heading: str = "",
                 max_height: int | None = 240):
        super().__init__(parent)
        self.setObjectName("sourcesView")
        self.web = None
        # Neutral: a Demo round's made-up sources are shown here too, and no AI made them.
        self.heading = QLabel(heading or self.tr("Sources this round looked up"), self)
        self.heading.setObjectName("sourcesHeading")
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        self.heading.setWordWrap(True)
        self.heading.setFont(look.scaled_font(self.heading, 1.0, bold=True))
        self.summary = QLabel(self)
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.summary.setWordWrap(True)
        look.set_tone(self.summary, "muted")
        self.browser = _SourcesList(self, max_height)
        self.browser.setObjectName("sourcesList")
        self.browser.setOpenLinks(False)  # never inside the app: the browser opens them
        self.browser.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextBrowserInteraction
            | Qt.TextInteractionFlag.LinksAccessibleByKeyboard)
        self.browser.anchorClicked.connect(self._open)
        self.browser.link_focused.connect(self._show_focused_link)
        look.set_accessible(self.browser, self.tr("Sources this round looked up"),
                            self.tr("Tab moves from link to link; Enter opens the page in your "
                                    "web browser"))
        self.browser.setToolTip(self.tr("Each page's link opens in your web browser"))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.heading)
        layout.addWidget(self.summary)
        layout.addWidget(self.browser)
        self.hide()

    def show_web(self, web) -> None:
        """Show a round's lookups; hide for None or a round that looked nothing up."""
        self.web = web if web_words.has_lookups(web) else None
        if self.web is None:
            self.browser.clear()
            self.hide()
            return
        self.summary.setText(web_words.looked_up(self.web))
        self.browser.setHtml(sources_html(self.web, look.css(look.muted_colour())))
        self.setAccessibleName(f"{self.heading.text()}: {self.summary.text()}")
        self.show()

    def _show_focused_link(self) -> None:
        """Tab to a link below the page's fold: the page that holds the list scrolls to it
        (the list itself does not scroll on such a page)."""
        if self.browser.cap is not None:
            return
        area = self.parentWidget()
        while area is not None and not isinstance(area, QScrollArea):
            area = area.parentWidget()
        page = area.widget() if area is not None else None
        if area is None or page is None:
            return
        link = self.browser.textCursor()  # the link, selected: from its first line to its last
        ends = [QTextCursor(link), QTextCursor(link)]
        ends[0].setPosition(link.selectionStart())
        ends[1].setPosition(link.selectionEnd())
        rect = self.browser.cursorRect(ends[0]).united(self.browser.cursorRect(ends[1]))
        rect.moveTopLeft(self.browser.viewport().mapTo(page, rect.topLeft()))
        line = self.browser.fontMetrics().lineSpacing()  # and a line of what is around it
        area.ensureVisible(rect.center().x(), rect.center().y(), 0, rect.height() // 2 + line)

    def _open(self, url: QUrl) -> None:
        if url.scheme().lower() not in OPENABLE:
            return  # only a web page's address; never a file or another scheme
        self.link_opened.emit(url.toString())
        QDesktopServices.openUrl(url)


def sources_html(web, muted: str) -> str:
    """The searches, pages and citing sentences as simple HTML (every text escaped)."""
    def esc(text: str) -> str:
        return html.escape(text or "", quote=True)

    def link(url: str, title: str) -> str:
        shown = esc(title.strip() or url)
        if url.lower().startswith(("http://", "https://")):
            return f'<a href="{esc(url)}">{shown}</a>'
        return shown  # an address that is not a web page's: shown, never a link

    out: list[str] = []
    headings = (tr("Searches"), tr("Pages"), tr("Sentences that cite them"))
    if web.searches:
        out.append(f"<p><b>{esc(headings[0])}</b></p><ul>")
        for s in web.searches:
            out.append(f"<li>{esc(web_words.quoted(s.query))} "
                       f"<span style=\"color:{muted};\">— "
                       f"{esc(web_words.search_result_words(s))}</span></li>")
        out.append("</ul>")
    if web.pages:
        out.append(f"<p><b>{esc(headings[1])}</b></p><ul>")
        for p in web.pages:
            facts = [p.site, web_words.page_words(p)]
            when = date_time(p.retrieved_at)
            if when:
                facts.append(tr("retrieved %1").replace("%1", when))
            out.append(f"<li>{link(p.url, p.title)}<br><span style=\"color:{muted};\">"
                       f"{esc(' · '.join(f for f in facts if f))}</span></li>")
        out.append("</ul>")
    if web.citations:
        out.append(f"<p><b>{esc(headings[2])}</b></p><ul>")
        for c in web.citations:
            said = c.sentence.strip() or c.cited_text.strip()
            quote = ""
            if c.cited_text.strip() and c.cited_text.strip() != said:
                says = tr("The page says: %1").replace("%1", web_words.quoted(c.cited_text))
                quote = f"<br><span style=\"color:{muted};\">{esc(says)}</span>"
            out.append(f"<li>{esc(said)} — {link(c.url, c.title)}{quote}</li>")
        out.append("</ul>")
    note = web_words.made_up_note() if made_up(web) else web_words.not_opened_note()
    out.append(f"<p style=\"color:{muted};\">{esc(note)}</p>")
    return "".join(out)


def made_up(web) -> bool:
    """The Demo engine's lookups: every page is one of its made-up example pages (it
    fetches nothing, and no AI service looked anything up)."""
    urls = [p.url for p in web.pages] + [c.url for c in web.citations]
    return bool(urls) and all(url in (ORDERS_URL, VISITORS_URL) for url in urls)


def asked_round_web(root: Path | str, question: str):
    """The lookups of the round that asked this question in the folder's last run (the
    round whose ask_human put it on the board), or None. Reads records: call it off the UI
    thread."""
    ws = Workspace(root)
    run_id = ws.latest_run_id()
    if run_id is None:
        return None
    files = ws.run_files(run_id)
    wanted = " ".join(question.split())
    asked = [e.round for e in read_events(files)
             if isinstance(e, HumanNeeded) and " ".join(e.question.split()) == wanted]
    if not asked:
        return None
    record = next((r for r in reversed(read_rounds(files)) if r.round == asked[-1]), None)
    return record.web if record is not None and web_words.has_lookups(record.web) else None
