"""A tiny stdio MCP server for the bridge's tests: `python tests/mcp_test_server.py`."""

from __future__ import annotations

import asyncio
import os
import sys

from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

server = FastMCP("testsrv")


@server.tool()
def add(a: int, b: int) -> int:
    """Add two integers and return their sum."""
    return a + b


@server.tool()
def echo(text: str, repeat: int = 1) -> str:
    """Echo the text back, optionally several times."""
    return " ".join([text] * repeat)


@server.tool()
def fail() -> str:
    """Always fails."""
    raise ToolError("the fail tool failed, as asked")


@server.tool()
def crash() -> str:
    """Kill the server process at once."""
    print("crashing now", file=sys.stderr, flush=True)
    os._exit(1)


@server.tool()
def pid() -> int:
    """The server's process id."""
    return os.getpid()


@server.tool()
async def sleep(seconds: float) -> str:
    """Sleep, then say so."""
    await asyncio.sleep(seconds)
    return "slept"


if __name__ == "__main__":
    print("testsrv starting", file=sys.stderr, flush=True)
    server.run()
