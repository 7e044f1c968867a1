"""Constrained mode: no `tools`; a JSON schema forces either one real tool call or an answer.

Only registered tool names and their argument shapes can be produced, so a
small model that cannot emit native tool calls still can't invent a tool.
"""

from __future__ import annotations

import json
from typing import Any

from saturnd.model.types import ModelReply, ToolCall


def response_format(tools: list[dict[str, Any]]) -> dict[str, Any]:
    """{"tool_call": {"name", "arguments"}} for one of `tools`, or {"response": "..."}."""
    choices: list[dict[str, Any]] = [_object({"response": {"type": "string"}})]
    for tool in tools:
        function = tool["function"]
        call = _object({
            "name": {"const": function["name"]},
            "arguments": function.get("parameters") or {"type": "object"},
        })
        choices.append(_object({"tool_call": call}))
    return {"type": "json_schema", "json_schema": {"name": "reply", "schema": {"anyOf": choices}}}


def _object(properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def instructions(tools: list[dict[str, Any]]) -> str:
    """The tools in one line each, then the two reply shapes."""
    lines = ["Tools:"] + [f"- {_signature(t['function'])}" for t in tools]
    lines.append(
        "Reply with one JSON object only. When the request needs a tool (a file, a folder,"
        ' a document, the user), call it: {"tool_call": {"name": "<tool>", "arguments": {...}}}.'
        ' Otherwise answer the user: {"response": "<your answer>"}.'
    )
    return "\n".join(lines)


def _signature(function: dict[str, Any]) -> str:
    parameters = function.get("parameters") or {}
    required = set(parameters.get("required", []))
    fields = [
        f"{name}{'' if name in required else '?'}: {spec.get('type', 'value')}"
        for name, spec in (parameters.get("properties") or {}).items()
    ]
    return f"{function['name']}({', '.join(fields)}): {function.get('description', '')}"


def with_instructions(messages: list[dict[str, Any]], text: str) -> list[dict[str, Any]]:
    """A copy of `messages` whose system prompt ends with `text`."""
    if messages and messages[0]["role"] == "system":
        first = dict(messages[0], content=f"{messages[0]['content']}\n\n{text}")
        return [first, *messages[1:]]
    return [{"role": "system", "content": text}, *messages]


def read_reply(reply: ModelReply, call_number: int) -> ModelReply | None:
    """The reply's JSON turned into an answer or a call; None if it is not that JSON."""
    try:
        data = json.loads(reply.content)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    if isinstance(data.get("response"), str):
        reply.content = data["response"]
        return reply
    call = data.get("tool_call")
    if isinstance(call, dict) and isinstance(call.get("name"), str):
        arguments = call.get("arguments")
        reply.tool_calls = [ToolCall(
            id=f"cc_{call_number}",
            name=call["name"],
            arguments=json.dumps(arguments if isinstance(arguments, dict) else {}),
        )]
        reply.content = ""
        return reply
    return None
