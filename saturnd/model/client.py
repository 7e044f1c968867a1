"""OpenAI-compatible chat completions over aiohttp, streamed (SSE).

Foreign exceptions (aiohttp, asyncio timeouts, bad JSON) are mapped to
ModelError subclasses here, at the edge, with the server's own message.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp
import tenacity
import yarl

from protocol.jsonrpc import ModelUnavailable
from saturnd.egress import EGRESS, attributed
from saturnd.model.embedded_server import DRAFT_SLOT, THINKING_SLOT
from saturnd.model.thinking_text import ThinkSplitter
from saturnd.model.types import ModelReply, TokenLogprob, ToolCall, Usage

DeltaSink = Callable[[str, str], None]
"""Called with ("thinking" | "response", text) as the reply streams."""

CONNECTION_RETRIES = 3
"""A server under a burst resets a connection now and then (4 of 450 turns): a request whose
reply had not begun is sent again this many times before the turn is told."""
RETRY_BACKOFF_S = 0.25
"""The first wait before a retry; it doubles each time (0.25, 0.5, 1 s)."""


class ModelError(ModelUnavailable):
    """The model server could not give a reply."""


class ModelConnectionLost(ModelError):
    """The connection failed before any byte of the reply arrived: the request may be sent again."""


class ModelHttpError(ModelError):
    def __init__(self, message: str, status: int, server_message: str, streamed: ModelReply | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.server_message = server_message
        self.streamed = streamed
        """What the reply had streamed before the server failed mid-reply (None: it failed first)."""

    @property
    def is_format_failure(self) -> bool:
        """llama.cpp answers 500 when the model's text does not parse as the template's tool format."""
        text = self.server_message.lower()
        return self.status == 500 and ("format" in text or "parse" in text)


class ModelClient:
    def __init__(
        self,
        base_url: str,
        name: str = "",
        api_key: str = "",
        timeout_s: float = 300.0,
        think_style: str = "chat_template_kwargs",
        temperature: float | None = 0.0,
        fresh_connections: bool = False,
        max_tokens: int | None = None,
        unix_socket: str = "",
        headers: dict[str, str] | None = None,
        prompt_slots: bool = False,
    ) -> None:
        """`unix_socket`: reach `base_url` through this socket (saturnd's own front door, which
        is not egress). `headers`: sent with every request. `prompt_slots`: the server is the
        embedded one, whose slots keep a thinking prompt apart from the others (DRAFT_SLOT)."""
        self.base_url = base_url.rstrip("/")
        self.name = name
        self.think_style = think_style
        self.temperature = temperature
        self.max_tokens = max_tokens
        self._api_key = api_key
        self._timeout_s = timeout_s
        self._fresh_connections = fresh_connections
        """llama.cpp's embedded server drops a kept-alive connection after a stream."""
        self._session: aiohttp.ClientSession | None = None
        self._unix_socket = unix_socket
        self._headers = dict(headers or {})
        self.prompt_slots = prompt_slots

    def _http(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            headers = {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}
            headers.update(self._headers)
            connector: aiohttp.BaseConnector = (
                aiohttp.UnixConnector(self._unix_socket) if self._unix_socket
                else aiohttp.TCPConnector(force_close=self._fresh_connections)
            )
            self._session = aiohttp.ClientSession(headers=headers, connector=connector)
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()

    async def probe(self, timeout_s: float = 2.0) -> tuple[bool, str]:
        """Whether the endpoint answers `GET /models` now, and what it said."""
        url = yarl.URL(f"{self.base_url}/models")
        status, size = "error", 0
        try:
            with attributed():
                async with self._http().get(
                    url, timeout=aiohttp.ClientTimeout(total=timeout_s)
                ) as response:
                    size = len(await response.read())
                    status = str(response.status)
            if response.status == 200:
                return True, "ok"
            return False, f"HTTP {response.status}"
        except (aiohttp.ClientError, TimeoutError, OSError) as exc:
            status = type(exc).__name__
            return False, _connection_reason(exc)
        finally:
            EGRESS.record(url.host or "", url.port or 0, "GET", 0, size, status)

    def request_body(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None,
        think: bool | None = None,
        response_format: dict[str, Any] | None = None,
        thinking_prompt: bool = False,
        tool_choice: str | None = None,
    ) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.name or "default",
            "messages": messages,
            "stream": True,
            "stream_options": {"include_usage": True},
        }
        if self.temperature is not None:
            body["temperature"] = self.temperature
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        if tools:
            body["tools"] = tools
            if tool_choice:
                body["tool_choice"] = tool_choice
        if response_format is not None:
            body["response_format"] = response_format
        if think is not None:
            _apply_think_switch(body, self.think_style, think)
        if self.prompt_slots:
            body["id_slot"] = THINKING_SLOT if thinking_prompt else DRAFT_SLOT
        return body

    async def complete(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None = None,
        think: bool | None = None,
        on_delta: DeltaSink | None = None,
        response_format: dict[str, Any] | None = None,
        thinking_prompt: bool = False,
        tool_choice: str | None = None,
        max_tokens: int | None = None,
    ) -> ModelReply:
        """`thinking_prompt`: the messages are a thinking call's, whose prompt differs from the
        others' ahead of the turn's ground (see `prompt_slots`). `tool_choice`: "required" makes
        the reply call one of `tools` (the first move chose a change or a message). `max_tokens`:
        this reply's cap, below the configured one."""
        body = self.request_body(messages, tools, think, response_format, thinking_prompt, tool_choice)
        if max_tokens is not None:
            body["max_tokens"] = min(max_tokens, body.get("max_tokens", max_tokens))
        return await self._send(body, on_delta)

    async def choose(
        self,
        messages: list[dict[str, Any]],
        schema: dict[str, Any],
        max_tokens: int = 16,
        top_logprobs: int = 10,
    ) -> ModelReply:
        """One short decision: the reply is JSON under `schema` (the server's grammar), written at
        temperature 0 without thinking or tools, in one piece (not streamed), with each token's
        `top_logprobs` likeliest alternatives in `reply.logprobs` (None when the server ignores
        the request). On the embedded server it takes the thinking slot: its prompt is unlike
        the turn's, and in the draft slot it would push out the turn's cached ground."""
        body = self.request_body(
            messages, None, think=False,
            response_format={"type": "json_schema", "json_schema": {"name": "choice", "schema": schema}},
            thinking_prompt=True,
        )
        body.pop("stream_options", None)
        body.update(stream=False, temperature=0.0, max_tokens=max_tokens, logprobs=True, top_logprobs=top_logprobs)
        return await self._send(body, None)

    async def _send(self, body: dict[str, Any], on_delta: DeltaSink | None) -> ModelReply:
        """POST `body`; a connection lost before the reply began is tried again."""
        url = yarl.URL(f"{self.base_url}/chat/completions")
        retrying = tenacity.AsyncRetrying(
            retry=tenacity.retry_if_exception_type(ModelConnectionLost),
            stop=tenacity.stop_after_attempt(CONNECTION_RETRIES + 1),
            wait=tenacity.wait_exponential(multiplier=RETRY_BACKOFF_S, min=RETRY_BACKOFF_S),
            reraise=True,
        )
        return await retrying(self._attempt, url, json.dumps(body).encode(), on_delta)

    async def _attempt(self, url: yarl.URL, data: bytes, on_delta: DeltaSink | None) -> ModelReply:
        """One POST; each is its own row in the egress log."""
        status = "error"
        meter = _Meter()
        try:
            with attributed():
                reply = await self._post(url, data, on_delta, meter)
            status = "200"
            return reply
        except ModelHttpError as exc:
            status = str(exc.status)
            raise
        except ModelError as exc:
            status = type(exc.__cause__ or exc).__name__
            raise
        finally:
            if not self._unix_socket:
                EGRESS.record(url.host or "", url.port or 0, "POST", len(data), meter.bytes_in, status)

    @contextlib.asynccontextmanager
    async def forward(self, body: bytes) -> AsyncIterator[aiohttp.ClientResponse]:
        """POST a caller's own chat completions body as it is, and hand back the server's
        response to be read as it comes (the front door's pass-through)."""
        url = yarl.URL(f"{self.base_url}/chat/completions")
        status, size = "error", 0
        try:
            with attributed():
                async with self._http().post(
                    url, data=body, headers={"Content-Type": "application/json"},
                    timeout=aiohttp.ClientTimeout(total=self._timeout_s, sock_connect=10),
                ) as response:
                    status = str(response.status)
                    yield response
                    size = response.content.total_bytes
        except (aiohttp.ClientError, OSError, TimeoutError) as exc:
            status = type(exc).__name__
            raise ModelError(
                f"cannot reach the model server at {self.base_url}: {_connection_reason(exc)}"
            ) from exc
        finally:
            EGRESS.record(url.host or "", url.port or 0, "POST", len(body), size, status)

    async def _post(
        self, url: yarl.URL, data: bytes, on_delta: DeltaSink | None, meter: _Meter
    ) -> ModelReply:
        try:
            async with self._http().post(
                url,
                data=data,
                headers={"Content-Type": "application/json"},
                timeout=aiohttp.ClientTimeout(total=self._timeout_s, sock_connect=10),
            ) as response:
                meter.answered = True
                if response.status >= 400:
                    text = await response.text(errors="replace")
                    server_message = _server_message(text)
                    raise ModelHttpError(
                        f"model server at {self.base_url} answered HTTP {response.status}:"
                        f" {server_message}",
                        response.status,
                        server_message,
                    )
                if response.content_type == "application/json":
                    raw = await response.read()
                    meter.bytes_in = len(raw)
                    return _reply_from_json(json.loads(raw), on_delta)
                return await _read_stream(response, on_delta, meter)
        except ModelError:
            raise
        except TimeoutError as exc:
            raise ModelError(
                f"model server at {self.base_url} did not answer within {self._timeout_s:g}s"
            ) from exc
        except (aiohttp.ClientError, OSError) as exc:
            lost = isinstance(exc, aiohttp.ClientConnectionError | OSError) and not meter.answered
            raise (ModelConnectionLost if lost else ModelError)(
                f"cannot reach the model server at {self.base_url}: {_connection_reason(exc)}"
            ) from exc
        except (ValueError, KeyError, TypeError) as exc:
            raise ModelError(
                f"model server at {self.base_url} sent a reply Saturn cannot read: {exc}"
            ) from exc


def _apply_think_switch(body: dict[str, Any], style: str, think: bool) -> None:
    if style == "chat_template_kwargs":
        body["chat_template_kwargs"] = {"enable_thinking": think}
    elif style == "ollama":
        body["think"] = think
    elif style == "soft_switch":
        switch = "/think" if think else "/no_think"
        messages = body["messages"] = [dict(m) for m in body["messages"]]
        for message in reversed(messages):
            if message["role"] == "user":
                message["content"] = f"{message['content']} {switch}"
                break


def _connection_reason(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError):
        return "timed out"
    if isinstance(exc, aiohttp.ClientConnectorError):
        return getattr(exc.os_error, "strerror", None) or "connection failed"
    return str(exc) or type(exc).__name__


def _server_message(text: str) -> str:
    try:
        data = json.loads(text)
    except ValueError:
        return text.strip()[:500] or "(empty body)"
    if isinstance(data, dict):
        error = data.get("error", data)
        if isinstance(error, dict) and "message" in error:
            return str(error["message"])[:500]
        if isinstance(error, str):
            return error[:500]
    return text.strip()[:500]


class _Accumulator:
    """Builds one ModelReply from streamed chunks."""

    def __init__(self, on_delta: DeltaSink | None) -> None:
        self._on_delta = on_delta
        self._splitter = ThinkSplitter()
        self._content: list[str] = []
        self._reasoning: list[str] = []
        self._calls: dict[int, dict[str, str]] = {}
        self._thinking_started: float | None = None
        self._thinking_s = 0.0
        self.usage = Usage()
        self.finish_reason = ""
        self._logprobs: list[TokenLogprob] | None = None

    def _emit(self, kind: str, text: str) -> None:
        if not text:
            return
        if kind == "thinking":
            self._reasoning.append(text)
            if self._thinking_started is None:
                self._thinking_started = time.monotonic()
        else:
            self._content.append(text)
            self._stop_thinking_clock()
        if self._on_delta is not None:
            self._on_delta(kind, text)

    def _stop_thinking_clock(self) -> None:
        if self._thinking_started is not None:
            self._thinking_s += time.monotonic() - self._thinking_started
            self._thinking_started = None

    def add_delta(self, delta: dict[str, Any]) -> None:
        reasoning = delta.get("reasoning_content") or delta.get("reasoning")
        if reasoning:
            self._emit("thinking", reasoning)
        content = delta.get("content")
        if content:
            for kind, text in self._splitter.feed(content):
                self._emit(kind, text)
        for call in delta.get("tool_calls") or []:
            slot = self._calls.setdefault(
                int(call.get("index", len(self._calls))), {"id": "", "name": "", "arguments": ""}
            )
            slot["id"] = call.get("id") or slot["id"]
            function = call.get("function") or {}
            slot["name"] += function.get("name") or ""
            arguments = function.get("arguments")
            if isinstance(arguments, dict):
                arguments = json.dumps(arguments)
            slot["arguments"] += arguments or ""

    def add_logprobs(self, logprobs: dict[str, Any] | None) -> None:
        """OpenAI's choice.logprobs.content: [{token, logprob, top_logprobs: [{token, logprob}]}]."""
        for item in (logprobs or {}).get("content") or []:
            top = tuple(
                (str(alt.get("token", "")), float(alt.get("logprob", 0.0)))
                for alt in item.get("top_logprobs") or [] if isinstance(alt, dict)
            )
            if self._logprobs is None:
                self._logprobs = []
            self._logprobs.append(TokenLogprob(str(item.get("token", "")), float(item.get("logprob", 0.0)), top))

    def add_usage(self, usage: dict[str, Any] | None, timings: dict[str, Any] | None = None) -> None:
        """OpenAI's usage; the cached share from prompt_tokens_details, or llama.cpp's timings."""
        if usage:
            details = usage.get("prompt_tokens_details") or {}
            self.usage = Usage(
                int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0),
                int(details.get("cached_tokens") or 0),
            )
        if timings and not self.usage.tokens_cached and timings.get("cache_n"):
            self.usage.tokens_cached = int(timings["cache_n"])

    def reply(self) -> ModelReply:
        for kind, text in self._splitter.flush():
            self._emit(kind, text)
        self._stop_thinking_clock()
        calls = [
            ToolCall(id=slot["id"] or f"call_{index}", name=slot["name"], arguments=slot["arguments"])
            for index, slot in sorted(self._calls.items())
        ]
        return ModelReply(
            content="".join(self._content).strip(),
            reasoning="".join(self._reasoning).strip(),
            tool_calls=calls,
            usage=self.usage,
            finish_reason=self.finish_reason,
            thinking_s=self._thinking_s,
            logprobs=self._logprobs,
        )


class _Meter:
    """Bytes read from the server, for the egress log."""

    def __init__(self) -> None:
        self.bytes_in = 0
        self.answered = False
        """The response's status line arrived: from here on the request is not sent again."""


async def _read_stream(
    response: aiohttp.ClientResponse, on_delta: DeltaSink | None, meter: _Meter
) -> ModelReply:
    acc = _Accumulator(on_delta)
    async for raw_line in response.content:
        meter.bytes_in += len(raw_line)
        line = raw_line.strip()
        if not line.startswith(b"data:"):
            continue
        data = line[5:].strip()
        if data == b"[DONE]":
            break
        chunk = json.loads(data)
        if "error" in chunk:
            message = _server_message(json.dumps(chunk))
            raise ModelHttpError(f"model server failed mid-reply: {message}", 500, message, acc.reply())
        acc.add_usage(chunk.get("usage"), chunk.get("timings"))
        for choice in chunk.get("choices") or []:
            acc.add_delta(choice.get("delta") or {})
            acc.add_logprobs(choice.get("logprobs"))
            acc.finish_reason = choice.get("finish_reason") or acc.finish_reason
        await asyncio.sleep(0)
    return acc.reply()


def _reply_from_json(data: dict[str, Any], on_delta: DeltaSink | None) -> ModelReply:
    acc = _Accumulator(on_delta)
    acc.add_usage(data.get("usage"), data.get("timings"))
    for choice in data.get("choices") or []:
        message = choice.get("message") or {}
        for index, call in enumerate(message.get("tool_calls") or []):
            call.setdefault("index", index)
        acc.add_delta(message)
        acc.add_logprobs(choice.get("logprobs"))
        acc.finish_reason = choice.get("finish_reason") or ""
    return acc.reply()
