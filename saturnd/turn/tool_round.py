"""A tool round: review the pass's calls, run the approved ones together, send back every result."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from protocol.events import ToolFinished, ToolProposed
from protocol.methods import CallTrace
from saturnd.model.types import ModelReply, ToolCall
from saturnd.turn.context import TurnContext
from saturnd.turn.execute import ToolOutcome, run_tool
from saturnd.turn.fencing import fence
from saturnd.turn.review import Decision, review_calls

FAILED_FATES = frozenset({"invalid", "timed_out", "error"})


def assistant_message(content: str, calls: list[ToolCall]) -> dict[str, Any]:
    """The assistant turn as the model will see it next pass: only the calls that were handled."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in calls
        ]
    return message


async def tool_round(turn: TurnContext, messages: list[dict[str, Any]], reply: ModelReply) -> str:
    """Run one round; returns the next pass's step kind (after_tools or after_error)."""
    decisions = review_calls(
        reply.tool_calls, turn.registry, turn.ledger, turn.config.runtime.max_calls_per_pass
    )
    handled = [d for d in decisions if d.fate != "capped"]
    message = assistant_message(reply.content, [d.call for d in handled])
    turn.store.add_message(
        turn.session_id, turn.turn_id, "assistant", reply.content, message.get("tool_calls")
    )
    messages.append(message)
    for d in decisions:
        turn.events.emit(ToolProposed(call_id=d.call.id, name=d.call.name, arguments=_shown(d.call)))

    outcomes = await _run_approved(turn, [d for d in handled if d.runs])
    failed = False
    for d in decisions:
        outcome = outcomes.get(d.call.id) or ToolOutcome(d.fate, d.result, 0.0)
        fate = "asked" if d.fate == "ask_user" and outcome.fate == "ran" else outcome.fate
        failed |= fate in FAILED_FATES
        _record(turn, d, fate, outcome)
        if d.fate == "capped":
            continue
        if fate == "ran" and d.tool is not None:
            turn.ledger.record_ran(d.signature, d.tool.risk)
        text = outcome.text
        if fate in ("ran", "asked") and d.tool is not None and d.tool.outside:
            text = fence(_source_label(d.call), text)
        turn.store.add_message(
            turn.session_id, turn.turn_id, "tool", text, tool_call_id=d.call.id, name=d.call.name
        )
        messages.append({"role": "tool", "tool_call_id": d.call.id, "content": text})
    turn.tally.tool_passes += 1
    return "after_error" if failed else "after_tools"


async def _run_approved(turn: TurnContext, approved: list[Decision]) -> dict[str, ToolOutcome]:
    default_timeout = turn.config.runtime.tool_timeout_s
    runs = []
    for d in approved:
        assert d.tool is not None  # review approves only validated calls
        runs.append(run_tool(d.tool, d.params, turn.env, d.tool.timeout_s or default_timeout))
    results = await asyncio.gather(*runs)
    return {d.call.id: outcome for d, outcome in zip(approved, results, strict=True)}


def _record(turn: TurnContext, d: Decision, fate: str, outcome: ToolOutcome) -> None:
    turn.tally.tool_fates[fate] += 1
    why = outcome.text if fate not in ("ran", "asked") else ""
    if d.fate == "capped":
        why = f"beyond the cap of {turn.config.runtime.max_calls_per_pass} calls per pass; never ran"
    turn.trace[-1].calls.append(CallTrace(
        call_id=d.call.id, name=d.call.name, arguments=d.call.arguments, fate=fate,
        why=why[:500], recovered_from_text=d.call.recovered_from_text,
        duration_s=outcome.duration_s,
    ))
    turn.events.emit(ToolFinished(
        call_id=d.call.id, name=d.call.name, fate=fate, result=outcome.text[:2000],
        duration_s=outcome.duration_s,
    ))


def _source_label(call: ToolCall) -> str:
    """`read_file notes.txt`: which tool and what it was pointed at."""
    arguments = _shown(call)
    values = arguments.values() if isinstance(arguments, dict) else [arguments]
    return " ".join([call.name, *(str(v) for v in values)])[:120]


def _shown(call: ToolCall) -> Any:
    try:
        return json.loads(call.arguments) if call.arguments.strip() else {}
    except ValueError:
        return call.arguments
