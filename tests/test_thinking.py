"""Thinking: the step kind, the policy table, and the act policy end to end."""

from __future__ import annotations

import json

import pytest

from saturnd.model.types import ToolCall
from saturnd.testing.fake_model import Reply, call
from saturnd.turn.thinking import POLICIES, policy_name, rethink_outcome, rethinks, think_plan
from tests.conftest import of_type

MISSING = call("read_file", {"path": "missing.txt"})
NOTE = call("append_note", {"text": "x"})


@pytest.mark.parametrize(("replies", "steps", "extra"), [
    ([call("list_dir", {}), "ok"], ["first_move", "continuing"], {}),
    ([MISSING, "gone", "still gone"], ["first_move", "recovery", "recovery"], {}),  # tool error, answer sent back
    ([call("edit_file", {"path": "a.txt", "old": "a", "new": "b"}), "ok"], ["first_move", "recovery"], {}),  # ⛔
    ([MISSING, MISSING, MISSING, "gone"], ["first_move", "recovery", "recovery", "recovery"], {}),  # a loop
    ([NOTE, "not written"], ["first_move", "continuing"], {"headless": True}),  # nobody to approve
    ([NOTE, NOTE, "no"], ["first_move", "continuing", "recovery"], {"headless": True}),  # declined, again
    (["Email sent.", "I cannot send email."], ["first_move", "recovery"], {"move": "send_message"}),  # nothing sent: back
])
async def test_the_step_kind_follows_what_happened_last(harness, replies, steps, extra):
    await harness.start(runtime_extra="  max_iterations: 10\n")
    harness.model.enqueue(*replies)
    if "move" in extra:
        harness.model.enqueue_choice(json.dumps({"route": extra.pop("move")}))
    turn_id, _ = await harness.turn("go", **extra)
    trace = await harness.client.call("trace/get", {"turn_id": turn_id})
    assert [p.step for p in trace.passes] == steps


async def test_a_bound_makes_the_last_pass_a_wrap_up(harness):
    await harness.start(runtime_extra="  max_iterations: 1\n")
    harness.model.enqueue(call("list_dir", {}), "done")
    turn_id, _ = await harness.turn("go")
    trace = await harness.client.call("trace/get", {"turn_id": turn_id})
    assert [p.step for p in trace.passes] == ["first_move", "wrap_up"]


STEPS = ["first_move", "continuing", "recovery", "steered", "wrap_up"]
TABLE = {
    "off":              ["off", "off", "off", "off", "off"],
    "on":               ["think", "think", "think", "think", "off"],
    "act":              ["draft", "draft", "think", "think", "off"],
    "act_no_steer":     ["draft", "draft", "think", "draft", "off"],
    "act_on_changes":   ["draft", "draft", "think", "think", "off"],
    "adaptive":         ["off", "off", "think", "off", "off"],
    "first_move":       ["think", "off", "off", "off", "off"],
    "first_and_errors": ["think", "off", "think", "off", "off"],
}


@pytest.mark.parametrize("policy", POLICIES)
def test_policy_table(policy):
    assert [think_plan(policy, step).mode for step in STEPS] == TABLE[policy]


@pytest.mark.parametrize(("policy", "mode"), [("act", "off"), ("act_no_steer", "off"), ("act_on_changes", "off"), ("on", "think")])
def test_a_forced_call_does_not_think_under_act(policy, mode):
    assert think_plan(policy, "recovery", forced=True).mode == mode


def test_levels_and_names():
    assert (policy_name("auto"), policy_name("on"), policy_name("adaptive"), policy_name("x")) == (
        "act", "on", "adaptive", None)


def tool_call(name, arguments):
    return ToolCall(id="c", name=name, arguments=arguments)


@pytest.mark.parametrize(("thought", "outcome"), [
    ([tool_call("read_file", '{"path": "a.txt"}')], "the thought kept the draft's call to read_file"),
    ([tool_call("read_file", '{ "path":"a.txt" }')], "the thought kept the draft's call to read_file"),
    ([tool_call("read_file", '{"path": "b.txt"}')], "the thought changed read_file's arguments"),
    ([tool_call("search_files", '{"query": "a"}')], "the thought changed the call: read_file -> search_files"),
    ([], "the thought answered instead of calling read_file"),
])
def test_the_trace_says_what_the_rethink_did_to_the_drafts_call(thought, outcome):
    assert rethink_outcome([tool_call("read_file", '{"path": "a.txt"}')], thought) == outcome


@pytest.mark.parametrize(("policy", "risks", "rethought"), [
    ("act", ["read_only"], True),
    ("act", [], False),
    ("act_on_changes", ["read_only"], False),
    ("act_on_changes", ["read_only", "write"], True),
    ("act_on_changes", ["messaging"], True),
    ("act_on_changes", ["unknown"], True),
    ("act_on_changes", [], False),
])
def test_which_drafts_are_pulled_back_to_think(policy, risks, rethought):
    assert rethinks(think_plan(policy, "first_move"), risks) is rethought


async def test_act_on_changes_keeps_a_look_as_drafted_and_rethinks_a_send(harness):
    await harness.start(
        "gate:\n  rules:\n    - {tool: send_message, decision: allow}\n", think="act_on_changes",
    )
    harness.model.enqueue(
        call("read_file", {"path": "contacts.md"}),
        call("send_message", {"to": "+44 7700 900001", "text": "Dinner is at 8."}),
        Reply(reasoning="Sam's number is in the file.",
              tool_calls=[{"name": "send_message", "arguments": {"to": "+44 7700 900001", "text": "Dinner is at 8."}}]),
        "Sent.",
    )
    (harness.env.workdir / "contacts.md").write_text("Sam: +44 7700 900001\n")
    turn_id, _ = await harness.turn("Text Sam that dinner is at 8.")
    assert [sent_thinking(harness, i) for i in range(4)] == [False, False, True, False]
    trace = await harness.client.call("trace/get", {"turn_id": turn_id})
    assert trace.passes[0].note == "the draft only looks: kept without thinking"
    assert trace.passes[1].note == (
        "the draft called a tool: pulled back, thinking; the thought kept the draft's call to send_message")


def sent_thinking(harness, index):
    return harness.model.requests[index].get("chat_template_kwargs", {}).get("enable_thinking")


async def test_act_a_draft_that_answers_is_the_answer(harness):
    await harness.start(think="auto")
    harness.model.enqueue("Hello!")
    _, events = await harness.turn("hi")
    assert len(harness.model.requests) == 1 and sent_thinking(harness, 0) is False
    assert of_type(events, "thinking_started") == []


async def test_act_a_draft_that_calls_a_tool_is_pulled_back_and_rethought(harness):
    await harness.start(think="auto")
    harness.model.enqueue(
        call("list_dir", {"path": "/wrong"}),
        Reply(reasoning="The user means this folder.", tool_calls=[{"name": "list_dir", "arguments": {}}]),
        "Here they are.",
    )
    turn_id, events = await harness.turn("list my files")
    assert [sent_thinking(harness, i) for i in range(3)] == [False, True, False]
    assert [e.arguments for e in of_type(events, "tool_proposed")] == [{}]  # the draft's call never ran
    ended = of_type(events, "thinking_ended")[0]
    assert (ended.reason, ended.opening, ended.cut) == (
        "draft first; think only if it calls a tool", "The user means this folder.", "")
    # The thought is never replayed to the model.
    assert all("The user means" not in str(m) for m in harness.model.requests[2]["messages"])
    trace = await harness.client.call("trace/get", {"turn_id": turn_id})
    assert trace.passes[0].thought == "The user means this folder." and trace.passes[0].model_calls == 2
    assert trace.passes[0].note == (
        "the draft called a tool: pulled back, thinking; the thought changed list_dir's arguments")


async def test_after_a_tool_error_the_pass_thinks_directly(harness):
    await harness.start(think="auto")
    harness.model.enqueue(call("read_file", {"path": "missing.txt"}),  # draft... pulled back:
                          Reply(reasoning="try it", tool_calls=[{"name": "read_file", "arguments": {"path": "missing.txt"}}]),
                          Reply(reasoning="it is missing", text="There is no such file."),
                          Reply(reasoning="still missing", text="missing.txt does not exist."))
    _, events = await harness.turn("read missing.txt")
    assert [sent_thinking(harness, i) for i in range(3)] == [False, True, True]
    assert [e.reason for e in of_type(events, "thinking_started")] == [
        "draft first; think only if it calls a tool", "after a tool error", "after a tool error"]


async def test_two_call_ceiling_when_the_thought_fails(harness):
    await harness.start(think="auto")
    harness.model.enqueue(call("list_dir", {}), Reply(reasoning="hmm", text=""), "Listed.")
    _, events = await harness.turn("list")
    # draft + failed thought = 2 calls; the draft's call runs, then the next pass.
    assert len(harness.model.requests) == 3
    assert [f.fate for f in of_type(events, "tool_finished")] == ["ran"]


async def test_thought_is_cut_at_the_budget_and_the_pass_reruns_without_it(harness):
    await harness.start(runtime_extra="  think: on\n  think_budget: 64\n")
    harness.model.enqueue(Reply(reasoning="x" * 200, chunk_chars=1, text="never"), "Short answer.")
    turn_id, events = await harness.turn("hi")
    assert [sent_thinking(harness, i) for i in range(2)] == [True, False]
    assert of_type(events, "thinking_ended")[0].cut == "at the budget of 64 tokens"
    assert of_type(events, "answer")[0].text == "Short answer."


async def test_stop_thought_cuts_the_live_thought(harness):
    client = await harness.start(runtime_extra="  think: on\n")
    harness.model.enqueue(Reply(reasoning="y" * 400, chunk_chars=1, text="never"), "Answered without it.")
    session = await client.call("session/create", {"cwd": str(harness.env.workdir)})
    started = await client.call("turn/start", {"session_id": session.session_id, "text": "hi"})
    events = []
    async for e in client.turn_events(started.turn_id):
        events.append(e)
        if e.event.__struct_config__.tag == "thinking_delta" and len(events) == 5:
            await client.call("turn/stop_thought", {"turn_id": started.turn_id})
    assert of_type(events, "thinking_ended")[0].cut == "stopped by you"
    assert of_type(events, "answer")[0].text == "Answered without it."


async def test_on_never_thinks_on_wrap_up(harness):
    await harness.start(runtime_extra="  think: on\n  max_iterations: 1\n")
    harness.model.enqueue(call("list_dir", {}), "Done.")
    _, _ = await harness.turn("list")
    assert [sent_thinking(harness, i) for i in range(2)] == [True, False]


async def test_session_and_turn_levels(harness):
    client = await harness.start(think="auto")
    session = await client.call("session/create", {"cwd": str(harness.env.workdir)})
    result = await client.call("session/set_think", {"session_id": session.session_id, "level": "on"})
    assert (result.level, result.policy) == ("on", "on")
    try:
        await client.call("session/set_think", {"session_id": session.session_id, "level": "max"})
    except Exception as exc:  # noqa: BLE001
        assert "unknown thinking level 'max': use off, auto or on" in str(exc)
    else:
        raise AssertionError("a bad level was accepted")
    harness.model.enqueue(Reply(reasoning="r", text="A"), "B")
    started = await client.call("turn/start", {"session_id": session.session_id, "text": "one"})
    [e async for e in client.turn_events(started.turn_id)]
    started = await client.call("turn/start", {"session_id": session.session_id, "text": "two", "think": "off"})
    [e async for e in client.turn_events(started.turn_id)]
    assert [sent_thinking(harness, i) for i in range(2)] == [True, False]


def test_think_flag_in_print_mode(saturn_env, fake_model):
    fake_model.enqueue(Reply(reasoning="r", text="thought about it"))
    result = saturn_env.saturn("-p", "hi", "--think", "on")
    assert result.stdout == "thought about it\n"
    assert fake_model.requests[0]["chat_template_kwargs"] == {"enable_thinking": True}
    bad = saturn_env.saturn("-p", "hi", "--think", "loud")
    assert bad.returncode == 1 and "unknown thinking level 'loud'" in bad.stderr


async def test_a_server_that_thinks_with_thinking_off_is_noted_and_budgeted(harness):
    await harness.start(runtime_extra="  think_budget: 64\n")
    harness.model.enqueue(Reply(reasoning="short musing", text="Hi."),
                          Reply(reasoning="z" * 300, chunk_chars=1, text="never"), '{"response": "Fine."}')
    first, _ = await harness.turn("hi")
    trace = await harness.client.call("trace/get", {"turn_id": first})
    assert trace.passes[0].note == "the server sent reasoning although thinking was off"
    assert trace.passes[0].thought == "short musing"
    second, events = await harness.turn("hello")
    trace = await harness.client.call("trace/get", {"turn_id": second})
    assert trace.passes[0].note.startswith(
        "the server thought although thinking was off (at the budget of 64 tokens); retried once")
    assert of_type(events, "answer")[0].text == "Fine."


async def test_constrained_mode_thinks_in_the_grammars_thought_field(harness):
    await harness.start(model_extra="  tool_mode: constrained\n", runtime_extra="  think: on\n")
    harness.model.enqueue('{"thought": "They greet me.\\nA greeting back fits.", "response": "Hi."}')
    turn_id, events = await harness.turn("hi")
    assert of_type(events, "answer")[0].text == "Hi."
    assert sent_thinking(harness, 0) is False  # the grammar writes the thought, not the server
    schema = harness.model.requests[0]["response_format"]["json_schema"]["schema"]
    assert schema["anyOf"][0]["required"] == ["thought", "response"]
    assert "".join(e.text for e in of_type(events, "thinking_delta")) == "They greet me.\nA greeting back fits."
    assert of_type(events, "thinking_ended")[0].opening.startswith("They greet me.")
    trace = await harness.client.call("trace/get", {"turn_id": turn_id})
    assert trace.passes[0].thinking and trace.passes[0].thought == "They greet me.\nA greeting back fits."
    harness.model.enqueue('{"thought": "Again.", "response": "Hello again."}')
    await harness.turn("hi again")
    assert "They greet me" not in json.dumps(harness.model.requests[1]["messages"])


async def test_a_constrained_thought_over_the_budget_is_cut_and_the_pass_answers_without_it(harness):
    await harness.start(model_extra="  tool_mode: constrained\n",
                        runtime_extra="  think: on\n  think_budget: 64\n")
    harness.model.enqueue(Reply(text='{"thought": "' + "z" * 300 + '", "response": "never"}', chunk_chars=1),
                          '{"response": "Hi."}')
    turn_id, events = await harness.turn("hi")
    assert of_type(events, "answer")[0].text == "Hi."
    assert of_type(events, "thinking_ended")[0].cut == "at the budget of 64 tokens"
    second = harness.model.requests[1]["response_format"]["json_schema"]["schema"]
    assert "thought" not in second["anyOf"][0]["properties"]
    trace = await harness.client.call("trace/get", {"turn_id": turn_id})
    assert trace.passes[0].model_calls == 2




async def test_a_session_says_its_level_and_a_pass_its_bound(harness):
    client = await harness.start(think="auto", runtime_extra="  max_iterations: 5\n")
    session = await client.call("session/create", {"cwd": str(harness.env.workdir)})
    assert session.think == "auto"
    await client.call("session/set_think", {"session_id": session.session_id, "level": "on"})
    got = await client.call("session/get", {"session_id": session.session_id})
    assert got.session.think == "on"
    harness.model.enqueue("hi")
    _, events = await harness.turn("hi", think="off")
    assert [(e.pass_index, e.max_passes) for e in of_type(events, "pass_started")] == [(1, 5)]


async def test_a_thought_that_drops_the_change_asked_for_does_not_stand(harness):
    await harness.start(think="act", config_extra="gate:\n  rules:\n    - {tool: mark_done, decision: allow}\n")
    lista = harness.env.workdir / "lista.md"
    lista.write_text("- [ ] Pan\n- [ ] Leche\n")
    harness.model.enqueue_choice(json.dumps({"route": "change_file"}))
    harness.model.enqueue(call("read_file", {"path": "lista.md"}),  # the forced first pass: no rethink
                          call("mark_done", {"path": "lista.md", "item": "Pan"}),  # draft, pulled back:
                          Reply(reasoning="ya está", text="Listo."),  # the thought answers instead
                          "Marqué el pan.")
    turn_id, events = await harness.turn("Marca el pan como comprado.")
    assert [f.fate for f in of_type(events, "tool_finished")] == ["ran", "ran"]
    assert lista.read_text() == "- [x] Pan\n- [ ] Leche\n"
    trace = await harness.client.call("trace/get", {"turn_id": turn_id})
    assert trace.passes[1].note.endswith("the change asked for is not made yet: the draft's call kept")
