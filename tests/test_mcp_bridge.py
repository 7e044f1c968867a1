"""The MCP bridge against a real stdio MCP server (tests/mcp_test_server.py)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
import pytest_asyncio

from saturnd.model.types import ToolCall
from saturnd.tools.mcp_bridge import McpHub, McpServerConfig, make_tool
from saturnd.tools.mcp_schema import clean_schema, params_type
from saturnd.tools.registry import Registry, Tool, ToolEnv, ToolFailure
from saturnd.turn.execute import run_tool
from saturnd.turn.validation import Invalid, Valid, validate_call

REPO = Path(__file__).resolve().parent.parent
SERVER = McpServerConfig(
    name="testsrv", command=[sys.executable, "tests/mcp_test_server.py"], cwd=str(REPO)
)
EXITED = "MCP server 'testsrv' is not running (it exited); it will be restarted on next use"

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def hub(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[McpHub]:
    log = tmp_path_factory.mktemp("mcp") / "mcp.log"
    hub = McpHub(log)
    await hub.start([SERVER])
    yield hub
    await hub.close()


@pytest.fixture
def env(tmp_path: Path) -> ToolEnv:
    return ToolEnv(cwd=tmp_path, kb_dir=tmp_path)


def tool(hub: McpHub, name: str) -> Tool:
    tools = {t.name: t for t in hub.tools()}
    assert name in tools, f"{name} not among {sorted(tools)}"
    return tools[name]


async def call(hub: McpHub, env: ToolEnv, name: str, **arguments: Any) -> str:
    """As the daemon does it: validate the arguments into the params type, then run."""
    t = tool(hub, name)
    return await t.run(msgspec.convert(arguments, t.params), env)


async def server_pid(hub: McpHub, env: ToolEnv) -> int:
    return int(await call(hub, env, "testsrv.pid"))


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def test_tools_are_named_by_server_and_carry_the_servers_schema(hub: McpHub) -> None:
    names = sorted(t.name for t in hub.tools())
    assert names == [
        "testsrv.add",
        "testsrv.crash",
        "testsrv.echo",
        "testsrv.fail",
        "testsrv.pid",
        "testsrv.sleep",
    ]
    add = tool(hub, "testsrv.add")
    assert add.risk == "external"
    assert add.outside is True
    assert add.description == "Add two integers and return their sum."
    assert add.parameters_schema() == {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "required": ["a", "b"],
    }
    schema = add.openai_schema()["function"]
    assert schema["name"] == "testsrv.add"
    assert "title" not in json.dumps(schema)
    echo = tool(hub, "testsrv.echo").parameters_schema()
    assert echo["properties"]["repeat"] == {"type": "integer", "default": 1}
    assert echo["required"] == ["text"]


async def test_calls_reach_the_server(hub: McpHub, env: ToolEnv) -> None:
    assert await call(hub, env, "testsrv.add", a=2, b=40) == "42"
    assert await call(hub, env, "testsrv.echo", text="hi") == "hi"
    assert await call(hub, env, "testsrv.echo", text="hi", repeat=3) == "hi hi hi"
    # A small model's null for an optional argument means "not given".
    assert await call(hub, env, "testsrv.echo", text="hi", repeat=None) == "hi"


async def test_concurrent_calls_share_the_server(hub: McpHub, env: ToolEnv) -> None:
    results = await asyncio.gather(*(call(hub, env, "testsrv.add", a=i, b=1) for i in range(8)))
    assert results == [str(i + 1) for i in range(8)]


async def test_a_tool_error_is_a_tool_failure_with_its_text(hub: McpHub, env: ToolEnv) -> None:
    with pytest.raises(ToolFailure, match="the fail tool failed, as asked"):
        await call(hub, env, "testsrv.fail")
    assert await call(hub, env, "testsrv.add", a=1, b=1) == "2"


async def test_validation_reports_the_servers_shape(hub: McpHub) -> None:
    registry = Registry(hub.tools())

    def check(arguments: dict[str, Any]) -> Valid | Invalid:
        return validate_call(ToolCall("c1", "testsrv.add", json.dumps(arguments)), registry)

    missing = check({"a": 1})
    assert isinstance(missing, Invalid)
    assert "missing required field `b`" in missing.message
    assert 'testsrv.add {"a": <integer>, "b": <integer>}' in missing.message
    wrong = check({"a": "one", "b": 2})
    assert isinstance(wrong, Invalid)
    assert "Expected `int`, got `str` - at `$.a`" in wrong.message
    unknown = check({"a": 1, "b": 2, "c": 3})
    assert isinstance(unknown, Invalid)
    assert "unknown field `c`" in unknown.message
    assert isinstance(check({"a": 1, "b": 2}), Valid)
    # Arguments meant for echo are not taken as fitting add, nor the reverse.
    echo = validate_call(ToolCall("c2", "testsrv.echo", '{"a": 1, "b": 2}'), registry)
    assert isinstance(echo, Invalid)
    assert "These arguments fit 'testsrv.add'" in echo.message


async def test_a_crash_fails_the_call_readably_and_the_next_call_restarts(
    hub: McpHub, env: ToolEnv
) -> None:
    before = await server_pid(hub, env)
    started = time.monotonic()
    with pytest.raises(ToolFailure) as failure:
        await call(hub, env, "testsrv.crash")
    assert str(failure.value) == EXITED
    assert time.monotonic() - started < 5
    assert await call(hub, env, "testsrv.add", a=3, b=4) == "7"
    after = await server_pid(hub, env)
    assert after != before
    assert not alive(before)


async def test_a_server_killed_while_idle_restarts_transparently(hub: McpHub, env: ToolEnv) -> None:
    before = await server_pid(hub, env)
    os.kill(before, signal.SIGKILL)
    for _ in range(100):
        if not alive(before):
            break
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.1)
    assert await call(hub, env, "testsrv.add", a=5, b=5) == "10"
    assert await server_pid(hub, env) != before


async def test_a_timed_out_call_leaves_the_server_usable(hub: McpHub, env: ToolEnv) -> None:
    sleep = tool(hub, "testsrv.sleep")
    params = msgspec.convert({"seconds": 5}, sleep.params)
    outcome = await run_tool(sleep, params, env, timeout_s=0.3)
    assert outcome.fate == "timed_out"
    assert await call(hub, env, "testsrv.sleep", seconds=0.01) == "slept"
    assert await call(hub, env, "testsrv.add", a=1, b=2) == "3"


async def test_the_daemon_path_shows_failures_as_tool_errors(hub: McpHub, env: ToolEnv) -> None:
    fail = tool(hub, "testsrv.fail")
    outcome = await run_tool(fail, msgspec.convert({}, fail.params), env, timeout_s=10)
    assert outcome.fate == "error"
    assert outcome.text.startswith("tool error: ")
    assert "the fail tool failed" in outcome.text


async def test_stderr_goes_to_the_log_not_the_terminal(
    hub: McpHub, capfd: pytest.CaptureFixture[str]
) -> None:
    log = hub.log_path
    assert log is not None
    text = log.read_text()
    assert "testsrv starting" in text
    assert "crashing now" in text
    out, err = capfd.readouterr()
    assert "testsrv starting" not in out + err


async def test_a_failed_server_is_left_out_and_close_leaves_no_process(
    tmp_path: Path, env: ToolEnv
) -> None:
    tasks_before = asyncio.all_tasks()
    hub = McpHub(tmp_path / "mcp.log")
    await hub.start(
        [
            McpServerConfig(name="missing", command=[str(tmp_path / "no-such-server")]),
            McpServerConfig(
                name="quits", command=[sys.executable, "-c", "import sys; sys.exit(3)"]
            ),
            SERVER,
        ]
    )
    assert {t.name.split(".")[0] for t in hub.tools()} == {"testsrv"}
    failed = hub.failed()
    assert set(failed) == {"missing", "quits"}
    assert "command not found" in failed["missing"]
    assert "exited during start-up" in failed["quits"]
    pid = await server_pid(hub, env)
    assert alive(pid)
    await hub.close()
    assert not alive(pid)
    assert asyncio.all_tasks() == tasks_before
    with pytest.raises(ToolFailure, match="shut down"):
        await call(hub, env, "testsrv.add", a=1, b=2)


async def test_a_server_that_never_answers_times_out_at_start(tmp_path: Path) -> None:
    silent = [sys.executable, "-c", "import sys; sys.stdin.read()"]
    hub = McpHub(tmp_path / "mcp.log", start_timeout_s=0.5)
    started = time.monotonic()
    await hub.start([McpServerConfig(name="silent", command=silent)])
    await hub.close()
    assert hub.tools() == []
    assert hub.failed() == {"silent": "it did not answer in time"}
    assert time.monotonic() - started < 8


async def test_schema_cleaning_inlines_refs_and_keeps_property_names() -> None:
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "args",
        "type": "object",
        "$defs": {"Point": {"title": "Point", "type": "object", "properties": {"x": {}}}},
        "properties": {
            "title": {"title": "Title", "type": "string"},
            "at": {"$ref": "#/$defs/Point"},
            "mode": {"enum": ["fast", "slow"]},
            "tags": {"type": ["array", "null"], "items": {"type": "string"}},
        },
        "required": ["title"],
    }
    cleaned = clean_schema(schema)
    assert cleaned == {
        "type": "object",
        "properties": {
            "title": {"type": "string"},
            "at": {"type": "object", "properties": {"x": {}}},
            "mode": {"enum": ["fast", "slow"]},
            "tags": {"type": ["array", "null"], "items": {"type": "string"}},
        },
        "required": ["title"],
    }
    params, _ = params_type(cleaned, "demo")
    ok = msgspec.to_builtins(msgspec.convert({"title": "t", "mode": "slow", "tags": None}, params))
    assert ok == {"title": "t", "mode": "slow", "tags": None}
    with pytest.raises(msgspec.ValidationError, match="mode"):
        msgspec.convert({"title": "t", "mode": "medium"}, params)
    with pytest.raises(msgspec.ValidationError, match="title"):
        msgspec.convert({"mode": "fast"}, params)


async def test_a_server_can_show_more_of_each_description() -> None:
    long = "This tool belongs to the file system. It handles files and folders. Tool description: Change directory."
    remote = __import__("mcp").types.Tool(name="cd", description=long, inputSchema={"type": "object"})
    short = make_tool("fs", remote, _never_called)
    assert short.description.endswith("…") and "Change directory" not in short.description
    assert make_tool("fs", remote, _never_called, description_chars=200).description == long


async def _never_called(name: str, arguments: dict[str, Any]) -> Any:
    raise AssertionError("not called")
