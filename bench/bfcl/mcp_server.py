"""One BFCL case's functions as a stdio MCP server: `python -m bench.bfcl.mcp_server CASE LOG`.

CASE is a JSON file written by the runner: {"id", "tools": [{name, bfcl_name, description,
parameters}], "multi_turn", "initial_config", "involved_classes"}. Every call received is
appended to LOG (JSONL: {"name": bfcl_name, "arguments": {...}}) before it runs. Multi-turn
cases run the call on BFCL's own Python backends (the classes named by the case, loaded with
its initial_config, exactly as BFCL's multi-turn executor does) and return the real result;
single-turn cases only record the call and say it was made.

Tools are served under the case's own function names (dots kept); the input schemas are
BFCL's OpenAI conversion. Input validation is left to the client (Saturn checks arguments
itself), so a call with odd arguments is still seen and recorded.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

SINGLE_TURN_RESULT = "Done: the call was made."
EXECUTOR_NAME = "saturn_mcp"


def call_string(name: str, arguments: dict[str, Any]) -> str:
    """A call as BFCL's decode_execute writes it: `name(a='x',b=2)`."""
    return f"{name}({','.join(f'{k}={v!r}' for k, v in arguments.items())})"


def execute(case: dict[str, Any], name: str, arguments: dict[str, Any]) -> str:
    from bench.bfcl import bfcl

    bfcl()
    from bfcl_eval.eval_checker.multi_turn_eval.multi_turn_utils import execute_multi_turn_func_call

    results, _ = execute_multi_turn_func_call(
        [call_string(name, arguments)], case["initial_config"], case["involved_classes"],
        EXECUTOR_NAME, case["id"],
    )
    return str(results[0]) if results else ""


def build_server(case: dict[str, Any], log_path: Path) -> Server:
    server: Server = Server("bfcl")
    by_name = {t["bfcl_name"]: t for t in case["tools"]}

    @server.list_tools()  # type: ignore[misc, no-untyped-call]
    async def list_tools() -> list[types.Tool]:
        return [
            types.Tool(name=t["bfcl_name"], description=t["description"], inputSchema=t["parameters"])
            for t in case["tools"]
        ]

    @server.call_tool(validate_input=False)  # type: ignore[misc]
    async def call_tool(name: str, arguments: dict[str, Any] | None) -> list[types.TextContent]:
        arguments = dict(arguments or {})
        with log_path.open("a", encoding="utf-8") as log:
            log.write(json.dumps({"name": name, "arguments": arguments}) + "\n")
        if name not in by_name:
            text = f"Error: no function named {name!r}"
        elif case.get("multi_turn"):
            text = execute(case, name, arguments)
        else:
            text = SINGLE_TURN_RESULT
        return [types.TextContent(type="text", text=text)]

    return server


async def serve(case: dict[str, Any], log_path: Path) -> None:
    server = build_server(case, log_path)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print("usage: python -m bench.bfcl.mcp_server CASE.json LOG.jsonl", file=sys.stderr)
        return 2
    asyncio.run(serve(json.loads(Path(args[0]).read_text(encoding="utf-8")), Path(args[1])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
