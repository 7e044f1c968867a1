"""Writes and messages the harness puts right in place before they are reviewed again.

A small model sent back with the fix often proposes the same call unchanged, or writes to the
folder instead of the file the user named. Where the request or an earlier send-back already
settles the right arguments, review patches the call, reviews it again (the gate and the
approval still apply) and the result opens with the note saying what was changed.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from saturnd.gate.provenance import EMAIL, PHONE, labelled_value_left_out
from saturnd.tools.registry import Tool
from saturnd.turn import prompts
from saturnd.turn.errands import NAMED_FILE, NOT_BY_EMAIL, asked_action, first_sentence
from saturnd.turn.look_first import (
    FoundLine,
    email_beside,
    lines_naming,
    people_messaged,
    phone_beside,
)
from saturnd.turn.loop_rules import recipient_key
from saturnd.turn.overwrite import (
    WRITE_FILE,
    content_to_write,
    doubled_lines,
    dropped_lines,
    kept_lines,
    line_named_elsewhere,
    list_it_goes_on,
    stems,
    where_it_is,
)
from saturnd.turn.retrieval import KB_SOURCE, Document

if TYPE_CHECKING:
    from saturnd.turn.review import GateContext


SEND_MESSAGE = "send_message"
SEND_EMAIL = "send_email"
TEXT_ASKED = re.compile(r"\b(?:text|sms|phone|mobile)\b", re.IGNORECASE)
EMAIL_ASKED = re.compile(r"\be-?mail", re.IGNORECASE)
CHANNEL_AND_NAME = re.compile(r"\b(?i:(?P<channel>text|sms|e-?mail))\s+(?P<name>[A-Z][\w'-]*)")
""""Text Petra and email Tom": who gets which."""
SUBJECT_WORDS = 8


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
    an email address whose line gives a phone number, and for an email a phone number whose line
    gives an email address. Sent back with the lines, the 1.5B sent to "mum" five times; it texted
    Ana's email address though contacts.md has her phone, and emailed Tom's phone number."""
    to = str(arguments.get("to", "")).strip()
    if to and not (EMAIL.search(to) or PHONE.search(to)):
        found = _addresses_of_kind(tool.name, lines_naming(to, context.documents))
        if len(found) != 1:
            return None
        ((address, named),) = found.items()
        return Recipient(address, named, prompts.NAME_PUT_RIGHT.format(to=to, address=address, where=where(named)))
    if tool.name == SEND_MESSAGE and EMAIL.fullmatch(to) and _a_text_asked(context.request) and \
            (beside := phone_beside(to, _lines_for_a_text(context))):
        phone = PHONE.search(beside.text)
        assert phone is not None  # phone_beside keeps only lines with one
        return Recipient(phone.group(0), beside, prompts.TEXT_PUT_RIGHT.format(
            address=to, phone=phone.group(0), where=where(beside)))
    if tool.name == SEND_EMAIL and PHONE.fullmatch(to) and (beside := email_beside(to, context.documents)):
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


def content_put_right(
    tool: Tool, arguments: dict[str, Any], context: GateContext
) -> tuple[dict[str, Any], str] | None:
    """(the arguments, the note) for a write or a message the harness puts right in place, from
    what the request names or what a send-back already gave; the call is then reviewed again."""
    if tool.risk == "write" and (named := file_in_folder(tool, arguments, context)):
        return named
    if tool.name == WRITE_FILE and (rewritten := overwrite_put_right(arguments, context)):
        return rewritten
    if tool.name == WRITE_FILE and (moved := list_put_right(arguments, context)):
        return moved
    if tool.name == WRITE_FILE and (kept := names_of_the_kind_asked(arguments, context)):
        return kept
    if tool.risk == "messaging" and (said := message_itself(arguments, context.request)):
        return said
    if tool.risk == "messaging" and (own := in_the_senders_words(arguments, context.request)):
        return own
    if tool.risk == "messaging" and (carried := with_the_document_asked(arguments, context)):
        return carried
    if tool.risk == "messaging" and (signed := without_blank_lines(arguments)):
        return signed
    if tool.risk in ("write", "messaging"):
        return labelled_line_put_right(tool, arguments, context)
    return None


ABOUT_SENDING = re.compile(
    r"^\s*(?:(?:sure|ok(?:ay)?|of course|certainly|alright)[,!.]?\s+)?"
    r"I(?:'ll|’ll|\s+will|\s+am\s+going\s+to|'m\s+going\s+to)\s+(?:send|e-?mail|text|message|let|tell)\b"
    r"(?P<about>.*?)\b(?:to\s+say|saying|to\s+tell\s+(?:him|her|them)|know(?:\s+that)?|that)\s+(?P<message>\S.*)$",
    re.IGNORECASE | re.DOTALL,
)
"""A message that tells of passing it on ("Sure, I'll let Uncle Ray know you'll bring the wine on
Saturday."): Saturn's reply to the person, where "you" is the person who sends it."""
THE_SENDER = (
    (re.compile(r"\byou(?:'re|’re| are)\b", re.IGNORECASE), "I'm"),
    (re.compile(r"\byou(?:'ll|’ll| will)\b", re.IGNORECASE), "I'll"),
    (re.compile(r"\byou(?:'ve|’ve| have)\b", re.IGNORECASE), "I've"),
    (re.compile(r"\byou(?:'d|’d| would)\b", re.IGNORECASE), "I'd"),
    (re.compile(r"\byou were\b", re.IGNORECASE), "I was"),
    (re.compile(r"\byours\b", re.IGNORECASE), "mine"),
    (re.compile(r"\byour\b", re.IGNORECASE), "my"),
    (re.compile(r"\byourself\b", re.IGNORECASE), "myself"),
    (re.compile(r"(?:^|(?<=\bthat )|(?<=\band ))you\b", re.IGNORECASE), "I"),
    (re.compile(r"\byou\b", re.IGNORECASE), "me"),
)
"""The person's "you" in Saturn's reply, as the person says it in their own message."""


def message_itself(arguments: dict[str, Any], request: str) -> tuple[dict[str, Any], str] | None:
    """(the arguments, the note) for a message whose body tells of sending it to its recipient
    rather than saying it: "I will send an email to Dave Kerr at dave@kerrplumbing.example to say
    Tuesday morning works for the boiler valve." goes as "Tuesday morning works for the boiler
    valve.", and "Sure, I'll let Uncle Ray know you'll bring the wine" as "I'll bring the wine".
    Only where that opening names the recipient (the address, or the person the request
    messages): "I'll send you the files that you asked for" is a message."""
    field = "body" if "body" in arguments else "text"
    found = ABOUT_SENDING.match(str(arguments.get(field, "")))
    to = str(arguments.get("to", "")).strip().lower()
    if found is None or not to:
        return None
    about = found.group("about").lower()
    if to not in about and not any(re.search(rf"\b{re.escape(p)}\b", about) for p in people_messaged(request)):
        return None
    message = found.group("message").strip()
    for you, sender in THE_SENDER:
        message = you.sub(sender, message)
    message = message[0].upper() + message[1:]
    return {**arguments, field: message}, prompts.MESSAGE_PUT_RIGHT.format(message=message)


SENDERS_OWN = re.compile(
    r"^\s*(?:that\s+|to\s+say\s+|saying\s+)?(?P<said>(?:I|I'm|I’m|I'll|I’ll|I've|I’ve|I'd|we|we're|we'll|we've|my|our)\b.*)$",
    re.IGNORECASE | re.DOTALL,
)
THEM = re.compile(r"\b(?:him|her|them)\b", re.IGNORECASE)
OTHER_NAME = re.compile(
    r"(?<=\s)(?!I\b|I'|I’|(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\b|(?:Jan|Febr)uary\b|March\b|April\b|May\b|"
    r"June?\b|July\b|August\b|(?:Septem|Octo|Novem|Decem)ber\b)[A-Z]")
"""A name past the first word: "her" might be someone else ("I saw Jo and gave her the keys")."""
VOCATIVE = re.compile(r"^\s*(?:hi|hey|hello|dear)?\s*[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?\s*[,!:]\s*", re.IGNORECASE)


def in_the_senders_words(arguments: dict[str, Any], request: str) -> tuple[dict[str, Any], str] | None:
    """(the arguments, the note) for a message that gives back the request's own message as said to
    its recipient: asked "Text Tom I'm running ten minutes late.", the 1.5B texted "Tom, you're
    running ten minutes late." It goes in the person's words, as the request gives them; the
    recipient named where the request says "her", as "you"."""
    field = "body" if "body" in arguments else "text"
    body = str(arguments.get(field, ""))
    for person in people_messaged(request):
        after = re.search(rf"\b{re.escape(person)}\b(?P<rest>.*)$", request, re.IGNORECASE | re.DOTALL)
        own = SENDERS_OWN.match(after.group("rest")) if after else None
        if own is None:
            continue
        said = own.group("said").strip()
        swapped = VOCATIVE.sub("", body, count=1)
        for you, sender in THE_SENDER:
            swapped = you.sub(sender, swapped)
        named = re.sub(rf"\b{re.escape(person)}\b(?!['’])", "xperson", body, flags=re.IGNORECASE)
        if swapped != body and _plain_words(swapped) == _plain_words(said) and body.strip() != said:
            said = said[0].upper() + said[1:]
        elif (named != body and _plain_words(named) == _plain_words(THEM.sub("xperson", said))
              or _plain_words(body) == _plain_words(said) and THEM.search(said) and not OTHER_NAME.search(said)):
            # "Tell Mum I'll pick her up" texted as "I'll pick Mum up", or as it is: to her, it is "you"
            said = THEM.sub("you", said[0].upper() + said[1:])
        else:
            continue
        return {**arguments, field: said}, prompts.OWN_WORDS_PUT_RIGHT.format(message=said)
    return None


def _plain_words(text: str) -> list[str]:
    return re.findall(r"[\w']+", text.lower().replace("’", "'"))


DOCUMENT_SENT = re.compile(
    r"^\W*(?:please\s+)?(?:e-?mail|text|send|message|forward)\s+(?:(?P<person>[\w'-]+(?:\s+[A-Z][\w'-]*)?)\s+)?"
    r"(?:the|my|our)\s+(?P<thing>[\w' -]+?)(?:\s+to\s+(?:my\s+|the\s+)?[\w'-]+(?:\s+[A-Z][\w'-]*)?)?\s*[.!]?\s*$",
    re.IGNORECASE,
)
""""Email Grandma the pancake recipe", "Send the week plan to Jo": the thing to send."""
MESSAGE_DOCUMENT_CHARS = 2_000
CARRIED_SHARE = 0.5


def with_the_document_asked(arguments: dict[str, Any], context: GateContext) -> tuple[dict[str, Any], str] | None:
    """(the arguments, the note) for a message that was to send one of the user's documents and
    holds too little of it: asked "Email Grandma the pancake recipe", the 1.5B wrote "Here's the
    pancake recipe I made for you. Enjoy!" and no recipe. The document (the one whose name or
    heading holds every word of the thing asked, from the working folder) goes after the body."""
    asked = DOCUMENT_SENT.match(context.request)
    if asked is None:
        return None
    wanted = stems(asked.group("thing"))
    field = "body" if "body" in arguments else "text"
    body = str(arguments.get(field, ""))
    for document in context.documents:
        if document.source.startswith(KB_SOURCE) or len(document.text) > MESSAGE_DOCUMENT_CHARS:
            continue
        heading = next((line for line in document.text.splitlines() if line.strip()), "")
        if not wanted or not wanted <= stems(f"{re.sub(r'[^a-z]', ' ', document.source.lower())} {heading}"):
            continue
        words = stems(document.text) - stems(heading)
        if not words or len(words & stems(body)) >= CARRIED_SHARE * len(words):
            return None
        carried = f"{body.rstrip()}\n\n{document.text.strip()}" if body.strip() else document.text.strip()
        return {**arguments, field: carried}, prompts.DOCUMENT_PUT_RIGHT.format(source=document.source)
    return None


BLANK = re.compile(
    r"\[(?:(?:your|my|the|recipient'?s?|sender'?s?)\s+)?(?:full\s+)?"
    r"(?:name|date|time|day|phone(?:\s+number)?|number|address|e-?mail(?:\s+address)?|signature|company)\]",
    re.IGNORECASE,
)
"""A blank for the sender to fill ("[Your Name]"): the 1.5B signs emails with one."""


def without_blank_lines(arguments: dict[str, Any]) -> tuple[dict[str, Any], str] | None:
    """(the arguments, the note) for a message with a line that is only a blank ("Best regards,
    [Your Name]"): it goes without that line."""
    field = "body" if "body" in arguments else "text"
    lines = str(arguments.get(field, "")).splitlines()
    kept = [line for line in lines if not BLANK.fullmatch(line.strip())]
    if len(kept) == len(lines) or not "".join(kept).strip():
        return None
    dropped = next(line.strip() for line in lines if BLANK.fullmatch(line.strip()))
    return {**arguments, field: "\n".join(kept).rstrip()}, prompts.BLANK_PUT_RIGHT.format(blank=dropped)


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


def list_put_right(arguments: dict[str, Any], context: GateContext) -> tuple[dict[str, Any], str] | None:
    """(the arguments, the note) when a new file written to take a line off or add one to a list
    the folder holds comes back as it was sent back: it writes that list as the send-back gave it
    (sent back, the 1.5B wrote "book dentist.md" three times)."""
    target = Path(context.cwd, os.path.expanduser(arguments.get("path", "")))
    found = where_it_is(context.request, target, context.documents)
    written = (found.line.source, found.rest) if found else None
    if written is None and (named := list_it_goes_on(context.request, target, context.documents)):
        written = (named.source, named.content)
    if written is None or not _proposed_before(WRITE_FILE, "content", arguments["content"], context):
        return None
    source, content = written
    return {"path": source, "content": content}, prompts.LIST_PUT_RIGHT.format(path=arguments["path"], source=source)


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
