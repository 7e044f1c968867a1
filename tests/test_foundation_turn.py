"""A first turn through the real daemon, socket and scripted model."""

from __future__ import annotations

import asyncio
import json

from protocol.client import Client
from protocol.events import Answer, PassStarted, Receipt, ResponseDelta, TurnEnded, TurnStarted
from protocol.methods import SessionCreateParams, TurnStartParams, TurnSubscribeParams
from saturnd.testing.fake_model import Reply, error, reset


async def start_turn(client: Client, cwd: str, text: str) -> tuple[str, str]:
    session = await client.call("session/create", SessionCreateParams(cwd=cwd))
    started = await client.call("turn/start", TurnStartParams(session_id=session.session_id, text=text))
    return session.session_id, started.turn_id


async def collect(client: Client, turn_id: str) -> list:
    return [e async for e in client.turn_events(turn_id)]


async def test_a_turn_streams_its_events_in_order(client, fake_model, saturn_env):
    fake_model.enqueue(Reply(text="Hello there, friend.", chunk_chars=5, usage=(42, 7)))
    session_id, turn_id = await start_turn(client, str(saturn_env.workdir), "hi")
    events = await asyncio.wait_for(collect(client, turn_id), 10)

    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    kinds = [type(e.event) for e in events]
    assert kinds == [TurnStarted, PassStarted, ResponseDelta, ResponseDelta, ResponseDelta,
                     ResponseDelta, Answer, Receipt, TurnEnded]
    assert "".join(e.event.text for e in events if isinstance(e.event, ResponseDelta)) == "Hello there, friend."
    assert events[-3].event == Answer(text="Hello there, friend.")
    receipt = events[-2].event
    assert (receipt.passes, receipt.model_calls, receipt.tokens_in, receipt.tokens_out) == (1, 1, 42, 7)
    assert events[-1].event == TurnEnded(status="completed")
    assert all(e.turn_id == turn_id and e.session_id == session_id for e in events)

    sent = fake_model.requests[0]
    assert sent["stream"] is True and sent["model"] == "fake" and sent["max_tokens"] == 2048
    assert sent["messages"][0]["role"] == "system"
    assert str(saturn_env.workdir) in sent["messages"][0]["content"]
    assert sent["messages"][1:] == [{"role": "user", "content": "hi"}]


async def test_session_history_is_kept_and_sent_on_the_next_turn(client, fake_model, saturn_env):
    fake_model.enqueue("Paris.", "About 2.1 million.")
    session_id, turn_id = await start_turn(client, str(saturn_env.workdir), "Capital of France?")
    await collect(client, turn_id)
    second = await client.call("turn/start", TurnStartParams(session_id=session_id, text="Population?"))
    await collect(client, second.turn_id)

    assert fake_model.requests[1]["messages"][1:] == [
        {"role": "user", "content": "Capital of France?"},
        {"role": "assistant", "content": "Paris."},
        {"role": "user", "content": "Population?"},
    ]
    got = await client.call("session/get", {"session_id": session_id})
    assert [(m.role, m.content) for m in got.messages] == [
        ("user", "Capital of France?"), ("assistant", "Paris."),
        ("user", "Population?"), ("assistant", "About 2.1 million."),
    ]
    assert got.session.turn_count == 2
    listed = await client.call("session/list")
    assert [s.session_id for s in listed.sessions] == [session_id]


async def test_a_long_sessions_oldest_turns_are_left_out_and_the_trace_says_so(harness):
    client = await harness.start(runtime_extra="  history_tokens: 30\n")  # one 20-token turn fits
    harness.model.enqueue("First answer, forty characters long.....", "Second answer, forty characters long....",
                          "Third.")
    session = await client.call("session/create", SessionCreateParams(cwd=str(harness.env.workdir)))
    turn_ids = []
    for question in ("First question, forty characters long...", "Second question, forty characters long..",
                     "Third?"):
        started = await client.call("turn/start", TurnStartParams(session_id=session.session_id, text=question))
        await collect(client, started.turn_id)
        turn_ids.append(started.turn_id)

    assert harness.sent(2) == [
        {"role": "user", "content": "Second question, forty characters long.."},
        {"role": "assistant", "content": "Second answer, forty characters long...."},
        {"role": "user", "content": "Third?"},
    ]
    note = "left out the 1 oldest earlier turn(s), about 20 tokens, to stay within runtime.history_tokens (30)"
    traces = [await client.call("trace/get", {"turn_id": t}) for t in turn_ids]
    assert [t.history for t in traces] == ["", "", note]
    assert f"history: {note}" in harness.env.saturn("trace", "why", turn_ids[2]).stdout


async def test_reasoning_and_inline_think_stay_out_of_the_answer(client, fake_model, saturn_env):
    fake_model.enqueue(Reply(reasoning="let me see", text="<think>more thought</think>42"))
    _, turn_id = await start_turn(client, str(saturn_env.workdir), "answer?")
    events = await collect(client, turn_id)
    thinking = "".join(e.event.text for e in events if e.event.__struct_config__.tag == "thinking_delta")
    assert thinking == "let me seemore thought"
    assert [e.event for e in events if isinstance(e.event, Answer)] == [Answer(text="42")]


async def test_model_http_error_ends_the_turn_with_the_servers_message(client, fake_model, saturn_env):
    fake_model.enqueue(error(503, "model is loading"))
    _, turn_id = await start_turn(client, str(saturn_env.workdir), "hi")
    events = await collect(client, turn_id)
    ended = events[-1].event
    assert ended.status == "failed"
    assert ended.error == f"model server at {fake_model.url} answered HTTP 503: model is loading"
    assert ended.error_code == -32002


async def test_a_turn_survives_the_model_server_resetting_its_connection(client, fake_model, saturn_env):
    fake_model.enqueue(reset(), reset(), "still here")
    _, turn_id = await start_turn(client, str(saturn_env.workdir), "hi")
    events = await collect(client, turn_id)
    assert events[-1].event.status == "completed"
    assert [e.event for e in events if isinstance(e.event, Answer)] == [Answer(text="still here")]
    assert len(set(fake_model.raw_bodies)) == 1 and len(fake_model.raw_bodies) == 3
    listed = await client.call("egress/list", {"turn_id": turn_id})
    # the first move's decision is a request of its own, with its own row
    assert sorted(e.status for e in listed.entries) == ["200", "200", "ClientOSError", "ClientOSError"]


async def test_a_client_that_leaves_mid_turn_does_not_stop_it(daemon, fake_model, saturn_env):
    fake_model.enqueue(Reply(text="slow answer", delay_s=0.5))
    first = await Client.connect(str(saturn_env.socket))
    _, turn_id = await start_turn(first, str(saturn_env.workdir), "hi")
    await first.close()

    second = await Client.connect(str(saturn_env.socket))
    watched = await second.call("turn/subscribe", TurnSubscribeParams(turn_id=turn_id, after_seq=0))
    assert watched.status == "running"
    events = await asyncio.wait_for(collect(second, turn_id), 10)
    assert events[0].seq == 1 and isinstance(events[0].event, TurnStarted)
    assert events[-1].event == TurnEnded(status="completed")

    # After the end, subscribing replays exactly what is stored after the given seq.
    replay = await second.call("turn/subscribe", TurnSubscribeParams(turn_id=turn_id, after_seq=2))
    assert replay.status == "completed"
    again = await asyncio.wait_for(collect(second, turn_id), 10)
    assert [e.seq for e in again] == [e.seq for e in events[2:]]
    await second.close()


async def test_two_clients_watch_the_same_turn(daemon, fake_model, saturn_env):
    fake_model.enqueue(Reply(text="shared", delay_s=0.3))
    owner = await Client.connect(str(saturn_env.socket))
    watcher = await Client.connect(str(saturn_env.socket))
    _, turn_id = await start_turn(owner, str(saturn_env.workdir), "hi")
    await watcher.call("turn/subscribe", TurnSubscribeParams(turn_id=turn_id))
    a, b = await asyncio.gather(collect(owner, turn_id), collect(watcher, turn_id))
    assert [e.seq for e in a] == [e.seq for e in b]
    assert json.dumps([e.seq for e in a]) and a[-1].event.status == "completed"
    await owner.close()
    await watcher.close()
