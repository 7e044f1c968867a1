"""run_command's processes do not outlive a killed daemon: the shell dies with it (Linux), and
the next daemon ends what the shell had started and closes the call as interrupted."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from protocol.client import Client
from saturnd.testing.fake_model import call
from saturnd.testing.scratch import ScratchDaemon
from saturnd.tools.command_groups import MARKER_ENV, end_leftover_groups

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads process states from /proc")


def running(pid: int) -> bool:
    """Alive and not a zombie (an orphan's zombie waits for whoever adopted it to reap it)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] not in "ZX"


async def read_pid(path: Path) -> int:
    for _ in range(250):
        with contextlib.suppress(OSError, ValueError):
            return int(await asyncio.to_thread(path.read_text))
        await asyncio.sleep(0.02)
    raise AssertionError(f"{path.name} was never written")


async def until(condition, timeout_s: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


async def test_a_killed_daemons_commands_are_ended_by_the_next_one(harness):
    client = await harness.start("gate:\n  rules:\n    - {tool: run_command, decision: allow}\n")
    work = harness.env.workdir
    harness.model.enqueue(
        call("run_command", {"command": "echo $$ > shell.pid; sleep 300 & echo $! > child.pid; wait"}),
        "never asked for",
    )
    session = await client.call("session/create", {"cwd": str(work)})
    await client.call("turn/start", {"session_id": session.session_id, "text": "run it"})
    shell, child = await read_pid(work / "shell.pid"), await read_pid(work / "child.pid")

    harness.daemon.stop(signal.SIGKILL)
    await client.close()
    assert await until(lambda: not running(shell))  # the parent-death signal
    assert running(child)  # what the shell started is still there, re-parented

    harness.daemon = ScratchDaemon(harness.env).start()
    assert not running(child)  # ended before the new daemon answered
    assert "ended 1 command process groups left by a previous daemon" in harness.daemon.output()
    harness.client = await Client.connect(str(harness.env.socket))
    got = await harness.client.call("session/get", {"session_id": session.session_id})
    assert [(m.role, m.name, m.content) for m in got.messages if m.role == "tool"] == [
        ("tool", "run_command", "tool error: interrupted")
    ]


async def test_a_recorded_group_without_our_marker_is_left_alone(tmp_path):
    # Group ids are reused once a group is gone: a process that does not carry the recorded
    # command's marker is someone else's and must survive the clean-up. One that does is found
    # even when its group id was never recorded (the daemon died right after the spawn).
    stranger = await asyncio.create_subprocess_exec(
        "sleep", "30", start_new_session=True, env={**os.environ, MARKER_ENV: "another"}
    )
    try:
        assert end_leftover_groups([("recorded", stranger.pid)]) == []
        assert running(stranger.pid)
        assert end_leftover_groups([("another", None)]) == [stranger.pid]
        assert await stranger.wait() == -signal.SIGTERM
    finally:
        if stranger.returncode is None:
            stranger.kill()
            await stranger.wait()
