"""A scripted OpenAI-compatible model server for tests.

Queue replies (text, streamed deltas, tool calls, reasoning, HTTP errors,
delays, garbage); every request body is recorded so tests can assert exactly
what the model was sent. Runs in its own thread so blocking tests (the
`saturn` command in a subprocess) and async tests can both use it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import struct
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web


@dataclass
class Reply:
    text: str = ""
    reasoning: str = ""
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    """[{"name": ..., "arguments": {...} or "raw text"}]"""
    status: int = 200
    error: str = ""
    delay_s: float = 0.0
    """Wait this long before answering (tests of timeouts and budgets)."""
    chunk_chars: int = 4
    chunk_delay_s: float = 0.0
    """Wait this long between streamed chunks (a slow model writing, as a terminal sees it)."""
    raw: bytes | None = None
    """Send these bytes as the body instead (garbage tests)."""
    usage: tuple[int, int] = (10, 5)
    cache_n: int = 0
    """Prompt tokens reported as reused from the prompt cache (llama.cpp's timings.cache_n)."""
    reset: bool = False
    """Reset the connection (TCP RST) instead of answering, before any byte of a reply."""
    logprobs: list[dict[str, Any]] | None = None
    """Sent as the choice's logprobs.content (OpenAI's shape: token, logprob, top_logprobs)."""
    finish_reason: str = ""
    """The stream's finish_reason ("length": cut at the token cap); by default stop or tool_calls."""


def text(content: str, **kw: Any) -> Reply:
    return Reply(text=content, **kw)


def call(name: str, arguments: Any = None, **kw: Any) -> Reply:
    return Reply(tool_calls=[{"name": name, "arguments": arguments or {}}], **kw)


def calls(*pairs: tuple[str, Any], **kw: Any) -> Reply:
    return Reply(tool_calls=[{"name": n, "arguments": a} for n, a in pairs], **kw)


def error(status: int, message: str) -> Reply:
    return Reply(status=status, error=message)


def reset() -> Reply:
    """The server drops the connection, as a busy server does under a burst."""
    return Reply(reset=True)


class FakeModel:
    def __init__(self) -> None:
        self._replies: deque[Reply] = deque()
        self.requests: list[dict[str, Any]] = []
        self._choices: deque[Reply] = deque()
        self.choice_requests: list[dict[str, Any]] = []
        """The turns' short constrained decisions (ModelClient.choose), kept apart from `requests`
        so a script of passes is not thrown off by them."""
        self.raw_bodies: list[bytes] = []
        self.request_headers: list[dict[str, str]] = []
        self.timeline: list[tuple[float, float]] = []
        """(arrived, answered) per request, time.perf_counter(): harness overhead is the gaps."""
        self._lock = threading.Condition()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.request_seen = threading.Event()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> FakeModel:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(10)
        return self

    def stop(self) -> None:
        self._loop.call_soon_threadsafe(self._closing.set)
        if self._runner is not None:
            asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)

    def enqueue(self, *replies: Reply | str) -> None:
        with self._lock:
            for reply in replies:
                self._replies.append(text(reply) if isinstance(reply, str) else reply)

    def enqueue_choice(self, *replies: Reply | str) -> None:
        """Replies to the decisions (ModelClient.choose); with none queued, a decision is answered
        {"route": "answer"}, which changes nothing about the turn."""
        with self._lock:
            for reply in replies:
                self._choices.append(text(reply) if isinstance(reply, str) else reply)

    def wait_for_requests(self, count: int, timeout: float = 10) -> None:
        """Block until `count` requests have arrived."""
        with self._lock:
            if not self._lock.wait_for(lambda: len(self.requests) >= count, timeout):
                raise TimeoutError(f"the model got {len(self.requests)} requests, not {count}")

    def drop_pending(self) -> int:
        """Forgets the replies not asked for (a turn that ended early); returns how many."""
        with self._lock:
            dropped = len(self._replies)
            self._replies.clear()
            return dropped

    @property
    def pending(self) -> int:
        return len(self._replies)

    def assert_complete(self) -> None:
        assert not self._replies, f"{len(self._replies)} scripted replies were never asked for"

    async def _start(self) -> None:
        self._closing = asyncio.Event()
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_post("/v1/chat/completions", self._chat)
        app.router.add_get("/v1/models", self._models)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def _models(self, request: web.Request) -> web.Response:
        return web.json_response({"object": "list", "data": [{"id": "fake", "object": "model"}]})

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        arrived = time.perf_counter()
        response = await self._answer(request)
        self.timeline.append((arrived, time.perf_counter()))
        return response

    async def _answer(self, request: web.Request) -> web.StreamResponse:
        raw = await request.read()
        body = json.loads(raw)
        if _is_choice(body):
            with self._lock:
                self.choice_requests.append(body)
                chosen = self._choices.popleft() if self._choices else text(json.dumps({"route": "answer"}))
            if chosen.reset:
                return await _reset(request)
            if chosen.status >= 400:
                return web.json_response({"error": {"message": chosen.error}}, status=chosen.status)
            if chosen.raw is not None:
                return web.Response(body=chosen.raw, content_type="application/json")
            return web.json_response(_completion(chosen))
        with self._lock:
            self.raw_bodies.append(raw)
            self.request_headers.append(dict(request.headers))
            self.requests.append(body)
            reply = self._replies.popleft() if self._replies else None
            self._lock.notify_all()
        self.request_seen.set()
        if reply is None:
            return web.json_response(
                {"error": {"message": "fake model: no reply queued"}}, status=500
            )
        if reply.reset:
            return await _reset(request)
        if reply.delay_s:
            # A long delay must not outlive the test: stop() cuts it short.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._closing.wait(), reply.delay_s)
        if reply.status >= 400:
            return web.json_response({"error": {"message": reply.error}}, status=reply.status)
        if reply.raw is not None:
            return web.Response(body=reply.raw, content_type="text/event-stream")
        if not body.get("stream"):
            return web.json_response(_completion(reply))
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        try:
            for chunk in _chunks(reply):
                await response.write(b"data: " + json.dumps(chunk).encode() + b"\n\n")
                if reply.chunk_delay_s:
                    await asyncio.sleep(reply.chunk_delay_s)
            await response.write(b"data: [DONE]\n\n")
        except ConnectionResetError:
            pass  # the daemon went away mid-stream (a crash test killed it)
        return response


def _is_choice(body: dict[str, Any]) -> bool:
    schema = body.get("response_format") or {}
    return not body.get("stream") and (schema.get("json_schema") or {}).get("name") == "choice"


async def _reset(request: web.Request) -> web.StreamResponse:
    sock = request.transport.get_extra_info("socket") if request.transport else None
    if sock is not None:  # linger 0: close() sends RST, so the client reads ECONNRESET
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    if request.transport is not None:
        request.transport.abort()
    # What aiohttp does to a handler whose client went away: it ends quietly, nothing logged.
    raise asyncio.CancelledError


def _arguments_text(arguments: Any) -> str:
    return arguments if isinstance(arguments, str) else json.dumps(arguments)


def _chunks(reply: Reply) -> list[dict[str, Any]]:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    out = [chunk({"role": "assistant"})]
    size = max(1, reply.chunk_chars)
    for i in range(0, len(reply.reasoning), size):
        out.append(chunk({"reasoning_content": reply.reasoning[i : i + size]}))
    for i in range(0, len(reply.text), size):
        out.append(chunk({"content": reply.text[i : i + size]}))
    for index, tool_call in enumerate(reply.tool_calls):
        arguments = _arguments_text(tool_call["arguments"])
        half = len(arguments) // 2
        out.append(
            chunk(
                {
                    "tool_calls": [
                        {
                            "index": index,
                            "id": f"call_{index}_{tool_call['name']}",
                            "type": "function",
                            "function": {"name": tool_call["name"], "arguments": arguments[:half]},
                        }
                    ]
                }
            )
        )
        out.append(chunk({"tool_calls": [{"index": index, "function": {"arguments": arguments[half:]}}]}))
    out.append(chunk({}, reply.finish_reason or ("tool_calls" if reply.tool_calls else "stop")))
    if reply.logprobs is not None:
        out[-1]["choices"][0]["logprobs"] = {"content": reply.logprobs}
    out.append(
        {
            "choices": [],
            "usage": {"prompt_tokens": reply.usage[0], "completion_tokens": reply.usage[1]},
            "timings": {"cache_n": reply.cache_n, "prompt_n": reply.usage[0] - reply.cache_n},
        }
    )
    return out


def _completion(reply: Reply) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.text}
    if reply.tool_calls:
        message["tool_calls"] = [
            {
                "id": f"call_{i}_{c['name']}",
                "type": "function",
                "function": {"name": c["name"], "arguments": _arguments_text(c["arguments"])},
            }
            for i, c in enumerate(reply.tool_calls)
        ]
    choice: dict[str, Any] = {"index": 0, "message": message, "finish_reason": "stop"}
    if reply.logprobs is not None:
        choice["logprobs"] = {"content": reply.logprobs}
    return {
        "choices": [choice],
        "usage": {"prompt_tokens": reply.usage[0], "completion_tokens": reply.usage[1]},
    }
