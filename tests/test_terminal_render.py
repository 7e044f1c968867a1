"""The terminal client's rendering: pure functions from turn events to lines."""

from __future__ import annotations

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from clients.terminal.commands import SlashCompleter, parse, unknown_command_line
from clients.terminal.render import (
    APPROVAL_KEYS,
    PAUSE_KEYS,
    TurnView,
    format_duration,
    receipt_line,
    replay_lines,
    status_line,
    tool_line,
)
from protocol.events import (
    Answer,
    ApprovalRequested,
    MemoryCandidate,
    PassStarted,
    Paused,
    PlanItem,
    PlanUpdated,
    Question,
    Receipt,
    Remembered,
    ResponseDelta,
    ThinkingEnded,
    ThinkingStarted,
    ToolFinished,
    ToolProposed,
    TurnEnded,
    TurnEvent,
    TurnStarted,
)


def events(*items, start_at: float = 100.0) -> list[TurnEvent]:
    return [
        TurnEvent(turn_id="t_1", seq=i + 1, event=e, session_id="s_1", at=start_at + i)
        for i, e in enumerate(items)
    ]


def view_of(*items) -> TurnView:
    view = TurnView()
    for turn_event in events(*items):
        view.apply(turn_event)
    return view


@pytest.mark.parametrize(("name", "arguments", "fate", "result", "seconds", "line"), [
    ("read_file", {"path": "notes.txt"}, "ran", "dentist", 0.012, "read_file notes.txt ✓ 12 ms"),
    ("read_file", {"path": "notes.txt"}, "refused_loop", "refused", 0, "read_file notes.txt refused: loop"),
    ("write_file", {"path": "a", "content": "x"}, "declined", "", 0, "write_file a declined"),
    ("edit_file", {"path": "a.txt"}, "needs_parent",
     "⛔ call read_file first: edit_file needs read_file of a.txt earlier in this session.", 0,
     "edit_file a.txt ⛔ call read_file first"),
    ("run_command", {"command": "make  test"}, "error", "tool error: exit 2\nmore", 1.5,
     "run_command make test ✗ tool error: exit 2"),
    ("list_dir", {}, "ran", "", 2.25, "list_dir ✓ 2.2 s"),
    ("run_command", {"command": "x" * 60}, "timed_out", "", 30, "run_command " + "x" * 39 + "… timed out"),
])
def test_tool_lines(name, arguments, fate, result, seconds, line):
    assert tool_line(name, arguments, fate, result, seconds) == line


def test_durations():
    assert [format_duration(s) for s in (0.0004, 0.5, 1.04, 59.9, 125)] == [
        "0 ms", "500 ms", "1.0 s", "59.9 s", "2m05s",
    ]


def test_a_turn_reads_as_it_streamed_with_tools_rail_memory_and_receipt():
    view = view_of(
        TurnStarted(session_id="s_1", text="when is the dentist?"),
        PassStarted(pass_index=1, max_passes=16),
        PlanUpdated(items=[PlanItem("read notes", "in_progress")]),
        ToolProposed(call_id="c1", name="read_file", arguments={"path": "notes.txt"}),
        ToolFinished(call_id="c1", name="read_file", fate="ran", result="Tuesday", duration_s=0.012),
        PassStarted(pass_index=2, max_passes=16),
        ResponseDelta(text="On "),
        ResponseDelta(text="Tuesday."),
        Answer(text="On Tuesday."),
        Remembered(number=12, text="I'm vegetarian", provenance="said",
                   line="remembered #12: I'm vegetarian — you said it · /memory forget 12 undoes it",
                   similar='similar: #3 "I eat fish"'),
        MemoryCandidate(id=4, text="Petra is my manager", line="queued for review: Petra is my manager"),
        Receipt(passes=2, model_calls=2, tool_calls=1, thinking_s=0.0, wall_s=3.21),
        TurnEnded(status="completed"),
    )
    assert [text for _, text in view.lines] == [
        "› when is the dentist?",
        "read_file notes.txt ✓ 12 ms",
        "── response",
        "On Tuesday.",
        "remembered #12: I'm vegetarian — you said it · /memory forget 12 undoes it",
        'similar: #3 "I eat fish"',
        "queued for review: Petra is my manager",
        "▸ read notes",
        "1 fact waiting for review · /memory queue",
        "2 passes · 2 model calls · 1 tool call · thinking 0.0 s · 3.2 s",
    ]
    assert view.ended is not None and view.phase == ""


def test_an_answer_other_than_what_streamed_is_shown_with_its_note():
    view = view_of(
        PassStarted(pass_index=1, max_passes=1),
        ToolProposed(call_id="c1", name="list_dir", arguments={}),
        ToolFinished(call_id="c1", name="list_dir", fate="ran", duration_s=0.001),
        Answer(text="Stopped at your request.", note="stopped at your request"),
    )
    assert [text for _, text in view.lines][-3:] == [
        "── response", "Stopped at your request.", "(stopped at your request)",
    ]


def test_status_line_counts_from_the_events_own_time():
    view = view_of(TurnStarted(session_id="s_1", text="hi"), PassStarted(pass_index=1, max_passes=16))
    line = status_line(view, 105.4, model="qwen", think="auto", session_id="s_1", width=80)
    assert line == "qwen · think auto · pass 1/16 · s_1 · waiting for the model 4s"
    view.apply(events(ThinkingStarted(reason="first move"), start_at=110)[0])
    assert view.status_phase(113.2) == "thinking 3s"
    view.apply(events(ThinkingEnded(seconds=3, reason="r"), start_at=114)[0])
    assert view.lines[-1] == ("thought", "thought 3.0s")


def test_status_line_while_a_tool_runs_asks_or_is_paused():
    view = view_of(
        PassStarted(pass_index=1, max_passes=16),
        ToolProposed(call_id="c1", name="run_command", arguments={"command": "make"}),
    )
    assert view.status_phase(103) == "running run_command 2s"
    view.apply(events(ApprovalRequested(call_id="c1", name="run_command", arguments={"command": "make"},
                                        reason="exec asks by default"), start_at=103)[0])
    assert view.status_phase(200) == "waiting for you"
    assert view.lines[-2:] == [("approval", "? run_command make — exec asks by default"), ("keys", APPROVAL_KEYS)]
    view.decided("c1")
    assert view.approvals == []
    view.apply(events(Paused(plan=[PlanItem("build", "done")]), start_at=104)[0])
    assert view.status_phase(300) == "paused"
    assert view.lines[-3:] == [("paused", "paused"), ("plan", "✓ build"), ("keys", PAUSE_KEYS)]


def test_status_line_fits_a_narrow_terminal_keeping_the_live_part():
    view = view_of(PassStarted(pass_index=3, max_passes=16))
    line = status_line(view, 107, model="qwen2.5-coder-1.5b-instruct", think="auto",
                       session_id="s_0123456789ab", width=40)
    assert len(line) <= 40 and line.endswith("waiting for the model 7s")


def test_a_question_waits_until_the_turn_moves_on():
    view = view_of(Question(call_id="", question="Which day?"))
    assert view.question == "Which day?" and view.status_phase(0) == "waiting for you"
    view.apply(TurnEvent(turn_id="t_1", seq=2, event=ToolFinished(call_id="c", name="ask_user", fate="asked"), at=5))
    assert view.question == ""


def test_a_replay_is_the_live_transcript():
    stored = events(
        TurnStarted(session_id="s_1", text="hi"), PassStarted(pass_index=1, max_passes=16),
        ResponseDelta(text="Hello."), Answer(text="Hello."),
        Receipt(passes=1, model_calls=1, wall_s=0.5), TurnEnded(status="completed"),
    )
    assert replay_lines(stored) == [
        ("user", "› hi"), ("rule", "── response"), ("response", "Hello."),
        ("receipt", "1 pass · 1 model call · 0 tool calls · thinking 0.0 s · 0.5 s"),
    ]


def test_receipt_line():
    assert receipt_line(Receipt(passes=3, model_calls=4, tool_calls=2, thinking_s=1.24, wall_s=5.3)) == (
        "3 passes · 4 model calls · 2 tool calls · thinking 1.2 s · 5.3 s"
    )


def test_slash_command_parsing_and_completion():
    assert parse("/Memory forget 3") == ("/memory", "forget 3")
    assert unknown_command_line("/x")[1].startswith("unknown command /x — /help lists the commands")
    completer = SlashCompleter(lambda: ["s_abc", "s_abd"])

    def complete(text: str) -> list[str]:
        return [c.text for c in completer.get_completions(Document(text), CompleteEvent())]

    assert complete("/t") == ["/think", "/trace"]
    assert complete("/think ") == ["off", "auto", "on"]
    assert complete("/resume s_ab") == ["s_abc", "s_abd"]
    assert complete("hello") == []


def test_a_line_the_client_adds_mid_answer_stays_below_the_streaming_text():
    view = view_of(PassStarted(pass_index=1, max_passes=16), ResponseDelta(text="Hal"))
    view.lines.append(("note", "queued as the next message (1 waiting): two"))
    view.apply(events(ResponseDelta(text="f done."), start_at=110)[0])
    assert [text for _, text in view.lines] == [
        "── response", "Half done.", "queued as the next message (1 waiting): two",
    ]


def test_a_narrow_status_line_drops_the_session_before_the_model():
    view = view_of(PassStarted(pass_index=3, max_passes=16))
    line = status_line(view, 107, model="qwen", think="off", session_id="s_0123456789ab", width=60)
    assert line == "qwen · think off · pass 3/16 · waiting for the model 7s"
