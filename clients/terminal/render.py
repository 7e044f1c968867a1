"""What the terminal shows of a turn, as pure functions of its events.

`TurnView.apply` folds one `turn/event` into the view; the status line, the rail and the
transcript are read off the view with the clock passed in, so a live turn, a re-attached one
and a replay (`saturn replay TURN`) all render through the same code, and tests need no
terminal.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

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
    Resumed,
    Steered,
    ThinkingEnded,
    ThinkingStarted,
    ToolFinished,
    ToolProposed,
    TurnEnded,
    TurnEvent,
    TurnStarted,
)

Line = tuple[str, str]
"""(style class, text): one transcript entry; the text may hold newlines."""

RESPONSE_RULE = "── response"
APPROVAL_KEYS = "[y] once · [a] always this session · [n] decline · [e] explain"
PAUSE_KEYS = "[Enter] continue · type a correction to steer · q abort"
PLAN_MARKS = {"done": "✓", "in_progress": "▸", "pending": "○", "skipped": "–"}
FATE_WORDS = {
    "refused_loop": "refused: loop",
    "declined": "declined",
    "not_approved": "not approved",
    "blocked": "blocked",
    "refused_recipient": "refused: recipient",
    "refused_guess": "refused: a guess",
    "refused": "refused",
    "capped": "capped: never ran",
    "timed_out": "timed out",
    "ask_first": "sent back: ask first",
}
"""How a call that did not run (or did not finish) reads on its line."""
ARGUMENT_CHARS = 40


def format_duration(seconds: float) -> str:
    """`12 ms` under a second, `1.2 s` under a minute, `3m05s` beyond."""
    if seconds < 1:
        return f"{round(seconds * 1000)} ms"
    if seconds < 60:
        return f"{seconds:.1f} s"
    return f"{int(seconds // 60)}m{int(seconds % 60):02d}s"


def argument_summary(arguments: Any) -> str:
    """The call's target at a glance: its first argument's value (`notes.txt`), cut short."""
    if isinstance(arguments, dict):
        if not arguments:
            return ""
        value = next(iter(arguments.values()))
        shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    elif arguments is None:
        return ""
    else:
        shown = str(arguments)
    shown = " ".join(shown.split())
    return shown if len(shown) <= ARGUMENT_CHARS else shown[: ARGUMENT_CHARS - 1] + "…"


def fate_text(fate: str, result: str, duration_s: float) -> str:
    """`✓ 12 ms`, `refused: loop`, `declined`, `⛔ call read_file first`, `✗ tool error: …`."""
    if fate in ("ran", "asked"):
        return f"✓ {format_duration(duration_s)}"
    if fate == "needs_parent":
        return result.split(":", 1)[0].strip() or "⛔ needs another call first"
    if fate == "invalid":
        return "sent back: " + _first_line(result)
    if fate == "error":
        return "✗ " + _first_line(result)
    return FATE_WORDS.get(fate, fate.replace("_", " "))


def tool_line(name: str, arguments: Any, fate: str, result: str, duration_s: float) -> str:
    """`read_file notes.txt ✓ 12 ms`: one call and what became of it."""
    target = argument_summary(arguments)
    return " ".join(part for part in (name, target, fate_text(fate, result, duration_s)) if part)


def preview_lines(preview: str) -> list[Line]:
    """What an approval would change, a line each: a diff's additions, removals and the rest."""
    out: list[Line] = []
    for line in preview.splitlines():
        if line.startswith(("+++", "---", "@@")):
            style = "diff"
        elif line.startswith("+"):
            style = "diff_add"
        elif line.startswith("-"):
            style = "diff_del"
        else:
            style = "diff"
        out.append((style, "  " + line))
    return out


def plan_lines(items: list[PlanItem]) -> list[str]:
    return [f"{PLAN_MARKS.get(item.status, '○')} {item.text}" for item in items]


def receipt_line(receipt: Receipt) -> str:
    """One line: passes, model calls, tools, thinking time, wall time, and the note if any."""
    tools = f"{receipt.tool_calls} tool call" + ("" if receipt.tool_calls == 1 else "s")
    parts = [
        f"{receipt.passes} pass" + ("" if receipt.passes == 1 else "es"),
        f"{receipt.model_calls} model call" + ("" if receipt.model_calls == 1 else "s"),
        tools,
        f"thinking {receipt.thinking_s:.1f} s",
        f"{receipt.wall_s:.1f} s",
    ]
    if receipt.note:
        parts.append(receipt.note)
    return " · ".join(parts)


def _first_line(text: str, limit: int = 60) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"


@dataclass
class PendingApproval:
    call_id: str
    name: str
    arguments: Any
    reason: str


@dataclass
class TurnView:
    """One turn as the client knows it from its events (and the person's own answers)."""

    turn_id: str = ""
    session_id: str = ""
    last_seq: int = 0
    lines: list[Line] = field(default_factory=list)
    plan: list[PlanItem] = field(default_factory=list)
    pass_index: int = 0
    max_passes: int = 0
    phase: str = ""
    """What is happening now: the status line's last words, without the clock."""
    phase_at: float = 0.0
    """When the phase began (the event's own time, so a re-attached view counts right)."""
    running: dict[str, str] = field(default_factory=dict)
    """call_id -> tool name of the calls proposed and not finished."""
    arguments: dict[str, Any] = field(default_factory=dict)
    approvals: list[PendingApproval] = field(default_factory=list)
    """Approvals asked for and not yet answered."""
    question: str = ""
    """An ask_user question waiting for its answer."""
    paused: bool = False
    thinking: bool = False
    streaming: bool = False
    """The answer is being written into lines[response_at]."""
    response_at: int = 0
    pass_text: str = ""
    review_count: int = 0
    ended: TurnEnded | None = None
    next_turn_id: str = ""

    @property
    def waiting_for_person(self) -> bool:
        return bool(self.approvals or self.question)

    def apply(self, turn_event: TurnEvent) -> None:
        event, at = turn_event.event, turn_event.at
        self.turn_id, self.last_seq = turn_event.turn_id, turn_event.seq
        self.session_id = turn_event.session_id or self.session_id
        if self.question and not isinstance(event, Question):
            self.question = ""  # the turn moved on: the question was answered
        match event:
            case TurnStarted(text=text):
                self.lines.append(("user", f"› {text}"))
                self._phase("starting", at)
            case PassStarted():
                self.pass_index, self.max_passes = event.pass_index, event.max_passes
                self._end_stream()
                self._phase("waiting for the model", at)
            case ThinkingStarted():
                self.thinking = True
                self._phase("thinking", at)
            case ThinkingEnded():
                self.thinking = False
                cut = f" ({event.cut})" if event.cut else ""
                opening = f": {event.opening}" if event.opening else ""
                self.lines.append(("thought", f"thought {event.seconds:.1f}s{cut}{opening}"))
                self._phase("waiting for the model", at)
            case ResponseDelta(text=text):
                self._stream(text)
                self._phase("writing", at)
            case ToolProposed():
                self._end_stream()
                self.running[event.call_id] = event.name
                self.arguments[event.call_id] = event.arguments
                self._phase_running(at)
            case ApprovalRequested():
                self.approvals.append(
                    PendingApproval(event.call_id, event.name, event.arguments, event.reason)
                )
                target = argument_summary(event.arguments)
                reason = f" — {event.reason}" if event.reason else ""
                self.lines.append(("approval", f"? {event.name} {target}{reason}".replace("  ", " ")))
                self.lines += preview_lines(event.preview)
                self.lines.append(("keys", APPROVAL_KEYS))
                self._phase("waiting for you", at)
            case ToolFinished():
                self.running.pop(event.call_id, None)
                self.approvals = [a for a in self.approvals if a.call_id != event.call_id]
                arguments = self.arguments.get(event.call_id)
                if not (event.name == "plan" and event.fate == "ran"):  # the rail shows it
                    line = tool_line(event.name, arguments, event.fate, event.result, event.duration_s)
                    self.lines.append(("tool", line))
                self._phase_running(at)
            case PlanUpdated(items=items):
                self.plan = list(items)
            case Question(question=question):
                self._end_stream()
                self.question = question
                self.lines.append(("question", f"? {question}"))
                self._phase("waiting for you", at)
            case Paused(plan=plan):
                self.paused = True
                self._end_stream()
                self.lines.append(("paused", "paused"))
                self.lines += [("plan", line) for line in plan_lines(plan or self.plan)]
                self.lines.append(("keys", PAUSE_KEYS))
                self._phase("paused", at)
            case Resumed():
                self.paused = False
                self.lines.append(("note", "resumed"))
                self._phase("waiting for the model", at)
            case Steered(text=text):
                self.lines.append(("steer", f"↳ {text}"))
            case Remembered():
                self.lines.append(("memory", event.line))
                if event.similar:
                    self.lines.append(("memory", event.similar))
            case MemoryCandidate():
                self.review_count += 1
                self.lines.append(("memory", event.line))
            case Answer():
                self._answer(event)
            case Receipt():
                if self.plan:  # the rail goes with the turn: its last state stays in view
                    self.lines += [("plan", line) for line in plan_lines(self.plan)]
                if self.review_count:
                    waiting = "fact" if self.review_count == 1 else "facts"
                    self.lines.append((
                        "memory", f"{self.review_count} {waiting} waiting for review · /memory queue",
                    ))
                self.lines.append(("receipt", receipt_line(event)))
            case TurnEnded():
                self._end_stream()
                self.ended = event
                self.next_turn_id = event.next_turn_id
                self.approvals, self.running, self.paused = [], {}, False
                if event.status in ("cancelled", "interrupted", "failed"):
                    self.lines.append(("error", f"{event.status}: {event.error}".rstrip(": ")))
                self._phase("", at)

    def decided(self, call_id: str) -> None:
        """The person answered this approval here: stop asking while the turn goes on."""
        self.approvals = [a for a in self.approvals if a.call_id != call_id]

    def status_phase(self, now: float) -> str:
        """`waiting for the model 4s`, `thinking 3s`, `running run_command 2s`, `paused`."""
        if not self.phase:
            return ""
        if self.phase in ("paused", "waiting for you"):
            return self.phase
        return f"{self.phase} {max(0, int(now - self.phase_at))}s"

    def _phase(self, phase: str, at: float) -> None:
        if phase != self.phase:
            self.phase, self.phase_at = phase, at

    def _phase_running(self, at: float) -> None:
        if self.approvals:
            self._phase("waiting for you", at)
        elif self.running:
            self._phase("running " + ", ".join(dict.fromkeys(self.running.values())), at)
        else:
            self._phase("waiting for the model", at)

    def _stream(self, text: str) -> None:
        if not self.streaming:
            self.lines.append(("rule", RESPONSE_RULE))
            self.lines.append(("response", ""))
            self.streaming, self.pass_text, self.response_at = True, "", len(self.lines) - 1
        self.pass_text += text
        # A line the client adds meanwhile (a steer sent, a queued message) stays below it.
        self.lines[self.response_at] = ("response", self.pass_text)

    def _end_stream(self) -> None:
        self.streaming = False

    def _answer(self, answer: Answer) -> None:
        streamed = self.streaming and answer.text.strip() == self.pass_text.strip()
        if not streamed:  # a bound or an abort answers with other words than what streamed
            self.lines.append(("rule", RESPONSE_RULE))
            self.lines.append(("response", answer.text))
        self._end_stream()
        self.pass_text = ""
        if answer.note:
            self.lines.append(("note", f"({answer.note})"))


def status_line(
    view: TurnView, now: float, *, model: str, think: str, session_id: str, width: int,
) -> str:
    """model · think level · pass n/max · session · what is happening now; fits `width`.

    Too narrow, the session goes first, then the model's name is cut: the live part stays."""
    passes = ""
    if view.pass_index and not view.ended:
        passes = f"pass {view.pass_index}/{view.max_passes}" if view.max_passes \
            else f"pass {view.pass_index}"
    phase = view.status_phase(now) if not view.ended else ""
    rest = [f"think {think or 'auto'}", passes, session_id, phase]
    text = " · ".join(part for part in [model or "model", *rest] if part)
    if len(text) > width:
        rest[2] = ""
        tail = " · ".join(part for part in rest if part)
        room = width - len(tail) - 3
        name = model if len(model) <= room else model[: max(0, room - 1)] + "…"
        text = f"{name} · {tail}" if room > 1 else tail[-width:]
    return text[:width]


def replay_lines(events: list[TurnEvent]) -> list[Line]:
    """A past turn as it looked live (the checklist as it left it comes before the receipt)."""
    view = TurnView()
    for turn_event in events:
        view.apply(turn_event)
    return view.lines
