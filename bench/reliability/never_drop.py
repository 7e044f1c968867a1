"""Proof 1, never drop: 10,000 randomized tool faults (raise, hang past the timeout, garbage
bytes, 50 MB output, wrong types) in turns on the scripted model -> 0 crashed turns, each fault
a readable tool result (a JSON string the model is sent back), the daemon's RSS flat.

    python -m bench.reliability.never_drop [--short]
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from collections import Counter

from bench.reliability.common import TRACEBACK, Proof, daemon_on, proof_main, rss_kib
from bench.reliability.fault_tools import KINDS
from protocol.client import Client
from saturnd.testing.fake_model import FakeModel, calls

FULL_FAULTS, SHORT_FAULTS = 10_000, 200
CALLS_PER_PASS = 8
RSS_GROWTH_LIMIT_KIB = 30 * 1024
"""After the warm-up tenth: more than this is memory kept per fault, not the allocator's slack."""
CONFIG = "  max_calls_per_pass: 8\ntools:\n  modules: [bench.reliability.fault_tools]\n"


def fault_batches(total: int, rng: random.Random) -> list[list[tuple[str, dict]]]:
    faults = [("fault", {"kind": rng.choice(KINDS), "seed": n}) for n in range(total)]
    return [faults[i : i + CALLS_PER_PASS] for i in range(0, total, CALLS_PER_PASS)]


async def _drive(path: str, workdir: str, model: FakeModel, batches: list, pid: int,
                 proof: Proof) -> None:
    statuses: Counter[str] = Counter()
    fates: Counter[str] = Counter()
    unreadable: list[str] = []
    rss_after_warmup = 0
    async with await Client.connect(path) as client:
        for index, batch in enumerate(batches):
            session = await client.call("session/create", {"cwd": workdir})
            model.enqueue(calls(*batch), "done")
            started = await client.call("turn/start", {"session_id": session.session_id,
                                                       "text": "run the faults"})
            events = [e async for e in client.turn_events(started.turn_id)]
            model.drop_pending()  # a crashed turn must not hand its reply to the next one
            statuses[events[-1].event.status] += 1
            for event in events:
                if event.event.__struct_config__.tag == "tool_finished":
                    fates[event.event.fate] += 1
            unreadable += _unreadable_results(model.requests[-1], len(batch))
            if index == len(batches) // 10:
                rss_after_warmup = rss_kib(pid)
    rss_end = rss_kib(pid)
    faults = sum(len(b) for b in batches)
    proof.figure("faults", f"{faults:,} in {len(batches):,} turns ({CALLS_PER_PASS} per pass)")
    proof.figure("turn endings", dict(statuses))
    proof.figure("tool fates", dict(fates))
    proof.figure("faults without a readable result", len(unreadable))
    for sample in unreadable[:3]:
        proof.figure("unreadable", sample)
    growth = rss_end - rss_after_warmup
    proof.figure("daemon RSS", f"{rss_after_warmup / 1024:.1f} MiB after the first tenth,"
                 f" {rss_end / 1024:.1f} MiB at the end ({growth / 1024:+.1f} MiB)")
    proof.expect(statuses["completed"] == len(batches), f"turns that did not complete: {dict(statuses)}")
    proof.expect(sum(fates.values()) == faults, f"{faults - sum(fates.values())} faults had no result")
    proof.expect(not unreadable, f"{len(unreadable)} faults without a readable result")
    proof.expect(growth <= RSS_GROWTH_LIMIT_KIB, f"RSS grew {growth / 1024:.1f} MiB")


def _unreadable_results(request: dict, expected: int) -> list[str]:
    """The tool results the model was sent back: each must be a non-empty string that says
    what happened (a result, or `tool error: ...`)."""
    results = [m for m in request["messages"] if m["role"] == "tool"]
    bad = [json.dumps(m)[:120] for m in results
           if not isinstance(m.get("content"), str) or not m["content"].strip()]
    if len(results) != expected:
        bad.append(f"{len(results)} tool results for {expected} calls")
    return bad


def run(short: bool = False) -> Proof:
    total = SHORT_FAULTS if short else FULL_FAULTS
    proof = Proof(f"Never drop: {total:,} randomized tool faults")
    rng = random.Random(1)
    model = FakeModel().start()
    try:
        with daemon_on(model, CONFIG, prefix="rn-") as daemon:
            asyncio.run(_drive(str(daemon.scratch.socket), str(daemon.scratch.workdir), model,
                               fault_batches(total, rng), daemon.pid, proof))
            tracebacks = daemon.output().count(TRACEBACK)
    finally:
        model.stop()
    proof.figure("tracebacks in the daemon's log", tracebacks)
    proof.expect(tracebacks == 0, f"{tracebacks} tracebacks in the daemon's log")
    return proof


def main() -> int:
    return proof_main(run, __doc__)


if __name__ == "__main__":
    sys.exit(main())
