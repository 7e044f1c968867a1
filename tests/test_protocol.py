"""The protocol package: wire types only, and its committed schema is current."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import msgspec

from protocol.events import Answer, TurnEvent
from protocol.jsonrpc import ERRORS_BY_CODE, ErrorObject, error_from_object
from protocol.methods import METHODS
from protocol.schema import schema_text

PROTOCOL = Path(__file__).resolve().parent.parent / "protocol"
STDLIB = set(sys.stdlib_module_names)


def test_protocol_imports_only_msgspec_and_the_standard_library():
    for path in PROTOCOL.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top in STDLIB | {"msgspec", "protocol", "__future__"}, f"{path.name} imports {name}"


def test_committed_schema_is_current():
    committed = (PROTOCOL / "schema.json").read_text()
    assert committed == schema_text(), "protocol/schema.json is stale: run `saturn schema > protocol/schema.json`"


def test_saturn_schema_prints_it():
    out = subprocess.run([sys.executable, "-m", "clients.cli.main", "schema"], capture_output=True, text=True)
    assert out.stdout == schema_text()


def test_method_names_are_resource_slash_verb():
    for name, spec in METHODS.items():
        resource, verb = name.split("/")
        assert resource.isidentifier() and verb.isidentifier()
        assert spec.params.__name__.endswith("Params") or spec.params.__name__ == "Empty"


def test_events_round_trip_with_their_tag():
    line = msgspec.json.encode(TurnEvent(turn_id="t", seq=3, event=Answer(text="hi")))
    assert b'"type":"answer"' in line
    assert msgspec.json.decode(line, type=TurnEvent).event == Answer(text="hi")


def test_errors_map_back_to_their_classes():
    for code, cls in ERRORS_BY_CODE.items():
        assert type(error_from_object(ErrorObject(code=code, message="m"))) is cls
    assert {-32700, -32600, -32601, -32602} <= set(ERRORS_BY_CODE)
