"""The menu-bar client's controller, against the real daemon, with a fake UI in place of rumps."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Any

from clients.menubar.controller import (
    NOT_RUNNING,
    QUICK_ASK_TITLE,
    RECENT_LIMIT,
    QuickAskController,
)
from saturnd.testing.fake_model import Reply, call, text


@dataclass
class FakeUI:
    """Records what would be drawn; answers prompts and dialogs from its queues."""

    lines: list[str | None] = field(default_factory=list)
    decisions: list[str] = field(default_factory=list)
    replies: list[str | None] = field(default_factory=list)
    states: list[str] = field(default_factory=list)
    windows: list[tuple[str, str]] = field(default_factory=list)
    notifications: list[tuple[str, str]] = field(default_factory=list)
    approvals: list[tuple[str, Any, str]] = field(default_factory=list)
    questions: list[str] = field(default_factory=list)
    recent: list[str] = field(default_factory=list)
    terminals: list[list[str]] = field(default_factory=list)

    def show_state(self, state: str) -> None:
        self.states.append(state)

    async def ask_line(self) -> str | None:
        return self.lines.pop(0)

    def show_answer(self, question: str, text: str) -> None:
        self.windows.append((question, text))

    def notify(self, title: str, message: str) -> None:
        self.notifications.append((title, message))

    async def ask_approval(self, name: str, arguments: Any, reason: str) -> str:
        self.approvals.append((name, arguments, reason))
        return self.decisions.pop(0)

    async def ask_question(self, question: str) -> str | None:
        self.questions.append(question)
        return self.replies.pop(0)

    def show_recent(self, items: list[str]) -> None:
        self.recent = items

    def open_terminal(self, argv: list[str]) -> None:
        self.terminals.append(argv)


async def controller(harness) -> tuple[QuickAskController, FakeUI]:
    await harness.start()
    ui = FakeUI()
    return QuickAskController(harness.env.socket, ui), ui


async def test_the_status_item_shows_the_daemons_state(harness):
    quick, ui = await controller(harness)
    assert await quick.refresh_state()
    assert ui.states == ["Saturn: ready"]
    harness.daemon.stop()
    assert not await quick.refresh_state()
    assert ui.states[-1] == "Saturn: not running"


async def test_quick_ask_streams_the_answer_into_the_window_and_notifies_when_done(harness):
    quick, ui = await controller(harness)
    harness.model.enqueue(Reply(text="Paris is the capital.", chunk_chars=5))
    ui.lines.append("Capital of France?")
    await quick.quick_ask()
    streamed = [shown for question, shown in ui.windows if question == "Capital of France?"]
    assert streamed[-1] == "Paris is the capital."
    partial = streamed[:-1]  # as it streamed: growing prefixes of the answer
    assert len(partial) >= 3 and partial == sorted(partial, key=len)
    assert all("Paris is the capital.".startswith(shown) for shown in partial)
    assert ui.notifications == [("Saturn", "Paris is the capital.")]
    assert ui.states == ["Saturn: working…", "Saturn: ready"]
    assert harness.model.requests[0]["messages"][-1]["content"] == "Capital of France?"


async def test_a_cancelled_or_empty_prompt_runs_nothing(harness):
    quick, ui = await controller(harness)
    ui.lines += [None, "   "]
    await quick.quick_ask()
    await quick.quick_ask()
    assert harness.model.requests == [] and ui.windows == []


async def test_an_approval_comes_up_as_a_dialog_and_the_decision_goes_back(harness):
    quick, ui = await controller(harness)
    harness.model.enqueue(
        call("write_file", {"path": "a.txt", "content": "A"}), text("Wrote a.txt."),
        call("write_file", {"path": "b.txt", "content": "B"}), text("Did not write b.txt."),
    )
    ui.decisions += ["once", "decline"]
    assert await quick.ask("Write A to a.txt") == "Wrote a.txt."
    assert await quick.ask("Write B to b.txt") == "Did not write b.txt."
    assert [(name, args) for name, args, _ in ui.approvals] == [
        ("write_file", {"path": "a.txt", "content": "A"}),
        ("write_file", {"path": "b.txt", "content": "B"}),
    ]
    home = harness.env.root  # the quick-ask session works in the home folder
    assert not (home / "b.txt").exists()
    trace = await harness.client.call("trace/get", {"turn_id": ""})
    assert [c.fate for p in trace.passes for c in p.calls] == ["declined"]


async def test_an_ask_user_question_comes_up_as_a_dialog_and_the_reply_goes_back(harness):
    quick, ui = await controller(harness)
    harness.model.enqueue(call("ask_user", {"question": "Which city?"}), text("Lyon it is."))
    ui.replies.append("Lyon")
    # nothing booked the train: the answer, sent back and then cut short, says so
    assert (await quick.ask("Book me a train")).endswith("Lyon it is.")
    assert ui.questions == ["Which city?"]
    tool_result = harness.model.requests[1]["messages"][-1]
    assert (tool_result["role"], "Lyon" in tool_result["content"]) == ("tool", True)


async def test_recent_answers_are_in_the_menu_newest_first_and_reopen(harness):
    quick, ui = await controller(harness)
    for n in range(RECENT_LIMIT + 1):
        harness.model.enqueue(text(f"answer {n}"))
        await quick.ask(f"question {n}")
    assert ui.recent == [f"question {n} → answer {n}" for n in reversed(range(1, RECENT_LIMIT + 1))]
    quick.show_recent_answer(RECENT_LIMIT - 1)
    assert ui.windows[-1] == ("question 1", "answer 1")


async def test_quick_asks_share_one_session_that_open_in_terminal_resumes(harness):
    quick, ui = await controller(harness)
    harness.model.enqueue(text("one"), text("two"))
    await quick.ask("first")
    await quick.ask("second")
    sessions = (await harness.client.call("session/list")).sessions
    assert [(s.title, s.turn_count) for s in sessions] == [(QUICK_ASK_TITLE, 2)]
    quick.open_in_terminal()
    assert ui.terminals == [["saturn", "--resume", sessions[0].session_id]]
    # A later run of the app picks the same session up again.
    again = QuickAskController(harness.env.socket, FakeUI())
    harness.model.enqueue(text("three"))
    await again.ask("third")
    assert again.session_id == sessions[0].session_id


async def test_with_no_daemon_quick_ask_says_how_to_start_one(saturn_env):
    ui = FakeUI()
    assert await QuickAskController(saturn_env.socket, ui).ask("hello") == ""
    assert ui.notifications == [("Saturn", NOT_RUNNING)]


async def test_off_macos_the_rumps_layer_says_macos_only_in_one_line():
    if sys.platform == "darwin":
        return
    imported = await asyncio.to_thread(
        subprocess.run, [sys.executable, "-c", "import clients.menubar.app"],
        capture_output=True, text=True,
    )
    assert (imported.returncode, imported.stderr) == (1, "saturn menubar: macOS only\n")
