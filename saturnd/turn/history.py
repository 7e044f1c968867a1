"""Stored messages -> the OpenAI-shaped messages the model is sent, within a token budget."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import groupby
from typing import Any

from saturnd.store import MessageRow
from saturnd.turn import prompts


def to_model_messages(rows: list[MessageRow]) -> list[dict[str, Any]]:
    """Earlier turns as the conversation the user saw: what was said and answered.

    Tool rounds of finished turns stay in the store but are not replayed: a small
    model pays for every byte, and a fresh read is cheap and current.
    """
    return [
        {"role": row.role, "content": _as_sent(row)}
        for row in rows
        if row.role == "user" or (row.role == "assistant" and not row.tool_calls)
    ]


def estimate_tokens(text: str) -> int:
    """About four characters a token: cheap, and close enough to budget by."""
    return (len(text) + 3) // 4


@dataclass(frozen=True)
class History:
    messages: list[dict[str, Any]] = field(default_factory=list)
    """The earlier turns that fit, oldest first, each whole."""
    dropped_turns: int = 0
    """How many of the oldest turns were left out to stay within the budget."""
    dropped_tokens: int = 0

    def trace_note(self, budget_tokens: int) -> str:
        """What the turn's trace says about the trimming ("" when nothing was left out)."""
        if not self.dropped_turns:
            return ""
        return (
            f"left out the {self.dropped_turns} oldest earlier turn(s), about {self.dropped_tokens}"
            f" tokens, to stay within runtime.history_tokens ({budget_tokens})"
        )


def earlier_turns(rows: list[MessageRow], budget_tokens: int) -> History:
    """The session's earlier turns, newest kept first while they fit in `budget_tokens`.

    Turns are dropped whole, oldest first, so the model never sees an answer without its
    question; once one does not fit, no older one is kept. The current turn is never here:
    it is added after this is read.
    """
    turns = [to_model_messages(list(group)) for _, group in groupby(rows, key=lambda row: row.turn_id)]
    fitting, used = 0, 0
    for turn in reversed(turns):
        used += _tokens(turn)
        if used > budget_tokens:
            break
        fitting += 1
    first_kept = len(turns) - fitting
    return History(
        messages=[m for turn in turns[first_kept:] for m in turn],
        dropped_turns=first_kept,
        dropped_tokens=sum(_tokens(turn) for turn in turns[:first_kept]),
    )


def _tokens(messages: list[dict[str, Any]]) -> int:
    return sum(estimate_tokens(str(m["content"])) for m in messages)


def _as_sent(row: MessageRow) -> str:
    return prompts.STEER.format(text=row.content) if row.kind == "steer" else row.content
