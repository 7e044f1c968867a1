"""The tool registry: what each tool is, what the model sees of it, how it runs."""

from __future__ import annotations

import asyncio
import fnmatch
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

import msgspec

RiskClass = Literal["read_only", "write", "exec", "egress", "messaging", "external"]
CHANGING_RISKS: frozenset[str] = frozenset({"write", "exec", "egress", "messaging", "external"})
"""A call of one of these may change what a re-read would see (an MCP server's tool may do anything)."""


class ToolFailure(Exception):
    """A tool could not do what was asked; the message is shown to the model."""


async def _nobody_to_ask(question: str) -> str:
    return NO_ANSWER


def _no_plan_sink(items: list[Any]) -> None:
    pass


async def _no_memory(fact: str) -> str:
    return "not saved: memory is not available here"


class CommandGroupLedger(Protocol):
    """Where run_command records the commands it runs (the daemon's store): the marker before
    the spawn, the process group after it, so no moment is left unrecorded."""

    def command_starting(self, marker: str) -> None: ...

    def command_started(self, marker: str, pgid: int) -> None: ...

    def command_ended(self, marker: str) -> None: ...


class _Unrecorded:
    """Outside the daemon (tool unit tests) nothing outlives the process that could clean up."""

    def command_starting(self, marker: str) -> None:
        pass

    def command_started(self, marker: str, pgid: int) -> None:
        pass

    def command_ended(self, marker: str) -> None:
        pass


NO_ANSWER = (
    "no answer exists: there is nobody to ask in this session. Do not guess: answer with what"
    " you know and say plainly what is still unknown."
)


@dataclass(frozen=True)
class ToolEnv:
    """What a running tool may know about, and reach in, its turn."""

    cwd: Path
    kb_dir: Path
    ask: Callable[[str], Awaitable[str]] = _nobody_to_ask
    """Put one question to the person; returns their answer (or NO_ANSWER)."""
    on_plan: Callable[[list[Any]], None] = _no_plan_sink
    remember: Callable[[str], Awaitable[str]] = _no_memory
    """Save a fact the gate let through; returns what the model is told."""
    outbox_dir: Path | None = None
    """Where messaging tools deliver when no platform backend exists (and in tests)."""
    web_allow_private: bool = False
    """web_fetch may reach loopback, link-local and private addresses."""
    web_allowed_hosts: tuple[str, ...] = ()
    """Non-empty: web_fetch reaches only these hosts (and their subdomains)."""
    tool_timeout_s: float = 30.0
    """runtime.tool_timeout_s: the ceiling on every tool's work; run_command stops its command there."""
    command_groups: CommandGroupLedger = field(default_factory=_Unrecorded)
    """run_command's running process groups, so a restart can end what a killed daemon left."""


ToolRun = Callable[[Any, ToolEnv], Awaitable[str]]
ToolPreview = Callable[[Any, ToolEnv], str]
EntryPick = Callable[[Any, Path], "tuple[str, list[str]] | None"]
EntryFits = Callable[[Any, Path], "list[tuple[str, Any]]"]


def in_thread(work: ToolPreview) -> ToolRun:
    """A tool's blocking work (files, SQLite) as its run: in a thread, off the daemon's event loop."""

    async def run(params: Any, env: ToolEnv) -> str:
        return await asyncio.to_thread(work, params, env)

    return run


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    """Short: every byte is paid on every pass by a small model."""
    params: type[msgspec.Struct]
    run: ToolRun
    risk: RiskClass = "read_only"
    outside: bool = False
    """Output comes from outside the conversation: fenced, and it taints the session."""
    timeout_s: float | None = None
    """A shorter limit of the tool's own; runtime.tool_timeout_s is the ceiling either way."""
    cleanup_s: float = 0.0
    """Time past the limit for a tool that stops its own work there and then cleans up."""
    waits_for_person: bool = False
    """Its time is a person's answer, not work: timeout_s alone limits it, not the ceiling."""
    parent: str | None = None
    """A tool that must have run first in the session (the dependency gate)."""
    target: str | None = None
    """The argument naming what the call acts on (e.g. "path"): the parent must have run on it."""
    names_entry: EntryPick | None = None
    """For an edit: the label of the one entry a call names in its file and the labels of the
    file's other entries, given the call's params and the cwd (None: it names none or several)."""
    entry_fits: EntryFits | None = None
    """For an edit whose words fit several entries: each entry's label, with the call's params
    made to name that entry alone."""
    naming: Callable[[Any, str], Any] | None = None
    """For an edit: the call's params made to name the entry given by its label instead."""
    preview: ToolPreview | None = None
    """What a call would change, for the person deciding on it (a unified diff of the file),
    worked out without changing anything; raises ToolFailure when the call would fail.
    Synchronous and blocking: call it through preview_call."""

    def parameters_schema(self) -> dict[str, Any]:
        return params_schema(self.params)

    def openai_schema(self, strict: bool = False) -> dict[str, Any]:
        """`strict`: every constraint (for constrained mode's grammar); otherwise only what
        helps a model write the call: every byte is paid on every pass."""
        parameters = self.parameters_schema()
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": parameters if strict else _slim(parameters),
            },
        }


PREVIEW_LINES = 200
PREVIEW_CHARS = 12_000
PREVIEW_LINE_CHARS = 400
PREVIEW_TIMEOUT_S = 5.0


async def preview_call(tool: Tool, params: Any, env: ToolEnv) -> str:
    """What the call would change, for ApprovalRequested.preview: "" when the tool has no
    preview, the call changes nothing, or the preview could not be made in time; "would fail: …"
    when the call would fail as it stands. `params` is the validated params Struct (Decision.params).
    Runs in a thread, off the event loop; capped at PREVIEW_LINES lines."""
    if tool.preview is None:
        return ""
    try:
        text = await asyncio.wait_for(asyncio.to_thread(tool.preview, params, env), PREVIEW_TIMEOUT_S)
    except ToolFailure as exc:
        return f"would fail: {exc}"
    except Exception:  # a preview never stands in the way of the approval
        return ""
    lines = text.split("\n")
    kept: list[str] = []
    size = 0
    for line in lines:
        line = line if len(line) <= PREVIEW_LINE_CHARS else line[:PREVIEW_LINE_CHARS] + "…"
        if len(kept) == PREVIEW_LINES or size + len(line) > PREVIEW_CHARS:
            return "\n".join(kept) + f"\n… {len(lines) - len(kept)} more lines"
        kept.append(line)
        size += len(line) + 1
    return "\n".join(kept)


def params_schema(params: type[msgspec.Struct]) -> dict[str, Any]:
    """A self-contained JSON Schema for a params Struct: nested Structs inlined (servers such
    as llama.cpp do not resolve $defs), titles dropped (every byte is paid per pass)."""
    (ref,), components = msgspec.json.schema_components([params])
    return _inline(ref, components)


VALIDATION_ONLY = frozenset({
    "additionalProperties", "minLength", "maxLength", "minimum", "maximum",
    "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems", "pattern",
})
"""Schema keys that only constrain: Saturn validates every call itself, so a model need not read them."""


def _slim(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _slim(v) for k, v in node.items() if k not in VALIDATION_ONLY and not (k == "required" and not v)}
    if isinstance(node, list):
        return [_slim(v) for v in node]
    return node


def _inline(node: Any, components: dict[str, Any]) -> Any:
    if isinstance(node, dict):
        if "$ref" in node:
            return _inline(components[node["$ref"].rsplit("/", 1)[-1]], components)
        return {k: _inline(v, components) for k, v in node.items() if k != "title"}
    if isinstance(node, list):
        return [_inline(v, components) for v in node]
    return node


class Registry:
    def __init__(self, tools: list[Tool] | None = None) -> None:
        self._tools: dict[str, Tool] = {}
        self._schemas: list[dict[str, Any]] = []
        self._strict_schemas: list[dict[str, Any]] = []
        for tool in tools or []:
            self.register(tool)

    def register(self, tool: Tool) -> None:
        if tool.name in self._tools:
            raise ValueError(f"tool {tool.name!r} registered twice")
        self._tools[tool.name] = tool
        # Built once: every pass sends them, and generating them costs ~0.1 ms a tool.
        self._schemas.append(tool.openai_schema())
        self._strict_schemas.append(tool.openai_schema(strict=True))

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def names(self) -> list[str]:
        return list(self._tools)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self._tools.values())

    def openai_tools(self, strict: bool = False) -> list[dict[str, Any]]:
        return self._strict_schemas if strict else self._schemas

    def without(self, patterns: list[str]) -> tuple[Registry, list[str]]:
        """A registry without the tools whose names match a glob; and the globs that matched none."""
        unused = [p for p in patterns if not any(fnmatch.fnmatchcase(n, p) for n in self._tools)]
        kept = [t for t in self if not any(fnmatch.fnmatchcase(t.name, p) for p in patterns)]
        return Registry(kept), unused
