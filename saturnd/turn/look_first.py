"""Look before asking: a question for someone's number or address that the user's files answer.

Told "read or search the user's files first; only if none holds it, call ask_user",
the 1.5B still asked "What is Petra's contact information?" with Petra's line in
contacts.md, then returned the person's "I don't know" as its answer. So before
ask_user reaches the person, the harness looks: the people the question (or
the request) names, by name or by "my <role>", in the lines of the working
folder's files and the knowledge base that hold an email address or a phone
number. Found, those lines are the call's result, fenced as the user's files
(the gate still asks before anything is sent to an address they hold);
not found, the question goes to the person. Deterministic, no model call.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from saturnd.gate.provenance import EMAIL, PHONE
from saturnd.tools.word_match import ALSO_WRITTEN, stems
from saturnd.turn.retrieval import Document

ASKS_FOR_CONTACT = re.compile(
    r"\b(?:e-?mail|phone|number|mobile|cell|contact|reach)\b", re.IGNORECASE,
)
"""Not a bare "address": "What is your new address?" asks for a street, which no file holds."""
ASKS_FOR_SOMETHING_ELSE = re.compile(
    r"\b(?:new|current|correct|right|other|time|when|date|day|subject|say)\b", re.IGNORECASE,
)
"""A changed or another number is the person's to give, whatever the files say; "What time
should the email be sent?" asks for no address."""
ADDRESS = re.compile(r"\baddress\b", re.IGNORECASE)
EMAILING = re.compile(r"\be-?mail\b", re.IGNORECASE)
"""Asked for "the supplier's address" while emailing, the model means the email address."""
NAME = re.compile(r"\b[A-Z][a-z]+(?:'s)?\b")
ROLE = re.compile(r"\b(?:my|your)\s+([a-z]+)\b", re.IGNORECASE)
THE_ROLE = re.compile(r"\bthe\s+([a-z]+)'s\b|\b(?:for|of)\s+the\s+([a-z]+)\b", re.IGNORECASE)
NOT_A_NAME = frozenset({
    "what", "which", "who", "whom", "whose", "where", "when", "how", "why", "is", "are", "do", "does", "can",
    "could", "would", "should", "will", "please", "the", "a", "an", "i", "text", "email", "e-mail", "send",
    "tell", "let", "message", "remind", "ask", "call", "write", "reply", "forward", "contact", "phone",
    "number", "address", "and", "or", "to", "for", "his", "her", "their", "your", "my", "saturn", "ok", "hi",
    "mobile", "home", "work", "office", "best", "details", "landline", "same",
})
MAX_LINES = 5


@dataclass(frozen=True)
class FoundLine:
    source: str
    line_number: int
    text: str


def people_named(question: str, request: str) -> list[str]:
    """The names and "my <role>"s the question holds, else the request's."""
    for text in (question, request):
        found = [n.removesuffix("'s") for n in NAME.findall(text)] + ROLE.findall(text)
        people = list(dict.fromkeys(p.lower() for p in found if p.lower() not in NOT_A_NAME))
        if people:
            return people
    return []


def contact_lines(question: str, request: str, documents: list[Document]) -> list[FoundLine]:
    """Lines of the user's documents with an address or number of someone the question asks
    for; empty when the question asks for something else or names nobody the files know."""
    asks = ASKS_FOR_CONTACT.search(question) or (ADDRESS.search(question) and EMAILING.search(request))
    if not asks or ASKS_FOR_SOMETHING_ELSE.search(question):
        return []
    roles = [p.lower() for pair in THE_ROLE.findall(question) for p in pair if p]
    people = list(dict.fromkeys(roles + people_named(question, request)))
    if not people:
        return []
    wanted = re.compile(r"\b(?:" + "|".join(re.escape(p) for p in people) + r")\b", re.IGNORECASE)
    return _lines(documents, lambda line: bool(wanted.search(line)))


MESSAGED = re.compile(
    r"\b(?i:text|sms|e-?mail|message|tell|let|remind|ask|ping|send|drop|shoot|write\s+to|reply\s+to)\s+"
    r"(?:(?i:my|our)\s+(?P<role>[a-z]+)"
    r"|(?i:the)\s+(?P<the_name>[A-Z][\w'&-]*(?:\s+[A-Z][\w'&-]*)*)"
    r"|(?i:the)\s+(?P<the_role>[a-z]+)\b(?!\s+(?i:to|for)\s+(?:[A-Z+\d]|(?i:my|our|the|his|her|their)\b|\S+@))"
    r"|(?P<name>[A-Za-z][a-z]+(?:\s+[A-Z][a-z]+)?))"
)
"""The person a request asks to message: "Let Ana know", "Text mum", "Email my manager", "Email
the plumber to say …", "Email the Red Lion" (not "the report" of "Email the report to Tom": that
goes to Tom)."""
NOT_A_PERSON = NOT_A_NAME | {
    "that", "if", "whether", "me", "us", "him", "them", "it", "this", "back", "know", "everyone", "all", "about", "saying",
}


SENT_TO = re.compile(
    r"\b(?i:send|forward|e-?mail|text|pass|give)\b[^.?!]*?\b(?i:to)\s+"
    r"(?:(?i:my|our)\s+(?P<role>[a-z]+)|(?P<name>[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?))\b"
)
""""Send my shopping list to Tom", "Email the report to my accountant": who it goes to."""


def people_messaged(request: str) -> list[str]:
    """The people (names or roles, lower-cased) the request asks to message or send something to."""
    found = {(m.group("role") or m.group("the_name") or m.group("the_role") or m.group("name")).lower()
             for n, m in enumerate(MESSAGED.finditer(request))
             if not (n and m.group("the_role") and m.group(0).lower().startswith(("send", "drop", "shoot")))}
    # after the first, "the <thing>" is the message's ("Tell Lena I'll send the invoice tomorrow"), no one to message
    found |= {(m.group("role") or m.group("name")).lower() for m in SENT_TO.finditer(request)}
    return sorted(person for person in found if person.split()[0] not in NOT_A_PERSON)


def addresses_named(request: str, documents: list[Document]) -> frozenset[str]:
    """The addresses and numbers, lower-cased, on the lines of the user's files that name a
    person the request asks to message: the user named who, their own files say where."""
    found = (line for person in people_messaged(request) for line in lines_naming(person, documents))
    return frozenset(a.lower() for line in found for a in [*EMAIL.findall(line.text), *PHONE.findall(line.text)])


def contact_sources(request: str, documents: list[Document]) -> frozenset[str]:
    """The files with a number or address of someone the request asks to message, for the ground."""
    return frozenset(line.source for person in people_messaged(request) for line in lines_naming(person, documents))


def render(found: list[FoundLine]) -> str:
    return "\n".join(f"{f.source}:{f.line_number}: {f.text}" for f in found)


def lines_naming(name: str, documents: list[Document]) -> list[FoundLine]:
    """Lines with an address or number that name `name` ("mum", "Petra") as a word, or its plural
    ("the vet" of "Greenway Vets: …")."""
    if not name.strip():
        return []
    wanted = re.compile(r"(?<!\w)" + re.escape(name.strip()) + r"s?(?!\w)", re.IGNORECASE)  # "Dave (mechanic)" too
    return _lines(documents, lambda line: bool(wanted.search(line)))


def _lines(documents: list[Document], keep: Callable[[str], bool]) -> list[FoundLine]:
    found: list[FoundLine] = []
    for document in documents:
        for number, line in enumerate(document.text.splitlines(), start=1):
            if keep(line) and (EMAIL.search(line) or PHONE.search(line)):
                found.append(FoundLine(document.source, number, line.strip()))
                if len(found) == MAX_LINES:
                    return found
    return found


def phone_beside(address: str, documents: list[Document]) -> FoundLine | None:
    """The line of the user's files that holds `address` and a phone number too."""
    lower = address.lower()
    lines = _lines(documents, lambda line: lower in line.lower() and PHONE.search(line) is not None)
    return lines[0] if lines else None


def email_beside(number: str, documents: list[Document]) -> FoundLine | None:
    """The line of the user's files that holds phone `number` (by its digits) and an email address too."""
    digits = re.sub(r"\D", "", number)
    lines = _lines(documents, lambda line: bool(digits) and digits in re.sub(r"\D", "", line)
                   and EMAIL.search(line) is not None)
    return lines[0] if lines else None


""""the dentist's number", "the number for the dentist": a person named by what they do."""
QUESTION = re.compile(
    r"^\W*(?:what|what's|whats|where|which|who|whose|when|when's|how|do|does|have|has|is|are|can|could)\b", re.IGNORECASE)


def someone_elses_contact(answer: str, request: str, seen: str) -> str | None:
    """The line of what the model was shown that the answer's number or address comes from, when
    the user asked for someone's and that line names none of the people asked about: asked
    "What's the dentist's phone number?" with no dentist in contacts.md, the 1.5B gave the
    plumber's."""
    if not (QUESTION.search(request) and ASKS_FOR_CONTACT.search(request)) or ASKS_FOR_SOMETHING_ELSE.search(request):
        return None
    if (named := _whose_names(request)) is None:
        return None
    lines = seen.splitlines()
    for given in [*EMAIL.findall(answer), *(p.strip() for p in PHONE.findall(answer))]:
        holding = [line for line in lines if given in line]
        if holding and not any(named.search(line) for line in holding):
            return holding[0].strip()
    return None


def their_contact_line(request: str, seen: str) -> str | None:
    """The one line shown that names who the request asks the number or address of and gives one:
    sent back for the manager's number, asked "What's my doctor's phone number?", the 1.5B searched
    the empty knowledge base though "Dr Weiss (GP, …): +44 20 7946 0991" was shown."""
    if (named := _whose_names(request)) is None:
        return None
    held = [line.strip() for line in seen.splitlines() if not line.startswith("[Saturn") and named.search(line)
            and (EMAIL.search(line) or PHONE.search(line))]
    return held[0] if len(held) == 1 else None


def _whose_names(request: str) -> re.Pattern[str] | None:
    """The ways the people the request asks about are written: "my doctor" is "Dr Weiss", "the vets"
    is "Vet:" in the notes, and "dentist" is "Dentists"."""
    people = people_named("", request) + [p.lower() for pair in THE_ROLE.findall(request) for p in pair if p]
    if not people:
        return None
    people += [other for person in people for other in ALSO_WRITTEN.get(person, ())]
    return re.compile(r"\b(?:" + "|".join(re.escape(p[:-1] if p.endswith("s") and len(p) > 3 else p)
                                         for p in people) + ")", re.IGNORECASE)


WHOSE = re.compile(r"\b([A-Z][\w&-]*[a-z][\w&-]*)['’]s\b|\bthe\s+([a-z]+)['’]s\b")
"""Whose number is asked: "TopRoof's", "Gav's", "the plumber's"."""


def contact_not_given(answer: str, request: str, seen: str) -> str | None:
    """Asked for someone's number or email, an answer giving none while a line shown names them
    with one: asked "What's TopRoof's number?" with its quotes.csv row shown ("roof repair,TopRoof,
    450,01632 960205,waiting"), the 1.5B answered "450", the quote. The line to send it back with."""
    if (not (QUESTION.search(request) and ASKS_FOR_CONTACT.search(request)) or ASKS_FOR_SOMETHING_ELSE.search(request)
            or EMAIL.search(answer) or _phone_given(answer, seen) or "?" in answer):
        return None
    owners = [name for pair in WHOSE.findall(request) for name in pair if name]
    blocks = re.split(r"^(?=--- )", seen, flags=re.MULTILINE)
    theirs = [line for block in blocks if _names_owner(block, owners) for line in block.splitlines()
              if not line.startswith(("[Saturn", "--- ")) and (EMAIL.search(line) or _a_phone(line))]
    named = [line for line in theirs if _names_owner(line, owners)]
    called = [line for line in theirs if CALL_WORD.search(line)]  # "Renew online or call 01632 960411." of the library's file
    found = named or (called if len(called) == 1 else [])
    return found[0].strip() if found else None


CALL_WORD = re.compile(r"\b(?:call|phone|ring|tel|telephone|text|mobile)\b", re.IGNORECASE)
NOT_A_PHONE = re.compile(r"\b(?:card|account|acct|ref|reference|policy|membership|member|pin|code|order|booking|ticket|"
                         r"serial|passport|licence|license|plate|number\s+plate|sort)\b[^\d]{0,12}$", re.IGNORECASE)
"""What a number is labelled by when it is no one's phone: "Library card: 2290 4471 88"."""


def _names_owner(text: str, owners: list[str]) -> bool:
    return any(re.search(rf"\b{re.escape(owner)}\b", text, re.IGNORECASE) for owner in owners)


def _phone_given(answer: str, seen: str) -> bool:
    """Whether the answer gives a number that is no card's or account's in what was shown: asked
    the library's phone number, the 1.5B gave its card number, "2290 4471 88"."""
    labelled = [line for line in seen.splitlines() if not _a_phone(line)]
    return any(not any(found.group(0) in line for line in labelled) for found in PHONE.finditer(answer))


def _a_phone(line: str) -> bool:
    return any(not NOT_A_PHONE.search(line[:found.start()]) for found in PHONE.finditer(line))


LABELLED = re.compile(r"^[\s>*+-]*(?P<label>[A-Z][a-z]+(?: [A-Z][a-z]+)?)\s*(?::|\s[-–]\s)")
"""A line given to someone by name: "- Sam: ?", "Jo - 9 December", "Ella: swimming Monday 5pm"."""
SAME_LIST = 12
"""Lines this close to the asked person's own are of the same list, not of the instructions."""


def someone_elses_line(answer: str, request: str, seen: str) -> str | None:
    """Asked about someone whose own line the model was shown, the answer's words come only from
    another person's line of the same list: "What's Sam getting for Christmas?" with "- Sam: ?"
    and "- Tom: lego" shown, the 1.5B answered "a lego". Returns what to say of the two lines."""
    if not QUESTION.search(request):
        return None
    people = set(people_named("", request))
    said = stems(answer) - stems(request) - stems(" ".join(people))
    if not people or not said:
        return None
    lines = seen.splitlines()
    labelled = [(i, found.group("label").lower(), line.strip())
                for i, line in enumerate(lines) if (found := LABELLED.match(line))]
    own = [(i, line) for i, label, line in labelled if label in people or label.split()[0] in people]
    if not own or any(said & stems(line) for _, line in own):
        return None
    for i, label, line in labelled:
        if (said & stems(line) and label not in people and not _names_any(line, people)  # "Tue: Jo" is Jo's too
                and any(abs(i - j) <= SAME_LIST for j, _ in own)):
            return f'"{line}", about someone else; the line about them is "{own[0][1]}"'
    return None


ANOTHER_OWNER = re.compile(r'^"[^"]*", about (?P<owner>[A-Z][\w ]*), not (?P<named>[A-Z][\w ]*);')
MONEY_FIGURE = re.compile(r"[£$€]\s?(\d[\d,]*(?:\.\d+)?)")


def another_names_money(answer: str, request: str, seen: str) -> str | None:
    """The answer gives the money of one person's line of a list as another's: "Who owes me money?"
    with "- Dan: my drill" and "- Priya: £40 for the concert tickets" shown, the 1.5B answered "Dan
    owes you £40 for the concert tickets". Returns what to say of the two lines, whose figure's
    owner and the one named loop.answer_text swaps when it is given again (ANOTHER_OWNER)."""
    figures = {figure.replace(",", "") for figure in MONEY_FIGURE.findall(answer)}
    if not QUESTION.search(request) or not figures:
        return None
    labelled = [(found.group("label"), line.strip()) for line in seen.splitlines() if (found := LABELLED.match(line))]
    named = {label for label, _ in labelled if re.search(rf"\b{re.escape(label)}\b", answer)}
    holding = [(label, line) for label, line in labelled
               if figures <= {figure.replace(",", "") for figure in MONEY_FIGURE.findall(line)}]
    if len(named) != 1 or len(holding) != 1 or holding[0][0] in named:
        return None
    person = next(iter(named))
    own = next((line for label, line in labelled if label == person), None)
    return f'"{holding[0][1]}", about {holding[0][0]}, not {person}; the line about {person} is "{own}"' if own else None


A_LABEL = re.compile(r"^[\s>*+-]*(?P<label>[A-Za-z][\w' ]{1,30}?)\s*:\s*\S")


def _names_any(line: str, people: set[str]) -> bool:
    return any(re.search(rf"\b{re.escape(person)}\b", line, re.IGNORECASE) for person in people)


def another_labels_line(answer: str, request: str, seen: str) -> str | None:
    """Asked about a thing a line is labelled with ("Who is my eye test with?" of "Eye test: 6 Jan
    2:15pm, Specsavers"), the answer's words come only from another labelled line near it: the 1.5B
    answered "Dr Okafor", the GP review's. Returns what to say of the two lines."""
    if not QUESTION.search(request):
        return None
    asked = stems(request)
    said = stems(answer) - asked
    lines = seen.splitlines()
    labelled = [(i, stems(found.group("label")), line.strip()) for i, line in enumerate(lines)
                if not line.startswith("[Saturn") and (found := A_LABEL.match(line))]
    own = [(i, line) for i, label, line in labelled if label and label <= asked]
    if len(own) != 1 or not said or said & stems(own[0][1]):
        return None
    if any(stems(line) & asked and said & stems(line) for line in lines if not line.startswith("[Saturn")):
        return None  # "No rehearsal on 23 December." backs "No, there is no rehearsal on 23 December."
    for i, label, line in labelled:
        if said & stems(line) and not label <= asked and abs(i - own[0][0]) <= SAME_LIST:
            return f'"{line}", about something else; the line about it is "{own[0][1]}"'
    return None


OWNER = re.compile(r"\b(?:the|my|our)\s+([a-z]+)['’]s\b", re.IGNORECASE)
"""Whose thing a question asks about: "the dog's insurance", "my car's MOT"."""
EXCERPT_EDGE = re.compile(r"^(?:--- (\S+).*|</outside>.*)$", re.MULTILINE)
DIGITS = re.compile(r"\d+")


def another_owners_line(answer: str, request: str, seen: str) -> str | None:
    """Asked about one thing's detail ("When is the dog's insurance due?"), the answer's figures
    come from a file that never names that thing while another shown file does and has a line for
    the detail: the 1.5B answered the car's "20 February" from car.txt, pets.md holding "Insurance
    renews 1 March" under "# Biscuit (dog)". Returns what to say of the two lines."""
    owner = OWNER.search(request)
    figures = set(DIGITS.findall(answer))
    if not QUESTION.search(request) or owner is None or not figures:
        return None
    named = stems(owner.group(1))
    detail = stems(request) - named - stems("when what which how much many due")
    parts = EXCERPT_EDGE.split(seen)  # [before, source, text, source, text, …]; None: an </outside> edge
    blocks = [(source, text) for source, text in zip(parts[1::2], parts[2::2], strict=True) if source]
    holding = [(source, line) for source, text in blocks for line in text.splitlines()
               if figures <= set(DIGITS.findall(line))]
    if len({source for source, _ in holding}) != 1:
        return None  # from no excerpt, or from several: no one file it came from
    taken = holding[0]
    if named & stems(f"{taken[0]} {dict(blocks)[taken[0]]}"):
        return None
    for source, text in blocks:
        if source != taken[0] and named & stems(f"{source} {text}"):
            line = max(text.splitlines(), key=lambda candidate: len(detail & stems(candidate)), default="")
            if detail & stems(line):
                return (f'"{taken[1].strip()}" ({taken[0]}), about something else; the line about the'
                        f' {owner.group(1).lower()} is "{line.strip()}" ({source})')
    return None
