"""The loop's own costs, against an instant scripted model on loopback.

1. Context tax: bytes of the request body per pass with the built-in tools
   (peers send 30-40 KB per pass; target <= 6 KB).
2. Harness time between a model reply and the next request, with instant
   tools (target <= 3 ms): the gap the daemon adds per pass.

Usage: python bench/perf_loop.py [-n 30]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from protocol.client import Client  # noqa: E402
from saturnd.testing.fake_model import FakeModel, call  # noqa: E402
from saturnd.testing.scratch import scratch_daemon  # noqa: E402

PASSES_PER_TURN = 4


async def run_turns(socket: str, work: Path, model: FakeModel, script: list, n: int) -> None:
    async with await Client.connect(socket) as client:
        for _ in range(n):
            session = await client.call("session/create", {"cwd": str(work)})
            model.enqueue(*script)
            started = await client.call("turn/start", {"session_id": session.session_id,
                                                       "text": "what is on my list?"})
            async for _ in client.turn_events(started.turn_id):
                pass


def with_daemon(model: FakeModel, config: str, script: list, n: int) -> None:
    full = f"model:\n  base_url: {model.url}\nruntime:\n  think: off\n{config}"
    with scratch_daemon(full, prefix="sl-") as scratch:
        (scratch.workdir / "notes.txt").write_text("milk\neggs\nbread\n")
        asyncio.run(run_turns(str(scratch.socket), scratch.workdir, model, script, n))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=30, help="turns of 4 passes each")
    args = parser.parse_args()
    model = FakeModel().start()

    lookup = [call("list_dir", {}), call("read_file", {"path": "notes.txt"}),
              call("search_files", {"pattern": "milk"}), "Milk, eggs, bread."]
    with_daemon(model, "", lookup, 1)
    print("context tax, request body per pass (a 4-pass turn, built-in tools only):")
    for index, body in enumerate(model.raw_bodies[:PASSES_PER_TURN], 1):
        print(f"  pass {index}: {len(body):6d} bytes")
    print(f"  (the tool schemas alone: {len(json.dumps(model.requests[0]['tools']))} bytes;"
          " target <= 6144 per pass)")

    first_gap_request = len(model.timeline)
    instant = [call("instant"), call("instant"), call("instant"), "done"]
    with_daemon(model, "tools:\n  modules: [tests.scripted_tools]\n", instant, args.n)
    model.stop()
    gaps = []
    for turn in range(args.n):
        start = first_gap_request + turn * PASSES_PER_TURN
        spans = model.timeline[start:start + PASSES_PER_TURN]
        gaps += [(nxt[0] - prev[1]) * 1000 for prev, nxt in zip(spans, spans[1:], strict=False)]
    gaps.sort()
    print(f"harness time, model reply -> next request, {len(gaps)} gaps (instant tools):")
    print(f"  median {statistics.median(gaps):.2f} ms, p90 {gaps[int(len(gaps) * 0.9)]:.2f} ms"
          "  (target <= 3 ms)")


if __name__ == "__main__":
    main()
