"""Proof 4, client loss: 1,000 clients that vanish (their socket closed, as when the process is
killed) mid-turn, mid-approval and mid-question. The turns go on without them; a turn left
waiting for a person ends at its time budget. Afterwards the daemon holds no more asyncio
tasks, open files or child processes than before.

    python -m bench.reliability.client_loss [--short]
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections import Counter

from bench.reliability.common import (
    Proof,
    daemon_on,
    descendants,
    open_fds,
    proof_main,
    tcp_sockets,
)
from protocol.client import Client
from saturnd.testing.fake_model import FakeModel, Reply, call, text

FULL_CLIENTS, SHORT_CLIENTS = 1_000, 60
FULL_WAVE, SHORT_WAVE = 50, 20
"""Clients that vanish at once. A wave is all of one kind, so the scripted replies fit any of
its turns, and the next wave starts when its turns have ended."""
TURN_BUDGET_S = 2
CONFIG = f"  turn_budget_s: {TURN_BUDGET_S}\n"
FD_SETTLE_S = 3.0
SETTLE_TIMEOUT_S = 60.0
KINDS = {
    # kind: (first reply, the event after which the client vanishes)
    "mid-turn": (Reply(text="a slow answer", delay_s=0.5), "turn_started"),
    "mid-approval": (call("write_file", {"path": "out.txt", "content": "hello"}), "approval_requested"),
    "mid-question": (call("ask_user", {"question": "Which file?"}), "question"),
}


async def _vanish(path: str, workdir: str, until: str) -> bool:
    """One client: a session, a turn, then its socket closed once `until` arrives."""
    reader, writer = await asyncio.open_unix_connection(path)

    async def request(method: str, params: dict) -> dict:
        writer.write(json.dumps({"jsonrpc": "2.0", "id": "1", "method": method,
                                 "params": params}).encode() + b"\n")
        return json.loads(await reader.readline())["result"]

    try:
        session = await request("session/create", {"cwd": workdir})
        await request("turn/start", {"session_id": session["session_id"],
                                     "text": "write hello to out.txt"})
        while line := await reader.readline():
            if json.loads(line).get("params", {}).get("event", {}).get("type") == until:
                return True
        return False
    finally:
        writer.transport.abort()  # gone without a goodbye


async def _wave(path: str, workdir: str, model: FakeModel, kind: str, size: int) -> int:
    first, until = KINDS[kind]
    model.enqueue(*[first] * size)
    # Each turn's pass after the wait, if its budget leaves one (the rest are dropped).
    model.enqueue(*[text("I could not finish that.")] * size)
    reached = await asyncio.gather(*(_vanish(path, workdir, until) for _ in range(size)))
    return sum(reached)


async def _settled(client: Client, baseline_tasks: int) -> tuple[int, float]:
    """Daemon tasks once every turn ended (or the timeout passed), and how long that took."""
    started = time.monotonic()
    while True:
        status = await client.call("daemon/status")
        if status.tasks <= baseline_tasks or time.monotonic() - started > SETTLE_TIMEOUT_S:
            return status.tasks, time.monotonic() - started
        await asyncio.sleep(0.25)


async def _fds_settled(pid: int, baseline: int) -> int:
    """The daemon's open fds once a vanished client's socket, whose turn has just ended, is
    closed too (the transport closes a moment after the task): held past FD_SETTLE_S is a leak."""
    deadline = time.monotonic() + FD_SETTLE_S
    while True:
        count = open_fds(pid, tcp=False)
        if count <= baseline or time.monotonic() >= deadline:
            return count
        await asyncio.sleep(0.1)


async def _drive(path: str, workdir: str, model: FakeModel, pid: int, total: int, wave: int,
                 proof: Proof) -> None:
    kinds = list(KINDS)
    async with await Client.connect(path) as watcher:
        idle_tasks = (await watcher.call("daemon/status")).tasks
        # Warm-up, a wave of each kind: first imports, lazily built things and the model
        # connection pool (one keep-alive connection per turn at once) are not leaks.
        for kind in kinds:
            await _wave(path, workdir, model, kind, wave)
            await _settled(watcher, idle_tasks)
            model.drop_pending()
        before = (await watcher.call("daemon/status")).tasks, open_fds(pid, tcp=False), len(descendants(pid))
        pool_before = tcp_sockets(pid)
        reached: Counter[str] = Counter()
        for index in range(0, total, wave):
            kind = kinds[(index // wave) % len(kinds)]
            reached[kind] += await _wave(path, workdir, model, kind, min(wave, total - index))
            tasks_after, settle_s = await _settled(watcher, before[0])
            model.drop_pending()
    after = tasks_after, await _fds_settled(pid, before[1]), len(descendants(pid))
    pool_after = tcp_sockets(pid)
    proof.figure("clients vanished", f"{sum(reached.values())} of {total} at their moment"
                 f" ({', '.join(f'{k} {n}' for k, n in reached.items())})")
    proof.figure("daemon tasks", f"{before[0]} before, {after[0]} after (the last wave's turns"
                 f" ended {settle_s:.1f} s after its clients vanished)")
    proof.figure("open fds", f"{before[1]} before, {after[1]} after (TCP sockets aside: {pool_before} before,"
                 f" {pool_after} after)")
    proof.figure("child processes", f"{before[2]} before, {after[2]} after")
    proof.expect(sum(reached.values()) == total, "some clients never reached their moment")
    proof.expect(after[0] <= before[0], f"tasks leaked: {before[0]} -> {after[0]}")
    proof.expect(after[1] <= before[1], f"fds leaked: {before[1]} -> {after[1]}")
    proof.expect(pool_after <= pool_before + wave, f"TCP sockets leaked: {pool_before} -> {pool_after}")
    proof.expect(after[2] <= before[2], f"child processes leaked: {before[2]} -> {after[2]}")


def run(short: bool = False) -> Proof:
    total = SHORT_CLIENTS if short else FULL_CLIENTS
    proof = Proof(f"Client loss: {total:,} clients vanish mid-turn, mid-approval, mid-question")
    model = FakeModel().start()
    try:
        with daemon_on(model, CONFIG, prefix="rc-") as daemon:
            asyncio.run(_drive(str(daemon.scratch.socket), str(daemon.scratch.workdir), model,
                               daemon.pid, total, SHORT_WAVE if short else FULL_WAVE, proof))
    finally:
        model.stop()
    return proof


def main() -> int:
    return proof_main(run, __doc__)


if __name__ == "__main__":
    sys.exit(main())
