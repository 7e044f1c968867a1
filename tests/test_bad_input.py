"""Bad input never hurts the daemon: each gets the right JSON-RPC error."""

from __future__ import annotations

import asyncio
import contextlib
import json

import pytest

from protocol.client import Client
from protocol.jsonrpc import MAX_LINE_BYTES


async def raw_exchange(socket: str, payload: bytes) -> dict:
    reader, writer = await asyncio.open_unix_connection(socket, limit=MAX_LINE_BYTES * 2)
    writer.write(payload)
    await writer.drain()
    line = await asyncio.wait_for(reader.readline(), 5)
    writer.close()
    return json.loads(line)


@pytest.mark.parametrize(
    ("payload", "code", "request_id"),
    [
        (b"{not json\n", -32700, None),
        (b"\xff\xfe\x00garbage\n", -32700, None),
        (b'"just a string"\n', -32600, None),
        (b"[1, 2]\n", -32600, None),
        (b'{"jsonrpc": "2.0", "id": "7"}\n', -32600, "7"),
        (b'{"jsonrpc": "1.0", "method": "daemon/status", "id": "7"}\n', -32600, "7"),
        (b'{"jsonrpc": "2.0", "method": "nope/never", "id": "8"}\n', -32601, "8"),
        (b'{"jsonrpc": "2.0", "method": "session/create", "params": {}, "id": 9}\n', -32602, 9),
        (b'{"jsonrpc": "2.0", "method": "session/create", "params": {"cwd": 5}, "id": 9}\n', -32602, 9),
        (b'{"jsonrpc": "2.0", "method": "session/get", "params": {"session_id": "x", "extra": 1}, "id": 1}\n', -32602, 1),
        (b'{"jsonrpc": "2.0", "method": "session/get", "params": {"session_id": "nope"}, "id": 2}\n', -32001, 2),
    ],
)
async def test_each_bad_line_gets_its_error(daemon, payload, code, request_id):
    response = await raw_exchange(str(daemon.scratch.socket), payload)
    assert response["jsonrpc"] == "2.0"
    assert response["error"]["code"] == code
    assert response["error"]["message"]
    assert response["id"] == request_id


async def test_the_connection_stays_usable_after_errors(daemon):
    reader, writer = await asyncio.open_unix_connection(str(daemon.scratch.socket))
    writer.write(b"{oops\n[]\n" + b'{"jsonrpc":"2.0","method":"daemon/status","id":"ok"}\n')
    codes = [json.loads(await reader.readline()).get("error", {}).get("code") for _ in range(2)]
    last = json.loads(await reader.readline())
    assert codes == [-32700, -32600]
    assert last["id"] == "ok" and last["result"]["pid"] == daemon.pid
    writer.close()


async def test_an_oversize_line_closes_only_that_connection(daemon):
    bystander = await Client.connect(str(daemon.scratch.socket))
    reader, writer = await asyncio.open_unix_connection(str(daemon.scratch.socket), limit=2**20)
    writer.write(b'{"x": "' + b"a" * (MAX_LINE_BYTES + 10) + b'"}\n')
    with contextlib.suppress(ConnectionError):
        await writer.drain()
    response = json.loads(await asyncio.wait_for(reader.readline(), 10))
    assert response["error"]["code"] == -32600
    assert "longer than" in response["error"]["message"]
    assert await asyncio.wait_for(reader.read(), 10) == b""  # closed by the daemon
    writer.close()

    status = await bystander.call("daemon/status")
    assert status.pid == daemon.pid
    await bystander.close()


async def test_a_notification_from_a_client_gets_no_response(daemon):
    reader, writer = await asyncio.open_unix_connection(str(daemon.scratch.socket))
    writer.write(b'{"jsonrpc":"2.0","method":"daemon/status"}\n{"jsonrpc":"2.0","method":"daemon/status","id":1}\n')
    first = json.loads(await reader.readline())
    assert first["id"] == 1
    writer.close()


async def test_a_client_vanishing_mid_request_leaves_the_daemon_serving(daemon):
    for _ in range(5):
        _, writer = await asyncio.open_unix_connection(str(daemon.scratch.socket))
        writer.write(b'{"jsonrpc":"2.0","method":"daemon/sta')
        writer.close()
    async with await Client.connect(str(daemon.scratch.socket)) as client:
        assert (await client.call("daemon/status")).pid == daemon.pid


def _request(method: str, params: str) -> bytes:
    return f'{{"jsonrpc": "2.0", "method": "{method}", "params": {params}, "id": 3}}\n'.encode()


@pytest.mark.parametrize(
    ("payload", "code", "request_id", "message"),
    [
        (_request("memory/forget", '{"number": 9223372036854775808}'), -32602, 3,
         "invalid params for memory/forget: `$.number`: 9223372036854775808 is out of range"),
        (_request("egress/list", f'{{"limit": {2**64}}}'), -32602, 3,
         "invalid params for egress/list: `$.limit`: 18446744073709551616 is out of range"),
        (_request("memory/forget", '{"number": -9223372036854775809}'), -32602, 3, "out of range"),
        (_request("session/create", '{"cwd": "/tmp/a\\u0000b"}'), -32602, 3,
         "invalid params for session/create: `$.cwd`: a string must not contain a NUL character"),
        (_request("session/create", '{"cwd": "/tmp", "title": ' + "[" * 100 + "]" * 100 + "}"),
         -32602, 3, "nested more than 64 levels deep"),
        (b'{"jsonrpc": "2.0", "method": "daemon/status", "id": 4, "params": '
         + b"[" * 5000 + b"]" * 5000 + b"}\n", -32700, None, "parse error: nested too deeply"),
    ],
)
async def test_values_no_method_can_use_are_refused_at_the_boundary(
    daemon, payload, code, request_id, message
):
    response = await raw_exchange(str(daemon.scratch.socket), payload)
    assert (response["error"]["code"], response["id"]) == (code, request_id)
    assert message in response["error"]["message"]
    # The largest 64-bit integer is still a number a method may be given.
    fine = await raw_exchange(
        str(daemon.scratch.socket), _request("egress/list", f'{{"limit": {2**63 - 1}}}')
    )
    assert fine["result"] == {"entries": []}
    assert "Traceback" not in daemon.output()
