"""Every import kept inside a function in app/ says why: `# noqa: PLC0415 - <reason>`.

ruff's PLC0415 fails on an import inside a function (pyproject.toml); its noqa silences it, so
this check makes the noqa carry its reason: the light path or the measured row that needs the
import there (`window start-up (bench/startup.py)`), or what else keeps it there (`Windows
only`, `an ImportError is caught below`). A reason is at least two words after ` - `.

    python scripts/noqa_reasons.py [FOLDER ...]   (default: app)

Prints each bare noqa as `path:line: ...` and exits 1 if there is one; scripts/lint.sh runs it.
"""

from __future__ import annotations

import io
import re
import sys
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# `noqa: A, PLC0415, B - reason`: the codes, then the reason after a dash.
NOQA = re.compile(r"#\s*noqa\s*:\s*(?P<codes>[A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*)(?P<rest>.*)",
                  re.IGNORECASE)
REASON = re.compile(r"^\s+-\s+(?P<why>.+)$")


def bare_noqas(source: str) -> list[tuple[int, str]]:
    """(line, comment) of each `noqa` naming PLC0415 in `source` without a reason after it."""
    found = []
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    for tok in tokens:
        if tok.type != tokenize.COMMENT or "PLC0415" not in tok.string.upper():
            continue
        match = NOQA.search(tok.string)
        codes = [c.strip().upper() for c in match["codes"].split(",")] if match else []
        if "PLC0415" not in codes:
            continue
        reason = REASON.match(match["rest"]) if match else None
        if reason is None or len(re.findall(r"\w+", reason["why"])) < 2:
            found.append((tok.start[0], tok.string.strip()))
    return found


def check(folders: list[Path]) -> list[str]:
    """`path:line: ...` for each bare noqa under `folders`."""
    out = []
    for folder in folders:
        for path in sorted(folder.rglob("*.py")):
            for line, comment in bare_noqas(path.read_text(encoding="utf-8")):
                shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
                out.append(f"{shown}:{line}: `{comment}` does not say why the import is inside "
                           "a function: write `# noqa: PLC0415 - <the light path or row that "
                           "needs it>`, or move the import to the top of the module")
    return out


def main(argv: list[str]) -> int:
    folders = [Path(a).resolve() for a in argv] or [ROOT / "app"]
    problems = check(folders)
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
