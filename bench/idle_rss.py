"""The resident memory of an idle saturnd, for one or more source trees side by side.

Each run starts `python -m saturnd` from a source tree with SATURN_HOME,
SATURN_DATA_DIR and SATURN_SOCKET in a fresh temp folder, waits until it
listens (and, with --embedded, until its model server is ready), lets it
settle, reads the daemon's RSS (its model server child is not counted), and
stops it. Runs alternate between the trees, so a busy machine weighs on both
alike. Standard library only, so it can measure an old checkout too.

    python bench/idle_rss.py                                  # this tree, 5 runs
    python bench/idle_rss.py --src /tmp/before --src . -n 5   # before/after
    python bench/idle_rss.py --embedded qwen2.5-coder-0.5b -n 1
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
GOAL_MIB = 60.0
SERVER_CONFIG = "model:\n  base_url: http://127.0.0.1:9/v1\n"
"""A configured model server that an idle daemon never contacts."""


def rss_mib(pid: int) -> float:
    status = Path(f"/proc/{pid}/status")
    if status.exists():
        kib = next(int(line.split()[1]) for line in status.read_text().splitlines() if line.startswith("VmRSS:"))
    else:  # macOS: no /proc
        kib = int(subprocess.run(["ps", "-o", "rss=", "-p", str(pid)], capture_output=True, text=True).stdout)
    return kib / 1024


def _status(sock_path: Path) -> dict[str, Any]:
    with socket.socket(socket.AF_UNIX) as conn:
        conn.connect(str(sock_path))
        conn.sendall(b'{"jsonrpc":"2.0","id":"1","method":"daemon/status","params":{}}\n')
        reply = conn.makefile("rb").readline()
    return json.loads(reply)["result"]


def _wait(what: str, ready: Callable[[], bool], proc: subprocess.Popen[bytes], within_s: float) -> None:
    deadline = time.monotonic() + within_s
    while not ready():
        if proc.poll() is not None:
            raise SystemExit(f"saturnd exited with {proc.returncode} before {what}")
        if time.monotonic() > deadline:
            raise SystemExit(f"saturnd: no {what} after {within_s:.0f}s")
        time.sleep(0.1)


def measure(src: Path, config: str, embedded: bool, settle_s: float) -> float:
    with tempfile.TemporaryDirectory(prefix="rss-", dir="/tmp") as root:
        base = Path(root)
        (base / "home").mkdir()
        (base / "home" / "config.yaml").write_text(config)
        sock = base / "run" / "saturnd.sock"
        env = {**os.environ, "PYTHONPATH": str(src), "SATURN_HOME": str(base / "home"),
               "SATURN_DATA_DIR": str(base / "data"), "SATURN_SOCKET": str(sock)}
        proc = subprocess.Popen([sys.executable, "-m", "saturnd"], cwd=src, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            _wait("socket", sock.exists, proc, 60)
            if embedded:
                _wait("ready model", lambda: _status(sock)["model"]["state"] == "ready", proc, 300)
            time.sleep(settle_s)
            return rss_mib(proc.pid)
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(30)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--src", action="append", type=Path, help="source tree (repeatable; default: this one)")
    ap.add_argument("-n", "--runs", type=int, default=5)
    ap.add_argument("--settle", type=float, default=3.0, help="seconds idle before reading RSS")
    ap.add_argument("--embedded", default="", help="a packaged model id or GGUF path to run (threads 1)")
    args = ap.parse_args()
    trees = [p.resolve() for p in (args.src or [REPO])]
    config = f"model:\n  embedded: {args.embedded}\n  threads: 1\n" if args.embedded else SERVER_CONFIG
    samples: dict[Path, list[float]] = {tree: [] for tree in trees}
    for run in range(1, args.runs + 1):
        for tree in trees:
            mib = measure(tree, config, bool(args.embedded), args.settle)
            samples[tree].append(mib)
            print(f"run {run} {tree}: {mib:.1f} MiB", flush=True)
    for tree, values in samples.items():
        median = statistics.median(values)
        verdict = "ok" if median <= GOAL_MIB else f"over the {GOAL_MIB:.0f} MiB goal"
        print(f"{tree}: median {median:.1f} MiB (min {min(values):.1f}, max {max(values):.1f}) {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
