"""The lines written for the day or the week a request names by a word that changes with the
clock ("tomorrow", "on Friday", "this week"), or the part of a line that is that day's.

Told "tomorrow is Thursday 3 December 2026" above a week's meal plan, the 1.5B still answered
"What's for dinner tomorrow?" with Wednesday's "leftovers": the harness picks the day's lines.
"""

from __future__ import annotations

import re
from datetime import date

from saturnd.turn.dates import (
    MAX_DATES,
    MINE,
    WEEK_NAMED,
    WEEKDAY_WRITTEN,
    WEEKDAYS,
    content_words,
    days_named,
    days_of,
    ways_written,
    week_named,
)
from saturnd.turn.worked_times import clock_times

TIME_WRITTEN = re.compile(r"\b\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm)\b|\b\d{1,2}[:.]\d\d\b", re.IGNORECASE)


WITHIN, NOT_WITHIN = "within", "not within"
"""A day against a line's span of weekdays ("Open Tue-Sat 9-5")."""
NO_LINE_THAT_DAY = "no line here is for that day"


def on_the_days(lines: list[str], request: str, today: date) -> str:
    """For a question naming a day by a word that changes with the clock, the lines of `lines`
    written for that day: told "tomorrow is Thursday 3 December 2026" above a week's meal plan,
    the 1.5B still answered "What's for dinner tomorrow?" with Wednesday's "leftovers". So too
    the lines dated within the week the request names ("this week": a rota's "30 Nov: …")."""
    said = []
    for word, day in days_named(request, today):
        forms = "|".join(_as_written(form) for form in ways_written(day))
        written = re.compile(rf"\b(?:{forms})s?\b", re.IGNORECASE)  # "Fridays 1:30pm" too
        # "Fri 18 Dec" is a Friday, not this one
        said += [f"{_label(word, day)}: {_with_its_header(part, lines)}" for line in lines
                 if (part := _part_for_the_day(line, written, day, today))]
        said += [f"{_label(word, day)}: {WITHIN if inside else NOT_WITHIN} {days} of \"{line.strip()}\""
                 for line in lines if not _part_for_the_day(line, written, day, today)
                 for days, inside in _in_a_range_of_days(line, day)]
    if (week := week_named(request, today)) and (which := WEEK_NAMED.search(request)):  # a rota's "30 Nov: …"
        label = f"{which.group(0).lower()} ({week[0]:%-d %B} to {week[-1]:%-d %B})"
        in_week = [f"{label}: {line.strip()}" for line in lines if (on := days_of(line, today)) and all(when in week for when in on)]
        said += [f"{label}: {len(in_week)} lines"] * (len(in_week) > 1) + in_week  # "How many things …": 6 said of 5
    if MINE.search(request) and any(re.search(r"\bMe\b", part) for part in said):
        said = [part for part in said if re.search(r"\bMe\b", part)]  # "What am I doing on the 12th?": a rota's "Me" rows
    asked = content_words(request) - content_words(" ".join(word for word, _ in days_named(request, today)))
    held = [len(asked & content_words(part.partition(": ")[2])) for part in said]
    if len(set(held)) > 1:  # "Who's on the till this Saturday morning?": its morning till row, not Bob's sorting
        said = [part for part, count in zip(said, held, strict=True) if count == max(held)]
    if said:
        return f"[Saturn dated] {'; '.join(said[:MAX_DATES])}"
    # asked "Does Ella need anything for school tomorrow?" (a Thursday) of a list by weekday
    # without one, the 1.5B gave Friday's swimming kit
    named = days_named(request, today)
    return f"[Saturn dated] {_label(*named[0])}: {NO_LINE_THAT_DAY}" if named and _by_weekday(lines) else ""


DAY_RANGE = re.compile(r"\b(?P<first>mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?\s*(?:-|–|to|till|until)\s*"
                       r"(?P<last>mon|tue|wed|thu|fri|sat|sun)[a-z]*\b", re.IGNORECASE)
"""A span of weekdays a line gives ("Open Tue-Sat 9-5", "Monday to Friday")."""


def _in_a_range_of_days(line: str, day: date) -> list[tuple[str, bool]]:
    """(the span written, whether `day` falls within it) for each weekday span of `line`: asked "Is
    the library open on Monday?" of "Open Tue-Sat 9-5", Monday is not within it."""
    found = []
    for span in DAY_RANGE.finditer(line):
        first, last = (next(n for n, name in enumerate(WEEKDAYS) if name.startswith(span[part].lower()[:3]))
                       for part in ("first", "last"))
        found.append((span.group(0), (day.weekday() - first) % 7 <= (last - first) % 7))
    return found


def _as_written(form: str) -> str:
    """A weekday's short form capitalised only: "Sun: Sintra" is a Sunday's, "sun cream" is not."""
    if form.isalpha() and len(form) == 3:
        return f"(?-i:{form.capitalize()}|{form.upper()})"
    return re.escape(form)


WEEKDAY_AND_NUMBER = re.compile(r"\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?\s+(?:the\s+)?(?P<number>[12]?\d|3[01])(?:st|nd|rd|th)?\b"
                                r"(?!\s*(?:am|pm|[.:]\d|h\b|hrs?\b|mins?\b))", re.IGNORECASE)
"""A weekday with its day of the month and no month ("Sat 12", "Friday the 11th")."""


def _part_for_the_day(line: str, written: re.Pattern[str], day: date, today: date) -> str:
    """The line, or of a line of clauses by day the ones for `day` ("Dishwasher: Leo on Tuesday,
    Thursday" of "Dishwasher: Ava on Monday, Wednesday, Friday; Leo on Tuesday, Thursday": shown
    the whole line for Thursday, the 1.5B answered Ava; "Ava: piano Sat 10am" of "Ava: swimming
    Tue 5pm, piano Sat 10am"); "" for a line not for that day ("Fri 18
    Dec" is a Friday, not this one)."""
    if any(int(found["number"]) == day.day and written.match(found.group(0)) for found in WEEKDAY_AND_NUMBER.finditer(line)):
        return line.strip()  # "Back Tuesday 5 January (Monday 4th is an inset day)" is the 4th's line too
    if not written.search(line) or not all(when == day for when in days_of(line, today)):
        return ""
    if (numbered := WEEKDAY_AND_NUMBER.search(line)) and int(numbered["number"]) != day.day:
        return ""  # "Sat 12: swimming" is a Saturday, not this one (the 5th)
    if excepted := _the_days_exception(line, written):
        return excepted
    head, colon, rest = line.strip().partition(":")
    clauses = [clause.strip() for clause in rest.split(";")] if colon else []
    if len(clauses) == 1:  # "Ava: swimming Tue 5pm, piano Sat 10am": by comma, where each names its day
        by_comma = [clause.strip() for clause in rest.split(",")]
        clauses = by_comma if all(WEEKDAY_WRITTEN.search(clause) for clause in by_comma) else clauses
    kept = [clause for clause in clauses if written.search(clause)]
    return f"{head}: {'; '.join(kept)}" if 0 < len(kept) < len(clauses) else line.strip()


def _the_days_exception(line: str, written: re.Pattern[str]) -> str:
    """Of a line that gives a thing's time and then the day's own ("School pick-up 3:15pm, Fridays
    1:30pm"), the thing with the day's clause ("School pick-up: Fridays 1:30pm"): shown the whole
    line on a Friday, the 1.5B gave 3:15pm."""
    first, *rest = [clause.strip() for clause in line.strip().split(",")]
    kept = [clause for clause in rest if written.search(clause)]
    if not kept or WEEKDAY_WRITTEN.search(first) or not clock_times(first) or not all(clock_times(c) for c in kept):
        return ""
    thing = TIME_WRITTEN.sub("", first).strip(" -:")
    return f"{thing}: {'; '.join(kept)}" if thing else ""


def _with_its_header(line: str, lines: list[str]) -> str:
    """A table's row with its header's names ("date 2026-12-09, start 08:00, end 14:00"): given the
    bare row, a small model cannot tell which time is the end."""
    rows = [row.strip() for row in lines if row.strip()]
    header, cells = (rows[0].split(",") if rows else []), line.strip().split(",")
    table = (len(header) > 1 and not re.search(r"\d", rows[0])
             and all(row.count(",") == len(header) - 1 and ", " not in row for row in rows))  # "Fri 4 Dec, dentist" is a note
    if not table or cells == header:
        return line.strip()
    return ", ".join(f"{name.strip()} {cell.strip()}" for name, cell in zip(header, cells, strict=True))


def _label(word: str, day: date) -> str:
    """"Friday 4 December" for a weekday named, "tomorrow, Thursday 3 December" for another word."""
    said = f"the {word}" if word[0].isdigit() else word
    return f"{'' if word in WEEKDAYS else f'{said}, '}{day:%A} {day.day} {day:%B}"


def _by_weekday(lines: list[str]) -> bool:
    """Whether the lines are set out by weekday: two or more begin with one's name."""
    return sum(bool(re.match(rf"\W*(?:{'|'.join(w[:3] for w in WEEKDAYS)})", line.strip(), re.IGNORECASE))
               for line in lines) >= 2
