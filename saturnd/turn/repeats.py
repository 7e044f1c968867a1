"""Things that come round again, and how long things last, worked out from today.

"Bins: black Tues weekly, blue every other Friday (next 4 Dec)": asked "Is it bin
day tomorrow?" on a Friday, the 1.5B answered "Yes, Thursday 4 December"; asked
"Which bin goes out next week?", it gave the blue one, due the week after. Each
clause of a line that names a weekday and a repeat (weekly, every other, a plural
weekday) is a repeat; a fortnightly one counts from the date its clause writes.

So too the rest a small model cannot count: when a repeat is next due from when it was last
done, a day of each month's next turn, an age from a birth date, and the day a thing from a
date stops holding (a warranty, food kept frozen). The dates are read as dates.py reads them.
"""

from __future__ import annotations

import re
from datetime import date

from saturnd.tools.day_steps import from_today, moved
from saturnd.tools.word_match import stems
from saturnd.turn.dates import (
    EVERY,
    MAX_DATES,
    NTH_WEEKDAY,
    WEEK_NAMED,
    WEEKDAYS,
    YEAR,
    before_day,
    content_words,
    dates_gone,
    days_named,
    days_of,
    days_of_the_month,
    week_named,
)
from saturnd.turn.day_lines import NO_LINE_THAT_DAY
from saturnd.turn.listing import DONE_MARK
from saturnd.turn.made_up import NUMBER_WORDS

DAY = re.compile(r"\b(mon|tue|wed|thu|fri|sat|sun)(?:day|sday|nesday|rsday|urday|s|rs?)?s?\b", re.IGNORECASE)
"""A weekday however written ("Sat", "Tues", "Saturdays"), not the "mon" of "money"."""
WEEKLY = re.compile(r"\b(?:weekly|every\s+week|each\s+week|every\s+(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*day|"
                    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days)\b", re.IGNORECASE)
FORTNIGHTLY = re.compile(r"\b(?:fortnightly|every\s+(?:other|second|2|two)\s+(?:week|(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*)|"
                         r"alternate)\b", re.IGNORECASE)


OFF_WEEK = ": not this one"
"""A fortnightly clause's mark on its weekday of the week it skips."""


def repeats_on(lines: list[str], request: str, today: date) -> str:
    """For a question naming a day ("tomorrow", "Friday") or a week ("next week"), the weekly and
    fortnightly clauses of `lines` that fall on it, or that none does; "" where the lines hold no
    such clause."""
    repeats = [repeat for line in lines for repeat in _weekday_repeats(line, today)]
    if not repeats:
        return ""
    said = []
    for word, day in days_named(request, today):
        falling = [clause for clause, weekday, anchor in repeats if _falls_on(day, weekday, anchor)]
        off_week = [f"{clause}{OFF_WEEK}" for clause, weekday, anchor in repeats
                    if anchor is not None and day.weekday() == weekday and not _falls_on(day, weekday, anchor)]
        said_as = f"the {word}" if word[0].isdigit() else word
        label = f"{'' if word.lower() in WEEKDAYS else f'{said_as}, '}{day:%A} {day.day} {day:%B}"
        said.append(f"{label}: {'; '.join(falling + off_week) or NO_LINE_THAT_DAY}")  # "every other Friday": not this one
    if (week := week_named(request, today)) and (which := WEEK_NAMED.search(request)):
        falling = [f"{clause}: {day:%A} {day.day} {day:%B}" for clause, weekday, anchor in repeats
                   for day in week if _falls_on(day, weekday, anchor)]
        missing = [f"{clause}: not that week" for clause, weekday, anchor in repeats
                   if not any(_falls_on(day, weekday, anchor) for day in week)]
        said.append(f"{which.group(0).lower()} ({week[0]:%-d %B} to {week[-1]:%-d %B}): " + "; ".join(falling + missing))
    return f"[Saturn dated] {'; '.join(said)}" if said else ""


def _weekday_repeats(line: str, today: date) -> list[tuple[str, int, date | None]]:
    """(the clause, its weekday, the date a fortnightly one counts from) of each repeat the line writes."""
    found = []
    clauses = re.split(r"[,;]|(?<=\.)\s+", line)
    for at, clause in enumerate(clauses):
        day = DAY.search(clause)
        fortnightly = FORTNIGHTLY.search(clause)
        if day is None or not (fortnightly or WEEKLY.search(clause)):
            continue
        weekday = next(i for i, name in enumerate(WEEKDAYS) if name.startswith(day.group(1).lower()))
        told_next = clauses[at + 1] if at + 1 < len(clauses) and NEXT_ONE.match(clauses[at + 1]) else ""
        anchor = min(days_of(clause, today) or days_of(told_next, today), default=None) if fortnightly else None
        if fortnightly and anchor is None:
            continue  # every other Friday from when: not to be guessed
        found.append((clause.strip(" -*•"), weekday, anchor))  # with its label: "Cleaner (Marta): Fridays 9-12" is who comes
    return found


NEXT_ONE = re.compile(r"^\s*(?:the\s+)?next\s+(?:one\s+)?(?:is\s+|on\s+)?\d", re.IGNORECASE)
"""A clause giving the next day of a repeat before it ("Recycling every other Friday, next 11 Dec")."""


def _falls_on(day: date, weekday: int, anchor: date | None) -> bool:
    if day.weekday() != weekday:
        return False
    return anchor is None or (day - anchor).days % 14 == 0


ADVERBS = {"daily": (1, "day"), "weekly": (1, "week"), "fortnightly": (2, "week"), "monthly": (1, "month"),
           "quarterly": (3, "month"), "yearly": (1, "year"), "annually": (1, "year")}


WHEN_ASKED = re.compile(r"\b(?:when|when's|due|overdue|next|how\s+long|how\s+many\s+(?:days|weeks))\b|"
                        r"\b(?:needs?|want)\s+(?:a\s+)?[a-z]+ing\b", re.IGNORECASE)
"""Asked when, or what needs doing ("Which plants need watering?": the ones due by today)."""


def next_due(lines: list[str], request: str, today: date) -> str:
    """For a line with one date gone and a repeat ("last serviced 12 January 2026, service due every
    12 months"), the next time it falls, when the request asks when: asked when the boiler is due a
    service, the 1.5B answered "every 12 months". Gone already, it is overdue ("test monthly, last
    tested 1 Nov" on 3 December: 1 December, overdue), not the one after."""
    if not WHEN_ASKED.search(request):
        return ""
    said = []
    repeats = _repeats(lines, today)
    monthly = _monthly_days(lines, today)
    before = before_day(request, today)
    asked = content_words(request) - {"when", "due", "next", "renew", "renews", "bill", "bills", "last"}  # "last collected": no thing
    named = [(line, every) for line, every in repeats if asked & content_words(line)]
    monthly_named = [(line, entry, when) for line, entry, when in monthly if asked & content_words(line)]
    if named or monthly_named or any(asked & content_words(line) for line in lines if not line.lstrip().startswith("#")):
        repeats, monthly = named, monthly_named  # "When is car insurance due?": its line, not the TV licence's
    for line, every in repeats:
        dates = dates_gone(line, today)
        if len(dates) != 1 or dates[0][1] > today or NEXT_WRITTEN.search(line):
            continue  # "blue every other Friday (next 4 Dec)" gives its next already
        count, unit = _repeat(every)
        when = moved(dates[0][1], count, unit)  # gone already, it is overdue, not next month's
        if before and when >= before:
            continue  # "What's due before Christmas?": not the car insurance in March
        label = " ".join(EVERY.sub(" ", dates[0][0]).replace(",", " ").split())  # "every 12 months" said after
        label = f"{label}, " if label else ""
        said.append(f"{label}{dates[0][1].day} {dates[0][1]:%B %Y}, every {count} {unit}{'s' if count > 1 else ''}:"
                    f" next {when.day} {when:%B %Y}, a {when:%A}, {from_today(when, today)}"
                    + (" (overdue)" if when < today else ""))
    said += [entry for _, entry, when in monthly if not before or when < before] if not ENDING_ASKED.search(request) else []  # "contract end": its date
    return f"[Saturn dated] {'; '.join(said[:MAX_DATES])}" if said else ""


ENDING_ASKED = re.compile(r"\b(?:end|ends|ending|expire|expires|expiry|finish|finishes|run\s+out)\b", re.IGNORECASE)
NEXT_WRITTEN = re.compile(r"\bnext\s+(?:due\s+)?(?:on\s+)?\d", re.IGNORECASE)


def _monthly_days(lines: list[str], today: date) -> list[tuple[str, str, date]]:
    """A day of the month a line gives without its month ("Membership: £32 a month, renews on the
    15th"), the next to come: asked when it renews, the 1.5B gave back "renews on the 15th"."""
    said = []
    for line in lines:
        for label, when in days_of_the_month(line, today):
            turn = nth.group(0) if (nth := NTH_WEEKDAY.search(line)) else f"the {when.day}{_ordinal(when.day)}"
            said.append((line, f"{label}{turn}: next {when.day} {when:%B %Y}, a {when:%A}, "
                               f"{from_today(when, today)}", when))
    return said


def _ordinal(day: int) -> str:
    return "th" if 10 < day % 100 < 14 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")


def _repeats(lines: list[str], today: date) -> list[tuple[str, re.Match[str]]]:
    """Each line with a repeat, and for a repeat on a line of no date, the lines of its thing
    that have one ("Service every 10,000 miles or 12 months" is for "Last service: 20 June 2026"):
    told only of the repeat, the 1.5B said a car serviced in June was due a service now."""
    found = []
    for line in lines:
        if (every := EVERY.search(line)) is None:
            continue
        if days_of(line, today):
            found.append((line, every))
            continue
        thing = stems(line[: every.start()])
        found += [(other, every) for other in lines if not EVERY.search(other) and thing & stems(other)
                  and days_of(other, today)]
    return found


AGE_ASKED = re.compile(r"\bhow\s+old\b|\bage\b|\bturns?\b|\bturning\b", re.IGNORECASE)
TURNS_ASKED = re.compile(r"\b(?:turns?|turning|birthday|next)\b", re.IGNORECASE)
YEAR_WRITTEN = re.compile(rf"\b{YEAR}\b")
BORN = re.compile(r"\b(?:born|birthday|bday|dob|date\s+of\s+birth|b\.)\b", re.IGNORECASE)


def age(lines: list[str], request: str, today: date) -> str:
    """Asked how old someone is, each birth date's years (and months) to today, and asked what they
    turn, the next birthday: of "Born: 12 May 2022", the 1.5B answered "12 May 2022"."""
    if not AGE_ASKED.search(request):
        return ""
    said = []
    for line in lines:
        if not BORN.search(line):
            continue
        for label, born in dates_gone(line, today):
            if not YEAR_WRITTEN.search(line):
                continue  # a birthday with no year gives no age
            months = (today.year - born.year) * 12 + today.month - born.month - (today.day < born.day)
            years, left = divmod(months, 12)
            turns = moved(born, years + 1, "year")
            said.append(f"{label}{born.day} {born:%B %Y}: " + (_baby_age(born, today, left) if not years else
                        f"{years} year{'s' if years != 1 else ''}" + (f" {left} month{'s' if left != 1 else ''}" if left else ""))
                        + " old today"
                        # the age to come only when asked: shown "4 … old today; 5 on 12 May", the 1.5B said 5
                        + (f"; {years + 1} on {turns.day} {turns:%B %Y}, {from_today(turns, today)}"
                           if TURNS_ASKED.search(request) else ""))
    return f"[Saturn dated] {'; '.join(said[:MAX_DATES])}" if said else ""


def _baby_age(born: date, today: date, months: int) -> str:
    """An age under a year in months and in weeks: "0 years 1 month" is no way to say a baby's."""
    weeks, days = divmod((today - born).days, 7)
    in_weeks = f"{weeks} week{'s' if weeks != 1 else ''}" + (f" {days} day{'s' if days != 1 else ''}" if days else "")
    return f"{months} month{'s' if months != 1 else ''} ({in_weeks})" if months else in_weeks


LASTS = re.compile(
    r"\b(?P<count>\d{1,2}|one|two|three|four|five|six|ten)[\s-]+(?P<unit>year|month)s?'?\s+"
    r"(?P<what>warranty|guarantee|contract|cover|membership|subscription|lease)\b", re.IGNORECASE)
LASTS_ASKED = re.compile(r"\b(?:warranty|guarantee|contract|cover|membership|subscription|lease|run\s+out|"
                         r"expires?|ends?|still|valid|under)\b", re.IGNORECASE)


ENDS = ("(ended)", "(still holds)")


def lasts_until(lines: list[str], request: str, today: date) -> str:
    """For a line with one date and how long a thing from it lasts ("Fridge (Bosch): bought 12
    March 2024, 2 year warranty"), the day it ends and how far that is from today, asked when it
    ends or whether it still holds."""
    if not (LASTS_ASKED.search(request) or USE_FIRST_ASKED.search(request)):
        return ""
    said = []
    for line in lines if LASTS_ASKED.search(request) else []:
        lasts = LASTS.search(line)
        dates = dates_gone(line, today) if lasts else []
        if lasts is None or len(dates) != 1:
            continue
        written = lasts.group("count").lower()
        count = NUMBER_WORDS.get(written) or int(written)
        ends = moved(dates[0][1], count, lasts.group("unit").lower())
        label = line.strip(" -*•").split(":")[0].strip()
        state = ENDS[0] if ends < today else ENDS[1]
        said.append(f"{label}: {dates[0][1].day} {dates[0][1]:%B %Y} + {lasts.group(0)}: ends {ends.day} {ends:%B %Y},"
                    f" {from_today(ends, today)} {state}")
    said += _kept_for(lines, request, today) if not said else []
    first = "oldest first: " if said and USE_FIRST_ASKED.search(request) else ""
    return f"[Saturn dated] {first}{'; '.join(said[:MAX_DATES])}" if said else ""


USE_FIRST_ASKED = re.compile(r"\b(?:eat|eating|use|using|cook|cooking|finish|finishing)\b[^.?!]*\b(?:first|soonest|up)\b|"
                             r"\boldest\b|\bbeen\s+in\s+(?:the\s+\w+\s+)?longest\b", re.IGNORECASE)
"""Asked what to use first ("What needs eating first?"): every dated line, the oldest first."""
KEEPS = re.compile(r"\b(?:keeps?|lasts?|good|use\s+within)\s+(?:for\s+)?(?:up\s+to\s+)?"
                   r"(?P<count>\d{1,2}|one|two|three|four|five|six)\s+(?P<unit>day|week|month|year)s?\b", re.IGNORECASE)


UNDONE_ASKED = re.compile(r"\b(?:un(?:paid|done|finished|sent|read)|not\s+(?:yet\s+)?(?:paid|done|finished)|outstanding|still\s+(?:owed|to))\b",
                          re.IGNORECASE)


def _kept_for(lines: list[str], request: str, today: date) -> list[str]:
    """A line of no date saying how long things keep ("Cooked food keeps 3 months in the freezer"),
    from the date of the line the request names ("Chilli con carne (2 portions) - frozen 12 Oct"):
    asked "Is the chilli still OK?", when it keeps until. Asked what to use first, every dated
    line's, the oldest first (asked "What needs eating first?", the 1.5B answered "The freezer")."""
    rule = next((found for line in lines if (found := KEEPS.search(line)) and not days_of(line, today)), None)
    use_first = USE_FIRST_ASKED.search(request) is not None
    if rule is None and not use_first:
        return []
    dated_lines = []
    open_only = UNDONE_ASKED.search(request) is not None  # "the oldest unpaid one": not the one marked ", paid"
    for line in lines:
        dates = dates_gone(line, today)
        if len(dates) == 1 and (use_first or content_words(request) & content_words(line)) and not (open_only and DONE_MARK.search(line)):
            dated_lines.append((dates[0][1], re.split(r"[(:]|\s[-–]\s|\s[£$€]", line.strip(" -*•"))[0].strip()))  # "INV-12 Acme Ltd"
    said = []
    for written, label in sorted(dated_lines) if use_first else dated_lines:
        if rule is None:
            said.append(f"{label}: {written.day} {written:%B %Y}, {from_today(written, today)}")
            continue
        count, unit = NUMBER_WORDS.get(rule.group("count").lower()) or int(rule.group("count")), rule.group("unit").lower()
        ends = moved(written, count, unit)
        said.append(f"{label}: {written.day} {written:%B %Y} + {rule.group('count')} {unit}s: until "
                    f"{ends.day} {ends:%B %Y}, {from_today(ends, today)} {ENDS[0] if ends < today else ENDS[1]}")
    return said


def _repeat(every: re.Match[str]) -> tuple[int, str]:
    """(count, unit) of "every 3 months" or "monthly"."""
    if every.group("adverb"):
        return ADVERBS[every.group("adverb").lower()]
    written = (every.group("count") or "1").lower()
    return NUMBER_WORDS.get(written) or int(written), every.group("unit").lower()
