"""The figures of `bench.peers` summed up per harness and workload, as a table of ratios
against Harness Desk, and put in the README's Performance section between its own markers."""

from __future__ import annotations

import subprocess
import textwrap
from datetime import datetime, timezone
from pathlib import Path

from bench.common import REPO, median

START, END = "<!-- bench:peers -->", "<!-- /bench:peers -->"
HEADING = "### Side by side with other harnesses"


def workload_name(files: int, steps: int) -> str:
    return f"{files:,} files, {steps} steps"


def summarise(records: list[dict], chosen, plan) -> dict:
    """Per workload and harness: medians of the good runs, the worst run, the failures."""
    out: dict[str, dict] = {}
    for files, steps in plan:
        per: dict[str, dict] = {}
        for h in chosen:
            got = [r for r in records if r["harness"] == h.key and r["files"] == files
                   and r["steps"] == steps]
            good = [r for r in got if not r["trouble"]]
            entry = {"runs": len(good), "failed": len(got) - len(good),
                     "trouble": [t for r in got for t in r["trouble"]][:3]}
            if good:
                def med(key: str, good: list = good) -> float:
                    return round(median(r[key] for r in good), 3)

                entry.update(
                    gap_ms=med("gap_ms"), gap_worst_ms=max(r["gap_ms"] for r in good),
                    startup_s=med("startup_s"), startup_worst_s=max(r["startup_s"] for r in good),
                    first_any_s=med("first_any_s"), cpu_s=med("cpu_s"), peak_mb=med("peak_mb"),
                    second_s=round(median(r["second_s"] for r in good), 3)
                    if all(r.get("second_s") for r in good) else None,
                    wall_s=med("wall_s"),
                    gap_at_ms={k: round(median(r["gap_at_ms"][k] for r in good), 2)
                               for k in good[0]["gap_at_ms"]},
                    bytes_at={k: int(median(r["bytes_at"][k] for r in good))
                              for k in good[0]["bytes_at"]})
            per[h.key] = entry
        out[f"{files}x{steps}"] = per
    return out


def _ratio(peer: float | None, ours: float | None) -> str:
    if not peer or not ours:
        return ""
    return f" ({peer / ours:.2f}x)"


def _row(label: str, e: dict, hd: dict, is_hd: bool, steps: int) -> list[str]:
    if not e.get("runs"):
        return [label, f"failed: {'; '.join(e.get('trouble') or ['no run'])[:80]}", "", "", "",
                "", ""]
    base = hd if hd.get("runs") and not is_hd else {}
    r = (lambda key: _ratio(e[key], base.get(key))) if base else (lambda key: "")
    at = " / ".join(f"{e['gap_at_ms'][k]:.1f}" for k in sorted(e["gap_at_ms"], key=int))
    last = max(e["bytes_at"], key=int)
    sizes = " / ".join(f"{e['bytes_at'][k] / 1000:.1f}" for k in sorted(e["bytes_at"], key=int))
    size_ratio = _ratio(e["bytes_at"][last], base["bytes_at"].get(last)) if base else ""
    return [label, f"{e['gap_ms']:.1f} ms{r('gap_ms')}, worst {e['gap_worst_ms']:.1f}", at,
            f"{e['startup_s']:.2f} s{r('startup_s')}, worst {e['startup_worst_s']:.2f}"
            + (f"; {e['second_s']:.2f} s{r('second_s')}" if e.get("second_s") else ""),
            f"{e['cpu_s']:.2f} s{r('cpu_s')}", f"{e['peak_mb']:.0f} MB{r('peak_mb')}",
            f"{sizes} kB{size_ratio}"]


def table(report: dict) -> str:
    head = ["harness", "loop gap per step", "gap at step 10 / 30 / 100 (ms)",
            "start-up: first request; second",
            "CPU", "peak memory", "request at step 1 / 10 / 30 / 100"]
    lines: list[list[str]] = []
    for files, steps in report["workloads"]:
        per = report["summary"][f"{files}x{steps}"]
        lines.append([f"**{workload_name(files, steps)}**", "", "", "", "", "", ""])
        for key, label in report["harnesses"].items():
            lines.append(_row(label, per[key], per["hd"], key == "hd", steps))
    widths = [max(len(x[i]) for x in [head] + lines) for i in range(len(head))]
    out = ["| " + " | ".join(c.ljust(w) for c, w in zip(x, widths)) + " |" for x in [head] + lines]
    out.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(out)


def about(report: dict) -> str:
    m, commit, when = report["machine"], report["commit"], report["measured_at"]
    peers = ", ".join(f"{n} {v}" for n, v in report["versions"].items()) or "none"
    scope = ("a quick smoke run" if report["quick"] else
             "5,000 files at 30 steps only (--full: all three lengths)"
             if not report["full"] else "every length on both sizes")
    fmt = lambda xs: ", ".join(f"{x:g}" for x in xs)  # noqa: E731
    return textwrap.fill(
        f"Median of {report['runs']} runs each (worst run beside it); in brackets peer / Harness "
        "Desk, so above 1x Harness Desk is ahead. Loop gap: the server's last byte of a reply "
        "to the next request; start-up: spawn to the first model request (worst run), then "
        "to the second (Harness Desk sends its first before its AI SDK is loaded, which then "
        "loads while the model reads it: here, with a server that answers at once, within the "
        "first step); CPU: user + system "
        "of the process and its waited-for children; request sizes in kB (1,000 bytes). "
        f"Workloads: {scope}. Measured {when} UTC at commit {commit} on {m['os']}, {m['cpu']}, "
        f"{m['cores']} cores, Python {m['python']}; peers: {peers}; load average "
        f"{fmt(report['load_before'])} before, {fmt(report['load_after'])} after "
        + (f"with {report['busy']} busy-loop processes added by the benchmark "
           if report.get("busy") else "") + "(a shared machine).", 92, break_on_hyphens=False)


def stamp() -> dict:
    """When and at which commit a run was measured."""
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO,
                            capture_output=True, text=True).stdout.strip()
    return {"commit": commit, "measured_at": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M")}


def render(report: dict) -> str:
    failed = [f"{report['harnesses'][k]} at {w}: {'; '.join(e['trouble'])}"
              for w, per in report["summary"].items() for k, e in per.items() if e["failed"]]
    text = table(report) + "\n\n" + about(report)
    if failed:
        text += "\n\nRuns that failed (not in the medians):\n" + "\n".join(f"- {f}" for f in failed)
    return text


def render_runs(reports: list[dict]) -> str:
    """Several runs' tables one after another (a quiet run, then a loaded one, say), each
    after the first introduced by how the machine was loaded."""
    parts = []
    for i, report in enumerate(reports):
        if i:
            busy = report.get("busy")
            parts.append(f"With {busy} busy-loop processes added (`--busy {busy}`):" if busy
                         else "Another run:")
        parts.append(render(report))
    return "\n\n".join(parts)


def put_in_readme(readme: Path, text: str) -> None:
    """Replace what stands between the peers markers; the first time, add the subsection at
    the end of the Performance section (the bench:table block is left alone)."""
    page = readme.read_text(encoding="utf-8")
    block = f"{START}\n{text}\n{END}"
    if START in page:
        head, rest = page.split(START, 1)
        page = head + block + rest.split(END, 1)[1]
    else:
        head, rest = page.split("\n## Performance\n", 1)
        at = rest.find("\n## ")
        body, tail = (rest, "") if at < 0 else (rest[:at], rest[at:])
        intro = ("`python -m bench.peers` (`--quick` for a smoke run, `--full` for every "
                 "workload) runs Harness Desk, through its command line with the Local engine, "
                 "beside mini-swe-agent, smolagents and openai-agents against one loopback "
                 "Chat Completions server that answers at once: each step writes a 1 KB note "
                 "or reads a 1 KB file, then each harness finishes its own way "
                 "(`bench/peers.py` says how). "
                 "The peers are installed on first use into their own virtual environments "
                 "under ~/.cache/harness-desk/peers/, never into the project. "
                 "With `--json FILE` every run's figures are kept (this table's are in "
                 "bench/peers_results.json); `python -m bench.peers_profile` runs Harness "
                 "Desk's side once under cProfile.")
        page = (head + "\n## Performance\n" + body.rstrip("\n") + f"\n\n{HEADING}\n\n"
                + textwrap.fill(intro, 92, break_on_hyphens=False) + f"\n\n{block}\n" + tail)
    readme.write_text(page, encoding="utf-8")
