"""The proposed standing instruction of each kind of lesson, in plain words, in English and in
Simplified Chinese. The line goes into AGENTS.md, which the AI and the person both read, so it
is written in the folder's own language (folder_language), whatever the window speaks."""

from __future__ import annotations

import re
from pathlib import Path

from app.core.lessons.detectors import Sighting

LANGUAGES = ("en", "zh_CN")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_SAMPLE = 20_000  # characters of each file looked at to tell its language


def folder_language(root: Path) -> str:
    """"zh_CN" when the folder's AGENTS.md, or else its TASKS.md, is written in Chinese. On
    the board only the person's own task lines count: the harness's HUMAN notes and their
    details are in English whatever the person writes."""
    for name in ("AGENTS.md", "TASKS.md"):
        try:
            with open(root / name, encoding="utf-8", errors="replace") as fh:
                text = fh.read(_SAMPLE)
        except OSError:
            continue
        if name == "TASKS.md":
            text = "\n".join(x for x in text.splitlines()
                             if x[:1] not in (" ", "\t") and "HUMAN" not in x.upper())
        letters = [c for c in text if c.isalpha()]
        if letters:
            # A Chinese character says as much as a word: a tenth of the letters is a lot.
            return "zh_CN" if len(_CJK.findall(text)) * 10 >= len(letters) else "en"
    return "en"


def _cut(text: str, n: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1].rstrip() + "…"


def proposed_line(kind: str, subject: str, seen: list[Sighting], lang: str) -> str:
    """The one line a lesson proposes for AGENTS.md."""
    zh = lang == "zh_CN"
    s = _cut(subject, 120)
    detail = _cut(next((x.detail for x in reversed(seen) if x.detail), ""))
    if kind == "refused_path":
        return (f"不要使用 {s}：工具会拒绝（这个文件夹之外的路径或受保护的文件），请只用文件夹里允许的文件。"
                if zh else f"Do not use {s}: the harness refuses it (it is outside this folder "
                f"or protected); work only with the files you are allowed to use.")
    if kind == "refused_tool":
        return (f"按工具说明调用 {s}：之前的调用被拒绝了，先看清它需要哪些参数。"
                if zh else f"Call {s} exactly as its description says: earlier calls were "
                f"refused. Check which arguments it needs first.")
    if kind == "tool_error":
        return (f"{s} 出错时先读错误信息再改调用，不要原样重试。"
                if zh else f"When {s} reports an error, read it and change the call instead of "
                f"trying the same again" + (f" (earlier: “{_cut(detail, 90)}”)." if detail else "."))
    if kind == "reread":
        return (f"{s} 已经读过就记住其内容：不要每一轮都重新读它，直接用读到的内容推进任务。"
                if zh else f"Read {s} once and use what it says: rounds that read it again and "
                f"again made no progress.")
    if kind == "text_only":
        return ("每次回复都要调用工具（读、写文件，或 complete_task、ask_human、give_up）；只写文字不会推进任务。"
                if zh else "Answer every turn with a tool call (read or write a file, or "
                "complete_task, ask_human, give_up); words alone do not move the task on.")
    if kind == "long_round":
        return ("一轮只做一个任务：满足“完成标准”就立刻调用 complete_task 并附上证据；"
                "做不到就用 give_up 说明发现了什么。"
                if zh else "Keep each round to its task: call complete_task with the evidence as "
                "soon as its Done when is met, or give_up with what you found; do not explore.")
    if kind == "repeated_call":
        return (f"不要用相同的参数重复调用 {s or '同一个工具'}：结果不会变，请根据已有结果换一种做法。"
                if zh else f"Do not repeat {s or 'a tool'} with the same arguments: the result "
                f"will not change. Use what it returned and try something else.")
    if kind == "gave_up":
        found = detail.rstrip().rstrip(".。!！?？")  # the finding's own full stop, said once
        return (f"关于“{s}”：之前一轮放弃了，发现：{found}。请从这个发现开始，或先问我。"
                if zh else f"About “{s}”: an earlier round gave up and found: {found}. Start "
                f"from that, or ask me first.")
    if kind == "undone":
        return (f"修改 {s} 之前先问我：我撤销过对它的修改。"
                if zh else f"Ask me before changing {s}: I undid the changes made to it.")
    if kind == "not_allowed":
        return (f"不要修改或删除 {s}：我在谨慎模式下没有允许。需要时在旁边另写一个新文件。"
                if zh else f"Do not change or delete {s}: I did not allow it when careful mode "
                f"asked. Write a new file beside it if you need to.")
    if kind == "protected":
        return (f"{s} 受保护，永远不会被修改：不要尝试写入或删除它，需要时另写一个新文件。"
                if zh else f"{s} is protected and will never be changed: do not try to write or "
                f"delete it; write a new file instead if you need to.")
    if kind == "asked_again":
        return (f"我已经决定了“{s}”：{detail}。照这个决定做，不要再问。"
                if zh else f"I already decided “{s}”: {detail}. Follow that answer and do "
                f"not ask it again.")
    return _cut(f"{kind}: {s}")


HEADLINES = {
    "refused_path": "The harness refused {subject} {count}",
    "refused_tool": "The harness refused {subject} {count} (a tool used the wrong way)",
    "tool_error": "{subject} answered with an error {count}",
    "reread": "{subject} was read in {rounds} that made no progress",
    "text_only": "The AI answered without using a tool {count}",
    "long_round": "Rounds ran long without finishing {count}",
    "repeated_call": "The harness corrected the AI for repeating {subject} {count}",
    "gave_up": "A round gave up on “{subject}” and said what it found",
    "undone": "You undid changes to {subject} {count}",
    "asked_again": "The AI asked again what you already decided: “{subject}” {count}",
    "not_allowed": "You did not allow a change to {subject} {count}",
    "protected": "The AI tried to change {subject}, which you protected, {count}",
}


def headline(kind: str, subject: str, count: int) -> str:
    """What a lesson is about, in one English line (the command line and the export; the
    window words its own, translated)."""
    times = "once" if count == 1 else f"{count} times"
    rounds = f"{count} round{'s' if count != 1 else ''}"
    return HEADLINES.get(kind, "{subject} {count}").format(
        subject=_cut(subject, 120) or kind, count=times, rounds=rounds)
