"""Events a turn emits, carried by `turn/event` notifications.

Each event is a tagged Struct (`"type": "<tag>"`). Every field added later
must get a default so older clients keep decoding.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

Fate = Literal[
    "ran", "asked", "refused_loop", "declined", "not_approved", "blocked", "needs_parent",
    "refused_recipient", "refused_guess", "refused", "invalid", "capped", "timed_out", "error", "ask_first",
]
"""What became of one proposed tool call."""
EndStatus = Literal["completed", "failed", "interrupted", "aborted", "cancelled"]
"""How a turn ended."""
TurnStatus = Literal["running", EndStatus]



class _Event(msgspec.Struct, tag_field="type", omit_defaults=True, kw_only=True):
    pass


class TurnStarted(_Event, tag="turn_started"):
    session_id: str
    text: str
    """What the user asked, as typed."""


class PassStarted(_Event, tag="pass_started"):
    pass_index: int
    """1 for the first model pass of the turn."""
    thinking: bool = False
    tools_offered: bool = True
    """False on the final pass of a bounded turn (tools withheld)."""
    max_passes: int = 0
    """runtime.max_iterations: the passes that may run tools (a status line shows pass n of it)."""


class ThinkingDelta(_Event, tag="thinking_delta"):
    text: str


class ThinkingStarted(_Event, tag="thinking_started"):
    reason: str
    """Why the harness decided this pass thinks."""


class ThinkingEnded(_Event, tag="thinking_ended"):
    seconds: float
    reason: str
    opening: str = ""
    """The first words of the thought (the thought itself never reaches the model again)."""
    cut: str = ""
    """Non-empty when the thought was cut: at the budget, or stopped by you."""


class ResponseDelta(_Event, tag="response_delta"):
    text: str


class ToolProposed(_Event, tag="tool_proposed"):
    call_id: str
    name: str
    arguments: Any = None


class ToolFinished(_Event, tag="tool_finished"):
    call_id: str
    name: str
    fate: Fate
    result: str = ""
    """What the model is sent back (capped for display)."""
    duration_s: float = 0.0


class ApprovalRequested(_Event, tag="approval_requested"):
    call_id: str
    name: str
    arguments: Any = None
    reason: str = ""
    """Why it was gated: the rule or default, or an escalation."""
    preview: str = ""
    """What the call would change, worked out without running it: a unified diff for a file
    write; "would fail: …" when it would fail as it stands; empty when not known."""


class PlanItem(msgspec.Struct, omit_defaults=True):
    text: str
    status: str = "pending"
    """pending | in_progress | done | skipped."""


class PlanUpdated(_Event, tag="plan_updated"):
    items: list[PlanItem]


class Question(_Event, tag="question"):
    call_id: str
    question: str


class Paused(_Event, tag="paused"):
    plan: list[PlanItem] = []


class Resumed(_Event, tag="resumed"):
    pass


class Steered(_Event, tag="steered"):
    text: str


class Remembered(_Event, tag="remembered"):
    number: int
    text: str
    provenance: str
    line: str
    """What the client prints after the answer."""
    similar: str = ""
    """A stored fact this one may contradict, named, never removed."""


class MemoryCandidate(_Event, tag="memory_candidate"):
    """A fact the user stated that the model did not remember: queued for review, not saved."""

    id: int
    text: str
    line: str


class Answer(_Event, tag="answer"):
    text: str
    note: str = ""
    """Why the turn ended early (bound reached, stopped at your request), if it did."""


class Receipt(_Event, tag="receipt"):
    passes: int = 0
    model_calls: int = 0
    tool_calls: int = 0
    tool_fates: dict[str, int] = {}
    thinking_s: float = 0.0
    wall_s: float = 0.0
    tokens_in: int = 0
    tokens_out: int = 0
    tokens_cached: int = 0
    """Of tokens_in, those the model server reused from its prompt cache (not evaluated again)."""
    plan: list[PlanItem] = []
    """The checklist as the turn left it."""
    note: str = ""
    """The answer's note (a bound reached, a check that still failed, what was not done)."""


class TurnEnded(_Event, tag="turn_ended"):
    status: EndStatus
    error: str = ""
    error_code: int = 0
    next_turn_id: str = ""
    """A queued message started this turn in the same session; subscribers are moved to it."""
    note: str = ""
    """The answer's note (a bound reached, an unbacked claim ...), repeated so that the final
    event alone tells a script how the turn ended."""


Event = (
    TurnStarted
    | PassStarted
    | ThinkingDelta
    | ThinkingStarted
    | ThinkingEnded
    | ResponseDelta
    | ToolProposed
    | ToolFinished
    | ApprovalRequested
    | PlanUpdated
    | Question
    | Paused
    | Resumed
    | Steered
    | Remembered
    | MemoryCandidate
    | Answer
    | Receipt
    | TurnEnded
)


class TurnEvent(msgspec.Struct, omit_defaults=True):
    """Params of the `turn/event` notification."""

    turn_id: str
    seq: int
    """Increases by one per event of the turn, from 1."""
    event: Event
    session_id: str = ""
    at: float = 0.0
