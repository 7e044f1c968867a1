"""The model client against the scripted server: streaming, tool calls, errors."""

from __future__ import annotations

import pytest

from saturnd.model.client import CONNECTION_RETRIES, ModelClient, ModelError, ModelHttpError
from saturnd.model.embedded_server import DRAFT_SLOT, THINKING_SLOT
from saturnd.model.thinking_text import ThinkSplitter
from saturnd.testing.fake_model import Reply, call, error, reset


async def test_streamed_text_and_deltas(model, fake_model):
    fake_model.enqueue(Reply(text="hello world", reasoning="hmm", chunk_chars=2, usage=(7, 3)))
    seen: list[tuple[str, str]] = []
    reply = await model.complete([{"role": "user", "content": "hi"}], on_delta=lambda k, t: seen.append((k, t)))
    assert (reply.content, reply.reasoning) == ("hello world", "hmm")
    assert (reply.usage.tokens_in, reply.usage.tokens_out) == (7, 3)
    assert "".join(t for k, t in seen if k == "response") == "hello world"
    assert "".join(t for k, t in seen if k == "thinking") == "hmm"


async def test_streamed_tool_call_is_reassembled(model, fake_model):
    fake_model.enqueue(call("read_file", {"path": "notes.txt"}))
    reply = await model.complete([{"role": "user", "content": "x"}], tools=[{"type": "function"}])
    assert [(c.name, c.arguments) for c in reply.tool_calls] == [("read_file", '{"path": "notes.txt"}')]
    assert fake_model.requests[0]["tools"] == [{"type": "function"}]


async def test_think_switch_styles(fake_model):
    for style, expected in [
        ("chat_template_kwargs", {"chat_template_kwargs": {"enable_thinking": True}}),
        ("ollama", {"think": True}),
    ]:
        client = ModelClient(fake_model.url, think_style=style)
        body = client.request_body([{"role": "user", "content": "q"}], None, think=True)
        assert {k: body[k] for k in expected} == expected
    soft = ModelClient(fake_model.url, think_style="soft_switch")
    body = soft.request_body([{"role": "user", "content": "q"}], None, think=False)
    assert body["messages"][-1]["content"] == "q /no_think"


async def test_only_the_embedded_servers_client_names_a_slot(fake_model):
    messages = [{"role": "user", "content": "q"}]
    slotted = ModelClient(fake_model.url, prompt_slots=True)
    assert slotted.request_body(messages, None)["id_slot"] == DRAFT_SLOT
    assert slotted.request_body(messages, None, thinking_prompt=True)["id_slot"] == THINKING_SLOT
    assert "id_slot" not in ModelClient(fake_model.url).request_body(messages, None, thinking_prompt=True)


async def test_http_errors_carry_the_servers_message(model, fake_model):
    fake_model.enqueue(error(500, "The model produced output that does not match the expected format"))
    with pytest.raises(ModelHttpError) as caught:
        await model.complete([{"role": "user", "content": "x"}])
    assert caught.value.status == 500 and caught.value.is_format_failure
    assert "does not match the expected format" in caught.value.message


async def test_garbage_is_a_model_error(model, fake_model):
    fake_model.enqueue(Reply(raw=b"data: {not json\n\n"))
    with pytest.raises(ModelError, match="cannot read"):
        await model.complete([{"role": "user", "content": "x"}])


async def test_connection_refused_names_the_url():
    client = ModelClient("http://127.0.0.1:9/v1")
    with pytest.raises(ModelError, match=r"cannot reach the model server at http://127.0.0.1:9/v1"):
        await client.complete([{"role": "user", "content": "x"}])
    await client.close()


async def test_a_reset_connection_is_retried_with_the_same_request(model, fake_model):
    fake_model.enqueue(reset(), reset(), "hello")
    reply = await model.complete([{"role": "user", "content": "hi"}])
    assert reply.content == "hello"
    assert len(fake_model.raw_bodies) == 3 and len(set(fake_model.raw_bodies)) == 1


async def test_resets_beyond_the_retries_fail_the_call(model, fake_model):
    fake_model.enqueue(*[reset()] * (CONNECTION_RETRIES + 1), "never asked for")
    with pytest.raises(ModelError, match="cannot reach the model server.*reset"):
        await model.complete([{"role": "user", "content": "hi"}])
    assert len(fake_model.requests) == CONNECTION_RETRIES + 1


async def test_a_reply_that_began_is_not_sent_again(model, fake_model):
    # The server answered (its status line arrived) and then sent nothing usable: asking
    # again could repeat what the client already showed, so it is the turn's error.
    fake_model.enqueue(Reply(raw=b"data: {not json\n\n"), "never asked for")
    with pytest.raises(ModelError, match="cannot read"):
        await model.complete([{"role": "user", "content": "x"}])
    assert len(fake_model.requests) == 1


async def test_timeout(fake_model):
    client = ModelClient(fake_model.url, timeout_s=0.3)
    fake_model.enqueue(Reply(text="late", delay_s=5))
    with pytest.raises(ModelError, match="did not answer within 0.3s"):
        await client.complete([{"role": "user", "content": "x"}])
    await client.close()


def test_think_splitter_handles_tags_across_chunks():
    splitter = ThinkSplitter()
    pieces = []
    for chunk in ["Hel", "lo <thi", "nk>hmm</th", "ink> world <", "b>"]:
        pieces += splitter.feed(chunk)
    pieces += splitter.flush()
    joined: dict[str, str] = {}
    for kind, text in pieces:
        joined[kind] = joined.get(kind, "") + text
    assert joined == {"response": "Hello  world <b>", "thinking": "hmm"}
