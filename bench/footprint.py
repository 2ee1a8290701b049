"""Footprint: the frozen onedir build's size on disk, and the window's memory (RSS) when idle.

    python bench/footprint.py [--runs 3] [--bundle dist/harness-desk] [--json FILE]

Size: every file under the onedir bundle (default dist/harness-desk, made by
scripts/build_linux.sh), in MB of 1,000,000 bytes, as the build script counts them.
Memory: the window is opened on a copy of the demo workspace, from source (`python -m app
open FOLDER`) and from the frozen bundle when there is one; once it has been on screen
and its resident memory has held still for 2 seconds, VmRSS is read from /proc (Linux
only). Uses QT_QPA_PLATFORM if set, else offscreen. Median of the runs.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import REPO, arguments, hand_back, item, median

SIZE_TARGET_MB = 130  # issue 17: documents (lxml, Pillow, openpyxl, pypdf...)
RSS_TARGET_MB = 150
SETTLED_S = 2.0
LIMIT_S = 60.0


def bundle_mb(bundle: Path) -> float:
    total = 0
    for folder, _dirs, files in os.walk(bundle):
        for name in files:
            path = os.path.join(folder, name)
            if not os.path.islink(path):
                total += os.path.getsize(path)
    return round(total / 1_000_000, 1)


def largest(bundle: Path, count: int = 8) -> list[tuple[str, float]]:
    """The biggest top-level parts of the bundle (folders summed), to show where size goes."""
    sizes: dict[str, int] = {}
    for folder, _dirs, files in os.walk(bundle):
        for name in files:
            path = Path(folder, name)
            if path.is_symlink():
                continue
            rel = path.relative_to(bundle).parts
            key = "/".join(rel[:2]) if rel[0] == "_internal" and len(rel) > 2 else "/".join(rel[:1])
            sizes[key] = sizes.get(key, 0) + path.stat().st_size
    top = sorted(sizes.items(), key=lambda kv: -kv[1])[:count]
    return [(k, round(v / 1_000_000, 1)) for k, v in top]


def rss_kb(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def idle_rss_mb(argv: list[str], env: dict[str, str]) -> float:
    """Start the window, wait until its memory holds still, read it, close the window."""
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            stdin=subprocess.DEVNULL)
    try:
        began = time.monotonic()
        last, still_since = None, time.monotonic()
        while time.monotonic() - began < LIMIT_S:
            time.sleep(0.25)
            if proc.poll() is not None:
                raise SystemExit(f"the window exited at once ({' '.join(argv)}): {proc.returncode}")
            now = rss_kb(proc.pid)
            if now is None:
                continue
            if last is None or abs(now - last) > last * 0.005:
                last, still_since = now, time.monotonic()
            elif time.monotonic() - still_since >= SETTLED_S and time.monotonic() - began > 3:
                return round(now / 1024, 1)
        raise SystemExit("the window's memory never held still")
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def main() -> int:
    parser = arguments(__doc__, runs=3)
    parser.add_argument("--bundle", type=Path, default=REPO / "dist" / "harness-desk")
    args = parser.parse_args()
    items = []
    bundle = args.bundle
    exe = bundle / ("harness-desk.exe" if sys.platform == "win32" else "harness-desk")
    if bundle.is_dir():
        size = bundle_mb(bundle)
        parts = largest(bundle)
        print(f"frozen onedir build {bundle}: {size} MB (target <= {SIZE_TARGET_MB} MB)")
        print("  largest parts: " + ", ".join(f"{k} {v} MB" for k, v in parts))
        items.append(item("bundle_size", "Frozen onedir build on disk", f"<= {SIZE_TARGET_MB} MB",
                          size, "MB", size <= SIZE_TARGET_MB, largest_parts=parts))
    else:
        print(f"frozen onedir build: not available (no {bundle}; scripts/build_linux.sh makes it)")
        items.append(item("bundle_size", "Frozen onedir build on disk", f"<= {SIZE_TARGET_MB} MB",
                          None, "MB", None, why=f"no build at {bundle}"))

    window = (REPO / "app" / "gui" / "app.py").exists()
    if not window or not Path("/proc/self/status").exists():
        why = "the window is not in this checkout" if not window else "needs Linux /proc"
        print(f"idle window memory: not available ({why})")
        items.append(item("idle_rss", "Window idle, resident memory", f"<= {RSS_TARGET_MB} MB",
                          None, "MB", None, why=why))
        return hand_back(args.json, items)
    with tempfile.TemporaryDirectory(prefix="hd-bench-rss-") as tmp:
        folder = Path(tmp) / "Bakery"
        shutil.copytree(REPO / "resources" / "demo-workspace", folder)
        env = dict(os.environ, HARNESS_DESK_CONFIG_DIR=str(Path(tmp) / "config"),
                   PYTHONPATH=str(REPO))
        env.setdefault("QT_QPA_PLATFORM", "offscreen")
        source = [idle_rss_mb([sys.executable, "-m", "app", "open", str(folder)], env)
                  for _ in range(args.runs)]
        frozen = ([idle_rss_mb([str(exe), "open", str(folder)], env) for _ in range(args.runs)]
                  if exe.exists() else [])
    rss = median(source)
    print(f"idle window, from source: median {rss} MB RSS (runs: {source}; target <= "
          f"{RSS_TARGET_MB} MB; platform {env['QT_QPA_PLATFORM']})")
    details = {"runs_mb": source, "platform": env["QT_QPA_PLATFORM"]}
    if frozen:
        details["frozen_mb"] = median(frozen)
        print(f"idle window, frozen build: median {median(frozen)} MB RSS (runs: {frozen})")
    worst = max([rss] + ([median(frozen)] if frozen else []))
    shown = "frozen build and source" if frozen else "from source"
    items.append(item("idle_rss", "Window idle, resident memory", f"<= {RSS_TARGET_MB} MB", worst,
                      "MB", worst <= RSS_TARGET_MB, source_mb=rss, **details,
                      note=f"the larger of {shown}, drawn on {env['QT_QPA_PLATFORM']}"))
    return hand_back(args.json, items)


if __name__ == "__main__":
    sys.exit(main())
