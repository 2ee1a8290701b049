"""The Demo engine's document task: read the Word brief and the price list, write a Word draft.

The bundled boards' last task reads brief.docx and prices.xlsx with read_file (which shows
them as Markdown) and writes drafts/contact.docx with write_file (Markdown in, a real Word
document out). Everything the draft states comes from what was read: when the hours, the
address or the prices are not found there, the plan gives up saying so instead of writing a
draft that would not meet the task's "Done when".
"""

from __future__ import annotations

import re
from typing import Any

from app.engines.demo.steps import Plan, read_step, write_step

BRIEF, PRICES = "brief.docx", "prices.xlsx"
_NUMBERED = re.compile(r"^\s*\d+\t")

ENGLISH = {
    "hours": "Opening hours.", "contact": "Contact.", "orders": "Cake orders.",
    "title": "# Opening hours and how to find us", "h_hours": "## Opening hours",
    "h_contact": "## Contact", "h_cakes": "## Celebration cakes",
    "summary": "Wrote the opening hours and contact page as a Word document, with the hours "
               "and address from brief.docx and the cake prices from prices.xlsx.",
    "missing": "The Demo engine could not find {what} in what it read, so it did not write "
               "the page.",
    "what": {"hours": "the opening hours in brief.docx", "contact": "the address and phone "
             "number in brief.docx", "prices": "the cakes and prices in prices.xlsx"},
    "findings": "It read brief.docx and prices.xlsx; check that they still hold the opening "
                "hours, the contact details and the price table.",
}
CHINESE = {
    "hours": "营业时间。", "contact": "联系方式。", "orders": "蛋糕预订。",
    "title": "# 营业时间和怎么找到我们", "h_hours": "## 营业时间", "h_contact": "## 联系方式",
    "h_cakes": "## 庆祝蛋糕",
    "summary": "把营业时间和联系方式页面写成了 Word 文档：营业时间和地址来自 brief.docx，"
               "蛋糕价格来自 prices.xlsx。",
    "missing": "演示引擎在读到的内容里没有找到{what}，所以没有写这个页面。",
    "what": {"hours": " brief.docx 里的营业时间", "contact": " brief.docx 里的地址和电话",
             "prices": " prices.xlsx 里的蛋糕和价格"},
    "findings": "它读了 brief.docx 和 prices.xlsx；请检查里面是否还有营业时间、联系方式和价目表。",
}


def contact_docx_plan(words: dict[str, Any], note: str, target: str, seen: str) -> Plan:
    """Read the two documents, then write the Word draft from them, or give up honestly."""
    plan: Plan = [read_step(BRIEF), read_step(PRICES)]
    brief = seen.split("\n[Lines ", 1)[0]  # the first result, up to read_file's closing note
    hours, contact = _after(brief, words["hours"]), _after(brief, words["contact"])
    table = price_table(seen)
    missing = [key for key, found in (("hours", hours), ("contact", contact),
                                      ("prices", table)) if not found]
    if missing:
        what = words["what"][missing[0]]
        return plan + [("give_up", {"reason": words["missing"].format(what=what),
                                    "findings": words["findings"]})]
    body = [words["title"], "", note, "", words["h_hours"], "", hours, "",
            words["h_contact"], "", contact, "", words["h_cakes"], ""] + table + [""]
    orders = _after(brief, words["orders"])
    if orders:
        body += [orders, ""]
    return plan + [write_step(target, "\n".join(body)),
                   ("complete_task", {"summary": words["summary"],
                                      "evidence": [target, BRIEF, PRICES]})]


def price_table(seen: str) -> list[str]:
    """The first sheet's table as Markdown rows without the column letters and row numbers,
    prices with two decimals when any has pence; [] when no table with rows was read."""
    rows: list[list[str]] = []
    for line in seen.splitlines():
        text = _NUMBERED.sub("", line).strip()
        if "|" not in text:   # a table line (read_file's sheet lines have no end pipes)
            if rows:
                break  # the first table only
            continue
        cells = [c.strip() for c in text.strip("|").split("|")]
        if not cells or not cells[0].isdigit() or len(cells) < 3:
            continue  # the letters row, the rule under it
        rows.append(cells[1:])
    if len(rows) < 2:
        return []
    header, items = rows[0], [r for r in rows[1:] if any(r)]
    last = [r[-1] for r in items]
    if not all(_number(v) is not None for v in last):
        return []
    pence = any(not float(v).is_integer() for v in last)
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in items:
        price = f"{float(row[-1]):.2f}" if pence else str(int(float(row[-1])))
        out.append("| " + " | ".join(row[:-1] + [price]) + " |")
    return out


def _after(brief: str, label: str) -> str | None:
    """The rest of the paragraph that begins with the bold label (one line of the rendering)."""
    mark = f"**{label}**"
    for line in brief.splitlines():
        text = _NUMBERED.sub("", line).strip()
        if text.startswith(mark) and text[len(mark):].strip():
            return text[len(mark):].strip()
    return None


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None
