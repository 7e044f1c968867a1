"""Review: what happens to each call a pass proposed, before anything runs.

cap -> ask_user alone -> validation -> ask_user (asked before? the request said back?) -> loop rules ->
recipient (a name: the address the person's files give for it; an address nobody gave: refused
and named; several contacts match: which one?) ->
entry (the person's words fit several entries of the file: which one?) -> remember -> dependency gate -> judge (tool_call) -> gate policy.

The recipient rule comes before anything else that touches a messaging call: an
address or number nobody typed and no tool returned is refused (seed 000), whatever
else is wrong with the call. No side effects (it reads the person's files for an entry or a
contact, as the file tools would, bounded): the tool round runs what comes back approved,
asks the person about what needs approval, and sends every other call its result.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import msgspec

from saturnd.gate.judge import ALLOW, Judge, JudgeConfig, blocked_result
from saturnd.gate.policy import GateConfig, gate_verdict
from saturnd.gate.provenance import (
    EMAIL,
    PHONE,
    SessionRecord,
    outside_escalation,
    parent_missing,
    recipient_refusal,
)
from saturnd.gate.reach import Reach
from saturnd.memory.remember import REMEMBER, MemoryGate, RememberDecision, decide_remember
from saturnd.model.types import ToolCall
from saturnd.tools.builtin_files import lines_under
from saturnd.tools.edits import ADD_ITEMS
from saturnd.tools.registry import CHANGING_RISKS, Registry, Tool
from saturnd.turn.checks import asks_request_back, is_the_request
from saturnd.turn.contacts import contacts_named, same_name_contacts, shown_in
from saturnd.turn.loop_rules import CallLedger, call_signature
from saturnd.turn.routes import gives_address
from saturnd.turn.validation import Invalid, validate_call
from saturnd.turn.which_one import also_meant, best_fits, most_named, names_none

ASK_USER = "ask_user"
ASK_FIRST = "not run: ask first. ask_user runs alone; call this again after the user answers."
LOOK_RECIPIENT_UP = ("look the recipient up with a tool first (read the file or query the table that lists them), "
                     "then send to the address it returns; or ask the user")
"""What a refused recipient's result tells the model: the 1.5B copies an address from the files
the prompt shows, which the gate may not take as given (they are outside content); a tool's
result is a source, and then the fenced-content escalation applies."""
ADDRESS_KINDS: dict[str, tuple[re.Pattern[str], ...]] = {"send_email": (EMAIL,)}
"""What a messaging tool sends to, in the order a contact's line is read for it (else a number,
then an email: send_message takes an iMessage email too)."""
ASKS_REQUEST_BACK = ("not asked: the question is the user's own request again, and they asked it of you. Do what it"
                     " asks with your tools, or tell the user plainly, in their language, what you cannot do and why.")
"""The 1.5B put a request no tool can do (launch a weather balloon, stop 54) to the person as its question."""


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
    typed: str = ""
    """The request as the user typed it this turn."""
    request: str = ""
    """The user's words this turn, with what they answered ask_user: whose name a message's
    recipient or an edit's entry is called by."""
    asked: bool = False
    """The person was asked which one this turn: their answer settles it (it need not share a word)."""
    answers: tuple[str, ...] = ()
    """What the person answered this turn: an edit whose words fit several entries is made to
    name the one of them these name."""


def look_recipient_up(arguments: dict[str, Any], record: SessionRecord) -> str:
    """Where to look a refused recipient up: the file the ground showed it in, named, when it was
    one (stop 55's first run: 3 of 4 messages sent to a number the excerpts showed were refused,
    and the queries written to look it up filtered it away)."""
    source = next((found for value in arguments.values() if isinstance(value, str)
                   for address in [*EMAIL.findall(value), *PHONE.findall(value)]
                   if (found := shown_in(address, record))), None)
    if source is None:
        return LOOK_RECIPIENT_UP
    reader = f"kb_read {source.removeprefix('kb:')}" if source.startswith("kb:") else f"read_file {source}"
    return f"it is in {source}, which you were shown: call {reader}, then send to the address it returns; or ask the user"


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
    | refused_recipient | which_contact | which_entry | refused | blocked | ask_first | capped."""
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
    """Refused for something the model must correct where the fate alone does not say so."""
    remember: RememberDecision | None = None
    """For a `remember` call: memory's decision on the fact, which saving carries out."""
    choices: tuple[str, ...] = ()
    """For which_contact / which_entry: the contacts' lines or the entries to ask between, the
    model's choice first."""

    @property
    def runs(self) -> bool:
        return self.fate in ("approved", "ask_user")


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
            decisions.append(review_one(call, registry, ledger, context))
    decisions += [Decision(c, "capped") for c in beyond]
    return decisions


def review_one(call: ToolCall, registry: Registry, ledger: CallLedger, context: GateContext) -> Decision:
    checked = validate_call(call, registry)
    if isinstance(checked, Invalid):
        return Decision(call, "invalid", f"tool error: {checked.message}")
    tool, arguments = checked.tool, checked.arguments
    signature = call_signature(call.name, arguments)
    fields: dict[str, Any] = {"tool": tool, "params": checked.params, "arguments": arguments, "signature": signature}
    if call.name == ASK_USER:
        if (asked := ledger.asked_before(signature)) is not None:
            return Decision(call, "refused_loop", asked, setback=True, **fields)
        if asks_request_back(context.request, str(arguments.get("question", ""))):
            return Decision(call, "refused", ASKS_REQUEST_BACK, setback=True, **fields)
        return Decision(call, "ask_user", **fields)
    resolved = ""
    if tool.risk == "messaging" and (to := str(arguments.get("to", ""))).strip() and not gives_address(to):
        found = contacts_named(to, ADDRESS_KINDS.get(tool.name, (PHONE, EMAIL)), Reach.of(context.cwd, context.kb_dir))
        if len(found) > 1:
            return Decision(call, "which_contact", choices=tuple(c.line for c in found), **fields)
        if found:
            # the name the model gave is the recipient the person's own files give an address for
            arguments = {**arguments, "to": found[0].address}
            resolved = f"to {to.strip()}: {found[0].address}, from {found[0].source}"
            fields |= {"params": msgspec.structs.replace(checked.params, to=found[0].address), "arguments": arguments,
                       "signature": call_signature(call.name, arguments)}
    if tool.entry_fits and context.answers and (named := _named_by_answer(tool, checked.params, context)):
        label, params = named
        arguments = msgspec.to_builtins(params)
        resolved = f"the entry the user's answer names: {label[:120]}"
        fields |= {"params": params, "arguments": arguments, "signature": call_signature(call.name, arguments)}
    if tool.risk == "messaging" and not resolved and (unknown := recipient_refusal(arguments, context.record)) is not None:
        return Decision(call, "refused_recipient", f"refused: {unknown}; {look_recipient_up(arguments, context.record)}",
                        setback=True, **fields)
    if tool.risk in CHANGING_RISKS and (echo := _request_as_content(arguments, context)) and ledger.first_warning(
            f"request {signature}"):
        return Decision(call, "refused", echo, setback=True, **fields)
    if (refusal := ledger.refusal(signature)) is not None:
        fate, why = refusal
        return Decision(call, fate, why, setback=True, **fields)
    if tool.risk == "messaging" and (sent := ledger.sent_before(str(arguments.get("to", "")))):
        return Decision(call, "refused_loop", sent, **fields)
    if tool.risk == "messaging" and not resolved and len(choices := same_name_contacts(
            str(arguments.get("to", "")), context.request, context.record)) > 1:
        return Decision(call, "which_contact", choices=tuple(c.line for c in choices), **fields)
    if tool.risk == "messaging" and (bare := _figure_left_out(arguments, ledger)) and ledger.first_warning(f"figure {signature}"):
        return Decision(call, "refused", bare, setback=True, **fields)
    if tool.names_entry and not context.asked and (entries := _entries_meant(tool, checked.params, context)):
        return Decision(call, "which_entry", choices=entries, **fields)
    if tool.names_entry and (unnamed := _entry_unnamed(tool, checked.params, context)) and ledger.first_warning(signature):
        return Decision(call, "refused", unnamed, setback=True, **fields)
    if tool.name == ADD_ITEMS.name and (unsaid := _items_unsaid(arguments, context)) and ledger.first_warning(signature):
        return Decision(call, "refused", unsaid, setback=True, **fields)
    if tool.name == REMEMBER:
        return _review_remember(call, arguments, context, fields)
    if tool.parent and parent_missing(tool.parent, tool.target, arguments, context.record, context.cwd):
        target = f" of {arguments[tool.target]}" if tool.target in arguments else ""
        why = f"⛔ call {tool.parent} first: {tool.name} needs {tool.parent}{target} earlier in this session."
        return Decision(call, "needs_parent", why, **fields)
    verdict = context.judge.check("tool_call", tool.name, json.dumps(arguments))
    if verdict is not ALLOW and verdict.action != "allow":
        return Decision(call, "blocked", blocked_result(verdict), **fields)
    decided = _gate(call, tool, arguments, ledger, context, fields)
    return replace(decided, reason=f"{resolved}; {decided.reason}") if resolved else decided


ADDRESSING = frozenset({"to", "path", "under", "match", "item", "field"})
"""Arguments that say where a change goes, not what it says: these may be the person's words."""


def _request_as_content(arguments: dict[str, Any], context: GateContext) -> str:
    """Why a changing call whose content (a message's body, a new item, a value) is the person's
    request again is refused once; "" when none is."""
    texts = [str(v) for k, value in arguments.items() if k not in ADDRESSING
             for v in (value if isinstance(value, list) else [value]) if isinstance(v, str)]
    echoed = next((t for t in texts if is_the_request(context.typed, t)), "")
    return REQUEST_AS_CONTENT.format(echoed=echoed[:120]) if echoed else ""


REQUEST_AS_CONTENT = ("refused once: {echoed!r} is the user's request itself, word for word, not what it asks to"
                      " write or send. Do what it asks: put in the call what the request means (the message, the item,"
                      " the value), worked out from the files and your tools; if no tool can do it, say so plainly in"
                      " the user's language. To make this call as it is after all, make it again.")


def _figure_left_out(arguments: dict[str, Any], ledger: CallLedger) -> str:
    """Why a message that holds no figure at all is refused once, when this turn worked one out
    for it (an aggregate query, a calculation); "" when it holds one or nothing was worked out
    (stop 59's first run: the November hours were summed, and the email said "here are the
    hours" with no number). The same call again goes on."""
    said = " ".join(str(v) for k, v in arguments.items() if k != "to")
    worked = ledger.worked_out()
    if not worked or any(c.isdigit() for c in said):
        return ""
    return FIGURE_LEFT_OUT.format(worked=worked.strip()[:300])


FIGURE_LEFT_OUT = ("refused once: the message holds none of what this turn worked out for it ({worked}). Put the"
                   " figure the user asked for in the message; to send it as it is, make the same call again.")


def _named_by_answer(tool: Tool, params: Any, context: GateContext) -> tuple[str, Any] | None:
    """An edit whose words fit several entries, made to name the one the person's answers this
    turn name (stop 61's first run: asked which 1000-peseta note, the person said "the one of
    Cortés and Pizarro, of 1992", and the 1.5B set the value by "1000 pesetas" again, which fits
    both)."""
    assert tool.entry_fits is not None
    fits = tool.entry_fits(params, Path(context.cwd))
    named = most_named([label for label, _ in fits], " ".join(context.answers))
    return None if named is None else fits[named]


def _entries_meant(tool: Tool, params: Any, context: GateContext) -> tuple[str, ...]:
    """The entry an edit names and the others the person's words fit as well, or ()."""
    assert tool.names_entry is not None
    named = tool.names_entry(params, Path(context.cwd))
    if named is None:
        return ()
    chosen, others = named
    meant = also_meant(chosen, others, context.request)
    return (chosen, *meant) if meant else ()


ENTRY_FILES = 200
"""Files read for the lines the person's words fit: review runs on the daemon's loop."""


def _entry_unnamed(tool: Tool, params: Any, context: GateContext) -> str | None:
    """Why an edit's entry is not one the person's words name, with the lines of their files those
    words fit; None when they name it (or the edit names no one entry)."""
    assert tool.names_entry is not None
    named = tool.names_entry(params, Path(context.cwd))
    if named is None or not names_none(named[0], context.request):
        return None
    reach = Reach.of(context.cwd, context.kb_dir)
    lines = [(f"{path}:{number}", line) for path, number, line in lines_under(Path(context.cwd), reach, ENTRY_FILES)]
    fits = best_fits(lines, context.request)
    where = f" Lines of their files their words fit: {'; '.join(fits)}." if fits else ""
    return (f"refused once: the user's words name nothing in the entry this edits ({named[0][:120]!r}).{where}"
            " Edit the entry they mean, in its file; if their words fit several, ask which. To edit this one"
            " after all, make the same call again.")


def _items_unsaid(arguments: dict[str, Any], context: GateContext) -> str | None:
    """Why new items that share no word with what the person typed are not theirs (stop 57: the
    1.5B added copies of the rows the ground showed, a French bat count and a Ukrainian order)."""
    items = arguments.get("items")
    texts = [" ".join(map(str, i.values())) if isinstance(i, dict) else str(i)
             for i in (items if isinstance(items, list) else [])]
    unsaid = [t for t in texts if names_none(t, context.request)]
    if not unsaid:
        return None
    return (f"refused once: these new items share no word with what the user typed: {'; '.join(t[:120] for t in unsaid)}."
            " Add what the user asked to add, with the values they gave; to add these after all, make the same call again.")


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
    # a message to an address the user's own files gave may carry what those files hold
    own_files = tool.risk == "messaging" and context.record.from_own_files(str(arguments.get("to", "")))
    escalation = (outside_escalation(arguments, context.record, own_place, own_files=own_files)
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
