"""JSON-RPC dispatch: one line in, one response out, method -> handler.

Malformed input becomes the right JSON-RPC error; nothing a client sends can
raise out of here.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from protocol.jsonrpc import (
    ErrorResponse,
    InternalError,
    InvalidParams,
    InvalidRequest,
    MethodNotFound,
    ParseError,
    ResultResponse,
    RpcError,
    encode_line,
    wire_value_problem,
)
from protocol.methods import METHODS

log = logging.getLogger("saturnd.rpc")

Handler = Callable[[Any, Any], Awaitable[Any]]
"""(params, connection) -> result Struct."""

_decode_json = msgspec.json.Decoder().decode


class _Envelope(msgspec.Struct):
    method: str
    jsonrpc: str = "2.0"
    params: Any = None
    id: str | int | None = None


def error_line(error: RpcError, request_id: str | int | None = None) -> bytes:
    return encode_line(ErrorResponse(id=request_id, error=error.to_object()))


def _readable_id(data: Any) -> str | int | None:
    """The request's id if one can be read, so even an invalid request's error names it."""
    if isinstance(data, dict):
        request_id = data.get("id")
        if isinstance(request_id, str | int) and not isinstance(request_id, bool):
            return request_id
    return None


class Dispatcher:
    def __init__(self, handlers: dict[str, Handler]) -> None:
        missing = set(handlers) - set(METHODS)
        if missing:
            raise ValueError(f"handlers for unregistered methods: {sorted(missing)}")
        self._handlers = handlers

    async def handle_line(self, line: bytes, connection: Any) -> bytes | None:
        """The response line, or None for a notification from the client."""
        request_id: str | int | None = None
        try:
            data = self._decode(line)
            request_id = _readable_id(data)
            envelope = self._envelope(data)
            result = await self._call(envelope, connection)
        except RpcError as error:
            return error_line(error, request_id)
        except Exception:
            log.exception("handler failed")
            return error_line(InternalError("internal error; see the saturnd log"), request_id)
        if envelope.id is None:
            return None
        return encode_line(ResultResponse(id=envelope.id, result=result))

    def _decode(self, line: bytes) -> Any:
        try:
            return _decode_json(line)
        except msgspec.DecodeError as exc:
            raise ParseError(f"parse error: {exc}") from exc
        except RecursionError:
            raise ParseError("parse error: nested too deeply") from None

    def _envelope(self, data: Any) -> _Envelope:
        if isinstance(data, list):
            raise InvalidRequest("invalid request: batches are not supported; send one object per line")
        if not isinstance(data, dict):
            raise InvalidRequest("invalid request: a request must be a JSON object")
        try:
            envelope = msgspec.convert(data, _Envelope)
        except msgspec.ValidationError as exc:
            raise InvalidRequest(f"invalid request: {exc}") from exc
        if envelope.jsonrpc != "2.0":
            raise InvalidRequest('invalid request: "jsonrpc" must be "2.0"')
        return envelope

    async def _call(self, envelope: _Envelope, connection: Any) -> Any:
        handler = self._handlers.get(envelope.method)
        if handler is None:
            raise MethodNotFound(f"method not found: {envelope.method}")
        params_type = METHODS[envelope.method].params
        if problem := wire_value_problem(envelope.params):
            raise InvalidParams(f"invalid params for {envelope.method}: {problem}")
        try:
            params: Any = msgspec.convert(envelope.params or {}, params_type)
        except msgspec.ValidationError as exc:
            raise InvalidParams(f"invalid params for {envelope.method}: {exc}") from exc
        return await handler(params, connection)
