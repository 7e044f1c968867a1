"""Starting, stopping and guarding the daemon."""

from __future__ import annotations

import asyncio
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.idle_rss import GOAL_MIB, rss_mib
from protocol.client import Client
from protocol.methods import SessionCreateParams, TurnStartParams
from saturnd.daemon import peer_allowed
from saturnd.store import Store
from saturnd.testing.fake_model import Reply
from saturnd.testing.scratch import ScratchDaemon


def test_socket_is_private(daemon):
    socket_mode = stat.S_IMODE(os.stat(daemon.scratch.socket).st_mode)
    folder_mode = stat.S_IMODE(os.stat(daemon.scratch.socket.parent).st_mode)
    assert (socket_mode, folder_mode) == (0o600, 0o700)


def test_peer_uid_rule():
    assert peer_allowed(1000, 1000)
    assert not peer_allowed(1001, 1000)
    assert not peer_allowed(None, 1000)


def test_a_second_daemon_reports_the_first(daemon):
    second = subprocess.run(
        [sys.executable, "-m", "saturnd"], env=daemon.scratch.env, capture_output=True, text=True, timeout=20
    )
    assert second.returncode != 0
    assert f"already running (pid {daemon.pid})" in second.stderr
    cli = daemon.scratch.saturn("daemon", "start")
    assert f"already running (pid {daemon.pid})" in cli.stdout


def test_a_killed_daemons_socket_and_lock_are_cleaned_up(saturn_env):
    first = ScratchDaemon(saturn_env).start()
    first.stop(signal.SIGKILL)
    assert saturn_env.socket.exists()  # left behind by the kill
    second = ScratchDaemon(saturn_env).start()
    status = saturn_env.saturn("daemon", "status")
    assert f"pid {second.pid}" in status.stdout
    second.stop()


async def test_status_reports_what_it_should(client, daemon, fake_model):
    status = await client.call("daemon/status")
    assert status.pid == daemon.pid
    assert status.version == "0.1.0"
    assert status.uptime_s >= 0 and status.session_count == 0
    assert (status.model.base_url, status.model.name, status.model.answers) == (fake_model.url, "fake", True)
    await client.call("session/create", SessionCreateParams(cwd="/tmp"))
    assert (await client.call("daemon/status")).session_count == 1


async def test_status_says_when_the_model_does_not_answer(saturn_env):
    saturn_env.write_config("model:\n  base_url: http://127.0.0.1:9/v1\n")
    running = ScratchDaemon(saturn_env).start()
    async with await Client.connect(str(saturn_env.socket)) as client:
        status = await client.call("daemon/status")
    running.stop()
    assert status.model.answers is False and status.model.detail


async def test_sigterm_interrupts_running_turns_and_removes_the_socket(daemon, fake_model, saturn_env):
    fake_model.enqueue(Reply(text="never finished", delay_s=30))
    async with await Client.connect(str(saturn_env.socket)) as client:
        session = await client.call("session/create", SessionCreateParams(cwd="/tmp"))
        started = await client.call("turn/start", TurnStartParams(session_id=session.session_id, text="hi"))
        await asyncio.to_thread(fake_model.request_seen.wait, 10)
        daemon.process.send_signal(signal.SIGTERM)
        events = [e async for e in client.turn_events(started.turn_id)]
    assert events[-1].event.status == "interrupted"
    assert daemon.process.wait(10) == 0
    assert not saturn_env.socket.exists()
    store = Store(saturn_env.data_dir / "saturn.db")
    assert store.turn(started.turn_id)["status"] == "interrupted"
    store.close()


def test_daemon_stop_and_start_through_the_cli(saturn_env):
    started = saturn_env.saturn("daemon", "start")
    assert started.returncode == 0 and "saturnd started (pid" in started.stdout
    status = saturn_env.saturn("daemon", "status")
    assert "running (pid" in status.stdout and "answers" in status.stdout
    stopped = saturn_env.saturn("daemon", "stop")
    assert "saturnd stopped" in stopped.stdout
    deadline = time.monotonic() + 5
    while saturn_env.socket.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not saturn_env.socket.exists()
    assert saturn_env.saturn("daemon", "status").returncode == 3


def test_a_broken_config_stops_the_daemon_and_says_why(saturn_env):
    saturn_env.write_config("runtime:\n  max_calls_per_pass: 99\n")
    foreground = subprocess.run(
        [sys.executable, "-m", "saturnd"], env=saturn_env.env, capture_output=True, text=True, timeout=20
    )
    assert foreground.returncode == 2
    assert "line 2: runtime.max_calls_per_pass: Expected `int` <= 50" in foreground.stderr
    assert not saturn_env.socket.exists()
    background = saturn_env.saturn("daemon", "start")
    assert background.returncode == 1
    assert "runtime.max_calls_per_pass" in background.stderr


def test_a_config_typo_stops_the_daemon_naming_file_line_and_allowed_keys(saturn_env):
    saturn_env.write_config("gate:\n  defaults:\n    wrte: allow\n")
    foreground = subprocess.run(
        [sys.executable, "-m", "saturnd"], env=saturn_env.env, capture_output=True, text=True, timeout=20
    )
    assert foreground.returncode == 2
    assert foreground.stderr.strip() == (
        f"saturnd: not starting: {saturn_env.home / 'config.yaml'}: line 3: gate.defaults.wrte:"
        " unknown key; expected one of: read_only, write, exec, egress, messaging, external"
    )


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the RSS from /proc (Linux)")
def test_an_idle_daemon_stays_within_its_memory_goal(daemon):
    # What only a turn, a web fetch or an MCP server needs is imported on first use.
    time.sleep(1)
    assert rss_mib(daemon.pid) <= GOAL_MIB


async def test_daemon_stop_during_a_running_turn_logs_no_traceback(saturn_env, fake_model):
    # A client still attached when the daemon stops: its handler used to be cancelled by the
    # loop's shutdown, and Python 3.11 logged that CancelledError as a traceback.
    assert saturn_env.saturn("daemon", "start").returncode == 0
    fake_model.enqueue(Reply(text="never finished", delay_s=30))
    async with await Client.connect(str(saturn_env.socket)) as client:
        session = await client.call("session/create", SessionCreateParams(cwd=str(saturn_env.workdir)))
        started = await client.call("turn/start", TurnStartParams(session_id=session.session_id, text="hi"))
        await asyncio.to_thread(fake_model.request_seen.wait, 10)
        stopped = await asyncio.to_thread(saturn_env.saturn, "daemon", "stop")
        assert "saturnd stopped" in stopped.stdout
        events = [e async for e in client.turn_events(started.turn_id)]
    assert events[-1].event.status == "interrupted"
    text = await asyncio.to_thread(_log_when_stopped, saturn_env.data_dir / "saturnd.log")
    assert "saturnd stopped" in text
    assert "Traceback" not in text and "CancelledError" not in text, text


def _log_when_stopped(log: Path, timeout_s: float = 10) -> str:
    deadline = time.monotonic() + timeout_s
    while "saturnd stopped" not in (text := log.read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)
    return text
