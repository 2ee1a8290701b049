"""Exported web pages never run anything a board, a round or a decision says (issue 16, point 3).

Every text that reaches an export (the board's title, tasks, summaries, file names,
decisions) is written hostile here, and each exported page (a run's and the history) is
read with the standard library's HTML parser, as a browser would tokenise it: no script,
no event handler, no javascript: URL, no active element."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from app.commands.export import export_summary
from app.export.history import ALL_RUNS
from tests.export_fixtures import make_run, make_workspace

TITLE = "</title><script>alert('title')</script><title>"
HOSTILE = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(2)>",
    "[click me](javascript:alert(3))",
    "<a href=\"javascript:alert(4)\">link</a>",
    "<iframe src=\"https://example.invalid/\"></iframe>",
    "<form action=\"https://example.invalid/\"><input name=q><button>go</button></form>",
    "<object data=\"x.swf\"></object><embed src=\"x.swf\">",
    "<svg onload=alert(5)><math><style>*{}</style>",
    "![pic](javascript:alert(6))",
    "<body onload=alert(7)><meta http-equiv=\"refresh\" content=\"0;url=javascript:alert(8)\">",
    "<a href=\" JaVaScRiPt:alert(9)\">spaced</a> <a href=\"vbscript:x\">vb</a>",
]
ACTIVE = {"script", "iframe", "frame", "frameset", "object", "embed", "applet", "form",
          "input", "button", "textarea", "select", "svg", "math", "base", "link", "audio",
          "video", "source", "marquee", "noscript", "template", "portal"}
URL_ATTRS = {"href", "src", "action", "formaction", "data", "xlink:href", "background",
             "poster", "srcset", "content"}


class _Audit(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []
        self.title: list[str] = []
        self._in_title = False
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in ACTIVE:
            self.problems.append(f"<{tag}>")
        if tag == "meta" and any(k == "http-equiv" for k, _ in attrs):
            self.problems.append("<meta http-equiv>")
        for key, value in attrs:
            if key.startswith("on"):
                self.problems.append(f"<{tag} {key}=...>")
            if key in URL_ATTRS and value:
                url = "".join(ch for ch in value if ch > " ").lower()
                if url.startswith(("javascript:", "vbscript:")) or (
                        url.startswith("data:") and not url.startswith("data:image/png;")):
                    self.problems.append(f"<{tag} {key}={value!r}>")
        self._in_title = tag == "title"

    handle_startendtag = handle_starttag

    def handle_endtag(self, tag):
        if tag == "title":
            self._in_title = False

    def handle_data(self, data):
        (self.title if self._in_title else self.text).append(data)


def _hostile_workspace(tmp_path):
    board = "# " + TITLE + "\n\n" + "".join(f"- [x] {h}\n" for h in HOSTILE) + \
        "- [ ] HUMAN: <script>alert('question')</script>\n  - Option: <iframe src=x>\n"
    ws = make_workspace(tmp_path / "ws", board)
    rounds = [(h, "completed", [f"{h}.md", "javascript:alert(10).md"], f"Did it: {h}", None, 10)
              for h in HOSTILE]
    make_run(ws, rounds, decision=("<script>alert('decision')</script>?",
                                   ["<img src=x onerror=alert(11)>", "[no](javascript:alert(12))"]))
    return ws


@pytest.mark.parametrize("which", ["run", "history"])
def test_an_exported_page_runs_nothing_the_texts_say(qapp, tmp_path, which):
    ws = _hostile_workspace(tmp_path)
    out = export_summary(ws, "html", tmp_path / f"{which}.html",
                         ALL_RUNS if which == "history" else None)
    page = out.read_text(encoding="utf-8")
    audit = _Audit()
    audit.feed(page)
    audit.close()
    assert not audit.problems, audit.problems
    # Shown as text, not dropped: the title reads as written, the tasks are there.
    assert TITLE in "".join(audit.title)
    text = "".join(audit.text)
    assert "<script>alert(1)</script>" in text and "javascript:alert(3)" in text
