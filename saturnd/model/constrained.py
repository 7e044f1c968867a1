"""Constrained mode: no `tools`; a JSON schema forces either one real tool call or an answer.

Only registered tool names and their argument shapes can be produced, so a
small model that cannot emit native tool calls still can't invent a tool.

Thinking happens inside the grammar: a thinking call's schema opens every
reply with a bounded `"thought"` string, which ThoughtField lifts out of the
stream as it is written, so it is shown, budgeted and stoppable like any
thought, and never sent back to the model.
"""

from __future__ import annotations

import json
import re
from typing import Any

from saturnd.model.types import ModelReply, ToolCall

CHARS_PER_THOUGHT_TOKEN = 3
"""The thought's length bound in characters per budget token: a little under a typical
token, so the grammar closes the thought before the token budget would cut it."""


def response_format(tools: list[dict[str, Any]], think_budget: int = 0, only: tuple[str, ...] = ()) -> dict[str, Any]:
    """{"name", "arguments"} for one of `tools`, or {"response": "..."}.

    A call has the bare shape the chat template teaches, {"name": ..., "arguments": ...}: the
    model's first pick is that shape, and a schema that named it "tool_call" steered the 1.5B
    into answering instead (BFCL live_simple dev: 1 call in 8 against 6 in 8 with this shape).
    With a `think_budget` (tokens) each shape opens with a bounded "thought". With `only`,
    just the calls of those tools remain: no answer.
    """
    opening: dict[str, Any] = {}
    if think_budget:
        opening["thought"] = {"type": "string", "maxLength": think_budget * CHARS_PER_THOUGHT_TOKEN}
    choices: list[dict[str, Any]] = [] if only else [_object({**opening, "response": {"type": "string"}})]
    for tool in tools:
        function = tool["function"]
        if only and function["name"] not in only:
            continue
        choices.append(_object({
            **opening,
            "name": {"const": function["name"]},
            "arguments": function.get("parameters") or {"type": "object"},
        }))
    return {"type": "json_schema", "json_schema": {"name": "reply", "schema": {"anyOf": choices}}}


def _object(properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def instructions(tools: list[dict[str, Any]], thinking: bool = False) -> str:
    """The tools in one line each, then the two reply shapes (opened by a thought when thinking).

    The thinking lines cost time: they sit ahead of the turn's ground, so the server evaluates
    the ground and the conversation again for a thinking call and for the pass after it. They
    stay here because the 1.5B thinks well only here: at the system prompt's end it passed 21 of
    33 tasks that think, against 27 (bench/results 20261202-think51-stop25), and as a message after
    the conversation it took them for the person's words and thought in circles to the budget."""
    lines = ["Tools:"] + [f"- {_signature(t['function'])}" for t in tools]
    thought = '"thought": "<your reasoning>", ' if thinking else ""
    lines.append(
        "Reply with one JSON object only. When the request needs what only a tool gives or does"
        " (the user's files, documents or messages, the web, an action, a listed function's job),"
        " call it with argument values from the user's words:"
        f' {{{thought}"name": "<tool>", "arguments": {{...}}}}.'
        " When general knowledge answers it (a fact, a translation, a capital, simple arithmetic, a chat),"
        f' answer the user: {{{thought}"response": "<your answer>"}}.'
    )
    if thinking:
        lines.append(
            'First think in "thought", in one or two short sentences, only about the decision: which'
            " source holds what is needed (an excerpt, a listed file, the knowledge base, the user),"
            " which tool gets it or does the task, and what is still missing. Do not restate the"
            " request. Then give the call or the answer."
        )
    return "\n".join(lines)


def _signature(function: dict[str, Any]) -> str:
    """One line for the tool; under it, a line per parameter with a description, enum or format.

    The raw native call shows the model each parameter's description, enum and format ("in the
    format 'City, State'"); without them the model guessed values a raw call got right.
    """
    parameters = function.get("parameters") or {}
    required = set(parameters.get("required", []))
    properties = {k: v for k, v in (parameters.get("properties") or {}).items() if isinstance(v, dict)}
    fields = [f"{name}{'' if name in required else '?'}: {_type(spec)}" for name, spec in properties.items()]
    lines = [f"{function['name']}({', '.join(fields)}): {function.get('description', '')}".rstrip()]
    lines += [f"    {name}: {about}" for name, spec in properties.items() if (about := _about(spec))]
    return "\n".join(lines)


def _type(spec: dict[str, Any]) -> str:
    if spec.get("type") == "array" and isinstance(spec.get("items"), dict):
        return f"array of {spec['items'].get('type', 'value')}"
    return str(spec.get("type", "value"))


def _about(spec: dict[str, Any]) -> str:
    parts = []
    if "enum" in spec:
        parts.append("one of " + ", ".join(json.dumps(v) for v in spec["enum"]))
    if spec.get("format"):
        parts.append(f"format {spec['format']}")
    if spec.get("description"):
        parts.append(" ".join(str(spec["description"]).split()))
    if parts and "default" in spec:
        parts.append(f"default {json.dumps(spec['default'])}")
    return "; ".join(parts)


def with_instructions(messages: list[dict[str, Any]], text: str, after: str = "") -> list[dict[str, Any]]:
    """A copy of `messages` whose system prompt has `text` just after its fixed opening `after`,
    or at its end. What the user can change (standing instructions, the knowledge base, memory)
    and what changes per turn then come after the tool list, so the server's prompt cache keeps
    the tool list across turns even when a fact is remembered."""
    if messages and messages[0]["role"] == "system":
        content = messages[0]["content"]
        if after and content.startswith(after):
            content = f"{after}\n\n{text}{content[len(after):]}"
        else:
            content = f"{content}\n\n{text}"
        return [dict(messages[0], content=content), *messages[1:]]
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
    if isinstance(data.get("name"), str):
        arguments = data.get("arguments")
        reply.tool_calls = [ToolCall(
            id=f"cc_{call_number}",
            name=data["name"],
            arguments=json.dumps(arguments if isinstance(arguments, dict) else {}),
        )]
        reply.content = ""
        return reply
    return None


THOUGHT_OPENING = re.compile(r'\s*\{\s*"thought"\s*:\s*"')
ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", '"': '"', "\\": "\\", "/": "/"}


class ThoughtField:
    """Lifts the text of a streamed reply's opening "thought" string out as it is written."""

    def __init__(self) -> None:
        self._state = "opening"
        self._opening = ""
        self._escape = ""

    def feed(self, text: str) -> str:
        """The thought's (unescaped) text in this piece of the reply; "" outside the thought."""
        if self._state == "opening":
            self._opening += text
            match = THOUGHT_OPENING.match(self._opening)
            if not match:
                if len(self._opening) > 40:  # no thought opens this reply
                    self._state = "after"
                return ""
            self._state = "inside"
            text = self._opening[match.end():]
        if self._state != "inside":
            return ""
        return self._inside(text)

    def _inside(self, text: str) -> str:
        out: list[str] = []
        for char in text:
            if self._escape:
                self._escape += char
                if self._escape[1] == "u":
                    if len(self._escape) == 6:
                        out.append(_unicode(self._escape))
                        self._escape = ""
                    continue
                out.append(ESCAPES.get(char, char))
                self._escape = ""
            elif char == "\\":
                self._escape = char
            elif char == '"':
                self._state = "after"
                break
            else:
                out.append(char)
        return "".join(out)


def _unicode(escape: str) -> str:
    try:
        return chr(int(escape[2:], 16))
    except ValueError:
        return ""
