"""End to end on the real embedded models (llama.cpp in a supervised child).

Skipped, with the reason, where the model packages are not installed; CI
installs them, so there these run.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from protocol.client import Client
from protocol.jsonrpc import Busy
from saturnd.model import weights
from saturnd.testing.scratch import ScratchDaemon
from tests.conftest import SaturnEnv, of_type

SMALL, LARGE = "qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b"

pytestmark = [pytest.mark.slow, pytest.mark.real_model]


def needs(model_id: str) -> pytest.MarkDecorator:
    spec = weights.CATALOGUE[model_id]
    return pytest.mark.skipif(
        not weights.is_installed(model_id),
        reason=f"{model_id} is not installed ({spec.install_hint})",
    )


async def wait_ready(client: Client, within_s: float = 240) -> object:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        status = await client.call("daemon/status")
        if status.model.answers:
            return status
        await asyncio.sleep(0.5)
    raise AssertionError(f"the embedded model never answered: {status.model}")


async def embedded(
    saturn_env: SaturnEnv, model_id: str, model_extra: str = ""
) -> AsyncIterator[tuple[ScratchDaemon, Client]]:
    saturn_env.write_config(f"model:\n  embedded: {model_id}\n{model_extra}")
    daemon = ScratchDaemon(saturn_env).start()
    client = await Client.connect(str(saturn_env.socket))
    await wait_ready(client)
    yield daemon, client
    await client.close()
    daemon.stop()


async def ask(client: Client, cwd: str, text: str) -> tuple[str, list]:
    session = await client.call("session/create", {"cwd": cwd})
    started = await client.call("turn/start", {"session_id": session.session_id, "text": text, "headless": True})
    events = [e async for e in client.turn_events(started.turn_id)]
    return started.turn_id, events


@needs(SMALL)
async def test_small_model_chat_answer_and_status(saturn_env):
    async for _, client in embedded(saturn_env, SMALL, "  threads: 1\n"):
        status = await client.call("daemon/status")
        assert status.model.embedded and status.model.name == SMALL and status.model.state == "ready"
        assert status.model.threads == 1
        cmdline = Path(f"/proc/{status.model.pid}/cmdline").read_bytes().split(b"\0")  # noqa: ASYNC240 (a tiny /proc read)
        assert cmdline[cmdline.index(b"--threads") + 1] == b"1"
        assert status.model.base_url.startswith("http://127.0.0.1:")
        _, events = await ask(client, str(saturn_env.workdir), "What is the capital of France? One word.")
        assert "paris" in of_type(events, "answer")[0].text.lower()
        assert of_type(events, "receipt")[0].model_calls == 1
        models = await client.call("models/list")
        assert [(m.model_id, m.active, m.assembled) for m in models.models if m.model_id == SMALL] == [(SMALL, True, True)]


@needs(SMALL)
async def test_a_native_format_failure_is_kept_or_retried_in_constrained_mode(saturn_env):
    # auto: native first (the embedded default is constrained from the start). On this request the
    # 1.5B writes a call and then a code fence llama.cpp cannot parse: either the call had arrived
    # whole and is kept, or the pass is retried in constrained mode. The scripted retry is
    # tests/test_turn_loop.py's; this one shows both hold against the real server.
    async for _, client in embedded(saturn_env, SMALL, "  tool_mode: auto\nruntime:\n  think: off\n  first_move: false\n"):
        turn_id, events = await ask(client, str(saturn_env.workdir),
                                    "Write a JavaScript function that adds two numbers.")
        assert of_type(events, "turn_ended")[0].status == "completed"
        assert of_type(events, "answer")[0].text.strip()
        trace = await client.call("trace/get", {"turn_id": turn_id})
        first = trace.passes[0]
        assert first.calls or "retried once in constrained mode" in first.note


@needs(SMALL)
async def test_a_killed_model_server_is_restarted_and_the_next_turn_works(saturn_env):
    async for _, client in embedded(saturn_env, SMALL):
        before = await client.call("daemon/status")
        os.kill(before.model.pid, signal.SIGKILL)
        deadline = time.monotonic() + 120
        while True:
            status = await client.call("daemon/status")
            if status.model.restarts == 1 and status.model.answers:
                break
            assert time.monotonic() < deadline, f"not restarted: {status.model}"
            await asyncio.sleep(0.5)
        assert status.model.pid != before.model.pid
        _, events = await ask(client, str(saturn_env.workdir), "What is the capital of France? One word.")
        assert "paris" in of_type(events, "answer")[0].text.lower()


@needs(SMALL)
async def test_a_second_turn_while_the_model_is_still_loading_is_refused_as_busy(saturn_env):
    saturn_env.write_config(f"model:\n  embedded: {SMALL}\n")
    daemon = ScratchDaemon(saturn_env).start()
    client, other = [await Client.connect(str(saturn_env.socket)) for _ in range(2)]
    try:
        assert (await client.call("daemon/status")).model.state in ("stopped", "starting")
        session = await client.call("session/create", {"cwd": str(saturn_env.workdir)})
        start = {"session_id": session.session_id, "text": "Say hi.", "headless": True}
        first = asyncio.create_task(client.call("turn/start", start))
        await asyncio.sleep(0.2)  # the first is now waiting for the model
        with pytest.raises(Busy):
            await other.call("turn/start", start)
        events = [e async for e in client.turn_events((await first).turn_id)]
        assert of_type(events, "turn_ended")[0].status == "completed"
    finally:
        await client.close()
        await other.close()
        daemon.stop()


@needs(LARGE)
async def test_an_errand_reads_a_file_and_answers_from_it(saturn_env):
    (saturn_env.workdir / "shopping.txt").write_text("milk\neggs\nflour\n")
    (saturn_env.workdir / "notes.txt").write_text("Dentist Friday 9am\n")
    async for _, client in embedded(saturn_env, LARGE):
        turn_id, events = await ask(client, str(saturn_env.workdir), "Read shopping.txt and tell me what is on it.")
        finished = of_type(events, "tool_finished")
        trace = await client.call("trace/get", {"turn_id": turn_id})
        # From the file: read by the model, or shown whole by the ground (then no call is needed).
        read = [(f.name, f.fate) for f in finished][:1] == [("read_file", "ran")]
        assert read or "shopping.txt:1-3" in trace.ground.excerpts, of_type(events, "answer")
        assert "milk" in of_type(events, "answer")[0].text.lower()
        # Everyday phrasing, no file named: the ground finds notes.txt (issue 12's first table).
        _, events = await ask(client, str(saturn_env.workdir), "When is my dentist appointment?")
        assert "friday" in of_type(events, "answer")[0].text.lower()
