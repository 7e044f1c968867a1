"""A blocking client for short-lived commands (`saturn -p`): no asyncio to import.

Same wire as protocol.client, for callers where start-up time is the cost that matters.
"""

from __future__ import annotations

import itertools
import socket
from collections.abc import Iterator
from typing import Any

import msgspec

from protocol.events import TurnEvent
from protocol.jsonrpc import (
    ConnectionClosed,
    Incoming,
    Request,
    decode_incoming,
    encode_line,
    error_from_object,
)
from protocol.methods import METHODS, NOTIFICATIONS


class SyncClient:
    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock
        self._file = sock.makefile("rb")
        self._ids = itertools.count(1)
        self._backlog: list[tuple[str, Any]] = []

    @classmethod
    def connect(cls, path: str) -> SyncClient:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(path)
        except OSError:
            sock.close()
            raise
        return cls(sock)

    def call(self, method: str, params: Any = None) -> Any:
        request_id = str(next(self._ids))
        self._sock.sendall(encode_line(Request(method=method, params=params or {}, id=request_id)))
        while True:
            message = self._read()
            if message.method is not None:
                self._backlog.append(_notification(message))
            elif str(message.id) == request_id:
                if message.error is not None:
                    raise error_from_object(message.error)
                return msgspec.json.decode(message.result, type=METHODS[method].result)

    def notifications(self) -> Iterator[tuple[str, Any]]:
        while self._backlog:
            yield self._backlog.pop(0)
        while True:
            message = self._read()
            if message.method is not None:
                yield _notification(message)

    def turn_events(self, turn_id: str) -> Iterator[TurnEvent]:
        for method, params in self.notifications():
            if method == "turn/event" and params.turn_id == turn_id:
                yield params
                if params.event.__struct_config__.tag == "turn_ended":
                    return

    def close(self) -> None:
        self._file.close()
        self._sock.close()

    def __enter__(self) -> SyncClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _read(self) -> Incoming:
        line = self._file.readline()
        if not line:
            raise ConnectionClosed("saturnd closed the connection")
        return decode_incoming(line)


def _notification(message: Incoming) -> tuple[str, Any]:
    assert message.method is not None
    params_type = NOTIFICATIONS.get(message.method, Any)
    return message.method, msgspec.json.decode(message.params, type=params_type)
