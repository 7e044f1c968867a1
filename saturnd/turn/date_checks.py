"""Answers held against the dates and days the ground worked out (dates.py, day_lines.py,
repeats.py): a count of days, a weekday, a yes/no or a "who" about a day, how often a thing is or
whether it still holds, and when a repeat is next due. Each returns the ground's line to send back
with, or None."""

from __future__ import annotations

import re
from datetime import date

from saturnd.tools.word_match import stems
from saturnd.turn.dates import (
    DAY_NAMED,
    DAYS_ASKED,
    MONTHS,
    NEXT_ASKED,
    NONE_GONE,
    OVERDUE_ASKED,
    OVERDUE_MARK,
    SPAN_ASKED,
    WEEKDAY_WRITTEN,
    WEEKDAYS,
    content_words,
    dates_written,
    days_named,
    days_of,
)
from saturnd.turn.day_lines import NO_LINE_THAT_DAY, NOT_WITHIN, WITHIN
from saturnd.turn.repeats import ENDS, OFF_WEEK, WHEN_ASKED
from saturnd.turn.time_lines import HOURS_OF
from saturnd.turn.worked_times import clock_times

COUNT_ASKED = re.compile(r"\bhow\s+(?:many|long|soon)\b", re.IGNORECASE)


YES_NO_ASKED = re.compile(r"^\W*(?:does|do|did|is|are|was|were|has|have|will|should|am|can|need)\b", re.IGNORECASE)
DAY_LINE = re.compile(
    r"^\[Saturn dated\] (?P<day>(?:[\w ]+, )?(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday) \d{1,2} "
    r"[A-Z][a-z]+): (?P<line>.+)$", re.MULTILINE)
"""on_the_days' line for a day: "[Saturn dated] tomorrow, Friday 4 December: Friday: packed lunch"."""
FREE_ASKED = re.compile(r"\b(?:free|clear|available|empty)\b", re.IGNORECASE)
"""A yes/no of a day being free: no line that day is a yes ("Am I free on Friday?")."""
YES = re.compile(r"^\W*(?:yes|yeah|yep)\b", re.IGNORECASE)
NO = re.compile(r"^\W*(?:no|nope)\b", re.IGNORECASE)
BARE_YES_OR_NO = re.compile(r"^\W*(?:yes|yeah|yep|no|nope)\W*$", re.IGNORECASE)


def bare_yes_or_no(answer: str, request: str) -> bool:
    """A yes or no alone answering a question that asks no yes or no ("Which classes does Jenny take?": "Yes")."""
    return BARE_YES_OR_NO.match(answer) is not None and not YES_NO_ASKED.search(request)


def not_on_that_day(answer: str, request: str, seen: str) -> str | None:
    """The day's line a yes/no answer goes against: asked "Does Maya need her PE kit tomorrow?"
    with "[Saturn dated] tomorrow, Friday 4 December: Friday: packed lunch, home at 3:15" shown,
    and PE kit on Monday's and Thursday's lines, the 1.5B answered "Yes". So too the day's line a
    "who" answer names nobody of (asked "Who's doing drop off tomorrow?" with "tomorrow, Friday 4
    December: Fri: Gran does both" shown, it answered "Sam"), and the day's line a "what" answer
    shares no word with."""
    found = next(DAY_LINE.finditer(seen), None)
    if found and found["line"] == NO_LINE_THAT_DAY and YES_NO_ASKED.search(request) and (
            not YES.search(answer) if FREE_ASKED.search(request) else not NO.search(answer)):
        return f"{found['day']}: {found['line']}"  # "Is there a class on Sunday?" answered "Yoga"; "Am I free?" a no
    if found and FREE_ASKED.search(request) and YES_NO_ASKED.search(request) and (busy := _busy_then(found["line"], request)) is not None:
        # "Am I free on Tuesday evening?" of "Tue 8: dentist 4:15pm": free then, a no goes against it
        against = YES.search(answer) and busy or NO.search(answer) and not busy
        return f"{found['day']}: {found['line']}" if against else None
    if WHO_ASKED.search(request):
        return _someone_else_that_day(answer, request, seen)
    if WHAT_ASKED.search(request):
        return _nothing_of_that_day(answer, request, seen)
    if not YES_NO_ASKED.search(request) or not (YES.search(answer) or NO.search(answer)):
        return None
    day_words = " ".join(named.group("day") for named in DAY_NAMED.finditer(request)) + " " + " ".join(WEEKDAYS)
    names = " ".join(re.findall(r"\b[A-Z][a-z]+", request))
    asked = content_words(request) - content_words(f"{day_words} {names} need needs got bring take") - {"today", "tomorrow"}
    if found is None or not asked:
        return None
    # the day's line of the thing asked: "Recycling every other Friday: not this one", not the milkman's before it
    found = next((day for day in DAY_LINE.finditer(seen) if asked & content_words(day["line"])), found)
    others = [line for line in seen.splitlines() if not line.startswith("[Saturn") and asked & content_words(line)]
    line = found.group("line")  # "not within Tue-Sat of "Open Tue-Sat 9-5"": its quote's words are not the day's
    if line.startswith((WITHIN, NOT_WITHIN)):  # asked "closed?", a day not within the opening days is a yes
        on_the_day = line.startswith(WITHIN) != bool(re.search(r"\b(?:closed|shut)\b", request, re.IGNORECASE))
    else:
        on_the_day = any(asked & content_words(clause) and not clause.endswith(OFF_WEEK) for clause in line.split("; "))
    if (YES.search(answer) and not on_the_day and others) or (NO.search(answer) and on_the_day):
        return f"{found.group('day')}: {found.group('line')}"
    return None


def _busy_then(line: str, request: str) -> bool | None:
    """Whether the day's line has something at the part of the day asked ("evening"): None where
    no part is asked or the line gives no time to tell by."""
    part = re.search(rf"\b({'|'.join(HOURS_OF)})\b", request, re.IGNORECASE)  # "Tuesday evening", "in the morning"
    hours = HOURS_OF[part.group(1).lower()] if part else None
    times = clock_times(line)
    if hours is None or not times:
        return None
    return any(hours[0] * 60 <= minutes < hours[1] * 60 for _, minutes in times)


SOONEST = re.compile(r"^\[Saturn dated\] (?:[\w ]+ next, )?soonest first: (?P<first>[^;\n]+)", re.MULTILINE)
WHICH_NEXT = re.compile(r"^\W*(?:which|who|whose|what)\b.*\bnext\b", re.IGNORECASE)


def soonest_unnamed(answer: str, request: str, seen: str) -> str | None:
    """The thing that comes next, when asked which one it is and the answer does not name it: asked
    "Which subscription renews next?" with "soonest first: Times, 9 December 2026: …" shown, the
    1.5B answered "9 December 2026"."""
    found = SOONEST.search(seen) if WHICH_NEXT.search(request) else None
    if found is None:
        return None
    named = content_words(re.split(r"\d", found["first"])[0]) - content_words(request)
    return found["first"].strip() if named and not named & content_words(answer) else None


WHAT_ASKED = re.compile(r"^\W*what(?:'s|’s|s|\s+is|\s+are|\s+do|\s+does|\s+needs?|\s+have)?\b(?!\s+(?:time|day)\b)",
                        re.IGNORECASE)


def _nothing_of_that_day(answer: str, request: str, seen: str) -> str | None:
    """The day's line a "what" answer shares no word with: asked "What needs using up today?" with
    "today, Thursday 3 December: - Chicken thighs: 600g, use by 3 Dec" shown, the 1.5B answered
    "Spinach, Rice, Tinned tomatoes"."""
    found = next(DAY_LINE.finditer(seen), None)
    if found is None:
        return None
    line_words = content_words(found.group("line")) - content_words(request) - {name.lower() for name in WEEKDAYS}
    said = content_words(answer) - content_words(request)
    if line_words and said and not said & line_words:
        return f"{found.group('day')}: {found.group('line')}"
    # a part of the day's list only: "Wed: History, Maths (geometry)" answered "Maths (geometry)"
    items = [item for item in re.split(r",\s*|\s+and\s+", found.group("line").partition(": ")[2]) if content_words(item)]
    named = [item for item in items if content_words(item) & said]
    return f"{found.group('day')}: {found.group('line')}" if len(items) > 1 and named and len(named) < len(items) else None


WHO_ASKED = re.compile(r"^\W*who(?:'s|’s|\s+is|\s+does|\s+do|\s+will)?\b", re.IGNORECASE)
PERSON = re.compile(r"\b(?:[A-Z][a-z]+|I|me|you)\b")
NOBODY = re.compile(r"\b(?:no\s*one|nobody|none|no\s+school|not\s+on|no\s+line)\b", re.IGNORECASE)


NAMED_CELLS = re.compile(r"^\s*[a-z][a-z_ ]* \d{4}-\d\d-\d\d, ")
"""A table's row written as its columns' names and values ("date 2026-12-20, tea Mark, …")."""


def _the_cell_asked(line: str, request: str) -> str:
    """Of a table's row written "tea Mark, setting up me", the one cell whose column the request
    names ("Who's setting up on the 20th?": "me", not the tea's Mark); "" where not one."""
    if not NAMED_CELLS.match(line):
        return ""
    cells = [cell for cell in line.split(", ") if len(cell.split()) > 1
             and stems(" ".join(cell.split()[:-1])) & stems(request)]
    return cells[0].split()[-1] if len(cells) == 1 else ""


def _someone_else_that_day(answer: str, request: str, seen: str) -> str | None:
    found = next(DAY_LINE.finditer(seen), None)
    if found is None or ";" in found.group("line"):
        return None
    if found["line"] == NO_LINE_THAT_DAY:  # "Who's doing the school run tomorrow?" of a Saturday: nobody
        named = {word.lower() for word in PERSON.findall(answer)} - {name.lower() for name in WEEKDAYS}
        return f"{found['day']}: {found['line']}" if named and not NOBODY.search(answer) else None
    line = re.sub(r"^\W*[A-Za-z]+\s*:", "", found.group("line"))  # "Fri: Gran does both": its weekday aside
    said = {word.lower() for word in PERSON.findall(answer)} - {name.lower() for name in WEEKDAYS}
    given = {word.lower() for word in PERSON.findall(_the_cell_asked(line, request) or line)}
    if given and said and not said & (given | ({"you", "i", "me"} if given & {"i", "me"} else set())):
        return f"{found.group('day')}: {found.group('line')}"
    return None


MAP_ENTRY = re.compile(r"^- .+? \(\d[\d.]*\s?[KMG]?i?B\)(?::|$)")
"""A line of the ground's folder map ("- notes.txt (50 B): Bin day: Tues …"), not the file's own."""
HOW_OFTEN = re.compile(r"\b(?:daily|weekly|fortnightly|monthly|quarterly|yearly|annually)\b", re.IGNORECASE)
HOW_MANY_FOR = re.compile(r"\bfor\s+(\d{1,2})\b(?!\s*(?:[ap]\.?m\b|[:.]\d|%|minutes?|mins?|hours?|days?|weeks?|nights?|"
                          r"months?|years?))", re.IGNORECASE)
"""How many a thing is for ("booked for 4"), not how long."""


def against_its_line(answer: str, request: str, seen: str) -> str | None:
    """The line a yes/no answer about how often, on which weekday or for how many a thing is goes
    against: asked "Is the bin collection weekly?" with "Bin day: Tues (green = garden waste,
    fortnightly)" shown, the 1.5B answered "Yes, bin collection is weekly.", and "Is dinner booked
    for 5?" yes by "(booked for 4)". A yes where the line gives another, or a no where it gives the
    one asked; returns the line."""
    if not YES_NO_ASKED.search(request) or not (YES.search(answer) or NO.search(answer)):
        return None
    for written in (HOW_OFTEN, WEEKDAY_WRITTEN, HOW_MANY_FOR):
        asked = {_as_one_value(found) for found in written.findall(request)}
        if len(asked) != 1:
            continue
        topic = content_words(written.sub(" ", request))
        for line in seen.splitlines():
            given = {_as_one_value(found) for found in written.findall(line)}
            if (line.startswith("[Saturn") or MAP_ENTRY.match(line) or not given or request.strip() in line
                    or not topic & content_words(written.sub(" ", line))):  # the request's words, quoted back
                continue
            if (YES.search(answer) and not asked & given) or (NO.search(answer) and given == asked):
                return line.strip()
    return None


NONE_ON = re.compile(r"^\W*(?:no|none)\b|\b(?:cancell?ed|called\s+off)\b", re.IGNORECASE)


def against_a_none_line(answer: str, request: str, seen: str) -> str | None:
    """The line a yes to whether a thing is on a day goes against, where the line says there is none
    that day: asked "Is there rehearsal on the 23rd?" with "No rehearsal on 23 December or 30
    December." shown, the 1.5B answered "Yes"."""
    if not YES_NO_ASKED.search(request) or not YES.search(answer):
        return None
    today = today_shown(seen)
    days = {day for _, day in [*days_named(request, today), *dates_written(request, today)]}
    topic = content_words(request)
    for line in seen.splitlines():
        if (line.startswith("[Saturn") or MAP_ENTRY.match(line) or request.strip() in line or not NONE_ON.search(line)
                or not topic & content_words(line)):
            continue
        if days & days_of(line, today):
            return line.strip()
    return None


NOT_BEFORE = re.compile(r"\b(?:from|after|not\s+before|opens?\s+at|starts?\s+at)\s+(?=\d)", re.IGNORECASE)
NOT_AFTER = re.compile(r"\b(?:by|before|until|till|closes?\s+at|latest)\s+(?=\d)", re.IGNORECASE)


def against_its_time(answer: str, request: str, seen: str) -> str | None:
    """The line a yes/no answer about a time of day goes against, where the line gives the time
    a thing opens from or closes by: asked "Can I check in at 1pm?" with "Hotel: The Grange, check-in
    from 3pm" shown, the 1.5B answered "Yes"."""
    asked = clock_times(request)
    if len(asked) != 1 or not YES_NO_ASKED.search(request) or not (YES.search(answer) or NO.search(answer)):
        return None
    topic = content_words(request.replace(asked[0][0], " "))
    for line in seen.splitlines():
        if line.startswith("[Saturn") or MAP_ENTRY.match(line) or request.strip() in line:
            continue
        for bound, earliest in ((NOT_BEFORE, True), (NOT_AFTER, False)):
            for found in bound.finditer(line):
                times = clock_times(line[found.end():])
                if not times or line.find(times[0][0], found.end()) != found.end():
                    continue
                near = line[max(0, found.start() - 40):found.start()]  # "check-in from 3pm": what opens then
                if not topic & content_words(near):
                    continue
                fits = asked[0][1] >= times[0][1] if earliest else asked[0][1] <= times[0][1]
                if (YES.search(answer) and not fits) or (NO.search(answer) and fits):
                    return line.strip()
    return None


TREND_ASKED = re.compile(r"\b(?:going|gone|coming|trending|heading)\s+(down|up)\b|\b(falling|dropping|decreasing|"
                         r"rising|increasing|climbing)\b", re.IGNORECASE)
DOWN = frozenset({"down", "falling", "dropping", "decreasing"})
LEVEL_CHANGE = re.compile(r"(?P<column>[\w ]+?) latest (?P<latest>[\d.]+) \([^)]*\), first (?P<first>[\d.]+) \([^)]*\),"
                          r" change since the first (?P<change>[+-]?[\d.]+)")


def against_the_trend(answer: str, request: str, seen: str) -> str | None:
    """Levels' change since the first reading a yes/no answer about their trend goes against:
    asked "Is my blood pressure going down?" with systolic 142 → 131 shown, the 1.5B answered "No";
    returns the levels first to latest."""
    asked = TREND_ASKED.search(request)
    if not asked or not YES_NO_ASKED.search(request) or not (YES.search(answer) or NO.search(answer)):
        return None
    changes = [found for line in seen.splitlines() if line.startswith("[Saturn worked out] levels over time")
               for found in LEVEL_CHANGE.finditer(line)]
    signs = {float(found["change"]) > 0 for found in changes if float(found["change"])}
    if not changes or len(signs) != 1:
        return None
    down_asked, went_down = (asked.group(1) or asked.group(2)).lower() in DOWN, not signs.pop()
    if bool(YES.search(answer)) == (down_asked == went_down):
        return None
    return "levels " + ", ".join(f"{found['column'].strip(' |:')} {found['first']} → {found['latest']} ({found['change']})"
                                 for found in changes)


DATE_WORDS = frozenset({"due", "use", "best", "before", "back", "expires"})


def overdue_missed(answer: str, request: str, seen: str) -> str | None:
    """The dated entries gone by their date, when asked what is overdue and the answer names none of
    them: asked "Which invoice is overdue?" with "INV 102 Blue Door Cafe, 30 November 2026: …
    (gone: overdue)" shown, the 1.5B answered "There are no invoices marked as overdue."."""
    if not OVERDUE_ASKED.search(request):
        return None
    gone = [entry.strip() for line in seen.splitlines() if line.startswith("[Saturn dated]")
            for entry in line.removeprefix("[Saturn dated]").split(";") if entry.strip().endswith(f"({OVERDUE_MARK})")]
    said = (content_words(answer) | set(re.findall(r"\d+", answer))) - content_words(request) - DATE_WORDS
    named = [entry for entry in gone if said & (content_words(entry.split(",")[0]) | set(re.findall(r"\d+", entry.split(",")[0])))]
    if gone:
        entries = [entry.strip() for line in seen.splitlines() if line.startswith("[Saturn dated]") and OVERDUE_MARK in line
                   for entry in line.removeprefix("[Saturn dated]").split(";")]
        to_come = [entry for entry in entries if entry not in gone
                   and said & (content_words(entry.split(",")[0]) - content_words(" ".join(gone)))]
        # "The Salt Path, Intermezzo, Piranesi": two of them due in days to come
        return "; ".join(gone) if not named or to_come else None
    # none gone by: "Is anything past its date?" answered "Yes, the rice is past its date." (good till June)
    none_gone = next((line.removeprefix("[Saturn dated]").strip() for line in seen.splitlines()
                      if line.startswith("[Saturn dated]") and line.endswith(NONE_GONE)), None)
    entries = none_gone.split(";")[:-1] if none_gone else []
    if none_gone and (YES.search(answer) or any(said & content_words(entry.split(",")[0]) for entry in entries)):
        return none_gone
    return None


def against_its_end(answer: str, request: str, seen: str) -> str | None:
    """The dated end of a thing a yes/no answer goes against: asked "Is the laptop still under
    warranty?" with "Laptop: … ends 20 November 2026, 13 days ago (ended)" shown, the 1.5B answered
    "Yes"; a yes where it ended, a no where it still holds."""
    said_yes = bool(YES.search(answer) or STILL_HOLDS.search(answer) and not NOT_HOLDING.search(answer))
    said_no = bool(NO.search(answer) or NOT_HOLDING.search(answer))
    if not YES_NO_ASKED.search(request) or said_yes == said_no:
        return None
    asked = content_words(request) - {"still", "under", "valid"}
    entries = [entry.strip() for line in seen.splitlines() if line.startswith("[Saturn dated]")
               for entry in line.removeprefix("[Saturn dated]").split(";") if entry.strip().endswith(ENDS)]
    named = [entry for entry in entries if asked & content_words(entry.split(":")[0])]
    if len(named) != 1:
        return None
    ended = named[0].endswith(ENDS[0])
    return named[0] if (said_yes and ended) or (said_no and not ended) else None


STILL_HOLDS = re.compile(r"\b(?:is|are)\s+still\s+(?:under|valid|covered|in\s+date|active)\b", re.IGNORECASE)
NOT_HOLDING = re.compile(r"\b(?:no\s+longer|not\s+(?:still\s+)?(?:under|valid|covered)|(?:has|have)\s+(?:ended|expired|run\s+out))\b",
                         re.IGNORECASE)
"""An answer's yes or no without the word: "The dishwasher is still under warranty", "It has expired"."""




def _as_one_value(word: str) -> str:
    """"Tues" and "Tuesdays" as "tue", "annually" as "yearly"."""
    word = word.lower()
    return "yearly" if word == "annually" else word if HOW_OFTEN.fullmatch(word) else word[:3]


NEXT_DUE_ENTRY = re.compile(r"^\s*(?P<label>[^,;]*),[^;]*?\bnext (?P<day>\d{1,2}) (?P<month>[A-Z][a-z]+) (?P<year>\d{4})")


DUE_ASKED = re.compile(r"\b(?:over)?due\b", re.IGNORECASE)
IN_DAYS = re.compile(r"\bin (\d+) days\b")
NOT_YET_DAYS = 14
"""Asked whether a repeat is due soon ("this week", "soon"), one next due further off than this is not."""
SOON_ASKED = re.compile(r"\b(?:soon|this|next|coming|week|month|fortnight)\b", re.IGNORECASE)


def against_next_due(answer: str, request: str, seen: str) -> str | None:
    """The next time a repeat falls, when a yes/no answer to whether it is due goes against it:
    asked "Is the boiler service due?" with "next 15 January 2027, … in 43 days" shown, the 1.5B
    answered "Yes"; a no where it is overdue."""
    if not (YES_NO_ASKED.search(request) and DUE_ASKED.search(request)) or not (YES.search(answer) or NO.search(answer)):
        return None
    for entry, _ in _next_due_entries(request, seen):
        days = IN_DAYS.search(entry)
        if (YES.search(answer) and days and int(days.group(1)) > (NOT_YET_DAYS if SOON_ASKED.search(request) else 0)) or (
                NO.search(answer) and entry.endswith("(overdue)")):
            return entry
    return None


WHICH_NEED_DOING = re.compile(r"^\W*(?:which|what)\b.*\b(?:needs?|due)\b", re.IGNORECASE)


def not_due_named(answer: str, request: str, seen: str) -> str | None:
    """The repeats due by today, when asked which need doing the answer names one not due yet:
    asked "Which plants need watering?", the 1.5B named the peace lily, next due in 3 days."""
    if not WHICH_NEED_DOING.search(request):
        return None
    entries = [(entry.strip(), found) for line in seen.splitlines() if line.startswith("[Saturn dated]")
               for entry in line.removeprefix("[Saturn dated]").split(";") if (found := NEXT_DUE_ENTRY.match(entry))]
    due = [entry for entry, _ in entries if entry.endswith("(overdue)") or re.search(r"\btoday\b", entry)]
    later = [found["label"].split()[0] for entry, found in entries if IN_DAYS.search(entry) or "tomorrow" in entry]
    if any(re.search(rf"\b{re.escape(word)}\b", answer, re.IGNORECASE) for word in later if word):
        return "due by today: " + ("; ".join(due) if due else "none")
    return None


def _next_due_entries(request: str, seen: str) -> list[tuple[str, re.Match[str]]]:
    """The "[Saturn dated]" entries of when a repeat is next due whose label the request names."""
    asked = content_words(request) - {"due", "next", "when"}
    named = [(entry.strip(), found, len(asked & content_words(found.group("label"))))
             for line in seen.splitlines() if line.startswith("[Saturn dated]")
             for entry in line.removeprefix("[Saturn dated]").split(";")
             if (found := NEXT_DUE_ENTRY.match(entry)) and asked & content_words(found.group("label"))]
    most = max((count for _, _, count in named), default=0)
    return [(entry, found) for entry, found, count in named if count == most]  # "the cactus", not every "water"


WHEN_GONE_ASKED = re.compile(r"\bwhen\s+(?:was|were|did|had)\b", re.IGNORECASE)


def next_due_missed(answer: str, request: str, seen: str) -> str | None:
    """The "[Saturn dated]" next time a repeat falls, for the thing the request asks when of, when
    the answer gives another date: asked "When's the car service due?" with "Service last, 2
    February 2026, every 12 months: next 2 February 2027" shown, the 1.5B answered with the MOT's
    "14 March"."""
    if not WHEN_ASKED.search(request) or COUNT_ASKED.search(request) or WHEN_GONE_ASKED.search(request):
        return None  # "When was the boiler last serviced?" asks the date gone, not the next
    if YES_NO_ASKED.search(request) and (YES.search(answer) or NO.search(answer)):
        return None  # "Is the boiler service due?" answered yes or no: against_next_due's to judge
    for entry, found in _next_due_entries(request, seen):
        if not _date_given(answer, found.group("day"), found.group("month"), found.group("year")):
            return f"[Saturn dated] {entry}"
    return _not_the_soonest(answer, request, seen)


def _not_the_soonest(answer: str, request: str, seen: str) -> str | None:
    """The soonest "[Saturn dated]" entry of those to come, asked what is next: where the request
    names its thing and the answer gives no date for it ("When's pocket money next?": "every
    Saturday"), or names none of them and the answer gives a later one's date ("When's Dad's next
    appointment?": the 15th's diabetes check, before it the 8th's blood test)."""
    line = SOONEST_LINE.search(seen)
    if line is None or not NEXT_ASKED.search(request) or re.search(r"\b(?:today|tonight|tomorrow)\b", answer, re.IGNORECASE):
        return None
    entries = [found for entry in line["entries"].split("; ") if (found := DATED_ENTRY.match(entry))]
    if not entries or _date_given(answer, entries[0]["day"], entries[0]["month"], entries[0]["year"]):
        return None
    asked = content_words(request) - {"next", "when"}
    named = asked & content_words(entries[0]["label"])
    later = any(_date_given(answer, e["day"], e["month"], e["year"]) for e in entries[1:])
    if named or (later and not any(asked & content_words(e["label"]) for e in entries)):
        return f"[Saturn dated] {entries[0].group(0)}"
    return None


SOONEST_LINE = re.compile(r"^\[Saturn dated\] soonest first: (?P<entries>.+)$", re.MULTILINE)
DATED_ENTRY = re.compile(r"(?P<label>[^,;]*), (?P<day>\d{1,2}) (?P<month>[A-Z][a-z]+) (?P<year>\d{4})[^;]*")


def gives_the_date(answer: str, dated: str) -> bool:
    """Whether the answer gives the date of a "[Saturn dated]" entry ("Dr Okafor blood test, 8
    December 2026: …"), or the entry has none to give."""
    found = NEXT_DATE.search(dated) or DATED_ENTRY.search(dated.removeprefix("[Saturn dated]"))
    return found is None or _date_given(answer, found["day"], found["month"], found["year"])


NEXT_DATE = re.compile(r"\bnext (?P<day>\d{1,2}) (?P<month>[A-Z][a-z]+) (?P<year>\d{4})")
"""A day of the month's next date ("Phone, the 20th: next 20 December 2026, …")."""


def _date_given(answer: str, day: str, month: str, year: str) -> bool:
    """Whether the answer gives the date, in any of the ways it is written, not with another year
    ("9 March 2026" for the car insurance's next 9 March 2027)."""
    iso = f"{year}-{MONTHS.index(month.lower()) + 1:02d}-{int(day):02d}"
    return iso in answer or any(
        (said := re.search(rf"(?:\b0?{day}(?:st|nd|rd|th)?\s+(?:of\s+)?{written}\b|\b{written}\s+0?{day}(?:st|nd|rd|th)?\b)"
                           rf"(?:,?\s+(?P<year>\d{{4}}))?", answer, re.IGNORECASE)) and said["year"] in (None, year)
        for written in (month, month[:3]))


def another_entrys_date(answer: str, request: str, seen: str) -> str | None:
    """The entry of a soonest-first line the answer names, when it gives another entry's date for
    it: shown "Pizza Express 2 for 1, 20 December 2026: …; John Lewis gift card expires, 31 March
    2027: …", the 1.5B answered "Pizza Express 2-for-1 expires, 31 March 2027"."""
    found = SOONEST_LINE.search(seen)
    if found is None:
        return None
    entries = list(DATED_ENTRY.finditer(found["entries"]))
    said = content_words(answer)
    named = [e for e in entries if (own := {w for w in content_words(e["label"]) if not w.isdigit()}) and own <= said]
    given = [e for e in entries if _date_given(answer, e["day"], e["month"], e["year"])]
    if len(named) == 1 and given and named[0] not in given:
        return named[0].group(0).strip()
    return None


def miscounted_days(answer: str, request: str, seen: str) -> str | None:
    """The "[Saturn dated]" line shown, when the request asks how many days (or how long) until a
    thing and the answer's numbers are not those of one of its dates (of the one the request
    names, where it names one): shown "Insurance renews, 3 March 2027: a Wednesday, in 91 days (13
    weeks)", the 1.5B answered "3 weeks"; shown the MOT "in 90 days (12 weeks 6 days)" beside the
    insurance "in 43 days (6 weeks 1 day)", it answered "6 weeks 5 days". Where the request names
    none of several, the soonest ("How many days until the trip?": the train out, not back).
    Returns the dated line, or only its date of the thing asked when the request names one."""
    numbers = set(re.findall(r"\d+", answer))
    if SPAN_ASKED.search(request) and not DAYS_ASKED.search(request):
        span = next((line for line in seen.splitlines() if line.startswith("[Saturn dated]") and " night" in line), None)
        return span if span and numbers and not numbers & set(re.findall(r"(\d+) (?:nights?|days)", span)) else None
    if not COUNT_ASKED.search(request) or not DAYS_ASKED.search(request):
        return None
    shown = _dated_lines_of_the_file_named(seen, request)
    if not shown or not numbers:
        return None
    entries = [entry for line in shown for entry in line.removeprefix("[Saturn dated]").split(";")]
    asked = content_words(request) - {"days", "weeks", "many", "long", "until", "till"}
    named = [entry for entry in entries if asked & content_words(entry.split(",")[0])]
    if not named and (first := _soonest(entries)) is not None:
        named = [first]  # "How many days until the trip?": its first date, not the train back's
    if any(_gives_the_count(numbers, entry.split(": ", 1)[-1].split(",", 1)[-1]) for entry in named or entries):
        return None
    return f"[Saturn dated] {named[0].strip()}" if len(named) == 1 else "\n".join(shown)  # the one asked, alone


def _dated_lines_of_the_file_named(seen: str, request: str) -> list[str]:
    """The "[Saturn dated]" lines shown; only those of the files the request names where it names
    any ("How many days until my exams start?": exams.csv's, not the tutor's Tuesday in revision.md)."""
    source, dated = "", []
    for line in seen.splitlines():
        if line.startswith("--- "):
            source = line.removeprefix("--- ").split(" ", 1)[0].rsplit(".", 1)[0]
        elif line.startswith("[Saturn dated]"):
            dated.append((source, line))
    asked = stems(request)
    named = [line for source, line in dated if asked & stems(re.sub(r"[^a-z]+", " ", source.lower()))]
    return named or [line for _, line in dated]


def _soonest(entries: list[str]) -> str | None:
    """The entry to come soonest, of several none of which the request names."""
    coming = [(int(found.group(1)), entry) for entry in entries if (found := IN_DAYS.search(entry))]
    return min(coming)[1] if len(coming) > 1 else None


def worked_out_date(quote: str) -> str:
    """The answer a miscounted_days send-back's one dated thing gives, the model having missed it
    twice: "Dentist, 4 December 2026: a Friday, tomorrow." ("" for a line of several)."""
    entry = quote.removeprefix("[Saturn dated]").strip()
    return "" if ";" in entry or not entry else f"{entry}."


def _gives_the_count(numbers: set[str], said: str) -> bool:
    """Whether an answer's `numbers` are those of "in 90 days (12 weeks 6 days)": the days, or the
    weeks with their days ("5 days" is not "in 39 days (5 weeks 4 days)"); "tomorrow" is 1 day, "today" none."""
    counts = set(re.findall(r"\d+", said)) | ({"1"} if "tomorrow" in said else {"0"} if "today" in said else set())
    days = re.search(r"(\d+) days?\b(?!\))", said)
    weeks = re.search(r"\((\d+) weeks?(?: (\d+) days?)?\)", said)
    if not numbers <= counts:
        return False
    return days is None or days.group(1) in numbers or (weeks is not None and weeks.group(1) in numbers
                                                         and (weeks.group(2) is None or weeks.group(2) in numbers))


NOW_SHOWN = re.compile(r"^Now: \w+ (\d{4})-(\d\d)-(\d\d)", re.MULTILINE)


def today_shown(seen: str) -> date:
    """The day the ground's clock line shows the model ("Now: Thursday 2026-12-03 08:27 UTC")."""
    found = NOW_SHOWN.search(seen)
    return date(*map(int, found.groups())) if found else date.today()


NOW_LINE = re.compile(r"^Now: \w+ (?P<day>\d{4}-\d\d-\d\d) (?P<clock>\d\d:\d\d)", re.MULTILINE)
CLOCK_ASKED = re.compile(r"\bwhat\s+(?:time|day|date)\s+is\s+(?:it|today)\b|\bwhat'?s\s+(?:the\s+)?(?:time|date|today)\b|"
                         r"\btoday'?s\s+date\b|\b(?:time|date)\s+now\b|\bnow\b", re.IGNORECASE)


def the_clock_given(answer: str, request: str, seen: str) -> str | None:
    """The ground's clock line, when the answer gives its date and time though the request does not
    ask the time now: asked "When do we fly?", the 1.5B answered "Friday 2026-12-04 01:24 UTC"."""
    found = NOW_LINE.search(seen)
    if found is None or CLOCK_ASKED.search(request) or not re.search(rf"(?<![\d:]){found['clock']}(?![\d])", answer):
        return None  # "… is scheduled for 05:03 UTC": the clock's minute, asked when to be there
    return found.group(0)


def wrong_weekday(answer: str, request: str, today: date) -> str | None:
    """The date the request writes with its weekday, when the request asks what day it falls on
    and the answer names another ("What day of the week is 14 February 2027?" answered
    "Wednesday", shown "… is Sunday 14 February 2027")."""
    written = dates_written(request, today)
    said = {name for name in WEEKDAYS if re.search(rf"\b{name}\b", answer, re.IGNORECASE)}
    if len(written) != 1 or not said or not re.search(r"\bwhat\s+day\b|\bwhich\s+day\b", request, re.IGNORECASE):
        return None
    label, day = written[0]
    if f"{day:%A}".lower() in said:
        return None
    return f"[Saturn dated] {label} is {day:%A} {day.day} {day:%B %Y}"


NONE_THIS_MONTH = re.compile(r"^\[Saturn listed\] now is (\w+): no line here names \1$", re.MULTILINE)


def against_this_month(answer: str, request: str, seen: str) -> str | None:
    """The ground's "now is December: no line here names December", when a yes answers whether a
    thing can be done now: asked "Can I plant garlic now?" of "Garlic - plant October/November",
    the 1.5B said yes."""
    found = NONE_THIS_MONTH.search(seen)
    if found is None or not YES_NO_ASKED.search(request) or not YES.search(answer):
        return None
    return found.group(0).removeprefix("[Saturn listed] ")


NONE_ON_THE_DAYS = re.compile(r"^\[Saturn worked out\] (?P<line>no rows with [^:\n]+: none of the \d+)$", re.MULTILINE)
SAYS_NONE = re.compile(r"\b(?:no|none|nothing|nobody|not\s+any)\b", re.IGNORECASE)


def none_on_the_days_missed(answer: str, request: str, seen: str) -> str | None:
    """The table's line that none of its rows falls on the days asked, when the answer names some
    all the same: asked "What homework is due tomorrow?", the 1.5B named three, due other days."""
    found = NONE_ON_THE_DAYS.search(seen)
    if YES_NO_ASKED.search(request) and (YES.search(answer) or NO.search(answer)):
        return None  # a yes or no: yes_or_no_against_the_rows holds it, by what is asked ("Do I have Wednesday off?")
    return found["line"] if found and not SAYS_NONE.search(answer) else None


ROWS_ON_THE_DAY = re.compile(r"^\[Saturn worked out\] (?P<line>the rows dated \d{4}-\d\d-\d\d \(\d+\): [^\n]+)$", re.MULTILINE)
OFF_ASKED = re.compile(r"\b(?:off|free|clear|available)\b", re.IGNORECASE)


def yes_or_no_against_the_rows(answer: str, request: str, seen: str) -> str | None:
    """The table's rows of the day a yes/no asks about, or its line that none falls on it, when
    the answer says the other: asked "Am I working on Christmas Eve?" with its 2026-12-24 shift
    shown, the 1.5B said no; asked "Do I have Wednesday off?" with no row that day, no."""
    if not YES_NO_ASKED.search(request) or not (YES.search(answer) or NO.search(answer)):
        return None
    off = OFF_ASKED.search(request) is not None
    if (rows := ROWS_ON_THE_DAY.search(seen)) and (NO.search(answer) if not off else YES.search(answer)):
        return rows["line"]
    if (none := NONE_ON_THE_DAYS.search(seen)) and (NO.search(answer) if off else YES.search(answer)):
        return none["line"]
    return None
