"""`harness-desk lessons` lists the first rounds a lesson's cause showed in, then how many more."""

from app.commands.lessons import _EVIDENCE_SHOWN, evidence_lines
from app.core.lessons.lessons import Evidence, Lesson


def lesson_seen_in(rounds: int) -> Lesson:
    evidence = [Evidence(run_id="r1", run_number=1, round=n, task="Tidy the notes")
                for n in range(1, rounds + 1)]
    return Lesson(number=1, key="reread:notes.md", kind="reread", subject="notes.md",
                  count=rounds, runs=["r1"], evidence=evidence, line="Read notes.md once.")


def test_one_more_round_is_said_in_the_singular_and_more_in_the_plural():
    one = evidence_lines(lesson_seen_in(_EVIDENCE_SHOWN + 1))
    assert len(one) == _EVIDENCE_SHOWN + 1 and one[-1].endswith("and 1 more round")
    three = evidence_lines(lesson_seen_in(_EVIDENCE_SHOWN + 3))
    assert three[-1].endswith("and 3 more rounds")
    assert evidence_lines(lesson_seen_in(2))[-1].endswith("round 2 — Tidy the notes")
