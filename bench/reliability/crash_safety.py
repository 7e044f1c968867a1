"""Proof 2, crash safety: saturnd is killed with SIGKILL at a random moment of a turn (mid-stream,
mid-tool, mid-write) 100 times over one store, and restarted each time. After every restart:
every session loads, no finished turn is lost, every tool call has a result (a dangling one is
closed as `tool error: interrupted`), no command the killed daemon ran is still alive, and
`PRAGMA integrity_check` says ok.

The orphaned-process figure depends on issue 13's fix 5 (run_command's process groups ended on
restart), made on another branch.

    python -m bench.reliability.crash_safety [--short]
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sqlite3
import sys
from collections import Counter
from pathlib import Path

from bench.reliability.common import Proof, config_yaml, proof_main
from protocol.client import Client
from saturnd.testing.fake_model import FakeModel, Reply, call
from saturnd.testing.scratch import ScratchDaemon, ScratchHome

FULL_KILLS, SHORT_KILLS = 100, 6
RESTART_TIMEOUT_S = 180.0
"""Generous: niced under a model benchmark on 2 cores, a cold start can take a minute."""
POINTS = ("mid-stream", "mid-tool", "mid-write")
ORPHANS = "orphaned processes"
"""The failure that names fix 5's figure (tests tell it from the rest)."""


def _script(point: str, marker: str) -> tuple[Reply, str, float]:
    """The killed turn's model reply, the event after which the kill may come, and how long after
    it at most."""
    if point == "mid-stream":
        return Reply(text="a long and slow answer " * 20, chunk_delay_s=0.01), "response_delta", 0.8
    if point == "mid-tool":
        # A command that outlives the daemon unless something ends it; the marker finds it.
        return call("run_command", {"command": f"sleep 300; echo {marker}"}), "tool_proposed", 0.5
    # Thousands of one-character deltas: the store writes a row for each as fast as it can.
    return Reply(text="w" * 3000, chunk_chars=1), "response_delta", 0.3


async def _finish_a_turn(client: Client, session_id: str, model: FakeModel, text: str) -> str:
    model.enqueue(text)
    started = await client.call("turn/start", {"session_id": session_id, "text": "say it"})
    events = [e async for e in client.turn_events(started.turn_id)]
    if events[-1].event.status != "completed":
        raise RuntimeError(f"a turn before the kill did not finish: {events[-1].event}")
    return str(started.turn_id)


async def _turn_then_kill(scratch: ScratchHome, model: FakeModel, daemon: ScratchDaemon,
                          point: str, marker: str, rng: random.Random) -> str:
    """Finishes one turn, starts another and kills the daemon inside it; the finished turn's id."""
    async with await Client.connect(str(scratch.socket)) as client:
        session = await client.call("session/create", {"cwd": str(scratch.workdir)})
        finished = await _finish_a_turn(client, session.session_id, model, f"answer {marker}")
        reply, trigger, window_s = _script(point, marker)
        model.enqueue(reply, "done")
        started = await client.call("turn/start", {"session_id": session.session_id,
                                                   "text": "go", "allow": ["run_command"]})
        async for event in client.turn_events(started.turn_id):
            if event.event.__struct_config__.tag == trigger:
                break
        await asyncio.sleep(rng.uniform(0.05, window_s))
        daemon.stop(signal.SIGKILL)
    model.drop_pending()
    return finished


def _store_checks(db_file: Path) -> dict[str, int]:
    with sqlite3.connect(db_file) as db:
        integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
        statuses = Counter(dict(db.execute("SELECT status, count(*) FROM turns GROUP BY status")))
        answered = {r[0] for r in db.execute("SELECT tool_call_id FROM messages WHERE role = 'tool'")}
        calls = [c.get("id") for (raw,) in db.execute(
            "SELECT tool_calls FROM messages WHERE role = 'assistant'") for c in json.loads(raw)]
        interrupted_results = db.execute(
            "SELECT count(*) FROM messages WHERE role = 'tool' AND content = 'tool error: interrupted'"
        ).fetchone()[0]
    return {"integrity_ok": integrity == "ok", "running": statuses["running"],
            "interrupted": statuses["interrupted"], "dangling_calls": len(set(calls) - answered),
            "interrupted_results": interrupted_results}


async def _sessions_that_fail_to_load(socket: Path) -> int:
    failed = 0
    async with await Client.connect(str(socket)) as client:
        for session in (await client.call("session/list")).sessions:
            try:
                await client.call("session/get", {"session_id": session.session_id})
            except Exception:
                failed += 1
    return failed


async def _finished_turns_lost(socket: Path, finished: list[str]) -> int:
    lost = 0
    async with await Client.connect(str(socket)) as client:
        for turn_id in finished:
            await client.call("turn/subscribe", {"turn_id": turn_id, "after_seq": 0})
            events = [e async for e in client.turn_events(turn_id)]
            lost += events[-1].event.status != "completed"
    return lost


def _alive_with(marker_prefix: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
                state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if marker_prefix.encode() in cmdline and state != "Z":
                found.append(int(entry))
    return found


def run(short: bool = False) -> Proof:
    kills = SHORT_KILLS if short else FULL_KILLS
    proof = Proof(f"Crash safety: kill -9 at random points x {kills}")
    rng = random.Random(2)
    model = FakeModel().start()
    run_marker = f"crash{os.getpid()}x"
    finished: list[str] = []
    points: Counter[str] = Counter()
    worst = {"sessions_failed": 0, "finished_lost": 0, "dangling_calls": 0, "running": 0}
    integrity_failures = 0
    orphans: list[int] = []
    try:
        with ScratchHome("rk-") as scratch:
            scratch.write_config(config_yaml(model))
            daemon = ScratchDaemon(scratch).start(RESTART_TIMEOUT_S)
            for index in range(kills):
                point = POINTS[index % len(POINTS)] if short else rng.choice(POINTS)
                points[point] += 1
                marker = f"{run_marker}{index}"
                finished.append(asyncio.run(
                    _turn_then_kill(scratch, model, daemon, point, marker, rng)))
                daemon = ScratchDaemon(scratch).start(RESTART_TIMEOUT_S)  # the restart marks and closes
                checks = _store_checks(scratch.data_dir / "saturn.db")
                integrity_failures += not checks["integrity_ok"]
                for key in ("dangling_calls", "running"):
                    worst[key] = max(worst[key], checks[key])
                worst["sessions_failed"] = max(
                    worst["sessions_failed"], asyncio.run(_sessions_that_fail_to_load(scratch.socket)))
                orphans += _alive_with(marker)
            worst["finished_lost"] = asyncio.run(_finished_turns_lost(scratch.socket, finished))
            daemon.stop()
    finally:
        model.stop()
        for pid in _alive_with(run_marker):  # the commands this run started, left alive
            os.kill(pid, signal.SIGKILL)
    proof.figure("kills", f"{kills} ({', '.join(f'{p} {n}' for p, n in points.items())})")
    proof.figure("turns marked interrupted", checks["interrupted"])
    proof.figure("calls closed as 'tool error: interrupted'", checks["interrupted_results"])
    proof.figure("sessions that failed to load (worst restart)", worst["sessions_failed"])
    proof.figure("finished turns lost", f"{worst['finished_lost']} of {len(finished)}")
    proof.figure("dangling calls after a restart (worst)", worst["dangling_calls"])
    proof.figure("turns left 'running' after a restart (worst)", worst["running"])
    proof.figure("integrity_check not ok", integrity_failures)
    proof.figure("orphaned command processes", f"{len(orphans)} (after {points['mid-tool']} kills mid-tool)")
    proof.expect(worst["sessions_failed"] == 0, "sessions failed to load")
    proof.expect(worst["finished_lost"] == 0, "finished turns were lost")
    proof.expect(worst["dangling_calls"] == 0, "tool calls left without a result")
    proof.expect(worst["running"] == 0, "turns left running")
    proof.expect(integrity_failures == 0, "integrity_check failed")
    proof.expect(not orphans, f"{ORPHANS}: {len(orphans)}")
    return proof


def main() -> int:
    return proof_main(run, __doc__)


if __name__ == "__main__":
    sys.exit(main())
