"""Writes and messages the harness puts right in place before they are reviewed again.

A small model sent back with the fix often proposes the same call unchanged, or writes to the
folder instead of the file the user named. Where the request or an earlier send-back already
settles the right arguments, review patches the call, reviews it again (the gate and the
approval still apply) and the result opens with the note saying what was changed.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from saturnd.gate.provenance import (
    DAY_OR_MONTH,
    EMAIL,
    PHONE,
    guessed_value,
    labelled_value_left_out,
    shown_for_values,
    value_left_out,
)
from saturnd.tools.registry import Tool
from saturnd.tools.word_match import STEM_WORD, STOP_WORDS
from saturnd.turn import prompts
from saturnd.turn.added_items import item_as_asked, item_edited_as_asked
from saturnd.turn.errands import NAMED_FILE, NOT_BY_EMAIL, asked_action, first_sentence
from saturnd.turn.lists_named import (
    list_it_goes_on,
)
from saturnd.turn.look_first import (
    FoundLine,
    email_beside,
    lines_naming,
    people_messaged,
    phone_beside,
)
from saturnd.turn.loop_rules import recipient_key
from saturnd.turn.made_up import COMPUTE_REQUEST
from saturnd.turn.marks import (
    last_day_as_asked,
    last_day_in_edit,
    marked_as_asked,
    marked_in_edit,
    row_marked_as_asked,
    row_marked_in_edit,
    ticked_as_asked,
    ticked_in_edit,
)
from saturnd.turn.message_words import (
    as_a_reminder,
    in_the_senders_words,
    message_itself,
    the_question_asked,
    to_its_recipient,
    with_the_document_asked,
    with_the_words_asked,
    without_blank_lines,
    without_its_own_address,
    without_made_up_doings,
    without_the_request,
)
from saturnd.turn.overwrite import (
    EDIT_FILE,
    HARNESS_LINE,
    WRITE_FILE,
    content_to_write,
    doubled_lines,
    dropped_lines,
    file_text,
    kept_lines,
    line_named_elsewhere,
    where_it_is,
)
from saturnd.turn.retrieval import KB_SOURCE, Document
from saturnd.turn.table_rows import row_instead_of_a_new_file
from saturnd.turn.time_moves import time_moved_as_asked, time_moved_in_edit
from saturnd.turn.worked_lines import worked_entry_for

if TYPE_CHECKING:
    from saturnd.turn.review import GateContext


SEND_MESSAGE = "send_message"
SEND_EMAIL = "send_email"
TEXT_ASKED = re.compile(r"\b(?:text|sms|phone|mobile)\b", re.IGNORECASE)
EMAIL_ASKED = re.compile(r"\be-?mail", re.IGNORECASE)
CHANNEL_AND_NAME = re.compile(r"\b(?i:(?P<channel>text|sms|e-?mail))\s+(?P<name>[A-Z][\w'-]*)")
""""Text Petra and email Tom": who gets which."""
SUBJECT_WORDS = 8
BRACKETED = re.compile(r"\s*\([^)]*\)\s*")
""""Dave (the mechanic)": the name without what the brackets say of him."""


@dataclass(frozen=True)
class Recipient:
    """The one address the user's files give for a messaging call's recipient."""

    address: str
    line: FoundLine
    note: str
    """What the call's result opens with: which name or address became which, and from where."""


def where(line: FoundLine) -> str:
    return f"{line.source}:{line.line_number}"


def channel_put_right(
    tool_name: str, arguments: dict[str, Any], context: GateContext, offered: list[str]
) -> tuple[str, Recipient, dict[str, str]] | None:
    """(the other messaging tool, its recipient, its arguments) for a text or an email the user
    asked to go the other way, when the line giving the address (the request's, or the user's
    files') gives the other kind too: the request asks for a text and not an email ("Send this to
    Jo by text, not email": the 1.5B emailed Jo), or it pairs the person on that line with the
    other channel ("Text Petra and email Tom": the 1.5B texted Tom's email address). A text to an
    email address that no line gives a number beside goes as an email, unless the request asks
    for a text ("Tell the landlord …", house.md giving only his email: the 1.5B texted it)."""
    to = str(arguments.get("to", "")).strip()
    lines = [Document("the request", context.request), *context.documents]
    if tool_name == SEND_EMAIL and SEND_MESSAGE in offered and EMAIL.fullmatch(to):
        beside = phone_beside(to, lines)
        wanted = text_only(context.request) or (beside is not None and _paired(beside, context.request) == "text")
        text = str(arguments.get("body") or "").strip() or str(arguments.get("subject") or "").strip()
        if beside is None or not wanted or not text:
            return None
        phone = PHONE.search(beside.text)
        assert phone is not None  # phone_beside keeps only lines with one
        note = prompts.CHANNEL_PUT_RIGHT.format(kind="a text", address=to, other=phone.group(0), where=where(beside),
                                                tool=SEND_MESSAGE)
        return SEND_MESSAGE, Recipient(phone.group(0), beside, note), {"to": phone.group(0), "text": text}
    if tool_name == SEND_MESSAGE and SEND_EMAIL in offered and (emailed := _only_an_email(to, arguments, context)):
        return emailed
    if tool_name == SEND_MESSAGE and SEND_EMAIL in offered and to:
        beside = email_beside(to, lines) if PHONE.fullmatch(to) else phone_beside(to, lines)
        text = str(arguments.get("text") or "").strip()
        if beside is None or _paired(beside, context.request) != "email" or not text:
            return None
        email = EMAIL.search(beside.text)
        assert email is not None  # both lines hold the address the text went to and the other kind
        note = prompts.CHANNEL_PUT_RIGHT.format(kind="an email", address=to, other=email.group(0), where=where(beside),
                                                tool=SEND_EMAIL)
        return SEND_EMAIL, Recipient(email.group(0), beside, note), _as_an_email(email.group(0), text)
    return None


def _only_an_email(
    to: str, arguments: dict[str, Any], context: GateContext
) -> tuple[str, Recipient, dict[str, str]] | None:
    """A text to the email address of a person the request messages, where no line of the user's
    files gives a number beside it and the request does not ask for a text: it goes as an email."""
    text = str(arguments.get("text") or "").strip()
    if not EMAIL.fullmatch(to) or text_only(context.request) or not text:
        return None
    holding = lines_naming(to, context.documents)
    people = people_messaged(context.request)
    if not holding or any(PHONE.search(line.text) for line in holding) or not any(
            re.search(rf"\b{re.escape(person)}\b", line.text, re.IGNORECASE) for line in holding for person in people):
        return None
    note = prompts.ONLY_AN_EMAIL.format(address=to, where=where(holding[0]), tool=SEND_EMAIL)
    return SEND_EMAIL, Recipient(to, holding[0], note), _as_an_email(to, text)


def _as_an_email(to: str, text: str) -> dict[str, str]:
    subject = " ".join(first_sentence(text).split()[:SUBJECT_WORDS]).rstrip(".!")
    return {"to": to, "subject": subject, "body": text}


def text_only(request: str) -> bool:
    words = EMAIL.sub(" ", NOT_BY_EMAIL.sub(" ", request))
    return bool(TEXT_ASKED.search(words)) and not EMAIL_ASKED.search(words)


def _paired(line: FoundLine, request: str) -> str:
    """"text" or "email": how the request asks to reach the one person it pairs with a channel
    that `line` names, where it pairs people with both; else ""."""
    pairs = {m.group("name").lower(): "email" if "mail" in m.group("channel").lower() else "text"
             for m in CHANNEL_AND_NAME.finditer(request)}
    if len(set(pairs.values())) < 2:
        return ""
    named = [name for name in pairs if re.search(rf"\b{re.escape(name)}\b", line.text, re.IGNORECASE)]
    return pairs[named[0]] if len(named) == 1 else ""


def recipient_put_right(tool: Tool, arguments: dict[str, Any], context: GateContext) -> Recipient | None:
    """A recipient the user's files put right without a doubt: a name where the number or
    address goes (to: "mum") when the lines naming it give exactly one of the kind, for a text
    an email address whose line gives a phone number, and for an email a phone number (alone or
    with a name: "Greenway Vets, 01632 960111") whose line gives an email address. Sent back with the lines, the 1.5B sent to "mum" five times; it texted
    Ana's email address though contacts.md has her phone, and emailed Tom's phone number."""
    to = str(arguments.get("to", "")).strip()
    if to and not (EMAIL.search(to) or PHONE.search(to)):
        lines = lines_naming(to, context.documents) or lines_naming(BRACKETED.sub(" ", to), context.documents)
        found = _addresses_of_kind(tool.name, lines)
        if len(found) > 1:
            return None
        if found:
            ((address, named),) = found.items()
            return Recipient(address, named, prompts.NAME_PUT_RIGHT.format(to=to, address=address, where=where(named)))
    if tool.name == SEND_MESSAGE and EMAIL.fullmatch(to) and _a_text_asked(context.request) and \
            (beside := phone_beside(to, _lines_for_a_text(context))):
        phone = PHONE.search(beside.text)
        assert phone is not None  # phone_beside keeps only lines with one
        return Recipient(phone.group(0), beside, prompts.TEXT_PUT_RIGHT.format(
            address=to, phone=phone.group(0), where=where(beside)))
    number = PHONE.search(to) if tool.name == SEND_EMAIL and not EMAIL.search(to) else None
    if number is not None and (beside := email_beside(number.group(0), context.documents)):  # "Greenway Vets, 01632 960111"
        email = EMAIL.search(beside.text)
        assert email is not None  # email_beside keeps only lines with one
        return Recipient(email.group(0), beside, prompts.EMAIL_PUT_RIGHT.format(
            number=to, email=email.group(0), where=where(beside)))
    return _the_person_asked(tool.name, to, context)


TELLING = frozenset({"message", "tell", "let"})
"""Verbs of an errand that a text does unless the request names email ("Let Aunt Liz know …": the
1.5B texted her email address, with her mobile on the same line)."""


def _a_text_asked(request: str) -> bool:
    return TEXT_ASKED.search(request) is not None or (
        asked_action(request) in TELLING and EMAIL_ASKED.search(request) is None)


def _the_person_asked(tool_name: str, to: str, context: GateContext) -> Recipient | None:
    """The address of the one person the request messages, where the call's address is on none of
    their lines and their lines give exactly one of the kind: asked to let Grandma know, the 1.5B
    texted Uncle Tom's address from the same file. An address the user typed stays theirs, and so
    does every address once the person has been messaged."""
    people = people_messaged(context.request)
    lines = lines_naming(people[0], context.documents) if len(people) == 1 else []
    theirs = {recipient_key(a) for line in lines for a in _addresses(line.text)}
    if not to or recipient_key(to) in theirs | {recipient_key(a) for a in _addresses(context.request)}:
        return None
    found = _addresses_of_kind(tool_name, lines)
    if len(found) != 1 or any(recipient_key(str(c.arguments.get("to", ""))) in theirs for c in context.record.calls):
        return None  # once they have had it, another message is to someone else on purpose, and the gate judges it
    ((address, named),) = found.items()
    return Recipient(address, named, prompts.PERSON_PUT_RIGHT.format(
        to=to, person=people[0], address=address, where=where(named)))


def _lines_for_a_text(context: GateContext) -> list[Document]:
    """Where a text's phone number may come from: the user's files, unless the request gives an
    email address; then the request itself, when it asks for a text and not an email ("Send this
    to Jo by text, not email … jo@mail.example, +44 7700 900777": the 1.5B texted the address)."""
    if not EMAIL.search(context.request):
        return context.documents
    return [Document("the request", context.request)] if text_only(context.request) else []


def _addresses_of_kind(tool_name: str, lines: list[FoundLine]) -> dict[str, FoundLine]:
    """Distinct addresses the lines give that the tool sends to: a text goes to a phone number
    (to an email address only where the lines give no number), an email to an email address."""
    def found(pattern: re.Pattern[str]) -> dict[str, FoundLine]:
        by_key = {recipient_key(a): (a, line) for line in lines for a in pattern.findall(line.text)}
        return dict(by_key.values())

    if tool_name == SEND_MESSAGE:
        return found(PHONE) or found(EMAIL)
    return found(EMAIL)


def _addresses(text: str) -> list[str]:
    return [*EMAIL.findall(text), *PHONE.findall(text)]


SENDERS_OWN = frozenset({"me", "myself", "my", "i", "you", "user", "yourself", "sender"})
"""An address's name part that stands for the one sending: "me@example.com" for the "me" of
"Members: Sara, Imran, Beth, Tom, me"."""


def sender_left_out(arguments: dict[str, Any]) -> tuple[dict[str, Any], str] | None:
    """A message to several addresses without one made up for the sender: asked to "Email everyone"
    of a club whose members end with "me", the 1.5B added me@example.com, and the gate refused the
    whole email for it."""
    to = str(arguments.get("to", ""))
    addresses = EMAIL.findall(to)
    own = [a for a in addresses if a.split("@")[0].lower() in SENDERS_OWN]
    if not own or len(own) == len(addresses):
        return None
    others = ", ".join(a for a in addresses if a not in own)
    return {**arguments, "to": others}, prompts.SENDER_LEFT_OUT.format(address=", ".join(own))


def content_put_right(
    tool: Tool, arguments: dict[str, Any], context: GateContext
) -> tuple[dict[str, Any], str] | None:
    """(the arguments, the note) for a write or a message the harness puts right in place, from
    what the request names or what a send-back already gave; the call is then reviewed again."""
    if tool.risk == "write" and (named := file_in_folder(tool, arguments, context)):
        return named
    if tool.name == WRITE_FILE and (cleaned := without_the_grounds_lines(arguments, context)):
        return cleaned
    if tool.name in (WRITE_FILE, EDIT_FILE) and (untwinned := without_the_guessed_twin(tool.name, arguments, context)):
        return untwinned
    if tool.name == WRITE_FILE and (rewritten := overwrite_put_right(arguments, context)):
        return rewritten
    if tool.name == WRITE_FILE and (moved := list_put_right(arguments, context)):
        return moved
    if tool.name == WRITE_FILE and (kept := names_of_the_kind_asked(arguments, context)):
        return kept
    if tool.name in (WRITE_FILE, EDIT_FILE) and (line := line_put_right(tool.name, arguments, context)):
        return line
    if tool.name in (WRITE_FILE, EDIT_FILE) and (given := the_persons_value(tool.name, arguments, context)):
        return given
    if tool.risk == "messaging" and (said := next((fixed for fix in MESSAGE_FIXES
                                                   if (fixed := fix(arguments, context.request))), None)):
        return said
    if tool.risk == "messaging" and (carried := with_the_document_asked(arguments, context)):
        return carried
    if tool.risk == "messaging" and (signed := without_blank_lines(arguments)):
        return signed
    if tool.risk == "messaging" and (worked := worked_value_put_right(tool, arguments, context)):
        return worked
    if tool.risk in ("write", "messaging"):
        return labelled_line_put_right(tool, arguments, context)
    return None


YOUR = re.compile(r"\b(?:my|our)\b", re.IGNORECASE)
"""The user's "my" as said back to them: "the total of my budget" is "the total of your budget"."""


def worked_value_put_right(tool: Tool, arguments: dict[str, Any], context: GateContext) -> tuple[dict[str, Any], str] | None:
    """(the arguments, the note) when a message sent back for leaving out a figure the ground worked
    out ("the total of my budget": "totals over 5 rows: amount = 1745") comes back without it again:
    the figure is added as its own line. Sent back three times, the 1.5B emailed "Please find the
    total of your budget in the attached file." each time, and nothing was sent."""
    skip = addresses_of(tool)
    phrase = value_left_out(context.request, arguments, skip)
    entry = worked_entry_for(context.request, context.seen) if phrase and COMPUTE_REQUEST.search(context.request) else ""
    figure = re.search(r"= (\d[\d.]*)\s*$", entry.split(";")[0]) if entry else None
    texts = [k for k, v in arguments.items() if k not in skip and isinstance(v, str)]
    if phrase is None or figure is None or not texts:
        return None
    field = max(texts, key=lambda k: len(arguments[k]))
    if not _proposed_before(tool.name, field, arguments[field], context):
        return None
    said = YOUR.sub(lambda m: "your" if m.group(0).islower() else "Your", phrase)
    line = f"{said[0].upper()}{said[1:]}: {figure.group(1)}"
    return {**arguments, field: f"{arguments[field].rstrip()}\n\n{line}"}, prompts.LINE_PUT_RIGHT.format(
        phrase=phrase, field=field, line=line)


MESSAGE_FIXES = (message_itself, without_the_request, in_the_senders_words, with_the_words_asked, without_its_own_address,
                 the_question_asked, to_its_recipient, as_a_reminder, without_made_up_doings)
"""What a message says put right from the request's words, the first that applies (message_words.py)."""
LINE_FIXES = (
    (item_as_asked, item_edited_as_asked, prompts.ITEM_PUT_RIGHT),
    (time_moved_as_asked, time_moved_in_edit, prompts.TIME_PUT_RIGHT),
    (last_day_as_asked, last_day_in_edit, prompts.LAST_DAY_PUT_RIGHT),
    (marked_as_asked, marked_in_edit, prompts.MARK_PUT_RIGHT),
    (row_marked_as_asked, row_marked_in_edit, prompts.MARK_PUT_RIGHT),
    (ticked_as_asked, ticked_in_edit, prompts.TICK_PUT_RIGHT),
)
"""(for a write's content, for an edit's old and new text, the note): an add's line as the request words its
item and the list writes its lines; a time changed alone in its line; a thing done today, its line's last day set to today; a line marked done with its words kept;
a line with a tick box ticked, not deleted."""


def line_put_right(tool_name: str, arguments: dict[str, Any], context: GateContext) -> tuple[dict[str, Any], str] | None:
    """(the arguments, the note) for a write or an edit whose one changed line is not as asked: asked
    to "Add charge the camera to my trip list", the 1.5B wrote "charge the camera to my trip list"
    under "- get euros", dropping the file's blank lines; asked to "Move Ella's piano to 5pm", it
    dropped the piano's "Thursday". The line is put as asked, in the file's own text."""
    target = Path(context.cwd, os.path.expanduser(str(arguments.get("path", ""))))
    for in_write, in_edit, note in LINE_FIXES:
        patched: dict[str, Any] | None = None
        if tool_name == WRITE_FILE:
            if (content := in_write(context.request, target, str(arguments.get("content", "")))) is not None:
                patched = {**arguments, "content": content}
        elif edit := in_edit(context.request, target, str(arguments.get("old", "")), str(arguments.get("new", ""))):
            patched = {**arguments, "old": edit[0], "new": edit[1]}
        if patched is not None:
            return patched, note.format(path=arguments.get("path", ""))
    return None


PERSONS_VALUE = re.compile(r"\b(?:to|at|with)\s+(?:the\s+)?(?:value|number|figure|amount|setting|one|limit)\s+(?:that\s+)?"
                           r"(?:my|our|the|I|we|they|he|she)\b[^.?!]*?\b(?:agreed|decided|said|told|chose|picked|settled|"
                           r"wants?|gave|give|suggested)\b", re.IGNORECASE)
"""A request to set a thing to a value only the person knows: "to the value my team agreed on"."""
NUMBER_SAID = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.]*\d)")


def persons_number(replies: Iterable[str]) -> str | None:
    """The number of the last of the person's answers that gives one number ("We agreed on 45")."""
    given = [found[0] for reply in replies if len(found := NUMBER_SAID.findall(reply)) == 1]
    return given[-1] if given else None


def the_persons_value(tool_name: str, arguments: dict[str, Any], context: GateContext) -> tuple[dict[str, Any], str] | None:
    """(the arguments, the note) for a write that sets a thing to a value only the person knows,
    asked with ask_user, where the one line it changes holds another number than the one they gave:
    told "We agreed on 45", the 1.5B added it to the file's 30 and wrote "timeout = 75"."""
    if not PERSONS_VALUE.search(context.request):
        return None
    number = persons_number(r.text for r in context.record.returned if r.tool == "ask_user")
    target = Path(context.cwd, os.path.expanduser(str(arguments.get("path", ""))))
    if number is None or not target.is_file():
        return None
    text = target.read_text(encoding="utf-8", errors="replace")
    new_text = text.replace(str(arguments.get("old", "")), str(arguments.get("new", "")), 1) if tool_name == EDIT_FILE \
        else str(arguments.get("content", ""))
    old_lines, new_lines = text.splitlines(), new_text.splitlines()
    lost = [line for line in old_lines if line not in new_lines]
    came = [line for line in new_lines if line not in old_lines]
    if len(lost) != 1 or len(came) != 1 or len(written := NUMBER_SAID.findall(came[0])) != 1 or written[0] == number:
        return None
    fixed = NUMBER_SAID.sub(number, came[0])
    field = "new" if tool_name == EDIT_FILE else "content"
    patched = {**arguments, field: str(arguments.get(field, "")).replace(came[0], fixed, 1)}
    return patched, prompts.PERSONS_VALUE_PUT_RIGHT.format(number=number, written=written[0], path=arguments.get("path", ""))


KB_PATH = re.compile(r"^\s*(?:kb|knowledge[ _-]?base)\s*[:/]\s*(?P<name>\S.*?)\s*$", re.IGNORECASE)
FILE_READERS = ("read_file", "search_files")


def kb_read_instead(tool_name: str, arguments: dict[str, Any], offered: list[str]) -> dict[str, Any] | None:
    """kb_read's arguments for a file tool given a knowledge-base document's path ("kb:people.md"):
    told the knowledge base is read with kb_read, the 1.5B searched "kb:people.md" with
    search_files twice more and said Ana was not in it."""
    found = KB_PATH.match(str(arguments.get("path", ""))) if tool_name in FILE_READERS else None
    return {"name": found["name"]} if found and "kb_read" in offered else None


def file_in_folder(
    tool: Tool, arguments: dict[str, Any], context: GateContext
) -> tuple[dict[str, Any], str] | None:
    """(the arguments, the note) when a write goes to a folder and the request names one file: the
    1.5B, asked to "Create a file called meeting.txt", wrote to the working folder's path, was
    told it is a directory, and answered instead of writing."""
    given = str(arguments.get(tool.target or "", ""))
    folder = Path(context.cwd, os.path.expanduser(given))
    names = set(NAMED_FILE.findall(context.request))
    if not given or len(names) != 1 or not folder.is_dir():
        return None
    name = names.pop()
    path = name if folder.resolve() == Path(context.cwd).resolve() else os.path.join(given, name)
    return {**arguments, tool.target or "path": path}, prompts.PATH_PUT_RIGHT.format(given=given, name=name, path=path)


def labelled_line_put_right(
    tool: Tool, arguments: dict[str, Any], context: GateContext
) -> tuple[dict[str, Any], str] | None:
    """(the arguments, the note) when a call sent back for leaving out what a labelled line gives
    comes back with the same text: the line is added to it (the approval shows the message).
    Sent back, the 1.5B proposed the same order email, with no order in it, three times."""
    skip = addresses_of(tool)
    left_out = labelled_value_left_out(context.request, arguments, skip, context.record.known_text(context.seen))
    texts = [k for k, v in arguments.items() if k not in skip and isinstance(v, str)]
    if left_out is None or not texts:
        return None
    field = max(texts, key=lambda k: len(arguments[k]))
    if not _proposed_before(tool.name, field, arguments[field], context):
        return None
    phrase, line = left_out
    patched = {**arguments, field: f"{arguments[field].rstrip()}\n\n{line}"}
    return patched, prompts.LINE_PUT_RIGHT.format(phrase=phrase, field=field, line=line)


def overwrite_put_right(arguments: dict[str, Any], context: GateContext) -> tuple[dict[str, Any], str] | None:
    """(the arguments, the note) when a write sent back for dropping, doubling or keeping the file's lines
    comes back with the same content: it writes the content the send-back gave (the approval
    shows it). Sent back, the 1.5B wrote "milk bread eggs" over milk/bread three times."""
    target = Path(context.cwd, os.path.expanduser(arguments.get("path", "")))
    content = arguments["content"]
    if not (dropped_lines(context.request, target, content) or doubled_lines(context.request, target, content)
            or kept_lines(context.request, target, content)):
        return None
    if line_named_elsewhere(context.request, target, context.documents):
        return None  # the wrong file: what it holds is not to be written back with this line
    if not _proposed_before(WRITE_FILE, "content", content, context):
        return None
    return ({**arguments, "content": content_to_write(context.request, target, content)},
            prompts.CONTENT_PUT_RIGHT.format(path=arguments["path"]))


def without_the_grounds_lines(arguments: dict[str, Any], context: GateContext) -> tuple[dict[str, Any], str] | None:
    """(the arguments, the note) for a write of an existing file that copies a line of the ground's
    own ("[Saturn worked out] 180 + 50 = 230 …") or writes a heading bare, as the folder map shows
    it ("Savings" for "# Savings"): it goes without the one and with the other as the file has it."""
    target = Path(context.cwd, os.path.expanduser(arguments.get("path", "")))
    old = file_text(target).splitlines()
    if not old:
        return None
    headings = {line.strip("# ").lower(): line for line in old if line.startswith("#")}
    written = str(arguments.get("content", "")).splitlines()
    harness_own = {line.split("] ", 1)[1].strip() for line in context.seen.splitlines() if HARNESS_LINE.match(line) and "] " in line}
    # "totals over 5 rows: budget = 810, …" written as a row of budget.csv: the ground's line, its tag left off
    kept = [headings.get(line.strip().lower(), line) for line in written
            if not HARNESS_LINE.match(line.strip()) and line.strip() not in harness_own]
    if kept == written:
        return None
    content = "\n".join(kept) + ("\n" if str(arguments.get("content", "")).endswith("\n") or old else "")
    return {**arguments, "content": content}, prompts.GROUND_LINES_PUT_RIGHT.format(path=arguments.get("path", ""))


def without_the_guessed_twin(name: str, arguments: dict[str, Any], context: GateContext
                             ) -> tuple[dict[str, Any], str] | None:
    """(the arguments, the note) for a write that adds two lines for one thing, one with a value
    nobody gave and one without a guess: it goes without the guessed one. Asked the time it had
    guessed, the user said "Thursday at 11:00", and the 1.5B wrote "Mon 15:00 bank meeting"
    beside "Thu 11:00 bank meeting" six times. Where the kept line says less of the thing ("Thu
    11:00 meeting"), it says the thing as the guessed one did ("Thu 11:00 bank meeting")."""
    key, held = ("new", str(arguments.get("old", ""))) if name == EDIT_FILE else (
        "content", file_text(Path(context.cwd, os.path.expanduser(str(arguments.get("path", ""))))))
    written = str(arguments.get(key, "")).splitlines()
    added = [line for line in written if line.strip() and line not in set(held.splitlines())]
    seen = shown_for_values(context.request, context.seen)
    guesses = {line: guess[1] for line in added
               if (guess := guessed_value({key: line}, context.record, frozenset(), seen))}
    kept = [line for line in added if line not in guesses]
    twins = {line: next((k for k in kept if _thing_words(k) & _thing_words(line)), None) for line in guesses}
    if not guesses or None in twins.values():
        return None
    fuller = {twin: f"{lead.group(0)}{line[found.end():]}" for line, twin in twins.items() if twin
              and (lead := WHEN_LEAD.match(twin)) and (found := WHEN_LEAD.match(line))
              and _thing_words(twin) < _thing_words(line)}  # "Thu 11:00 meeting" beside "Mon 15:00 bank meeting"
    content = "\n".join(fuller.get(line, line) for line in written if line not in guesses)
    content += "\n" if str(arguments.get(key, "")).endswith("\n") else ""
    dropped, twin = next(iter(twins.items()))
    return {**arguments, key: content}, prompts.GUESSED_TWIN_PUT_RIGHT.format(
        dropped=repr(dropped), kept=repr(twin), value=guesses[dropped], path=arguments.get("path", ""))


WHEN_LEAD = re.compile(r"^\W*(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?|\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm)?|\d{1,2}\s+[A-Za-z]{3,9})"
                       r"(?:[\s,:–-]+(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?|\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm)?|\d{1,2}\s+[A-Za-z]{3,9}))*"
                       r"[\s,:–-]+", re.IGNORECASE)
"""A line's day and time before what it is: "Thu 11:00 " of "Thu 11:00 bank meeting"."""


def _thing_words(line: str) -> set[str]:
    """A line's words of three letters or more, without its days and months: what it is about."""
    return set(STEM_WORD.findall(DAY_OR_MONTH.sub(" ", line.lower()))) - STOP_WORDS


def list_put_right(arguments: dict[str, Any], context: GateContext) -> tuple[dict[str, Any], str] | None:
    """(the arguments, the note) when a new file written to take a line off or add one to a list
    the folder holds comes back as it was sent back: it writes that list as the send-back gave it
    (sent back, the 1.5B wrote "book dentist.md" three times), or the table an add's row goes in."""
    target = Path(context.cwd, os.path.expanduser(arguments.get("path", "")))
    found = where_it_is(context.request, target, context.documents)
    written = (found.line.source, found.rest) if found else None
    if written is None and (named := list_it_goes_on(context.request, target, context.documents)
                            or row_instead_of_a_new_file(context.request, target, context.documents)):
        written = (named.source, named.content)
    if written is None or not _proposed_before(WRITE_FILE, "content", arguments["content"], context):
        return None
    source, content = written
    what = "is a table" if target.exists() else "does not exist"
    return {"path": source, "content": content}, prompts.LIST_PUT_RIGHT.format(path=arguments["path"], what=what, source=source)


MIN_EDIT_CHARS = 4


def edit_where_the_text_is(arguments: dict[str, Any], context: GateContext) -> tuple[dict[str, Any], str] | None:
    """(the arguments, the note) for an edit_file whose old text the file it names does not hold
    and one other file of the working folder does: sent back from writing dad.txt to mark Dad's
    present bought, the 1.5B called edit_file on dad.txt with old "- Dad: book", christmas.md's line."""
    old = str(arguments.get("old", ""))
    target = Path(context.cwd, os.path.expanduser(str(arguments.get("path", ""))))
    if len(old.strip()) < MIN_EDIT_CHARS or (target.is_file() and old in _text_of(target)):
        return None
    holding = [d.source for d in context.documents if not d.source.startswith(KB_SOURCE) and old in d.text]
    if len(holding) != 1:
        return None
    return {**arguments, "path": holding[0]}, prompts.EDIT_PUT_RIGHT.format(path=arguments.get("path"), source=holding[0])


def _text_of(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


KIND_OF_FILES = re.compile(
    r"(?:(?<![\w.])\.(?P<suffix>[a-z0-9]{1,5})|\b(?P<word>txt|md|csv|pdf|docx?|xlsx?|json|py|jpe?g|png|html?|log))"
    r"\s+files?\b", re.IGNORECASE)
""""the .txt files", "every md file": names of one kind."""


def names_of_the_kind_asked(arguments: dict[str, Any], context: GateContext) -> tuple[dict[str, Any], str] | None:
    """(the arguments, the note) when the request asks for the names of one kind of file ("the
    .txt files") and the content lists a file of the working folder of another kind: that line is
    left out (the 1.5B put notes.md into the index of the .txt files)."""
    asked = {f".{(m.group('suffix') or m.group('word')).lower()}" for m in KIND_OF_FILES.finditer(context.request)}
    lines = str(arguments.get("content", "")).splitlines()
    if len(asked) != 1:
        return None
    other = [line for line in lines if (name := line.strip()) and Path(name).suffix
             and Path(name).suffix.lower() not in asked and Path(context.cwd, name).is_file()]
    if not other:
        return None
    content = "\n".join(line for line in lines if line not in other) + "\n"
    note = prompts.KIND_PUT_RIGHT.format(names=", ".join(s.strip() for s in other), suffix=asked.pop())
    return {**arguments, "content": content}, note


def _proposed_before(tool: str, field: str, value: str, context: GateContext) -> bool:
    return any(c.tool == tool and c.arguments.get(field) == value for c in context.record.calls)


def addresses_of(tool: Tool) -> frozenset[str]:
    """The arguments that say where a write or a message goes, not what it carries."""
    return frozenset({"to", *([tool.target] if tool.target else [])})
