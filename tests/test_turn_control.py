"""Pause, resume, steer, abort, cancel and queue, through the real daemon."""

from __future__ import annotations

import asyncio

from saturnd.testing.fake_model import Reply, call
from tests.conftest import of_type


async def begin(harness, text):
    client = harness.client
    session = await client.call("session/create", {"cwd": str(harness.env.workdir)})
    started = await client.call("turn/start", {"session_id": session.session_id, "text": text})
    return session.session_id, started.turn_id


async def wait_for_request(harness, count):
    await asyncio.to_thread(harness.model.wait_for_requests, count)


async def test_pause_stops_at_the_pass_boundary_and_a_steer_sent_before_it_lands_on_resume(harness):
    client = await harness.start()
    harness.model.enqueue(Reply(tool_calls=[{"name": "list_dir", "arguments": {}}], delay_s=0.4), "Done, using b.")
    _, turn_id = await begin(harness, "list then read a")
    await wait_for_request(harness, 1)
    await client.call("turn/steer", {"turn_id": turn_id, "text": "read b, not a"})
    await client.call("turn/pause", {"turn_id": turn_id})
    seen = []
    async for e in client.turn_events(turn_id):
        seen.append(e.event.__struct_config__.tag)
        if seen[-1] == "paused":
            assert len(harness.model.requests) == 1  # nothing starts while paused
            await client.call("turn/resume", {"turn_id": turn_id})
    assert seen.index("tool_finished") < seen.index("paused") < seen.index("resumed") < seen.index("steered")
    assert seen.count("pass_started") == 2 and seen.index("steered") < len(seen) - 1 - seen[::-1].index("pass_started")
    assert harness.sent(1)[-1] == {
        "role": "user", "content": "[Correction from the user, sent while you were working] read b, not a",
    }


async def test_pause_shows_the_checklist(harness):
    client = await harness.start()
    plan = {"items": [{"text": "step one", "status": "in_progress"}]}
    harness.model.enqueue(Reply(tool_calls=[{"name": "plan", "arguments": plan}], delay_s=0.3), "ok")
    _, turn_id = await begin(harness, "multi-step")
    await wait_for_request(harness, 1)
    await client.call("turn/pause", {"turn_id": turn_id})
    async for e in client.turn_events(turn_id):
        if e.event.__struct_config__.tag == "paused":
            assert [i.text for i in e.event.plan] == ["step one"]
            await client.call("turn/resume", {"turn_id": turn_id})


async def test_abort_stops_a_running_pass_and_reports_honestly(harness):
    client = await harness.start()
    (harness.env.workdir / "a.txt").write_text("A")
    harness.model.enqueue(call("read_file", {"path": "a.txt"}), Reply(text="never", delay_s=10))
    _, turn_id = await begin(harness, "read and think")
    await wait_for_request(harness, 2)
    await client.call("turn/abort", {"turn_id": turn_id})
    events = [e async for e in client.turn_events(turn_id)]
    answer = of_type(events, "answer")[0]
    assert answer.text == 'Stopped at your request. Done before stopping: read_file {"path": "a.txt"}.'
    assert answer.note == "stopped at your request"
    assert of_type(events, "turn_ended")[0].status == "aborted"


async def test_abort_while_paused(harness):
    client = await harness.start()
    harness.model.enqueue(Reply(tool_calls=[{"name": "list_dir", "arguments": {}}], delay_s=0.3))
    _, turn_id = await begin(harness, "list")
    await wait_for_request(harness, 1)
    await client.call("turn/pause", {"turn_id": turn_id})
    async for e in client.turn_events(turn_id):
        if e.event.__struct_config__.tag == "paused":
            await client.call("turn/abort", {"turn_id": turn_id})
        if e.event.__struct_config__.tag == "turn_ended":
            assert e.event.status == "aborted"


async def test_cancel_ends_the_turn_outright_and_answers_open_calls(harness):
    client = await harness.start()
    harness.model.enqueue(call("sleep", {"seconds": 20}))
    session_id, turn_id = await begin(harness, "sleep")
    async for e in client.turn_events(turn_id):
        if e.event.__struct_config__.tag == "tool_proposed":
            await client.call("turn/cancel", {"turn_id": turn_id})
        if e.event.__struct_config__.tag == "turn_ended":
            assert (e.event.status, e.event.error) == ("cancelled", "cancelled at your request")
    got = await client.call("session/get", {"session_id": session_id})
    assert [(m.role, m.content) for m in got.messages if m.role == "tool"] == [("tool", "tool error: cancelled")]
    assert got.session.running_turn_id == ""


async def test_queued_message_runs_as_the_next_turn(harness):
    client = await harness.start()
    harness.model.enqueue(Reply(text="First.", delay_s=0.3), "Second.")
    session_id, turn_id = await begin(harness, "one")
    queued = await client.call("session/queue", {"session_id": session_id, "text": "two"})
    assert (queued.queued, queued.turn_id) == (1, "")
    first = [e async for e in client.turn_events(turn_id)]
    next_turn = of_type(first, "turn_ended")[0].next_turn_id
    assert next_turn
    second = [e async for e in client.turn_events(next_turn)]
    assert of_type(second, "answer")[0].text == "Second."
    assert harness.sent(1) == [
        {"role": "user", "content": "one"}, {"role": "assistant", "content": "First."},
        {"role": "user", "content": "two"},
    ]


async def test_starting_a_second_turn_in_a_busy_session_is_refused(harness):
    client = await harness.start()
    harness.model.enqueue(Reply(text="slow", delay_s=0.3))
    session_id, turn_id = await begin(harness, "one")
    try:
        await client.call("turn/start", {"session_id": session_id, "text": "two"})
    except Exception as exc:  # noqa: BLE001
        assert getattr(exc, "CODE", None) == -32005
        assert "session/queue" in str(exc)
    else:
        raise AssertionError("a second turn started in a busy session")
    [e async for e in client.turn_events(turn_id)]


async def test_controls_on_an_ended_turn_are_refused(harness):
    client = await harness.start()
    harness.model.enqueue("hi")
    turn_id, _ = await harness.turn("hi")
    for method in ("turn/pause", "turn/abort", "turn/cancel"):
        try:
            await client.call(method, {"turn_id": turn_id})
        except Exception as exc:  # noqa: BLE001
            assert getattr(exc, "CODE", None) == -32003
        else:
            raise AssertionError(f"{method} accepted on an ended turn")


def _running(marker: str) -> list[int]:
    """Live (not zombie) processes whose command line holds `marker`, read from /proc."""
    from pathlib import Path

    live = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes()
            state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker.encode() in cmdline and state != "Z":
            live.append(int(proc.name))
    return live


async def test_cancel_kills_a_commands_whole_process_group(harness):
    client = await harness.start("gate:\n  rules:\n    - {tool: run_command, decision: allow}\n")
    marker = "987654.5"
    harness.model.enqueue(call("run_command", {"command": f"sleep {marker} & sleep {marker}"}))
    _, turn_id = await begin(harness, "run it")
    async for e in client.turn_events(turn_id):
        if e.event.__struct_config__.tag == "tool_proposed":
            for _ in range(100):
                if len(_running(marker)) >= 2:
                    break
                await asyncio.sleep(0.05)
            assert len(_running(marker)) >= 2
            await client.call("turn/cancel", {"turn_id": turn_id})
    for _ in range(100):
        if not _running(marker):
            break
        await asyncio.sleep(0.05)
    assert _running(marker) == []
