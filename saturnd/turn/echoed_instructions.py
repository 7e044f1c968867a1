"""An answer that repeats Saturn's instruction to the model, or speaks of the person to Saturn,
instead of answering the person.

A small model often answers a declined or unapproved call by copying the tool
result Saturn sent it ("declined: the user declined this call. Do not retry
it or work around it; say what was not done."). That text is addressed to the
model; the person gets, instead, what was not done, read off the calls' fates.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from protocol.methods import PassTrace
from saturnd.gate.provenance import EMAIL
from saturnd.tools.registry import Registry
from saturnd.tools.word_match import stems
from saturnd.turn.review import DOES_NOT_FIT
from saturnd.turn.tool_round import DO_NOT_RETRY, DO_NOT_TRY_ANOTHER_WAY

INSTRUCTIONS = (DO_NOT_RETRY.lower(), DO_NOT_TRY_ANOTHER_WAY.lower(), DOES_NOT_FIT)
"""The parts of Saturn's results that only make sense to the model (the 1.5B answered a Chinese
request with the unfit-tool send-back, word for word)."""


SPEAKS_OF_THE_USER = re.compile(
    r"\b(?:ask|tell|inform|let)\s+the\s+user\b|\bthe\s+user\s+(?:needs?\s+to|should|must|has\s+to)\b",
    re.IGNORECASE,
)
"""Words addressed to Saturn about the person, not to the person: sent back for claiming the
heating was turned up, the 1.5B answered "Please ask the user to turn the heating up to 21 degrees."."""


def speaks_of_the_user(answer: str) -> bool:
    return SPEAKS_OF_THE_USER.search(answer) is not None


PUT_RIGHT_NOTE = re.compile(r"\bthe call (?:wrote|used|went by|says|left it out)\b", re.IGNORECASE)
"""Saturn's note on a call it put right ("(The same content came back: the call wrote the content
the last result gave for todo.txt.)"), which the 1.5B gave back as its answer."""


SEND_BACK_WORDS = re.compile(r"\bif\s+one\s+of\s+(?:your|the|its)\s+tools\s+can\b|\bcall\s+it\s+now\b|\[saturn\s+check\]|"
                             r"\bthe\s+user\s+asked\s+you\s+to\b|\bno\s+tool\s+has\s+done\s+it\b|\bnever\s+give\s+someone\s+else|"
                             r"\bagain\s+with\s+what\s+the\s+user\s+said\b"
                             , re.IGNORECASE)
"""Saturn's send-back to the model ("If one of your tools can do it, call it now.", "The user asked
you to do something, and no tool has done it", "Call write_file again with what the user said."),
which the 1.5B gave back as its answer, "the tools" for "your tools"."""


def echoes_instructions(answer: str) -> bool:
    text = " ".join(answer.lower().split())
    return (any(instruction in text for instruction in INSTRUCTIONS) or PUT_RIGHT_NOTE.search(text) is not None
            or SEND_BACK_WORDS.search(text) is not None)


def repeats_the_reply(answer: str, replies: Iterable[str]) -> bool:
    """Whether the answer is the user's own reply to a question the turn asked them: told "I don't
    know, do what you can." when asked for Mia's address, the 1.5B answered just that."""
    def plain(text: str) -> str:
        return " ".join(text.lower().split()).strip(" .!")
    return bool(plain(answer)) and any(plain(reply) == plain(answer) for reply in replies)


SAYS_DONE = re.compile(r"\b(?:done|sent|added|saved|updated|marked|written|wrote|logged|changed|removed|deleted|created|"
                       r"booked|set|moved|recorded|noted|ticked|paid)\b", re.IGNORECASE)


def off_the_errand(answer: str, request: str, passes: Iterable[PassTrace]) -> bool:
    """Whether an answer to an errand that changed something shares no word with the request nor
    with what the calls were given, or gives a figure neither holds: told "Omar paid.", the 1.5B
    marked his row and answered "The cottage is a cottage."; told "Fed her at 15:30 …", it wrote
    the row and answered "The total minutes over the left rows is 43."."""
    given = " ".join(call.arguments for record in passes for call in record.calls if call.fate == "ran")
    if _figures(answer) - _figures(request) - _figures(given):  # "The snake plant was watered on 2026-11-15" after the write of today
        return True
    if {a.lower() for a in EMAIL.findall(answer)} - {a.lower() for a in EMAIL.findall(given)}:
        return True  # "Message sent to Lena@harbourcafe.example." of a text to 07700 900903
    if (named := stems(" ".join(NAMED_THING.findall(request)))) and not named & stems(answer) and any(
            stems(other) <= stems(given) for other in NAMED_THING.findall(answer)):
        return True  # told "I've taken Wolf Hall back.", it marked Wolf Hall and said The Salt Path was
    if SAYS_DONE.search(answer):  # "Message sent.": an account of the errand, in its own words
        return False
    said = stems(answer)
    return bool(said) and not said & (stems(request) | stems(given))


NAMED_THING = re.compile(r"(?<=[\w,;] )(?:The\s+)?(?-i:[A-Z])[\w'’-]+(?:\s+(?:and\s+the\s+|of\s+|the\s+)?(?-i:[A-Z])[\w'’-]+)+")
"""A thing named by capitalised words, not at the start of its sentence: "Wolf Hall", "The Salt Path"."""


def _figures(text: str) -> set[str]:
    """The runs of digits a text gives, as numbers: "2026-12-04" and "4 December 2026" alike."""
    return {run.lstrip("0") or "0" for run in re.findall(r"\d+", text)}


def done_account(passes: Iterable[PassTrace], registry: Registry, request: str = "") -> str:
    """What the calls that changed something did, with the lines written that the request's words
    are on: "Done: write_file todo.txt (call the council)."."""
    done = []
    for call in (c for p in passes for c in p.calls if c.fate == "ran"):
        tool = registry.get(call.name)
        if tool is None or tool.risk == "read_only":
            continue
        try:
            arguments = json.loads(call.arguments)
            target, written = arguments.get(tool.target or "", ""), str(arguments.get("content", arguments.get("new", "")))
        except (ValueError, AttributeError):
            target, written = "", ""
        lines = [line.strip() for at, line in enumerate(written.splitlines()) if line.strip() and stems(line) & stems(request)
                 and not (at == 0 and "," in line and not re.search(r"\d", line))]  # a table's header is no line written
        said = f" ({'; '.join(lines)})" if 0 < len(lines) <= LINES_TOLD else ""
        done.append(f"{call.name} {target}".strip() + said)
    return f"Done: {', '.join(dict.fromkeys(done))}." if done else ""


LINES_TOLD = 2


ASKING_ERRAND = re.compile(r"^\W*(?:please\s+)?ask\b(?!\s+(?:me|us|you)\b)|\b(?:to|and)\s+ask\b(?!\s+(?:me|us|you)\b)",
                           re.IGNORECASE)
""""Ask Gran if …", "Text Dan to ask if he's coming", "Email Greg and ask when …": a question to send."""
TELLS_OF_ASKING = re.compile(r"\b(?:ask(?:ed|ing)?|sent|texted|messaged|e-?mailed|message|text|e-?mail)\b", re.IGNORECASE)
MESSAGE_FIELDS = {"send_message": "text", "send_email": "body"}


def question_sent(request: str, answer: str, passes: Iterable[PassTrace]) -> str:
    """For "Ask Gran if she can pick the kids up on Friday", once the question was sent, an account
    of it in place of an answer that gives its reply as a fact ("Gran can pick the kids up on
    Friday.": nobody has answered yet) or the question as if the user were asked it ("I'll let you
    know if I'm coming to the party."); "" when the answer tells of the asking itself."""
    if not ASKING_ERRAND.search(request) or TELLS_OF_ASKING.search(answer):
        return ""
    for call in (c for p in passes for c in p.calls if c.fate == "ran" and c.name in MESSAGE_FIELDS):
        try:
            arguments = json.loads(call.arguments)
        except ValueError:
            continue
        if isinstance(arguments, dict) and (said := str(arguments.get(MESSAGE_FIELDS[call.name], "")).strip()):
            return f"Asked {arguments.get('to', '')}: \"{said}\" No reply yet."
    return ""


def not_done_account(passes: Iterable[PassTrace]) -> str:
    """What was not done because the person declined it or was not there to approve it."""
    lines = []
    for call in (c for p in passes for c in p.calls):
        if call.fate == "declined":
            lines.append(f"Not done: {call.name}, because you declined it.")
        elif call.fate == "not_approved":
            lines.append(
                f"Not done: {call.name} needs your approval and nobody was here to give it"
                f" (--allow {call.name} approves it ahead)."
            )
    return " ".join(dict.fromkeys(lines))
