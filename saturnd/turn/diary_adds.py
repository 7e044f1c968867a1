"""A thing put in a diary of dated lines ("Mon 7 Dec - dentist 8:40"), written as its lines are.

Asked "Put the boiler man in for Friday at 9am." of diary.txt, the line it comes to is the
harness's to write: the day the request names, in the diary's own way of writing days, then the
thing and its time, among the other days in order.
"""

from __future__ import annotations

import re
from datetime import date, time, timedelta

from saturnd.gate.provenance import TIME, time_of
from saturnd.tools.word_match import stems
from saturnd.turn.dates import days_named, days_of
from saturnd.turn.errands import asked_action
from saturnd.turn.lists_named import ListToWrite
from saturnd.turn.retrieval import KB_SOURCE, Document

DIARY_LINE = re.compile(r"^(?P<bullet>[-*•]\s+)?(?P<weekday>Mon|Tue|Wed|Thu|Fri|Sat|Sun)\w*\s+(?P<day>\d{1,2})"
                        r"(?:\s+(?P<month>[A-Z][a-z]{2,8})\.?)?(?P<sep>\s*[-–:]\s*)")
"""A diary's dated line: "Mon 7 Dec - dentist 8:40", or under a month's heading "- Sat 5: swimming 9am"."""
PUTTING = frozenset({"put", "add", "book", "note"})
NOT_THE_THING = re.compile(
    r"^\W*(?:please\s+)?(?:put|add|pop|stick|book|pencil|note)\s+(?:in\s+)?|\s+(?:in|into|on|to)\s+(?:my|the|our)\s+(?:diary|calendar)\b|"
    r"\s+in\s+for\b|\s+(?:for|on|at|in)\s*$|[.!]+\s*$", re.IGNORECASE)
MIN_DIARY_LINES = 3


def diary_line_added(request: str, documents: list[Document], today: date, now: time | None = None) -> ListToWrite | None:
    """The one diary of the folder, with a line for the one day the request names: the diary's way
    of writing that day, then the thing and its time; among the other days in date order. A
    weekday that is today, at a time gone by `now`, is next week's ("Friday at 9am" on a Friday
    afternoon)."""
    named = days_named(request, today)
    days = {day for _, day in named} | days_of(request, today)
    said_time = TIME.search(request)
    if asked_action(request) not in PUTTING or len(days) != 1:
        return None
    day = days.pop()
    if day == today and now and said_time and named and named[0][0] in WEEKDAY_NAMES and _minutes(said_time) < now.hour * 60 + now.minute:
        day += timedelta(days=7)
    thing = request
    for words in [*(found.group(0) for found in re.finditer(
            r"\b(?:on\s+|for\s+)?(?:this\s+|next\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\b(?:on\s+|for\s+)?(?:today|tomorrow)\b",
            request, re.IGNORECASE)), *([f"at {said_time.group(0)}", said_time.group(0)] if said_time else [])]:
        thing = thing.replace(words, " ", 1)
    thing = re.sub(r"\s+", " ", NOT_THE_THING.sub(" ", NOT_THE_THING.sub(" ", thing))).strip(" ,.-")
    thing = re.sub(r"^(?:the|a|an)\s+", "", thing, flags=re.IGNORECASE) if thing.lower().startswith(("the ", "a ", "an ")) else thing
    found = []
    for doc in documents:
        lines = doc.text.rstrip("\n").split("\n")
        dated = [(n, match) for n, line in enumerate(lines) if (match := DIARY_LINE.match(line))]
        if doc.source.startswith(KB_SOURCE) or len(dated) < MIN_DIARY_LINES or not thing:
            continue
        first = dated[0][1]
        new = f"{_day_written(day, first)}{thing}" + (f" {said_time.group(0)}" if said_time else "")
        after = [n for n, match in dated if _day_of(match, today) is not None and _day_of(match, today) <= day]  # type: ignore[operator]
        at = (max(after) + 1) if after else dated[0][0]
        found.append(ListToWrite(doc.source, "\n".join([*lines[:at], new, *lines[at:]]) + "\n"))
    return found[0] if len(found) == 1 else None


def _day_written(day: date, like: re.Match[str]) -> str:
    """`day` as the diary line `like` writes its day, bullet and separator and all: "- Mon 7: ",
    "Mon 7 Dec - "."""
    month = "" if not like["month"] else f" {day:%B}"[:len(like["month"]) + 1] if len(like["month"]) <= 3 else f" {day:%B}"
    return f"{like['bullet'] or ''}{day:%a} {day.day}{month}{like['sep']}"


WEEKDAY_NAMES = frozenset({"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"})


def _minutes(found: re.Match[str]) -> int:
    """Minutes after midnight of a time found by provenance.TIME ("9am", "14:30")."""
    hour, minute = time_of(found)
    return hour * 60 + minute


def _day_of(match: re.Match[str], today: date) -> date | None:
    if match["month"]:
        return next(iter(days_of(f"{match['day']} {match['month']}", today)), None)
    # no month: the day of that number nearest today that falls on its weekday ("Sat 5" in December)
    near = [when for shift in (-1, 0, 1, 2) if (when := _nth_of_month(today, shift, int(match["day"])))
            and f"{when:%a}" == match["weekday"][:3].title()]
    return min(near, key=lambda when: abs((when - today).days), default=None)


def _nth_of_month(today: date, shift: int, number: int) -> date | None:
    year, month = divmod(today.month - 1 + shift, 12)
    try:
        return date(today.year + year, month + 1, number)
    except ValueError:
        return None


CANCEL_ON_A_DAY = re.compile(r"^\W*(?:please\s+)?cancel\s+(?:the\s+|my\s+|our\s+)?(?P<thing>[\w' -]+?)\s+(?:on\s+|for\s+)?"
                             r"(?:the\s+\d{1,2}(?:st|nd|rd|th)?|(?:this\s+|next\s+)?\w+day|today|tomorrow|tonight)\s*[.!]?\s*$",
                             re.IGNORECASE)


def cancelled_on_the_day(request: str, documents: list[Document], today: date) -> ListToWrite | None:
    """Asked to cancel a thing on a day ("Cancel swimming on the 12th."), the one diary line for
    that day naming it, gone; of a line with more than the thing ("swimming 9am, Dan's drinks
    7pm"), only the thing's clause."""
    asked = CANCEL_ON_A_DAY.match(request)
    days = {day for _, day in days_named(request, today)}
    if asked is None or len(days) != 1:
        return None
    day, thing = days.pop(), stems(asked["thing"])
    found = []
    for doc in documents:
        lines = doc.text.rstrip("\n").split("\n")
        for n, line in enumerate(lines):
            match = DIARY_LINE.match(line)
            if doc.source.startswith(KB_SOURCE) or match is None or _day_of(match, today) != day or not thing <= stems(line):
                continue
            clauses = line[match.end():].split(",")
            kept = [clause for clause in clauses if not thing <= stems(clause)]
            rest = [*lines[:n], *([line[:match.end()] + ",".join(kept).strip()] if kept and len(kept) < len(clauses) else []),
                    *lines[n + 1:]]
            found.append(ListToWrite(doc.source, "\n".join(rest) + "\n"))
    return found[0] if len(found) == 1 else None


MOVE_TO_A_DAY = re.compile(r"^\W*(?:please\s+)?(?:move|change|shift|push|put\s+back)\s+(?:the\s+|my\s+|our\s+)?(?P<thing>[\w' -]+?)"
                           r"\s+(?:to|till|until)\s+", re.IGNORECASE)


def moved_to_a_day(request: str, documents: list[Document], today: date) -> ListToWrite | None:
    """Asked to move a thing to another day ("Move the dentist to Thursday at 10am."), the one
    diary line of it taken off its day and put on the new one, as the diary writes days, with
    the time asked or its own."""
    asked = MOVE_TO_A_DAY.match(request)
    # a weekday to move to is the coming one, not today's ("to Friday" on a Friday: the 11th)
    days = {day + timedelta(days=7) if day == today and word.lower().endswith("day") and word.lower() != "today" else day
            for word, day in days_named(request[asked.end():], today)} if asked else set()
    if asked is None or len(days) != 1:
        return None
    day, thing = days.pop(), stems(asked["thing"])
    said_time = TIME.search(request[asked.end():])
    for doc in documents:
        lines = doc.text.rstrip("\n").split("\n")
        dated = [(n, match) for n, line in enumerate(lines) if (match := DIARY_LINE.match(line))]
        theirs = [(n, match) for n, match in dated if thing and thing <= stems(lines[n][match.end():])]
        if doc.source.startswith(KB_SOURCE) or len(dated) < MIN_DIARY_LINES or len(theirs) != 1:
            continue
        n, match = theirs[0]
        what = lines[n][match.end():]
        if "," in what:  # a day of several things: moving one is more than this line
            return None
        old_time = TIME.search(what)
        what = (TIME.sub("", what).strip(" ,") + f" {said_time.group(0) if said_time else old_time.group(0) if old_time else ''}").strip()
        new = f"{_day_written(day, match)}{what}"
        rest = [*lines[:n], *lines[n + 1:]]
        after = [at for at, line in enumerate(rest) if (found := DIARY_LINE.match(line)) and (when := _day_of(found, today)) and when <= day]
        at = max(after) + 1 if after else next(at for at, line in enumerate(rest) if DIARY_LINE.match(line))
        return ListToWrite(doc.source, "\n".join([*rest[:at], new, *rest[at:]]) + "\n")
    return None
