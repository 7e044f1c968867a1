"""One agent pass: model calls, streamed and read, with thinking where the policy says.

Tool modes: `native` sends `tools`; `constrained` sends no tools but a JSON
schema that only admits a real call or an answer (a thinking call's schema
opens with a bounded "thought" the grammar writes); `auto` is native and
retries an unreadable reply in constrained mode.

Thinking (think_plan): `off`, `think`, or `draft` (act: a draft with thinking
off; a draft that answers is the answer, a draft that calls a tool is pulled
back and the pass runs again with thinking on). A pass never makes more than
two model calls because of thinking: a failed thought falls back to the
draft, or to one call without thinking.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from protocol.events import (
    PassStarted,
    ResponseDelta,
    ThinkingDelta,
    ThinkingEnded,
    ThinkingStarted,
)
from protocol.methods import PassTrace
from saturnd import egress
from saturnd.model import constrained
from saturnd.model.client import ModelHttpError
from saturnd.model.recovery import recover_tool_calls
from saturnd.model.types import ModelReply
from saturnd.turn.context import TurnContext
from saturnd.turn.ground import TURN_HEADING
from saturnd.turn.stream_filter import ResponseStream
from saturnd.turn.thinking import ThinkPlan

OPENING_CHARS = 160
THOUGHT_CAP_CHARS = 8000


class UnreadableReply(Exception):
    """The model gave nothing usable twice in a row; the turn answers with the reason."""


class ThoughtCut(Exception):
    """Raised from the stream to end a thought: at the budget, or stopped by the person."""


@dataclass(frozen=True)
class PassPlan:
    """What the loop decided about the coming pass."""

    step: str
    """first_move | continuing | recovery | steered | wrap_up."""
    think: ThinkPlan
    tools_offered: bool = True


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
        index=turn.tally.passes, step=plan.step, tools_offered=plan.tools_offered,
        think_reason=plan.think.reason,
    )
    turn.trace.append(record)
    turn.events.emit(PassStarted(
        pass_index=record.index, thinking=plan.think.mode == "think",
        tools_offered=plan.tools_offered,
    ))
    before = (turn.tally.model_calls, turn.tally.tokens_in, turn.tally.tokens_cached)
    try:
        reply = await _pass_reply(turn, messages, plan, record)
    finally:  # an unreadable or failed pass still shows the calls it made
        record.model_calls = turn.tally.model_calls - before[0]
        record.prompt_tokens = turn.tally.tokens_in - before[1]
        record.prompt_tokens_cached = turn.tally.tokens_cached - before[2]
    record.answered = not reply.tool_calls
    if reply.content:
        turn.last_text = reply.content
    return reply


async def _pass_reply(
    turn: TurnContext, messages: list[dict[str, Any]], plan: PassPlan, record: PassTrace
) -> ModelReply:
    if plan.think.mode == "think":
        reply = await _thought_reply(turn, messages, plan, record)
        return reply or await _readable_reply(turn, messages, plan, record, think=False)
    reply = await _readable_reply(turn, messages, plan, record, think=False)
    if plan.think.mode == "draft" and reply.tool_calls:
        record.note = join_note(record.note, "the draft called a tool: pulled back, thinking")
        return await _thought_reply(turn, messages, plan, record) or reply
    return reply


async def _thought_reply(
    turn: TurnContext, messages: list[dict[str, Any]], plan: PassPlan, record: PassTrace
) -> ModelReply | None:
    """One call with thinking on; None when the thought was cut or gave nothing usable."""
    turn.events.emit(ThinkingStarted(reason=plan.think.reason))
    turn.control.take_stop_thought()  # a stop meant for an earlier thought does not carry over
    thinking: list[str] = []
    started = time.monotonic()
    cut = ""
    reply: ModelReply | None = None
    try:
        reply, problem = await _attempt(
            turn, messages, first_mode(turn.tool_mode, plan.tools_offered), True,
            thinking,
        )
        if problem:
            record.note = join_note(record.note, f"the thinking reply was unusable: {problem}")
            reply = None
    except ThoughtCut as stop:
        cut = str(stop)
        record.note = join_note(record.note, f"thought cut: {cut}; the pass answers without it")
    seconds = round(time.monotonic() - started, 3)
    thought = "".join(thinking).strip()
    record.thinking = True
    record.thought = thought[:THOUGHT_CAP_CHARS]
    record.thought_s = seconds
    turn.tally.thinking_s += seconds
    turn.events.emit(ThinkingEnded(
        seconds=seconds, reason=plan.think.reason, opening=thought[:OPENING_CHARS], cut=cut,
    ))
    return reply


async def _readable_reply(
    turn: TurnContext, messages: list[dict[str, Any]], plan: PassPlan, record: PassTrace,
    think: bool,
) -> ModelReply:
    """A reply without thinking; an unreadable one is retried once (in constrained mode for auto)."""
    tool_mode = turn.tool_mode
    thinking: list[str] = []
    reply, problem = await _guarded(turn, messages, first_mode(tool_mode, plan.tools_offered), think, thinking)
    if problem:
        mode = retry_mode(tool_mode, plan.tools_offered)
        record.note = join_note(record.note, f"{problem}; retried once in {mode} mode")
        reply, again = await _guarded(turn, messages, mode, think, thinking)
        if again:
            record.note += f"; again: {again}"
            raise UnreadableReply(again)
    if thinking and not think:
        record.note = join_note(record.note, "the server sent reasoning although thinking was off")
        record.thought = "".join(thinking).strip()[:THOUGHT_CAP_CHARS]
    return reply


async def _guarded(
    turn: TurnContext, messages: list[dict[str, Any]], mode: str, think: bool, thinking: list[str]
) -> tuple[ModelReply, str | None]:
    """A call with thinking off; a server that thinks anyway is cut at the budget."""
    try:
        return await _attempt(turn, messages, mode, think, thinking)
    except ThoughtCut as stop:
        return ModelReply(), f"the server thought although thinking was off ({stop})"


async def _attempt(
    turn: TurnContext, messages: list[dict[str, Any]], mode: str, think: bool,
    thinking: list[str],
) -> tuple[ModelReply, str | None]:
    tools = turn.registry.openai_tools(strict=mode == "constrained")
    stream = ResponseStream(lambda text: turn.events.emit(ResponseDelta(text=text)),
                            hold_all=mode == "constrained")
    try:
        if mode == "constrained":
            # The grammar writes the thought, so the server itself is never asked to think.
            budget = turn.config.runtime.think_budget if think else 0
            reply = await _model_call(
                turn, constrained.with_instructions(messages, constrained.instructions(tools, think), before=TURN_HEADING),
                None, False, stream, thinking, constrained.response_format(tools, budget),
                constrained.ThoughtField() if think else None,
            )
            read = constrained.read_reply(reply, turn.tally.model_calls)
            if read is None:
                return reply, "the reply was not the required JSON"
            reply = read
        else:
            native_tools = tools if mode == "native" else None
            reply = await _model_call(turn, messages, native_tools, think, stream, thinking)
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
    think: bool, stream: ResponseStream, thinking: list[str],
    response_format: dict[str, Any] | None = None, thought_field: constrained.ThoughtField | None = None,
) -> ModelReply:
    budget = turn.config.runtime.think_budget

    def on_thinking(text: str) -> None:
        thinking.append(text)  # one streamed delta is one token on the servers Saturn targets
        turn.events.emit(ThinkingDelta(text=text))
        if turn.control.take_stop_thought():
            raise ThoughtCut("stopped by you")
        if len(thinking) > budget:
            raise ThoughtCut(f"at the budget of {budget} tokens")

    def on_delta(kind: str, text: str) -> None:
        if kind == "thinking":
            on_thinking(text)
            return
        stream.feed(text)
        if thought_field is not None and (thought := thought_field.feed(text)):
            on_thinking(thought)

    turn.tally.model_calls += 1
    with egress.origin(egress.EgressOrigin(turn.session_id, turn.turn_id, tool="model")):
        reply = await turn.control.unless_aborted(turn.model.complete(
            messages, tools=tools, think=think if _switchable(turn) else None,
            on_delta=on_delta, response_format=response_format,
        ))
    turn.tally.tokens_in += reply.usage.tokens_in
    turn.tally.tokens_out += reply.usage.tokens_out
    turn.tally.tokens_cached += reply.usage.tokens_cached
    return reply


def _switchable(turn: TurnContext) -> bool:
    return turn.config.model.think_style != "none"


def join_note(note: str, more: str) -> str:
    """A trace note with one more remark."""
    return f"{note}; {more}" if note else more
