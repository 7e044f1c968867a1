"""The turn: ground, then model passes until an answer."""

from __future__ import annotations

import msgspec

from protocol.events import (
    Answer,
    PassStarted,
    ResponseDelta,
    ThinkingDelta,
    TurnEnded,
    TurnStarted,
)
from saturnd.model.types import ModelReply
from saturnd.turn.context import TurnContext
from saturnd.turn.ground import ground_messages
from saturnd.turn.history import to_model_messages


async def run_turn(turn: TurnContext) -> str:
    """Run the turn to its answer; returns the answer text."""
    turn.events.emit(TurnStarted(session_id=turn.session_id, text=turn.text))
    history = to_model_messages(turn.store.messages(turn.session_id))
    turn.store.add_message(turn.session_id, turn.turn_id, "user", turn.text)
    messages = ground_messages(turn.cwd) + history + [{"role": "user", "content": turn.text}]
    reply = await model_pass(turn, messages)
    turn.store.add_message(turn.session_id, turn.turn_id, "assistant", reply.content)
    finish(turn, reply.content)
    return reply.content


async def model_pass(turn: TurnContext, messages: list[dict]) -> ModelReply:
    turn.tally.passes += 1
    turn.events.emit(PassStarted(pass_index=turn.tally.passes))

    def on_delta(kind: str, text: str) -> None:
        turn.events.emit(ThinkingDelta(text=text) if kind == "thinking" else ResponseDelta(text=text))

    turn.tally.model_calls += 1
    reply = await turn.model.complete(messages, on_delta=on_delta)
    turn.tally.tokens_in += reply.usage.tokens_in
    turn.tally.tokens_out += reply.usage.tokens_out
    turn.tally.thinking_s += reply.thinking_s
    return reply


def finish(turn: TurnContext, answer: str, note: str = "", status: str = "completed") -> None:
    turn.events.emit(Answer(text=answer, note=note))
    receipt = turn.tally.receipt()
    turn.events.emit(receipt)
    turn.store.finish_turn(turn.turn_id, status, answer, msgspec.to_builtins(receipt), [])
    turn.events.emit(TurnEnded(status=status))

