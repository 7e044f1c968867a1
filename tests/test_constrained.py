"""Constrained mode and the tool-mode policy."""

from __future__ import annotations

import pytest

from saturnd.egress import EgressOrigin
from saturnd.model import constrained
from saturnd.model.caller import ModelCaller, first_mode, reply_problem, retry_mode
from saturnd.model.client import ModelClient
from saturnd.model.embedded_server import DRAFT_SLOT, THINKING_SLOT
from saturnd.model.types import ModelReply, ToolCall
from saturnd.testing.fake_model import Reply
from saturnd.tools import builtin_registry

TOOLS = builtin_registry().openai_tools()


@pytest.mark.parametrize(("tool_mode", "offered", "first", "retry"), [
    ("native", True, "native", "native"),
    ("auto", True, "native", "constrained"),
    ("constrained", True, "constrained", "constrained"),
    ("auto", False, "plain", "plain"),
])
def test_modes(tool_mode, offered, first, retry):
    assert (first_mode(tool_mode, offered), retry_mode(tool_mode, offered)) == (first, retry)


def test_the_schema_admits_only_real_tools_and_their_arguments():
    schema = constrained.response_format(TOOLS)["json_schema"]["schema"]
    read_file = schema["anyOf"][1]
    assert read_file["properties"]["name"] == {"const": "read_file"}
    assert read_file["properties"]["arguments"]["required"] == ["path"]
    assert read_file["additionalProperties"] is False


@pytest.mark.parametrize(("content", "answer", "calls"), [
    ('{"response": "391"}', "391", []),
    ('{"name": "read_file", "arguments": {"path": "a"}}', "", [("read_file", '{"path": "a"}')]),
    ('{"name": "list_dir", "arguments": null}', "", [("list_dir", "{}")]),
])
def test_read_reply(content, answer, calls):
    reply = constrained.read_reply(ModelReply(content=content), 3)
    assert reply is not None and reply.content == answer
    assert [(c.name, c.arguments) for c in reply.tool_calls] == calls
    assert all(c.id == "cc_3" for c in reply.tool_calls)


@pytest.mark.parametrize("content", ["plain words", "[1]", '{"other": 1}', '{"arguments": {}}', '{"name": 3}'])
def test_read_reply_refuses_anything_else(content):
    assert constrained.read_reply(ModelReply(content=content), 1) is None


def test_instructions_go_at_the_end_of_the_system_prompt():
    messages = [{"role": "system", "content": "S"}, {"role": "user", "content": "u"}]
    out = constrained.with_instructions(messages, "JSON only")
    assert out == [{"role": "system", "content": "S\n\nJSON only"}, {"role": "user", "content": "u"}]
    assert messages[0]["content"] == "S"


def test_instructions_go_after_the_fixed_opening_ahead_of_what_can_change():
    """Memory and the knowledge base change between turns; the tool list must not move with them."""
    system = "Saturn.\n\nKnowledge base: a.md\n\nFacts: likes tea\n\n## This turn\nNow: …"
    out = constrained.with_instructions([{"role": "system", "content": system}], "Tools: x", after="Saturn.")
    assert out[0]["content"] == "Saturn.\n\nTools: x\n\nKnowledge base: a.md\n\nFacts: likes tea\n\n## This turn\nNow: …"


def test_instructions_go_last_when_the_opening_is_not_there():
    out = constrained.with_instructions([{"role": "system", "content": "Other"}], "Tools: x", after="Saturn.")
    assert out[0]["content"] == "Other\n\nTools: x"


@pytest.mark.parametrize(("reply", "problem"), [
    (ModelReply(content=""), "the reply was empty"),
    (ModelReply(tool_calls=[ToolCall("1", "read_file", "{bad")]), "the tool-call arguments were not JSON"),
    (ModelReply(tool_calls=[ToolCall("1", "read_file", "{bad"), ToolCall("2", "list_dir", "{}")]), None),
    (ModelReply(content="hi"), None),
])
def test_reply_problem(reply, problem):
    assert reply_problem(reply) == problem


@pytest.mark.parametrize(("config", "mode"), [
    ("model:\n  base_url: http://x/v1\n", "auto"),
    ("", "constrained"),
    ("model:\n  tool_mode: native\n", "native"),
    ("model:\n  base_url: http://x/v1\n  tool_mode: constrained\n", "constrained"),
])
def test_default_tool_mode_depends_on_the_endpoint(config, mode, tmp_path):
    from machine.paths import Paths
    from saturnd.config import parse_config
    from saturnd.model.endpoint import ModelEndpointManager

    paths = Paths(home=tmp_path, data_dir=tmp_path, socket=tmp_path / "s.sock")
    assert ModelEndpointManager(parse_config(config), paths).tool_mode == mode


def test_a_thinking_schema_opens_every_shape_with_a_bounded_thought():
    schema = constrained.response_format(TOOLS, think_budget=100)["json_schema"]["schema"]
    for shape in schema["anyOf"]:
        assert next(iter(shape["properties"])) == "thought"
        assert shape["properties"]["thought"] == {"type": "string", "maxLength": 300}
    assert "thought" not in constrained.response_format(TOOLS)["json_schema"]["schema"]["anyOf"][0]["properties"]
    assert '"thought"' in constrained.instructions(TOOLS, thinking=True)
    assert '"thought"' not in constrained.instructions(TOOLS)


@pytest.mark.parametrize("size", [1, 2, 3, 7, 100])
def test_the_thought_field_is_lifted_out_of_the_stream_and_unescaped(size):
    reply = '{ "thought" : "a \\"quote\\",\\nline \\u00e9\\\\", "response": "x"}'
    field = constrained.ThoughtField()
    lifted = "".join(field.feed(reply[i:i + size]) for i in range(0, len(reply), size))
    assert lifted == 'a "quote",\nline \u00e9\\'


def test_a_reply_without_a_thought_lifts_nothing():
    field = constrained.ThoughtField()
    reply = '{"response": "a long answer that is certainly longer than forty characters"}'
    assert "".join(field.feed(c) for c in reply) == ""


class _Unstoppable:
    def take_stop_thought(self) -> bool:
        return False

    def unless_aborted(self, awaitable):
        return awaitable


class _Unseen:
    def feed(self, text: str) -> None:
        pass

    def finish(self, answer: str | None) -> None:
        pass


@pytest.mark.parametrize(("prompt_slots", "slots"), [(True, [THINKING_SLOT, DRAFT_SLOT]), (False, [None, None])])
async def test_a_thinking_call_has_its_own_server_slot_on_the_embedded_server(fake_model, prompt_slots, slots):
    """Its prompt differs from a draft's ahead of the turn's ground: in one slot, each would
    push the other's prompt out of the server's cache."""
    model = ModelClient(fake_model.url, prompt_slots=prompt_slots)
    caller = ModelCaller(
        model=model, registry=builtin_registry(), control=_Unstoppable(), open_response=lambda _: _Unseen(),
        show_thinking=lambda _: None, origin=EgressOrigin(), tool_mode="constrained", think_budget=64,
    )
    fake_model.enqueue(Reply(text='{"thought": "notes.txt has it", "name": "read_file", "arguments": {"path": "notes.txt"}}'))
    fake_model.enqueue(Reply(text='{"response": "Dentist Friday 9am"}'))
    messages = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "When is my dentist?"}]
    thought = await caller.with_thinking(messages, tools_offered=True)
    drafted = await caller.without_thinking(messages, tools_offered=True)
    await model.close()
    assert thought.thought == "notes.txt has it" and drafted.reply.content == "Dentist Friday 9am"
    assert [request.get("id_slot") for request in fake_model.requests] == slots
