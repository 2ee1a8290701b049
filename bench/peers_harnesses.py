"""The harnesses `bench.peers` compares: how each is installed, started and measured.

Harness Desk runs from this checkout through its command line (`python -m app run ... --engine
local`), on the machine's own interpreter of this checkout. The peers are installed on
demand, each into its own virtual environment under ~/.cache/harness-desk/peers/NAME-VERSION/
(made with the machine's python, pip from PyPI; kept for the next run; never a dependency of
the project, never in CI), and run through their own front door: mini-swe-agent's `mini`
command (yolo mode, exit at once on submit, its trajectory file written as it always is), and
smolagents' ToolCallingAgent from a ten-line script (bench/peers_smol_driver.py), and
openai-agents' Agent on its Chat Completions model from another (bench/peers_agents_driver.py).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from bench.common import REPO
from bench.peers_server import MODEL

CACHE = Path(os.environ.get("HARNESS_DESK_PEERS_DIR")
             or Path.home() / ".cache" / "harness-desk" / "peers")
# name -> (version wanted, the pip requirement with {v} for the version)
PEERS = {"mini-swe-agent": ("2.4.6", "mini-swe-agent=={v}"),
         "smolagents": ("1.26.0", "smolagents[openai]=={v}"),
         "openai-agents": ("0.24.0", "openai-agents=={v}")}
TASK = "Write the notes and read the files as asked, then finish."
RUN_TIMEOUT_S = 300


@dataclass
class Harness:
    key: str      # the server's mode (bench.peers_server.MODES)
    label: str    # as the table names it
    peer: str     # "" for Harness Desk, else a key of PEERS


HARNESSES = [Harness("hd", "Harness Desk", ""),
             Harness("msa-tool", "mini-swe-agent (tool calls)", "mini-swe-agent"),
             Harness("msa-text", "mini-swe-agent (text)", "mini-swe-agent"),
             Harness("smol", "smolagents ToolCallingAgent", "smolagents"),
             Harness("agents", "openai-agents Agent", "openai-agents")]


def _base_python() -> str:
    """The machine's python (not this checkout's virtual environment)."""
    return getattr(sys, "_base_executable", None) or shutil.which("python3") or sys.executable


def installed_version(venv: Path, name: str) -> str | None:
    marker = venv / ".bench-installed"
    return marker.read_text().strip() if marker.exists() else None


def nearest(versions: list[str], wanted: str) -> str | None:
    """Of `versions`, the one nearest to `wanted`: the same major first, then minor, patch."""
    def key(v: str) -> list[int]:
        return ([int(p) if p.isdigit() else 0 for p in v.split(".")] + [0, 0, 0])[:3]

    if not versions:
        return None
    return min(versions, key=lambda v: ([abs(a - b) for a, b in zip(key(v), key(wanted))],
                                        [-p for p in key(v)]))


def _nearest(pip: Path, name: str, wanted: str) -> str | None:
    """The version PyPI has that is nearest to `wanted` (for when it lacks that one)."""
    done = subprocess.run([str(pip), "index", "versions", name], capture_output=True, text=True)
    line = next((ln for ln in done.stdout.splitlines() if "Available versions:" in ln), "")
    return nearest([v.strip() for v in line.split(":", 1)[-1].split(",") if v.strip()], wanted)


def ensure_peer(name: str, log=print) -> tuple[Path, str]:
    """(the peer's virtual environment, the version in it), installing it the first time."""
    wanted, requirement = PEERS[name]
    venv = CACHE / f"{name}-{wanted}"
    have = installed_version(venv, name)
    if have:
        return venv, have
    log(f"Installing {name} {wanted} into {venv} (once; pip, a minute or two)...")
    if venv.exists():
        shutil.rmtree(venv)
    venv.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([_base_python(), "-m", "venv", str(venv)], check=True)
    pip = venv / "bin" / "pip"
    version = wanted
    done = subprocess.run([str(pip), "install", "-q", requirement.format(v=wanted)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        version = _nearest(pip, name, wanted) or ""
        if not version:
            raise SystemExit(f"Could not install {name} {wanted}: {done.stderr.strip()[-400:]}")
        log(f"PyPI has no {name} {wanted}; taking the nearest, {version}.")
        subprocess.run([str(pip), "install", "-q", requirement.format(v=version)], check=True)
    (venv / ".bench-installed").write_text(version + "\n")
    return venv, version


def package_version(venv: Path, package: str) -> str:
    """The version of `package` installed in `venv` (from its dist-info folder), or "?"."""
    for info in venv.glob(f"lib/python*/site-packages/{package}-*.dist-info"):
        return info.name[len(package) + 1:-len(".dist-info")]
    return "?"


@dataclass
class Launch:
    argv: list[str]
    env: dict[str, str]
    cwd: Path


def launch(h: Harness, ws: Path, url: str, steps: int, tmp: Path) -> Launch:
    """How harness `h` is started on workspace `ws` against the server at `url`."""
    # PYTHONDONTWRITEBYTECODE (set in some shells and CI) would leave this checkout without
    # bytecode, so Harness Desk compiled its ~100 modules on every run while the peers ran
    # from theirs (pip compiles a package as it installs it): without it, the warm-up run
    # writes the checkout's, as installing Harness Desk would.
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONDONTWRITEBYTECODE")}
    env.update(NO_COLOR="1", TERM="dumb")
    if h.key == "hd":
        env.update(PYTHONPATH=str(REPO), HARNESS_DESK_CONFIG_DIR=str(tmp / "hd-config"),
                   PYTHON_KEYRING_BACKEND="keyring.backends.null.Keyring")
        max_steps = int((steps + 1) / 0.6) + 2  # no "running long" notices in the round
        return Launch([sys.executable, "-m", "app", "run", str(ws), "--engine", "local",
                       "--model", MODEL, "--base-url", url, "--max-rounds", "1",
                       "--max-steps", str(max_steps), "--yes"], env, ws)
    venv = CACHE / f"{h.peer}-{PEERS[h.peer][0]}"
    env.update(OPENAI_API_KEY="sk-bench-loopback", VIRTUAL_ENV=str(venv),
               PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}")
    if h.peer == "mini-swe-agent":
        env.update(MSWEA_CONFIGURED="true", MSWEA_GLOBAL_CONFIG_DIR=str(tmp / "msa-config"),
                   MSWEA_COST_TRACKING="ignore_errors",  # a local model has no price
                   LITELLM_LOCAL_MODEL_COST_MAP="True")  # else litellm fetches it at import
        config = ["-c", "mini_textbased.yaml", "--model-class", "litellm_textbased"] \
            if h.key == "msa-text" else ["-c", "mini.yaml"]
        return Launch([str(venv / "bin" / "mini"), "-y", "--exit-immediately",
                       "-m", f"openai/{MODEL}", "-t", TASK, *config,
                       "-c", f"model.model_kwargs.api_base={url}",
                       "-o", str(tmp / f"{h.key}.traj.json")], env, ws)
    if h.peer == "openai-agents":
        env.update(OPENAI_AGENTS_DISABLE_TRACING="1")
        return Launch([str(venv / "bin" / "python"), str(REPO / "bench" / "peers_agents_driver.py"),
                       url, MODEL, str(steps + 5), TASK], env, ws)
    return Launch([str(venv / "bin" / "python"), str(REPO / "bench" / "peers_smol_driver.py"),
                   url, MODEL, str(steps + 5), TASK], env, ws)


@dataclass
class Ran:
    spawned: float   # perf_counter just before the process was started
    ended: float
    code: int
    cpu_s: float     # user + system of the process and the children it waited for
    peak_mb: float   # ru_maxrss of the process (or its largest waited-for child)
    stderr: str


def run(spec: Launch, log_path: Path) -> Ran:
    """Start the process, wait for it with os.wait4, and give its resource usage."""
    with open(log_path, "w") as err:
        spawned = time.perf_counter()
        proc = subprocess.Popen(spec.argv, env=spec.env, cwd=spec.cwd, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=err)
        timer = threading.Timer(RUN_TIMEOUT_S, proc.kill)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        except BaseException:  # stopped (Ctrl+C, SIGTERM): no harness left running
            proc.kill()
            proc.wait()
            raise
        finally:
            timer.cancel()
        ended = time.perf_counter()
        proc.returncode = os.waitstatus_to_exitcode(status)
    return Ran(spawned, ended, proc.returncode, usage.ru_utime + usage.ru_stime,
               usage.ru_maxrss / 1024, log_path.read_text(errors="replace")[-2000:])
