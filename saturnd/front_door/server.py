"""The front door: OpenAI-compatible HTTP on a unix socket beside saturnd's own, and optionally
on a loopback TCP port behind a bearer token.

A request runs the whole agent loop, headless, in a session of its own, and comes back as a
chat completion (streamed or not) with usage filled in. Each pass the loop makes is a request
to this same door carrying the daemon's internal header: seeing it, the door skips everything
it would add (the ground's system prompt and memory, the loop itself) and relays the request
to the model as it is, so nothing is added twice and the loop never calls itself. When the loop
produces nothing (its first pass failed), the caller's request goes to the model as it came.

aiohttp's server is imported only here, and this module only when the front door is enabled.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import os
import secrets
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec
from aiohttp import web

from protocol.events import Answer, Event, PassStarted, Receipt, ResponseDelta, TurnEnded, TurnEvent
from protocol.jsonrpc import InvalidParams, SaturnError, decode_incoming
from saturnd.front_door.shapes import (
    CompletionRequest,
    Reply,
    error_body,
    models_list,
    read_request,
)
from saturnd.model.client import ModelError

if TYPE_CHECKING:
    from saturnd.service import Saturn

log = logging.getLogger("saturnd.front_door")

INTERNAL_HEADER = "X-Saturn-Internal"
"""Marks the loop's own passes; its value is a secret of this daemon's run, so no one else can
skip the loop with it."""


class TurnFeed:
    """A turn's subscriber that hands its events to the request waiting on them."""

    answering = False
    """Nobody behind it can approve a call or answer a question (the turn is headless anyway)."""

    def __init__(self) -> None:
        self._events: asyncio.Queue[Event] = asyncio.Queue()

    def send(self, line: bytes) -> bool:
        incoming = decode_incoming(line)
        self._events.put_nowait(msgspec.json.decode(incoming.params, type=TurnEvent).event)
        return True

    def follow(self, turn_id: str) -> None:
        pass

    def unfollow(self, turn_id: str) -> None:
        pass

    async def events(self) -> AsyncIterator[Event]:
        """Up to and including turn_ended."""
        while True:
            event = await self._events.get()
            yield event
            if isinstance(event, TurnEnded):
                return


class FrontDoor:
    def __init__(self, saturn: Saturn, socket: Path, tcp_port: int = 0, token: str = "") -> None:
        self.saturn = saturn
        self.socket = socket
        self.tcp_port = tcp_port
        self._token = token
        self._internal = {INTERNAL_HEADER: secrets.token_urlsafe(24)}
        self._runners: list[web.AppRunner] = []
        self._created = int(time.time())

    async def start(self) -> None:
        runner = await self._runner(self._app(token=""))
        with contextlib.suppress(FileNotFoundError):
            self.socket.unlink()  # the instance lock is ours: a socket here is a dead daemon's
        old_umask = os.umask(0o177)
        try:
            await web.UnixSite(runner, str(self.socket)).start()
        finally:
            os.umask(old_umask)
        os.chmod(self.socket, 0o600)
        if self.tcp_port:
            tcp = await self._runner(self._app(token=self._token))
            await web.TCPSite(tcp, "127.0.0.1", self.tcp_port).start()
        log.info("front door on %s%s", self.socket,
                 f" and http://127.0.0.1:{self.tcp_port}/v1" if self.tcp_port else "")

    async def close(self) -> None:
        for runner in self._runners:
            await runner.cleanup()
        with contextlib.suppress(FileNotFoundError):
            self.socket.unlink()

    async def _runner(self, app: web.Application) -> web.AppRunner:
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=5)
        await runner.setup()
        self._runners.append(runner)
        return runner

    def _app(self, token: str) -> web.Application:
        """`token`: required as `Authorization: Bearer <token>` (the TCP port); empty: none
        (the unix socket, which only its owner can open)."""
        app = web.Application(middlewares=[_bearer_token(token)] if token else [])
        app.router.add_get("/v1/models", self.models)
        app.router.add_post("/v1/chat/completions", self.chat_completions)
        return app

    async def models(self, request: web.Request) -> web.Response:
        return web.json_response(models_list(self._created))

    async def chat_completions(self, request: web.Request) -> web.StreamResponse:
        body = await request.read()
        internal = request.headers.get(INTERNAL_HEADER)
        if internal is not None:
            if not hmac.compare_digest(internal, self._internal[INTERNAL_HEADER]):
                return _error(403, f"wrong {INTERNAL_HEADER} header", "permission_error")
            return await self._relay(request, body)
        try:
            decoded = json.loads(body)
        except ValueError as exc:
            return _error(400, f"the body is not JSON: {exc}")
        try:
            asked = read_request(decoded)
        except InvalidParams as exc:
            return _error(400, exc.message)
        return await self._run_loop(request, asked, body)

    async def _run_loop(
        self, request: web.Request, asked: CompletionRequest, body: bytes
    ) -> web.StreamResponse:
        try:
            model = await self.saturn.endpoint.client()
        except SaturnError as exc:
            return _error(503, exc.message, "server_error")
        passes = self.saturn.endpoint.through_front_door(model.name, self.socket, self._internal)
        feed = TurnFeed()
        try:
            turn_id, session_id = await self.saturn.start_front_door_turn(
                feed, self._cwd(), asked.text, asked.history, passes
            )
            reply = Reply.for_turn(turn_id, asked.model)
            ids = {"turn_id": turn_id, "session_id": session_id}
            if asked.stream:
                return await self._stream(request, feed, reply, ids, body)
            return await self._complete(request, feed, reply, ids, body)
        finally:
            await passes.close()

    def _cwd(self) -> str:
        configured = self.saturn.config.front_door.cwd
        return os.path.expanduser(configured) if configured else str(self.saturn.paths.home)

    async def _complete(
        self, request: web.Request, feed: TurnFeed, reply: Reply, ids: dict[str, str], body: bytes
    ) -> web.StreamResponse:
        answer, note, receipt, ended = "", "", Receipt(), TurnEnded(status="failed")
        async for event in feed.events():
            match event:
                case Answer():
                    answer, note = event.text, event.note
                case Receipt():
                    receipt = event
                case TurnEnded():
                    ended = event
        if ended.status == "failed" and not answer:
            log.info("front door: the loop produced nothing (%s); passing the request through", ended.error)
            return await self._relay(request, body)
        saturn = {**ids, "status": ended.status, "note": note}
        return web.json_response(reply.completion(answer, receipt, saturn))

    async def _stream(
        self, request: web.Request, feed: TurnFeed, reply: Reply, ids: dict[str, str], body: bytes
    ) -> web.StreamResponse:
        """Deltas as they come, like `saturn -p`: a pass that spoke before calling a tool is
        followed by a blank line, and an answer that is not what streamed last (a bound, a
        replaced answer) is sent after it."""
        stream = SseStream(request, reply)
        pass_text, note, receipt = "", "", Receipt()
        ended = TurnEnded(status="failed")
        async for event in feed.events():
            match event:
                case PassStarted() if pass_text:
                    await stream.send("\n\n")
                    pass_text = ""
                case ResponseDelta(text=text):
                    await stream.send(text)
                    pass_text += text
                case Answer():
                    note = event.note
                    if event.text != pass_text:
                        await stream.send(("\n\n" if pass_text else "") + event.text)
                case Receipt():
                    receipt = event
                case TurnEnded():
                    ended = event
        if ended.status == "failed" and not stream.started:
            log.info("front door: the loop produced nothing (%s); passing the request through", ended.error)
            return await self._relay(request, body)
        saturn = {**ids, "status": ended.status, "note": note, "error": ended.error}
        return await stream.finish(receipt, saturn)

    async def _relay(self, request: web.Request, body: bytes) -> web.StreamResponse:
        """The request to the model as it is, and the model's response back as it comes."""
        try:
            model = await self.saturn.endpoint.client()
            async with model.forward(body) as upstream:
                response = web.StreamResponse(status=upstream.status, headers={
                    "Content-Type": upstream.headers.get("Content-Type", "application/json"),
                })
                await response.prepare(request)
                async for data in upstream.content.iter_any():
                    await response.write(data)
                await response.write_eof()
                return response
        except ModelError as exc:
            return _error(502, exc.message, "server_error")
        except SaturnError as exc:
            return _error(503, exc.message, "server_error")


class SseStream:
    """A chat-completion stream (server-sent events), opened with its first delta."""

    def __init__(self, request: web.Request, reply: Reply) -> None:
        self._request = request
        self._reply = reply
        self._response: web.StreamResponse | None = None

    @property
    def started(self) -> bool:
        return self._response is not None

    async def send(self, text: str) -> None:
        await self._write(self._reply.chunk({"content": text}))

    async def finish(self, receipt: Receipt, saturn: dict[str, Any]) -> web.StreamResponse:
        await self._write(self._reply.chunk({}, "stop", receipt, saturn))
        response = await self._open()
        await response.write(b"data: [DONE]\n\n")
        await response.write_eof()
        return response

    async def _open(self) -> web.StreamResponse:
        if self._response is None:
            self._response = web.StreamResponse(headers={
                "Content-Type": "text/event-stream", "Cache-Control": "no-cache",
            })
            await self._response.prepare(self._request)
            await self._event(self._reply.chunk({"role": "assistant", "content": ""}))
        return self._response

    async def _write(self, chunk: dict[str, Any]) -> None:
        await self._open()
        await self._event(chunk)

    async def _event(self, chunk: dict[str, Any]) -> None:
        assert self._response is not None
        await self._response.write(b"data: " + json.dumps(chunk).encode() + b"\n\n")


def _bearer_token(token: str) -> Any:
    expected = f"Bearer {token}".encode()

    @web.middleware
    async def require_token(request: web.Request, handler: Any) -> web.StreamResponse:
        given = request.headers.get("Authorization", "").encode()
        if not hmac.compare_digest(given, expected):
            return _error(401, "missing or wrong bearer token", "invalid_request_error", "invalid_api_key")
        response: web.StreamResponse = await handler(request)
        return response

    return require_token


def _error(status: int, message: str, kind: str = "invalid_request_error", code: str | None = None) -> web.Response:
    return web.json_response(error_body(message, kind, code), status=status)
