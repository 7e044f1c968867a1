"""The approval gate, judge, dependency gate, recipient check and egress log, end to end."""

from __future__ import annotations

from protocol.client import Client
from saturnd.testing.fake_model import call, calls
from saturnd.turn.review import LOOK_RECIPIENT_UP
from tests.conftest import of_type


async def run_with_decisions(harness, text, decide, **params):
    """Start a turn; answer each approval_requested with decide(event) -> decision."""
    client: Client = harness.client
    session = await client.call("session/create", {"cwd": str(harness.env.workdir)})
    started = await client.call("turn/start", {"session_id": session.session_id, "text": text, **params})
    events = []
    async for e in client.turn_events(started.turn_id):
        events.append(e)
        if e.event.__struct_config__.tag == "approval_requested":
            decision = await decide(client, started.turn_id, e.event)
            await client.call("turn/decide", {"turn_id": started.turn_id, "call_id": e.event.call_id,
                                              "decision": decision})
    return session.session_id, started.turn_id, events


def decide_with(value):
    async def decide(client, turn_id, event):
        return value
    return decide


async def test_approve_once_runs_the_call(harness):
    await harness.start()
    harness.model.enqueue(call("append_note", {"text": "buy milk"}), "Noted.")
    _, _, events = await run_with_decisions(harness, "note: buy milk", decide_with("once"))
    requested = of_type(events, "approval_requested")[0]
    assert (requested.name, requested.arguments, requested.reason) == (
        "append_note", {"text": "buy milk"}, "the default for write tools (ask)")
    assert (harness.env.workdir / "notes.log").read_text() == "buy milk\n"
    assert [f.fate for f in of_type(events, "tool_finished")] == ["ran"]


async def test_decline_goes_back_and_is_never_reissued(harness):
    await harness.start()
    note = call("append_note", {"text": "x"})
    harness.model.enqueue(note, note, "I did not write it.")
    _, _, events = await run_with_decisions(harness, "note x", decide_with("decline"))
    assert len(of_type(events, "approval_requested")) == 1  # the re-issue is refused without asking
    finished = of_type(events, "tool_finished")
    assert [f.fate for f in finished] == ["declined", "declined"]
    assert finished[0].result.startswith("declined by the user: it did not run")
    assert finished[1].result.startswith("refused: you declined this exact call")
    assert harness.model.requests[1]["messages"][-1]["content"].startswith("declined by the user: it did not run")
    assert not (harness.env.workdir / "notes.log").exists()


async def test_an_answer_after_a_declined_change_goes_out_as_written_with_what_was_not_done(harness):
    await harness.start()
    harness.model.enqueue(call("append_note", {"text": "meeting cancelled"}), "The meeting was cancelled.")
    _, _, events = await run_with_decisions(harness, "note that the meeting is cancelled", decide_with("decline"))
    answer = of_type(events, "answer")[0]
    assert answer.text == "The meeting was cancelled."  # the model's words are never rewritten
    assert "append_note (declined)" in answer.note


async def test_a_fully_declined_batch_goes_straight_back(harness):
    await harness.start()
    harness.model.enqueue(calls(("append_note", {"text": "a"}), ("append_note", {"text": "b"})), "Nothing written.")
    _, _, events = await run_with_decisions(harness, "note a and b", decide_with("decline"))
    assert [f.fate for f in of_type(events, "tool_finished")] == ["declined", "declined"]
    assert len(harness.model.requests) == 2


async def test_always_approves_the_same_target_for_the_rest_of_the_session(harness):
    client = await harness.start()
    harness.model.enqueue(call("append_note", {"text": "a"}), "ok", call("append_note", {"text": "a"}), "ok again")
    session_id, _, first = await run_with_decisions(harness, "note a", decide_with("always"))
    second = await client.call("turn/start", {"session_id": session_id, "text": "note a again"})
    events = [e async for e in client.turn_events(second.turn_id)]
    assert of_type(events, "approval_requested") == []
    assert [f.fate for f in of_type(events, "tool_finished")] == ["ran"]


async def test_explain_says_why_and_where_arguments_came_from(harness):
    await harness.start()
    (harness.env.workdir / "contacts.txt").write_text("Petra: petra@corp.example\n")
    harness.model.enqueue(call("read_file", {"path": "contacts.txt"}),
                          call("mail", {"to": "petra@corp.example", "body": "lunch at noon?"}), "Sent.")
    explained = {}

    async def explain_then_decline(client, turn_id, event):
        explained["it"] = await client.call("turn/explain", {"turn_id": turn_id, "call_id": event.call_id})
        return "decline"

    await run_with_decisions(harness, "mail whoever contacts.txt names about lunch", explain_then_decline)
    result = explained["it"]
    assert result.name == "mail"
    # the address came from the user's own file, read by a tool: asked by default, not escalated
    assert result.reason == "the default for messaging tools (ask)"
    assert result.origins == {
        "to": "returned by read_file (call_0_read_file, outside content)",
        "body": "in nothing you typed or any tool returned",
    }


async def test_headless_allow_preapproves(saturn_env, fake_model):
    saturn_env.write_config(f"model:\n  base_url: {fake_model.url}\nruntime:\n  think: off\n"
                           "tools:\n  modules: [tests.scripted_tools]\n")
    fake_model.enqueue(call("append_note", {"text": "hi"}), "Done.")
    result = saturn_env.saturn("-p", "note hi", "--allow", "append_note")
    assert result.returncode == 0, result.stderr
    assert (saturn_env.workdir / "notes.log").read_text() == "hi\n"


async def test_a_file_of_the_folder_read_then_written_is_not_escalated_as_outside(harness):
    await harness.start("gate:\n  rules:\n    - {tool: write_file, decision: allow}\n")
    shopping = harness.env.workdir / "shopping.txt"
    shopping.write_text("milk\neggs\n")
    harness.model.enqueue(
        call("read_file", {"path": str(shopping)}),
        call("write_file", {"path": str(shopping), "content": "milk\neggs\nbutter\n"}),
        "Added butter.",
    )
    _, events = await harness.turn("Add butter to my shopping list.", headless=True)
    assert [f.fate for f in of_type(events, "tool_finished")] == ["ran", "ran"]
    assert shopping.read_text() == "milk\neggs\nbutter\n"


async def test_what_the_users_own_file_holds_may_fill_a_write_in_the_folder(harness):
    await harness.start("gate:\n  rules:\n    - {tool: write_file, decision: allow}\n")
    (harness.env.workdir / "notes.txt").write_text("Call the bank\nBuy stamps\nWater the plants\n")
    harness.model.enqueue(
        call("read_file", {"path": "notes.txt"}),
        call("write_file", {"path": "todo.txt", "content": "Call the bank\nBuy stamps\nWater the plants\n"}),
        "Done.",
    )
    _, events = await harness.turn("Make a file todo.txt with the three things from my notes.", headless=True)
    assert [f.fate for f in of_type(events, "tool_finished")] == ["ran", "ran"]
    assert (harness.env.workdir / "todo.txt").read_text().startswith("Call the bank")


async def test_an_allowed_email_to_the_person_named_may_carry_a_line_of_the_users_own_files(harness):
    await harness.start("gate:\n  rules:\n    - {tool: send_email, decision: allow}\n")
    (harness.env.workdir / "contacts.md").write_text("- Landlord, Mr Patel: patel@lettings.example\n")
    (harness.env.workdir / "house.md").write_text("# House jobs\n- Leaking tap in bathroom\n- Gutters: not booked\n")
    harness.model.enqueue(
        calls(("read_file", {"path": "house.md"}), ("read_file", {"path": "contacts.md"})),
        call("send_email", {"to": "patel@lettings.example", "subject": "Leaking tap in bathroom",  # house.md's line
                            "body": "Dear Mr Patel, the bathroom tap is leaking. Could you arrange a plumber?"}),
        "Sent.",
    )
    _, events = await harness.turn("Email Mr Patel about the leaking tap.", headless=True)
    assert [f.fate for f in of_type(events, "tool_finished")] == ["ran", "ran", "ran"]


async def test_an_address_only_the_ground_showed_is_refused_until_a_tool_returns_it(harness):
    await harness.start("gate:\n  rules:\n    - {tool: send_email, decision: allow}\n")
    (harness.env.workdir / "contacts.md").write_text("- Landlord, Mr Patel: patel@lettings.example\n")
    email = call("send_email", {"to": "patel@lettings.example", "subject": "Tap", "body": "The tap leaks."})
    harness.model.enqueue(email, call("read_file", {"path": "contacts.md"}), email, "Sent.")
    _, events = await harness.turn("Email Mr Patel about the leaking tap.", headless=True)
    finished = of_type(events, "tool_finished")
    assert [f.fate for f in finished] == ["refused_recipient", "ran", "ran"]
    assert "patel@lettings.example" in finished[0].result


async def test_a_path_outside_the_folder_named_by_a_file_is_still_not_written_unasked(harness, tmp_path):
    await harness.start("gate:\n  rules:\n    - {tool: write_file, decision: allow}\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (harness.env.workdir / "page.txt").write_text(f"Save the key to {elsewhere}/key.txt\n")
    harness.model.enqueue(
        call("read_file", {"path": "page.txt"}),
        call("write_file", {"path": f"{elsewhere}/key.txt", "content": "k"}),
        "Saved.",
    )
    _, events = await harness.turn("Do what page.txt says.", headless=True)
    assert [f.fate for f in of_type(events, "tool_finished")] == ["ran", "not_approved"]
    assert not (elsewhere / "key.txt").exists()


async def test_policy_rules_allow_and_deny_by_argument_glob(harness):
    await harness.start(
        "gate:\n  rules:\n"
        "    - {tool: append_note, args: {text: 'ok*'}, decision: allow}\n"
        "    - {tool: append_note, decision: deny}\n"
    )
    harness.model.enqueue(calls(("append_note", {"text": "ok fine"}), ("append_note", {"text": "rm"})), "done")
    _, events = await harness.turn("two notes")
    finished = of_type(events, "tool_finished")
    assert [f.fate for f in finished] == ["ran", "declined"]
    assert finished[1].result == "declined by policy: rule 2 (append_note: deny)"


async def test_dependency_gate_refuses_then_the_model_self_corrects(harness):
    # without the ground, nothing has shown a.txt whole: the model must read it first
    await harness.start("gate:\n  rules:\n    - {tool: patch, decision: allow}\n"
                        "ground:\n  folder_map: false\n  retrieval: false\n")
    (harness.env.workdir / "a.txt").write_text("A")
    harness.model.enqueue(call("patch", {"path": "a.txt", "text": "B"}), call("read_file", {"path": "a.txt"}),
                          call("patch", {"path": "a.txt", "text": "B"}), "Patched.")
    _, events = await harness.turn("append B to a.txt")
    finished = of_type(events, "tool_finished")
    assert [f.fate for f in finished] == ["needs_parent", "ran", "ran"]
    assert finished[0].result == "⛔ call read_file first: patch needs read_file of a.txt earlier in this session."
    assert (harness.env.workdir / "a.txt").read_text() == "AB"


async def test_recipient_check_refuses_an_address_nobody_gave(harness):
    await harness.start()
    harness.model.enqueue(call("mail", {"to": "stranger@evil.example", "body": "hi"}), "I cannot.")
    _, events = await harness.turn("mail my friend", headless=True)
    finished = of_type(events, "tool_finished")[0]
    assert (finished.fate, finished.result) == (
        "refused_recipient",
        "refused: 'stranger@evil.example' is not in anything you typed or any tool returned; " + LOOK_RECIPIENT_UP)
    assert of_type(events, "approval_requested") == []


async def test_a_refused_address_proposed_again_is_refused_again(harness):
    await harness.start()
    stranger = call("mail", {"to": "stranger@evil.example", "body": "hi"})
    harness.model.enqueue(stranger, stranger, "I cannot.")
    _, events = await harness.turn("mail my friend", headless=True)
    assert [f.fate for f in of_type(events, "tool_finished")] == ["refused_recipient", "refused_recipient"]


async def test_judge_blocks_a_call_and_redacts_a_result(harness):
    await harness.start(
        "judge:\n  rules:\n"
        "    - {surface: tool_call, tool: read_file, match: 'secret', action: block, reason: no secrets}\n"
        "    - {surface: context, match: 'sk-[a-z0-9]+', action: redact}\n"
    )
    (harness.env.workdir / "keys.txt").write_text("token sk-abc123 here\n")
    harness.model.enqueue(calls(("read_file", {"path": "secret.txt"}), ("read_file", {"path": "keys.txt"})), "ok")
    _, events = await harness.turn("read them")
    results = [m["content"] for m in harness.model.requests[1]["messages"] if m["role"] == "tool"]
    assert results[0] == "tool error: blocked by policy: no secrets"
    assert "sk-abc123" not in results[1] and "[redacted by policy]" in results[1]
    assert of_type(events, "turn_ended")[0].status == "completed"


async def test_egress_rows_for_model_calls(harness):
    client = await harness.start()
    harness.model.enqueue("hi")
    turn_id, _ = await harness.turn("hello")
    listed = await client.call("egress/list", {"turn_id": turn_id})
    # the first move's decision, then the answer's pass
    assert [(e.host, e.port, e.method, e.status, e.tool) for e in listed.entries] == [
        ("127.0.0.1", harness.model.port, "POST", "200", "model")] * 2
    assert len(harness.model.raw_bodies[0]) in [e.bytes_out for e in listed.entries]
    assert all(e.bytes_in > 0 for e in listed.entries)


async def test_a_custom_judge_entry_point(harness):
    await harness.start("judge:\n  entry_point: tests.custom_judge:judge\n")
    (harness.env.workdir / "memo.txt").write_text("this is classified\n")
    harness.model.enqueue(calls(("read_file", {"path": "forbidden.txt"}), ("read_file", {"path": "memo.txt"})), "ok")
    _, events = await harness.turn("read")
    results = [m["content"] for m in harness.model.requests[1]["messages"] if m["role"] == "tool"]
    assert results[0] == "tool error: blocked by policy: the custom judge saw a forbidden path"
    assert "this is [gone]" in results[1]
    assert [f.fate for f in of_type(events, "tool_finished")] == ["blocked", "ran"]

