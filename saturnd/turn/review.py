"""Review: what happens to each call a pass proposed, before anything runs.

cap -> ask_user alone -> validation -> no file write where only a message was asked ->
ask_user (not for leave) -> loop rules (one message per person) -> dependency gate ->
channel and recipient put right from the user's files, or checked -> what a write or message
carries -> judge (tool_call) -> gate policy. Pure: the tool round
runs what comes back approved, asks the person about what needs approval,
and sends every other call its result.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

from saturnd.gate.judge import ALLOW, Judge, JudgeConfig, blocked_result
from saturnd.gate.policy import GateConfig, gate_verdict
from saturnd.gate.provenance import (
    EMAIL,
    PHONE,
    Returned,
    SessionRecord,
    guessed_value,
    labelled_value_left_out,
    outside_escalation,
    parent_missing,
    recipient_refusal,
    shown_for_values,
    value_left_out,
    weekday_against_said,
    weekday_beside_another_date,
)
from saturnd.gate.reach import Reach
from saturnd.memory.remember import REMEMBER, MemoryGate, RememberDecision, decide_remember
from saturnd.model.types import ToolCall
from saturnd.tools.messaging import email_addresses, is_email, is_phone
from saturnd.tools.registry import Registry, Tool
from saturnd.tools.table_cells import TABLE_SUFFIXES
from saturnd.tools.word_match import stems
from saturnd.turn import prompts
from saturnd.turn.asking import asks_leave
from saturnd.turn.days_off import days_off_added
from saturnd.turn.errands import READ_TOOLS, asked_action, only_messages_asked
from saturnd.turn.fencing import fence
from saturnd.turn.lists_named import (
    ListToWrite,
    days_swapped,
    days_taken,
    heading_as_a_file,
    heading_refusal,
    list_it_goes_on,
    new_list_refusal,
    ready_write,
)
from saturnd.turn.look_first import (
    addresses_named,
    lines_naming,
    render,
)
from saturnd.turn.loop_rules import CallLedger, call_signature
from saturnd.turn.made_up import CALCULATE, COMPUTE_REQUEST, WORKED_OUT, uncomputed_number
from saturnd.turn.marks import answer_told, bought_for, job_logged
from saturnd.turn.message_words import BLANK, own_address_carried
from saturnd.turn.overwrite import (
    ADDING,
    CHANGING,
    EDIT_FILE,
    REMOVING,
    WRITE_FILE,
    added_line_lacks_when,
    added_line_off_request,
    adds_nothing,
    adds_nothing_refusal,
    content_to_write,
    doubled_lines,
    doubled_refusal,
    dropped_lines,
    elsewhere_refusal,
    file_text,
    kept_lines,
    kept_refusal,
    line_named_elsewhere,
    lines_an_add_edit_drops,
    nothing_there_refusal,
    overwrite_refusal,
    request_as_a_line,
    request_as_a_line_refusal,
    where_it_is,
)
from saturnd.turn.price_told import date_told, money_added, price_told
from saturnd.turn.put_right import (
    SEND_EMAIL,
    SEND_MESSAGE,
    YOUR,
    Recipient,
    addresses_of,
    channel_put_right,
    content_put_right,
    edit_where_the_text_is,
    kb_read_instead,
    recipient_put_right,
    sender_left_out,
    where,
)
from saturnd.turn.retrieval import Document
from saturnd.turn.table_cells_told import cell_told, score_added, stock_topped_up
from saturnd.turn.table_rows import (
    row_against_the_request,
    row_changed_in_place,
    row_instead_of_a_new_file,
)
from saturnd.turn.timed_log import timed_line_added
from saturnd.turn.tool_fit import seems_unfit
from saturnd.turn.validation import Invalid, validate_call
from saturnd.turn.value_changed import value_changed, value_told

ASK_USER = "ask_user"
ROW_AS_ASKED = (
    "tool error: the row this adds to {path} is not the one the user gave. Call write_file again with path {path} and"
    " this content:\n{content}"
)
ADDED_TICKED = (
    "tool error: the line this adds to {path} is ticked done, and the user asked only to add it. Call write_file again"
    " with path {path} and this content:\n{content}"
)
CELL_AS_TOLD = (
    "tool error: the user told you a thing was done; it changes one cell of {path}'s row for it. Call write_file again"
    " with path {path} and this content:\n{content}"
)
SET_AS_TOLD = (
    "tool error: what the user asked or told changes these lines of {path}, and nothing else of it. Call write_file"
    " again with path {path} and this content:\n{content}"
)
ROW_IN_PLACE = (
    "tool error: {path} already has the row the user gave, with blanks or older values: it changes that row, and adds"
    " none. Call write_file again with path {path} and this content:\n{content}"
)
NOT_THEIR_LINE = (
    "not run: the user told you {name} did a thing, and the line this changes in {path} is not about {name}: no line"
    " of it is theirs. Do not change the file; tell the user it is noted."
)
OWN_ADDRESS_CARRIED = (
    "not run: the message carries {to}, where it goes, as if it were news. Write only what the user asked to tell,"
    " and call {tool} again."
)
GUESSED = (
    "not run: '{value}' in {name} is in nothing the user said, no tool returned it and nothing shown"
    " holds it: a guess. Ask the user for it with ask_user, then call this again with their answer."
)
LEFT_OUT = (
    "not run: {tool} would go without {phrase}, which the user asked for. {how}, then call {tool}"
    " again with it in."
)
WHEN_LEFT_OUT = (
    "not run: every line of {path} has {lacks}, and '{line}' has none. Take it from what you read, or ask"
    " the user with ask_user, then call {tool} again with it in."
)
OFF_REQUEST = (
    "not run: '{line}' has nothing of what the user asked to add (\"{request}\"). Call {tool} again with"
    " the line the user asked for; take what it needs from what you read, or ask the user with ask_user."
)
LABELLED_LEFT_OUT = (
    "not run: {tool} would go without {phrase}, which the user asked for, and what you read gives it:"
    " '{line}'. Call {tool} again with it in."
)
QUOTE_LEFT_OUT = (
    "not run: {tool} would go without the words the user asked to send: '{quote}'. Call {tool} again with"
    " them as the message."
)
REFUSAL_SENT = (
    "not run: {tool} would send the recipient a refusal ('{refusal}'), not a message from the user. Write what the"
    " user asked to say ({request!r}) and call {tool} again."
)
REFUSAL = re.compile(r"\b(?:I'?m|I\s+am)\s+(?:sorry|afraid)\b[^.!?]*\b(?:can(?:no|')t|unable\s+to|not\s+able\s+to)\s+"
                     r"(?:assist|help|do|comply)\b|^\W*I\s+(?:can(?:no|')t|cannot)\s+(?:assist|help)\s+with\s+(?:that|this)\b",
                     re.IGNORECASE)
"""A model's refusal: "I'm sorry, but I can't assist with that request." (sent back for not acting, the 1.5B emailed it)."""
BLANK_LEFT = (
    "not run: {tool} would send {blank}, a blank for the sender to fill. Write the message without blanks and"
    " call {tool} again."
)
WORK_IT_OUT = "Work it out with calculate from what you read"
WORKED_OUT_ALREADY = "The harness worked it out from the user's files: {worked}. Take it from there"
"""Asked to "Email my accountant the total of my budget", the 1.5B sent "the total … in the
attached file"; told to work it out, it asked the user what the total was."""
LOOK_OR_ASK = "Take it from what you read, or ask the user for it with ask_user"
"""The request's "my new address" is the person's "your new address"."""
NOT_WORKED_OUT = (
    "not run: {number} is in nothing you were shown and was not worked out with calculate. Call calculate"
    " with the numbers you read, written as one expression, then call {tool} with its result."
)
NAME_NOT_ADDRESS = (
    "tool error: '{to}' is a name, not a phone number or email address. The user's files hold the lines"
    " above: call {tool} again with the number or address from them."
)
WRITES_NO_MESSAGE = (
    "not run: the user asked for a message, and {tool} sends nothing: it would change a file nobody asked"
    " to change. Call {tools} to send it."
)
ASKS_LEAVE_INSTEAD = (
    "not asked: the user already asked for this. Call {tools} to do it: Saturn asks the user to approve it"
    " before it runs, so do not ask first."
)
ASK_FIRST = "not run: ask first. ask_user runs alone; call this again after the user answers."


@dataclass(frozen=True)
class GateContext:
    """What the gate knows about the session; built once per tool round."""

    record: SessionRecord = field(default_factory=lambda: SessionRecord([], [], []))
    cwd: str = "/"
    kb_dir: str = ""
    """The knowledge base folder: read tools reach it freely, as the working folder."""
    gate: GateConfig = field(default_factory=GateConfig)
    judge: Judge = field(default_factory=lambda: Judge(JudgeConfig()))
    approved: frozenset[str] = frozenset()
    """Approval keys given "always" this session, and tools pre-approved for the turn."""
    memory: MemoryGate = field(default_factory=MemoryGate)
    request: str = ""
    """The user's words this turn: what an MCP tool must fit (tool_fit)."""
    documents: list[Document] = field(default_factory=list)
    """The folder's and the KB's small text files (look_first finds a recipient in them)."""
    seen: str = ""
    """The ground the model was shown (the clock, the folder's excerpts): a time it holds is no guess."""
    when_unknown: bool = False
    """Asked when a line added is, the person did not say: the line goes in without a day or time."""


def approval_key(tool: Tool, arguments: dict[str, Any]) -> str:
    """"always" covers this tool on this target (this file, this command), not the tool at large."""
    if tool.target and tool.target in arguments:
        return f"{tool.name} {arguments[tool.target]}"
    return tool.name


@dataclass(frozen=True)
class Decision:
    call: ToolCall
    fate: str
    """approved | needs_approval | ask_user | invalid | refused_loop | declined | needs_parent
    | refused_recipient | refused_guess | refused | blocked | ask_first | capped."""
    result: str = ""
    """What the model is sent for a call that does not run."""
    tool: Tool | None = None
    params: Any = None
    arguments: dict[str, Any] = field(default_factory=dict)
    signature: str = ""
    reason: str = ""
    """Why it needs approval (for the person and explain)."""
    tell_model_why: bool = False
    """The reason is for the model too when nobody can approve: it says where to look instead."""
    setback: bool = False
    """Refused for something the model must correct where the fate alone does not say so
    (a declined call proposed again, a secret to remember): the next pass recovers."""
    remember: RememberDecision | None = None
    """For a `remember` call: memory's decision on the fact, which saving carries out."""
    ask_person: tuple[str, str] | None = None
    """(the question, why the call did not run) for a value the person can give: with someone
    there, the tool round asks them and sends the call back with their answer."""
    put_right: str = ""
    """How the harness put the call's recipient or path right before review (from the user's
    files, the person's answer, the file the request names): its result opens with this, so the
    model knows what ran."""
    must_call: tuple[str, ...] = ()
    """The tools the coming passes must call one of: a leave question sent back is answered by
    doing the errand (asked twice, the 1.5B asked the same question a third time)."""

    @property
    def runs(self) -> bool:
        return self.fate in ("approved", "ask_user")


DOES_NOT_FIT = "does not look like it does what the user asked"
UNFIT = (
    "{tool} " + DOES_NOT_FIT + ": the request shares no word with its"
    " name, description or parameters. If none of your tools does it, answer without a tool and say"
    " plainly what you cannot do. If {tool} really is the right tool, call it again."
)


def review_calls(
    calls: list[ToolCall], registry: Registry, ledger: CallLedger, max_calls: int,
    context: GateContext | None = None,
) -> list[Decision]:
    context = context or GateContext()
    kept, beyond = calls[:max_calls], calls[max_calls:]
    asks = [c for c in kept if c.name == ASK_USER]
    decisions: list[Decision] = []
    for call in kept:
        if asks and call is not asks[0]:
            decisions.append(Decision(call, "ask_first", ASK_FIRST))
        else:
            decisions.append(_review_one(call, registry, ledger, context))
    decisions += [Decision(c, "capped") for c in beyond]
    return decisions


def _review_one(
    call: ToolCall, registry: Registry, ledger: CallLedger, context: GateContext, put_right_from: frozenset[str] = frozenset()
) -> Decision:
    """How the gate decides one call; `put_right_from` holds the arguments this call was already put
    right from, so two put-rights that undo each other end (the 1.5B's write of orders.csv went from
    one to the other until Python's recursion limit)."""
    checked = validate_call(call, registry)
    if isinstance(checked, Invalid):
        return Decision(call, "invalid", f"tool error: {checked.message}")
    tool, arguments = checked.tool, checked.arguments
    signature = call_signature(call.name, arguments)
    fields: dict[str, Any] = {
        "tool": tool, "params": checked.params, "arguments": arguments, "signature": signature,
    }
    if tool.risk == "write" and (senders := only_messages_asked(context.request, registry)):
        then = tuple(name for name in registry.names() if name in senders or name in READ_TOOLS)
        return Decision(call, "invalid", WRITES_NO_MESSAGE.format(tool=tool.name, tools=" or ".join(senders)),
                        must_call=then, **fields)
    if call.name == ASK_USER:
        if (asked := ledger.asked_before(signature)) is not None:
            return Decision(call, "refused_loop", asked, setback=True, **fields)
        doers = asks_leave(str(arguments.get("question", "")), context.request, registry)
        if doers and not any(c.tool in doers for c in context.record.calls):
            then = tuple(name for name in registry.names() if name in doers or name in READ_TOOLS)
            return Decision(call, "invalid", ASKS_LEAVE_INSTEAD.format(tools=" or ".join(doers)), must_call=then,
                            **fields)
        return Decision(call, "ask_user", **fields)
    refusal = ledger.refusal(signature)
    if refusal is not None:
        fate, why = refusal
        return Decision(call, fate, why, setback=True, **fields)
    if tool.risk == "messaging" and (sent := ledger.sent_before(str(arguments.get("to", "")))):
        return Decision(call, "refused_loop", sent, **fields)
    if tool.name == REMEMBER:
        return _review_remember(call, arguments, context, fields)
    if tool.risk == "external" and seems_unfit(context.request, tool) and ledger.first_unfit(tool.name):
        return Decision(call, "invalid", f"tool error: {UNFIT.format(tool=tool.name)}", **fields)
    if kb := kb_read_instead(tool.name, arguments, registry.names()):
        patched = replace(call, name="kb_read", arguments=json.dumps(kb))
        return replace(_review_one(patched, registry, ledger, context), put_right=prompts.KB_READ_PUT_RIGHT.format(
            tool=tool.name, path=arguments.get("path", ""), name=kb["name"]))
    if tool.name == EDIT_FILE and (moved := edit_where_the_text_is(arguments, context)):
        patched_arguments, note = moved
        return replace(_review_one(replace(call, arguments=json.dumps(patched_arguments)), registry, ledger, context),
                       put_right=note)
    # the wrong file is told before "read it first": the 1.5B read phone numbers.txt to mark Dad's present
    written = Path(context.cwd, os.path.expanduser(str(arguments.get("path", ""))))
    if tool.name in (WRITE_FILE, EDIT_FILE) and (elsewhere := line_named_elsewhere(
            context.request, written, context.documents)):
        return Decision(call, "invalid", elsewhere_refusal(str(arguments["path"]), elsewhere, written.exists()),
                        **fields)
    if tool.parent and parent_missing(tool.parent, tool.target, arguments, context.record, context.cwd):
        target = f" of {arguments[tool.target]}" if tool.target in arguments else ""
        why = f"⛔ call {tool.parent} first: {tool.name} needs {tool.parent}{target} earlier in this session."
        return Decision(call, "needs_parent", why, **fields)
    if tool.risk == "messaging" and (switched := channel_put_right(tool.name, arguments, context, registry.names())):
        other, to, message = switched
        patched = replace(call, name=other, arguments=json.dumps(message))
        return _review_put_right(patched, message, to, registry, ledger, context)
    if tool.risk == "messaging" and (left_out := sender_left_out(arguments)):
        patched_arguments, note = left_out
        return replace(_review_one(replace(call, arguments=json.dumps(patched_arguments)), registry, ledger, context),
                       put_right=note)
    if tool.risk == "messaging" and (recipient := recipient_put_right(tool, arguments, context)):
        return _review_put_right(call, arguments, recipient, registry, ledger, context)
    if call.arguments not in put_right_from and (put_right := content_put_right(tool, arguments, context)):
        patched_arguments, note = put_right
        patched = replace(call, arguments=json.dumps(patched_arguments))
        return replace(_review_one(patched, registry, ledger, context, put_right_from | {call.arguments}), put_right=note)
    if tool.risk == "messaging" and (looked_up := recipient_from_files(tool, arguments, context)):
        return Decision(call, "invalid", looked_up, **fields)
    if tool.risk == "messaging":
        unknown = recipient_refusal(arguments, context.record)
        if unknown is not None:
            return Decision(call, "refused_recipient", f"refused: {unknown}", **fields)
    if tool.risk == "messaging" and (unaddressed := no_address(tool.name, str(arguments.get("to", "")))):
        return Decision(call, "invalid", unaddressed, **fields)  # asked to approve a call that could not run
    if sent_back := what_it_would_write(tool, arguments, context):
        return Decision(call, sent_back.fate, sent_back.why, ask_person=sent_back.question, **fields)
    if tool.name == CALCULATE and (twice := total_added_again(str(arguments.get("expression", "")), context.seen)):
        return Decision(call, "invalid", prompts.TOTAL_ADDED_AGAIN.format(total=twice), **fields)
    verdict = context.judge.check("tool_call", tool.name, json.dumps(arguments))
    if verdict is not ALLOW and verdict.action != "allow":
        return Decision(call, "blocked", blocked_result(verdict), **fields)
    return _gate(call, tool, arguments, ledger, context, fields)


def _review_put_right(
    call: ToolCall, arguments: dict[str, Any], recipient: Recipient, registry: Registry, ledger: CallLedger,
    context: GateContext,
) -> Decision:
    """The call with the recipient put right, reviewed again (the gate and approval still apply),
    the line it came from counted as returned by the user's files."""
    line = recipient.line
    from_files = Returned("your files", where(line), line.text, fenced=False)
    record = SessionRecord(context.record.typed, [*context.record.returned, from_files], context.record.calls)
    patched = replace(call, arguments=json.dumps({**arguments, "to": recipient.address}))
    decided = _review_one(patched, registry, ledger, replace(context, record=record))
    return replace(decided, put_right=recipient.note)


def recipient_from_files(tool: Tool, arguments: dict[str, Any], context: GateContext) -> str | None:
    """A name where a number or address goes whose lines in the user's files do not settle it
    (several of the kind, or none): sent back with those lines."""
    to = str(arguments.get("to", "")).strip()
    if to and not (EMAIL.search(to) or PHONE.search(to)) and (found := lines_naming(to, context.documents)):
        return fence("your files", render(found)) + "\n" + NAME_NOT_ADDRESS.format(to=to, tool=tool.name)
    return None


def no_address(tool_name: str, to: str) -> str | None:
    """A message's recipient that is no address of its kind, said before anyone is asked to approve
    it: asked to "Email the surgery", whose notes give a phone number alone, the 1.5B emailed "Park
    Lane Surgery, 01632 960333"."""
    to = to.strip()
    if tool_name == "send_email" and email_addresses(to) is None:
        return prompts.NO_ADDRESS.format(to=to, kind="an email address")
    if tool_name == "send_message" and not (is_phone(to) or is_email(to)):
        return prompts.NO_ADDRESS.format(to=to, kind="a phone number or email address")
    return None


@dataclass(frozen=True)
class SentBack:
    """What review sends back for a write or a message whose content is wrong."""

    fate: str
    why: str
    question: tuple[str, str] | None = None
    """(the question for the person, why the call did not run): a value they can give."""


def _added_ticked(context: GateContext, target: Path, content: str) -> ListToWrite | None:
    """An add to a list of tick boxes whose new line is ticked done ("- [x] Change address with the
    bank" for "Add … to the to-do list"): the list with it added unticked."""
    if asked_action(context.request) not in ADDING or not target.is_file():
        return None
    old = set(target.read_text(encoding="utf-8", errors="replace").splitlines())
    added = [line for line in content.splitlines() if line.strip() and line not in old]
    ready = ready_write(context.request, context.documents)
    if len(added) != 1 or not TICKED.search(added[0]) or ready is None or Path(context.cwd, ready.source).resolve() != target.resolve():
        return None
    return ready


TICKED = re.compile(r"^\s*[-*•]\s+\[[xX]\]")


TOLD_OF_SOMEONE = re.compile(r"^\W*(?!(?:I|I've|I'd|I'm|We|We've|You|He|She|They|It)\b)(?P<name>(?-i:[A-Z])[\w-]+)(?:'s|’s)?"
                             r"(?:\s+(?-i:[A-Z])[\w'-]+)?\s+(?:has\s+)?(?:just\s+)?[a-z]+ed\b",
                             re.IGNORECASE)
"""A thing told done by someone named ("Dev has collected his cake.", "Tom's confirmed for Saturday")."""


def someone_elses_line(request: str, target: Path, content: str) -> str:
    """The name of the one who did what the request tells of, where a write marks a line of a file
    that is not theirs: told "Dev has collected his cake.", the 1.5B wrote "(collected)" on notes.md's
    "Cake boxes: 6 left."."""
    told = TOLD_OF_SOMEONE.match(request)
    if told is None or asked_action(request) != "mark" or not target.is_file():
        return ""
    old = target.read_text(encoding="utf-8", errors="replace").splitlines()
    changed = [line for line in content.splitlines() if line.strip() and line not in old]
    name = told["name"]
    return name if changed and not any(re.search(rf"\b{re.escape(name)}\b", line) for line in [*changed, *old]) else ""


def _told_write(context: GateContext, target: Path) -> ListToWrite | None:
    """Told a thing was done on a day ("I sowed the garlic today.") or more of it came in, its table
    with the row's cells so set, where `target` is that table."""
    told = (cell_told(context.request, context.documents) or stock_topped_up(context.request, context.documents)
            or score_added(context.request, context.documents) if target.suffix.lower() in TABLE_SUFFIXES else None)
    return told if told is not None and Path(context.cwd, told.source).resolve() == target.resolve() else None


def _days_or_answer_set(context: GateContext, target: Path) -> ListToWrite | None:
    """Two days swapped, a weekday given to someone, someone's answer set, a job they did logged, a
    present bought for them marked, a value, price or day told, money into a pot, days off or a
    thing given at a time, where `target` is that file: the write that does it is the write (the
    drop guard refused "Reading: Western Lane" for the "Reading: The Bee Sting" it replaces)."""
    set_so = (days_swapped(context.request, context.documents) or days_taken(context.request, context.documents)
              or answer_told(context.request, context.documents) or job_logged(context.request, context.documents)
              or bought_for(context.request, context.documents) or value_changed(context.request, context.documents) or value_told(context.request, context.documents)
              or price_told(context.request, context.documents) or date_told(context.request, context.documents)
              or money_added(context.request, context.documents) or days_off_added(context.request, context.documents)
              or timed_line_added(context.request, context.documents))
    return set_so if set_so is not None and Path(context.cwd, set_so.source).resolve() == target.resolve() else None


def _row_in_place(context: GateContext, target: Path) -> ListToWrite | None:
    row = row_changed_in_place(context.request, context.documents, date.today()) if target.suffix.lower() in TABLE_SUFFIXES else None
    return row if row is not None and Path(context.cwd, row.source).resolve() == target.resolve() else None


def what_it_would_write(tool: Tool, arguments: dict[str, Any], context: GateContext) -> SentBack | None:
    """A write or a message whose content is wrong before it runs: lines of the file nobody asked
    to drop or the line asked to go kept, the file written back with nothing added or changed, the
    request itself added as a line for a change, a new file written
    to remove a line another file holds or to add to a list the folder holds, an added line written twice, without the day or time every other line has or with
    nothing of the request, a sum
    nobody worked out, a time, day or number nobody gave, a value asked for and left out."""
    target = Path(context.cwd, os.path.expanduser(arguments.get("path", "")))
    # first: the drop guard would keep a table's rows around the list it was given
    if tool.name == WRITE_FILE and (named := list_it_goes_on(context.request, target, context.documents)):
        return SentBack("invalid", new_list_refusal(arguments["path"], named, table=target.exists()))
    if tool.name == WRITE_FILE and (holding := heading_as_a_file(target, context.documents)):
        return SentBack("invalid", heading_refusal(arguments["path"], holding))
    if tool.name == WRITE_FILE and (row := row_instead_of_a_new_file(context.request, target, context.documents)):
        return SentBack("invalid", new_list_refusal(arguments["path"], row))
    if tool.name == WRITE_FILE and (row := row_against_the_request(context.request, target, str(arguments.get("content", "")),
                                                                    date.today())):
        return SentBack("invalid", ROW_AS_ASKED.format(path=arguments["path"], content=row.content))
    if tool.name == WRITE_FILE and (ready := _added_ticked(context, target, str(arguments.get("content", "")))):
        return SentBack("invalid", ADDED_TICKED.format(path=arguments["path"], content=ready.content))
    if tool.name == WRITE_FILE and (name := someone_elses_line(context.request, target, str(arguments.get("content", "")))):
        return SentBack("invalid", NOT_THEIR_LINE.format(name=name, path=arguments["path"]))
    if tool.name == WRITE_FILE and (told := _told_write(context, target)):
        # the write the request tells of is the write: other checks would read "fish" as Aunt Jean's line to change
        same = str(arguments.get("content", "")).strip() == told.content.strip()
        return None if same else SentBack("invalid", CELL_AS_TOLD.format(path=arguments["path"], content=told.content))
    if tool.name == WRITE_FILE and (set_so := _days_or_answer_set(context, target)):
        same = str(arguments.get("content", "")).strip() == set_so.content.strip()
        return None if same else SentBack("invalid", SET_AS_TOLD.format(path=arguments["path"], content=set_so.content))
    if tool.name == WRITE_FILE and (in_place := _row_in_place(context, target)):
        same = str(arguments.get("content", "")).strip() == in_place.content.strip()
        return None if same else SentBack("invalid", ROW_IN_PLACE.format(path=arguments["path"], content=in_place.content))
    if tool.name == WRITE_FILE and (dropped := dropped_lines(context.request, target, arguments["content"])):
        suggested = content_to_write(context.request, target, arguments["content"])
        return _new_lines_guessed(target, arguments, context) or SentBack(
            "invalid", overwrite_refusal(arguments["path"], dropped, suggested))
    if tool.name == WRITE_FILE and (doubled := doubled_lines(context.request, target, arguments["content"])):
        suggested = content_to_write(context.request, target, arguments["content"])
        return _new_lines_guessed(target, arguments, context) or SentBack(
            "invalid", doubled_refusal(arguments["path"], doubled, suggested))
    if tool.name == WRITE_FILE and (kept := kept_lines(context.request, target, arguments["content"])):
        suggested = content_to_write(context.request, target, arguments["content"])
        return _new_lines_guessed(target, arguments, context) or SentBack("invalid", kept_refusal(
            arguments["path"], kept, suggested, changing=asked_action(context.request) in CHANGING))
    if tool.name == WRITE_FILE and adds_nothing(context.request, target, arguments["content"]):
        return SentBack("invalid", adds_nothing_refusal(arguments["path"], context.request))
    if tool.name == WRITE_FILE and (line := request_as_a_line(context.request, target, arguments["content"])):
        return SentBack("invalid", request_as_a_line_refusal(arguments["path"], line))
    if tool.name == WRITE_FILE and (found := where_it_is(context.request, target, context.documents)):
        return SentBack("invalid", nothing_there_refusal(arguments["path"], found))
    if tool.name == EDIT_FILE and (dropped := lines_an_add_edit_drops(
        context.request, str(arguments.get("old", "")), str(arguments.get("new", ""))
    )) and target.is_file():
        suggested = content_to_write(context.request, target, str(arguments.get("new", "")))
        return SentBack("invalid", overwrite_refusal(arguments["path"], dropped, suggested, tool=EDIT_FILE))
    if tool.name in (WRITE_FILE, EDIT_FILE) and not context.when_unknown and (lacking := added_line_lacks_when(
        context.request, target, str(arguments.get("content", arguments.get("new", "")))
    )):
        line, lacks = lacking
        question = prompts.WHEN_IS_IT.format(path=arguments["path"], lacks=lacks, line=line)
        return SentBack("invalid", WHEN_LEFT_OUT.format(tool=tool.name, path=arguments["path"], lacks=lacks, line=line),
                        (question, f"'{line}' went without {lacks}"))
    if tool.name in (WRITE_FILE, EDIT_FILE) and (off := added_line_off_request(
        context.request, target, str(arguments.get("content", arguments.get("new", ""))),
        context.record.known_text(context.seen),
    )):
        return SentBack("invalid", OFF_REQUEST.format(tool=tool.name, line=off, request=context.request))
    if tool.risk not in ("write", "messaging"):
        return None
    if tool.name in (WRITE_FILE, EDIT_FILE) and target.is_file():
        # what the file holds is no guess: offered the table with Netflix's row added, the 1.5B wrote it, and
        # "950.00", the rent row's, was refused as a guess five times (the table was not in the ground)
        context = replace(context, seen=f"{context.seen}\n{file_text(target)}")
    return _what_it_carries(tool.name, arguments, addresses_of(tool), context)


WORKED_SUM = re.compile(r"(?P<parts>(?:[^=;:]*?\d[\d.]*\s*\+\s*)+[^=;:]*?\d[\d.]*)\s*=\s*(?P<total>\d[\d.]*)")
TERM = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])")


def total_added_again(expression: str, seen: str) -> str | None:
    """A sum the ground worked out, added again to its own parts in a calculate expression: shown
    "Rent 850 + … + Gym 35 = 1055.99", the 1.5B calculated "850 + 142 + 18 + 10.99 + 35 + 1055.99"."""
    terms = [Decimal(term) for term in TERM.findall(expression)]
    for line in seen.splitlines():
        if not line.startswith(WORKED_OUT):
            continue
        for found in WORKED_SUM.finditer(line):
            parts = [Decimal(term) for term in TERM.findall(found["parts"])]
            total = Decimal(found["total"])
            if len(parts) > 1 and total in terms and all(terms.count(part) >= parts.count(part) for part in parts):
                return found["total"]
    return None


def _new_lines_guessed(target: Path, arguments: dict[str, Any], context: GateContext) -> SentBack | None:
    """A guess in the lines a write adds, sent back before a refusal that would offer the file to
    write with them: offered "Leo - 07700 900312" (a number the 1.5B made up) as contacts.txt's
    line, it wrote it, the number now "known" from the refusal."""
    held = set(file_text(target).splitlines())
    added = "\n".join(line for line in str(arguments.get("content", "")).splitlines() if line not in held)
    return _guess_sent_back(WRITE_FILE, {"content": added}, frozenset(), context)


def _guess_sent_back(name: str, arguments: dict[str, Any], skip: frozenset[str], context: GateContext) -> SentBack | None:
    shown = shown_for_values(context.request, context.seen)
    if name in (SEND_MESSAGE, SEND_EMAIL):
        shown = lines_about(context.request, shown)
    if guess := guessed_value(arguments, context.record, skip, shown):
        argument, value = guess
        question = prompts.WHICH_VALUE.format(value=value, tool=name, name=argument)
        return SentBack("refused_guess", GUESSED.format(value=value, name=argument), (question, f"'{value}' was a guess"))
    return None


ANY_DAY = frozenset(stems("today tomorrow tonight morning afternoon evening night week weekend monday tuesday wednesday"
                          " thursday friday saturday sunday"))


def lines_about(request: str, shown: str) -> str:
    """The lines shown that a message may take a value from: the clock's, and those sharing a word
    with the request besides a day's. Asked to text Priya whether she can take in a parcel
    tomorrow, the 1.5B added "I'll be there at 7pm", the time of Dan's drinks in another line. A
    file the request names, by its name or its heading, is read whole ("Email Grandma the pancake
    recipe": recipes/pancakes.md)."""
    asked = stems(request) - ANY_DAY
    kept, whole = [], False
    lines = shown.splitlines()
    for at, line in enumerate(lines):
        if line.startswith("--- "):  # a file the request names, or whose heading it names, is asked whole ("the recipe")
            name = re.sub(r"[^a-z]+", " ", line[4:].split(" (")[0].lower())
            whole = bool((stems(name) | stems(lines[at + 1] if at + 1 < len(lines) else "")) & asked)
        elif line.startswith("</outside"):
            whole = False
        if whole or line.startswith("Now:") or stems(line) & asked:
            kept.append(line)
    return "\n".join(kept)


def _what_it_carries(name: str, arguments: dict[str, Any], skip: frozenset[str], context: GateContext
                     ) -> SentBack | None:
    """A sum nobody worked out (calculate's business, before the guess), then a value nobody gave
    or one asked for and left out (the person's, when it is not a sum), then the thing a line read
    gives under the request's word for it, left out."""
    known = context.record.known_text(context.seen)
    values = (v for k, v in arguments.items() if k not in skip and isinstance(v, str))
    if number := next((n for v in values if (n := uncomputed_number(v, context.request, known, []))), None):
        return SentBack("refused_guess", NOT_WORKED_OUT.format(number=number, tool=name))
    if guessed := _guess_sent_back(name, arguments, skip, context):
        return guessed
    if against := weekday_against_said(arguments, context.record, skip):
        written, its_day, said_day = against
        return SentBack("invalid", prompts.WEEKDAY_AGAINST_SAID.format(written=written, its_day=its_day, said=said_day))
    if beside := weekday_beside_another_date(arguments, skip):
        written, its_day = beside
        return SentBack("invalid", prompts.WEEKDAY_BESIDE_ANOTHER_DATE.format(written=written, its_day=its_day))
    if asked_action(context.request) in REMOVING:  # "Remove the laptop from my warranties": its line is to go
        return None
    if phrase := value_left_out(context.request, arguments, skip):
        if COMPUTE_REQUEST.search(context.request):
            worked = next((line.removeprefix(WORKED_OUT).strip() for line in context.seen.splitlines()
                           if line.startswith(WORKED_OUT)), "")
            how = WORKED_OUT_ALREADY.format(worked=worked) if worked else WORK_IT_OUT
            return SentBack("invalid", LEFT_OUT.format(tool=name, phrase=phrase, how=how))
        yours = YOUR.sub(lambda m: "your" if m.group(0).islower() else "Your", phrase)
        question = prompts.WHICH_LEFT_OUT.format(tool=name, phrase=yours)
        return SentBack("invalid", LEFT_OUT.format(tool=name, phrase=phrase, how=LOOK_OR_ASK),
                        (question, f"it went without {phrase}"))
    if left_out := labelled_value_left_out(context.request, arguments, skip, known):
        phrase, line = left_out
        return SentBack("invalid", LABELLED_LEFT_OUT.format(tool=name, phrase=phrase, line=line))
    if name in (SEND_MESSAGE, SEND_EMAIL) and (quote := quote_left_out(context.request, arguments, skip)):
        return SentBack("invalid", QUOTE_LEFT_OUT.format(tool=name, quote=quote))
    if name in (SEND_MESSAGE, SEND_EMAIL) and (to := own_address_carried(arguments, skip)):
        return SentBack("invalid", OWN_ADDRESS_CARRIED.format(tool=name, to=to))
    if name in (SEND_MESSAGE, SEND_EMAIL) and (refusal := next(
            (found.group(0) for k, v in arguments.items() if k not in skip and isinstance(v, str) and (found := REFUSAL.search(v))), None)):
        return SentBack("invalid", REFUSAL_SENT.format(tool=name, refusal=refusal, request=context.request))
    if name in (SEND_MESSAGE, SEND_EMAIL) and (blank := next(
            (found.group(0) for k, v in arguments.items() if k not in skip and isinstance(v, str)
             and (found := BLANK.search(v))), None)):
        return SentBack("invalid", BLANK_LEFT.format(tool=name, blank=blank))
    return None


QUOTED = re.compile(r"""(?<!\w)['"‘“](?P<words>[^'"’”]{3,300}?)['"’”](?!\w)""")


def quote_left_out(request: str, arguments: dict[str, Any], skip: frozenset[str]) -> str | None:
    """The one quoted passage of two words or more the request gives ("Send this to Jo by text:
    'Running late, start without me'"), when the message carries it nowhere: the 1.5B texted Jo
    "I'll send the message to Jo by text, not email."."""
    quotes = [m.group("words").strip() for m in QUOTED.finditer(request) if len(m.group("words").split()) >= 2]
    carried = " ".join(str(v) for k, v in arguments.items() if k not in skip and isinstance(v, str))
    if len(quotes) != 1 or _plain_words(quotes[0]) in _plain_words(carried):
        return None
    return quotes[0]


def _plain_words(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def _review_remember(
    call: ToolCall, arguments: dict[str, Any], context: GateContext, fields: dict[str, Any]
) -> Decision:
    """Skipping the prompt has to be earned: only a fact made of the user's own words is saved
    silently; anything else asks, and says why (seed 001)."""
    decided = decide_remember(str(arguments.get("fact", "")), context.memory)
    if decided.outcome == "refuse":
        return Decision(call, "refused", decided.reason, setback=not context.memory.off_reason, **fields)
    fate = "approved" if decided.outcome == "save" else "needs_approval"
    return Decision(call, fate, reason=decided.reason, remember=decided, **fields)


def _gate(
    call: ToolCall, tool: Tool, arguments: dict[str, Any], ledger: CallLedger,
    context: GateContext, fields: dict[str, Any],
) -> Decision:
    reach = Reach.of(context.cwd, context.kb_dir)
    policy = gate_verdict(tool.name, tool.risk, arguments, context.gate, reach)
    if policy.decision == "deny":
        ledger.record_declined(fields["signature"])
        return Decision(call, "declined", f"declined by policy: {policy.reason}", reason=policy.reason, **fields)
    own_place = _own_place(tool, arguments, reach)
    named = addresses_named(context.request, context.documents) if tool.risk == "messaging" else frozenset()
    to_named = tool.risk == "messaging" and str(arguments.get("to", "")).strip().lower() in named
    escalation = (outside_escalation(arguments, context.record, own_place, named, own_files=to_named)
                  if tool.risk != "read_only" else None)
    if escalation is None:
        if policy.decision == "allow":
            return Decision(call, "approved", reason=policy.reason, **fields)
        preapproved = {approval_key(tool, arguments), tool.name} & context.approved
        if preapproved:
            return Decision(call, "approved", reason=f"approved: {sorted(preapproved)[0]}", **fields)
    reason = f"{policy.reason}; escalated: {escalation}" if escalation else policy.reason
    return Decision(call, "needs_approval", reason=reason, tell_model_why=policy.tell_model_why, **fields)


def _own_place(tool: Tool, arguments: dict[str, Any], reach: Reach) -> str | None:
    """The file tool's target argument when it names a place in the working folder or the KB."""
    target = tool.target
    if tool.risk != "write" or not target or not isinstance(arguments.get(target), str):
        return None
    return target if reach.inside(reach.real(arguments[target])) else None
