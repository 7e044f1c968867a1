"""The lines of a month or of a part of the day, for the ground: asked "What did I read in
March?", the lines that name March; "Can I plant garlic now?", the lines of this month; "What do I
take in the morning?", the morning's lines; "Did I miss anyone's birthday?", the dates just gone."""

from __future__ import annotations

import re
from datetime import date

from saturnd.tools.word_match import stems
from saturnd.turn.dates import MONTHS, dates_gone, days_of, months_meant
from saturnd.turn.row_days import year_asked
from saturnd.turn.worked_times import clock_times

MONTH_ASKED = {month: re.compile(r"\b(?:in|during|over|through|for)\s+May\b") if month == "may"
               else re.compile(rf"(?<!\d\s)\b{month}\b(?!\s+\d)", re.IGNORECASE) for month in MONTHS}
"""A month the request names as a whole, not in a date ("12 March")."""
HOW_MUCH = re.compile(r"\bhow\s+much\b", re.IGNORECASE)
MONTH_IN_LINE = {month: re.compile(r"\bMay\b") if month == "may"
                 else re.compile(rf"\b(?:{month}|{month[:3]}{'|sept' if month == 'september' else ''})\b", re.IGNORECASE)
                 for month in MONTHS}
"""A month as a line writes it, whole or short ("Klara and the Sun (Mar)"); "may" only as "May"."""


def month_asked(request: str) -> bool:
    """Whether the request names a month as a whole ("in March", not "12 March")."""
    return any(MONTH_ASKED[month].search(request) for month in MONTHS)


def in_the_month(lines: list[str], request: str, today: date) -> str:
    """Asked what happened in a month ("What did I read in March?"), the lines that name it: the
    1.5B listed every book of the year."""
    named = months_meant(request, today)
    if HOW_MUCH.search(request):  # "How much gas did we use last month?": the meter's, not a line naming it
        return ""
    asked = [month for month in MONTHS if MONTH_ASKED[month].search(named)]
    if not asked and NOW_ASKED.search(request):
        return _this_month(lines, request, today)
    if len(asked) != 1:
        return ""
    said = [_the_months_part(line.strip(), asked[0]) for line in lines if MONTH_IN_LINE[asked[0]].search(line)]
    if not said or len(said) == sum(1 for line in lines if line.strip()):
        return ""
    return f"[Saturn listed] the lines of {asked[0].capitalize()} ({len(said)}): " + "; ".join(said)


WITH_ITS_YEAR = re.compile(r"\b(?:19|20)\d\d\b")


def in_the_year(lines: list[str], request: str, today: date) -> str:
    """Asked which lines fall in a year ("Which vouchers expire this year?"), the dated lines whose
    dates are all in it: the 1.5B listed all three vouchers, two of them expiring next year."""
    year = year_asked(request, today)
    dated = [(line.strip(" -*•"), days) for line in lines
             if WITH_ITS_YEAR.search(line) and (days := days_of(line, today))]  # "3 March" under "Leave 2026" is no next year's
    if year is None or HOW_MUCH.search(request) or len(dated) < 2:
        return ""
    said = [line for line, days in dated if all(day.year == year for day in days)]
    if len(said) == len(dated):
        return ""
    return f"[Saturn listed] the lines dated in {year} ({len(said)} of {len(dated)}): " + ("; ".join(said) or "none")


def _the_months_part(line: str, month: str) -> str:
    """Of a line whose parts each name a month ("Host rota: December Hannah, January Raj"), the
    month's part with the line's label ("Host rota: December Hannah"): given the whole rota, the
    1.5B answered whose turn it was this month with all of it."""
    label, colon, listed = line.rpartition(":") if ":" in line else ("", "", line)
    parts = [part.strip() for part in listed.split(",") if part.strip()]
    named = [[m for m in MONTHS if MONTH_IN_LINE[m].search(part)] for part in parts]
    if len(parts) < 2 or any(len(months) != 1 for months in named):
        return line
    return label + colon + " " + next(part for part, months in zip(parts, named, strict=True) if months == [month])


NOW_ASKED = re.compile(r"\b(?:now|yet|at\s+the\s+moment|right\s+now|currently)\b", re.IGNORECASE)
MONTH_RANGE = re.compile(r"(?=\b([A-Za-z]{3,9})\s*(?:to|-|–|until|till)\s*([A-Za-z]{3,9})\b)")
"""Overlapping, so "Kale - Nov to Feb" finds "Nov to Feb" past "Kale - Nov"."""


SEASONS = {"spring": {2, 3, 4}, "summer": {5, 6, 7}, "autumn": {8, 9, 10}, "fall": {8, 9, 10}, "winter": {11, 0, 1}}
"""A season's months, counted from 0 for January, as the northern half of the world has them."""


def _months_of(line: str) -> set[int]:
    """The months a line names, a range's between ("sow April to June": 4, 5, 6), a season's
    ("feed in spring and summer only": March to August)."""
    months = {n for n, month in enumerate(MONTHS) if any(not _negated(line, found.start()) for found in MONTH_IN_LINE[month].finditer(line))}
    months |= {n for season, numbers in SEASONS.items()
               if any(not _negated(line, found.start()) for found in re.finditer(rf"\b{season}\b", line, re.IGNORECASE))
               for n in numbers}
    for start, end in MONTH_RANGE.findall(line):
        first = next((n for n, month in enumerate(MONTHS) if MONTH_IN_LINE[month].fullmatch(start)), None)
        last = next((n for n, month in enumerate(MONTHS) if MONTH_IN_LINE[month].fullmatch(end)), None)
        if first is not None and last is not None:
            months |= {(first + k) % 12 for k in range((last - first) % 12 + 1)}
    return months


NEGATED_BEFORE = re.compile(r"\b(?:not|except|never|but\s+not|apart\s+from)\s+(?:in\s+|during\s+)?$", re.IGNORECASE)


def _negated(line: str, at: int) -> bool:
    """Whether the month or season at `at` is one the line rules out ("not in winter")."""
    return NEGATED_BEFORE.search(line[:at]) is not None


def _this_month(lines: list[str], request: str, today: date) -> str:
    """Asked whether a thing can be done now, of lines that each name the months for it ("Garlic -
    plant October/November"), or of the one line about it that does ("Feed the monstera … in
    spring and summer only"), those of this month, or that none is: on 3 December the 1.5B said
    garlic could be planted now."""
    monthly = [line.strip() for line in lines if _months_of(line) and not re.search(r"\d", line)]  # months, no dates
    if len(monthly) < 2 and not (monthly and stems(monthly[0]) & stems(request)):
        return _within_a_span(lines, request, today)
    month = MONTHS[today.month - 1].capitalize()
    said = [line for line in monthly if today.month - 1 in _months_of(line)]
    return (f"[Saturn listed] now is {month}: the lines of {month} ({len(said)}): " + "; ".join(said) if said
            else f"[Saturn listed] now is {month}: no line here names {month}")


DAY_MONTH = r"(?P<{0}day>[0-3]?\d)(?:st|nd|rd|th)?\s+(?P<{0}month>[A-Za-z]{{3,9}})"
DAY_SPAN = re.compile(r"\bfrom\s+" + DAY_MONTH.format("first") + r"\s+(?:to|until|till|-|–)\s+" + DAY_MONTH.format("last"),
                      re.IGNORECASE)


def _within_a_span(lines: list[str], request: str, today: date) -> str:
    """Asked whether a thing holds now, of the one line about it that runs from a day to a day ("Water
    troughs are turned off from 1 November to 1 March"), whether today falls in it: the 1.5B said
    "Yes" and quoted the line."""
    said = []
    for line in lines:
        if (found := DAY_SPAN.search(line)) is None or not stems(line[:found.start()]) & stems(request):
            continue
        first, last = (_month_day(found[f"{end}month"], found[f"{end}day"]) for end in ("first", "last"))
        if first is None or last is None:
            continue
        now = (today.month, today.day)
        inside = first <= now <= last if first <= last else now >= first or now <= last  # a span over the new year
        holds = (line[:found.start()] + line[found.end():]).strip(" .,;") + "."  # the line, its span aside
        said.append(f"[Saturn dated] today, {today.day} {MONTHS[today.month - 1].capitalize()}, is "
                    f"{'inside' if inside else 'outside'} {found.group(0).removeprefix('from ')}, so"
                    f" {'this holds now' if inside else 'this does not hold now'}: {holds}")
    return "\n".join(said) if len(said) == 1 else ""


def _month_day(month: str, day: str) -> tuple[int, int] | None:
    number = next((n for n, name in enumerate(MONTHS, 1) if name.startswith(month.lower()[:3])), None)
    return (number, int(day)) if number is not None and 1 <= int(day) <= 31 else None


PART_OF_DAY = re.compile(r"\b(?:in\s+the|at|each|every|this|tonight|before|after)\s+(morning|afternoon|evening|night|bedtime|"
                         r"lunch(?:time)?|breakfast|dinner)s?\b|\b(tonight)\b", re.IGNORECASE)


THIS_PART = re.compile(r"\b(?:this\s+(?:morning|afternoon|evening)|tonight)\b", re.IGNORECASE)
OPENS_WITH_WEEKDAY = re.compile(r"^\W*(?P<day>(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*)\b", re.IGNORECASE)
HOURS_OF = {"morning": (5, 12), "afternoon": (12, 17), "evening": (17, 22), "lunch": (11, 14), "lunchtime": (11, 14)}


def at_that_time_of_day(lines: list[str], request: str, today: date | None = None) -> str:
    """Asked what happens at a part of the day ("What do I take in the morning?"), the lines that
    name it: the 1.5B listed every medicine, the one taken at night too. Asked of this one ("Is there
    a class this morning?") where lines open with weekdays, today's lines only: on a Saturday, the
    1.5B answered with Wednesday's 07:00 spin."""
    found = PART_OF_DAY.search(request)
    if found is None:
        return ""
    part = (found.group(1) or "night").lower()
    weekday_lines = [line for line in lines if OPENS_WITH_WEEKDAY.match(line)]
    if today is not None and THIS_PART.search(request) and len(weekday_lines) > 1:
        todays = [line for line in weekday_lines if line.strip(" -*•")[:3].lower() == f"{today:%a}".lower()]
        said = _of_the_part(todays, part)
        this = f"{'tonight' if part == 'night' else 'this ' + part}, {today:%A}"
        if said:
            return f"[Saturn listed] the lines of {this} ({len(said)}): " + "; ".join(said)
        return f"[Saturn listed] no line of {this}" + (f"; {today:%A}'s: " + "; ".join(line.strip() for line in todays) if todays else "")
    said = _of_the_part(lines, part)
    if not said or len(said) == sum(1 for line in lines if line.strip()):
        return ""
    return f"[Saturn listed] the lines of the {part} ({len(said)}): " + "; ".join(said)


def _of_the_part(lines: list[str], part: str) -> list[str]:
    """The lines that name the part of the day, or, where none does, whose times fall in it."""
    said = [line.strip() for line in lines if re.search(rf"\b{part}s?\b", line, re.IGNORECASE)]
    if not said and part in HOURS_OF:  # "Which exams are in the afternoon?" of a table's "13:30"
        start, end = HOURS_OF[part]
        said = [line.strip() for line in lines if (times := clock_times(line))
                and all(start * 60 <= minutes < end * 60 for _, minutes in times)]
        # "Carer visits 9am and 6pm daily", asked when in the evening: its 6pm (the 1.5B gave both)
        said = said or [f"{line.strip()}: the {part}'s {' and '.join(within)}" for line in lines
                        if (within := [written for written, minutes in clock_times(line) if start * 60 <= minutes < end * 60])]
    return said


MISSED_ASKED = re.compile(r"\b(?:miss(?:ed)?|forg[oe]t(?:ten)?|just\s+(?:gone|been|passed)|recent(?:ly)?)\b", re.IGNORECASE)
JUST_GONE_DAYS = 31


def just_gone(lines: list[str], request: str, today: date) -> str:
    """Asked what was missed, the dates of the last month gone: asked "Did I miss anyone's
    birthday?" on 3 December, the 1.5B named the 21st's to come, where the 2nd and 30 November's
    had gone."""
    if not MISSED_ASKED.search(request):
        return ""
    gone = sorted(((when, label) for line in lines for label, when in dates_gone(line, today)
                   if 0 < (today - when).days <= JUST_GONE_DAYS), reverse=True)
    said = [f"{label}{when.day} {when:%B %Y}, {(today - when).days} day{'s' * ((today - when).days > 1)} ago"
            for when, label in gone]
    return f"[Saturn dated] gone in the last {JUST_GONE_DAYS} days: {'; '.join(said)}" if said else ""


TIME_SPAN = re.compile(r"\b(?P<first>\d{1,2}(?:[:.]\d\d)?)\s*(?P<first_half>am|pm)?\s*(?:-|–|to|until|till)\s*"
                       r"(?P<last>\d{1,2}(?:[:.]\d\d)?)\s*(?P<half>am|pm)\b", re.IGNORECASE)
END_ASKED = re.compile(r"\b(?:finish(?:es)?|end|ends|over|done|until|till|start|starts|begin|begins|what\s+time|when)\b",
                       re.IGNORECASE)  # "What time is the oven man coming?" of "8-10am": 8 to 10, not 8:10


def span_ends(lines: list[str], request: str) -> str:
    """Asked when a thing starts or finishes, or what time it is, of the one line about it giving a
    span of times ("Rehearsals Sundays 4-6pm"), its start and its end: the 1.5B said no finish was
    given, and read "8-10am" as 8:10."""
    if not END_ASKED.search(request):
        return ""
    said = []
    for at, line in enumerate(lines):
        found = TIME_SPAN.search(line)
        heading = lines[at - 1] if at and lines[at - 1].startswith("# ") else ""  # "# Mia's party" over "Sat 12 Dec, 2-4pm"
        if found is None or line.startswith("[Saturn") or not stems(line[:found.start()] + " " + heading) & stems(request):
            continue
        first_half = found["first_half"] or found["half"]
        said.append(f"[Saturn worked out] {line[:found.start()].strip(' -*•:,')}: starts {found['first']}{first_half.lower()},"
                    f" finishes {found['last']}{found['half'].lower()}")
    return said[0] if len(said) == 1 else ""
