"""MCP servers as Saturn tools: each stdio server's tools appear as `server.tool`.

One long-lived task per server owns the `stdio_client` and `ClientSession`
contexts (anyio task groups must be entered and left by the same task); calls
are made from the caller's task on the live session, raced against the
server's death so that a crash never hangs a turn. A server that exits is
started again on its next use; one that cannot start is logged and its tools
are left out. Servers' stderr goes to the hub's log file (or nowhere), never to
the terminal.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import time
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, TypeVar, cast

import anyio
import msgspec
from mcp import ClientSession, McpError, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp.shared.message import SessionMessage

from machine.private_files import private_file
from saturnd.tools.mcp_schema import clean_schema, params_type
from saturnd.tools.registry import Tool, ToolEnv, ToolFailure

log = logging.getLogger(__name__)

START_TIMEOUT_S = 30.0
"""Start-up (spawn, initialize, list tools) of one server."""
STOP_TIMEOUT_S = 10.0
"""Closing one server; the mcp client itself escalates to SIGTERM/SIGKILL after 2 s."""
DESCRIPTION_CHARS = 80

T = TypeVar("T")


@dataclass
class McpServerConfig:
    name: str
    command: list[str]
    env: dict[str, str] = field(default_factory=dict)
    """Added to the mcp client's minimal inherited environment (HOME, PATH, USER, ...)."""
    cwd: str | None = None
    description_chars: int = DESCRIPTION_CHARS


@dataclass(frozen=True)
class McpTool(Tool):
    """A tool whose JSON Schema is given by its MCP server rather than derived from `params`."""

    input_schema: dict[str, Any] = field(default_factory=dict, compare=False)
    server: str = ""
    remote_name: str = ""
    """The tool's name on its server."""

    def parameters_schema(self) -> dict[str, Any]:
        return self.input_schema


class _ConnectionLost(Exception):
    pass


class _Connection:
    """One run of one server process, owned by one task from spawn to exit."""

    def __init__(self, config: McpServerConfig, errlog: IO[str], start_timeout_s: float) -> None:
        self.config = config
        self.session: ClientSession | None = None
        self.tools: list[types.Tool] = []
        self.exited = False
        """The server went away on its own (closed its stdout)."""
        self.dead = asyncio.Event()
        self._stop = asyncio.Event()
        self._errlog = errlog
        self._start_timeout_s = start_timeout_s
        self._ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._task = asyncio.create_task(self._own(), name=f"mcp-server:{config.name}")

    @property
    def usable(self) -> bool:
        return self.session is not None and not self._stop.is_set() and not self.dead.is_set()

    async def wait_ready(self) -> None:
        await asyncio.shield(self._ready)

    def abandon(self) -> None:
        """The session is known broken: let the owner wind down."""
        self._stop.set()

    async def close(self) -> None:
        self._stop.set()
        try:
            await asyncio.wait_for(asyncio.shield(self._task), STOP_TIMEOUT_S)
        except TimeoutError:
            log.warning("MCP server %r did not stop in time; cancelling", self.config.name)
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if not self._ready.done():  # pragma: no cover - the owner always settles it
            self._ready.cancel()
        elif not self._ready.cancelled():
            self._ready.exception()  # retrieved: no "never retrieved" noise

    async def _own(self) -> None:
        cfg = self.config
        try:
            if not cfg.command:
                raise ValueError("its command is empty")
            params = StdioServerParameters(
                command=cfg.command[0],
                args=list(cfg.command[1:]),
                env=dict(cfg.env) or None,
                cwd=cfg.cwd,
            )
            self._errlog.write(
                f"--- {time.strftime('%Y-%m-%d %H:%M:%S')} MCP server {cfg.name!r}: {' '.join(cfg.command)}\n"
            )
            self._errlog.flush()
            async with AsyncExitStack() as stack:
                read, write = await stack.enter_async_context(stdio_client(params, errlog=cast(Any, self._errlog)))
                sink, source = anyio.create_memory_object_stream[SessionMessage | Exception](0)
                stack.push_async_callback(source.aclose)
                stack.push_async_callback(sink.aclose)
                group = await stack.enter_async_context(anyio.create_task_group())
                stack.callback(group.cancel_scope.cancel)
                group.start_soon(self._forward, read, sink)
                session = await stack.enter_async_context(ClientSession(source, write))
                with anyio.fail_after(self._start_timeout_s):
                    await session.initialize()
                    self.tools = await _list_all_tools(session)
                self.session = session
                self._ready.set_result(None)
                await self._stop.wait()
        except Exception as exc:
            if self._ready.done():
                log.warning("MCP server %r stopped with an error: %s", cfg.name, _reason(exc))
            else:
                self._ready.set_exception(exc)
        finally:
            self.session = None
            self.dead.set()
            if not self._ready.done():
                self._ready.set_exception(_ConnectionLost("stopped during start-up"))
            if self.exited:
                log.warning("MCP server %r exited", cfg.name)

    async def _forward(
        self,
        source: anyio.abc.ObjectReceiveStream[SessionMessage | Exception],
        sink: anyio.abc.ObjectSendStream[SessionMessage | Exception],
    ) -> None:
        """Pass the server's messages to the session; their end means the server exited."""
        async with sink:
            async for item in source:
                await sink.send(item)
        self.exited = True
        self._stop.set()

    async def call(self, fn: Callable[[ClientSession], Awaitable[T]]) -> T:
        """Run one request on the live session; _ConnectionLost if the server goes away."""
        session = self.session
        if session is None or not self.usable:
            raise _ConnectionLost
        request = asyncio.ensure_future(fn(session))
        death = asyncio.ensure_future(self.dead.wait())
        try:
            await asyncio.wait({request, death}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            death.cancel()
            if not request.done():
                request.cancel()
                await asyncio.wait({request})
            if not request.cancelled():
                request.exception()  # marked retrieved; re-raised below when it matters
        if request.cancelled():
            raise _ConnectionLost
        try:
            return request.result()
        except McpError as exc:
            if exc.error.code == types.CONNECTION_CLOSED:
                self.abandon()
                raise _ConnectionLost from exc
            raise
        except (anyio.ClosedResourceError, anyio.BrokenResourceError) as exc:
            self.abandon()
            raise _ConnectionLost from exc


async def _list_all_tools(session: ClientSession) -> list[types.Tool]:
    tools: list[types.Tool] = []
    cursor: str | None = None
    while True:
        params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
        page = await session.list_tools(params=params)
        tools += page.tools
        cursor = page.nextCursor
        if not cursor:
            return tools


class _Server:
    """One configured server across its restarts."""

    def __init__(self, config: McpServerConfig, errlog: IO[str], start_timeout_s: float) -> None:
        self.config = config
        self.name = config.name
        self._errlog = errlog
        self._start_timeout_s = start_timeout_s
        self._conn: _Connection | None = None
        self._lock = asyncio.Lock()
        self._closed = False

    async def ensure(self) -> _Connection:
        async with self._lock:
            if self._closed:
                raise ToolFailure(f"MCP server '{self.name}' is shut down")
            conn = self._conn
            if conn is None or not conn.usable:
                if conn is not None:
                    await conn.close()
                    log.info("restarting MCP server %r", self.name)
                conn = self._conn = _Connection(self.config, self._errlog, self._start_timeout_s)
            await conn.wait_ready()
            return conn

    async def call_tool(self, remote_name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        try:
            conn = await self.ensure()
        except ToolFailure:
            raise
        except Exception as exc:
            raise ToolFailure(f"MCP server '{self.name}' could not be started: {_reason(exc)}") from exc
        try:
            return await conn.call(lambda s: s.call_tool(remote_name, arguments))
        except _ConnectionLost as exc:
            raise ToolFailure(
                f"MCP server '{self.name}' is not running (it exited); it will be restarted on next use"
            ) from exc
        except McpError as exc:
            raise ToolFailure(f"MCP server '{self.name}': {exc.error.message}") from exc

    async def close(self) -> None:
        async with self._lock:
            self._closed = True
            if self._conn is not None:
                await self._conn.close()
                self._conn = None


class McpHub:
    """The configured MCP servers and their tools.

    `await hub.start(configs)`, then register `hub.tools()`; `await hub.close()` on shutdown.
    """

    def __init__(
        self,
        log_path: str | os.PathLike[str] | None = None,
        *,
        start_timeout_s: float = START_TIMEOUT_S,
    ) -> None:
        self._log_path = Path(log_path) if log_path is not None else None
        self._start_timeout_s = start_timeout_s
        self._errlog: IO[str] | None = None
        self._servers: dict[str, _Server] = {}
        self._tools: list[Tool] = []
        self._failed: dict[str, str] = {}

    async def __aenter__(self) -> McpHub:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def start(self, servers: list[McpServerConfig]) -> None:
        if self._errlog is None:
            self._errlog = self._open_log()
        fresh: list[_Server] = []
        for config in servers:
            if config.name in self._servers or any(s.name == config.name for s in fresh):
                log.warning("MCP server %r configured twice; the second is ignored", config.name)
                continue
            fresh.append(_Server(config, self._errlog, self._start_timeout_s))
        outcomes = await asyncio.gather(*(server.ensure() for server in fresh), return_exceptions=True)
        for server, outcome in zip(fresh, outcomes, strict=True):
            if isinstance(outcome, BaseException):
                reason = _reason(outcome)
                self._failed[server.name] = reason
                log.warning("MCP server %r could not be started: %s", server.name, reason)
                await server.close()
                continue
            self._servers[server.name] = server
            self._tools += self._wrap(server, outcome.tools)
            log.info("MCP server %r started: %d tools", server.name, len(outcome.tools))

    @property
    def log_path(self) -> Path | None:
        """Where the servers' stderr goes (None: discarded)."""
        return self._log_path

    def tools(self) -> list[Tool]:
        return list(self._tools)

    def failed(self) -> dict[str, str]:
        """Servers that could not be started, with why."""
        return dict(self._failed)

    async def close(self) -> None:
        servers, self._servers = list(self._servers.values()), {}
        await asyncio.gather(*(server.close() for server in servers), return_exceptions=True)
        if self._errlog is not None:
            self._errlog.close()
            self._errlog = None

    def _open_log(self) -> IO[str]:
        if self._log_path is None:
            return open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - kept until close()
        self._log_path.parent.mkdir(parents=True, exist_ok=True)
        private_file(self._log_path)  # servers' stderr may carry what the user asked them
        return open(self._log_path, "a", encoding="utf-8", buffering=1)  # noqa: SIM115

    def _wrap(self, server: _Server, listed: list[types.Tool]) -> list[Tool]:
        taken = {tool.name for tool in self._tools}
        wrapped: list[Tool] = []
        for remote in listed:
            name = f"{_safe_name(server.name)}.{_safe_name(remote.name)}"
            if name in taken:
                log.warning("MCP tool %r of server %r skipped: name taken", remote.name, server.name)
                continue
            taken.add(name)
            wrapped.append(make_tool(server.name, remote, server.call_tool, name, server.config.description_chars))
        return wrapped


CallFn = Callable[[str, dict[str, Any]], Awaitable[types.CallToolResult]]


def make_tool(
    server: str, remote: types.Tool, call: CallFn, name: str | None = None,
    description_chars: int = DESCRIPTION_CHARS,
) -> McpTool:
    """A Saturn tool for one MCP tool; `call(remote_name, arguments)` reaches the server."""
    schema = clean_schema(remote.inputSchema)
    params, nullable_dropped = params_type(schema, f"{server}_{remote.name}")

    async def run(parsed: Any, env: ToolEnv) -> str:
        arguments = _arguments(parsed, nullable_dropped)
        result = await call(remote.name, arguments)
        text = result_text(result)
        if result.isError:
            raise ToolFailure(text or f"'{remote.name}' on MCP server '{server}' failed")
        return text or "(the tool returned no content)"

    return McpTool(
        name=name or f"{_safe_name(server)}.{_safe_name(remote.name)}",
        description=short_description(remote.description, remote.name, server, description_chars),
        params=params,
        run=run,
        risk="external",
        outside=True,
        input_schema=schema,
        server=server,
        remote_name=remote.name,
    )


def _arguments(parsed: Any, nullable_dropped: frozenset[str]) -> dict[str, Any]:
    if isinstance(parsed, dict):
        return parsed
    arguments = msgspec.to_builtins(parsed)
    assert isinstance(arguments, dict)
    return {k: v for k, v in arguments.items() if not (v is None and k in nullable_dropped)}


def result_text(result: types.CallToolResult) -> str:
    parts: list[str] = []
    for block in result.content:
        if isinstance(block, types.TextContent):
            parts.append(block.text)
        elif isinstance(block, types.ImageContent):
            parts.append("[image omitted]")
        elif isinstance(block, types.AudioContent):
            parts.append("[audio omitted]")
        elif isinstance(block, types.ResourceLink):
            parts.append(f"[resource link: {block.uri}]")
        elif isinstance(block, types.EmbeddedResource):
            resource = block.resource
            if isinstance(resource, types.TextResourceContents):
                parts.append(resource.text)
            else:
                parts.append(f"[binary resource omitted: {resource.uri}]")
        else:  # pragma: no cover - a content type newer than this bridge
            parts.append(f"[{getattr(block, 'type', 'unknown')} content omitted]")
    if not parts and result.structuredContent is not None:
        parts.append(json.dumps(result.structuredContent, ensure_ascii=False))
    return "\n".join(parts)


def short_description(description: str | None, tool: str, server: str, limit: int = DESCRIPTION_CHARS) -> str:
    text = " ".join((description or "").split())
    if not text:
        return f"{tool} (from MCP server {server})"
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if " " in cut[limit // 2 :]:
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:.") + "…"


def _safe_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "_", name) or "_"


def _reason(exc: BaseException) -> str:
    """The innermost, most telling message of an error (anyio wraps them in groups)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    if isinstance(exc, McpError) and exc.error.code == types.CONNECTION_CLOSED:
        return "the server exited during start-up (see its log)"
    if isinstance(exc, TimeoutError):
        return "it did not answer in time"
    if isinstance(exc, FileNotFoundError):
        return f"command not found: {exc.filename or exc}"
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
