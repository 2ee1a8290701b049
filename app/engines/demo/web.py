"""The Demo engine's scripted lookup: made-up, clearly labelled web sources.

On the bundled boards' "Compare two directions for the homepage" task, the Demo engine plays
what a service's own web tools would return: two searches (one finding nothing), two search
results, one page read whole, and the sentences of its reply that cite them. Nothing is
fetched and nothing leaves the computer: every title says the source is made up for the
demo, and every address is on example.com or example.org, which are reserved for examples
and never belong to anyone. The turns carry the lookups on ModelTurn.web, as a real
engine's would, so the loop records them and the window shows them like any other.
"""

from __future__ import annotations

from datetime import datetime, timezone

from app.core.web.types import WebActivity, WebCitation, WebPage, WebSearch

ORDERS_URL = "https://example.com/made-up-for-the-demo/bakery-cake-orders"
VISITORS_URL = "https://example.org/made-up-for-the-demo/what-bakery-visitors-look-for"

_EN = {
    "queries": ("bakery homepage: order cakes online or tell our story",
                "Ashford Green bakery website reviews"),
    "orders": "Example source (made up for the demo): How small bakeries take cake orders",
    "visitors": "Example source (made up for the demo): What visitors look for on a "
                "bakery's website",
    "orders_quote": "A made-up figure for the demo: three in five celebration cakes at small "
                    "bakeries are still ordered by phone.",
    "orders_said": "Most celebration cakes are still ordered by phone, so an order button "
                   "near the top would save missed calls.",
    "visitors_quote": "A made-up finding for the demo: first-time visitors look for the "
                      "opening hours and for who bakes the bread.",
    "visitors_said": "New visitors want to know who bakes the bread, which is the trust "
                     "direction's strength.",
}
_ZH = {
    "queries": ("面包房首页：主打在线订蛋糕还是讲我们的故事", "青石镇 面包房 网站 评价"),
    "orders": "示例来源（为演示编造）：小面包房怎样接蛋糕订单",
    "visitors": "示例来源（为演示编造）：顾客在面包房网站上找什么",
    "orders_quote": "为演示编造的数字：小面包房的庆祝蛋糕，五个里有三个仍是打电话订的。",
    "orders_said": "多数庆祝蛋糕仍靠电话预订，首页顶部放一个下单按钮能少漏接电话。",
    "visitors_quote": "为演示编造的发现：第一次来的顾客会找营业时间，也想知道面包是谁做的。",
    "visitors_said": "新顾客想知道面包是谁做的，这正是“信任”方向的长处。",
}

COMPARE_TASKS = {
    "Compare two directions for the homepage: speed (order online fast) or trust (our story "
    "and our bakers)": _EN,
    "比较首页的两个方向：速度（在线下单快）还是信任（我们的故事和面包师傅）": _ZH,
}


def lookup_for(task: str, step: int, asked_before: bool) -> WebActivity | None:
    """What the Demo's reply at this step of the task's round looked up, or None.

    Only the first round of the compare task looks things up (the one that ends by asking
    the person); once the person has answered, the second round writes without lookups."""
    words = COMPARE_TASKS.get(task)
    if words is None or asked_before:
        return None
    when = datetime.now(timezone.utc).isoformat(timespec="seconds")
    if step == 0:  # the searches, and what they found
        first, second = words["queries"]
        return WebActivity(
            searches=[WebSearch(query=first, results=2), WebSearch(query=second, results=0)],
            pages=[WebPage(url=ORDERS_URL, title=words["orders"], retrieved_at=when),
                   WebPage(url=VISITORS_URL, title=words["visitors"], retrieved_at=when)],
            search_count=2)
    if step == 1:  # one page read whole, and the sentences that rest on the two sources
        return WebActivity(
            pages=[WebPage(url=ORDERS_URL, title=words["orders"], retrieved_at=when,
                           fetched=True)],
            citations=[WebCitation(url=ORDERS_URL, title=words["orders"],
                                   cited_text=words["orders_quote"],
                                   sentence=words["orders_said"]),
                       WebCitation(url=VISITORS_URL, title=words["visitors"],
                                   cited_text=words["visitors_quote"],
                                   sentence=words["visitors_said"])],
            fetch_count=1)
    return None


def reply_text(task: str, step: int, asked_before: bool) -> str:
    """The Demo reply's own words at the step its sentences cite the sources, else ""."""
    words = COMPARE_TASKS.get(task)
    if words is None or asked_before or step != 1:
        return ""
    return f"{words['orders_said']} {words['visitors_said']}"
