"""An MCP tool's inputSchema as Saturn uses it: cleaned for a small model's server, and a
msgspec type that checks a call's top-level arguments like a built-in tool's."""

from __future__ import annotations

import functools
import operator
import re
from typing import Any, Literal, cast

import msgspec

_DROPPED_KEYS = frozenset({"title", "$schema", "$defs", "definitions", "$id", "$comment"})
_NAMED_SCHEMAS = frozenset({"properties", "patternProperties", "$defs", "definitions"})
_MAX_REF_DEPTH = 6


def clean_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The server's inputSchema as a small model's server wants it: titles and $schema dropped,
    local $refs inlined (llama.cpp does not resolve $defs), always an object."""
    defs: dict[str, Any] = {**schema.get("definitions", {}), **schema.get("$defs", {})}

    def walk(node: Any, depth: int) -> Any:
        if isinstance(node, list):
            return [walk(v, depth) for v in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str):
            target = defs.get(ref.rsplit("/", 1)[-1]) if ref.startswith("#/") else None
            if target is None or depth >= _MAX_REF_DEPTH:
                return {}  # unresolvable or too deep: anything goes, the server checks
            extra = {k: v for k, v in node.items() if k != "$ref"}
            return walk({**target, **extra}, depth + 1)
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key in _DROPPED_KEYS:
                continue
            if key in _NAMED_SCHEMAS and isinstance(value, dict):
                out[key] = {name: walk(sub, depth) for name, sub in value.items()}
            else:
                out[key] = walk(value, depth)
        return out

    cleaned = walk(schema, 0)
    if not isinstance(cleaned, dict):  # pragma: no cover - pydantic guarantees a dict
        cleaned = {}
    cleaned["type"] = "object"
    cleaned.setdefault("properties", {})
    return cleaned


_JSON_TYPES: dict[str, Any] = {
    "string": str,
    "integer": int,
    "number": float,
    "boolean": bool,
    "array": list[Any],
    "object": dict[str, Any],
    "null": None,
}


def params_type(schema: dict[str, Any], label: str) -> tuple[type[msgspec.Struct], frozenset[str]]:
    """A msgspec type checking a call's top-level arguments against the schema the way the
    daemon checks built-in tools (missing required, wrong type, unknown argument), so the
    model gets the usual readable "wrong arguments" message. Nested values are left to the
    server. Also the optional arguments whose null the model may send but the server would
    refuse (they are left out of the call)."""
    extra = schema.get("additionalProperties")
    if extra is True or isinstance(extra, dict):
        # Free-form arguments: a Struct would drop the ones it does not name.
        return cast(type[msgspec.Struct], dict[str, Any]), frozenset()
    required = set(schema.get("required", []))
    fields: list[tuple[str, Any] | tuple[str, Any, Any]] = []
    rename: dict[str, str] = {}
    nullable_dropped: set[str] = set()
    properties: dict[str, Any] = schema.get("properties", {})
    ordered = sorted(properties, key=lambda key: key not in required)  # required first
    for index, key in enumerate(ordered):
        spec = properties[key]
        attr = f"p{index}"
        rename[attr] = key
        kind = _python_type(spec if isinstance(spec, dict) else {})
        if key in required:
            fields.append((attr, kind))
        else:
            if not _allows_null(spec if isinstance(spec, dict) else {}, kind):
                nullable_dropped.add(key)
                kind = kind | None
            fields.append((attr, kind | msgspec.UnsetType, msgspec.UNSET))
    struct = msgspec.defstruct(
        re.sub(r"\W", "_", label) + "_params",
        fields,
        rename=rename,
        forbid_unknown_fields=True,
    )
    return struct, frozenset(nullable_dropped)


def _python_type(spec: dict[str, Any]) -> Any:
    enum = spec.get("enum")
    if isinstance(enum, list) and enum:
        if all(isinstance(v, str) for v in enum) or all(isinstance(v, int) and not isinstance(v, bool) for v in enum):
            return Literal.__getitem__(tuple(enum))
        return Any
    kind = spec.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    if not kinds or any(k not in _JSON_TYPES for k in kinds):
        return Any
    mapped = [_JSON_TYPES[str(k)] for k in kinds]
    return functools.reduce(operator.or_, mapped[1:], mapped[0])


def _allows_null(spec: dict[str, Any], kind: Any) -> bool:
    if kind is Any:
        return True
    kinds = spec.get("type")
    return kinds == "null" or (isinstance(kinds, list) and "null" in kinds)
