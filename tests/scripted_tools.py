"""Tools for tests, registered through config `tools.modules: [tests.scripted_tools]`."""

from __future__ import annotations

import asyncio
from pathlib import Path

import msgspec

from saturnd.tools.registry import Tool, ToolEnv


class NoteParams(msgspec.Struct, forbid_unknown_fields=True):
    text: str


class SleepParams(msgspec.Struct, forbid_unknown_fields=True):
    seconds: float


class Empty(msgspec.Struct, forbid_unknown_fields=True):
    pass


async def _append_note(params: NoteParams, env: ToolEnv) -> str:
    with (env.cwd / "notes.log").open("a") as f:
        f.write(params.text + "\n")
    return "noted"


async def _sleep(params: SleepParams, env: ToolEnv) -> str:
    await asyncio.sleep(params.seconds)
    return f"slept {params.seconds:g}s"


async def _explode(params: Empty, env: ToolEnv) -> str:
    raise RuntimeError("the widget is on fire")


async def _garbage(params: Empty, env: ToolEnv) -> str:
    return {"not": "text"}  # type: ignore[return-value]


async def _huge(params: Empty, env: ToolEnv) -> str:
    return "x" * 100_000


async def _count(params: Empty, env: ToolEnv) -> str:
    counter = Path(env.cwd) / "count.txt"
    value = int(counter.read_text()) + 1 if counter.exists() else 1
    counter.write_text(str(value))
    return f"count is {value}"


class PatchParams(msgspec.Struct, forbid_unknown_fields=True):
    path: str
    text: str


class MailParams(msgspec.Struct, forbid_unknown_fields=True):
    to: str
    body: str


async def _patch(params: PatchParams, env: ToolEnv) -> str:
    target = env.cwd / params.path
    target.write_text(target.read_text() + params.text)
    return f"patched {params.path}"


async def _mail(params: MailParams, env: ToolEnv) -> str:
    with (env.cwd / "sent.log").open("a") as f:
        f.write(f"{params.to}: {params.body}\n")
    return f"mailed {params.to}"


class PortParams(msgspec.Struct, forbid_unknown_fields=True):
    port: int


async def _raw_connect(params: PortParams, env: ToolEnv) -> str:
    """Connects with a bare socket, outside any logged client: the audit hook must see it."""
    import socket

    with socket.create_connection(("127.0.0.1", params.port), timeout=2):
        pass
    return "connected"


_arrived = 0
_both_here = asyncio.Event()


async def _meet(params: Empty, env: ToolEnv) -> str:
    """Succeeds only if a second `meet` runs at the same time: proves calls run concurrently."""
    global _arrived
    _arrived += 1
    if _arrived % 2 == 0:
        _both_here.set()
    await asyncio.wait_for(_both_here.wait(), 5)
    return "met"


async def _instant(params: Empty, env: ToolEnv) -> str:
    return "ok"


TOOLS = [
    Tool("instant", "Return at once.", Empty, _instant),
    Tool("raw_connect", "Open a TCP connection.", PortParams, _raw_connect),
    Tool("patch", "Append text to a file you have read.", PatchParams, _patch, risk="write",
         parent="read_file", target="path"),
    Tool("mail", "Send a mail.", MailParams, _mail, risk="messaging", target="to"),
    Tool("meet", "Meet another call.", Empty, _meet, timeout_s=10),
    Tool("append_note", "Append a line to notes.log.", NoteParams, _append_note, risk="write"),
    Tool("sleep", "Sleep.", SleepParams, _sleep),
    Tool("explode", "Always fails.", Empty, _explode),
    Tool("garbage", "Returns a non-text value.", Empty, _garbage),
    Tool("huge", "Returns 100 KB.", Empty, _huge),
    Tool("bump", "Increment a counter file.", Empty, _count, risk="write"),
]
