"""The turn: ground -> agent -> (validate, loop rules, gate) -> tools -> agent ... -> answer.

Reads top to bottom; every decision is a named policy in its own module.
"""

from __future__ import annotations

import asyncio
import json
import re
from datetime import date, datetime
from pathlib import Path
from typing import Any

import msgspec

from protocol.events import Answer, EndStatus, Paused, Resumed, Steered, TurnStarted
from saturnd.memory.remember import memory_block
from saturnd.model.caller import Unreadable
from saturnd.model.types import ModelReply, ToolCall
from saturnd.turn import prompts
from saturnd.turn.added_items import listed_not_written
from saturnd.turn.agent import Answered, CallsProposed, ModelFailed, PassPlan, agent_pass, join_note
from saturnd.turn.asking import asks_for_missing, only_the_person_knows
from saturnd.turn.bounds import BoundReached
from saturnd.turn.claims import (
    SAYS_NOT_DONE,
    Claim,
    may_send_back,
    misleads_about_action,
    must_call_after,
    turned_round,
    unbacked_claim,
)
from saturnd.turn.context import TurnContext
from saturnd.turn.control import TurnAborted
from saturnd.turn.date_checks import (
    FREE_ASKED,
    NO,
    YES,
    YES_NO_ASKED,
    gives_the_date,
    worked_out_date,
)
from saturnd.turn.day_lines import NO_LINE_THAT_DAY
from saturnd.turn.echoed_instructions import (
    done_account,
    echoes_instructions,
    not_done_account,
    off_the_errand,
    question_sent,
    repeats_the_reply,
    speaks_of_the_user,
)
from saturnd.turn.errands import (
    ASK_USER,
    asked_action,
    first_sentence,
    forced_call,
    something_acted,
    something_tried,
    tools_for,
)
from saturnd.turn.ground import Ground, ground_messages
from saturnd.turn.history import earlier_turns
from saturnd.turn.listing import still_to_do, whole_list
from saturnd.turn.look_first import ANOTHER_OWNER
from saturnd.turn.overwrite import (
    WRITE_FILE,
)
from saturnd.turn.ready_calls import ready_call_for, ready_write_text, stuck
from saturnd.turn.remembering import queue_missed_facts
from saturnd.turn.section_adds import added_for_someone
from saturnd.turn.table_rows import row_asked
from saturnd.turn.thinking import think_plan
from saturnd.turn.tool_round import tool_round
from saturnd.turn.worked_lines import worked_entry_for


async def run_turn(turn: TurnContext) -> EndStatus:
    """Run the turn to its answer; returns the status it ended with."""
    turn.events.emit(TurnStarted(session_id=turn.session_id, text=turn.text))
    messages = await opening_messages(turn)
    turn.opening = len(messages)
    try:
        while True:
            await pass_boundary(turn, messages)
            bound = turn.bounds.check_before_pass(turn.tally.tool_passes)
            if bound and not bound.final_pass:
                return finish(turn, earlier_text(turn, prompts.NO_ANSWER_YET), note=bound.reason)
            if bound:
                wrap_up(turn, messages, bound)
            match await agent_pass(turn, messages, pass_plan(turn)):
                case ModelFailed(failure) if turn.tally.passes == 1:
                    raise failure  # nothing to answer with: the turn fails
                case ModelFailed(failure):
                    note = f"the model failed: {failure.message}"
                    return finish(turn, earlier_text(turn, prompts.NO_ANSWER_YET), note=note)
                case Unreadable() if await do_it_for_the_model(turn, messages):
                    continue
                case Unreadable(problem=problem):
                    note = f"the model's reply could not be read: {problem}"
                    return finish(turn, earlier_text(turn, prompts.UNREADABLE), note=note)
                case CallsProposed(reply):
                    await tool_round(turn, messages, reply)
                    if undone := stuck(turn):
                        await do_it_for_the_model(turn, messages, undone)
                case Answered(text):
                    claim = check_answer(turn, messages, text)
                    if not bound and await put_to_the_person(turn, messages, text, claim):
                        continue
                    if claim and not bound and send_back_claim(turn, messages, text, claim):
                        continue
                    notes = (bound.reason if bound else "", prompts.CLAIM_NOTES[claim.kind] if claim else "")
                    return finish(turn, answer_text(turn, text, claim), note="; ".join(filter(None, notes)))
    except TurnAborted:
        return finish(turn, abort_summary(turn), note="stopped at your request", status="aborted")


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
    turn.ground, turn.shown = built.trace, [(e.source, "\n".join(e.lines), e.whole) for e in built.excerpts]
    turn.ground_text, turn.documents = built.text, built.documents
    earlier = history.messages if turn.caller_history is None else turn.caller_history
    return system + earlier + [{"role": "user", "content": turn.text}]


def pass_plan(turn: TurnContext) -> PassPlan:
    step = turn.step
    since_sent_back = turn.trace[turn.forced_since:]
    must_call = forced_call(turn.must_call, since_sent_back, turn.registry) if step != "wrap_up" else ()
    return PassPlan(
        step=step, think=think_plan(turn.think_policy, step, forced=bool(must_call)), tools_offered=step != "wrap_up",
        must_call=must_call,
    )


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


def check_answer(turn: TurnContext, messages: list[dict[str, Any]], answer: str) -> Claim | None:
    """What in the answer no tool backs (claims.py), judged against everything the model was shown;
    not the "could not find it" a send-back for someone else's number asked for. A figure sent back,
    given again and now passing, is the same claim: it is in the history now, not a source."""
    claim = unbacked_claim(
        answer, turn.trace, turn.registry, turn.text,
        documents_at_hand=bool(turn.ground.files_mapped or turn.ground.excerpts),
        seen=source_text(turn, messages),
        last_result=next((str(m.get("content") or "") for m in reversed(messages) if m.get("role") == "tool"), ""),
    )
    if turn.sent_back is not None and _next_date_still_missed(answer, turn.sent_back[1]):
        return turn.sent_back[1]  # whatever else the answer says: "I couldn't find any appointments"
    if claim is None and turn.sent_back is not None and (_same_figure_again(turn, answer, turn.sent_back[1])
                                                          or _stalled(turn, answer, turn.sent_back[1])):
        return turn.sent_back[1]
    if claim is None and (declined := _row_declined(turn, answer)):
        return declined
    return None if claim and claim.kind == "no_access" and "someone_else" in turn.claims_sent_back else claim


def _row_declined(turn: TurnContext, answer: str) -> Claim | None:
    """An add to a table declined with nothing tried, while the request gives the row ("I don't have
    enough information to put you down for the 19th morning", of a rota with the 19th's rows), or
    an add for someone under their heading declined after a search ("I couldn't find any science
    project" for "Add a science project for Maya, …"): not done, and sent back with the write."""
    if "?" in answer or something_acted(turn.trace, turn.registry):
        return None
    tools = tools_for(turn.text, turn.registry)
    row = not something_tried(turn.trace, turn.registry, fetch_counts=False) and row_asked(turn.text, turn.documents, date.today())
    if WRITE_FILE not in tools or not (row or added_for_someone(turn.text, turn.documents)):
        return None
    return Claim("not_acted", first_sentence(answer), tools)


FIGURE_CLAIMS = frozenset({"unsourced", "uncomputed", "copied", "per_period", "conversion", "unworked",
                           "time_of_day", "not_as_worked_out"})


def _same_figure_again(turn: TurnContext, answer: str, claim: Claim) -> bool:
    """Whether the answer gives the figure sent back again, with no tool run since: "£11.67" for the
    share of the rent, twice (a tool that ran since, a write, makes the old claim stale)."""
    ran_since = any(c.fate == "ran" for p in turn.trace[turn.forced_since:] for c in p.calls)
    return claim.kind in FIGURE_CLAIMS and not ran_since and claim.quote.strip("\"") in answer


STALLED = re.compile(r"^\W*(?:I\s+(?:need|have|must)\s+to\s+|I(?:'ll|\s+will)\s+|let\s+me\s+)(?:check|look|verify|review|"
                     r"re-?check|double-?check|go\s+through)\b", re.IGNORECASE)
FOUND_NOTHING = re.compile(r"\bknowledge\s+base\b[^.]*\bempty\b|\bno\s+(?:information|matches|results)\b|"
                           r"\bcould(?:\s*no|n['’])t\s+find\b|\bdon['’]?t\s+have\s+(?:any\s+)?information\b", re.IGNORECASE)
ANSWERED_FROM_THE_CLAIM = frozenset({"marked_done", "rows_not_asked", "total_left_out", "part_of_list", "another_file"})


def _next_date_still_missed(answer: str, claim: Claim) -> bool:
    """Sent back with the next date, an answer that still gives none: asked "When's Dad's next
    appointment?", the 1.5B searched for "Dad's medicines" and said it found no appointment."""
    return claim.kind == "next_due_missed" and not gives_the_date(answer, claim.quote)


def _stalled(turn: TurnContext, answer: str, claim: Claim) -> bool:
    """Whether, sent back with the lines that answer it, the model only says it will check again
    ("I need to check the list again …"), no tool run since, or says it found nothing (sent back
    with the two gifts still to buy, it searched the empty knowledge base and answered "The
    knowledge base is empty."): answered from the claim then."""
    ran_since = any(c.fate == "ran" for p in turn.trace[turn.forced_since:] for c in p.calls)
    return claim.kind in ANSWERED_FROM_THE_CLAIM and (
        not ran_since and STALLED.search(answer) is not None or FOUND_NOTHING.search(answer) is not None)


def send_back_claim(turn: TurnContext, messages: list[dict[str, Any]], answer: str, claim: Claim) -> bool:
    """Send an answer that claims what no tool backs back to the model, once per turn; a trail
    not followed or a page not fetched, once per place (each opening takes one of the turn's tool
    rounds)."""
    trail = claim.kind in ("unfollowed", "unread", "elsewhere")
    if (claim.quote in turn.trail_sent_back) if trail else not may_send_back(claim, turn.claims_sent_back):
        turn.trace[-1].note = join_note(turn.trace[-1].note, f'{claim.kind}: "{claim.quote}" again: answered as it is')
        return False
    turn.trace[-1].note = join_note(turn.trace[-1].note, f'{claim.kind}: "{claim.quote}": sent back')
    messages += [
        {"role": "assistant", "content": answer},
        {"role": "user", "content": worked_entry_text(turn, claim) or send_back_text(claim) + ready_write_text(turn, claim)},
    ]
    turn.quoted_back[len(messages) - 1] = claim.quote
    turn.sent_back = (answer, claim)
    if trail:
        turn.trail_sent_back.add(claim.quote)
    else:
        turn.claims_sent_back.add(claim.kind)
    turn.step = "recovery"  # the answer claimed what no tool did: an error to recover from
    turn.must_call = must_call_after(claim, turn.registry.names(), can_ask=turn.person_present)
    turn.forced_since = len(turn.trace)  # a fetch before the send-back does not follow the trail
    return True


def earlier_text(turn: TurnContext, nothing_yet: str) -> str:
    """What a turn cut short by a bound or a failing model answers with: its last text, told
    truly when that text was sent back for a claim (the server stalled on the pass after "The tmp
    folder has been deleted." went back, and the turn ended with those words)."""
    if not turn.last_text:
        return nothing_yet
    if turn.sent_back is not None and turn.sent_back[0] == turn.last_text:
        return answer_text(turn, turn.last_text, turn.sent_back[1])
    return turn.last_text


async def do_it_for_the_model(turn: TurnContext, messages: list[dict[str, Any]], undone: Claim | None = None) -> bool:
    """Sent back for an errand it answered instead of doing, the model gave no readable call (for
    "I've cleaned the oven." the 1.5B's constrained retries gave no JSON twice, in 360 s) or only
    calls refused as loops (it asked the same question four times), or it wrote wrong twice running
    (ready_calls.stuck), while the harness has the call that does it: that call is proposed as the
    model's, through the gate as any call is, once a turn."""
    claim = undone or (turn.sent_back[1] if turn.sent_back else None)
    ready = ready_call_for(turn, claim) if claim and not turn.ready_call_proposed else None
    if ready is None:
        return False
    turn.ready_call_proposed = True
    turn.trace[-1].note = join_note(turn.trace[-1].note, f"no call that does it: the ready {ready.name} proposed")
    await tool_round(turn, messages, ModelReply(tool_calls=[ready]))
    return True


def _after_its_label(quote: str) -> str:
    """What follows a line's label, the first ": " outside brackets ("the paid = no rows (3: Sophie,
    Ollie, Emily): date …" is the rows, not "Sophie, Ollie, Emily): …")."""
    depth = 0
    for at, char in enumerate(quote):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and quote.startswith(": ", at):
            return quote[at + 2:]
    return quote


def source_text(turn: TurnContext, messages: list[dict[str, Any]]) -> str:
    """Everything the model was shown but its own words this turn: its answers and calls after the
    opening, the arguments a tool result's fence is labelled with, and its words a send-back quotes.
    An answer sent back is no source for itself: "Yes, the cactus is due" given again was held
    against its own earlier line as if a file had said it; "kb_search next meeting time" had made
    the meeting's time "shown", and the person was never asked it."""
    parts = []
    for at, message in enumerate(messages):
        if at >= turn.opening and message.get("role") == "assistant":
            continue
        content = str(message.get("content") or "")
        if message.get("role") == "tool":  # the fence's label is the call's own arguments: "kb_search next meeting time"
            content = CALL_LABEL.sub('<outside source="">', content)
        parts.append(content.replace(turn.quoted_back[at], " ") if turn.quoted_back.get(at) else content)
    return "\n".join(parts)


CALL_LABEL = re.compile(r'<outside source="[^"]*">')


async def put_to_the_person(
    turn: TurnContext, messages: list[dict[str, Any]], answer: str, claim: Claim | None,
) -> bool:
    """A question only the person can answer goes to them as ask_user's question, and their answer
    comes back as that call's result: a value the request turns on that nothing shown mentions
    (asking.only_the_person_knows), or, when nothing else is wrong with it, an answer that stops an
    errand for a missing value (asking.asks_for_missing: the answer is the question)."""
    if not turn.person_present:
        return False
    # Not the request's own words, nor the folder's path (a folder named for a client tells no language).
    shown = source_text(turn, messages).replace(turn.text, " ").replace(turn.cwd, " ")
    if (question := only_the_person_knows(turn.text, answer, shown, turn.trace)) is not None:
        why = f"the request turns on what only the person knows: asked \"{question}\""
    elif not claim and asks_for_missing(answer, turn.text, turn.trace, turn.registry):
        question, why = answer, "the answer asks for a missing value: put to the person"
    else:
        return False
    turn.trace[-1].note = join_note(turn.trace[-1].note, why)
    asking = ToolCall(id=f"saturn-ask-{turn.tally.passes}", name=ASK_USER, arguments=json.dumps({"question": question}))
    await tool_round(turn, messages, ModelReply(tool_calls=[asking]))
    return True


FIGURE_SENT_BACK = frozenset({"uncomputed", "unsourced", "per_period"})


THE_LINE_ABOUT = re.compile(r'the line about (?:it|them|the [\w\' -]+?) is "(.*)"(?: \([^()]*\))?$')
"""The line a claim names as the one about what was asked: "the line about the dog is "Insurance renews 1 March" (pets.md)"."""


def worked_entry_text(turn: TurnContext, claim: Claim) -> str:
    """For a figure nothing shown holds, the send-back that gives the ground's worked-out entry for
    the thing asked, where it has one: sent back for "£150" more for the holiday, the 1.5B
    calculated 1350 - 1500, the ground's "650 more to go" unread."""
    if claim.kind not in FIGURE_SENT_BACK or not (entry := worked_entry_for(turn.text, turn.ground_text)):
        return ""
    return prompts.WORKED_OUT_ENTRY.format(entry=entry)


def send_back_text(claim: Claim) -> str:
    if claim.kind == "not_acted":
        if not claim.tools:
            return prompts.NOT_ACTED_NO_TOOL.format(claim=claim.quote)
        return prompts.NOT_ACTED.format(claim=claim.quote, tools=" or ".join(claim.tools))
    if claim.kind == "half_done":
        return prompts.HALF_DONE.format(claim=claim.quote, tools=" or ".join(claim.tools))
    listed = f" ({', '.join(claim.tools)})" if claim.tools else ""
    return prompts.SEND_BACK[claim.kind].format(claim=claim.quote, tools=listed)


def answer_text(turn: TurnContext, reply_text: str, claim: Claim | None = None) -> str:
    """The reply, unless it only repeats Saturn's note to the model: then what was not done, or
    what was when something was. An answer that does not say a declined errand was not done ("The
    meeting was cancelled." after the text was declined), an action it still claims or promises
    after being sent back, or a trail it did not follow to the end, is prefixed with the truth;
    one that speaks of the person to Saturn after being sent back is replaced by it, one that
    still names what the list marks done by the lines it does not, one that names table rows not
    asked again by the rows asked, one that leaves out the total asked again by the total, one
    that gives part of a list again by the whole list, one that miscounts the days to the one date
    asked about again by that date's own line, one that gives the reply to a question it sent
    as a fact by the question sent, one that lists what an add's file holds with lines it does
    not by what was added, and one that gives the user's own reply back by what was (not) done."""
    text = reply_text or turn.last_text
    account = not_done_account(turn.trace)
    if "someone_else" in turn.claims_sent_back and echoes_instructions(text) and not asked_action(turn.text):
        turn.trace[-1].note = join_note(turn.trace[-1].note, "the answer repeated Saturn's note to the model: not found")
        return prompts.NOT_FOUND.format(thing=_the_thing_asked(turn.text))  # "… never give someone else's." given back
    if echoes_instructions(text):
        acted = something_acted(turn.trace, turn.registry)
        what = "what was done" if acted and not account else "what was not done"
        turn.trace[-1].note = join_note(turn.trace[-1].note, f"the answer repeated Saturn's note to the model: replaced with {what}")
        return account or (done_account(turn.trace, turn.registry, turn.text) if acted else prompts.NOT_DONE)
    if account and not SAYS_NOT_DONE.search(text) and not something_acted(turn.trace, turn.registry):
        turn.trace[-1].note = join_note(turn.trace[-1].note, "prefixed: what was not done")
        return f"{account} {text}"
    # the user's "I don't know, do what you can." given back as the answer, or their request ("I got the bread, take it off.")
    if repeats_the_reply(text, [*turn.ledger.replies(), *([turn.text] if asked_action(turn.text) else [])]):
        acted = something_acted(turn.trace, turn.registry)
        turn.trace[-1].note = join_note(turn.trace[-1].note, "the answer repeated the user's words: replaced with "
                                        + ("what was done" if acted else "what was not done"))
        return done_account(turn.trace, turn.registry, turn.text) if acted else _not_done(turn)
    if asked_action(turn.text) and something_acted(turn.trace, turn.registry) and off_the_errand(text, turn.text, turn.trace):
        turn.trace[-1].note = join_note(turn.trace[-1].note, "the answer said nothing of the errand: replaced with what was done")
        return done_account(turn.trace, turn.registry, turn.text)  # "The cottage is a cottage." for "Omar paid."
    if asked := question_sent(turn.text, text, turn.trace):  # "Gran can pick the kids up": nobody replied yet
        turn.trace[-1].note = join_note(turn.trace[-1].note, "replaced with the question sent")
        return asked
    if added := listed_not_written(turn.text, text, turn.trace, turn.cwd):  # "…, garlic, lasagne sheets"
        turn.trace[-1].note = join_note(turn.trace[-1].note, "the answer listed lines the file does not hold: replaced with what was added")
        return added
    if claim is not None and claim.kind == "unfollowed":
        turn.trace[-1].note = join_note(turn.trace[-1].note, "prefixed: trail not finished")
        # a figure said before the trail's end was read is none of its own: "The price is $1,299.00." goes
        known = set(FIGURE.findall(f"{claim.quote} {turn.text}"))  # the pointer's own "q02.txt" is no figure said
        kept = " ".join(sentence for sentence in re.split(r"(?<=[.!?])\s+", text) if set(FIGURE.findall(sentence)) <= known).strip()
        return f"{prompts.TRAIL_NOT_FOLLOWED.format(pointer=claim.quote)} {kept}".strip()
    if (claim is not None and claim.kind in ("done", "not_acted") and speaks_of_the_user(text)
            and not something_acted(turn.trace, turn.registry)):
        turn.trace[-1].note = join_note(
            turn.trace[-1].note, "the answer spoke of the user to Saturn: replaced with what was not done"
        )
        return _not_done(turn)
    if claim is not None and misleads_about_action(claim, text):
        turn.trace[-1].note = join_note(turn.trace[-1].note, "prefixed: not done")
        return f"{_not_done(turn)} {text}"
    if claim is not None and claim.kind == "marked_done":  # sent back, the 1.5B named the bought lego again
        turn.trace[-1].note = join_note(turn.trace[-1].note, "replaced with the lines not marked done")
        return still_to_do(claim.quote)
    if claim is not None and claim.kind == "rows_not_asked":  # sent back, the 1.5B named the paid council tax again
        turn.trace[-1].note = join_note(turn.trace[-1].note, "replaced with the rows asked")
        return _after_its_label(claim.quote) + "."
    if claim is not None and claim.kind == "someone_elses_line" and (swapped := ANOTHER_OWNER.match(claim.quote)):
        turn.trace[-1].note = join_note(turn.trace[-1].note, "the figure's owner named in place of the one given")
        return re.sub(rf"\b{re.escape(swapped['named'])}\b", swapped["owner"], text)  # "Dan owes you £40" again: Priya's
    if claim is not None and claim.kind == "someone_elses_line" and (own := THE_LINE_ABOUT.search(claim.quote)):
        turn.trace[-1].note = join_note(turn.trace[-1].note, "answered from the line about what was asked")
        return _from_your_files(own.group(1))  # "Dr Okafor" again for the eye test
    if claim is not None and claim.kind == "total_left_out":  # sent back, the 1.5B named the two unpaid rows again
        turn.trace[-1].note = join_note(turn.trace[-1].note, "replaced with the total worked out")
        return f"Worked out from your table: {claim.quote}."
    if claim is not None and claim.kind == "part_of_list" and (listed := whole_list(claim.quote)):
        turn.trace[-1].note = join_note(turn.trace[-1].note, "replaced with the whole list")
        return listed  # sent back, the 1.5B gave the wish list's first line again
    if claim is not None and claim.kind == "yes_then_no":  # sent back, "Yes, Pepper is allergic to chicken." again
        turn.trace[-1].note = join_note(turn.trace[-1].note, "its yes turned to no: its own reason says no")
        return YES.sub("No", text, count=1)
    if claim is not None and claim.kind == "owed_the_wrong_way":  # "You owe £3550" again for what is owed
        turn.trace[-1].note = join_note(turn.trace[-1].note, "turned round: owed to the user")
        return turned_round(text)
    if claim is not None and claim.kind in ("against_the_line", "against_the_day"):  # "Yes" to weekly again
        turn.trace[-1].note = join_note(turn.trace[-1].note, "answered from the line")
        if NO_LINE_THAT_DAY in claim.quote:  # no line for it: no (and nobody, nothing)
            none = prompts.NO_LINE_FOR_THE_DAY if YES.search(text) or NO.search(text) else prompts.NOTHING_FOR_THE_DAY
            none = prompts.FREE_THAT_DAY if FREE_ASKED.search(turn.text) and YES_NO_ASKED.search(turn.text) else none
            return none.format(day=claim.quote.split(f": {NO_LINE_THAT_DAY}")[0])
        if not YES_NO_ASKED.search(turn.text) or not (YES.search(text) or NO.search(text)):  # "When is …?" is no yes/no
            return _from_your_files(claim.quote)
        return prompts.FROM_THE_LINE.format(answer="No" if YES.search(text) else "Yes", line=claim.quote)
    if claim is not None and claim.kind == "no_time_given":  # "Yes" again for "What time's our train home?"
        turn.trace[-1].note = join_note(turn.trace[-1].note, "answered from the lines")
        return _from_your_files("; ".join(claim.quote.splitlines()))
    if claim is not None and claim.kind == "contact_not_given":  # "450" again for TopRoof's number
        turn.trace[-1].note = join_note(turn.trace[-1].note, "answered from the line")
        return _from_your_files(claim.quote)
    if claim is not None and claim.kind == "not_as_worked_out":  # "60 minutes" again for 105
        turn.trace[-1].note = join_note(turn.trace[-1].note, "replaced with what the harness worked out")
        return prompts.WORKED_OUT_FROM_REQUEST.format(entry=claim.quote.partition("] ")[2])
    if claim is not None and claim.kind in ("unsourced", "uncomputed") and (
            entry := worked_entry_for(turn.text, turn.ground_text)):  # "£11.67" twice for the share of the rent
        turn.trace[-1].note = join_note(turn.trace[-1].note, "replaced with what the harness worked out")
        return prompts.WORKED_OUT_ANSWER.format(entry=entry)
    if claim is not None and claim.kind == "another_file":  # "shopping.txt" again for the passport
        turn.trace[-1].note = join_note(turn.trace[-1].note, "answered with the file that says it")
        return f"{claim.quote}."
    if claim is not None and claim.kind == "next_due_missed" and not gives_the_date(text, claim.quote):
        turn.trace[-1].note = join_note(turn.trace[-1].note, "replaced with the next date worked out")
        return _from_your_files(claim.quote.removeprefix("[Saturn dated]").strip())
    if claim is not None and claim.kind == "miscounted_days" and (worked_out := worked_out_date(claim.quote)):
        turn.trace[-1].note = join_note(turn.trace[-1].note, "replaced with the date worked out")
        return worked_out  # sent back, the 1.5B gave the bin day's "5" for the dentist again
    if _no_tool_for_it(turn, text):  # "Order me a pizza": "I couldn't find any information about ordering …"
        turn.trace[-1].note = join_note(turn.trace[-1].note, "prefixed: no tool can do what was asked")
        return f"{prompts.NO_TOOL_FOR_IT} {text}"
    return text


SAYS_CANNOT = re.compile(r"\b(?:can(?:no|'|’)?t|unable|not\s+able|no\s+(?:tool|way|ability))\b", re.IGNORECASE)


def _no_tool_for_it(turn: TurnContext, text: str) -> bool:
    """Whether the request asks an errand no tool's name or description names ("Order me a pizza"),
    nothing but a read or a question ran, and the answer does not say it cannot: asking for more
    details of it, as the 1.5B did, gets nothing done either."""
    if not asked_action(turn.text) or tools_for(turn.text, turn.registry) or SAYS_CANNOT.search(text):
        return False
    looking = {t.name for t in turn.registry if t.risk == "read_only"} | {ASK_USER}
    return not any(c.fate == "ran" and c.name not in looking for p in turn.trace for c in p.calls)


ASKED_FOR = re.compile(r"^\W*(?:what(?:['’]s|\s+is|\s+are)|who(?:['’]s|\s+is)|where(?:['’]s|\s+is)|tell\s+me|give\s+me)\s+",
                       re.IGNORECASE)


def _the_thing_asked(request: str) -> str:
    """"the dentist's phone number" of "What's the dentist's phone number?", "your …" for "my …"."""
    thing = ASKED_FOR.sub("", request.strip()).rstrip("?.! ")
    return re.sub(r"\bmy\b", "your", thing, flags=re.IGNORECASE) or "it"


def _not_done(turn: TurnContext) -> str:
    """"Not done", with why when every message call went back for want of an address."""
    messages = [c for p in turn.trace for c in p.calls if c.name in ("send_message", "send_email")]
    if messages and all(c.fate == "invalid" and prompts.NO_ADDRESS_HINT in c.why or c.fate == "refused_recipient"
                        for c in messages):
        return prompts.NOT_DONE_NO_ADDRESS
    return prompts.NOT_DONE


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
    receipt = turn.tally.receipt(turn.plan)
    turn.events.emit(receipt)
    turn.store.finish_turn(turn.turn_id, status, answer, msgspec.to_builtins(receipt), trace_record(turn))


def trace_record(turn: TurnContext) -> dict[str, Any]:
    return {
        "passes": msgspec.to_builtins(turn.trace), "plan": msgspec.to_builtins(turn.plan),
        "ground": msgspec.to_builtins(turn.ground),
        "history": turn.history_note,
    }


def _from_your_files(line: str) -> str:
    """The answer given from a line of the files, its stop once ("…council tax.." had two), without
    the tag of a line the harness wrote ("[Saturn noted] February: me")."""
    return prompts.FROM_THE_DAY.format(line=HARNESS_TAG.sub("", line).rstrip(" ."))


FIGURE = re.compile(r"\d+")
HARNESS_TAG = re.compile(r"^\[Saturn [a-z ]+\]\s*")
