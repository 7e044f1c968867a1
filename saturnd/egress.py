"""The egress log: every outbound connection Saturn makes, attributed to its session, turn and call.

Clients Saturn owns (the model client, web_fetch, messaging backends) record
their requests here with `record()`, inside `attributed()`. An audit hook on
`socket.connect` catches anything else and records it as unattributed, so
nothing leaves the machine without a row.
"""

from __future__ import annotations

import contextlib
import contextvars
import socket
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field


@dataclass(frozen=True)
class EgressOrigin:
    """Who is connecting: filled in by the turn around each model call and tool run."""

    session_id: str = ""
    turn_id: str = ""
    call_id: str = ""
    tool: str = ""


@dataclass(frozen=True)
class EgressRow:
    host: str
    port: int
    method: str = ""
    bytes_out: int = 0
    bytes_in: int = 0
    status: str = ""
    """HTTP status, or an error's name."""
    origin: EgressOrigin = field(default_factory=EgressOrigin)
    attributed: bool = True
    at: float = field(default_factory=time.time)


_origin: contextvars.ContextVar[EgressOrigin] = contextvars.ContextVar(
    "egress_origin", default=EgressOrigin()  # noqa: B039 (frozen, so safe to share)
)
_inside_logged_client: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "egress_logged", default=False
)


@contextlib.contextmanager
def origin(value: EgressOrigin) -> Iterator[None]:
    token = _origin.set(value)
    try:
        yield
    finally:
        _origin.reset(token)


@contextlib.contextmanager
def attributed() -> Iterator[None]:
    """Connections made in here are recorded by their client; the audit hook leaves them alone."""
    token = _inside_logged_client.set(True)
    try:
        yield
    finally:
        _inside_logged_client.reset(token)


class EgressLog:
    """Collects rows from any thread; the daemon drains them into the store."""

    def __init__(self) -> None:
        self._pending: list[EgressRow] = []
        self._lock = threading.Lock()

    def record(
        self,
        host: str,
        port: int,
        method: str = "",
        bytes_out: int = 0,
        bytes_in: int = 0,
        status: str = "",
    ) -> None:
        self._add(EgressRow(host, port, method, bytes_out, bytes_in, status, _origin.get()))

    def _add(self, row: EgressRow) -> None:
        with self._lock:
            self._pending.append(row)

    def drain(self) -> list[EgressRow]:
        with self._lock:
            rows, self._pending = self._pending, []
        return rows

    def install_audit_hook(self) -> None:
        """Record every inet connect made outside a logged client. Cannot be removed (by design)."""

        def hook(event: str, args: tuple[object, ...]) -> None:
            if event != "socket.connect" or _inside_logged_client.get():
                return
            sock, address = args[0], args[1]
            if getattr(sock, "family", None) not in (socket.AF_INET, socket.AF_INET6):
                return
            if isinstance(address, tuple) and len(address) >= 2:
                self._add(EgressRow(
                    str(address[0]), int(address[1]), status="unattributed",
                    origin=_origin.get(), attributed=False,
                ))

        sys.addaudithook(hook)


EGRESS = EgressLog()
"""The daemon's one log: clients record into it from wherever they run."""
