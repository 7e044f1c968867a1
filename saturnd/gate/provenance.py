"""Where a call's arguments came from, judged from the session's own record.

Typed by the user, returned by a tool (fenced when it came from outside), or
from neither: the model made it up. Drives explain, the escalation of calls
that carry outside content, the messaging recipient check and the dependency gate.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from dataclasses import dataclass
from datetime import date
from typing import Any

from saturnd.store import MessageRow

EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
PHONE = re.compile(r"(?<![\w+])(?!\d{4}-\d\d-\d\d\b|\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}\b)\+?\d(?:[ \t().-]{0,2}\d){6,}")
"""A phone number: seven digits or more on one line, at most two marks between two of them; not a
date ("2026-12-01", "01/12/2026"): an email saying "Tuesday, 2026-12-01" was refused as sent to a
number nobody gave, and a recipe's "(makes 8)" and "- 100g" on the next line were one number."""
MIN_ESCALATION_CHARS = 4
"""Shorter values ("a", "10") turn up everywhere by chance."""
FAILED_PREFIXES = ("tool error:", "⛔", "declined", "refused", "not run")
REFUSALS = ("refused", "not run")
"""Saturn's own words for a call it did not run: they repeat the guessed number or the unknown
address they refuse, so they are no place a value came from (the 1.5B proposed the same made-up
total again, and the refusal's "100 is in nothing you were shown" let it through)."""
PUT_RIGHT_NOTE = re.compile(r"^\((?:[^()]|\([^()]*\))*\)\s*")
"""What a put-right result opens with ("(The line added was not as the user worded it …) ")."""


def _refusal(result: str) -> bool:
    """Saturn's refusal, after any put-right note: "(The line added …) not run: 'Saturn check: …'
    has nothing of what the user asked" let the 1.5B's made-up line through the second time."""
    return PUT_RIGHT_NOTE.sub("", result, count=1).startswith(REFUSALS)


PERSON_SAID = re.compile(r"The user says: (.*)\. Call \w+ again with what the user said\.", re.DOTALL)
"""What the person answered when a guess was put to them (prompts.VALUE_GIVEN): theirs, typed."""
GROUND = "ground"
"""What the ground showed this turn: counted for escalation and reads, never as a recipient's source."""
OWN_FILE_READERS = frozenset({"read_file", "search_files", "list_dir", "kb_search", "kb_read", "ground"})
"""What these return comes from the user's own files (the gate keeps them to the folder and the KB)."""


@dataclass(frozen=True)
class Returned:
    tool: str
    call_id: str
    text: str
    fenced: bool


@dataclass(frozen=True)
class PastCall:
    tool: str
    arguments: dict[str, Any]
    succeeded: bool


@dataclass(frozen=True)
class SessionRecord:
    typed: list[str]
    returned: list[Returned]
    calls: list[PastCall]

    @classmethod
    def from_messages(cls, rows: list[MessageRow]) -> SessionRecord:
        """Each call with the result that answered it: the tool row after it with its id. A model
        may give every call the same id, pass after pass; a result kept by id alone was lost to the
        next (the person's "We agreed on 45" became a guess once the id's later call was refused)."""
        typed = [r.content for r in rows if r.role == "user"]
        results = [r for r in rows if r.role == "tool"]
        typed += [said for r in results if _refusal(r.content) for said in PERSON_SAID.findall(r.content)]
        returned = [Returned(r.name, r.tool_call_id, r.content, r.content.startswith("<outside"))
                    for r in results if not _refusal(r.content)]
        calls: list[PastCall] = []
        waiting: list[tuple[str, int]] = []  # (id, place in calls) of the last assistant turn's calls not yet answered
        for row in rows:
            if row.role == "assistant":
                waiting = [(call.get("id", ""), len(calls) + n) for n, call in enumerate(row.tool_calls)]
                calls += [PastCall(call.get("function", {}).get("name", ""), _arguments(call.get("function", {})), False)
                          for call in row.tool_calls]
            elif row.role == "tool" and (at := next((n for n, (cid, _) in enumerate(waiting) if cid == row.tool_call_id), None)) is not None:
                _, place = waiting.pop(at)
                ran = not PUT_RIGHT_NOTE.sub("", row.content, count=1).startswith(FAILED_PREFIXES)
                calls[place] = PastCall(calls[place].tool, calls[place].arguments, ran)
        return cls(typed, returned, calls)

    def known_text(self, seen: str = "") -> str:
        """Everything typed and returned, and what else the model was shown: where a value may come from."""
        return "\n".join([*self.typed, *(r.text for r in self.returned), seen])

    def from_own_files(self, address: str) -> bool:
        """Whether a read of the user's own files returned this address or number."""
        return bool(address.strip()) and _known(address, SessionRecord(
            [], [r for r in self.returned if r.tool in OWN_FILE_READERS and r.tool != GROUND], []))

    def without_own_files(self) -> SessionRecord:
        """The record without what the user's own files returned."""
        kept = [r for r in self.returned if r.tool not in OWN_FILE_READERS]
        return SessionRecord(self.typed, kept, self.calls)

    def with_shown(self, shown: list[tuple[str, str, bool]]) -> SessionRecord:
        """The record plus what the ground showed this turn: fenced text, and for a whole
        file of the working folder, a successful read (edit_file then needs no read_file)."""
        returned = [Returned(GROUND, source, text, fenced=True) for source, text, _ in shown]
        reads = [
            PastCall("read_file", {"path": source}, succeeded=True)
            for source, _, whole in shown if whole and not source.startswith("kb:")
        ]
        return SessionRecord(self.typed, self.returned + returned, self.calls + reads)


def _arguments(function: dict[str, Any]) -> dict[str, Any]:
    try:
        value = json.loads(function.get("arguments") or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def origin_of(value: str, record: SessionRecord) -> str:
    """"typed by you", "returned by read_file (call_1)", or "in nothing you typed or any tool returned"."""
    needle = value.strip().lower()
    if not needle:
        return "empty"
    if any(needle in text.lower() for text in record.typed):
        return "typed by you"
    for result in record.returned:
        if needle in result.text.lower():
            fenced = ", outside content" if result.fenced else ""
            return f"returned by {result.tool} ({result.call_id}{fenced})"
    return "in nothing you typed or any tool returned"


def argument_origins(arguments: dict[str, Any], record: SessionRecord) -> dict[str, str]:
    return {k: origin_of(str(v), record) for k, v in arguments.items() if isinstance(v, str)}


def outside_escalation(
    arguments: dict[str, Any], record: SessionRecord, own_place: str | None = None,
    named: frozenset[str] = frozenset(), own_files: bool = False,
) -> str | None:
    """Why a call must be asked because an argument first appeared in fenced outside content.
    `own_place`: the argument naming a file in the user's own folders; a read of that file puts
    its path in the fence's label and header, which made "Add butter to my shopping list"
    ask even under `--allow write_file`. A write there may also carry what the user's own files
    hold ("Make todo.txt with the three things from my notes" copies notes.txt); a web page's
    words still escalate it, and a recipient never comes from a file unasked (recipient_refusal).
    `named`: the addresses the user's files give for the person the request asks to message
    ("Let Ana know I'll be late": Ana's line in contacts.md); under `--allow send_message`
    the 1.5B's text to her still stopped for an approval nobody was there to give.
    `own_files`: a message to one of those addresses may carry what the user's own files hold
    too (emailing Mr Patel, the subject "Leaking tap in bathroom" was a line of house.md)."""
    if own_place is not None or own_files:
        record = record.without_own_files()
    for name, value in arguments.items():
        if not isinstance(value, str) or len(value.strip()) < MIN_ESCALATION_CHARS or name == own_place:
            continue
        for token in _tokens(value):
            if token.lower() in named:
                continue
            origin = origin_of(token, record)
            if origin.endswith("outside content)"):
                return f"'{token}' in {name} came from outside content ({origin}), not from you"
    return None


def _tokens(value: str) -> list[str]:
    """The whole value, plus any address or number inside it (an address lifted from a page)."""
    return [value, *EMAIL.findall(value), *PHONE.findall(value)]


def recipient_refusal(arguments: dict[str, Any], record: SessionRecord) -> str | None:
    """A messaging call's addresses and numbers must each come from the user or a tool."""
    for value in arguments.values():
        if not isinstance(value, str):
            continue
        for address in [*EMAIL.findall(value), *PHONE.findall(value)]:
            if _known(address, record):
                continue
            return f"'{address}' is not in anything you typed or any tool returned"
    return None


_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTHS = ("january", "february", "march", "april", "june", "july", "august", "september", "october",
           "november", "december")  # not "may": a word before it is a month
_SHORT_DAYS = {"mon": "monday", "tue": "tuesday", "tues": "tuesday", "wed": "wednesday", "thu": "thursday",
               "thur": "thursday", "thurs": "thursday", "fri": "friday"}  # not "sat", "sun": words too
TIME = re.compile(r"\b(\d{1,2})(?:[:.](\d\d))?\s*([ap])\.?m\b|\b(\d{1,2}):(\d\d)\b", re.IGNORECASE)
CLOCK_NUMBER = re.compile(
    r"\b(\d{1,2})(?:[:.](\d\d)(?:\s*([ap])\.?m\b|\b)|\s*([ap])\.?m\b)"
    r"|(?:\b(?:at|around|about|by|from|until|till|before|after|between|and|to|" + "|".join((*_DAYS, *_SHORT_DAYS))
    + r")\s+|^[^\w\n]*)(\d{1,2})\b(?![:.]\d)",
    re.IGNORECASE | re.MULTILINE,
)
"""A time the text gives: with its minutes or am/pm, or a bare hour after "at", "until", a day
("Thursday 11") and the like, or opening a line (the person's answer "11"). Not any number: "ask-15" in a folder's name
let the 1.5B's made-up "Mon 15:00" pass."""
_SHORT_MONTHS = {"jan": "january", "feb": "february", "apr": "april", "jun": "june", "jul": "july", "aug": "august",
                 "sep": "september", "sept": "september", "oct": "october", "nov": "november", "dec": "december"}
"""Not "mar": a word too. A note's "14 Dec" holds the "December" a message writes."""
DAY_OR_MONTH = re.compile(r"\b(?:" + "|".join((*_DAYS, *_MONTHS, *_SHORT_DAYS, *_SHORT_MONTHS)) + r")\b", re.IGNORECASE)


NUMBER = re.compile(r"(?<![\d.])\d+(?:\.\d+)?(?![\d.]*\d)")
THOUSANDS = re.compile(r"(?<![\d.,-])\d{1,3}(?:,\d{3})+(?!\d|,\d)")
"""A number written with thousands' commas ("43,760", "1,234,567", "£3,950, today"), not a table's cells
("2026-12-04,138,84": the commas after a date's day or another cell separate cells)."""


FOLDER_PATH = re.compile(r"(?<![\w.])(?:~|\.{1,2})?(?:/[\w.@+-]+){2,}/?")
"""An absolute path ("/tmp/st-k9x_ab/work"): its digits are no value anyone gave."""


def without_paths(text: str) -> str:
    """`text` without its folder paths: a working folder "/tmp/st-k9x_ab/work" made an answer's made-up
    "9 months" look shown, about one test run in five."""
    return FOLDER_PATH.sub(" ", text)


def without_thousands(text: str) -> str:
    return THOUSANDS.sub(lambda found: found.group(0).replace(",", ""), text)
"""The comma of "1,200"; not a table's "12:30,20", whose 20 a write of the table keeps."""
GUESS_DIGITS = 2
"""A number of one digit is a count or a list's numbering more often than a value."""
YEAR_AND_MONTH = re.compile(r"\b(\d{4})-(?:0[1-9]|1[0-2])\b(?!-\d)")
"""A month written "2027-01": its "01" is January, which the request names in words."""


CLOCK_NOW = re.compile(r"^(?P<day>Now: .*?)\s+\d{1,2}:\d{2}\s*$", re.MULTILINE)
NOW_SAID = re.compile(r"\b(?:now|just\s+now|right\s+now|this\s+minute)\b", re.IGNORECASE)


def shown_for_values(request: str, seen: str) -> str:
    """What the model was shown that a value may come from: the clock's time only when the user
    said "now" (asked to "Add my meeting with the bank to calendar.txt", the 1.5B wrote "Mon
    17:11", the time it was told)."""
    return seen if NOW_SAID.search(request) else CLOCK_NOW.sub(r"\g<day>", seen)


def guessed_value(arguments: dict[str, Any], record: SessionRecord, skip: frozenset[str], seen: str = ""
                  ) -> tuple[str, str] | None:
    """(argument, value): a time, a day, a month or a number of two digits or more that an acting
    call would write or send and that nothing the user typed, no tool returned and nothing shown
    (`seen`) holds. Asked to "add my meeting with the bank to calendar.txt", the 1.5B wrote a time
    it made up; asked to email Petra a room number nobody gave, it made one up. It almost never asks."""
    known = without_paths(record.known_text(seen))
    times, days = clock_times(known), {_day(d) for d in DAY_OR_MONTH.findall(known)} | _days_of_iso_dates(known)
    this_year = date.today().year  # "January's book" in December is next year's: its year is no guess
    numbers = {float(n) for n in NUMBER.findall(without_thousands(known))} | {float(this_year), float(this_year + 1)}
    for name, value in arguments.items():
        if name in skip or not isinstance(value, str):
            continue
        for found in TIME.finditer(value):
            if time_of(found) not in times:
                return name, found.group(0)
        # a weekday written beside a date is that date's (weekday_beside_another_date checks it), no guess
        for day in DAY_OR_MONTH.findall(WEEKDAY_BY_DATE.sub(r"\g<year>-\g<month>-\g<day>", value)):
            if _day(day) not in days:
                return name, day
        value = ISO_DAY.sub(lambda found: _year_of_a_day_said(found, days, numbers), value)
        for number in NUMBER.findall(without_thousands(TIME.sub(" ", YEAR_AND_MONTH.sub(r"\1", value)))):
            if len(number.replace(".", "")) >= GUESS_DIGITS and float(number) not in numbers:
                return name, number
    return None


VALUE_ASKED_FOR = re.compile(
    r"\b(?:the|my|our|his|her|their)\s+(?:(?!(?:the|my|our|his|her|their)\b)[\w'-]+\s+){0,4}?"
    r"(?<!email )(?<!e-mail )(?<!web )"
    r"(?:total|sum|amount|balance|price|cost|figures?|time|room(?:\s+number)?|number(?!\s+of\b)|address|code|"
    r"hours|miles|mileage|km|distance|spend(?:ing)?|expenses|score|rent|readings?(?!\s+(?:list|pile|group|club))|results|measurements|weights)\b",
    re.IGNORECASE,
)
"""A value the request asks a write or message to carry, one written with digits ("the total of my
budget", "my new address", "the room number", "the time of my next meeting", "my hours for
November": the 1.5B emailed "Please find your hours for November attached."; "my last three blood
pressure readings": "Please find them attached.")."""


SAID_CLAUSE = re.compile(r"\b(?:say|saying|tell\s+\w+|that)\s+(?:that\s+)?(?:I|I'll|I'm|I've|I'd|we|we'll|we're|we've|he|she|"
                         r"they|it|it's|you|my\s+[\w ]+?\s+(?:is|are|was|were|has|have)(?:n't)?)\s", re.IGNORECASE)
"""The words the user asks to be said, in a clause of their own ("to say I'll pay the rent", "that my
expenses are in")."""


def value_left_out(request: str, arguments: dict[str, Any], skip: frozenset[str]) -> str | None:
    """The request's words for a value a write or message must carry, when what it would write
    or send holds no digit at all: the 1.5B texted Petra "Here is my new address." and emailed
    the accountant without the total."""
    asked = VALUE_ASKED_FOR.search(request)
    if asked and re.search(r"\b(?:same|usual)\b", asked.group(0), re.IGNORECASE):
        return None  # "move our review to Thursday at the same time": a time the recipient knows
    if asked and _recipients_address(asked.group(0), [str(v) for k, v in arguments.items() if k in skip]):
        return None
    if asked and (clause := SAID_CLAUSE.search(request)) and clause.start() < asked.start():
        return None  # "to say I'll pay the rent in January": the user's own words, no value to look up
    carried = " ".join(v for k, v in arguments.items() if k not in skip and isinstance(v, str))
    for address in (str(v) for k, v in arguments.items() if k in skip):
        carried = carried.replace(address, " ")  # "Your new address is +44 7700 900123.": the number it goes to
    if asked is None or not carried.strip() or any(c.isdigit() for c in carried):
        return None
    return asked.group(0)


ASKED_THING = re.compile(
    r"(?<!\bto )(?<!\bfrom )(?<!\bin )(?<!\binto )(?<!\bon )(?<!\bof )(?<!\babout )(?<!\bfor )(?<!\bwith )"
    r"\bthe\s+((?:[a-z-]+\s+){0,2}?[a-z-]{3,})\b(?=\s+(?:to|in|from|on)\b|\s*[.,!?]|$)",
    re.IGNORECASE,
)
"""What the request asks to be sent or written: "the order" of "email the order to the supplier"
(not "the supplier": the message goes to it)."""
LABELLED = r"^\s*[-*]?\s*{label}\s*:\s*(\S.*?)\s*$"
KEY_WORD = re.compile(r"\d+(?:[.,]\d+)*|[a-z]{4,}", re.IGNORECASE)


def labelled_value_left_out(
    request: str, arguments: dict[str, Any], skip: frozenset[str], known: str
) -> tuple[str, str] | None:
    """(the request's words, the line) when the request asks a message or write to carry a thing
    a line of what was read or shown gives under that label ("Order: 40 boxes and 10 rolls of
    tape"), and it would go without it: asked to "email the order to the supplier", the 1.5B
    sent "Thank you for your order. We will deliver the items as soon as possible."
    Carried means every number of the line, or half its longer words when it has none. A line
    giving a number or address is who to reach ("Email the vet …" of "Vet: Greenway Vets, 01632
    960111"), not a thing to carry."""
    addresses = [str(v) for k, v in arguments.items() if k in skip]
    carried = " ".join(v for k, v in arguments.items() if k not in skip and isinstance(v, str)).lower()
    if not carried.strip():
        return None
    for asked in ASKED_THING.finditer(request):
        label = asked.group(1).split()[-1]
        found = re.search(LABELLED.format(label=re.escape(label)), known, re.IGNORECASE | re.MULTILINE)
        if found is None or any(address.lower() in found.group(1).lower() for address in addresses):
            continue
        if EMAIL.search(found.group(1)) or PHONE.search(found.group(1)):  # "Vet: Greenway Vets, 01632 …": who, not what
            continue
        keys = [k.lower() for k in KEY_WORD.findall(found.group(1))]
        numbers = [k for k in keys if k[0].isdigit()]
        if numbers and all(re.search(rf"(?<![\d.,]){re.escape(n)}(?![\d]|[.,]\d)", carried) for n in numbers):
            continue
        if not numbers and sum(k in carried for k in keys) * 2 >= len(keys):
            continue
        return asked.group(0), found.group(0).strip()
    return None


def _recipients_address(phrase: str, addresses: list[str]) -> bool:
    """"the supplier address" in "email the order to the supplier address written in it" is
    where the email goes, not a value it carries; "my new address" is the user's own."""
    words = phrase.lower().split()
    return words[-1] == "address" and words[0] not in ("my", "our") and any(EMAIL.search(a) for a in addresses)


def time_of(found: re.Match[str]) -> tuple[int, int]:
    if found.group(4) is not None:
        return int(found.group(4)) % 24, int(found.group(5))
    hour = int(found.group(1)) % 12 + (12 if found.group(3).lower() == "p" else 0)
    return hour, int(found.group(2) or 0)


def clock_times(text: str) -> set[tuple[int, int]]:
    """Every time the text could mean: "11" may be 11:00 or 23:00 ("Thursday at 11")."""
    times = set()
    for hour_text, minute_text, half, bare_half, bare_hour in CLOCK_NUMBER.findall(text):
        hour, minute, half = int(hour_text or bare_hour), int(minute_text or 0), half or bare_half
        if half:
            times.add((hour % 12 + (12 if half.lower() == "p" else 0), minute))
        else:
            times |= {(hour % 24, minute), ((hour + 12) % 24, minute)}
    return times


ISO_DAY = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")


def _days_of_iso_dates(text: str) -> set[str]:
    """The month and weekday of each date written "2026-12-08": a text giving it as "Tuesday 8
    December" guesses neither (the 1.5B's text to Anna of Dad's blood test had been refused)."""
    said = set()
    for found in ISO_DAY.finditer(text):
        with contextlib.suppress(ValueError):
            day = date(*map(int, found.groups()))
            said |= {f"{day:%B}".lower(), f"{day:%A}".lower()}
    return said


def _year_of_a_day_said(found: re.Match[str], days: set[str], numbers: set[float]) -> str:
    """A date written "2027-01-16" of a day said "16 January": only its year is left to check (the
    "01" of a gig added "on 16 January" was refused as a guess five times)."""
    try:
        day = date(*map(int, found.groups()))
    except ValueError:
        return found.group(0)
    return found.group(1) if f"{day:%B}".lower() in days and float(day.day) in numbers else found.group(0)


def weekday_against_said(arguments: dict[str, Any], record: SessionRecord, skip: frozenset[str]
                         ) -> tuple[str, str, str] | None:
    """(the date written, its weekday, the weekday the user said) where a write or message gives a
    date "2026-12-03" (a Thursday) for the one weekday the user said ("Tuesday at 15:00", asked
    the time of their next meeting) and not that weekday's name: the 1.5B wrote today's date."""
    said = " ".join([*record.typed, *(r.text for r in record.returned if r.tool == "ask_user")])
    days = {day for day in _DAYS if re.search(rf"\b{day}\b", said, re.IGNORECASE)}
    if len(days) != 1:
        return None
    day = days.pop()
    for name, value in arguments.items():
        if name in skip or not isinstance(value, str) or re.search(rf"\b{day}\b", value, re.IGNORECASE):
            continue
        for found in ISO_DAY.finditer(value):
            with contextlib.suppress(ValueError):
                written = date(*map(int, found.groups()))
                if f"{written:%A}".lower() != day:
                    return found.group(0), f"{written:%A}", day.capitalize()
    return None


WEEKDAY_BY_DATE = re.compile(r"\b(?P<weekday>" + "|".join(_DAYS) + r"),?\s+(?:the\s+)?(?P<year>\d{4})-(?P<month>\d{2})-(?P<day>\d{2})\b",
                             re.IGNORECASE)


def weekday_beside_another_date(arguments: dict[str, Any], skip: frozenset[str]) -> tuple[str, str] | None:
    """(what a write or message writes, the date's own weekday) where it names a weekday beside a
    date that falls on another: the 1.5B emailed "The Old Mill gig starts at 20:30 on Friday
    2026-12-12", a Saturday."""
    for name, value in arguments.items():
        if name in skip or not isinstance(value, str):
            continue
        for found in WEEKDAY_BY_DATE.finditer(value):
            with contextlib.suppress(ValueError):
                its_day = f"{date(int(found['year']), int(found['month']), int(found['day'])):%A}"
                if its_day.lower() != found["weekday"].lower():
                    return found.group(0), its_day
    return None


def _day(word: str) -> str:
    return _SHORT_DAYS.get(word.lower()) or _SHORT_MONTHS.get(word.lower(), word.lower())


def _known(address: str, record: SessionRecord) -> bool:
    """Typed by the user or returned by a tool the model called: what the ground showed is no source."""
    texts = record.typed + [r.text for r in record.returned if r.tool != GROUND]
    if "@" in address:
        return any(address.lower() in text.lower() for text in texts)
    digits = re.sub(r"\D", "", address)
    return any(digits in re.sub(r"\D", "", text) for text in texts)


def parent_missing(
    parent: str, target: str | None, arguments: dict[str, Any], record: SessionRecord, cwd: str
) -> bool:
    """True when `parent` has not yet run successfully (on the same target, if there is one)."""
    wanted = _target_value(target, arguments, cwd)
    for call in record.calls:
        if call.tool != parent or not call.succeeded:
            continue
        if wanted is None or _target_value(target, call.arguments, cwd) == wanted:
            return False
    return True


def _target_value(target: str | None, arguments: dict[str, Any], cwd: str) -> str | None:
    if target is None or target not in arguments:
        return None
    value = str(arguments[target])
    if target == "path":
        return os.path.normpath(os.path.join(cwd, os.path.expanduser(value)))
    return value
