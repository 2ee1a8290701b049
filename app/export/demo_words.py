"""What the summary says of a Demo run, from what its rounds did (no Qt).

The core ends a Demo run on the person's tasks with one English sentence (reports.
samples_message) that is true only when every round was a sample. A board may also hold a
task of the Demo's own example (the bakery's "Write the opening hours and contact page"),
which the Demo does for real and ticks: then "ticked none … changed nothing of yours" beside
"Tasks done: 1 of 3" is untrue. So the summary says how such a run ended from its rounds,
in the document's language, and a sample round's line in the words the window uses.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.core.run.outcomes import RoundResult
from app.export.words import ZH, plural, tr

SAMPLE_WROTE = "Wrote a sample note for this task (no AI was used)."
SAMPLE_SAME = ("Its sample note from an earlier round was already there, word for word, so "
               "nothing was written (no AI was used).")
_SHOWN = "The Demo engine showed {tasks} as a sample and ticked none of them: it wrote sample " \
         "notes under demo-output/ and changed nothing of yours."
_SHOWN_SOME = "The Demo engine showed {tasks} as a sample and ticked none of them: for " \
              "those it only wrote sample notes under demo-output/."
_DID_ONE = "It did one task of its built-in example for real and ticked it: {names}."
_DID_MANY = "It did {n} tasks of its built-in example for real and ticked them: {names}."
_CHOOSE = "Choose an AI engine to do the work on your own tasks."

ZH.update({
    SAMPLE_WROTE: "为这个任务写了一份示例笔记（没有用到 AI）。",
    SAMPLE_SAME: "这个任务的示例笔记在之前的一轮里已经写好，内容一字不差，所以这次没有再写"
                 "（没有用到 AI）。",
    "1 task": "1 项任务",
    "{n} tasks": "{n} 项任务",
    _SHOWN: "演示引擎把 {tasks}做成了示例，一项也没有勾选：它只在 demo-output/ 里写了示例笔记，"
            "没有改动你的任何东西。",
    _SHOWN_SOME: "演示引擎把 {tasks}做成了示例，一项也没有勾选：这些任务它只在 demo-output/ "
                 "里写了示例笔记。",
    _DID_ONE: "它按自带的示例真正做完并勾选了一项任务：{names}。",
    _DID_MANY: "它按自带的示例真正做完并勾选了 {n} 项任务：{names}。",
    _CHOOSE: "要真正完成你自己的任务，请选择一个 AI 引擎。",
})


def sample_said(changed: bool, lang: str) -> str:
    """A Demo sample round's line: it wrote its note, or found the same note already there."""
    return tr(lang, SAMPLE_WROTE if changed else SAMPLE_SAME)


def samples_ending(rounds: Sequence, lang: str) -> str:
    """How a Demo run that showed samples ended, true to its rounds: the tasks it only
    showed as a sample, and the example tasks it did for real, by name (said after its
    few words, "Shown as a sample, not done.")."""
    sampled = _tasks(rounds, RoundResult.SAMPLE)
    done = _tasks(rounds, RoundResult.COMPLETED)
    tasks = plural(lang, len(sampled), "1 task", "{n} tasks")
    words = [tr(lang, _SHOWN_SOME if done else _SHOWN, tasks=tasks)]
    if done:
        names = tr(lang, ", ").join(f"“{t}”" for t in done)
        words.append(plural(lang, len(done), _DID_ONE, _DID_MANY, names=names))
    words.append(tr(lang, _CHOOSE))
    return ("" if lang == "zh_CN" else " ").join(words)


def _tasks(rounds: Sequence, state: str) -> list[str]:
    """The tasks of the rounds that ended in `state`, each once, in round order."""
    return list(dict.fromkeys(" ".join(r.task.split()) for r in rounds
                              if r.result_state == state))


def with_said(ending: str, summary) -> str:
    """A run's few words on how it ended, then its sentence when it has one (a RunSummary's
    `ending_said`): the overview's table of runs keeps the few words alone."""
    said = getattr(summary, "ending_said", "")
    if not said:
        return ending
    return f"{ending}{'' if getattr(summary, 'lang', 'en') == 'zh_CN' else ' '}{said}"
