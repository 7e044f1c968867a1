"""The turn: ground -> first move -> agent -> (review, gate) -> tools -> agent ... -> answer.

Reads top to bottom; every decision is a named policy in its own module. The whole turn
runs under one hard ceiling, runtime.turn_budget_s: when it runs out the pass or tool in
flight is cut and the turn answers with what it has, saying so.
"""

from __future__ import annotations

import asyncio
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import msgspec

from protocol.events import Answer, EndStatus, Paused, Resumed, Steered, ToolFinished, TurnStarted
from saturnd import egress
from saturnd.memory.remember import memory_block
from saturnd.model.caller import Unreadable
from saturnd.model.runaway import RAN_ON
from saturnd.tools.harness import ASK_USER
from saturnd.tools.registry import CHANGING_RISKS
from saturnd.turn import prompts
from saturnd.turn.agent import Answered, CallsProposed, ModelFailed, PassPlan, agent_pass, join_note
from saturnd.turn.bounds import BoundReached
from saturnd.turn.checks import (
    Finding,
    declined_said_done,
    echoes_saturn,
    left_failed,
    may_claim_undone,
    nothing_changed,
    only_declined,
    other_language,
    says_request_back,
    told_done,
    unsourced_figures,
)
from saturnd.turn.context import TurnContext
from saturnd.turn.control import TurnAborted
from saturnd.turn.first_move import decide_first_move, expects_change, no_tool_fits, tool_that_fits
from saturnd.turn.ground import Ground, ground_messages
from saturnd.turn.history import earlier_turns
from saturnd.turn.language import answered_in_another_language
from saturnd.turn.period import read_period
from saturnd.turn.remembering import queue_missed_facts
from saturnd.turn.routes import (
    gives_address,
    look_up_tools,
    names_page,
    route_tools,
    send_or_ask,
    sending_steps,
)
from saturnd.turn.said_done import says_done
from saturnd.turn.target import aim_change
from saturnd.turn.thinking import think_plan
from saturnd.turn.tool_round import tool_round


async def run_turn(turn: TurnContext) -> EndStatus:
    """Run the turn to its answer; returns the status it ended with."""
    turn.events.emit(TurnStarted(session_id=turn.session_id, text=turn.text))
    ceiling = asyncio.timeout(turn.bounds.remaining_s())
    try:
        async with ceiling:
            return await _passes(turn)
    except TurnAborted:
        return finish(turn, abort_summary(turn), note="stopped at your request", status="aborted")
    except TimeoutError:
        if not ceiling.expired():
            raise
        return out_of_time(turn)


async def _passes(turn: TurnContext) -> EndStatus:
    messages = await opening_messages(turn)
    turn.opening = len(messages)
    await choose_first_move(turn, messages)
    while True:
        await pass_boundary(turn, messages)
        bound = turn.bounds.check_before_pass(turn.tally.tool_passes)
        if bound and not bound.final_pass:
            return finish(turn, turn.last_text or prompts.NO_ANSWER_YET, note=bound.reason)
        if bound:
            wrap_up(turn, messages, bound)
        match await agent_pass(turn, messages, pass_plan(turn)):
            case ModelFailed(failure) if turn.tally.passes == 1:
                raise failure  # nothing to answer with: the turn fails
            case ModelFailed(failure):
                note = f"the model failed: {failure.message}"
                return finish(turn, turn.last_text or prompts.NO_ANSWER_YET, note=note)
            case Unreadable(problem=problem) if problem.startswith(RAN_ON) and "ran_on" not in turn.sent_back:
                # the same temperature-0 request runs on the same way: the request changes once
                # (stop 54's first run: a query's WHERE repeated "Erik Lund' AND" to the cap)
                turn.sent_back.add("ran_on")
                messages.append({"role": "user", "content": prompts.RAN_ON_AGAIN.format(problem=problem)})
                turn.step = "recovery"
            case Unreadable(problem=problem):
                note = f"the model's reply could not be read: {problem}"
                return finish(turn, turn.last_text or prompts.UNREADABLE, note=note)
            case CallsProposed(reply):
                forced, turn.must_call = turn.must_call, turn.steps_after.pop(0) if turn.steps_after else ()
                reviewed = await tool_round(turn, messages, reply)
                if forced and fell_through(turn) and "forced_again" not in turn.sent_back:
                    # a step the first move made due did not happen: it stays due, once, without the
                    # tools Saturn refused for it, and the person may be asked (a refusal may say to
                    # ask which entry) unless the question was what was refused (stop 53's suite: a
                    # look-up before a send failed, then the person was asked, 8 of 12; stop 60's
                    # first run: the question back at the sending step refused, then "no tool to send")
                    turn.sent_back.add("forced_again")
                    turn.steps_after[:0] = [turn.must_call] if turn.must_call else []
                    turn.must_call = due_again(turn, forced)
                elif any(d.fate == "refused_recipient" for d in reviewed) and "resend" not in turn.sent_back:
                    # the refusal asks for the recipient's look-up: the pass after it reads (stop
                    # 55: answered "I don't know the captain's number", or sent the refused number
                    # again, in 5 of 6 refusals), the pass after that sends, or asks (stop 54's first
                    # run: the address was queried, then the answer said it was missing); once a
                    # turn: re-armed each time, it held a refused address to 16 rounds
                    turn.sent_back.add("resend")
                    turn.must_call, turn.steps_after = look_up_tools(turn.registry), [send_or_ask(turn.registry)]
                elif sent_in_last_pass(turn):
                    turn.must_call, turn.steps_after = (), []  # the message went, or the person said: its steps are done
            case Answered(text):
                finding = None if bound else await check_answer(turn, messages, text)
                if finding and finding.kind not in turn.sent_back:
                    send_back(turn, messages, text, finding)
                    continue
                return finish(turn, text, note=answer_note(turn, bound, finding))


async def opening_messages(turn: TurnContext) -> list[dict[str, Any]]:
    """Ground once, the session's earlier conversation (since /clear), then the request."""
    session = turn.session.read()
    ground = Ground(
        cwd=Path(turn.cwd), home=turn.home, now=datetime.now().astimezone(),
        attachments=turn.attachments,
        memory_block="" if session.flags.incognito else memory_block(turn.store.memory.active()),
        request=turn.text, folder_map=turn.config.ground.folder_map, retrieval=turn.config.ground.retrieval,
    )
    if turn.attachments:
        turn.session.mark_tainted()
    budget = turn.config.runtime.history_tokens
    history = earlier_turns(session.conversation, budget)
    turn.history_note = history.trace_note(budget)
    turn.store.add_message(turn.session_id, turn.turn_id, "user", turn.text)
    system, built = await asyncio.to_thread(ground_messages, ground)  # the folder scan reads files
    turn.ground = built.trace
    turn.shown = [(e.source, "\n".join(e.lines), e.whole) for e in built.excerpts]
    turn.shown += [(source, rows, False) for source, rows in built.table_rows]
    turn.file_names = built.file_names
    earlier = history.messages if turn.caller_history is None else turn.caller_history
    return system + earlier + [{"role": "user", "content": turn.text}]


async def choose_first_move(turn: TurnContext, messages: list[dict[str, Any]]) -> None:
    """The model's own constrained choice of what the request wants (first_move.py): a change or
    a message makes the first pass call a tool, and an answer with nothing changed goes back."""
    if not turn.config.runtime.first_move:
        return
    started = time.monotonic()
    with egress.origin(egress.EgressOrigin(turn.session_id, turn.turn_id, tool="model")):
        turn.move = await decide_first_move(turn.model, turn.text, turn.registry.openai_tools(), turn.file_names)
    if turn.move is not None:
        address_given, page_named = gives_address(turn.text), names_page(turn.text)
        turn.must_call = route_tools(turn.move, turn.registry, tables_shown=bool(turn.ground.tables),
                                     address_given=address_given, files_shown=bool(turn.ground.files_mapped),
                                     page_named=page_named)
        turn.steps_after = sending_steps(turn.move, turn.registry, address_given) if turn.must_call else []
        turn.first_move_note = f"{turn.move.why} ({time.monotonic() - started:.1f}s)"
        if page_named and turn.must_call:
            return
        if turn.move.route in ("look_up", "send") and turn.ground.tables:
            await read_time(turn, messages)
        # what an MCP server's tools return, nothing in the ground shows: a look-up that one of
        # them serves calls it, and so does a no_tool that one of them does; a look-up none of
        # them serves is answered (stop 56's BFCL report: every look-up was forced to call,
        # requests.get for questions it does not serve, 2/6 live_irrelevance against raw's 3/6)
        checks_outside = no_tool_fits(turn.move) or turn.move.route == "look_up" and not turn.must_call
        if checks_outside and (fits := await outside_tool_fits(turn)):
            turn.must_call = (fits,)
            turn.first_move_note += f"; {fits} does it (checked)"
        elif no_tool_fits(turn.move):
            turn.no_tool_fits = True
            messages.append({"role": "user", "content": prompts.NO_TOOL_FITS})
        elif turn.move.route == "ask" or turn.move.route == "change" and expects_change(turn.move):
            # the entry it is about (target.py): which one, asked of the person when their words fit several
            await aim_change(turn, messages)


async def read_time(turn: TurnContext, messages: list[dict[str, Any]]) -> None:
    """The time a question over the person's tables is about, as the model reads it (period.py)."""
    with egress.origin(egress.EgressOrigin(turn.session_id, turn.turn_id, tool="model")):
        turn.period = await read_period(turn.model, turn.text, datetime.now().date())
    if turn.period is not None:
        turn.first_move_note += f"; about {turn.period}"
        messages.append({"role": "user", "content": prompts.PERIOD_TOLD.format(period=turn.period)})


async def outside_tool_fits(turn: TurnContext) -> str | None:
    """A first move of no_tool, checked against an MCP server's tools: the one that does it, if any."""
    outside = [t.openai_schema() for t in turn.registry if t.risk == "external"]
    if not outside:
        return None
    with egress.origin(egress.EgressOrigin(turn.session_id, turn.turn_id, tool="model")):
        return await tool_that_fits(turn.model, turn.text, outside)


def pass_plan(turn: TurnContext) -> PassPlan:
    step = turn.step
    must_call = turn.must_call if step != "wrap_up" else ()
    return PassPlan(step=step, think=think_plan(turn.think_policy, step, forced=bool(must_call)),
                    tools_offered=step != "wrap_up" and not turn.no_tool_fits, must_call=must_call)


FELL_THROUGH = frozenset({"refused", "refused_guess", "invalid", "error", "timed_out"})
"""What became of a call the harness or the tool turned back: the step it was for did not happen.
A declined or unapproved call is the person's say, and a loop's refusal stops the call for good."""


def sent_in_last_pass(turn: TurnContext) -> bool:
    """A message of the last pass was sent, or put to the person, who declined or was not there."""
    return bool(turn.trace) and any(
        c.fate in ("ran", "declined", "not_approved") and (tool := turn.registry.get(c.name)) is not None
        and tool.risk == "messaging" for c in turn.trace[-1].calls)


def due_again(turn: TurnContext, forced: tuple[str, ...]) -> tuple[str, ...]:
    refused = {c.name for c in turn.trace[-1].calls if c.fate.startswith("refused")}
    asking = () if ASK_USER.name in refused or ASK_USER.name not in turn.registry.names() else (ASK_USER.name,)
    return tuple(dict.fromkeys([*(t for t in forced if t not in refused), *asking])) or forced


def fell_through(turn: TurnContext) -> bool:
    """Every call of the last pass was turned back by the harness or failed."""
    calls = turn.trace[-1].calls if turn.trace else []
    return bool(calls) and all(c.fate in FELL_THROUGH for c in calls)


def wrap_up(turn: TurnContext, messages: list[dict[str, Any]], bound: BoundReached) -> None:
    """A bound was reached: one last pass, without tools, answers from what the turn has."""
    messages.append({"role": "user", "content": prompts.FINAL_PASS.format(reason=bound.reason)})
    turn.step = "wrap_up"


async def pass_boundary(turn: TurnContext, messages: list[dict[str, Any]]) -> None:
    """Honour pause, abort and steers between passes."""
    control = turn.control
    if control.abort_requested:
        raise TurnAborted
    if control.pause_requested:
        turn.events.emit(Paused(plan=turn.plan))
        await control.wait_resumed()
        turn.events.emit(Resumed())
    for text in control.take_steers():
        turn.events.emit(Steered(text=text))
        turn.store.add_message(turn.session_id, turn.turn_id, "user", text, kind="steer")
        messages.append({"role": "user", "content": prompts.STEER.format(text=text)})
        turn.step = "steered"


async def check_answer(turn: TurnContext, messages: list[dict[str, Any]], answer: str) -> Finding | None:
    """What ran against what was asked (or against what the answer tells of, as the model reads
    it), then the answer's figures against what was shown, when the turn had anything to be true
    to (the user's files, a tool's result): a chat answer's figures are the model's own knowledge;
    last, the answer's language against the request's."""
    if finding := nothing_changed(turn.move, turn.trace, turn.registry):
        return finding
    if finding := echoes_saturn(answer, turn.trace, turn.told):
        return finding
    if finding := says_request_back([turn.text, *turn.ledger.replies()], answer):
        return finding
    if finding := left_failed(turn.trace):
        return finding
    declined = only_declined(turn.trace, turn.registry)
    if declined or may_claim_undone(turn.move, turn.trace, turn.registry, tables_shown=bool(turn.ground.tables)):
        with egress.origin(egress.EgressOrigin(turn.session_id, turn.turn_id, tool="model")):
            if await says_done(turn.model, answer):
                return declined_said_done() if declined else told_done(turn.move.route if turn.move else "")
    had_sources = bool(turn.ground.files_mapped or turn.ground.excerpts or turn.attachments) or any(
        c.fate == "ran" for p in turn.trace for c in p.calls)
    if had_sources and (finding := unsourced_figures(answer, source_text(turn, messages))):
        return finding
    if language := await asyncio.to_thread(answered_in_another_language, turn.text, answer):
        return other_language(language)
    return None


def source_text(turn: TurnContext, messages: list[dict[str, Any]]) -> str:
    """Everything the model was shown but its own words this turn (the answer is no source for itself)."""
    parts = []
    for at, message in enumerate(messages):
        if at >= turn.opening and message.get("role") == "assistant":
            parts += [str(c.get("function", {}).get("arguments", "")) for c in message.get("tool_calls", [])]
            continue
        parts.append(str(message.get("content") or ""))
    return "\n".join(parts)


def send_back(turn: TurnContext, messages: list[dict[str, Any]], answer: str, finding: Finding) -> None:
    """Once per kind of check a turn: the answer goes back with what did not check out."""
    turn.sent_back.add(finding.kind)
    turn.told.append(finding.send_back)
    turn.trace[-1].note = join_note(turn.trace[-1].note, f"{finding.kind}: sent back")
    messages += [{"role": "assistant", "content": answer}, {"role": "user", "content": finding.send_back}]
    turn.step = "recovery"


def answer_note(turn: TurnContext, bound: BoundReached | None, finding: Finding | None) -> str:
    """What the user reads beside the answer: a bound, a check that still failed, what was not
    done, and what Saturn worked out, as it worked it out."""
    notes = [bound.reason if bound else "", finding.note if finding else "", _not_done(turn)]
    if turn.worked:
        notes.append(prompts.NOTE_WORKED_OUT.format(lines="; ".join(turn.worked)))
    return "; ".join(filter(None, notes))


def _not_done(turn: TurnContext) -> str:
    """Changing calls the person declined or nobody could approve, and none of them ran after."""
    ran = {c.name for p in turn.trace for c in p.calls if c.fate == "ran"}
    stopped = [f"{c.name} ({c.fate.replace('_', ' ')})" for p in turn.trace for c in p.calls
               if c.fate in ("declined", "not_approved") and c.name not in ran
               and (tool := turn.registry.get(c.name)) is not None and tool.risk in CHANGING_RISKS]
    return prompts.NOTE_NOT_DONE.format(calls=", ".join(dict.fromkeys(stopped))) if stopped else ""


def out_of_time(turn: TurnContext) -> EndStatus:
    """The budget ran out mid-pass or mid-tool: every call left without a result gets one, and
    the turn answers with its last text, or says that nothing could be finished."""
    cut = "tool error: interrupted: the turn's time budget ran out"
    for call_id, name in list(turn.unanswered.items()):
        turn.store.add_message(turn.session_id, turn.turn_id, "tool", cut, tool_call_id=call_id, name=name)
        turn.events.emit(ToolFinished(call_id=call_id, name=name, fate="timed_out", result=cut))
    turn.unanswered.clear()
    note = prompts.NOTE_BUDGET.format(seconds=turn.bounds.turn_budget_s)
    if turn.trace:
        turn.trace[-1].note = join_note(turn.trace[-1].note, note)
    return finish(turn, turn.last_text or prompts.OUT_OF_TIME, note=note)


def abort_summary(turn: TurnContext) -> str:
    ran = [c for p in turn.trace for c in p.calls if c.fate in ("ran", "asked")]
    if not ran:
        return f"{prompts.ABORTED} Nothing was run."
    done = ", ".join(f"{c.name} {c.arguments}" for c in ran)
    return f"{prompts.ABORTED} Done before stopping: {done}."


def finish(turn: TurnContext, answer: str, note: str = "", status: EndStatus = "completed") -> EndStatus:
    """Record and announce the answer and receipt; the caller announces the end."""
    turn.store.add_message(turn.session_id, turn.turn_id, "assistant", answer)
    turn.note = note
    turn.events.emit(Answer(text=answer, note=note))
    if status == "completed":
        queue_missed_facts(turn)
    close_record(turn, status, answer)
    return status


def close_record(turn: TurnContext, status: EndStatus, answer: str = "") -> None:
    receipt = turn.tally.receipt(turn.plan, note=turn.note)
    turn.events.emit(receipt)
    turn.store.finish_turn(turn.turn_id, status, answer, msgspec.to_builtins(receipt), trace_record(turn))


def trace_record(turn: TurnContext) -> dict[str, Any]:
    return {
        "passes": msgspec.to_builtins(turn.trace), "plan": msgspec.to_builtins(turn.plan),
        "ground": msgspec.to_builtins(turn.ground),
        "history": turn.history_note,
        "first_move": turn.first_move_note,
        "worked_out": turn.worked,
        "note": turn.note,
    }
