"""Where Harness Desk's time goes in the side-by-side workload: one run under cProfile.

    python -m bench.peers_profile [--steps 100] [--files 100] [--top 25]

The same command line, Local engine, loopback server and steps as `bench.peers`, with the
process run as `python -m cProfile -o FILE -m app run ...`; prints the functions with the
most time of their own and the most time under them, and the loop gap beside it (cProfile
slows every call, so the figures are for where, not how much).
"""

from __future__ import annotations

import argparse
import pstats
import shutil
import sys
import tempfile
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import median
from bench.peers import make_workspaces, reset
from bench.peers_harnesses import HARNESSES, launch, run
from bench.peers_server import PeerServer, Session


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--files", type=int, default=100)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--save", type=Path, metavar="FILE", help="keep the profile (pstats)")
    args = parser.parse_args()
    hd = HARNESSES[0]
    tmp = Path(tempfile.mkdtemp(prefix="hd-bench-profile-"))
    server = PeerServer()
    try:
        ws = make_workspaces(tmp, {args.files}, args.steps, "profile")[args.files]
        reset(ws)
        session = Session(hd.key, args.steps, "hd-profile", "profile")
        server.begin(session)
        spec = launch(hd, ws, server.base_url(hd.key), args.steps, tmp)
        out = tmp / "hd.prof"
        spec.argv[1:1] = ["-m", "cProfile", "-o", str(out)]
        ran = run(spec, tmp / "hd.log")
        server.end()
        if ran.code or session.trouble:
            raise SystemExit(f"the run failed: {session.trouble or ran.stderr[-500:]}")
        gaps = session.gaps()
        print(f"{args.steps} steps on {args.files} files under cProfile: loop gap median "
              f"{median(gaps) * 1000:.1f} ms, start-up {session.arrived[0] - ran.spawned:.2f} s, "
              f"CPU {ran.cpu_s:.2f} s")
        if args.save:
            shutil.copy(out, args.save)
        stats = pstats.Stats(str(out))
        for key, where in (("tottime", ""), ("cumulative", ""), ("cumulative", "/app/")):
            print(f"\n== by {key}" + (f", only {where}" if where else ""))
            stats.sort_stats(key).print_stats(where, args.top) if where else \
                stats.sort_stats(key).print_stats(args.top)
    finally:
        server.close()
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
