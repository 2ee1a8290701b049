"""The Demo engine's script: which tool calls to make for a task, and the text it writes."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from typing import Callable

from app.engines.demo import documents as demo_documents
from app.engines.demo import script_zh as demo_script_zh
from app.engines.demo.names import (ancestors, entries, exists, known_folder, named_paths,
                                    whole_name)
from app.engines.demo.script_zh import BAKERY_TASKS as BAKERY_TASKS_ZH
from app.engines.demo.steps import Plan
from app.engines.demo.steps import answer_to as _answer
from app.engines.demo.steps import done_step as _done
from app.engines.demo.steps import read_step as _read
from app.engines.demo.steps import write_step as _write

DEMO_FOLDER = "demo-output"

HOMEPAGE_QUESTION = ("Should the homepage lead with speed (order a cake online in a minute) "
                     "or trust (our story, our bakers, local flour)?")
DEMO_NOTE = ("_Written by the Demo engine: no AI was used. This text follows a fixed script "
             "so you can see how a run works._")


def plan_for(task: str, done_when: list[str], decisions: list[str], results: list[str]) -> Plan:
    """The whole plan for a task. It is recomputed every turn from the tool results so far,
    so every step must come out the same whatever later results add.

    The bakery scripts run only for the bundled boards' own tasks: the exact words of a task
    in resources/demo-workspace/TASKS.md (or its Chinese twin, demo-workspace-zh), whose
    "Done when" still names the same file. Any other task, on any board, gets the generic
    plan, which writes only a new file under demo-output/ and never a file the board names."""
    named = named_path(task, done_when)
    bakery = BAKERY_TASKS.get(task) or BAKERY_TASKS_ZH.get(task)
    if bakery is not None and bakery[0] == named:
        target, script = bakery
        return script(target, decisions, "\n".join(results))
    return _generic(task, done_when, named, results)


def named_path(task: str, done_when: list[str]) -> str | None:
    """The first file the task or its "Done when" names (never the board itself)."""
    names = named_paths(done_when + [task])
    return names[0] if names else None


def draft_path(task: str, n: int = 1) -> str:
    """Where the generic plan writes: a new file under demo-output/ named for the task, as a
    person reads it ("summarise-report-docx-into-summary-md.md"); `n` > 1 is the name with
    a number, for when another task's note already has the plain one.

    The slug keeps letters and digits of any script, so a Chinese task gets a readable name.
    A device name of Windows (CON, NUL, COM1…) gets "-task" after it."""
    text = unicodedata.normalize("NFC", task)
    slug = "".join(c if c.isalnum() else "-" for c in text.lower())
    slug = re.sub(r"-+", "-", slug).strip("-")[:60].strip("-") or "task"
    if _DEVICE.fullmatch(slug):
        slug += "-task"
    return f"{DEMO_FOLDER}/{slug}{'' if n == 1 else f'-{n}'}.md"


_DEVICE = re.compile(r"con|prn|aux|nul|com\d|lpt\d")
MAX_NAMES = 20  # tasks sharing a name before the last resort: a short hash of the task


def _hashed_path(task: str) -> str:
    text = unicodedata.normalize("NFC", task)
    digest = hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:6]
    return draft_path(task).removesuffix(".md") + f"-{digest}.md"


def _note_of(read_result: str, task: str) -> bool:
    """Is the file read (a read_file result) this task's own note from an earlier round?
    Its first line is the task as a heading."""
    for line in read_result.splitlines():
        text = re.sub(r"^\s*\d+\t", "", line)
        if text.strip():
            return text.rstrip() == f"# {task}".rstrip()
    return False


def _brief_summary_plan(target: str, decisions: list[str], seen: str) -> Plan:
    return [("list_files", {"path": "."}), _read("brief.md"),
            _write(target, _brief_summary()),
            _done("Summarised the brief in five points.", target)]


def _about_us_plan(target: str, decisions: list[str], seen: str) -> Plan:
    return [_read("brief.md"), _read("notes/customer-comments.md"),
            _write(target, _about_us()), _done("Drafted the About us page (150 words).", target)]


def _options_plan(target: str, decisions: list[str], seen: str) -> Plan:
    answer = _answer(decisions, "homepage")
    if answer is None:
        return [_read("brief.md"), _write(target, _options()),
                ("ask_human", {
                    "question": HOMEPAGE_QUESTION, "options": ["speed", "trust"],
                    "evidence": [target, "brief.md"],
                    "recommendation": "trust: regulars love the story, and online cake "
                                      "orders can still sit one tap away."})]
    return [_read(target), _write(target, _options(answer)),
            _done(f"Compared both directions; you chose {answer}.", target)]


def _homepage_plan(target: str, decisions: list[str], seen: str) -> Plan:
    direction = _answer(decisions, "homepage") or "trust"
    return [_read("notes/homepage-options.md"), _read("brief.md"),
            _write(target, _homepage(direction)),
            _done(f"Drafted the homepage in the '{direction}' direction.", target)]


def _contact_plan(target: str, decisions: list[str], seen: str) -> Plan:
    return demo_documents.contact_docx_plan(demo_documents.ENGLISH, DEMO_NOTE, target, seen)


# The bundled board's tasks, word for word as in resources/demo-workspace/TASKS.md, with the
# file each one's "Done when" names and its script. Change one there, change it here.
BAKERY_TASKS: dict[str, tuple[str, Callable[[str, list[str], str], Plan]]] = {
    "Summarise the brief in five bullet points": ("notes/brief-summary.md", _brief_summary_plan),
    'Draft the "About us" page': ("drafts/about-us.md", _about_us_plan),
    "Compare two directions for the homepage: speed (order online fast) or trust (our story "
    "and our bakers)": ("notes/homepage-options.md", _options_plan),
    "Draft the homepage in the chosen direction": ("drafts/homepage.md", _homepage_plan),
    "Write the opening hours and contact page": ("drafts/contact.docx", _contact_plan),
}


def _generic(task: str, done_when: list[str], named: str | None, results: list[str]) -> Plan:
    """A labelled sample note under demo-output/, ended by complete_task, which the harness
    takes as a sample (DemoEngine.only_samples): the task stays unticked.

    It lists the folder (and the folders the task's file names lie in) to learn which of
    those files exist. A file the task names and that exists is the person's: it may be
    read as material but is never written, and no file the task asks for is made, so an AI
    engine run later finds the folder as the person left it. Each step depends only on the
    results before it, so the plan comes out the same every turn."""
    texts = done_when + [task]
    plan: Plan = [("list_files", {"path": "."})]
    folders = ["."]
    listings: dict[str, set[str]] = {}
    while True:
        for k, folder in enumerate(folders):
            if k < len(results) and folder not in listings:
                listings[folder] = entries(results[k])
        if len(results) < len(folders):
            return plan  # the listing under way decides what comes next
        more = next((f for p in named_paths(texts) for f in ancestors(p)[1:]
                     if f not in folders and known_folder(f, listings)), None)
        if more is None:
            break
        folders.append(more)
        plan.append(("list_files", {"path": more}))
    mentioned = [whole_name(p, listings, texts) for p in named_paths(texts)]
    at = len(folders)  # the result the next step gets
    if DEMO_FOLDER not in listings and known_folder(DEMO_FOLDER, listings):
        plan.append(("list_files", {"path": DEMO_FOLDER}))  # which names are taken
        if len(results) <= at:
            return plan
        listings[DEMO_FOLDER] = entries(results[at])
        at += 1
    # The plain name; the task's own note from an earlier round is written again in its
    # place (the same words: nothing changes); another task's note there: the next number.
    target = _hashed_path(task)
    for n in range(1, MAX_NAMES + 1):
        candidate = draft_path(task, n)
        if not exists(candidate, listings):
            target = candidate
            break
        plan.append(_read(candidate))
        if len(results) <= at:
            return plan
        at += 1
        if _note_of(results[at - 1], task):
            target = candidate
            break
    mine = next((p for p in mentioned if exists(p, listings)), None)  # the person's file
    source = mine  # only a file the task names: never some other file of the folder
    if source:
        plan.append(_read(source))
    excerpt = _excerpt(results[at]) if source and len(results) > at else ""
    if demo_script_zh.is_chinese(task):  # a task written in Chinese gets its note in Chinese
        body = demo_script_zh.generic_draft(task, done_when, mine, source, excerpt, DEMO_FOLDER,
                                            created=None)
        summary = demo_script_zh.GENERIC_SUMMARY
    else:
        body = _generic_draft(task, done_when, mine, source, excerpt, None)
        summary = "Wrote a sample note for this task (no AI was used)."
    plan.append(_write(target, body))
    return plan + [("complete_task", {"summary": summary, "evidence": [target]})]


def is_scripted(task: str, done_when: list[str]) -> bool:
    """True for a task of the bundled demo boards, word for word with its file: the Demo
    engine's own story, which it works through for real. Any other task is the person's,
    and the Demo engine only shows a sample of a run on it."""
    bakery = BAKERY_TASKS.get(task) or BAKERY_TASKS_ZH.get(task)
    return bakery is not None and bakery[0] == named_path(task, done_when)


def _generic_draft(task: str, done_when: list[str], mine: str | None, source: str | None,
                   excerpt: str, created: str | None) -> str:
    body = [f"# {task}", "", DEMO_NOTE, "", "## What the task asks", "", task, ""]
    if done_when:
        body += ["Done when:", ""] + [f"- {c}" for c in done_when] + [""]
    if created:
        body += [f"The task's Done when names `{created}`, which did not exist, so the Demo "
                 "engine wrote this draft there. It changes no file you already have.", ""]
    elif mine:
        body += [f"The task names `{mine}`. The Demo engine leaves that file exactly as it "
                 f"is and writes only this draft, under {DEMO_FOLDER}/.", ""]
    if source:
        body += [f"## Starting material from {source}", "", excerpt or "(empty file)", ""]
    where = f" into `{mine}`" if mine and not created else ""
    body += ["## Next steps", "", f"- Check this draft and copy what you want{where} in your "
             "own words,", "- or run the task again with an AI engine for a real draft.", ""]
    return "\n".join(body)


def _excerpt(read_result: str) -> str:
    """The first lines of a read_file result, without its line numbers and closing note."""
    lines = []
    for line in read_result.splitlines():
        if line.startswith("["):
            break
        text = re.sub(r"^\s*\d+\t", "", line)
        if text.strip():
            lines.append(f"> {text}")
    return "\n".join(lines[:6])


def _brief_summary() -> str:
    return "\n".join([
        "# The brief in five points", "", DEMO_NOTE, "",
        "1. Customers want to order celebration cakes online; phone-only orders miss calls.",
        "2. Everything is baked fresh, by hand, on site before 6 am: say so plainly.",
        "3. Opening hours and directions must be easy to find on a phone.",
        "4. Keep the warm, local voice regulars love; no corporate language.",
        "5. The flour comes from Hartley Mill, 12 miles away: a story worth telling.", ""])


def _about_us() -> str:
    return "\n".join([
        "# About us", "", DEMO_NOTE, "",
        "Rosie Clarke opened the bakery on Mill Lane in 1998 with one oven and a sourdough "
        "starter she still uses today. Every loaf, bun and cake is made here, by hand, before "
        "the door opens at seven.", "",
        "These days Rosie's daughter Maya runs the kitchen. She still makes the cinnamon buns "
        "exactly the way her mum taught her, and she still gets in before 6 am.", "",
        "Our flour comes from Hartley Mill, twelve miles down the road, so the bread you buy "
        "here travels about as far as you do to fetch it.", "",
        "Come in for a loaf, stay for a coffee, and ask us about a cake for your next "
        "celebration. We would love to bake it.", ""])


def _options(answer: str | None = None) -> str:
    lines = [
        "# Two directions for the homepage", "", DEMO_NOTE, "",
        "| | Speed: order online fast | Trust: our story and our bakers |",
        "|---|---|---|",
        "| For | Answers the most common request (cake orders); fewer missed calls | "
        "Matches the warm local voice; tells new people why we are different |",
        "| Against | Can feel like any online shop; hides what makes us special | "
        "Ordering is one more tap away |",
        "| Fits the brief | Points 1 and 3 | Points 2, 4 and 5 |", ""]
    if answer:
        lines += [f"**Decision:** Rosie chose **{answer}**.", ""]
    return "\n".join(lines)


def _homepage(direction: str) -> str:
    if direction.lower().startswith("speed"):
        headline = "Order your celebration cake in a minute"
        first = ("Pick a cake, choose a day, and we will have it ready. No phone queue, "
                 "no missed calls.")
    else:
        headline = "Baked by hand on Mill Lane since 1998"
        first = ("Every loaf, bun and cake is made here before 6 am, with flour from "
                 "Hartley Mill twelve miles away.")
    return "\n".join([
        f"# {headline}", "", DEMO_NOTE, "",
        "## Fresh every morning", "", first, "",
        "## Cakes for your celebrations", "",
        "Birthdays, weddings, a Tuesday that needs cheering up: tell us the day and we will "
        "bake it.", "",
        "## Find us", "", "14 Mill Lane, Ashford Green. Open Tuesday to Saturday from 7 am.", "",
        "**[Order a cake](#order)**", ""])
