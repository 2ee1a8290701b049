"""The Demo engine's script for the Chinese demo board: the same bakery, its drafts in Chinese."""

from __future__ import annotations

import re
from typing import Callable

from app.engines.demo import documents as demo_documents
from app.engines.demo.steps import Plan
from app.engines.demo.steps import answer_to as _answer
from app.engines.demo.steps import done_step as _done
from app.engines.demo.steps import read_step as _read
from app.engines.demo.steps import write_step as _write

HOMEPAGE_QUESTION = "首页主打哪个方向：速度（一分钟在线订好蛋糕），还是信任（我们的故事、我们的面包师傅、本地面粉）？"
DEMO_NOTE = "_由演示引擎写成，没有用到 AI。这段文字按固定脚本生成，让你看看一次运行是怎么进行的。_"
SPEED, TRUST = "速度", "信任"
GENERIC_SUMMARY = "为这个任务写了一份示例笔记（没有用到 AI）。"
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
TOPIC = "首页"  # how the person's answer to the question above is found among the decisions


def _brief_summary_plan(target: str, decisions: list[str], seen: str) -> Plan:
    return [("list_files", {"path": "."}), _read("brief.md"),
            _write(target, _brief_summary()), _done("已把项目简介归纳成五条要点。", target)]


def _about_us_plan(target: str, decisions: list[str], seen: str) -> Plan:
    return [_read("brief.md"), _read("notes/customer-comments.md"),
            _write(target, _about_us()), _done("写好了“关于我们”页面的初稿（约 250 字）。", target)]


def _options_plan(target: str, decisions: list[str], seen: str) -> Plan:
    answer = _answer(decisions, TOPIC)
    if answer is None:
        return [_read("brief.md"), _write(target, _options()),
                ("ask_human", {
                    "question": HOMEPAGE_QUESTION, "options": [SPEED, TRUST],
                    "evidence": [target, "brief.md"],
                    "recommendation": "信任：老顾客喜欢我们的故事，而在线订蛋糕照样只需多点一下。"})]
    return [_read(target), _write(target, _options(answer)),
            _done(f"比较了两个方向；你选了“{answer}”。", target)]


def _homepage_plan(target: str, decisions: list[str], seen: str) -> Plan:
    direction = _answer(decisions, TOPIC) or TRUST
    return [_read("notes/homepage-options.md"), _read("brief.md"),
            _write(target, _homepage(direction)),
            _done(f"按“{direction}”的方向写好了首页初稿。", target)]


def _contact_plan(target: str, decisions: list[str], seen: str) -> Plan:
    return demo_documents.contact_docx_plan(demo_documents.CHINESE, DEMO_NOTE, target, seen)


# The Chinese board's tasks, word for word as in resources/demo-workspace-zh/TASKS.md,
# with the file each one's "Done when" names and its script. Change one there, change it here.
BAKERY_TASKS: dict[str, tuple[str, Callable[[str, list[str], str], Plan]]] = {
    "把项目简介归纳成五条要点": ("notes/brief-summary.md", _brief_summary_plan),
    "写“关于我们”页面的初稿": ("drafts/about-us.md", _about_us_plan),
    "比较首页的两个方向：速度（在线下单快）还是信任（我们的故事和面包师傅）":
        ("notes/homepage-options.md", _options_plan),
    "按选定的方向写首页初稿": ("drafts/homepage.md", _homepage_plan),
    "写营业时间和联系方式页面": ("drafts/contact.docx", _contact_plan),
}


def _brief_summary() -> str:
    return "\n".join([
        "# 项目简介的五个要点", "", DEMO_NOTE, "",
        "1. 顾客想在网上订庆祝蛋糕；只靠电话订，忙起来就会漏接。",
        "2. 所有东西都在店里手工现做，早上 6 点前出炉：要直截了当地说出来。",
        "3. 营业时间和到店路线，在手机上要一眼就能找到。",
        "4. 保留老顾客喜欢的亲切口吻，不要官腔。",
        "5. 面粉来自二十公里外的河湾磨坊：这是个值得讲的故事。", ""])


def _about_us() -> str:
    return "\n".join([
        "# 关于我们", "", DEMO_NOTE, "",
        "1998 年，罗西在磨坊路开了这家面包房。那时只有一台烤箱，还有一罐酸种老面，"
        "这罐老面她到今天还在用。店里的每一个面包、每一个小圆包、每一块蛋糕，"
        "都是在早上七点开门前，在这里亲手做出来的。", "",
        "现在掌管后厨的是罗西的女儿小雅。她做肉桂卷的方法，和妈妈当年教她的一模一样；"
        "她也还是每天不到六点就进了厨房。", "",
        "我们的面粉来自二十公里外的河湾磨坊。你在这里买到的面包，"
        "走过的路大概和你来取它的路差不多远。", "",
        "进来买个面包，坐下喝杯咖啡；下次有什么值得庆祝的日子，也跟我们说说蛋糕的事。"
        "我们很乐意为你烤。", ""])


def _options(answer: str | None = None) -> str:
    lines = [
        "# 首页的两个方向", "", DEMO_NOTE, "",
        "| | 速度：在线下单快 | 信任：我们的故事和面包师傅 |",
        "|---|---|---|",
        "| 优点 | 满足最常见的需求（订蛋糕）；少漏接电话 | "
        "符合亲切的本地口吻；让新顾客知道我们有什么不一样 |",
        "| 缺点 | 看起来和随便哪家网店差不多；藏起了我们的特别之处 | 下单要多点一下 |",
        "| 对应简介 | 第 1、3 点 | 第 2、4、5 点 |", ""]
    if answer:
        lines += [f"**决定：** 罗西选了 **{answer}**。", ""]
    return "\n".join(lines)


def _homepage(direction: str) -> str:
    if direction.strip().startswith(SPEED) or direction.lower().startswith("speed"):
        headline = "一分钟订好你的庆祝蛋糕"
        first = "选好蛋糕，定好日子，我们按时给你准备好。不用排队打电话，也不会再漏接。"
    else:
        headline = "1998 年起，在磨坊路手工现烤"
        first = "每一个面包、小圆包和蛋糕，都在早上 6 点前于店里做好，面粉来自二十公里外的河湾磨坊。"
    return "\n".join([
        f"# {headline}", "", DEMO_NOTE, "",
        "## 每天早上新鲜出炉", "", first, "",
        "## 为你的好日子做蛋糕", "",
        "生日、婚礼，或者只是一个需要打打气的星期二：告诉我们日子，我们来烤。", "",
        "## 怎么找到我们", "", "青石镇磨坊路 14 号。周二至周六早上 7 点开门。", "",
        "**[订一个蛋糕](#order)**", ""])


def is_chinese(text: str) -> bool:
    """Whether a task is written in Chinese: the Demo engine answers in the task's language."""
    return bool(_HAN.search(text))


def generic_draft(task: str, done_when: list[str], named: str | None, source: str | None,
                  excerpt: str, folder: str, created: str | None = None) -> str:
    """The generic demo draft (see demo_script._generic), for a task written in Chinese."""
    body = [f"# {task}", "", DEMO_NOTE, "", "## 任务要求", "", task, ""]
    if done_when:
        body += ["完成标准：", ""] + [f"- {c}" for c in done_when] + [""]
    if created:
        body += [f"任务的完成标准提到了 `{created}`，这个文件原来不存在，所以演示引擎把草稿写在了那里。"
                 "它不会改动你已有的任何文件。", ""]
        named = None
    elif named:
        body += [f"任务里提到了 `{named}`。演示引擎不会改动那个文件，只在 {folder}/ 里写这份草稿。", ""]
    if source:
        body += [f"## 来自 {source} 的素材", "", excerpt or "（空文件）", ""]
    where = f"，用自己的话放进 `{named}`" if named else "，用自己的话写下来"
    body += ["## 下一步", "", f"- 看看这份草稿，把用得上的内容{where}；",
             "- 或者换一个 AI 引擎重新运行这个任务，得到一份真正的草稿。", ""]
    return "\n".join(body)
