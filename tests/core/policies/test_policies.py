"""Each safety policy on its own, and how their answers add up (app/core/policies/rules.py)."""

from __future__ import annotations

import pytest

from app.core.workspace.folder_settings import FolderSettings, load_folder_settings, save_folder_settings
from app.core.policies.rules import (POLICIES, Situation, Touch, decide,
                                     existing_files_need_approval, many_changes_at_once,
                                     protected_paths)
from app.core.tools.specs import FILE_CHANGES, TOOL_SPECS

MINE = Touch("notes/plan.md", "change", existing=True)
NEW = Touch("notes/new.md", "change", existing=False)


def test_existing_files_need_approval_asks_in_careful_mode_only():
    assert existing_files_need_approval(MINE, Situation(careful=True)).outcome == "ask"
    assert existing_files_need_approval(MINE, Situation(careful=False)).outcome == "allow"
    gone = Touch("notes/plan.md", "delete", existing=True)
    verdict = existing_files_need_approval(gone, Situation(careful=True))
    assert verdict.outcome == "ask" and "deleted" in verdict.reason


def test_files_this_run_created_are_free():
    assert existing_files_need_approval(NEW, Situation(careful=True)).outcome == "allow"


def test_allow_all_for_this_task_lets_the_rest_through():
    assert existing_files_need_approval(MINE, Situation(careful=True,
                                                        task_allowed=True)).outcome == "allow"


def test_protected_paths_are_refused_in_any_mode():
    for careful in (False, True):
        s = Situation(careful=careful, protected=["Private", "contracts/lease.md"])
        assert protected_paths(Touch("private/diary.md", "change", True), s).outcome == "refuse"
        assert protected_paths(Touch("Private/new.md", "change", False), s).outcome == "refuse"
        assert protected_paths(Touch("contracts/lease.md", "delete", True), s).outcome == "refuse"
        assert protected_paths(Touch("contracts/other.md", "change", True), s).outcome == "allow"
        assert protected_paths(Touch("privateer.md", "change", True), s).outcome == "allow"


@pytest.mark.parametrize("typed, touched", [
    ("Re\u0301sume\u0301s", "R\u00e9sum\u00e9s/2024.docx"),    # typed NFD, the tool NFC
    ("R\u00e9sum\u00e9s", "Re\u0301sume\u0301s/2024.docx"),    # typed NFC, macOS's NFD name
    ("\u00c5RSRAPPORT.md", "A\u030arsrapport.md"),           # and a different case too
    ("Stra\u00dfe", "STRASSE/plan.md")])
def test_a_protected_name_is_the_same_however_its_letters_are_spelled(typed, touched):
    s = Situation(protected=[typed])
    assert protected_paths(Touch(touched, "change", True), s).outcome == "refuse"
    assert protected_paths(Touch("Resumes/2024.docx", "change", True), s).outcome == "allow"


def test_many_changes_at_once_asks_once_past_the_limit():
    s = Situation(many_changes=2, changed_this_round={"a.md", "b.md"})
    assert many_changes_at_once(Touch("c.md", "change", True), s).outcome == "ask"
    assert many_changes_at_once(Touch("a.md", "change", True), s).outcome == "allow"  # counted
    assert many_changes_at_once(Touch("new.md", "change", False), s).outcome == "allow"
    s.round_allowed = True
    assert many_changes_at_once(Touch("d.md", "change", True), s).outcome == "allow"
    few = Situation(many_changes=3, changed_this_round={"a.md", "b.md"})
    assert many_changes_at_once(Touch("c.md", "change", True), few).outcome == "allow"


def test_a_refusal_wins_over_a_question_and_questions_come_together():
    s = Situation(careful=True, protected=["notes"], many_changes=0)
    outcome, verdicts = decide(MINE, s)
    assert outcome == "refuse" and [v.policy for v in verdicts] == ["protected_paths"]
    outcome, verdicts = decide(MINE, Situation(careful=True, many_changes=0))
    assert outcome == "ask"
    assert {v.policy for v in verdicts} == {"existing_files_need_approval",
                                            "many_changes_at_once"}
    assert decide(NEW, Situation(careful=True))[0] == "allow"


def test_every_tool_that_changes_files_declares_it():
    """A ToolBox method that writes through _commit must be in FILE_CHANGES, or the
    policies would never see its changes (and _commit refuses it)."""
    import ast
    import inspect

    from app.core.tools import toolbox as tools

    tree = ast.parse(inspect.getsource(tools.ToolBox))
    writers = {f.name[1:] for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)
               and f.name not in ("_commit",)
               and any(isinstance(n, ast.Attribute) and n.attr == "_commit" for n in ast.walk(f))}
    assert {"write_file", "edit_file", "delete_file", "set_cells"} <= writers
    # A helper such as _edit_document writes on behalf of the tool being called; _commit checks
    # that tool's declaration when it runs (test_an_undeclared_change_is_refused).
    from app.core.tools.specs import TOOL_SPECS

    assert {w for w in writers if w in {s.name for s in TOOL_SPECS}} <= set(FILE_CHANGES)


def test_an_undeclared_change_is_refused(tmp_path):
    from app.core.tools.toolbox import ToolBox
    from app.core.undo.undo import BlobStore, RoundChanges

    (tmp_path / "TASKS.md").write_text("- [ ] x\n")
    (tmp_path / "a.md").write_text("a")
    box = ToolBox(tmp_path, tmp_path / "TASKS.md", "x",
                  RoundChanges(tmp_path, BlobStore(tmp_path / "h"), tmp_path / "h" / "u.json", 1))
    box._call = ("read_file", {"path": "a.md"})
    with pytest.raises(Exception, match="cannot change files"):
        box._commit("a.md", "a.md", lambda t: t.write_text("b"))
    assert (tmp_path / "a.md").read_text() == "a"


def test_policies_read_the_declaration_not_the_tool_name():
    assert len(POLICIES) == 3
    specs = {s.name for s in TOOL_SPECS}
    assert set(FILE_CHANGES) - specs <= {"set_cells"}  # issue 17a's tool, declared ahead
    assert {"write_file", "edit_file", "delete_file"} <= set(FILE_CHANGES)
    assert FILE_CHANGES["delete_file"].action == "delete"
    # The model is told once, in the system prompt, not in every tool's description (the
    # tools are sent on every request): each tool that changes a file is named there.
    from app.core.run.reports import SYSTEM_PROMPT

    rule = next(line for line in SYSTEM_PROMPT.split("\n- ") if "careful mode" in line)
    assert all(name in rule for name in FILE_CHANGES), rule
    assert not any("careful mode" in s.description for s in TOOL_SPECS)


def test_folder_settings_keep_protected_entries_through_damage(tmp_path):
    save_folder_settings(tmp_path, FolderSettings(careful=True, protected=["./a\\b/", "a/b"]))
    loaded = load_folder_settings(tmp_path)
    assert loaded.careful and loaded.protected == ["a/b"]
    (tmp_path / "folder.json").write_text('{"careful": "maybe", "protected": ["x"]}')
    assert load_folder_settings(tmp_path).protected == ["x"]
    (tmp_path / "folder.json").write_text("{broken")
    assert load_folder_settings(tmp_path) == FolderSettings()
