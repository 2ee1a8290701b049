"""A disk whose every flush is slow, for a benchmark: fsync and fdatasync delayed in libc.

A slow disk makes fsync one long system call with the GIL released throughout. A Python
wrapper around os.fsync (time.sleep, then the real one) is not quite that: the thread that
flushes takes the GIL once more per flush, as the sleep ends. So the benchmark compiles a
few lines of C with the system's compiler (gcc or cc) into a temp folder and runs its
measured harness in a child process with LD_PRELOAD set: every fsync and fdatasync in that
process sleeps `delay` seconds in C and then calls the real one (dlsym(RTLD_NEXT)). With no
compiler (or on a system without LD_PRELOAD) `build` returns None and the caller falls back
to the Python wrapper, and says so.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

SHIM_C = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <time.h>
#include <errno.h>

static void slow(void) {
    struct timespec t = {0, DELAY_NS};
    while (nanosleep(&t, &t) == -1 && errno == EINTR) {}
}

int fsync(int fd) {
    static int (*real)(int) = 0;
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    slow();
    return real(fd);
}

int fdatasync(int fd) {
    static int (*real)(int) = 0;
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    slow();
    return real(fd);
}
"""


def compiler() -> str | None:
    """The system's C compiler, if there is one (CI installs gcc)."""
    for name in (os.environ.get("CC"), "gcc", "cc", "clang"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def build(folder: Path, delay_s: float) -> tuple[Path | None, str]:
    """Compile the shim into `folder`; (its path, how) or (None, why not)."""
    if not sys.platform.startswith("linux"):
        return None, f"no LD_PRELOAD on {sys.platform}"
    cc = compiler()
    if cc is None:
        return None, "no C compiler found (gcc, cc or clang)"
    folder.mkdir(parents=True, exist_ok=True)
    source, lib = folder / "slow_fsync.c", folder / "slow_fsync.so"
    source.write_text(SHIM_C, encoding="utf-8")
    done = subprocess.run([cc, "-O2", "-shared", "-fPIC", f"-DDELAY_NS={int(delay_s * 1e9)}L",
                           "-o", str(lib), str(source), "-ldl"],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return None, f"{Path(cc).name} failed: {done.stderr.strip()[:200]}"
    return lib, f"LD_PRELOAD shim built with {Path(cc).name}"


def child_env(lib: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["LD_PRELOAD"] = f"{lib} {env['LD_PRELOAD']}" if env.get("LD_PRELOAD") else str(lib)
    return env


def one_fsync_ms(folder: Path, times: int = 5) -> float:
    """How long one os.fsync of a small file takes in this process (the median of `times`):
    in a child under the shim, the check that the delay really applies."""
    path = folder / f"fsync-check-{os.getpid()}"
    took = []
    with open(path, "wb") as fh:
        for n in range(times):
            fh.write(b"x" * (n + 1))
            fh.flush()
            began = time.perf_counter()
            os.fsync(fh.fileno())
            took.append(time.perf_counter() - began)
    path.unlink()
    took.sort()
    return round(took[len(took) // 2] * 1000, 2)
