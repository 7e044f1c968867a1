"""Proof 7, load: 20 clients x 50 turns at once on the scripted model (each turn streams a
reply of about 60 deltas). Figures: turn latency p50/p99, events per second, and that every
turn's live events arrived once each, in `seq` order 1..n, the same as the stored ones a
late subscriber replays.

    python -m bench.reliability.load [--short]
"""

from __future__ import annotations

import asyncio
import sys
import time
from dataclasses import dataclass, field

import msgspec

from bench.reliability.common import Proof, daemon_on, percentile, proof_main
from protocol.client import Client
from protocol.events import TurnEvent
from saturnd.testing.fake_model import FakeModel, text

CLIENTS = 20
FULL_TURNS, SHORT_TURNS = 50, 3
ANSWER = "The list holds milk, eggs, bread and butter; nothing else is on it today. " * 3


@dataclass
class ClientRun:
    latencies_s: list[float] = field(default_factory=list)
    events: int = 0
    order_faults: list[str] = field(default_factory=list)
    live_events: dict[str, list[tuple[int, bytes]]] = field(default_factory=dict)


async def _one_client(path: str, workdir: str, model: FakeModel, turns: int) -> ClientRun:
    run = ClientRun()
    async with await Client.connect(path) as client:
        session = await client.call("session/create", {"cwd": workdir})
        for _ in range(turns):
            model.enqueue(text(ANSWER, chunk_chars=4))
            started_at = time.monotonic()
            started = await client.call("turn/start", {"session_id": session.session_id,
                                                       "text": "what is on my list?"})
            events = [_comparable(e) async for e in client.turn_events(started.turn_id)]
            run.latencies_s.append(time.monotonic() - started_at)
            run.events += len(events)
            run.live_events[started.turn_id] = events
            seqs = [seq for seq, _ in events]
            if seqs != list(range(1, len(seqs) + 1)):
                run.order_faults.append(f"{started.turn_id}: {seqs[:10]}...")
    return run


def _comparable(event: TurnEvent) -> tuple[int, bytes]:
    return event.seq, msgspec.json.encode(event.event)


async def _stored_events(path: str, turn_ids: list[str]) -> dict[str, list[tuple[int, bytes]]]:
    """What a subscriber that comes late replays from the store."""
    stored = {}
    async with await Client.connect(path) as client:
        for turn_id in turn_ids:
            await client.call("turn/subscribe", {"turn_id": turn_id, "after_seq": 0})
            stored[turn_id] = [_comparable(e) async for e in client.turn_events(turn_id)]
    return stored


async def _drive(path: str, workdir: str, model: FakeModel, turns: int, proof: Proof) -> None:
    started = time.monotonic()
    runs = await asyncio.gather(*(_one_client(path, workdir, model, turns) for _ in range(CLIENTS)))
    wall = time.monotonic() - started
    latencies = [s for r in runs for s in r.latencies_s]
    events = sum(r.events for r in runs)
    live = {t: e for r in runs for t, e in r.live_events.items()}
    stored = await _stored_events(path, list(live))
    mismatched = [t for t in live if live[t] != stored[t]]
    order_faults = [f for r in runs for f in r.order_faults]
    proof.figure("turns", f"{len(latencies)} ({CLIENTS} clients x {turns}), in {wall:.1f} s")
    proof.figure("turn latency", f"p50 {percentile(latencies, 0.5) * 1000:.0f} ms,"
                 f" p99 {percentile(latencies, 0.99) * 1000:.0f} ms,"
                 f" max {max(latencies) * 1000:.0f} ms")
    proof.figure("events", f"{events:,} ({events / len(latencies):.0f} a turn),"
                 f" {events / wall:,.0f} events/s")
    proof.figure("turns with events lost, repeated or out of order", len(order_faults))
    proof.figure("turns whose live events differ from the stored ones", len(mismatched))
    proof.expect(len(latencies) == CLIENTS * turns, "not every turn ran")
    proof.expect(not order_faults, f"seq faults: {order_faults[:2]}")
    proof.expect(not mismatched, f"live and stored differ: {mismatched[:2]}")


def run(short: bool = False) -> Proof:
    turns = SHORT_TURNS if short else FULL_TURNS
    proof = Proof(f"Load: {CLIENTS} clients x {turns} turns on the scripted model")
    model = FakeModel().start()
    try:
        with daemon_on(model, prefix="rd-") as daemon:
            asyncio.run(_drive(str(daemon.scratch.socket), str(daemon.scratch.workdir), model,
                               turns, proof))
    finally:
        model.stop()
    return proof


def main() -> int:
    return proof_main(run, __doc__)


if __name__ == "__main__":
    sys.exit(main())
