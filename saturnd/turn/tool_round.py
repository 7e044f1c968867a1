"""A tool round: review the pass's calls, settle approvals, run the approved ones together,
send back every result (judged, fenced) — the request never drops."""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import replace
from typing import Any, TypeGuard, get_args

from protocol.events import ApprovalRequested, Fate, ToolFinished, ToolProposed
from protocol.methods import CallTrace
from saturnd import egress
from saturnd.gate.provenance import EMAIL, PHONE, SessionRecord
from saturnd.model.types import ModelReply, ToolCall
from saturnd.tools.registry import NO_ANSWER
from saturnd.turn import prompts
from saturnd.turn.agent import join_note
from saturnd.turn.context import TurnContext
from saturnd.turn.execute import ToolOutcome, run_tool, time_limit
from saturnd.turn.fencing import fence
from saturnd.turn.look_first import contact_lines, render
from saturnd.turn.overwrite import gives_a_when
from saturnd.turn.put_right import addresses_of
from saturnd.turn.remembering import memory_gate
from saturnd.turn.review import Decision, GateContext, approval_key, review_calls

DO_NOT_TRY_ANOTHER_WAY = "Do not try it another way"
DO_NOT_RETRY = "Do not retry it or work around it"
NOBODY_TO_APPROVE = (
    "not run: '{tool}' needs the user's approval{because} and nobody is here to give it. "
    + DO_NOT_TRY_ANOTHER_WAY + "; say what you would have done. (The user can pre-approve it: --allow {tool})"
)
LOOKED_FIRST = "Not asked: the user's files hold this (above). Use it; ask only for what it does not give."
DECLINED_BY_USER = "declined: the user declined this call. " + DO_NOT_RETRY + "; say what was not done."
SETBACKS: frozenset[Fate] = frozenset(
    {"invalid", "refused_loop", "needs_parent", "refused_recipient", "refused_guess", "blocked", "timed_out",
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
    return GateContext(
        record=SessionRecord.from_messages(session.conversation).with_shown(turn.shown),
        cwd=turn.cwd,
        kb_dir=str(turn.env.kb_dir),
        gate=turn.config.gate,
        judge=turn.judge,
        approved=frozenset(turn.session.approvals | set(turn.allow)),
        memory=memory_gate(turn, session),
        request=turn.text,
        seen=turn.ground_text,
        documents=turn.documents,
    )


async def tool_round(turn: TurnContext, messages: list[dict[str, Any]], reply: ModelReply) -> None:
    """Run one round: every proposed call ends with a result in `messages` (or is capped)."""
    context = gate_context(turn)
    decisions = review_calls(
        reply.tool_calls, turn.registry, turn.ledger, turn.config.runtime.max_calls_per_pass, context,
    )
    turn.reviewed.update({d.call.id: d for d in decisions})
    handled = [d for d in decisions if d.fate != "capped"]
    message = assistant_message(reply.content, [d.call for d in handled])
    turn.store.add_message(
        turn.session_id, turn.turn_id, "assistant", reply.content, message.get("tool_calls")
    )
    messages.append(message)
    for d in decisions:
        turn.events.emit(ToolProposed(call_id=d.call.id, name=d.call.name, arguments=_shown(d.call)))
    decisions = await ask_for_recipients(turn, decisions, context)
    for d in decisions:
        if d.put_right:
            turn.trace[-1].note = join_note(turn.trace[-1].note, f"{d.call.name}: {d.put_right.strip()}")
        if d.must_call:
            turn.must_call, turn.forced_since = d.must_call, len(turn.trace)
    decisions = await ask_about_guesses(turn, decisions, context)
    decisions = await settle_approvals(turn, decisions)

    looked_up = answered_from_files(turn, decisions)
    outcomes = looked_up | await _run_approved(turn, [d for d in decisions if d.runs and d.call.id not in looked_up])
    setback = False
    for d in decisions:
        if d.runs and d.tool is not None:
            # A call that failed counts too: run again unchanged, it fails again the same way.
            turn.ledger.record_ran(d.signature, d.tool.risk)
        outcome = outcomes.get(d.call.id) or _not_run(d)
        fate: Fate = "asked" if d.fate == "ask_user" and outcome.fate == "ran" else outcome.fate
        text = outcome.text
        if fate == "asked":
            turn.ledger.record_answer(d.signature, text)
        if fate == "ran" and d.tool is not None and d.tool.risk == "messaging":
            turn.ledger.record_sent(str(d.arguments.get("to", "")), text)
        if fate in ("ran", "asked") and d.tool is not None:
            fate, text = _after_run(turn, d, text)
        text = d.put_right + text
        _record(turn, d, fate, ToolOutcome(fate, text, outcome.duration_s))
        if d.fate == "capped":
            continue
        setback = setback or fate in SETBACKS or d.setback
        turn.store.add_message(
            turn.session_id, turn.turn_id, "tool", text, tool_call_id=d.call.id, name=d.call.name
        )
        messages.append({"role": "tool", "tool_call_id": d.call.id, "content": text})
    turn.tally.tool_passes += 1
    turn.step = "recovery" if setback else "continuing"


async def settle_approvals(turn: TurnContext, decisions: list[Decision]) -> list[Decision]:
    """Ask the person about every call that needs approval; nobody there means not run."""
    asking = [d for d in decisions if d.fate == "needs_approval"]
    if not asking:
        return decisions
    if turn.headless or not turn.events.subscribers:
        answers = {d.call.id: "nobody" for d in asking}
    else:
        for d in asking:
            turn.events.emit(ApprovalRequested(
                call_id=d.call.id, name=d.call.name, arguments=d.arguments, reason=d.reason
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


async def ask_for_recipients(
    turn: TurnContext, decisions: list[Decision], context: GateContext,
) -> list[Decision]:
    """A message to an address or number that nobody gave: the harness asks the person for it.

    A small model that cannot find a recipient invents one (plumber@example.com) and, sent
    back, invents another; it rarely thinks of ask_user, and given the answer it asks again.
    So the harness asks, and when the person gives an address or number, the same call is
    reviewed again with it (the gate and the approval still apply), its result opening with
    what the person gave; a guess made again later in the turn gets the same answer, unasked.
    """
    if turn.headless or not turn.events.subscribers:
        return decisions
    settled: list[Decision] = []
    for d in decisions:
        if d.fate == "refused_recipient":
            invented = str(d.arguments.get("to", "")).strip()
            kind = "email address" if "@" in invented or "email" in d.call.name else "phone number"
            # given once this turn, the person's address stands: ask-18's 1.5B sent to the guess again, and was asked again
            answer = turn.ledger.answer_to(f"recipient:{kind}") or await turn.env.ask(
                prompts.WHICH_RECIPIENT.format(kind=kind, tool=d.call.name, invented=invented))
            given = [*EMAIL.findall(answer), *PHONE.findall(answer)] if answer != NO_ANSWER else []
            if given:
                turn.ledger.record_answer(f"recipient:{kind}", answer)
                call = replace(d.call, arguments=json.dumps({**d.arguments, "to": given[0]}))
                record = replace(context.record, typed=[*context.record.typed, answer])
                d = review_calls([call], turn.registry, turn.ledger, 1, replace(context, record=record))[0]
                d = replace(d, put_right=prompts.RECIPIENT_GIVEN.format(kind=kind, answer=given[0], invented=invented))
        settled.append(d)
    return settled


async def ask_about_guesses(turn: TurnContext, decisions: list[Decision], context: GateContext) -> list[Decision]:
    """A time, day, month or number the model made up for a write or a message (review's
    refused_guess), or a value asked for that it left out: with someone there, the harness asks
    them, and the call goes back to the model with the answer (the words can't be patched in
    place as an address can). Nobody there: the refusal tells the model to ask. Asked when a line
    added is and told no day or time ("I don't know, do what you can."), the line goes in without
    one: sent back with that answer, the 1.5B wrote "Renew passport" to notes.txt four times more."""
    if not turn.person_present:
        return decisions
    settled: list[Decision] = []
    for d in decisions:
        if d.ask_person:
            question, why = d.ask_person
            # asked once this turn, the person's answer stands: ask-15 put the same guess to them three times
            answer = turn.ledger.answer_to(f"guess:{question}") or await turn.env.ask(question)
            if answer != NO_ANSWER:
                turn.ledger.record_answer(f"guess:{question}", answer)  # an answer that only gives it back is no answer
                d = replace(d, result=prompts.VALUE_GIVEN.format(why=why, answer=answer, tool=d.call.name))
            if answer != NO_ANSWER and question.endswith(prompts.WHEN_IS_IT_END) and not gives_a_when(answer):
                unknown = review_calls([d.call], turn.registry, turn.ledger, 1, replace(context, when_unknown=True))[0]
                d = replace(unknown, put_right=prompts.NO_WHEN_GIVEN.format(answer=answer))
            elif answer != NO_ANSWER and d.tool is not None and d.tool.risk == "messaging" and (
                    guessed := GUESSED_VALUE.match(why)) and not gives_a_when(answer):
                d = _without_the_guess(turn, d, guessed["value"], answer, context)
        settled.append(d)
    return settled


GUESSED_VALUE = re.compile(r"^'(?P<value>.+)' was a guess$")
SENTENCE = re.compile(r"[^.!?\n]*(?:[.!?]+[ \t]*|\n|$)")
"""A sentence with what ends it: its stop and the space after, or its line's end."""


def _without_the_guess(turn: TurnContext, d: Decision, value: str, answer: str, context: GateContext) -> Decision:
    """A message with a value the person, asked, did not give, reviewed again without the
    sentences holding it, when the rest still says something: asked whether Leo would be back on
    Thursday, the person did not know, and the 1.5B proposed the same email four times more."""
    holds = re.compile(rf"(?<!\w){re.escape(value)}(?!\w)")
    skip = addresses_of(d.tool) if d.tool is not None else frozenset()
    patched, dropped = dict(d.arguments), []
    for name, text in d.arguments.items():
        if name in skip or not isinstance(text, str) or not holds.search(text):
            continue
        sentences = [found for found in SENTENCE.findall(text) if found]
        dropped += [sentence.strip() for sentence in sentences if holds.search(sentence)]
        patched[name] = re.sub(r"[ \t]+\n", "\n", "".join(sentence for sentence in sentences if not holds.search(sentence))).strip()
    if not dropped or not all(patched[name].strip() for name in patched if name not in skip and isinstance(patched[name], str)):
        return d
    call = replace(d.call, arguments=json.dumps(patched))
    again = review_calls([call], turn.registry, turn.ledger, 1, context)[0]
    if again.fate in ("refused_guess", "invalid"):
        return d
    return replace(again, put_right=prompts.GUESS_LEFT_OUT.format(answer=answer, dropped=" ".join(dropped)))


def answered_from_files(turn: TurnContext, decisions: list[Decision]) -> dict[str, ToolOutcome]:
    """ask_user calls for a number or address the user's files hold: answered with those lines,
    and the person is not asked (look_first); for one the person gave this turn, with what they gave."""
    answered: dict[str, ToolOutcome] = {}
    for d in decisions:
        if d.fate != "ask_user":
            continue
        question = str(d.arguments.get("question", ""))
        kind = "email address" if re.search(r"\be-?mail\b", question, re.IGNORECASE) else \
            "phone number" if re.search(r"\b(?:phone|mobile|number)\b", question, re.IGNORECASE) else ""
        if kind and (given := turn.ledger.answer_to(f"recipient:{kind}")):
            answered[d.call.id] = ToolOutcome("ran", prompts.ALREADY_GIVEN.format(kind=kind, answer=given), 0.0)
            continue
        found = contact_lines(str(d.arguments.get("question", "")), turn.text, turn.documents)
        if found:
            answered[d.call.id] = ToolOutcome("ran", fence("your files", render(found)) + "\n" + LOOKED_FIRST, 0.0)
            where = ", ".join(f"{f.source}:{f.line_number}" for f in found)
            turn.trace[-1].note = join_note(turn.trace[-1].note, f"ask_user answered from the user's files: {where}")
    return answered


def _nobody_to_approve(d: Decision) -> str:
    because = f" ({d.reason})" if d.tell_model_why else ""
    return NOBODY_TO_APPROVE.format(tool=d.call.name, because=because)


def _not_run(d: Decision) -> ToolOutcome:
    """A call that never ran ends with the verdict review (or the person) gave it."""
    assert _is_fate(d.fate), d.fate
    return ToolOutcome(d.fate, d.result, 0.0)


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
