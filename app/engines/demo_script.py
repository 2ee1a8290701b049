"""The Demo engine's script: which tool calls to make for a task, and the text it writes."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from typing import Callable

from app.engines import demo_script_zh
from app.engines.demo_script_zh import BAKERY_TASKS as BAKERY_TASKS_ZH
from app.engines.demo_steps import Plan
from app.engines.demo_steps import answer_to as _answer
from app.engines.demo_steps import done_step as _done
from app.engines.demo_steps import line_after as _line_after
from app.engines.demo_steps import read_step as _read
from app.engines.demo_steps import write_step as _write

DEMO_FOLDER = "demo-output"
# A run of path characters, then the last known extension inside it. Two steps, not one
# pattern: `[\w\-./]+\.(?:md|…)\b` backtracks from every start and took 100 s on a
# 100,000-character task; these are linear.
_PATH_RUN = re.compile(r"[\w\-./]+")
_LAST_EXT = re.compile(r".*\.(?:md|txt|csv|html|json)\b", re.DOTALL)
_SOURCE_SUFFIXES = (".md", ".txt", ".csv")

HOMEPAGE_QUESTION = ("Should the homepage lead with speed (order a cake online in a minute) "
                     "or trust (our story, our bakers, local flour)?")
DEMO_NOTE = ("_Written by the Demo engine: no AI was used. This text follows a fixed script "
             "so you can see how a run works._")


def plan_for(task: str, done_when: list[str], decisions: list[str], results: list[str]) -> Plan:
    """The whole plan for a task. It is recomputed every turn from the tool results so far,
    so every step must come out the same whatever later results add.

    The bakery scripts run only for the bundled boards' own tasks: the exact words of a task
    in resources/demo-workspace/TASKS.md (or its Chinese twin, demo-workspace-zh), whose "Done when" still names the same file. Any
    other task, on any board, gets the generic plan, which writes only a new file under
    demo-output/ and never a file the board names."""
    named = named_path(task, done_when)
    bakery = BAKERY_TASKS.get(task) or BAKERY_TASKS_ZH.get(task)
    if bakery is not None and bakery[0] == named:
        target, script = bakery
        return script(target, decisions, "\n".join(results))
    return _generic(task, done_when, named, results)


def named_path(task: str, done_when: list[str]) -> str | None:
    """The first file the task or its "Done when" names (never the board itself)."""
    for text in done_when + [task]:
        for run in _PATH_RUN.finditer(text):
            match = _LAST_EXT.match(run.group(0))
            if match is None:
                continue
            path = match.group(0).removeprefix("./")
            if path.lower() != "tasks.md" and not path.lower().endswith("/tasks.md"):
                return path
    return None


def draft_path(task: str) -> str:
    """Where the generic plan writes: a new file under demo-output/ named for the task.

    The slug keeps letters and digits of any script, so a Chinese task gets a readable name;
    a short hash of the whole task text keeps two tasks from ever sharing a file."""
    text = unicodedata.normalize("NFC", task)
    slug = "".join(c if c.isalnum() else "-" for c in text.lower())
    slug = re.sub(r"-+", "-", slug).strip("-")[:40].strip("-") or "task"
    digest = hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:6]
    return f"{DEMO_FOLDER}/{slug}-{digest}.md"


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
            _done(f"Compared both directions; Rosie chose {answer}.", target)]


def _homepage_plan(target: str, decisions: list[str], seen: str) -> Plan:
    direction = _answer(decisions, "homepage") or "trust"
    return [_read("notes/homepage-options.md"), _read("brief.md"),
            _write(target, _homepage(direction)),
            _done(f"Drafted the homepage in the '{direction}' direction.", target)]


def _contact_plan(target: str, decisions: list[str], seen: str) -> Plan:
    return [_read("brief.md"), _write(target, _contact(seen)),
            _done("Wrote the opening hours and contact page from the brief.", target)]


# The bundled board's tasks, word for word as in resources/demo-workspace/TASKS.md, with the
# file each one's "Done when" names and its script. Change one there, change it here.
BAKERY_TASKS: dict[str, tuple[str, Callable[[str, list[str], str], Plan]]] = {
    "Summarise the brief in five bullet points": ("notes/brief-summary.md", _brief_summary_plan),
    'Draft the "About us" page': ("drafts/about-us.md", _about_us_plan),
    "Compare two directions for the homepage: speed (order online fast) or trust (our story "
    "and our bakers)": ("notes/homepage-options.md", _options_plan),
    "Draft the homepage in the chosen direction": ("drafts/homepage.md", _homepage_plan),
    "Write the opening hours and contact page": ("drafts/contact.md", _contact_plan),
}


def _generic(task: str, done_when: list[str], named: str | None, results: list[str]) -> Plan:
    # Step 1 lists the folder; the source is chosen from that listing alone, and step 2's
    # read gives the excerpt, so later results (our own write) cannot change the plan.
    # The draft goes to a new file of our own: a path the board names is the person's file
    # (an essay to proofread, a page to improve), so it may be read but is never written.
    target = draft_path(task)
    files = _listed_files(results[0]) if results else []
    source = named if named in files else _first_source(files)
    plan: Plan = [("list_files", {"path": "."})]
    if source:
        plan.append(_read(source))
    excerpt = _excerpt(results[1]) if source and len(results) > 1 else ""
    if demo_script_zh.is_chinese(task):  # a task written in Chinese gets its draft in Chinese
        body = demo_script_zh.generic_draft(task, done_when, named, source, excerpt, DEMO_FOLDER)
        return plan + [_write(target, body), _done(demo_script_zh.GENERIC_SUMMARY, target)]
    body = [f"# {task}", "", DEMO_NOTE, "", "## What the task asks", "", task, ""]
    if done_when:
        body += ["Done when:", ""] + [f"- {c}" for c in done_when] + [""]
    if named:
        body += [f"The task names `{named}`. The Demo engine leaves that file exactly as it "
                 f"is and writes only this draft, under {DEMO_FOLDER}/.", ""]
    if source:
        body += [f"## Starting material from {source}", "", excerpt or "(empty file)", ""]
    where = f" into `{named}`" if named else ""
    body += ["## Next steps", "", f"- Check this draft and copy what you want{where} in your "
             "own words,", "- or run the task again with an AI engine for a real draft.", ""]
    plan += [_write(target, "\n".join(body)),
             _done("Wrote a demo draft for this task (no AI was used).", target)]
    return plan


def _listed_files(listing: str) -> list[str]:
    """The file names (not folders) in a list_files result, in its order."""
    files = []
    for line in listing.splitlines()[1:]:
        if line.endswith("/") or line.startswith("... ") or "  (not usable" in line:
            continue
        files.append(line.rsplit("  (", 1)[0])
    return files


def _first_source(files: list[str]) -> str | None:
    for name in files:
        if (name.lower().endswith(_SOURCE_SUFFIXES)
                and name.lower() not in ("tasks.md", "agents.md")):
            return name
    return None


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


def _contact(seen: str) -> str:
    hours = _line_after(seen, "Opening hours.") or (
        "Tuesday to Friday 7:00–16:00, Saturday 7:00–14:00, closed Sunday and Monday.")
    contact = _line_after(seen, "Contact.") or (
        "14 Mill Lane, Ashford Green. Phone 01632 960 714.")
    return "\n".join([
        "# Opening hours and how to find us", "", DEMO_NOTE, "",
        "## Opening hours", "", hours, "", "## Contact", "", contact, "",
        "Cake orders: call us, or use the order form on the homepage.", ""])
