"""Warm one-pass `saturn -p` turns vs a bare stdlib urllib client, side by side in one run.

Both talk to the same instant fake model on loopback. Reports medians and the
ratio (target <= 1.5x). Usage: python bench/perf_turn.py [-n 20]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from saturnd.testing.fake_model import FakeModel  # noqa: E402
from saturnd.testing.scratch import ScratchHome  # noqa: E402

URLLIB_CLIENT = """
import json, sys, urllib.request
body = json.dumps({"model": "fake", "stream": False,
                   "messages": [{"role": "user", "content": "hi"}]}).encode()
req = urllib.request.Request(sys.argv[1] + "/chat/completions", data=body,
                             headers={"Content-Type": "application/json"})
print(json.load(urllib.request.urlopen(req))["choices"][0]["message"]["content"])
"""


def timed(cmd: list[str], env: dict[str, str], cwd: str) -> float:
    start = time.perf_counter()
    result = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"{cmd[:3]} failed: {result.stderr}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=20)
    args = parser.parse_args()
    model = FakeModel().start()
    with ScratchHome(prefix="sb-") as scratch:
        env, cwd = scratch.env, str(scratch.workdir)
        scratch.write_config(f"model:\n  base_url: {model.url}\n")
        saturn = [sys.executable, "-m", "clients.cli.main", "-p", "hi"]
        urllib_cmd = [sys.executable, "-c", URLLIB_CLIENT, model.url]
        model.enqueue(*["pong"] * (args.n * 2 + 1))
        timed(saturn, env, cwd)  # starts the daemon: warm turns only from here
        saturn_times, urllib_times = [], []
        for _ in range(args.n):  # interleaved so machine noise hits both alike
            saturn_times.append(timed(saturn, env, cwd))
            urllib_times.append(timed(urllib_cmd, env, cwd))
        subprocess.run([sys.executable, "-m", "clients.cli.main", "daemon", "stop"], env=env,
                       capture_output=True)
    model.stop()
    s, u = statistics.median(saturn_times), statistics.median(urllib_times)
    print(f"turns: {args.n} each, interleaved")
    print(f"saturn -p (warm, one pass)  median {s * 1000:7.1f} ms")
    print(f"urllib single request       median {u * 1000:7.1f} ms")
    print(f"ratio                       {s / u:7.2f}x  (target <= 1.5x)")


if __name__ == "__main__":
    main()
