"""Every word the exported summary writes around the person's own, in English or Simplified
Chinese (no Qt): the document is written in the window's language, the command line's in
English. A phrase is looked up by its English text; {names} are filled in after.

The window translates its own sentences with Qt Linguist; the summary is built without Qt (the
command line writes it too), so its Chinese lives here, worded as the window's translation."""

from __future__ import annotations

from datetime import datetime

LANGUAGES = ("en", "zh_CN")

ZH: dict[str, str] = {
    # how a round ended (summary.OUTCOME_WORDS), a run (STATE_WORDS, EXIT_REASON_WORDS)
    "Task completed": "已完成任务",
    "Asked for your decision": "请你做决定",
    "Gave up": "放弃了",
    "Reached the step limit": "步数用完了",
    "Reached this task's limit of {cap} web lookups": "已达到这个任务的上网查询上限：{cap} 次",
    "Took no action": "没有动手",
    "Ran out of time": "超时了",
    "AI engine error": "AI 引擎出错",
    "Stopped": "已停止",
    "Shown as a sample, not done": "只是示例，并未完成",
    "Interrupted: the run stopped during this round": "中断：运行在这一轮中途停止了",
    "{outcome}, then undone": "{outcome}，后来已撤销",
    "Still running": "仍在运行",
    "Waiting to retry": "等待重试",
    "Done": "已完成",
    "Failed": "失败",
    "Waiting for your decision": "等你做决定",
    "Not started": "未开始",
    "The run did not finish.": "这次运行没有正常结束。",
    "The run ended.": "运行已结束。",
    "Every task on the board is done.": "清单上的任务都已完成。",
    "Stopped to ask you a decision.": "停下来请你做决定。",
    "Stopped because no progress was being made.": "因为没有进展而停止。",
    "Stopped at the round limit.": "达到轮数上限而停止。",
    "Stopped at the spending limit.": "达到花费上限而停止。",
    "Stopped by you.": "已由你停止。",
    "Shown as a sample, not done.": "只是示例，并未完成。",
    "Stopped after the AI engine failed repeatedly.": "AI 引擎多次出错，运行已停止。",
    "Stopped because the API key was rejected.": "API 密钥被拒绝，运行已停止。",
    "Stopped because the account's quota or spending limit is used up.":
        "账户的额度或花费上限已用完，运行已停止。",
    "Stopped because the chosen model does not exist.": "所选的模型不存在，运行已停止。",
    "Stopped because the AI engine could not be reached.": "连不上 AI 引擎，运行已停止。",
    "Stopped because the AI engine refused the request as it stands.":
        "AI 引擎拒绝了这个请求，运行已停止。",
    "Stopped because of an error on this computer (see the message).":
        "这台电脑上出了错，运行已停止。",
    # the tasks
    "Decided: {answer}": "已决定：{answer}",
    "Decided": "已决定",
    "Worked on, not done yet": "做过，还没完成",
    "Run summary": "运行总结",
    "No progress on “{task}”: what now?": "“{task}”没有进展：接下来怎么办？",
    "In round {n} the AI gave up": "第 {n} 轮 AI 放弃了",
    "In round {n} the AI ran out of steps": "第 {n} 轮 AI 用完了步数",
    "In round {n} the AI kept going round in circles": "第 {n} 轮 AI 一直在原地打转",
    "In round {n} the AI ran out of time": "第 {n} 轮 AI 用完了时间",
    "In round {n} the AI engine had a problem": "第 {n} 轮 AI 引擎出了问题",
    "In round {n} the task was not finished": "第 {n} 轮任务没有完成",
    ": {reason}": "：{reason}",
    ".": "。",
    " What it found: {findings}.": "它发现的情况：{findings}。",
    "In round {n} this task reached its limit of {cap} web lookups ({made} made). Raise “Web "
    "lookups per task” in Settings, then choose Try again to let it look further.":
        "第 {n} 轮这个任务达到了上网查询上限：{cap} 次（已查 {made} 次）。请在设置里调高“每个任务的上网查询次数”，"
        "然后选择“再试一次”，让它继续查找。",
    "Try again": "再试一次",
    "Skip this task (check it yourself)": "跳过这个任务（你自己把它勾上）",
    "Rewrite the task": "改写这个任务",
    "Careful mode: may the AI change your file {path}?": "谨慎模式：允许 AI 修改你的文件 {path} 吗？",
    "Careful mode: may the AI delete your file {path}?": "谨慎模式：允许 AI 删除你的文件 {path} 吗？",
    "Allow": "允许",
    "Don't allow": "不允许",
    # notes at the top
    "Please note": "请注意",
    "Part of the {label} was cut off or damaged ({damaged} {entries} left out).":
        "{label}有一部分被截断或损坏（略去了 {damaged} 条）。",
    "round records": "每一轮的记录",
    "event log": "事件日志",
    "This run is still in progress; this summary shows what was recorded so far.":
        "这次运行仍在进行；这份总结只包含到目前为止的记录。",
    "This run did not finish: it stopped without recording an end (the app may have been "
    "closed or the computer stopped). This summary shows what was recorded up to then.":
        "这次运行没有正常结束：它停下时没有留下结束记录（可能是程序被关闭或电脑停止了）。"
        "这份总结只包含到那时为止的记录。",
    "This summary tells the whole piece of work: the run you started and how it carried on "
    "after {decisions}, with the rounds numbered on from one part to the next.":
        "这份总结讲的是整件工作：你开始的运行，以及它在{decisions}之后的接续，轮次依次往下编号。",
    "your decision": "你做出决定",
    "your {n} decisions": "你做出 {n} 个决定",
    "Later runs have worked on this board since; the task list and answers show the board "
    "as it is now.": "之后又有运行处理过这份清单；任务列表和答案显示的是清单现在的样子。",
    "The price of the model {model} is not in Harness Desk's price table, so the cost shown is "
    "an estimate from the engine's default price, not the bill. Add the model to your "
    "prices.json to count it exactly.":
        "Harness Desk 的价格表里没有模型 {model} 的价格，所以这里的花费是按引擎默认价格估算的，"
        "不是实际账单。把这个模型加到你的 prices.json 里，就能准确计算。",
    "The price of the model {model} is not in Harness Desk's price table, so its cost is "
    "counted at the highest price the table knows for its engine: the real cost is at most the "
    "amount shown. Add the model to your prices.json to count it exactly.":
        "Harness Desk 的价格表里没有模型 {model} 的价格，所以它的花费按这个引擎在价格表里的最高价格计算："
        "实际花费最多就是这里显示的数。把这个模型加到你的 prices.json 里，就能准确计算。",
    "(unnamed)": "（未命名）",
    "The run's own record (run.json) was missing or damaged; details come from its event log.":
        "这次运行自己的记录（run.json）缺失或损坏；细节来自它的事件日志。",
    "The task list could not be read. The task list below comes from the run's records only.":
        "无法读取任务清单（TASKS.md）。下面的任务列表只来自运行记录。",
    # undoing a round
    "put back {files} as before the round": "把 {files} 恢复成这一轮之前的样子",
    "deleted {files}, which the round had created": "删除了这一轮新建的 {files}",
    "kept both versions of {files}, changed by the person since": "保留了 {files} 的两个版本（你之后改过它们）",
    "Undone{on}: {what}.": "已撤销{on}：{what}。",
    " on {when}": "（{when}）",
    "; ": "；",
    ", ": "、",
    # the document
    "{title} — run summary": "{title} — 运行总结",
    "{title} — history": "{title} — 历史记录",
    "{title} · run {run_id}": "{title} · 运行 {run_id}",
    "{title} · history of {name}": "{title} · “{name}”的历史记录",
    "Page {page} of {pages}": "第 {page} 页，共 {pages} 页",
    "Run summary for the folder **{name}** · run {run_id}":
        "文件夹“**{name}**”的运行总结 · 运行 {run_id}",
    "At a glance": "概览",
    "Item": "项目",
    "Detail": "详情",
    "Engine": "AI 引擎",
    "Demo — no AI was used": "演示——没有用到 AI",
    "Model": "模型",
    "Started": "开始",
    "Finished": "结束",
    "{time} (took {duration})": "{time}（用时 {duration}）",
    "did not finish (last record after {duration})": "没有正常结束（最后一条记录在 {duration} 后）",
    "How it ended": "结果",
    "Rounds": "轮数",
    "## Rounds": "## 各轮情况",
    "## Runs": "## 各次运行",
    "Tasks done": "已完成的任务",
    "{done} of {total}": "{total} 项中的 {done} 项",
    "Tokens": "用量（词元）",
    "Cost": "费用",
    " (estimate: price not known)": "（估算：价格未知）",
    "about {amount} at most – the price of {model} is not known, so the highest price is used":
        "最多约 {amount}——不知道 {model} 的价格，所以按最高价格计算",
    "at most {amount}": "最多 {amount}",
    " (estimate: a price was not known)": "（估算：有价格未知）",
    "Chart: each round of this run, coloured by outcome": "图表：这次运行的每一轮，颜色表示结果",
    "Tasks": "任务",
    "#": "#",
    "Task": "任务",
    "State": "状态",
    "No tasks could be read from the board.": "没能从清单里读到任务。",
    "Decisions": "决定",
    "No decisions were needed.": "没有需要你做的决定。",
    "Decision {n}: {question}": "决定 {n}：{question}",
    "Options:": "选项：",
    "Recommendation:": "建议：",
    "Evidence:": "依据的文件：",
    "Asked while working on:": "提问时正在处理：",
    "Answer:": "答案：",
    "not answered yet": "还没有回答",
    "No rounds were recorded.": "没有记录到任何一轮。",
    "Round {n}: {task}": "第 {n} 轮：{task}",
    "{n} step": "{n} 步",
    "{n} steps": "{n} 步",
    "{tokens} tokens · {cost}": "用量 {tokens} 词元 · 费用 {cost}",
    "Files changed: {files}": "改动的文件：{files}",
    # a round's web sources (sources.py)
    "Looked up:": "查了资料：",
    "{searches}, {pages}": "{searches}，{pages}",
    "{n} search": "搜索 {n} 次",
    "{n} searches": "搜索 {n} 次",
    "{n} page read": "读了 {n} 个网页",
    "{n} pages read": "读了 {n} 个网页",
    "Searched for “{query}”: {found}": "搜索“{query}”：{found}",
    "the search failed": "搜索失败",
    "found nothing": "什么也没找到",
    "{n} result": "{n} 条结果",
    "{n} results": "{n} 条结果",
    "could not be read": "没能读取",
    "read in full": "读了全文",
    "a search result": "搜索结果",
    "retrieved {time}": "获取于 {time}",
    "Error: {error}": "出错：{error}",
    "The AI engine reported an error in this round.": "这一轮 AI 引擎报告了错误。",
    "This round ran out of steps before the task was done.": "这一轮在任务完成之前用完了步数。",
    "This round ran out of time before the task was done.": "这一轮在任务完成之前用完了时间。",
    "In this round the AI kept going round in circles.": "这一轮 AI 一直在原地打转。",
    "In this round the AI gave up on the task.": "这一轮 AI 放弃了这个任务。",
    "This round was stopped before it ended.": "这一轮在结束之前被停止了。",
    "Changed files": "改动过的文件",
    "File": "文件",
    "Changed in round": "在哪一轮改动",
    "{n} (undone)": "{n}（已撤销）",
    "No files were changed.": "没有改动任何文件。",
    "Made by {app} on {time}.": "由 {app} 于 {time} 生成。",
    "What you allowed and refused": "你允许和拒绝了什么",
    "Careful mode was on; no change needed your approval.": "谨慎模式已开启；没有需要你批准的改动。",
    "Round": "轮次",
    "Change": "修改",
    "Delete": "删除",
    "Your answer": "你的答复",
    "Allowed": "已允许",
    "Allowed, with the rest of the task": "已允许（本任务内全部允许）",
    "Allowed with your edit": "已按你的修改允许",
    "Not allowed": "不允许",
    "Refused: a protected file": "已拒绝：受保护的文件",
    "Waiting for your answer": "等你答复",
    # numbers and times
    "unknown": "未知",
    "under 1 s": "不到 1 秒",
    "{h} h {m} min": "{h} 小时 {m} 分",
    "{m} min {s} s": "{m} 分 {s} 秒",
    "{m} min": "{m} 分钟",
    "{s} s": "{s} 秒",
    "none (no AI was used)": "无（没有用到 AI）",
    "{n} in": "输入 {n}",
    "{n} out": "输出 {n}",
    "{n} cache": "缓存 {n}",
    # the chart
    "Rounds of this run — bar height: {what}": "这次运行的每一轮——柱高：{what}",
    "cost": "费用",
    "time taken": "用时",
    "s": "秒",
    "min": "分钟",
    "h": "小时",
    # the whole history
    "History of the folder **{name}** · {runs}": "文件夹“**{name}**”的历史记录 · {runs}",
    "{n} run": "{n} 次运行",
    "{n} runs": "{n} 次运行",
    "Run {i}: {note}": "第 {i} 次运行：{note}",
    "Runs": "运行次数",
    "First run started": "第一次运行开始",
    "Last run started": "最近一次运行开始",
    "Asked in:": "提问于：",
    "run {run}, round {round}": "第 {run} 次运行，第 {round} 轮",
    "Run {i}: {time}": "第 {i} 次运行：{time}",
    "{engine} ({model})": "{engine}（{model}）",
    "run {run_id}": "运行 {run_id}",
    "No rounds were recorded in this run.": "这次运行没有记录到任何一轮。",
    "Run {i}, round {n}: {task}": "第 {i} 次运行，第 {n} 轮：{task}",
    "Lessons": "经验",
    "No lessons were found in these runs.": "这些运行中没有发现经验。",
    "Lesson {n}: {headline}": "经验 {n}：{headline}",
    "Seen in:": "出现在：",
    "run {run} round {round}": "第 {run} 次运行第 {round} 轮",
    " and {n} more": "，另有 {n} 处",
    "Accepted:": "已接受：",
    "{time}; in AGENTS.md: {line}": "{time}；AGENTS.md 里的这句话：{line}",
    "Effect:": "效果：",
    "no run since it was accepted": "接受后还没有新的运行",
    "since accepted: {seen} of {runs} runs showed it again": "接受后的 {runs} 次运行里又出现了 {seen} 次",
    "Proposed line (not accepted):": "建议加入的一句话（未接受）：",
    # a lesson's headline (the window's own, translated in the .ts)
    "once": "1 次",
    "{n} times": "{n} 次",
    "The harness refused {subject} {count}": "系统拒绝了 {subject}，共 {count}",
    "The harness refused {subject} {count} (a tool used the wrong way)":
        "系统拒绝了 {subject}，共 {count}（工具用法不对）",
    "{subject} answered with an error {count}": "{subject} 出错，共 {count}",
    "{subject} was read in round after round that made no progress ({count})":
        "{subject} 在一轮又一轮没有进展的尝试中被反复读取（{count}）",
    "The AI answered without using a tool {count}": "AI 回复时没有使用工具，共 {count}",
    "Rounds ran long without finishing {count}": "有几轮做了很久也没完成，共 {count}",
    "The harness corrected the AI for repeating {subject} {count}":
        "AI 重复调用 {subject}，系统纠正了它，共 {count}",
    "A round gave up on “{subject}” and said what it found": "有一轮放弃了“{subject}”，并说明了它的发现",
    "You undid changes to {subject} {count}": "你撤销过 {count}对 {subject} 的修改",
    "The AI asked again what you already decided: “{subject}” ({count})":
        "AI 又问了你已经决定过的问题：“{subject}”（{count}）",
    "You did not allow a change to {subject} {count}": "你没有允许修改 {subject}，共 {count}",
    "The AI tried to change {subject}, which you protected, {count}":
        "AI 试图修改你保护的 {subject}，共 {count}",
}

# A lesson's headline by kind, in the window's wording (lessons_view.headline_of).
LESSON_HEADLINES = {
    "refused_path": "The harness refused {subject} {count}",
    "refused_tool": "The harness refused {subject} {count} (a tool used the wrong way)",
    "tool_error": "{subject} answered with an error {count}",
    "reread": "{subject} was read in round after round that made no progress ({count})",
    "text_only": "The AI answered without using a tool {count}",
    "long_round": "Rounds ran long without finishing {count}",
    "repeated_call": "The harness corrected the AI for repeating {subject} {count}",
    "gave_up": "A round gave up on “{subject}” and said what it found",
    "undone": "You undid changes to {subject} {count}",
    "asked_again": "The AI asked again what you already decided: “{subject}” ({count})",
    "not_allowed": "You did not allow a change to {subject} {count}",
    "protected": "The AI tried to change {subject}, which you protected, {count}",
}


def known(lang: str | None) -> str:
    """One of LANGUAGES: "zh_CN" for any Simplified Chinese code, else English."""
    return "zh_CN" if str(lang or "").replace("-", "_").lower().startswith("zh") else "en"


def tr(lang: str, text: str, **values) -> str:
    """`text` (English, the key) in `lang`, with its {names} filled in."""
    said = ZH.get(text, text) if lang == "zh_CN" else text
    return said.format(**values) if values else said


def both(text: str) -> tuple[str, ...]:
    """The phrase in every language: how the document's styling recognises it."""
    return tuple(dict.fromkeys(tr(lang, text) for lang in LANGUAGES))


def plural(lang: str, n: int, one: str, many: str, **values) -> str:
    return tr(lang, one if n == 1 else many, n=f"{n:,}", **values)


def date_time(moment: datetime, lang: str, zone: bool = True) -> str:
    """'2025-03-03 14:02 CET'; in Chinese one date format everywhere, as the window's:
    '2025年3月3日 14:02'."""
    if lang == "zh_CN":
        return f"{moment.year}年{moment.month}月{moment.day}日 {moment:%H:%M}"
    return f"{moment:%Y-%m-%d %H:%M} {(moment.tzname() or '') if zone else ''}".strip()


def lesson_headline(lang: str, kind: str, subject: str, count: int, cut) -> str:
    times = tr(lang, "once") if count == 1 else tr(lang, "{n} times", n=count)
    template = LESSON_HEADLINES.get(kind)
    if template is None:
        return f"{cut(subject, 120) or kind} {times}"
    return tr(lang, template, subject=cut(subject, 80), count=times)
