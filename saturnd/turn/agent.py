"""One agent pass: a model call, streamed, read, and retried once if unreadable.

Tool modes: `native` sends `tools`; `constrained` sends no tools but a JSON
schema that only admits a real call or an answer; `auto` is native and
retries an unreadable pass in constrained mode.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from protocol.events import PassStarted, ResponseDelta, ThinkingDelta
from protocol.methods import PassTrace
from saturnd import egress
from saturnd.model import constrained
from saturnd.model.client import ModelHttpError
from saturnd.model.recovery import recover_tool_calls
from saturnd.model.types import ModelReply
from saturnd.turn.context import TurnContext
from saturnd.turn.stream_filter import ResponseStream


class UnreadableReply(Exception):
    """The model gave nothing usable twice in a row; the turn answers with the reason."""


@dataclass(frozen=True)
class PassPlan:
    """What the loop decided about the coming pass."""

    step: str
    """first_move | after_tools | after_error | steered | final."""
    tools_offered: bool = True
    think: bool | None = None


def first_mode(tool_mode: str, tools_offered: bool) -> str:
    if not tools_offered:
        return "plain"
    return "constrained" if tool_mode == "constrained" else "native"


def retry_mode(tool_mode: str, tools_offered: bool) -> str:
    if not tools_offered:
        return "plain"
    return "native" if tool_mode == "native" else "constrained"


def reply_problem(reply: ModelReply) -> str | None:
    """Why this reply cannot be used, or None."""
    if not reply.content.strip() and not reply.tool_calls:
        return "the reply was empty"
    if reply.tool_calls and not any(_is_json_object(c.arguments) for c in reply.tool_calls):
        return "the tool-call arguments were not JSON"
    return None


def _is_json_object(text: str) -> bool:
    if not text.strip():
        return True
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return False


async def agent_pass(turn: TurnContext, messages: list[dict[str, Any]], plan: PassPlan) -> ModelReply:
    """Run one pass. Raises ModelError if the model fails, UnreadableReply if it babbles twice."""
    turn.tally.passes += 1
    record = PassTrace(
        index=turn.tally.passes, step=plan.step, thinking=bool(plan.think),
        tools_offered=plan.tools_offered,
    )
    turn.trace.append(record)
    turn.events.emit(PassStarted(
        pass_index=record.index, thinking=bool(plan.think), tools_offered=plan.tools_offered
    ))
    tool_mode = turn.config.model.tool_mode
    reply, problem = await _attempt(turn, messages, first_mode(tool_mode, plan.tools_offered), plan)
    if problem:
        mode = retry_mode(tool_mode, plan.tools_offered)
        record.note = f"{problem}; retried once in {mode} mode"
        reply, again = await _attempt(turn, messages, mode, plan)
        if again:
            record.note += f"; again: {again}"
            raise UnreadableReply(again)
    record.answered = not reply.tool_calls
    if reply.content:
        turn.last_text = reply.content
    return reply


async def _attempt(
    turn: TurnContext, messages: list[dict[str, Any]], mode: str, plan: PassPlan
) -> tuple[ModelReply, str | None]:
    tools = turn.registry.openai_tools()
    stream = ResponseStream(lambda text: turn.events.emit(ResponseDelta(text=text)),
                            hold_all=mode == "constrained")
    try:
        if mode == "constrained":
            reply = await _model_call(
                turn, constrained.with_instructions(messages, constrained.instructions(tools)),
                None, plan.think, stream, constrained.response_format(tools),
            )
            read = constrained.read_reply(reply, turn.tally.model_calls)
            if read is None:
                return reply, "the reply was not the required JSON"
            reply = read
        else:
            native_tools = tools if mode == "native" else None
            reply = await _model_call(turn, messages, native_tools, plan.think, stream)
    except ModelHttpError as exc:
        if not exc.is_format_failure:
            raise
        return ModelReply(), f"the server could not read the model's output ({exc.server_message})"
    if mode == "native" and not reply.tool_calls and reply.content:
        recovered = recover_tool_calls(reply.content, turn.registry.names())
        if recovered.calls:
            reply.tool_calls, reply.content = recovered.calls, recovered.text
    stream.finish(None if reply.tool_calls else reply.content)
    return reply, reply_problem(reply)


async def _model_call(
    turn: TurnContext, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None,
    think: bool | None, stream: ResponseStream, response_format: dict[str, Any] | None = None,
) -> ModelReply:
    def on_delta(kind: str, text: str) -> None:
        if kind == "thinking":
            turn.events.emit(ThinkingDelta(text=text))
        else:
            stream.feed(text)

    turn.tally.model_calls += 1
    with egress.origin(egress.EgressOrigin(turn.session_id, turn.turn_id, tool="model")):
        reply = await turn.control.unless_aborted(turn.model.complete(
            messages, tools=tools, think=think, on_delta=on_delta, response_format=response_format,
        ))
    turn.tally.tokens_in += reply.usage.tokens_in
    turn.tally.tokens_out += reply.usage.tokens_out
    turn.tally.thinking_s += reply.thinking_s
    return reply
