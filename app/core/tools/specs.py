"""The ten tools as the model sees them (docs/architecture.md): names, rules, JSON Schemas, limits."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from app.core.engine.conversation import ToolSpec

MAX_LIST_ENTRIES = 300
MAX_READ_LINES = 2000
MAX_READ_CHARS = 60_000
MAX_WRITE_BYTES = 1024 * 1024
MAX_EDIT_BYTES = 2 * 1024 * 1024
MAX_SEARCH_MATCHES = 100
MAX_SEARCH_FILE_BYTES = 2 * 1024 * 1024
MAX_SEARCH_FILES = 20_000
MAX_SEARCH_SECONDS = 30  # reading documents while searching
MAX_MATCH_CHARS = 300
MAX_TEXT_ARG = 2000  # question, option, evidence item: each becomes one line of the board
BINARY_SNIFF = 8192

# Where paths may point, that changes can be undone, careful mode and protected files are
# said once, in the system prompt (reports.SYSTEM_PROMPT), not in every tool that changes a
# file: the tool list is sent on every request, and a small local model's context is small.
# A refused path or change gets its own sentence from the sandbox.

def _spec(name: str, description: str, props: dict[str, Any], required: list[str]) -> ToolSpec:
    # No "additionalProperties": the harness refuses an unknown argument in a sentence that
    # names the ones the tool takes (tools._check_args), so the schema need not say it in
    # every request.
    return ToolSpec(name=name, description=description,
                    parameters={"type": "object", "properties": props, "required": required})


_STR = {"type": "string"}
_STRS = {"type": "array", "items": {"type": "string"}}
_LINE = {"type": "integer"}  # 0 or less is refused in a sentence (tool_reads)

# Built from literals only, in §6 order, so the tool list is byte-identical in every round
# (a changing tool list defeats prompt caching). Each rule is said once, in the fewest words
# (the ten were 5,183 bytes as sent, the larger part of every request).
TOOL_SPECS: list[ToolSpec] = [
    _spec("list_files", "List a folder (default '.') with sizes.",
          {"path": _STR}, []),
    _spec("read_file", "Read a file from line offset (default 1), at most limit lines; each "
          "line after its number and a tab (not part of the file). Office, PDF and "
          "OpenDocument files come as Markdown, cells with their address and '=FORMULA → saved "
          "value'; pictures as pictures if the engine sees them.",
          {"path": _STR, "offset": _LINE, "limit": _LINE}, ["path"]),
    _spec("write_file", "Create or replace a whole file (up to 1 MB; makes folders). "
          ".docx takes Markdown, .xlsx one Markdown table per sheet under '## SHEET NAME'. "
          "Not .pdf, .pptx, .xlsm or OpenDocument; losing document content is refused. Not "
          "for TASKS.md.",
          {"path": _STR, "content": _STR}, ["path", "content"]),
    _spec("edit_file", "Replace old_text, found exactly once (spaces and line breaks too), "
          "with new_text, in a text file or .docx (within one paragraph; formatting stays). "
          "Not for TASKS.md.",
          {"path": _STR, "old_text": _STR, "new_text": _STR},
          ["path", "old_text", "new_text"]),
    _spec("search_files", "Find lines with a text (any case) in files and documents "
          "under path (default all).",
          {"query": _STR, "path": _STR}, ["query"]),
    _spec("delete_file", "Delete one file (not a folder). Not for TASKS.md.",
          {"path": _STR}, ["path"]),
    _spec("complete_task", "Check off the current task when its 'Done when' is met; ends the "
          "round. evidence: existing files that show the work, or facts you checked.",
          {"summary": _STR, "evidence": {**_STRS, "minItems": 1}},
          ["summary", "evidence"]),
    _spec("ask_human", "Ask for a decision only the person can make (taste, money, risk, "
          "private facts), never guess: distinct options, evidence, your "
          "recommendation. Ends the round.",
          {"question": _STR, "options": {**_STRS, "minItems": 2, "maxItems": 4},
           "evidence": _STRS, "recommendation": _STR},
          ["question", "options", "evidence"]),
    _spec("give_up", "End the round when the task cannot be done now: why, and what you found "
          "for the next try. An honest stop beats a loop.",
          {"reason": _STR, "findings": _STR},
          ["reason", "findings"]),
    _spec("set_cells", "Set cells of an existing .xlsx/.xlsm; all else stays. cells: 'B2' or "
          "'Prices!B2' to value (null empties, '=' starts a formula, in write_file too); sheet: "
          "for bare addresses; formats: address to format ('0%'), else as above.",
          {"path": _STR,
           "cells": {"type": "object", "additionalProperties": {
               "type": ["string", "number", "boolean", "null"]}},
           "sheet": _STR, "formats": {"type": "object"}},
          ["path", "cells"]),
]


@dataclass(frozen=True)
class FileChange:
    """What a file-changing tool touches: the file named by one of its arguments, changed
    or deleted. The safety policies (core/policies) read this, never the tool's name; a
    tool that changes files declares it here and writes only through `ToolBox._commit`."""

    path_argument: str = "path"
    action: Literal["change", "delete"] = "change"


FILE_CHANGES: dict[str, FileChange] = {
    "write_file": FileChange(),
    "edit_file": FileChange(),
    "delete_file": FileChange(action="delete"),
    "set_cells": FileChange(),
}
