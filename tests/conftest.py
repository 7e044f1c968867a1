"""Fixtures: the scripted model server, a temp Saturn home, the real saturnd process."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass

import pytest

from protocol.client import Client
from saturnd.model.client import ModelClient
from saturnd.testing.fake_model import FakeModel
from saturnd.testing.scratch import ScratchDaemon, ScratchHome


@pytest.fixture
def fake_model() -> Iterator[FakeModel]:
    model = FakeModel().start()
    yield model
    model.stop()


@pytest.fixture
async def model(fake_model: FakeModel) -> AsyncIterator[ModelClient]:
    """A client of the scripted model server."""
    client = ModelClient(fake_model.url, name="fake")
    yield client
    await client.close()


class SaturnEnv(ScratchHome):
    """A scratch home that can also run the `saturn` command in its working folder."""

    def saturn(self, *args: str, input: str | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "clients.cli.main", *args],
            env=self.env,
            cwd=self.workdir,
            capture_output=True,
            text=True,
            input=input,
            timeout=timeout,
        )


@pytest.fixture
def saturn_env(fake_model: FakeModel) -> Iterator[SaturnEnv]:
    with SaturnEnv() as env:
        env.write_config(f"model:\n  base_url: {fake_model.url}\n  name: fake\nruntime:\n  think: off\n")
        yield env
        _stop_any_daemon(env)


def _stop_any_daemon(env: SaturnEnv) -> None:
    """`saturn -p` may have started a daemon of its own in this home."""
    lock = env.socket.parent / "saturnd.lock"
    try:
        pid = int(lock.read_text().strip())
    except (OSError, ValueError):
        return
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


@pytest.fixture
def daemon(saturn_env: SaturnEnv) -> Iterator[ScratchDaemon]:
    running = ScratchDaemon(saturn_env).start()
    yield running
    running.stop()


@pytest.fixture
async def client(daemon: ScratchDaemon) -> AsyncIterator[Client]:
    connected = await Client.connect(str(daemon.scratch.socket))
    yield connected
    await connected.close()


@dataclass
class Harness:
    """A daemon with a given config, a connected client, the scripted model and helpers."""

    env: SaturnEnv
    model: FakeModel
    daemon: ScratchDaemon | None = None
    client: Client | None = None

    async def start(
        self, config_extra: str = "", model_extra: str = "", runtime_extra: str = "", think: str = "off",
        tools_extra: str = "",
    ) -> Client:
        """`config_extra`: more top-level sections; `model_extra`, `runtime_extra`, `tools_extra`:
        more keys of those sections. Thinking is off unless asked for: most tests script one reply
        per pass."""
        if "think:" not in runtime_extra:
            runtime_extra = f"  think: {think}\n{runtime_extra}"
        self.env.write_config(
            f"model:\n  base_url: {self.model.url}\n  name: fake\n{model_extra}"
            f"runtime:\n{runtime_extra}"
            "tools:\n  modules: [tests.scripted_tools]\n" + tools_extra + config_extra
        )
        self.daemon = ScratchDaemon(self.env).start()
        self.client = await Client.connect(str(self.env.socket))
        return self.client

    async def turn(self, text: str, **params: object) -> tuple[str, list]:
        """Run one turn in a new session; returns (turn_id, its events)."""
        assert self.client is not None
        session = await self.client.call("session/create", {"cwd": str(self.env.workdir)})
        started = await self.client.call(
            "turn/start", {"session_id": session.session_id, "text": text, **params}
        )
        events = [e async for e in self.client.turn_events(started.turn_id)]
        return started.turn_id, events

    def sent(self, index: int) -> list[dict]:
        """The messages the model was sent on request `index`, without the system prompt."""
        return self.model.requests[index]["messages"][1:]


@pytest.fixture
async def harness(saturn_env: SaturnEnv, fake_model: FakeModel) -> AsyncIterator[Harness]:
    running = Harness(saturn_env, fake_model)
    yield running
    if running.client is not None:
        await running.client.close()
    if running.daemon is not None:
        running.daemon.stop()


def of_type(events: list, tag: str) -> list:
    return [e.event for e in events if e.event.__struct_config__.tag == tag]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # Real-model tests take minutes on 2 cores: the quick loop (-m "not slow") skips them.
    for item in items:
        if item.get_closest_marker("real_model"):
            item.add_marker(pytest.mark.slow)
