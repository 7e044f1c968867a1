"""One agent pass: the model call(s) the thinking plan asks for, read into a typed outcome.

Thinking (think_plan): `off`, `think`, or `draft` (act: a draft with thinking
off; a draft that answers is the answer, a draft that calls a tool is pulled
back and the pass runs again with thinking on). A pass never makes more than
two model calls because of thinking: a failed thought falls back to the
draft, or to one call without thinking. How a call is made and read is the
model caller's business (saturnd/model/caller.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from protocol.events import PassStarted, ThinkingEnded, ThinkingStarted
from protocol.methods import PassTrace, StepKind
from saturnd.model.caller import Readable, Unreadable
from saturnd.model.client import ModelError
from saturnd.model.types import ModelReply, ToolCall
from saturnd.tools.registry import CHANGING_RISKS
from saturnd.turn.checks import tried_a_change
from saturnd.turn.context import TurnContext
from saturnd.turn.first_move import CHANGING
from saturnd.turn.thinking import ThinkPlan, rethink_outcome, rethinks

OPENING_CHARS = 160
THOUGHT_CAP_CHARS = 8000


@dataclass(frozen=True)
class PassPlan:
    """What the loop decided about the coming pass."""

    step: StepKind
    think: ThinkPlan
    tools_offered: bool = True
    must_call: tuple[str, ...] = ()
    """Offer only these tools, and no answer: the pass must call one of them."""


@dataclass(frozen=True)
class Answered:
    """The model answered (on a pass without tools, whatever it wrote is the answer)."""

    text: str


@dataclass(frozen=True)
class CallsProposed:
    """The model proposed tool calls: a tool round reviews and runs them."""

    reply: ModelReply


@dataclass(frozen=True)
class ModelFailed:
    """The model server gave no reply at all."""

    error: ModelError


PassOutcome = Answered | CallsProposed | Unreadable | ModelFailed


async def agent_pass(turn: TurnContext, messages: list[dict[str, Any]], plan: PassPlan) -> PassOutcome:
    turn.tally.passes += 1
    record = PassTrace(
        index=turn.tally.passes, step=plan.step, tools_offered=plan.tools_offered,
        think_reason=plan.think.reason,
    )
    if plan.must_call:
        record.note = f"must call one of: {', '.join(plan.must_call)}"
    turn.trace.append(record)
    turn.events.emit(PassStarted(
        pass_index=record.index, thinking=plan.think.mode == "think",
        tools_offered=plan.tools_offered, max_passes=turn.config.runtime.max_iterations,
    ))
    before = (turn.tally.model.calls, turn.tally.model.tokens_in, turn.tally.model.tokens_cached)
    try:
        read = await _pass_reply(turn, messages, plan, record)
    except ModelError as failure:
        return ModelFailed(failure)
    finally:  # an unreadable or failed pass still shows the calls it made
        record.model_calls = turn.tally.model.calls - before[0]
        record.prompt_tokens = turn.tally.model.tokens_in - before[1]
        record.prompt_tokens_cached = turn.tally.model.tokens_cached - before[2]
    if isinstance(read, Unreadable):
        return read
    reply = read.reply
    record.answered = not reply.tool_calls
    if reply.content:
        turn.last_text = reply.content
    if reply.tool_calls and plan.tools_offered:
        return CallsProposed(reply)
    # a wrap-up pass that still only proposes calls answers with the turn's last words
    return Answered(reply.content or turn.last_text)


async def _pass_reply(
    turn: TurnContext, messages: list[dict[str, Any]], plan: PassPlan, record: PassTrace
) -> Readable | Unreadable:
    if plan.think.mode == "think":
        thought = await _think(turn, messages, plan, record)
        if isinstance(thought, Readable):
            return thought
        return await _without_thinking(turn, messages, plan, record)
    draft = await _without_thinking(turn, messages, plan, record)
    if not isinstance(draft, Readable) or not draft.reply.tool_calls or plan.think.mode != "draft":
        return draft
    if not rethinks(plan.think, [_risk(turn, call.name) for call in draft.reply.tool_calls]):
        record.note = join_note(record.note, "the draft only looks: kept without thinking")
        return draft
    record.note = join_note(record.note, "the draft called a tool: pulled back, thinking")
    thought = await _think(turn, messages, plan, record)
    if not isinstance(thought, Readable):
        return draft
    record.note = join_note(record.note, rethink_outcome(draft.reply.tool_calls, thought.reply.tool_calls))
    if not thought.reply.tool_calls and change_still_owed(turn, draft.reply.tool_calls):
        # the answer would go back as "nothing changed" (checks.nothing_changed): the call stands
        # (stop 54: after the person said which Bovary, the thought dropped the mark_done)
        record.note = join_note(record.note, "the change asked for is not made yet: the draft's call kept")
        return draft
    return thought


def change_still_owed(turn: TurnContext, calls: list[ToolCall]) -> bool:
    """The first move was a change or a message, none was tried yet, and `calls` make one."""
    return (turn.move is not None and turn.move.route in CHANGING and not tried_a_change(turn.trace, turn.registry)
            and any(_risk(turn, c.name) in CHANGING_RISKS for c in calls))


async def _think(
    turn: TurnContext, messages: list[dict[str, Any]], plan: PassPlan, record: PassTrace
) -> Readable | Unreadable:
    """One call with thinking on, announced and timed; the thought is kept in the trace only."""
    turn.events.emit(ThinkingStarted(reason=plan.think.reason))
    started = time.monotonic()
    result = await turn.caller.with_thinking(messages, tools_offered=plan.tools_offered, only=plan.must_call)
    seconds = round(time.monotonic() - started, 3)
    cut = result.cut if isinstance(result, Unreadable) else ""
    if cut:
        record.note = join_note(record.note, f"thought cut: {cut}; the pass answers without it")
    elif isinstance(result, Unreadable):
        record.note = join_note(record.note, f"the thinking reply was unusable: {result.problem}")
    record.thinking = True
    record.thought = result.thought[:THOUGHT_CAP_CHARS]
    record.thought_s = seconds
    turn.tally.thinking_s += seconds
    turn.events.emit(ThinkingEnded(
        seconds=seconds, reason=plan.think.reason, opening=result.thought[:OPENING_CHARS], cut=cut,
    ))
    return result


async def _without_thinking(
    turn: TurnContext, messages: list[dict[str, Any]], plan: PassPlan, record: PassTrace
) -> Readable | Unreadable:
    """One call with thinking off (retried once by the caller if unreadable)."""
    result = await turn.caller.without_thinking(messages, tools_offered=plan.tools_offered, only=plan.must_call)
    for remark in result.remarks:
        record.note = join_note(record.note, remark)
    if isinstance(result, Readable) and result.thought:
        record.thought = result.thought[:THOUGHT_CAP_CHARS]
    return result


def _risk(turn: TurnContext, name: str) -> str:
    """An unknown name is no look: the call's review sends it back, after a rethink."""
    tool = turn.registry.get(name)
    return tool.risk if tool else "unknown"


def join_note(note: str, more: str) -> str:
    """A trace note with one more remark."""
    return f"{note}; {more}" if note else more
