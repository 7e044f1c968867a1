"""Recover tool calls that small models wrote as text instead of native `tool_calls`.

Small Qwen models often spell a call out as Hermes `<tool_call>` tags, `<function=...>`
XML, or fenced/bare JSON. We recover one only when it names a known tool and carries a
JSON object of arguments: a false positive runs a tool nobody asked for, while a false
negative merely shows the text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from typing import Any

from saturnd.model.types import ToolCall

_THINK_BLOCK = re.compile(r"<think>(.*?)</think>", re.DOTALL)
_HERMES_OPEN = re.compile(r"<tool_call>\s*")
_HERMES_CLOSE = re.compile(r"\s*</tool_call>")
# The body may not run into another <function=, so one unterminated call cannot
# swallow the next; a missing </function> is tolerated only where the wrapper closes
# or the text ends (the model was cut off).
_FUNCTION = re.compile(
    r"(?:<tool_call>\s*)?<function=(?P<name>[^>\s]+)>"
    r"(?P<body>(?:(?!<function=).)*?)"
    r"(?:</function>|(?=\s*</tool_call>)|\Z)(?:\s*</tool_call>)?",
    re.DOTALL,
)
_PARAMETER = re.compile(r"<parameter=(?P<name>[^>\s]+)>(?P<value>.*?)</parameter>", re.DOTALL)
_FENCE = re.compile(r"```(?P<lang>[\w+-]*)[ \t]*\n(?P<body>.*?)```", re.DOTALL)
_CALL_FENCES = frozenset({"", "json", "tool_call"})
# Keys a call object may carry; anything else (e.g. "description") means the model is
# echoing a tool schema, not calling the tool.
_CALL_KEYS = frozenset({"name", "arguments", "parameters", "id", "type"})
_JSON_START = re.compile(r"[\[{]")
_DECODER = json.JSONDecoder()


@dataclass(frozen=True)
class Recovery:
    calls: list[ToolCall]
    text: str
    """The reply with recovered calls (and their wrappers) and think blocks removed."""


@dataclass(frozen=True)
class _Span:
    start: int
    end: int
    calls: list[tuple[str, str]] | None
    """(name, compact JSON arguments) pairs; None marks a region to leave untouched."""


def strip_think(text: str) -> tuple[str, str]:
    """Split inline reasoning out of a reply: (answer, thinking), both stripped."""
    thoughts: list[str] = []
    close, open_ = text.find("</think>"), text.find("<think>")
    # Qwen3 templates put <think> in the prompt, so the reply starts mid-thought.
    if close != -1 and (open_ == -1 or open_ > close):
        thoughts.append(text[:close])
        text = text[close + len("</think>") :]

    def keep_thought(match: re.Match[str]) -> str:
        thoughts.append(match.group(1))
        return ""

    text = _THINK_BLOCK.sub(keep_thought, text)
    # An unclosed <think> means generation stopped while still thinking.
    head, sep, tail = text.partition("<think>")
    if sep:
        thoughts.append(tail)
        text = head
    return text.strip(), "\n".join(t.strip() for t in thoughts if t.strip())


def recover_tool_calls(text: str, known_tools: Collection[str]) -> Recovery:
    """Lift text-written calls to known tools out of a reply; the rest stays as text."""
    answer, _thinking = strip_think(text)
    spans: list[_Span] = []
    # Tagged shapes first: their wrappers are unambiguous, and claiming their spans
    # keeps the bare-JSON scan from recovering the same object a second time.
    for finder in (_function_spans, _hermes_spans, _fence_spans):
        for span in finder(answer, known_tools):
            if not _overlaps(span, spans):
                spans.append(span)
    spans.extend(list(_bare_json_spans(answer, known_tools, spans)))
    recovered = sorted((s for s in spans if s.calls), key=lambda s: s.start)
    if not recovered:
        return Recovery(calls=[], text=answer)
    calls = [
        ToolCall(id=f"rc_{i}", name=name, arguments=args, recovered_from_text=True)
        for i, (name, args) in enumerate((c for s in recovered for c in s.calls or []), 1)
    ]
    # The text between recovered spans, as [0, start1), [end1, start2), ... [endN, len).
    bounds = [0, *(i for s in recovered for i in (s.start, s.end)), len(answer)]
    pieces = (answer[a:b].strip() for a, b in zip(bounds[::2], bounds[1::2], strict=True))
    return Recovery(calls=calls, text="\n".join(p for p in pieces if p))


def _overlaps(span: _Span, taken: list[_Span]) -> bool:
    return any(span.start < t.end and t.start < span.end for t in taken)


def _function_spans(text: str, known: Collection[str]) -> Iterator[_Span]:
    for m in _FUNCTION.finditer(text):
        call = _normalize(m.group("name"), _xml_arguments(m.group("body")), known)
        if call:
            yield _Span(m.start(), m.end(), [call])


def _xml_arguments(body: str) -> Any:
    """Arguments of a `<function=...>` body: a JSON object or `<parameter=...>` tags."""
    body = body.strip()
    if body.startswith("{"):
        return _loads(body)
    # Anything outside complete parameter tags (prose, a value cut off mid-way) means
    # we would be guessing at the arguments.
    if _PARAMETER.sub("", body).strip():
        return None
    # Qwen3-coder puts each value on its own lines; only that framing newline is noise.
    # Without the tool schema we cannot type the values, so they stay strings.
    return {
        p.group("name"): p.group("value").removeprefix("\n").removesuffix("\n")
        for p in _PARAMETER.finditer(body)
    }


def _hermes_spans(text: str, known: Collection[str]) -> Iterator[_Span]:
    for m in _HERMES_OPEN.finditer(text):
        try:
            value, end = _DECODER.raw_decode(text, m.end())
        except json.JSONDecodeError:
            continue
        calls = _calls_from_value(value, known)
        if calls:
            close = _HERMES_CLOSE.match(text, end)
            yield _Span(m.start(), close.end() if close else end, calls)


def _fence_spans(text: str, known: Collection[str]) -> Iterator[_Span]:
    # A fence is all or nothing: a block mixing a good call with an unknown one is kept
    # whole (span with calls=None) rather than half-emptied. Code fences in other
    # languages are masked too: a call-shaped dict in Python is code, not a request.
    for m in _FENCE.finditer(text):
        calls = None
        if m.group("lang").lower() in _CALL_FENCES:
            calls = _calls_from_json_sequence(m.group("body"), known)
        yield _Span(m.start(), m.end(), calls)


def _bare_json_spans(text: str, known: Collection[str], taken: list[_Span]) -> Iterator[_Span]:
    pos = 0
    while start := _JSON_START.search(text, pos):
        pos = start.start()
        try:
            value, end = _DECODER.raw_decode(text, pos)
        except json.JSONDecodeError:
            pos += 1
            continue
        calls = _calls_from_value(value, known)
        span = _Span(pos, end, calls)
        # Calls inside wrappers already handled (or fences masked) are not lifted twice.
        if calls and not _overlaps(span, taken):
            yield span
        # Jump past any decoded value so a call nested inside other data is not lifted out.
        pos = end


def _calls_from_json_sequence(body: str, known: Collection[str]) -> list[tuple[str, str]] | None:
    """Calls from whitespace-separated JSON values, or None unless every value is a call."""
    calls: list[tuple[str, str]] = []
    pos, body = 0, body.strip()
    while pos < len(body):
        try:
            value, pos = _DECODER.raw_decode(body, pos)
        except json.JSONDecodeError:
            return None
        found = _calls_from_value(value, known)
        if not found:
            return None
        calls.extend(found)
        while pos < len(body) and body[pos].isspace():
            pos += 1
    return calls or None


def _calls_from_value(value: Any, known: Collection[str]) -> list[tuple[str, str]] | None:
    """A call object, or a non-empty array of them; None unless every element recovers."""
    items = value if isinstance(value, list) else [value]
    calls = [_call_from_object(item, known) for item in items]
    if not calls or any(c is None for c in calls):
        return None
    return [c for c in calls if c]


def _call_from_object(obj: Any, known: Collection[str]) -> tuple[str, str] | None:
    if not isinstance(obj, dict):
        return None
    if "name" not in obj:
        # OpenAI-style {"type": "function", "function": {...}} and {"tool_call": {...}}.
        inner = obj.get("function", obj.get("tool_call"))
        if not isinstance(inner, dict):
            return None
        obj = inner
    if not obj.keys() <= _CALL_KEYS:
        return None
    return _normalize(obj.get("name"), obj.get("arguments", obj.get("parameters")), known)


def _normalize(name: Any, args: Any, known: Collection[str]) -> tuple[str, str] | None:
    if not isinstance(name, str) or name not in known:
        return None
    if isinstance(args, str):
        args = _loads(args)
    if not isinstance(args, dict):
        return None
    return name, json.dumps(args, ensure_ascii=False, separators=(",", ":"))


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return None
