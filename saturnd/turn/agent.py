"""One agent pass: a model call, streamed, with its reply read and (if needed) recovered."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from protocol.events import PassStarted, ResponseDelta, ThinkingDelta
from protocol.methods import PassTrace
from saturnd.model.recovery import recover_tool_calls
from saturnd.model.types import ModelReply
from saturnd.turn.context import TurnContext


@dataclass(frozen=True)
class PassPlan:
    """What the loop decided about the coming pass."""

    step: str
    """first_move | after_tools | after_error | steered | final."""
    tools_offered: bool = True
    think: bool | None = None


def is_malformed(reply: ModelReply) -> bool:
    """Nothing usable: no answer text and no call."""
    return not reply.content.strip() and not reply.tool_calls


async def agent_pass(turn: TurnContext, messages: list[dict[str, Any]], plan: PassPlan) -> ModelReply:
    """Run one pass; a malformed reply is retried once. A failing model raises ModelError."""
    turn.tally.passes += 1
    record = PassTrace(
        index=turn.tally.passes, step=plan.step, thinking=bool(plan.think),
        tools_offered=plan.tools_offered,
    )
    turn.trace.append(record)
    turn.events.emit(PassStarted(
        pass_index=record.index, thinking=bool(plan.think), tools_offered=plan.tools_offered
    ))
    tools = turn.registry.openai_tools() if plan.tools_offered else None
    reply = await _model_call(turn, messages, tools, plan.think)
    if is_malformed(reply):
        record.note = "the model's reply was empty; retried once"
        reply = await _model_call(turn, messages, tools, plan.think)
    if plan.tools_offered and not reply.tool_calls and reply.content:
        recovered = recover_tool_calls(reply.content, turn.registry.names())
        if recovered.calls:
            reply.tool_calls, reply.content = recovered.calls, recovered.text
    record.answered = not reply.tool_calls
    if reply.content:
        turn.last_text = reply.content
    return reply


async def _model_call(
    turn: TurnContext, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None,
    think: bool | None,
) -> ModelReply:
    def on_delta(kind: str, text: str) -> None:
        turn.events.emit(ThinkingDelta(text=text) if kind == "thinking" else ResponseDelta(text=text))

    turn.tally.model_calls += 1
    reply = await turn.control.unless_aborted(
        turn.model.complete(messages, tools=tools, think=think, on_delta=on_delta)
    )
    turn.tally.tokens_in += reply.usage.tokens_in
    turn.tally.tokens_out += reply.usage.tokens_out
    turn.tally.thinking_s += reply.thinking_s
    return reply
