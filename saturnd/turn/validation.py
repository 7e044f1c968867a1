"""Validation: a proposed call either fits a registered tool, or goes back with the right shape.

No gate and no model call for an invalid call: its tool result names the
problem and shows what the tool takes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import msgspec

from saturnd.model.types import ToolCall
from saturnd.tools.registry import Registry, Tool


@dataclass(frozen=True)
class Valid:
    tool: Tool
    params: Any
    arguments: dict[str, Any]


@dataclass(frozen=True)
class Invalid:
    message: str


def validate_call(call: ToolCall, registry: Registry) -> Valid | Invalid:
    tool = registry.get(call.name)
    arguments = _parse_arguments(call.arguments)
    if tool is None:
        return Invalid(_unknown_tool(call.name, registry))
    if arguments is None:
        return Invalid(
            f"the arguments of '{call.name}' are not a JSON object: {call.arguments[:200]!r}."
            f" Call it as {shape(tool)}"
        )
    try:
        params = msgspec.convert(arguments, tool.params)
    except msgspec.ValidationError as exc:
        return _without_placeholders(tool, arguments) or Invalid(_wrong_arguments(tool, arguments, str(exc), registry))
    return Valid(tool, params, arguments)


PLACEHOLDERS: tuple[object, ...] = (0, "", None, [], {})


def _without_placeholders(tool: Tool, arguments: dict[str, Any]) -> Valid | None:
    """The call without the optional arguments it gave as 0, "" or null, when that is what the
    tool refused: left out, they take their defaults. The 1.5B gave run_command "timeout_s": 0,
    was told it must be positive, and asked the person for a timeout."""
    required = set(tool.parameters_schema().get("required", []))
    kept = {k: v for k, v in arguments.items()
            if k in required or isinstance(v, bool) or v not in PLACEHOLDERS}
    if kept == arguments:
        return None
    try:
        return Valid(tool, msgspec.convert(kept, tool.params), kept)
    except msgspec.ValidationError:
        return None


def _parse_arguments(text: str) -> dict[str, Any] | None:
    if not text.strip():
        return {}
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _unknown_tool(name: str, registry: Registry) -> str:
    known = ", ".join(registry.names())
    return f"there is no tool named '{name}'. The tools are: {known}."


def _wrong_arguments(tool: Tool, arguments: dict[str, Any], problem: str, registry: Registry) -> str:
    message = f"wrong arguments for '{tool.name}': {problem}. Call it as {shape(tool)}"
    owner = _tool_these_arguments_fit(arguments, registry, exclude=tool.name)
    if owner is not None:
        message += f". These arguments fit '{owner.name}', not '{tool.name}': {shape(owner)}"
    return message


def _tool_these_arguments_fit(
    arguments: dict[str, Any], registry: Registry, exclude: str
) -> Tool | None:
    if not arguments:
        return None
    for tool in registry:
        if tool.name == exclude:
            continue
        try:
            msgspec.convert(arguments, tool.params)
        except msgspec.ValidationError:
            continue
        return tool
    return None


def shape(tool: Tool) -> str:
    """`name {"path": <string>, "start_line"?: <integer>}`: the call as the model should write it."""
    schema = tool.parameters_schema()
    required = set(schema.get("required", []))
    fields = []
    for key, spec in schema.get("properties", {}).items():
        optional = "" if key in required else "?"
        fields.append(f'"{key}"{optional}: <{_type_name(spec)}>')
    return f"{tool.name} {{{', '.join(fields)}}}"


def _type_name(spec: dict[str, Any]) -> str:
    if "enum" in spec:
        return " | ".join(json.dumps(v) for v in spec["enum"])
    kind = spec.get("type")
    if isinstance(kind, list):
        return " or ".join(kind)
    if kind == "array":
        return f"list of {_type_name(spec.get('items', {}))}"
    return str(kind or "value")
