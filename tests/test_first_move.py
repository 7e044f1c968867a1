"""The first move against the scripted server: what is asked, how route and probabilities are read."""

from __future__ import annotations

import json
import math

import pytest

from saturnd.model.client import ModelClient
from saturnd.model.embedded_server import THINKING_SLOT
from saturnd.model.types import ModelReply, TokenLogprob
from saturnd.testing.fake_model import Reply, error, reset
from saturnd.turn.first_move import (
    EXAMPLES,
    ROUTES,
    SPELLING,
    FirstMove,
    decide_first_move,
    expects_change,
    move_messages,
    read_move,
    schema,
)

TOOLS = [
    {"type": "function", "function": {"name": "read_file", "description": "Read a text file.\nMore.", "parameters": {}}},
    {"type": "function", "function": {"name": "send_email", "description": "Send an email.", "parameters": {}}},
]


def lp(token: str, p: float, *alternatives: tuple[str, float]) -> dict:
    """One token of OpenAI's logprobs.content, probabilities given plainly."""
    top = [{"token": t, "logprob": math.log(q)} for t, q in ((token, p), *alternatives)]
    return {"token": token, "logprob": math.log(p), "top_logprobs": top}


def route_reply(route: str, *alternatives: tuple[str, float], p: float = 0.8, **kw) -> Reply:
    """{"route": "<the route as written>"} in pieces as Qwen's tokenizer makes them."""
    written = SPELLING[route]  # type: ignore[index]
    tokens = [lp('{"', 1.0), lp("route", 1.0), lp('":', 1.0), lp(' "', 1.0),
              lp(written[:3], p, *alternatives), lp(written[3:], 1.0), lp('"}', 1.0)]
    return Reply(text=f'{{"route": "{written}"}}', logprobs=tokens, **kw)


@pytest.fixture
async def model(fake_model):
    client = ModelClient(fake_model.url, name="fake", temperature=0.7, max_tokens=4000)
    yield client
    await client.close()


async def test_the_request_is_one_short_constrained_call_with_logprobs(model, fake_model):
    fake_model.enqueue_choice(route_reply("change"))
    await decide_first_move(model, "Füge Milch zu meiner Einkaufsliste hinzu", TOOLS, "Files: shopping.txt")
    body = fake_model.choice_requests[0]
    assert body["response_format"] == {"type": "json_schema", "json_schema": {"name": "choice", "schema": schema()}}
    assert list(schema()["properties"]) == ["route"]
    assert schema()["properties"]["route"]["enum"] == [SPELLING[r] for r in ROUTES]
    assert body["logprobs"] is True and body["top_logprobs"] == 10
    assert (body["temperature"], body["max_tokens"], body["stream"]) == (0.0, 16, False)
    assert "tools" not in body and body["chat_template_kwargs"] == {"enable_thinking": False}
    system, *examples, user = body["messages"]
    assert user == {"role": "user", "content": "Shown:\nFiles: shopping.txt\n\nRequest: Füge Milch zu meiner Einkaufsliste hinzu"}
    assert "any language" in system["content"] and "- read_file: Read a text file." in system["content"]
    assert "More." not in system["content"]
    assert [m["role"] for m in examples] == ["user", "assistant"] * len(EXAMPLES)
    assert {json.loads(m["content"])["route"] for m in examples[1::2]} == set(SPELLING.values())


async def test_the_embedded_server_keeps_the_draft_slot_for_the_turn(fake_model):
    client = ModelClient(fake_model.url, prompt_slots=True)
    fake_model.enqueue_choice(route_reply("answer"))
    await decide_first_move(client, "2+2?", [])
    assert fake_model.choice_requests[0]["id_slot"] == THINKING_SLOT
    await client.close()


async def test_route_and_probabilities(model, fake_model):
    fake_model.enqueue_choice(route_reply("change", ("loo", 0.1), ("sen", 0.05), ("xyz", 0.05)))
    move = await decide_first_move(model, "add milk", TOOLS)
    assert move is not None and move.route == "change"
    assert move.probabilities is not None
    assert move.probabilities["change"] == pytest.approx(0.8 / 0.95, abs=1e-3)
    assert move.probabilities["look_up"] == pytest.approx(0.1 / 0.95, abs=1e-3)
    assert move.probabilities["cannot"] == 0.0
    assert move.why == "first move: change (p=0.84; look_up 0.11; send 0.05)"
    assert expects_change(move)


async def test_a_server_without_logprobs_still_decides(model, fake_model):
    fake_model.enqueue_choice('{"route": "no_tool"}')
    move = await decide_first_move(model, "Bestell mir eine Pizza", TOOLS)
    assert move == FirstMove("cannot", None, "first move: cannot")
    assert not expects_change(move)


async def test_a_streamed_reply_keeps_its_logprobs(fake_model):
    client = ModelClient(fake_model.url)
    fake_model.enqueue(route_reply("send", ("cha", 0.2)))
    reply = await client.complete([{"role": "user", "content": "x"}])
    assert reply.logprobs is not None and [t.token for t in reply.logprobs][-2:] == ["d_message", '"}']
    move = read_move(reply)
    assert move is not None and move.probabilities == {**dict.fromkeys(ROUTES, 0.0), "send": 0.8, "change": 0.2}
    await client.close()


def test_the_value_may_begin_inside_a_token():
    # '"route":"ask_user"}' with the quote and the value's start in one token, an ambiguous "a",
    # a whole route, a token that is no route, and one without the quote before it.
    tokens = [TokenLogprob('{"route":', 0.0), TokenLogprob('"ask', math.log(0.6), (
        ('"ask', math.log(0.6)), ('"answer_now"', math.log(0.3)), ('"a', math.log(0.05)),
        ('"answ"', math.log(0.05)), ("ask", math.log(0.05)))), TokenLogprob('_user"}', 0.0)]
    move = read_move(ModelReply(content='{"route":"ask_user"}', logprobs=tokens))
    assert move is not None and move.route == "ask"
    assert move.probabilities == {**dict.fromkeys(ROUTES, 0.0), "ask": pytest.approx(0.6667, abs=1e-3),
                                  "answer": pytest.approx(0.3333, abs=1e-3)}


def test_the_written_token_counts_when_the_alternatives_miss_it():
    # llama.cpp's alternatives are the model's before the grammar: the written route may be absent.
    tokens = [TokenLogprob('{"route": "', 0.0), TokenLogprob("no", math.log(0.02), (
        ("order", math.log(0.5)), ("look", math.log(0.06)))), TokenLogprob('_tool"}', 0.0)]
    move = read_move(ModelReply(content='{"route": "no_tool"}', logprobs=tokens))
    assert move is not None and move.probabilities is not None
    assert move.probabilities["cannot"] == 0.25 and move.probabilities["look_up"] == 0.75


def test_the_bare_route_names_are_read_too():
    assert [read_move(ModelReply(content=json.dumps({"route": r}))) for r in ("send", "send_message")] == [
        FirstMove("send", None, "first move: send")] * 2


@pytest.mark.parametrize("content", ["", "not json", '{"route": "dance"}', "[1]", '{"move": "answer_now"}'])
async def test_an_unreadable_reply_is_none(model, fake_model, content):
    fake_model.enqueue_choice(content)
    assert await decide_first_move(model, "hi", TOOLS) is None


async def test_a_failing_server_is_none(model, fake_model):
    fake_model.enqueue_choice(error(500, "boom"), Reply(raw=b"{garbage"))
    assert await decide_first_move(model, "hi", TOOLS) is None
    assert await decide_first_move(model, "hi", TOOLS) is None


async def test_a_reset_is_retried(model, fake_model):
    fake_model.enqueue_choice(reset(), route_reply("look_up"))
    move = await decide_first_move(model, "what's on my list?", TOOLS)
    assert move is not None and move.route == "look_up"
    assert len(fake_model.choice_requests) == 2


def test_move_messages_without_tools_or_brief():
    system, *_, user = move_messages("", "hola", [])
    assert "exist:\n(none)" in system["content"] and user == {"role": "user", "content": "hola"}


@pytest.mark.parametrize(("route", "probabilities", "threshold", "expected"), [
    ("change", {"change": 0.3, "send": 0.3, "answer": 0.4}, 0.5, True),
    ("send", {"send": 0.4, "answer": 0.6}, 0.5, False),
    ("send", {"send": 0.4, "answer": 0.6}, 0.4, True),
    ("look_up", {"look_up": 0.5, "change": 0.5}, 0.5, False),
    ("change", {"change": 0.34, "answer": 0.25, "ask": 0.2, "cannot": 0.21}, 0.5, True),  # unsure, but a tool's
    ("change", {"change": 0.3, "cannot": 0.3, "answer": 0.25, "ask": 0.15}, 0.5, False),
])
def test_expects_change(route, probabilities, threshold, expected):
    assert expects_change(FirstMove(route, probabilities, ""), threshold) is expected
    assert not expects_change(None)


def answer_reply(key: str, value: str, p: float, other: str) -> Reply:
    """{"<key>": "<value>"} with the other value's share beside it."""
    tokens = [lp('{"', 1.0), lp(key, 1.0), lp('":', 1.0), lp(' "', 1.0), lp(value, p, (other, 1 - p)), lp('"}', 1.0)]
    return Reply(text=json.dumps({key: value}), logprobs=tokens)


async def test_an_unsure_look_up_that_wants_a_change_is_a_change(model, fake_model):
    # Swedish: "my postcard to Taiwan has arrived, tick it off" (stop 57's first run: a look-up at 0.54)
    request = "Mitt vykort till Taiwan har kommit fram, bocka av det."
    fake_model.enqueue_choice(route_reply("look_up", ("cha", 0.3), ("no", 0.05), p=0.65),
                              answer_reply("want", "change", 0.97, "know"))
    move = await decide_first_move(model, request, TOOLS)
    assert move is not None and (move.route, move.settled) == ("change", True) and expects_change(move)
    assert move.why.endswith("; wants a change 0.97: change")
    question = fake_model.choice_requests[1]
    assert question["messages"][0]["content"].startswith("Say what a request wants.")
    assert question["messages"][-1] == {"role": "user", "content": request}
    assert question["response_format"]["json_schema"]["schema"]["properties"]["want"]["enum"] == ["know", "change"]


@pytest.mark.parametrize(("look_up", "wants", "asked"), [(0.65, 0.6, True), (0.9, 0.99, False)])
async def test_a_look_up_stays_one_when_it_wants_to_know_or_is_sure(model, fake_model, look_up, wants, asked):
    fake_model.enqueue_choice(route_reply("look_up", ("cha", 1 - look_up), p=look_up),
                              answer_reply("want", "change", wants, "know"))
    move = await decide_first_move(model, "¿Cuántos kilos de basura recogimos este año?", TOOLS)
    assert move is not None and (move.route, move.settled) == ("look_up", False)
    assert len(fake_model.choice_requests) == (2 if asked else 1)


async def test_a_change_is_asked_nothing_more(model, fake_model):
    # Czech: "cut the scions at grandma's tomorrow and put them in the cellar"
    fake_model.enqueue_choice(route_reply("change", ("no", 0.25), ("ask", 0.15), p=0.6))
    move = await decide_first_move(model, "Nařež zítra u babičky rouby a ulož je do sklepa.", TOOLS)
    assert move is not None and move.route == "change"
    assert len(fake_model.choice_requests) == 1


async def test_an_unsure_look_up_is_asked_what_it_wants_alone(model, fake_model):
    fake_model.enqueue_choice(route_reply("look_up", ("ask", 0.3), ("no", 0.2), p=0.5),
                              answer_reply("want", "change", 0.5, "know"))
    move = await decide_first_move(model, "Matteo Conti, quello dei Castori.", TOOLS)
    assert move is not None and move.route == "look_up"
    assert [r["messages"][0]["content"][:13] for r in fake_model.choice_requests[1:]] == ["Say what a re"]
