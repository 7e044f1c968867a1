"""tool_fit: an MCP tool that shares no word with the request is sent back once, then runs."""

from __future__ import annotations

import json

import msgspec
import pytest

from saturnd.model.types import ToolCall
from saturnd.tools import builtin_registry
from saturnd.tools.registry import Tool, ToolEnv
from saturnd.turn.claims import Claim, unbacked_claim
from saturnd.turn.loop_rules import CallLedger
from saturnd.turn.review import GateContext, review_calls
from saturnd.turn.tool_fit import fits_request


class WeatherParams(msgspec.Struct):
    location: str
    unit: str = "celsius"


async def _weather(params: WeatherParams, env: ToolEnv) -> str:
    return "sunny"


WEATHER = Tool(
    name="bfcl.get_current_weather", description="Retrieves the current weather for a city.",
    params=WeatherParams, run=_weather, risk="external",
)


@pytest.mark.parametrize(("request_text", "fits"), [
    ("What's the weather like in Boston?", True),
    ("Which location is warmest today?", True),  # a parameter's name counts
    ("Resolve the DNS of twitter.com via VirusTotal", False),
    ("hi", False),
])
def test_a_tool_fits_a_request_that_shares_a_word_with_it(request_text, fits):
    assert fits_request(request_text, WEATHER) is fits


def test_an_unfit_mcp_call_is_sent_back_once_then_runs():
    registry = builtin_registry()
    registry.register(WEATHER)
    ledger, context = CallLedger(), GateContext(request="Resolve the DNS of twitter.com")
    call = ToolCall(id="c1", name=WEATHER.name, arguments=json.dumps({"location": "twitter.com"}))
    first = review_calls([call], registry, ledger, 8, context)[0]
    assert first.fate == "invalid" and first.result.startswith(
        "tool error: bfcl.get_current_weather does not look like it does what the user asked")
    assert review_calls([call], registry, ledger, 8, context)[0].fate != "invalid"


def test_built_in_tools_are_not_checked():
    read = ToolCall(id="c1", name="read_file", arguments=json.dumps({"path": "shopping.txt"}))
    decided = review_calls([read], builtin_registry(), CallLedger(), 8, GateContext(request="What's on my list?"))
    assert decided[0].fate == "approved"


@pytest.mark.parametrize(("request_text", "answer", "claimed"), [
    ("What's the weather like in London, in fahrenheit?", "The current weather in London is 20°F.", "20"),
    ("I'm in New York for 5 days. What's the weather there, in Celsius?", "It is 21.2°C in New York.", "21.2"),
    ("What's the weather like in London?", "I can't look up the weather.", None),
    ("Is 25 degrees warm weather?", "Yes, 25 degrees is warm.", None),
    ("Is 25 degrees plus 3 degrees warm weather?", "Yes, 28 degrees is warm.", None),  # worked out from the request
    ("What is the capital of France?", "Paris, since 987.", None),  # no tool fits
])
def test_a_made_up_value_where_an_mcp_tool_fits_is_sent_back_to_that_tool(request_text, answer, claimed):
    registry = builtin_registry()
    registry.register(WEATHER)
    claim = unbacked_claim(answer, [], registry, request_text)
    assert claim == (Claim("unsourced", claimed, ("bfcl.get_current_weather",)) if claimed else None)
