"""The Demo engine's script: which tool calls to make for a task, and the text it writes."""

from __future__ import annotations

import re

Plan = list[tuple[str, dict]]

HOMEPAGE_QUESTION = ("Should the homepage lead with speed (order a cake online in a minute) "
                     "or trust (our story, our bakers, local flour)?")
DEMO_NOTE = ("_Written by the Demo engine: no AI was used. This text follows a fixed script "
             "so you can see how a run works._")


def plan_for(task: str, target: str, decisions: list[str], results: list[str]) -> Plan:
    """The whole plan for a task. It is recomputed every turn from the tool results so far,
    so every step must come out the same whatever later results add."""
    seen = "\n".join(results)
    name = target.rsplit("/", 1)[-1]
    if name == "brief-summary.md":
        return [("list_files", {"path": "."}), _read("brief.md"),
                _write(target, _brief_summary()), _done("Summarised the brief in five points.",
                                                        target)]
    if name == "about-us.md":
        return [_read("brief.md"), _read("notes/customer-comments.md"),
                _write(target, _about_us()), _done("Drafted the About us page (150 words).",
                                                   target)]
    if name == "homepage-options.md":
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
    if name == "homepage.md":
        direction = _answer(decisions, "homepage") or "trust"
        return [_read("notes/homepage-options.md"), _read("brief.md"),
                _write(target, _homepage(direction)),
                _done(f"Drafted the homepage in the '{direction}' direction.", target)]
    if name == "contact.md":
        return [_read("brief.md"), _write(target, _contact(seen)),
                _done("Wrote the opening hours and contact page from the brief.", target)]
    return _generic(task, target, results)


def _read(path: str) -> tuple[str, dict]:
    return ("read_file", {"path": path})


def _write(path: str, content: str) -> tuple[str, dict]:
    return ("write_file", {"path": path, "content": content})


def _done(summary: str, target: str) -> tuple[str, dict]:
    return ("complete_task", {"summary": summary, "evidence": [target]})


def _answer(decisions: list[str], topic: str) -> str | None:
    for line in decisions:
        if topic in line.lower() and "Answer:" in line:
            return line.rsplit("Answer:", 1)[1].strip()
    return None


def _generic(task: str, target: str, results: list[str]) -> Plan:
    # Step 1 lists the folder; the source is chosen from that listing alone, and step 2's
    # read gives the excerpt, so later results (our own write) cannot change the plan.
    source = _first_source(results[0]) if results else None
    plan: Plan = [("list_files", {"path": "."})]
    if source:
        plan.append(_read(source))
    excerpt = _excerpt(results[1]) if source and len(results) > 1 else ""
    body = [f"# {task}", "", DEMO_NOTE, "", "## What the task asks", "", task, ""]
    if source:
        body += [f"## Starting material from {source}", "", excerpt or "(empty file)", ""]
    body += ["## Next steps", "", "- Check this draft and rewrite it in your own words,",
             "- or run the task again with an AI engine for a real draft.", ""]
    plan += [_write(target, "\n".join(body)),
             _done("Wrote a demo draft for this task (no AI was used).", target)]
    return plan


def _first_source(listing: str) -> str | None:
    for match in re.finditer(r"([\w\-./]+\.(?:md|txt|csv))\b", listing):
        name = match.group(1).removeprefix("./")
        if name.lower() not in ("tasks.md", "agents.md") and not name.startswith("demo-output/"):
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


def _line_after(seen: str, label: str) -> str | None:
    """The sentence that follows a bold label in the brief, joined across wrapped lines."""
    text = " ".join(re.sub(r"^\s*\d+[\t:|]\s?", "", ln).strip() for ln in seen.splitlines())
    match = re.search(re.escape(label) + r"\*\*\s*(.+?)(?=\s\*\*|$)", text)
    return match.group(1).strip() if match else None
