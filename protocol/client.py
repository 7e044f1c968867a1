"""A small asyncio client: connect, call, iterate notifications."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import AsyncIterator
from typing import Any

import msgspec

from protocol.events import TurnEvent
from protocol.jsonrpc import (
    MAX_LINE_BYTES,
    ConnectionClosed,
    Request,
    decode_incoming,
    encode_line,
    error_from_object,
)
from protocol.methods import METHODS, NOTIFICATIONS


class Client:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer
        self._ids = itertools.count(1)
        self._pending: dict[str, asyncio.Future[msgspec.Raw]] = {}
        self._notifications: asyncio.Queue[tuple[str, Any] | None] = asyncio.Queue()
        self._closed = False
        self._reader_task = asyncio.get_running_loop().create_task(self._read_loop())

    @classmethod
    async def connect(cls, path: str) -> Client:
        reader, writer = await asyncio.open_unix_connection(path, limit=MAX_LINE_BYTES)
        return cls(reader, writer)

    async def call(self, method: str, params: Any = None, result_type: Any = None) -> Any:
        """Send a request and wait for its result, decoded to the registry's type."""
        if self._closed:
            raise ConnectionClosed("connection to saturnd is closed")
        request_id = str(next(self._ids))
        future: asyncio.Future[msgspec.Raw] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        self._writer.write(encode_line(Request(method=method, params=params or {}, id=request_id)))
        await self._writer.drain()
        raw = await future
        if result_type is None and method in METHODS:
            result_type = METHODS[method].result
        return msgspec.json.decode(raw, type=result_type) if result_type else msgspec.json.decode(raw)

    async def notifications(self) -> AsyncIterator[tuple[str, Any]]:
        """Yield (method, params) for each notification until the connection closes."""
        while True:
            item = await self._notifications.get()
            if item is None:
                return
            yield item

    async def turn_events(self, turn_id: str) -> AsyncIterator[TurnEvent]:
        """Yield the events of one turn up to and including `turn_ended`."""
        async for method, params in self.notifications():
            if method == "turn/event" and params.turn_id == turn_id:
                yield params
                if params.event.__struct_config__.tag == "turn_ended":
                    return

    async def close(self) -> None:
        self._closed = True
        self._writer.close()
        with contextlib.suppress(OSError):
            await self._writer.wait_closed()
        self._reader_task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reader_task

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _read_loop(self) -> None:
        try:
            while True:
                line = await self._reader.readline()
                if not line:
                    break
                message = decode_incoming(line)
                if message.method is not None:
                    params_type = NOTIFICATIONS.get(message.method)
                    params = msgspec.json.decode(message.params, type=params_type or Any)
                    self._notifications.put_nowait((message.method, params))
                    continue
                future = self._pending.pop(str(message.id), None)
                if future is None or future.done():
                    continue
                if message.error is not None:
                    future.set_exception(error_from_object(message.error))
                else:
                    future.set_result(message.result)
        except (OSError, ValueError, msgspec.DecodeError):
            pass
        finally:
            self._closed = True
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(ConnectionClosed("saturnd closed the connection"))
            self._pending.clear()
            self._notifications.put_nowait(None)
