"""Questions for the person: what the model should have asked them, and what it should not.

Seed 000: when a value is missing, the agent asks the user. The 1.5B writes the question as its
answer, answers for the person ("my client's language"), or asks leave for an errand the user
already asked for. These rules say which question goes to the person and which goes back.
"""

from __future__ import annotations

import re

from protocol.methods import PassTrace
from saturnd.tools.registry import Registry
from saturnd.turn.errands import ASK_USER, asked_action, first_sentence, something_acted, tools_for
from saturnd.turn.overwrite import ADDING, item_asked

ASKS_FOR_MISSING = re.compile(
    r"\b(?:please|could you|can you|would you)\s+(?:please\s+)?(?:provide|tell me|give me|share|specify|"
    r"let me know)\b"
    r"|\bI(?:\s+(?:don't|do not)\s+(?:have|know)|(?:'ll|\s+will|\s+need to|\s+must|\s+have to)\s+ask\s+(?:you\s+)?for)"
    r"\s+(?:your|his|her|their|the)\s+(?:[\w'-]+\s+){0,3}?"
    r"(?:number|address|e-?mail|name|time|date|day|value|details|contact|phone|language)s?\b",
    re.IGNORECASE,
)
"""Words of an answer that stops because a value is missing ("I don't have your sister's phone
number", "Please provide a valid email address", "I will ask for the correct email address of
the plumber", which it did not), not because nothing can do the errand. Not
"please confirm": whether a write or a message may run is the gate's question, not a value."""


def asks_for_missing(answer: str, request: str, passes: list[PassTrace], registry: Registry) -> bool:
    """Seed 000: when a value is missing and no tool can supply it, the agent calls ask_user. The
    1.5B writes the question as its answer instead, and the errand ends undone; with someone
    there to answer, the harness puts it to them. Once: not after ask_user was called."""
    return (
        ASK_USER in registry.names() and bool(asked_action(request)) and ASKS_FOR_MISSING.search(answer) is not None
        and not something_acted(passes, registry)
        and not any(c.name == ASK_USER for p in passes for c in p.calls)
        and not (asked_action(request) in ADDING and item_asked(request))  # "Add call the council to …": all given
    )


ASKS_LEAVE = re.compile(
    r"^\s*(?:(?:did|have)\s+you(?!\s+mean\b)|(?:should|shall|may|can)\s+i|(?:do|would)\s+you\s+(?:want|like)\s+me)\b"
    r"|\bconfirm\b|\bare you sure\b|\bis (?:it|that) (?:ok|okay|fine|alright)\b|\bapprove\b"
    r"|\bpermission\b|\bgo ahead\b",
    re.IGNORECASE,
)
SAME_ERRAND = {
    verb: group for group in (
        ("text", "email", "e-mail", "send", "message", "reply", "forward"),
        ("add", "put", "append", "insert", "write", "make", "create"),
        ("change", "update", "edit", "replace", "set", "overwrite", "fix", "rename"),
        ("remove", "delete", "take", "cross"),
    ) for verb in group
}
"""Words a leave question may name the asked errand with: "Did you send the note …?" for "Text Petra …"."""
OFFERS_A_CHOICE = re.compile(r"\b(?:or|what|which|where|when|who|whom|how)\b", re.IGNORECASE)
VALUE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\d+(?:[.:]\d+)?")


def asks_leave(question: str, request: str, registry: Registry) -> tuple[str, ...]:
    """The tools that do the asked errand, when an ask_user question only asks leave to do it
    (or whether the user did it): "Did you overwrite draft.txt with the word 'final'?", asked
    for the overwrite. Whether a write or a message may run is the gate's question, asked with
    the call in front of the person; the 1.5B asked first, was told "I don't know", and never
    tried. Its first sentence must name the errand (SAME_ERRAND); one that offers a choice or checks a
    value the request does not hold ("Should I send it to a@b.example?") is a real question and
    is asked."""
    verb, question = asked_action(request), first_sentence(question)
    if not verb or not ASKS_LEAVE.search(question) or OFFERS_A_CHOICE.search(question):
        return ()
    if not any(re.search(r"\b" + re.escape(said), question, re.IGNORECASE) for said in SAME_ERRAND.get(verb, (verb,))):
        return ()
    if any(value not in request for value in VALUE.findall(question)):
        return ()
    return tools_for(request, registry)


VALUE_NOUNS = (r"(?:language|number|address|e-?mail|name|birthday|date|day|time|size|colou?r|code|value|price|"
               r"budget|favou?rite\s+\w+)")
ONLY_THEY_KNOW = re.compile(
    r"\bmy\s+(?P<who>[a-z]+)'s\s+(?P<what>" + VALUE_NOUNS + r")\b"
    r"|\bthe\s+(?P<what2>" + VALUE_NOUNS + r")\s+(?:my|our)\s+(?P<who2>[a-z]+)\s+"
    r"(?P<did>agreed(?:\s+on)?|decided(?:\s+on)?|chose|picked|settled\s+on|wants|prefers|likes|asked\s+for)\b"
    r"|\bthe\s+(?P<what3>" + VALUE_NOUNS + r")\s+of\s+my\s+(?P<when>(?:next|upcoming|first|last)\s+)?(?P<who3>[a-z]+)\b",
    re.IGNORECASE,
)
QUESTION_WORD = re.compile(r"^\s*(?:what|which|when|where|who|whom|whose|how|is|are|do|does|did|can|could)\b", re.IGNORECASE)


def only_the_person_knows(request: str, answer: str, seen: str, passes: list[PassTrace]) -> str | None:
    """The question to put to the person, when the request turns on a value about their world that
    nothing the model was shown mentions ("my client's language", "the value my team agreed on",
    "the time of my next meeting") and the model answered without asking: the 1.5B "translated"
    the greeting into English, answered "Please edit settings.ini to the value my team agreed
    on", and gave the clock's time as the meeting's. Not for a request that is
    itself a question ("What is my sister's birthday?"), and not once anything asked the person."""
    if "?" in request or QUESTION_WORD.match(request) or "?" in answer:
        return None
    if any(c.name == ASK_USER for p in passes for c in p.calls):
        return None
    found = ONLY_THEY_KNOW.search(request)
    if found is None:
        return None
    who = (found.group("who") or found.group("who2") or found.group("who3")).lower()
    if re.search(r"\b" + re.escape(who), seen, re.IGNORECASE):
        return None
    if found.group("who3"):
        return f"What is the {found.group('what3').lower()} of your {(found.group('when') or '').lower()}{who}?"
    if found.group("who"):
        return f"What is your {who}'s {found.group('what').lower()}?"
    return f"What is the {found.group('what2').lower()} your {who} {found.group('did').lower()}?"
