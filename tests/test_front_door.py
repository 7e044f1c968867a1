"""The OpenAI-compatible front door, driven by the `openai` client over the unix socket and the
loopback port: the whole loop runs behind it, each pass through the door once, never twice."""

from __future__ import annotations

import asyncio
import json
import socket

import httpx
import openai
import pytest

from saturnd.front_door.server import INTERNAL_HEADER
from saturnd.testing.fake_model import call, error, text
from saturnd.testing.scratch import ScratchDaemon

KEYRING = {"PYTHON_KEYRING_BACKEND": "tests.file_keyring.FileKeyring"}


def front_door_socket(harness) -> str:
    return str(harness.env.socket.with_name("saturnd-openai.sock"))


def over_socket(harness) -> openai.AsyncOpenAI:
    transport = httpx.AsyncHTTPTransport(uds=front_door_socket(harness))
    return openai.AsyncOpenAI(
        base_url="http://saturnd/v1", api_key="unused", max_retries=0,
        http_client=httpx.AsyncClient(transport=transport),
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def ask(question: str) -> list[dict]:
    return [{"role": "user", "content": question}]


async def test_a_request_runs_the_loop_and_comes_back_as_a_chat_completion(harness):
    await harness.start()
    harness.model.enqueue(call("calculate", {"expression": "17*23"}), text("17*23 is 391."))
    door = over_socket(harness)
    completion = await door.chat.completions.create(model="saturn", messages=ask("What is 17*23?"))
    assert completion.choices[0].message.content == "17*23 is 391."
    assert completion.choices[0].finish_reason == "stop"
    assert (completion.usage.prompt_tokens, completion.usage.completion_tokens) == (20, 10)
    assert completion.usage.total_tokens == 30
    # Two passes, each sent to the model once: the ground (system prompt, memory) once at the
    # top, the request once, the tool's result in the second; no internal header reaches it.
    first, second = harness.model.requests
    assert [m["role"] for m in first["messages"]] == ["system", "user"]
    assert first["messages"][-1]["content"] == "What is 17*23?"
    assert second["messages"][:2] == first["messages"]
    assert [m["role"] for m in second["messages"][2:]] == ["assistant", "tool"]
    assert "391" in second["messages"][-1]["content"]
    assert {t["function"]["name"] for t in first["tools"]} >= {"calculate", "read_file"}
    assert not any(INTERNAL_HEADER.lower() in map(str.lower, h) for h in harness.model.request_headers)
    trace = await harness.client.call("trace/get", {"turn_id": completion.saturn["turn_id"]})
    assert (trace.text, trace.answer, len(trace.passes)) == ("What is 17*23?", "17*23 is 391.", 2)


async def test_the_callers_earlier_conversation_stands_in_for_the_sessions(harness):
    await harness.start()
    harness.model.enqueue(text("Blue."))
    door = over_socket(harness)
    await door.chat.completions.create(model="saturn", messages=[
        {"role": "system", "content": "Answer in one word."},
        {"role": "user", "content": "Name a colour."},
        {"role": "assistant", "content": "Red."},
        {"role": "user", "content": [{"type": "text", "text": "Another?"}]},
    ])
    sent = harness.model.requests[0]["messages"]
    assert [m["role"] for m in sent] == ["system", "user", "user", "assistant", "user"]
    assert sent[1:] == [
        {"role": "user", "content": "(Instructions from the program that sent this request) Answer in one word."},
        {"role": "user", "content": "Name a colour."},
        {"role": "assistant", "content": "Red."},
        {"role": "user", "content": "Another?"},
    ]


async def test_streaming_sends_the_answer_as_it_comes_with_usage_at_the_end(harness):
    await harness.start()
    harness.model.enqueue(text("Hello from Saturn."))
    door = over_socket(harness)
    stream = await door.chat.completions.create(model="saturn", messages=ask("Say hello"), stream=True)
    chunks = [chunk async for chunk in stream]
    assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == "Hello from Saturn."
    assert len(chunks) > 3  # streamed, not sent whole
    assert chunks[-1].choices[0].finish_reason == "stop"
    assert (chunks[-1].usage.prompt_tokens, chunks[-1].usage.completion_tokens) == (10, 5)
    assert len(harness.model.requests) == 1


async def test_headless_rules_a_call_that_needs_a_person_does_not_run(harness):
    await harness.start()
    harness.model.enqueue(
        call("write_file", {"path": "x.txt", "content": "x"}), text("I could not write x.txt."),
    )
    door = over_socket(harness)
    completion = await door.chat.completions.create(model="saturn", messages=ask("Write x to x.txt"))
    assert completion.choices[0].message.content == "I could not write x.txt."
    assert not (harness.env.home / "x.txt").exists()
    trace = await harness.client.call("trace/get", {"turn_id": completion.saturn["turn_id"]})
    assert [c.fate for p in trace.passes for c in p.calls] == ["not_approved"]


@pytest.mark.parametrize("stream", [False, True])
async def test_when_the_loop_produces_nothing_the_request_goes_to_the_model_as_it_came(harness, stream):
    await harness.start()
    harness.model.enqueue(error(400, "the loop's request was refused"), text("Plain answer."))
    door = over_socket(harness)
    messages = [{"role": "system", "content": "Be brief."}, *ask("Hi")]
    reply = await door.chat.completions.create(model="raw", messages=messages, stream=stream)
    if stream:
        content = "".join([c.choices[0].delta.content or "" async for c in reply if c.choices])
    else:
        content = reply.choices[0].message.content
    assert content == "Plain answer."
    passed_through = harness.model.requests[1]
    assert (passed_through["messages"], passed_through["model"]) == (messages, "raw")


async def test_models_lists_saturn(harness):
    await harness.start()
    listed = await over_socket(harness).models.list()
    assert [m.id for m in listed.data] == ["saturn"]


async def test_the_internal_header_with_a_wrong_value_is_refused(harness):
    await harness.start()
    transport = httpx.AsyncHTTPTransport(uds=front_door_socket(harness))
    async with httpx.AsyncClient(transport=transport) as http:
        answer = await http.post(
            "http://saturnd/v1/chat/completions", headers={INTERNAL_HEADER: "guess"},
            json={"model": "x", "messages": ask("hi")},
        )
    assert answer.status_code == 403
    assert harness.model.requests == []


async def test_a_bad_request_gets_an_openai_error(harness):
    await harness.start()
    with pytest.raises(openai.BadRequestError, match="the last message must be the user's"):
        await over_socket(harness).chat.completions.create(
            model="saturn", messages=[{"role": "assistant", "content": "hi"}]
        )


async def test_the_tcp_port_needs_the_bearer_token_from_the_keyring(harness):
    port = free_port()
    harness.env.extra_env.update(KEYRING)
    (harness.env.home).mkdir(parents=True, exist_ok=True)
    (harness.env.home / "keyring.json").write_text(json.dumps({"saturn/front_door": "s3cret"}))
    await harness.start(config_extra=f"front_door:\n  tcp_port: {port}\n")
    status = await harness.client.call("daemon/status")
    assert status.front_door_url == f"http://127.0.0.1:{port}/v1"
    wrong = openai.AsyncOpenAI(base_url=status.front_door_url, api_key="guess", max_retries=0)
    with pytest.raises(openai.AuthenticationError):
        await wrong.models.list()
    harness.model.enqueue(text("Over TCP."), text("Streamed over TCP."))
    door = openai.AsyncOpenAI(base_url=status.front_door_url, api_key="s3cret", max_retries=0)
    completion = await door.chat.completions.create(model="saturn", messages=ask("Hi"))
    assert completion.choices[0].message.content == "Over TCP."
    stream = await door.chat.completions.create(model="saturn", messages=ask("Hi"), stream=True)
    assert "".join([c.choices[0].delta.content or "" async for c in stream if c.choices]) == "Streamed over TCP."


async def test_a_tcp_port_without_a_stored_token_stops_the_daemon_with_how_to_store_one(saturn_env):
    saturn_env.extra_env.update(KEYRING)
    saturn_env.write_config(f"front_door:\n  tcp_port: {free_port()}\n")
    with pytest.raises(Exception, match="run `saturn key set front_door`"):
        await asyncio.to_thread(ScratchDaemon(saturn_env).start)
