"""JSON Schema of the whole protocol, generated from the registry."""

from __future__ import annotations

import json
from typing import Any

import msgspec

from protocol import PROTOCOL_VERSION
from protocol.methods import METHODS, NOTIFICATIONS


def protocol_schema() -> dict[str, Any]:
    types: list[Any] = []
    for spec in METHODS.values():
        types += [spec.params, spec.result]
    types += list(NOTIFICATIONS.values())
    refs, components = msgspec.json.schema_components(types, ref_template="#/$defs/{name}")
    it = iter(refs)
    methods = {name: {"params": next(it), "result": next(it)} for name in METHODS}
    notifications = {name: next(it) for name in NOTIFICATIONS}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Saturn protocol",
        "version": PROTOCOL_VERSION,
        "methods": methods,
        "notifications": notifications,
        "$defs": dict(sorted(components.items())),
    }


def schema_text() -> str:
    return json.dumps(protocol_schema(), indent=2, sort_keys=True) + "\n"
