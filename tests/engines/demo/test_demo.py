"""The Demo engine: offline, deterministic, through the real tools, sensible on any board."""

from __future__ import annotations

from app.core.board.board import Board, update_board
from app.core.documents import render_document
from app.core.records.events import FileChanged, RoundFinished
from app.core.run.loop import Harness
from app.core.records.records import read_events
from app.engines.demo.engine import DemoEngine
from app.engines.registry import create_engine
from tests.scripted import board_workspace, demo_copy, fast_limits


def events_of(ws, run_id):
    return read_events(ws.run_files(run_id))


def test_demo_is_labelled_as_no_ai_and_costs_nothing():
    engine = create_engine("demo")
    assert engine.is_ai is False and "no AI" in engine.label
    assert engine.availability().ready


def test_bakery_demo_asks_one_decision_then_finishes_with_the_answer(tmp_path):
    ws = demo_copy(tmp_path)
    first = Harness(ws, DemoEngine(), fast_limits()).run()
    assert (first.state, first.exit_reason) == ("blocked_by_human", "human_decision_needed")
    human = Board.load(ws.board_path).next_task()
    assert human.is_human and human.options == ["speed", "trust"]
    update_board(ws.board_path, lambda b: b.answer_human("speed"))
    second = Harness(ws, DemoEngine(), fast_limits()).run()
    assert (second.state, second.exit_reason) == ("done", "all_tasks_done")
    assert all(t.checked for t in Board.load(ws.board_path).tasks)
    homepage = (ws.root / "drafts" / "homepage.md").read_text(encoding="utf-8")
    assert homepage.startswith("# Order your celebration cake")  # the answer shaped the draft
    contact = ws.root / "drafts" / "contact.docx"
    assert "Tuesday to Friday 7:00–16:00" in render_document(contact)  # from brief.docx
    assert "| Chocolate fudge cake | 10 | 28.50 |" in render_document(contact)  # prices.xlsx
    assert render_document(contact).endswith(
        "\nPlease order celebration cakes at least two days ahead.\n")  # nothing more taken
    from docx import Document

    word = Document(str(contact))  # a real Word document, with Word's heading styles
    first = word.paragraphs[0]
    assert (first.style.name, first.text) == (
        "Heading 1", "Opening hours and how to find us")
    assert len(word.tables) == 1 and word.tables[0].cell(1, 0).text == "Victoria sponge"


def test_demo_is_deterministic(tmp_path):
    outputs = []
    for name in ("a", "b"):
        ws = demo_copy(tmp_path, name)
        Harness(ws, DemoEngine(), fast_limits()).run()
        update_board(ws.board_path, lambda b: b.answer_human("trust"))
        Harness(ws, DemoEngine(), fast_limits()).run()
        outputs.append({p.relative_to(ws.root).as_posix(): p.read_bytes()
                        for p in ws.root.rglob("*.md") if ".harness" not in p.parts})
        outputs[-1]["contact"] = render_document(ws.root / "drafts" / "contact.docx")
    assert outputs[0] == outputs[1]


def demo_drafts(ws):
    return sorted(p.relative_to(ws.root).as_posix() for p in (ws.root / "demo-output").iterdir())


def test_on_any_board_each_task_gets_one_draft_written_once(tmp_path):
    board = ("# 计划\n\n- [ ] 整理会议记录\n- [ ] Summarise plan.txt for the team\n"
             "  - Done when: summary/plan-summary.md exists\n")
    ws = board_workspace(tmp_path, board, {"plan.txt": "Open a second shop.\nBudget is tight.\n"})
    result = Harness(ws, DemoEngine(), fast_limits()).run()
    assert (result.state, result.exit_reason) == ("stopped", "samples_shown")
    writes = [e.path for e in events_of(ws, result.run_id) if isinstance(e, FileChanged)]
    assert len(writes) == len(set(writes)) == 2
    assert all(w.startswith("demo-output/") for w in writes)  # a sample note of its own
    assert not (ws.root / "summary").exists()  # the file its Done when asks for: not made
    summary = (ws.root / writes[1]).read_text(encoding="utf-8")
    assert "> Open a second shop." in summary and "no AI was used" in summary
    assert not any(t.checked for t in Board.load(ws.board_path).tasks)  # shown, not done


def test_a_file_named_in_done_when_is_left_untouched_and_the_draft_goes_to_demo_output(tmp_path):
    essay = "My essay.\r\nIt has a typo: teh.\r\n".encode("utf-8")
    board = "- [ ] Proofread my essay\n  - Done when: essay.md has no typos\n"
    ws = board_workspace(tmp_path, board)
    (ws.root / "essay.md").write_bytes(essay)
    result = Harness(ws, DemoEngine(), fast_limits()).run()
    assert result.exit_reason == "samples_shown"
    assert (ws.root / "essay.md").read_bytes() == essay
    drafts = demo_drafts(ws)
    assert drafts == ["demo-output/proofread-my-essay.md"]  # plain: no hash tail
    draft = (ws.root / drafts[0]).read_text(encoding="utf-8")
    assert "`essay.md`" in draft and "> My essay." in draft  # read as material, not replaced
    writes = [e.path for e in events_of(ws, result.run_id) if isinstance(e, FileChanged)]
    assert writes == drafts


def test_on_a_persons_board_the_demo_never_ticks_and_says_shown_as_a_sample(tmp_path):
    # Issue 35: the Demo ticked all 8 of a bakery owner's tasks and the window said "Done".
    board = ("# Party\n\n- [ ] Write an invitation\n  - Done when: invitation.md exists\n"
             "- [ ] Plan the menu\n  - Done when: menu.md and shopping.csv exist\n"
             "- [x] Book the hall\n")
    ws = board_workspace(tmp_path, board)
    before = ws.board_path.read_bytes()
    result = Harness(ws, DemoEngine(), fast_limits()).run()
    assert (result.state, result.exit_reason) == ("stopped", "samples_shown")
    assert "The Demo engine showed 2 tasks as a sample and ticked none" in result.message
    assert ws.board_path.read_bytes() == before  # not one box ticked, nothing asked
    assert not (ws.root / "invitation.md").exists() and not (ws.root / "menu.md").exists()
    finished = [e for e in events_of(ws, result.run_id) if isinstance(e, RoundFinished)]
    assert [e.result_state for e in finished] == ["sample", "sample"]  # one round a task
    from app.core.records.records import read_rounds, read_status
    assert [r.result_state for r in read_rounds(ws.run_files(result.run_id))] == ["sample"] * 2
    status, _ = read_status(ws.status_path)
    assert (status.state, status.exit_reason, status.completed_tasks) == (
        "stopped", "samples_shown", 1)


def test_after_a_sample_run_an_ai_engine_starts_on_the_first_task(tmp_path):
    # Nothing was ticked, so switching engines needs no unticking by hand.
    from tests.scripted import ScriptedEngine, call
    board = "- [ ] Write an invitation\n- [ ] Plan the menu\n"
    ws = board_workspace(tmp_path, board)
    Harness(ws, DemoEngine(), fast_limits()).run()
    (ws.root / "invite.md").write_text("Come!\n", encoding="utf-8")
    engine = ScriptedEngine([call("complete_task", summary="Wrote it.", evidence=["invite.md"])])
    Harness(ws, engine, fast_limits(max_rounds=1)).run()
    assert "Current task: Write an invitation" in engine.requests[0]["messages"][0].text
    assert Board.load(ws.board_path).tasks[0].checked  # the AI engine's work is ticked


def test_a_name_with_spaces_is_kept_whole_and_no_other_file_is_quoted(tmp_path):
    guests = "Anna and Ben\nCarla\n"
    board = ("- [ ] Check the guest list for double names\n"
             "  - Done when: guest list.md has every name once\n- [ ] Write a thank-you note\n")
    log = "".join(f"2026-11-30 12:{i % 60:02d} GET /index.html 200\n" for i in range(20_000))
    ws = board_workspace(tmp_path, board, {"guest list.md": guests, "access-log.txt": log})
    result = Harness(ws, DemoEngine(), fast_limits()).run()
    assert result.exit_reason == "samples_shown"
    assert (ws.root / "guest list.md").read_text(encoding="utf-8") == guests  # theirs: kept
    assert not (ws.root / "list.md").exists()
    first, second = (p.read_text(encoding="utf-8") for p in sorted(
        (ws.root / "demo-output").iterdir(), key=lambda p: "thank" in p.name))
    assert "`guest list.md`" in first and "> Anna and Ben" in first
    assert "GET /index.html" not in first + second  # a log no task names is never quoted


def test_a_foreign_board_naming_a_bakery_file_never_gets_bakery_text(tmp_path):
    board = ("# Smile Dental\n\n- [ ] Write our clinic homepage\n"
             "  - Done when: site/homepage.md has a headline\n"
             "- [ ] Compare two homepage ideas\n  - Done when: notes/homepage-options.md lists both\n"
             "- [ ] Draft the \"About us\" page\n  - Done when: site/about-us.md is short\n")
    ws = board_workspace(tmp_path, board, {"clinic.md": "Smile Dental, open since 2005.\n"})
    result = Harness(ws, DemoEngine(), fast_limits()).run()
    assert (result.state, result.exit_reason) == ("stopped", "samples_shown")  # no failed reads
    written = " ".join(p.read_text(encoding="utf-8") for p in (ws.root / "demo-output").iterdir())
    assert written.count("no AI was used") == 3  # each labelled as the Demo's
    for bakery in ("Mill Lane", "Rosie", "bakery", "Hartley Mill", "cake"):
        assert bakery not in written
    assert "Smile Dental, open since 2005." not in written  # a file no task names: not quoted


def test_an_edited_bakery_task_falls_back_to_the_generic_draft(tmp_path):
    ws = demo_copy(tmp_path)
    board = ws.board_path.read_text(encoding="utf-8").replace(
        "Draft the homepage in the chosen direction", "Draft the homepage for our new shop")
    ws.board_path.write_text(board, encoding="utf-8")
    update_board(ws.board_path, lambda b: [b.set_checked(t.text, True) for t in b.tasks
                                           if not t.text.startswith("Draft the homepage")])
    result = Harness(ws, DemoEngine(), fast_limits()).run()
    assert result.exit_reason == "samples_shown"
    assert not (ws.root / "drafts" / "homepage.md").exists()  # not made: a sample instead
    draft = "".join(p.read_text(encoding="utf-8") for p in (ws.root / "demo-output").iterdir())
    assert "Baked by hand" not in draft and "no AI was used" in draft


def test_two_chinese_tasks_get_two_different_readable_files(tmp_path):
    board = "- [ ] 整理会议记录\n- [ ] 写一份周报\n- [ ] 整理会议记录！\n"
    ws = board_workspace(tmp_path, board)
    result = Harness(ws, DemoEngine(), fast_limits()).run()
    assert result.exit_reason == "samples_shown"
    drafts = demo_drafts(ws)
    assert len(drafts) == 3
    # Two tasks of one name: the second has a number, not a hash.
    assert drafts == ["demo-output/写一份周报.md", "demo-output/整理会议记录-2.md",
                      "demo-output/整理会议记录.md"]


def test_the_draft_file_name_is_short_stable_and_safe():
    from app.engines.demo.script import draft_path
    long = "Write a very long task description that goes on and on: about many things, really"
    path = draft_path(long)
    assert path == draft_path(long) and path.startswith("demo-output/")
    name = path.removeprefix("demo-output/").removesuffix(".md")
    assert len(name) <= 60 and ":" not in name and not name.startswith("-")
    assert path == "demo-output/write-a-very-long-task-description-that-goes-on-and-on-about.md"
    assert draft_path("???") == "demo-output/task.md"
    assert draft_path("con") == "demo-output/con-task.md"  # never the device name CON.md
    assert draft_path("Fix it", 2) == "demo-output/fix-it-2.md"


def test_a_refused_step_makes_the_demo_give_up_honestly(tmp_path):
    # A file of the person's called demo-output blocks the draft: the write fails, nothing
    # of theirs is touched, and the demo says so instead of pretending.
    board = "- [ ] Write the notes\n"
    ws = board_workspace(tmp_path, board, {"demo-output": "mine\n"})
    result = Harness(ws, DemoEngine(), fast_limits(stall_limit=1)).run()
    assert result.exit_reason == "samples_shown"  # no decision written on the person's board
    assert ws.board_path.read_text(encoding="utf-8") == board
    finished = [e for e in events_of(ws, result.run_id) if isinstance(e, RoundFinished)]
    assert finished[0].result_state == "gave_up"
    assert (ws.root / "demo-output").read_text(encoding="utf-8") == "mine\n"


def test_the_demo_sends_the_word_brief_and_the_price_list_as_markdown(tmp_path):
    """What the model is sent for brief.docx and prices.xlsx: their rendering, line-numbered."""
    ws = demo_copy(tmp_path)
    engine = DemoEngine()
    seen: list[str] = []
    turn = engine.turn

    def recording(system, tools, messages, **kw):
        seen.extend(r.content for r in messages[-1].tool_results if r.name == "read_file")
        return turn(system, tools, messages, **kw)

    engine.turn = recording
    Harness(ws, engine, fast_limits()).run()
    update_board(ws.board_path, lambda b: b.answer_human("trust"))
    Harness(ws, engine, fast_limits()).run()
    brief = next(s for s in seen if "(a Word document shown as Markdown)" in s)
    prices = next(s for s in seen if "(a spreadsheet shown as Markdown)" in s)
    assert brief.startswith("1\t# Brief: the opening hours and contact page\n")
    assert "\t**Opening hours.** Tuesday to Friday 7:00–16:00" in brief
    assert "\t## Sheet: Prices\n" in prices
    assert "\t3|Chocolate fudge cake|10|28.50\n" in prices  # as the sheet shows it


def test_the_demo_gives_up_rather_than_claim_prices_it_did_not_read(tmp_path):
    from openpyxl import Workbook

    ws = demo_copy(tmp_path)
    empty = Workbook()
    empty.active.title = "Prices"
    empty.save(ws.root / "prices.xlsx")
    Harness(ws, DemoEngine(), fast_limits()).run()
    update_board(ws.board_path, lambda b: b.answer_human("trust"))
    result = Harness(ws, DemoEngine(), fast_limits()).run()
    contact = next(t for t in Board.load(ws.board_path).tasks if "contact page" in t.text)
    assert not contact.checked and not (ws.root / "drafts" / "contact.docx").exists()
    gave_up = [e for e in events_of(ws, result.run_id) if isinstance(e, RoundFinished)][-1]
    assert gave_up.result_state == "gave_up"
    assert "could not find the cakes and prices in prices.xlsx" in gave_up.summary


def test_the_demo_documents_are_made_reproducibly_and_committed_as_made():
    import subprocess
    import sys
    from pathlib import Path

    repo = Path(__file__).resolve().parents[3]
    check = subprocess.run([sys.executable, "scripts/make_demo_documents.py", "--check"],
                           cwd=repo, capture_output=True, text=True)
    assert check.returncode == 0, check.stdout


def test_sample_names_are_plain_the_same_task_keeps_its_name_and_a_clash_gets_a_number(
        tmp_path):
    board = ("- [ ] Summarise report.docx into summary.md\n- [ ] Fix the total\n"
             "- [ ] Fix the total!\n")
    ws = board_workspace(tmp_path, board)
    assert Harness(ws, DemoEngine(), fast_limits()).run().exit_reason == "samples_shown"
    first = {p: (ws.root / p).read_bytes() for p in demo_drafts(ws)}
    assert sorted(first) == ["demo-output/fix-the-total-2.md", "demo-output/fix-the-total.md",
                             "demo-output/summarise-report-docx-into-summary-md.md"]
    # Run again: each task finds its own note by its heading and writes the same words in
    # the same place; no new file, no number added.
    assert Harness(ws, DemoEngine(), fast_limits()).run().exit_reason == "samples_shown"
    assert {p: (ws.root / p).read_bytes() for p in demo_drafts(ws)} == first
    assert (ws.root / "demo-output/fix-the-total-2.md").read_text(encoding="utf-8").startswith(
        "# Fix the total!\n")
