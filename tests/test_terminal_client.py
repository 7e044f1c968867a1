"""`saturn` in a real terminal: tmux runs the client against the real daemon and the scripted
model; the tests type with send-keys and read the screen with capture-pane."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from saturnd.testing.fake_model import FakeModel, Reply, call
from saturnd.testing.scratch import ScratchDaemon
from tests.conftest import SaturnEnv
from tests.terminal_screen import TMUX, Screen

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed (.ci/run installs it)")

READY = "/help lists the commands"
PLAN = {"items": [{"text": "read the notes", "status": "in_progress"}, {"text": "answer", "status": "pending"}]}
PLAN_DONE = {"items": [{"text": "read the notes", "status": "done"}, {"text": "answer", "status": "in_progress"}]}


@dataclass
class Terminal:
    env: SaturnEnv
    model: FakeModel
    daemon: ScratchDaemon | None = None
    screens: list[Screen] = field(default_factory=list)

    def open(self, *args: str, config: str = "", think: str = "off", ready: str = READY,
             env: dict[str, str] | None = None, width: int = 80) -> Screen:
        if self.daemon is None:
            self.env.write_config(
                f"model:\n  base_url: {self.model.url}\n  name: fake\nruntime:\n  think: {think}\n"
                f"tools:\n  modules: [tests.scripted_tools]\n{config}"
            )
            self.daemon = ScratchDaemon(self.env).start()
        screen = Screen({**self.env.env, **(env or {})}, self.env.workdir, width=width).start(*args)
        self.screens.append(screen)
        screen.wait_for(ready)
        return screen

    def requests_hold(self, text: str) -> bool:
        return any(text in json.dumps(r["messages"]) for r in self.model.requests)


@pytest.fixture
def terminal(saturn_env: SaturnEnv, fake_model: FakeModel) -> Iterator[Terminal]:
    running = Terminal(saturn_env, fake_model)
    yield running
    for screen in running.screens:
        screen.close()
    if running.daemon is not None:
        running.daemon.stop()


def status(screen_text: str) -> str:
    """The status line: the one that says the think level (narrow, it may not name the model)."""
    return next(line for line in screen_text.splitlines() if re.search(r"(^|· )think (off|on|auto)", line))


def test_streaming_the_rail_and_the_status_line_while_waiting(terminal):
    (terminal.env.workdir / "notes.txt").write_text("dentist on Tuesday\n")
    screen = terminal.open()
    terminal.model.enqueue(
        call("plan", PLAN),
        call("read_file", {"path": "notes.txt"}, delay_s=2.5),
        call("plan", PLAN_DONE, delay_s=1.0),
        Reply(text="Your dentist appointment is on Tuesday.", chunk_chars=3, chunk_delay_s=0.15),
    )
    screen.type_line("When is my dentist?")
    waiting = screen.wait_for(lambda s: "waiting for the model 1s" in s)
    assert "▸ read the notes" in waiting and "○ answer" in waiting  # the rail, live
    assert re.search(r"fake · think off · pass 2/16 · s_[0-9a-f]{12} · waiting for the model 1s", waiting)
    updated = screen.wait_for("✓ read the notes")
    assert "▸ answer" in updated
    assert "read_file notes.txt ✓" in updated and "ms" in updated
    partial = screen.wait_for("── response")
    assert "Tuesday." not in partial  # it shows while it is written
    done = screen.wait_for("Tuesday.")
    done = screen.wait_for(lambda s: "4 passes · 4 model calls · 3 tool calls" in s)
    assert "── response\nYour dentist appointment is on Tuesday." in done
    assert status(done).endswith("s_" + status(done).split("s_")[1])  # idle: nothing happening


def test_status_line_while_thinking_and_esc_stops_the_thought(terminal):
    screen = terminal.open(think="on")
    terminal.model.enqueue(
        Reply(reasoning="hmm " * 100, chunk_chars=2, chunk_delay_s=0.05, text="never"),
        "Answered without the thought.",
    )
    screen.type_line("hi")
    thinking = screen.wait_for(lambda s: "thinking 1s" in s)
    assert "think on" in status(thinking)
    screen.keys("Escape")
    done = screen.wait_for("Answered without the thought.")
    assert "(stopped by you)" in done


def test_approve_decline_and_explain(terminal):
    screen = terminal.open()
    terminal.model.enqueue(
        call("write_file", {"path": "a.txt", "content": "A"}),
        call("write_file", {"path": "b.txt", "content": "B"}),
        "Wrote a.txt; you declined b.txt.",
    )
    screen.type_line("write a and b")
    asked = screen.wait_for("[y] once · [a] always this session · [n] decline · [e] explain")
    assert "? write_file a.txt" in asked
    assert "waiting for you" in status(asked)
    screen.keys("e")
    explained = screen.wait_for("why asked:")
    assert "path = 'a.txt'" in explained
    screen.keys("y")
    screen.wait_for("write_file a.txt ✓")
    screen.wait_for("? write_file b.txt")
    screen.keys("n")
    done = screen.wait_for("you declined b.txt.")
    assert "write_file b.txt declined" in done
    assert (terminal.env.workdir / "a.txt").read_text() == "A"
    assert not (terminal.env.workdir / "b.txt").exists()


def test_esc_pauses_then_a_correction_steers_and_enter_continues(terminal):
    screen = terminal.open()
    terminal.model.enqueue(call("list_dir", {}, delay_s=1.5), "Read b, as you said.")
    screen.type_line("list then read a")
    screen.wait_for("waiting for the model")
    screen.keys("Escape")
    paused = screen.wait_for("[Enter] continue · type a correction to steer · q abort")
    assert status(paused).endswith("paused")
    assert len(terminal.model.requests) == 1  # nothing starts while paused
    screen.type_line("read b, not a")
    done = screen.wait_for("Read b, as you said.")
    assert "↳ read b, not a" in done
    assert terminal.model.requests[1]["messages"][-1]["content"].endswith("read b, not a")


def test_text_then_esc_steers_at_once_and_the_turn_goes_on(terminal):
    screen = terminal.open()
    terminal.model.enqueue(call("list_dir", {}, delay_s=1.5), "Done with b.")
    screen.type_line("list")
    screen.wait_for("waiting for the model")
    screen.keys("use b", "Escape")
    screen.wait_for("steering now: use b")
    done = screen.wait_for("Done with b.")
    assert "paused" not in done
    assert terminal.model.requests[1]["messages"][-1]["content"].endswith("use b")


def test_q_at_the_pause_aborts(terminal):
    screen = terminal.open()
    terminal.model.enqueue(call("list_dir", {}, delay_s=1.0))
    screen.type_line("list")
    screen.wait_for("waiting for the model")
    screen.keys("Escape")
    screen.wait_for("q abort")
    screen.keys("q")
    done = screen.wait_for("(stopped at your request)")
    assert "Stopped at your request." in done


def test_ctrl_c_cancels_a_running_tool_and_a_second_one_on_an_idle_prompt_leaves(terminal):
    screen = terminal.open()
    terminal.model.enqueue(call("sleep", {"seconds": 20}))
    screen.type_line("sleep")
    running = screen.wait_for(lambda s: "running sleep 1s" in s)
    assert "pass 1/16" in status(running)
    screen.keys("C-c")
    screen.wait_for("cancelled: cancelled at your request")
    screen.keys("C-c")
    screen.wait_for("Ctrl+C again to leave")
    screen.keys("C-c")
    screen.wait_for(lambda s: "fake · think" not in s)


def test_enter_during_a_turn_queues_the_next_message(terminal):
    screen = terminal.open()
    terminal.model.enqueue(Reply(text="First.", delay_s=1.5), "Second.")
    screen.type_line("one")
    screen.wait_for("waiting for the model")
    screen.type_line("two")
    screen.wait_for("queued as the next message (1 waiting): two")
    done = screen.wait_for("Second.")
    assert done.index("First.") < done.index("› two") < done.index("Second.")
    assert terminal.model.requests[1]["messages"][-1] == {"role": "user", "content": "two"}


def test_ask_user_takes_the_next_line_as_the_answer(terminal):
    screen = terminal.open()
    terminal.model.enqueue(call("ask_user", {"question": "Which day suits you?"}), "Booked for Friday.")
    screen.type_line("book it")
    asked = screen.wait_for("? Which day suits you?")
    assert "waiting for you" in status(asked)
    screen.type_line("Friday")
    screen.wait_for("Booked for Friday.")
    assert "Friday" in terminal.model.requests[1]["messages"][-1]["content"]


def test_slash_commands(terminal):
    screen = terminal.open()
    screen.keys("/th", "Tab")
    screen.wait_for("› /think")
    screen.keys(" on", "Enter")
    screen.wait_for("thinking: on for this session")
    assert "think on" in status(screen.text())
    screen.type_line("/frobnicate")
    screen.wait_for("unknown command /frobnicate — /help lists the commands")
    screen.type_line("/help")
    screen.wait_for("/egress")
    screen.type_line("/memory")
    screen.wait_for("nothing remembered yet")
    screen.type_line("/egress")
    screen.wait_for("no outbound connections recorded in this session")
    screen.type_line("/sessions")
    screen.wait_for(lambda s: re.search(r"\* s_[0-9a-f]{12} .* 0 turns", s) is not None)
    terminal.model.enqueue("Hello.")
    screen.type_line("hi")
    screen.wait_for("Hello.")
    screen.type_line("/trace why")
    screen.wait_for("(completed): hi")
    screen.type_line("/clear")
    cleared = screen.wait_for("a fresh conversation")
    assert "Hello." not in cleared
    assert len(terminal.model.requests) == 1  # no command reached the model
    screen.type_line("/quit")
    screen.wait_for(lambda s: "fake · think" not in s)


def test_replay_renders_a_past_turn_from_its_events(terminal):
    (terminal.env.workdir / "notes.txt").write_text("x\n")
    terminal.open()
    terminal.model.enqueue(call("plan", PLAN), call("read_file", {"path": "notes.txt"}), "It says x.")
    printed = json.loads(terminal.env.saturn("-p", "what do my notes say?", "--json").stdout)
    replayed = terminal.env.saturn("replay", printed["turn_id"])
    assert replayed.returncode == 0, replayed.stderr
    lines = replayed.stdout.splitlines()
    assert lines[:4] == ["› what do my notes say?", "read_file notes.txt ✓ " + lines[1].split("✓ ")[1],
                         "── response", "It says x."]
    assert lines[4:6] == ["▸ read the notes", "○ answer"]
    assert lines[6].startswith("3 passes · 3 model calls · 2 tool calls")
    assert "\x1b[" not in replayed.stdout  # not a terminal: no colour codes
    assert terminal.env.saturn("replay", "t_nosuchturn").returncode == 1


def test_leaving_mid_turn_keeps_it_running_and_resume_shows_what_happened(terminal):
    screen = terminal.open()
    terminal.model.enqueue(call("list_dir", {}), Reply(text="All listed.", delay_s=2.0))
    screen.type_line("list my files")
    screen.wait_for("list_dir")
    screen.type_line("/quit")
    screen.wait_for(lambda s: "fake · think" not in s)
    again = terminal.open("--resume", ready="list my files")
    done = again.wait_for("2 passes · 2 model calls")
    assert "list_dir ✓" in done and "All listed." in done
    # /resume from a new session re-attaches to that one too.
    fresh = terminal.open()
    fresh.type_line("/resume")
    resumed = fresh.wait_for("All listed.")
    assert "› list my files" in resumed


def test_no_color_80_columns_and_resize(terminal):
    screen = terminal.open(env={"NO_COLOR": "1"})
    terminal.model.enqueue(call("list_dir", {}, delay_s=3.0), "Done.")
    screen.type_line("list")
    screen.wait_for("waiting for the model")
    coloured = screen.text(ansi=True)
    assert not re.search(r"\x1b\[[0-9;]*(3[0-7]|9[0-7]|38;[25])[;m]", coloured)
    assert all(len(line) <= 80 for line in screen.text().splitlines())
    screen.resize(50, 20)
    # tmux cuts the old lines at once; the client's redraw fits the status line to 50 columns.
    redrawn = re.compile(r"^.*think off · pass 1/16 · waiting for the model \d+s$", re.M)
    narrow = screen.wait_for(lambda s: redrawn.search(s) is not None)
    assert all(len(line) <= 50 for line in narrow.splitlines())
