"""JSON-RPC 2.0 envelopes, NDJSON framing and the error classes with their codes."""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

MAX_LINE_BYTES = 8 * 1024 * 1024
"""Longest line (one JSON object) either side accepts; a longer one closes the connection."""
MAX_NESTING = 64
"""Deepest nesting of arrays and objects a request's params may have: no method needs more."""
WIRE_INT_MIN, WIRE_INT_MAX = -(2**63), 2**63 - 1
"""Integers on the wire are 64-bit signed, the widest the store (SQLite) can hold."""


class Request(msgspec.Struct):
    method: str
    params: Any = None
    id: str | int | None = None
    jsonrpc: str = "2.0"


class ErrorObject(msgspec.Struct, omit_defaults=True):
    code: int
    message: str
    data: Any = None


class ResultResponse(msgspec.Struct):
    id: str | int | None
    result: Any
    jsonrpc: str = "2.0"


class ErrorResponse(msgspec.Struct):
    id: str | int | None
    """null when the request's id could not be read."""
    error: ErrorObject
    jsonrpc: str = "2.0"


class Notification(msgspec.Struct):
    method: str
    params: Any = None
    jsonrpc: str = "2.0"


class RpcError(Exception):
    """An error that travels over the wire. Subclasses fix the code."""

    CODE: ClassVar[int] = -32000

    def __init__(self, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.data = data

    def to_object(self) -> ErrorObject:
        return ErrorObject(code=self.CODE, message=self.message, data=self.data)


class ParseError(RpcError):
    CODE = -32700


class InvalidRequest(RpcError):
    CODE = -32600


class MethodNotFound(RpcError):
    CODE = -32601


class InvalidParams(RpcError):
    CODE = -32602


class InternalError(RpcError):
    CODE = -32603


def wire_value_problem(value: Any) -> str | None:
    """What makes a decoded JSON value unfit for any method, or None.

    JSON itself allows integers of any size, NUL characters in strings and unbounded nesting;
    none of them means anything to Saturn, and each used to reach SQLite, the file system or
    the recursion limit as an internal error. Checked once for every request, before its
    params are converted to their method's type. Iterative, so depth cannot overflow here.
    """
    pending: list[tuple[Any, str, int]] = [(value, "$", 0)]
    while pending:
        item, path, depth = pending.pop()
        if isinstance(item, bool):
            continue
        if isinstance(item, int):
            if not WIRE_INT_MIN <= item <= WIRE_INT_MAX:
                return f"`{path}`: {item} is out of range (integers are 64-bit signed)"
        elif isinstance(item, str):
            if "\x00" in item:
                return f"`{path}`: a string must not contain a NUL character"
        elif isinstance(item, dict | list):
            if depth >= MAX_NESTING:
                return f"`{path}`: nested more than {MAX_NESTING} levels deep"
            if isinstance(item, dict):
                for key, inner in item.items():
                    if "\x00" in key:
                        return f"`{path}`: a key must not contain a NUL character"
                    pending.append((inner, f"{path}.{key}", depth + 1))
            else:
                pending.extend((inner, f"{path}[{i}]", depth + 1) for i, inner in enumerate(item))
    return None


# Saturn's own range: -32000 .. -32099 (JSON-RPC's "server error" band).


class SaturnError(RpcError):
    CODE = -32000


class NotFound(SaturnError):
    CODE = -32001


class ModelUnavailable(SaturnError):
    """The model server refused, timed out or answered with an HTTP error."""

    CODE = -32002


class InvalidState(SaturnError):
    """The request does not fit the object's state (e.g. replying to a finished turn)."""

    CODE = -32003


class ConfigError(SaturnError):
    CODE = -32004


class Busy(SaturnError):
    """The session already runs a turn."""

    CODE = -32005


ERRORS_BY_CODE: dict[int, type[RpcError]] = {
    cls.CODE: cls
    for cls in (
        ParseError,
        InvalidRequest,
        MethodNotFound,
        InvalidParams,
        InternalError,
        SaturnError,
        NotFound,
        ModelUnavailable,
        InvalidState,
        ConfigError,
        Busy,
    )
}


def error_from_object(error: ErrorObject) -> RpcError:
    cls = ERRORS_BY_CODE.get(error.code, RpcError)
    exc = cls(error.message, error.data)
    if cls is RpcError:
        exc.CODE = error.code  # type: ignore[misc]
    return exc


class ConnectionClosed(RpcError):
    """Client side only: the daemon went away."""

    CODE = -32099


class Incoming(msgspec.Struct):
    """Either a response (id set) or a notification (method set)."""

    id: str | int | None = None
    method: str | None = None
    params: msgspec.Raw = msgspec.Raw(b"null")
    result: msgspec.Raw = msgspec.Raw(b"null")
    error: ErrorObject | None = None


decode_incoming = msgspec.json.Decoder(Incoming).decode


_encoder = msgspec.json.Encoder()


def encode_line(message: Request | ResultResponse | ErrorResponse | Notification) -> bytes:
    return _encoder.encode(message) + b"\n"
