"""Running approved calls: concurrently, each with its own timeout; no failure escapes.

Every way a tool can fail comes back as a readable `tool error: ...` result
(seed 003: the request never drops).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Literal

from protocol.events import Fate
from saturnd.tools.registry import Tool, ToolEnv, ToolFailure

OUTPUT_CAP_CHARS = 24_000


@dataclass(frozen=True)
class ToolOutcome:
    fate: Fate
    text: str
    duration_s: float


def time_limit(tool: Tool, ceiling_s: float) -> float:
    """How long one call may take. The user's runtime.tool_timeout_s caps every tool's work
    (a tool's own limit may only be shorter); a tool that stops its own work at the limit gets
    its clean-up time on top, so its own readable message wins; a person's answer is not work."""
    if tool.waits_for_person:
        return tool.timeout_s or ceiling_s
    return min(tool.timeout_s or ceiling_s, ceiling_s) + tool.cleanup_s


async def run_tool(tool: Tool, params: object, env: ToolEnv, timeout_s: float) -> ToolOutcome:
    started = time.monotonic()
    fate, text = await _attempt(tool, params, env, timeout_s)
    return ToolOutcome(fate, valid_text(cap_output(text)), round(time.monotonic() - started, 3))


async def _attempt(
    tool: Tool, params: object, env: ToolEnv, timeout_s: float
) -> tuple[Literal["ran", "timed_out", "error"], str]:
    try:
        output = await asyncio.wait_for(_contained(tool.run(params, env)), timeout_s)
    except TimeoutError:
        return "timed_out", f"tool error: '{tool.name}' timed out after {timeout_s:g}s"
    except ToolFailure as exc:
        return "error", f"tool error: {_describe(exc, with_type=False)}"
    except asyncio.CancelledError:
        if _being_cancelled():
            raise  # the turn is stopping (abort, cancel, shutdown): not the tool's failure
        return "error", f"tool error: '{tool.name}' was cancelled by something inside it"
    except Exception as exc:
        return "error", f"tool error: {_describe(exc)}"
    if not isinstance(output, str):
        return "error", f"tool error: '{tool.name}' returned {type(output).__name__}, not text"
    return "ran", output


class _ToolTriedToExit(ToolFailure):
    pass


async def _contained(running: Awaitable[object]) -> object:
    """The tool's coroutine, with SystemExit and KeyboardInterrupt from its code turned into a
    failure: raised inside a task, asyncio re-raises them out of the event loop, which stops
    the daemon."""
    try:
        return await running
    except (SystemExit, KeyboardInterrupt) as exc:
        raise _ToolTriedToExit(f"{type(exc).__name__} raised inside the tool") from None


def _being_cancelled() -> bool:
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


def _describe(exc: BaseException, with_type: bool = True) -> str:
    """`Type: message`; an exception whose message itself fails is named by its type."""
    name = type(exc).__name__
    try:
        message = str(exc)
    except Exception:
        return name
    if not with_type:
        return message
    return f"{name}: {message}" if message else name


def valid_text(text: str) -> str:
    """`text` as valid Unicode: a lone surrogate (bytes a tool decoded with surrogateescape, or
    a JSON escape) cannot be encoded to UTF-8 for the store, the model or a client."""
    return text.encode("utf-8", "replace").decode("utf-8")


def cap_output(text: str, limit: int = OUTPUT_CAP_CHARS) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n[output capped: {len(text) - limit} more characters not shown]"
