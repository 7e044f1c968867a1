"""tool_fit: an MCP tool that shares no word with the request is sent back once, then runs."""

from __future__ import annotations

import json

import msgspec
import pytest

from saturnd.model.types import ToolCall
from saturnd.tools import builtin_registry
from saturnd.tools.registry import Tool, ToolEnv
from saturnd.turn.claims import Claim, must_call_after, restates_request, unbacked_claim
from saturnd.turn.loop_rules import CallLedger
from saturnd.turn.review import GateContext, review_calls
from saturnd.turn.tool_fit import fits_request, named_for_request, seems_unfit


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
    ("How warm is it in London, in celsius?", "It is 20°C in London.", "20"),  # fits by its unit, not its name
    ("I'm in New York for 5 days. How warm is it there, in Celsius?", "It is 21.2°C in New York.", "21.2"),
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


class CommandParams(msgspec.Struct):
    command: str


APPLIANCE = Tool(
    name="bfcl.ControlAppliance_execute", description="Controls a home appliance.",
    params=CommandParams, run=_weather, risk="external",
)


def test_words_of_a_tool_in_another_script_count_as_written():
    described = Tool(
        name="bfcl.ControlAppliance_execute", description="Controls a home appliance: '다용도실, 통돌이, 중지'.",
        params=CommandParams, run=_weather, risk="external",
    )
    assert fits_request("perform 다용도실 통돌이 중지", described)


@pytest.mark.parametrize(("request_text", "unfit"), [
    ("Resolve the DNS of twitter.com via VirusTotal", True),
    ("최근 박지성에 관한 뉴스를 찾아줘.", False),  # Korean against English: the words say nothing
    ("我想知道'Boston'的weather", False),  # the Latin word glued to the Chinese still counts
    ("What's the weather in Seoul?", False),
])
def test_a_tool_seems_unfit_only_where_request_and_tool_share_a_script(request_text, unfit):
    assert seems_unfit(request_text, WEATHER) is unfit


@pytest.mark.parametrize(("request_text", "tool_name", "named"), [
    ("Could you tell me the current weather conditions in Shanghai?", "bfcl.get_current_weather", True),
    ("What's it like outside in Seoul?", "bfcl.OpenWeatherMap_get_current_weather", False),
    ("Calculate the prime factors of 100", "bfcl.calculate_compound_interest", False),  # a doing word only
    ("Book me an Uber ride to the airport", "bfcl.uber_ride", True),
])
def test_a_tool_is_named_for_a_request_by_a_word_of_its_name_that_is_not_a_doing_word(
    request_text, tool_name, named,
):
    tool = Tool(name=tool_name, description="Looks things up.", params=WeatherParams, run=_weather, risk="external")
    assert named_for_request(request_text, tool) is named


@pytest.mark.parametrize(("request_text", "answer", "restated"), [
    ("perform 다용도실 통돌이 중지", "다용도실 통돌이 중지", True),
    ("I would like to order a burger with the following modification verbatim: no onions, extra cheese",
     "I would like to order a burger with no onions and extra cheese.", True),
    ("Calculate the area under the curve y=3x^2 from x = 1 to x = 5",
     "The area under the curve from x = 1 to x = 5 is 150 square units.", False),  # it answers with a number
    ("Order me a burger with extra cheese", "Your burger is ordered.", False),
    ("Order me a burger", "Burger.", False),
])
def test_an_answer_that_is_the_request_again(request_text, answer, restated):
    assert restates_request(answer, request_text) is restated


def test_a_restated_request_and_a_value_a_tool_is_named_for_go_back_to_that_tool():
    registry = builtin_registry()
    registry.register(WEATHER)
    registry.register(APPLIANCE)
    restated = unbacked_claim("What is the weather in Oslo", [], registry, "What is the weather in Oslo")
    assert restated == Claim("restated", "What is the weather in Oslo", ("bfcl.get_current_weather",))
    made_up = unbacked_claim("22", [], registry, "Could you tell me the current weather in Shanghai?")
    assert made_up == Claim("not_looked_up", "22", ("bfcl.get_current_weather",))
    offered = registry.names()
    assert must_call_after(made_up, offered) == must_call_after(restated, offered) == ("bfcl.get_current_weather",)
