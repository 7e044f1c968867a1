"""A tool that fails on purpose, for the never-drop proof (config `tools.modules:
[bench.reliability.fault_tools]`). Each kind is a way real tools and MCP servers go wrong."""

from __future__ import annotations

import asyncio
import random

import msgspec

from saturnd.tools.registry import Tool, ToolEnv

HANG_TIMEOUT_S = 0.2
"""The tool's own limit: a hang outlives it."""
HUGE_CHARS = 50 * 1024 * 1024

KINDS = ("raise", "raise_unprintable", "raise_system_exit", "raise_keyboard_interrupt",
         "raise_cancelled", "hang", "hang_ignoring_cancel", "garbage_text",
         "bytes", "huge", "wrong_type")


class FaultParams(msgspec.Struct, forbid_unknown_fields=True):
    kind: str
    seed: int


class _Unprintable(Exception):
    def __str__(self) -> str:
        raise ValueError("an exception whose message itself fails")


_EXCEPTIONS = (RuntimeError, ValueError, KeyError, OSError, ZeroDivisionError, TypeError,
               UnicodeDecodeError, MemoryError, RecursionError, NotImplementedError)


async def _fault(params: FaultParams, env: ToolEnv) -> object:
    rng = random.Random(params.seed)
    match params.kind:
        case "raise":
            kind = rng.choice(_EXCEPTIONS)
            if kind is UnicodeDecodeError:
                raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")
            raise kind(f"fault {params.seed}")
        case "raise_unprintable":
            raise _Unprintable()
        case "raise_system_exit":
            raise SystemExit(3)
        case "raise_keyboard_interrupt":
            raise KeyboardInterrupt
        case "raise_cancelled":
            raise asyncio.CancelledError
        case "hang":
            await asyncio.sleep(HANG_TIMEOUT_S * 10)
        case "hang_ignoring_cancel":
            try:
                await asyncio.sleep(HANG_TIMEOUT_S * 10)
            except asyncio.CancelledError:
                await asyncio.sleep(HANG_TIMEOUT_S)  # a tool that cleans up slowly, then returns
            return "finished after all"
        case "garbage_text":
            # NULs, control characters, lone surrogates, bytes read as Latin-1.
            raw = rng.randbytes(rng.randint(1, 4000))
            return raw.decode("utf-8", "surrogateescape") + "\x00\udc80" + raw.decode("latin-1")
        case "bytes":
            return rng.randbytes(rng.randint(1, 4000))
        case "huge":
            return "y" * HUGE_CHARS
        case "wrong_type":
            return rng.choice([None, 42, 3.5, ["a", "list"], {"a": "dict"}, object(), True])
    return f"unknown fault kind {params.kind}"


TOOLS = [
    Tool("fault", "Fail in the given way.", FaultParams, _fault,  # type: ignore[arg-type]
         timeout_s=HANG_TIMEOUT_S),
]
