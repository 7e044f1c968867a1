"""Which weekly and fortnightly things fall on the day or week a request names.

"Bins: black Tues weekly, blue every other Friday (next 4 Dec)": asked "Is it bin
day tomorrow?" on a Friday, the 1.5B answered "Yes, Thursday 4 December"; asked
"Which bin goes out next week?", it gave the blue one, due the week after. Each
clause of a line that names a weekday and a repeat (weekly, every other, a plural
weekday) is a repeat; a fortnightly one counts from the date its clause writes.
"""

from __future__ import annotations

import re
from datetime import date

from saturnd.turn.dates import (
    NO_LINE_THAT_DAY,
    WEEK_NAMED,
    WEEKDAYS,
    days_named,
    days_of,
    week_named,
)

DAY = re.compile(r"\b(mon|tue|wed|thu|fri|sat|sun)[a-z]*\b", re.IGNORECASE)
WEEKLY = re.compile(r"\b(?:weekly|every\s+week|each\s+week|every\s+(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*day|"
                    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days)\b", re.IGNORECASE)
FORTNIGHTLY = re.compile(r"\b(?:fortnightly|every\s+(?:other|second|2|two)\s+(?:week|(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*)|"
                         r"alternate)\b", re.IGNORECASE)


def repeats_on(lines: list[str], request: str, today: date) -> str:
    """For a question naming a day ("tomorrow", "Friday") or a week ("next week"), the weekly and
    fortnightly clauses of `lines` that fall on it, or that none does; "" where the lines hold no
    such clause."""
    repeats = [repeat for line in lines for repeat in _repeats(line, today)]
    if not repeats:
        return ""
    said = []
    for word, day in days_named(request, today):
        falling = [clause for clause, weekday, anchor in repeats if _falls_on(day, weekday, anchor)]
        said_as = f"the {word}" if word[0].isdigit() else word
        label = f"{'' if word.lower() in WEEKDAYS else f'{said_as}, '}{day:%A} {day.day} {day:%B}"
        said.append(f"{label}: {'; '.join(falling) or NO_LINE_THAT_DAY}")
    if (week := week_named(request, today)) and (which := WEEK_NAMED.search(request)):
        falling = [f"{clause}: {day:%A} {day.day} {day:%B}" for clause, weekday, anchor in repeats
                   for day in week if _falls_on(day, weekday, anchor)]
        missing = [f"{clause}: not that week" for clause, weekday, anchor in repeats
                   if not any(_falls_on(day, weekday, anchor) for day in week)]
        said.append(f"{which.group(0).lower()} ({week[0]:%-d %B} to {week[-1]:%-d %B}): " + "; ".join(falling + missing))
    return f"[Saturn dated] {'; '.join(said)}" if said else ""


def _repeats(line: str, today: date) -> list[tuple[str, int, date | None]]:
    """(the clause, its weekday, the date a fortnightly one counts from) of each repeat the line writes."""
    found = []
    for clause in re.split(r"[,;]", line):
        day = DAY.search(clause)
        fortnightly = FORTNIGHTLY.search(clause)
        if day is None or not (fortnightly or WEEKLY.search(clause)):
            continue
        weekday = next(i for i, name in enumerate(WEEKDAYS) if name.startswith(day.group(1).lower()))
        anchor = min(days_of(clause, today), default=None) if fortnightly else None
        if fortnightly and anchor is None:
            continue  # every other Friday from when: not to be guessed
        found.append((clause.strip(" -*•").split(":")[-1].strip(), weekday, anchor))
    return found


def _falls_on(day: date, weekday: int, anchor: date | None) -> bool:
    if day.weekday() != weekday:
        return False
    return anchor is None or (day - anchor).days % 14 == 0
