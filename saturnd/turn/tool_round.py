"""A tool round: review the pass's calls, settle approvals, run the approved ones together,
send back every result (judged, fenced) — the request never drops."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeGuard, get_args

import msgspec

from protocol.events import ApprovalRequested, Fate, ToolFinished, ToolProposed
from protocol.methods import CallTrace
from saturnd import egress
from saturnd.gate.provenance import SessionRecord
from saturnd.model.types import ModelReply, ToolCall
from saturnd.tools.names import words
from saturnd.tools.query import QUERY, aggregates, run_query
from saturnd.tools.registry import NO_ANSWER, ToolFailure, preview_call
from saturnd.tools.tables import load_tables
from saturnd.turn import prompts
from saturnd.turn.column_meant import columns_meant
from saturnd.turn.context import TurnContext
from saturnd.turn.counted_rows import rows_counted
from saturnd.turn.execute import ToolOutcome, run_tool, time_limit
from saturnd.turn.fencing import fence
from saturnd.turn.period import Period, off_period_note
from saturnd.turn.remembering import memory_gate
from saturnd.turn.review import Decision, GateContext, approval_key, review_calls, review_one
from saturnd.turn.which_one import most_named

DO_NOT_TRY_ANOTHER_WAY = "Do not try it another way"
DO_NOT_RETRY = "Do not retry it or work around it"
NOBODY_TO_APPROVE = (
    "not run: '{tool}' needs the user's approval{because} and nobody is here to give it. "
    + DO_NOT_TRY_ANOTHER_WAY + "; say what you would have done. (The user can pre-approve it: --allow {tool})"
)
DECLINED_BY_USER = ("declined by the user: it did not run, and nothing was changed or sent. " + DO_NOT_RETRY
                    + "; tell the user what was not done.")
"""Its first sentence is true said to the person too: the 1.5B copied the whole result as its answer
(stops 53–55, 3 of 4 declined errands a run), and "the user declined this call" read as nonsense."""
SETBACKS: frozenset[Fate] = frozenset(
    {"invalid", "refused_loop", "needs_parent", "refused_recipient", "blocked", "timed_out",
     "error"}
)
"""Fates the model has to correct: a pass after one of them is a recovery step."""


def assistant_message(content: str, calls: list[ToolCall]) -> dict[str, Any]:
    """The assistant turn as the model will see it next pass: only the calls that were handled."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in calls
        ]
    return message


def gate_context(turn: TurnContext) -> GateContext:
    """The session read once for the whole round: the gate and memory both decide from it."""
    session = turn.session.read()
    answers = tuple(r for r in turn.ledger.replies() if r != NO_ANSWER)
    return GateContext(
        record=SessionRecord.from_messages(session.conversation).with_shown(turn.shown),
        cwd=turn.cwd,
        kb_dir=str(turn.env.kb_dir),
        gate=turn.config.gate,
        judge=turn.judge,
        approved=frozenset(turn.session.approvals | set(turn.allow)),
        memory=memory_gate(turn, session),
        typed=turn.text,
        request=" ".join([turn.text, *answers]),
        answers=answers,
        asked=turn.asked_which or any(d.fate in WHICH for d in turn.reviewed.values()),
    )


async def tool_round(turn: TurnContext, messages: list[dict[str, Any]], reply: ModelReply) -> list[Decision]:
    """Run one round: every proposed call ends with a result in `messages` (or is capped).
    Returns what review decided for each call."""
    context = gate_context(turn)
    reviewed = review_calls(
        reply.tool_calls, turn.registry, turn.ledger, turn.config.runtime.max_calls_per_pass, context,
    )
    turn.reviewed.update({d.call.id: d for d in reviewed})
    decisions = reviewed
    handled = [d for d in decisions if d.fate != "capped"]
    message = assistant_message(reply.content, [d.call for d in handled])
    turn.store.add_message(
        turn.session_id, turn.turn_id, "assistant", reply.content, message.get("tool_calls")
    )
    messages.append(message)
    turn.unanswered.update({d.call.id: d.call.name for d in handled})
    for d in decisions:
        turn.events.emit(ToolProposed(call_id=d.call.id, name=d.call.name, arguments=_shown(d.call)))
    decisions = await ask_which(turn, decisions)
    decisions = await settle_approvals(turn, decisions)

    outcomes = await _run_approved(turn, [d for d in decisions if d.runs])
    ran_as = {d.call.id: sql for d in decisions if d.call.name == QUERY.name and (sql := str(d.arguments.get("sql", "")))}
    for d in decisions:
        if d.call.id in ran_as and (failed := outcomes.get(d.call.id)) is not None and failed.fate == "error" \
                and (mended := await _column_meant(turn, ran_as[d.call.id], failed)) is not None:
            ran_as[d.call.id], outcomes[d.call.id] = mended
    setback = False
    for d in decisions:
        outcome = outcomes.get(d.call.id) or _not_run(d)
        if d.runs and d.tool is not None:
            # A call that failed counts too: run again unchanged, it fails again the same way.
            turn.ledger.record_ran(d.signature, d.tool.risk, outcome.text, done=outcome.fate == "ran")
        fate: Fate = "asked" if d.fate == "ask_user" and outcome.fate == "ran" else outcome.fate
        text = outcome.text
        if fate == "asked":
            turn.ledger.record_answer(d.signature, text)
        if fate == "ran" and d.tool is not None and d.tool.risk == "messaging":
            turn.ledger.record_sent(str(d.arguments.get("to", "")), text)
        if fate == "ran" and d.tool is not None and d.tool.name == CALCULATE:
            turn.worked.append(text.strip())
        if fate == "ran" and (d.call.name == CALCULATE or d.call.name == QUERY.name and aggregates(str(d.arguments.get("sql", "")))):
            turn.ledger.record_worked_out(text)
        if fate in ("ran", "asked") and d.tool is not None:
            fate, text = _after_run(turn, d, text)
        if fate == "ran" and d.call.id in ran_as and turn.period is not None:
            text += await _off_period(turn, ran_as[d.call.id], turn.period)
        if fate == "ran" and d.call.id in ran_as and aggregates(ran_as[d.call.id]):
            text = await _rows_counted(turn, ran_as[d.call.id], text)
        _record(turn, d, fate, ToolOutcome(fate, text, outcome.duration_s))
        if d.fate == "capped":
            continue
        setback = setback or fate in SETBACKS or d.setback
        turn.store.add_message(
            turn.session_id, turn.turn_id, "tool", text, tool_call_id=d.call.id, name=d.call.name
        )
        messages.append({"role": "tool", "tool_call_id": d.call.id, "content": text})
        turn.unanswered.pop(d.call.id, None)
    turn.tally.tool_passes += 1
    turn.step = "recovery" if setback else "continuing"
    return reviewed


async def settle_approvals(turn: TurnContext, decisions: list[Decision]) -> list[Decision]:
    """Ask the person about every call that needs approval; nobody there means not run."""
    asking = [d for d in decisions if d.fate == "needs_approval"]
    if not asking:
        return decisions
    if turn.headless or not turn.events.subscribers:
        answers = {d.call.id: "nobody" for d in asking}
    else:
        for d in asking:
            preview = await preview_call(d.tool, d.params, turn.env) if d.tool is not None else ""
            turn.events.emit(ApprovalRequested(
                call_id=d.call.id, name=d.call.name, arguments=d.arguments, reason=d.reason, preview=preview,
            ))
        # The turn's time budget covers waiting for a person: a client that vanished after
        # the request must not leave the turn (and its session) waiting for ever.
        answers = await turn.control.wait_decisions(
            [d.call.id for d in asking], turn.bounds.remaining_s()
        )
    settled = []
    for d in decisions:
        answer = answers.get(d.call.id)
        if answer is None:
            settled.append(d)
        elif answer in ("once", "always"):
            if answer == "always" and d.tool is not None:
                turn.session.approvals.add(approval_key(d.tool, d.arguments))
            settled.append(replace(d, fate="approved"))
        else:
            turn.ledger.record_declined(d.signature)
            fate, why = ("not_approved", _nobody_to_approve(d)) \
                if answer == "nobody" else ("declined", DECLINED_BY_USER)
            settled.append(replace(d, fate=fate, result=why))
    return settled


async def ask_which(turn: TurnContext, decisions: list[Decision]) -> list[Decision]:
    """A message whose recipient's name fits several contacts, or an edit whose entry the person's
    words do not tell from others: the person is asked which, and the call goes back to the model
    with their answer; with nobody there, the model is told to ask."""
    settled: list[Decision] = []
    for d in decisions:
        if d.fate in ("which_contact", "which_entry"):
            asked, told = WHICH[d.fate]
            choices = "; ".join(d.choices)
            answer = await turn.env.ask(asked.format(choices=choices, tool=d.call.name)) \
                if turn.person_present else NO_ANSWER
            if d.fate == "which_entry" and answer != NO_ANSWER and (meant := _entry_answered(turn, d, answer)):
                settled.append(meant)
                continue
            said = picked(answer, d.choices) if d.fate == "which_contact" else answer
            result = told.format(choices=choices) if answer == NO_ANSWER else (
                f"not run: several match. The user says: {said}. Call {d.call.name} again with what the user said.")
            d = replace(d, result=result)
        settled.append(d)
    return settled


def _entry_answered(turn: TurnContext, d: Decision, answer: str) -> Decision | None:
    """The edit made to name the one entry of those put to the person that their answer names,
    reviewed again as any call (its approval shows it resolved); None when the answer names none
    of them alone. Handed back, the 1.5B put the answer to the person once more as its question,
    with Saturn's words after it (stop 62's first run: an Italian frame, after "the oval one")."""
    chosen = most_named(list(d.choices), answer)
    tool = d.tool
    if chosen is None or tool is None or tool.naming is None or tool.names_entry is None:
        return None
    params = tool.naming(d.params, d.choices[chosen])
    if tool.names_entry(params, Path(turn.cwd)) is None:
        return None
    call = replace(d.call, arguments=json.dumps(msgspec.to_builtins(params), ensure_ascii=False))
    context = gate_context(turn)
    context = replace(context, asked=True, request=f"{context.request} {answer}", answers=(*context.answers, answer))
    decided = review_one(call, turn.registry, turn.ledger, context)
    return replace(decided, reason=f"the entry the user's answer names: {d.choices[chosen][:120]}; {decided.reason}")


def picked(answer: str, choices: tuple[str, ...]) -> str:
    """The person's answer, with the one contact line it shares the most words with: the line
    they picked was put to them, so its address is theirs to give (stop 55: "Ioana Marinescu, cea
    cu ia de Muscel" picked a contact whose number only the ground had shown, and the gate then
    refused the number three times). Not for an entry of a file: given "A do Duarte (Shortboard
    … do Duarte …)", the 1.5B then marked the other board (stop 55's rerun)."""
    said = words(answer)
    shared = sorted(((len(said & words(c)), c) for c in choices), reverse=True)
    if not shared or shared[0][0] == 0 or len(shared) > 1 and shared[1][0] == shared[0][0]:
        return answer
    return f"{answer} ({shared[0][1]})"


WHICH = {"which_contact": (prompts.WHICH_CONTACT, prompts.ASK_WHICH_CONTACT),
         "which_entry": (prompts.WHICH_ENTRY, prompts.ASK_WHICH_ENTRY)}


CALCULATE = "calculate"


def _nobody_to_approve(d: Decision) -> str:
    because = f" ({d.reason})" if d.tell_model_why else ""
    return NOBODY_TO_APPROVE.format(tool=d.call.name, because=because)


def _not_run(d: Decision) -> ToolOutcome:
    """A call that never ran ends with the verdict review (or the person) gave it."""
    # the person (or the model) must say which
    fate = {"which_contact": "refused_recipient", "which_entry": "refused"}.get(d.fate, d.fate)
    assert _is_fate(fate), fate
    return ToolOutcome(fate, d.result, 0.0)


def _is_fate(verdict: str) -> TypeGuard[Fate]:
    return verdict in get_args(Fate)


def _after_run(turn: TurnContext, d: Decision, text: str) -> tuple[Fate, str]:
    """The context judge, then fencing and taint for outside content; returns (fate, text)."""
    assert d.tool is not None
    verdict = turn.judge.check("context", d.tool.name, text)
    if verdict.action == "block":
        return "blocked", f"tool error: blocked by policy: {verdict.reason}"
    if verdict.action == "redact":
        text = verdict.text
    if d.tool.outside and d.fate != "ask_user":
        turn.session.mark_tainted()
        text = fence(_source_label(d.call), text)
    return ("asked" if d.fate == "ask_user" else "ran"), text


async def _off_period(turn: TurnContext, sql: str, period: Period) -> str:
    """The rows a query read, against the time the question is about: said once a turn when off."""
    note = await asyncio.to_thread(off_period_note, Path(turn.cwd), turn.env.kb_dir, sql, period)
    return f"\n{note}" if note and turn.ledger.first_warning("off period") else ""


async def _column_meant(turn: TurnContext, sql: str, failed: ToolOutcome) -> tuple[str, ToolOutcome] | None:
    """A query that failed on column names its table lacks, run again with the columns the model
    says it meant (column_meant.py): the SQL that ran, and its outcome; None when not mended."""
    tables = await asyncio.to_thread(load_tables, [Path(turn.cwd), turn.env.kb_dir])
    with egress.origin(egress.EgressOrigin(turn.session_id, turn.turn_id, tool="model")):
        meant = await columns_meant(turn.model, tables, sql)
    if meant is None:
        return None
    mended, readings = meant
    try:
        result = await asyncio.to_thread(run_query, tables, mended)
    except ToolFailure:
        return None
    read = ", ".join(f"{name} read as {column}" for name, column in readings.items())
    return mended, ToolOutcome("ran", f"ran as: {mended} ({read}, as you chose)\n{result}", failed.duration_s)


async def _rows_counted(turn: TurnContext, sql: str, written: str) -> str:
    """The rows a figure was worked out from, judged by the model against the question (counted_rows.py)."""
    with egress.origin(egress.EgressOrigin(turn.session_id, turn.turn_id, tool="model")):
        return await rows_counted(turn.model, turn.text, [Path(turn.cwd), turn.env.kb_dir], sql, written)


async def _run_approved(turn: TurnContext, approved: list[Decision]) -> dict[str, ToolOutcome]:
    ceiling_s = turn.config.runtime.tool_timeout_s

    async def run(d: Decision) -> ToolOutcome:
        assert d.tool is not None  # review approves only validated calls
        origin = egress.EgressOrigin(turn.session_id, turn.turn_id, d.call.id, d.call.name)
        with egress.origin(origin):
            return await run_tool(d.tool, d.params, turn.env, time_limit(d.tool, ceiling_s))

    results = await asyncio.gather(*(run(d) for d in approved))
    return {d.call.id: outcome for d, outcome in zip(approved, results, strict=True)}


def _record(turn: TurnContext, d: Decision, fate: Fate, outcome: ToolOutcome) -> None:
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
