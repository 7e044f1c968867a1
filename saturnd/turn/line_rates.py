"""Amounts and counts so much a unit or a period, worked at the count or the period asked: so
many of a thing the request counts at the rate a line gives for one ("3 days" at "Day rate:
£350"), a count or an amount by one period in another ("about 8 a day" a week, the yearly TV
licence a month, lines of bills summed by period), and an amount on each of the weekdays a line
lists by the week ("Amy does Mon/Wed/Fri, £12 a walk"). A rate one file gives times what a table
counts is rated.py's.

Asked "How much would 3 days' work come to?", the 1.5B answered 787.5; asked how many a week of
"about 8 a day", "8 a day"; asked "How much do I pay Amy a week?", £12.
"""

from __future__ import annotations

import re
from fractions import Fraction

from saturnd.tools.periods import PERIOD, TIMES_A_YEAR, period_asked, period_named
from saturnd.tools.word_match import stems
from saturnd.turn.amounts import ALL_ASKED, MONEY, PENCE, money_written
from saturnd.turn.made_up import NUMBER_WORDS, WORKED_OUT
from saturnd.turn.worked_times import CLOCK_SPAN, MAX_SPANS, plain, span_hours

UNITS = "day|hour|night|week|month|session|lesson|class|visit|ticket|person|people|kid|child|mile|km"
HOW_MANY_OF = re.compile(
    rf"\b(?P<count>\d+(?:\.\d+)?|{'|'.join(w for w in NUMBER_WORDS if w not in ('a', 'an'))})\s+(?:more\s+)?"
    rf"(?P<unit>{UNITS})(?:s|es|ren)?\b(?!\s+(?:ago|until|till|left|away|before|after|later|since))", re.IGNORECASE)
PER_UNIT = {"daily": "day", "hourly": "hour", "nightly": "night", "weekly": "week", "monthly": "month", "people": "person",
            "children": "child"}


def at_a_rate(lines: list[str], request: str) -> str:
    """So many of a thing the request counts ("3 days' work") at the rate a line gives for one of
    it ("Day rate: £350", "£12 an hour", "Hourly rate £40"): asked "How much would 3 days' work
    come to?", the 1.5B answered 787.5."""
    said: list[tuple[bool, str]] = []  # (whether the request names the rate's line, the sum worked at it)
    for found in HOW_MANY_OF.finditer(request):
        unit = PER_UNIT.get(found.group("unit").lower(), found.group("unit").lower())
        count = Fraction(NUMBER_WORDS.get(found.group("count").lower(), 0) or found.group("count"))
        for line in lines:
            amounts = MONEY.findall(line) or [f"0.{int(pence):02d}" for pence in PENCE.findall(line)]  # "45p a mile"
            units = {PER_UNIT.get(word, word.removesuffix("s")) for word in re.findall(r"[a-z]+", line.lower())}
            if len(amounts) == 1 and unit in units:
                rate = Fraction(amounts[0].replace(",", ""))
                named = bool((stems(line) - stems(found.group(0))) & stems(request))  # "2 hours for Greenway": its rate
                said.append((named, f"{found.group(0)} at {line.strip(' -*•')}: {plain(count)} × {money_written(rate)}"
                                   f" = {money_written(count * rate)}"))
    chosen = [worked for named, worked in said if named] or [worked for _, worked in said]
    return f"{WORKED_OUT} {'; '.join(chosen[:MAX_SPANS])}" if said else ""


def amounts_by_period(lines: list[str], request: str) -> str:
    """Asked how much in all of lines that each give an amount by the month, week or year ("Water:
    £38 a month"), their sums by period, and, where the request names a period, everything in it
    ("How much are my bills a month?": the yearly TV licence spread over twelve months too)."""
    if not ALL_ASKED.search(request):
        return ""
    by_period: dict[str, list[tuple[str, Fraction]]] = {}
    for line in lines:
        amounts, periods = MONEY.findall(line), [period_named(found) for found in PERIOD.finditer(line)]
        if len(amounts) != 1 or len(periods) != 1:
            continue
        period = periods[0]
        label = re.split(r"[:\-–(]|\s[£$€]", line.strip(" -*•"))[0].strip() or "amount"
        by_period.setdefault(period, []).append((label, Fraction(amounts[0].replace(",", ""))))
    labels = [label for items in by_period.values() for label, _ in items]
    asked = period_asked(request)
    every = [(label, amount, period) for period, items in by_period.items() for label, amount in items]
    named = [(label, amount, period) for label, amount, period in every if stems(label) & stems(request)]
    one = named or (every if len(every) == 1 else [])  # "How much is the gym a year?" of its one "£32 a month"
    if asked and len(one) == 1 and one[0][2] != asked:  # "How much is the rent a month?" of "£38 a year"
        label, amount, period = one[0]
        return (f"[Saturn worked out] {label}: {money_written(amount)} a {period} = "
                f"{money_written(amount * TIMES_A_YEAR[period] / TIMES_A_YEAR[asked])} a {asked}")
    if len(labels) < 2 or named:  # one line's amount asked
        return ""
    said = [f"a {period}: " + " + ".join(f"{label} {money_written(amount)}" for label, amount in items)
            + (f" = {money_written(sum((amount for _, amount in items), Fraction(0)))}" if len(items) > 1 else "")
            for period, items in by_period.items()]
    if asked and len(by_period) > 1:
        everything = sum((amount * TIMES_A_YEAR[period] / TIMES_A_YEAR[asked] for period, items in by_period.items()
                          for _, amount in items), Fraction(0))
        said.append(f"everything as a {asked}: {money_written(everything)}")
    return "[Saturn worked out] " + "; ".join(said)


COUNT_A_PERIOD = re.compile(r"(?<![£$€\d.,])(\d+(?:\.\d+)?)\s*(?:[a-z]+\s+)?(?=(?:a|per|each|every)\s+(?:day|week|month|quarter|year)\b)",
                            re.IGNORECASE)
DAYS_IN = {"day": Fraction(1), "week": Fraction(7), "month": Fraction(365, 12), "quarter": Fraction(365, 4),
           "year": Fraction(365)}
"""A week is 7 days, not 365/52: "8 a day" is 56 a week."""
HOW_MANY_ASKED = re.compile(r"\bhow\s+(?:many|much)\b", re.IGNORECASE)


def count_by_period(lines: list[str], request: str) -> str:
    """Asked how many of a thing a line counts by one period in another ("about 8 a day", asked
    a week: 56); the 1.5B answered "8 a day"."""
    asked = period_asked(request)
    if not HOW_MANY_ASKED.search(request) or asked is None:
        return ""
    said = []
    for line in lines:
        found = COUNT_A_PERIOD.findall(line)
        periods = [period_named(p) for p in PERIOD.finditer(line)]
        if len(found) != 1 or len(periods) != 1 or periods[0] == asked or MONEY.search(line) or not stems(line) & stems(request):
            continue
        count = Fraction(found[0])
        label = line.split(":")[0].strip(" -*•") if ":" in line else "the line"
        said.append(f"{label}: {plain(count)} a {periods[0]} = {plain(count * DAYS_IN[asked] / DAYS_IN[periods[0]])}"
                    f" a {asked}")
    return f"{WORKED_OUT} {'; '.join(said[:MAX_SPANS])}" if said else ""


DAYS_LISTED = re.compile(r"\b(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)[a-z]*(?:\s*(?:/|,|&|\band\b)\s*"
                         r"(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)[a-z]*)+\b", re.IGNORECASE)
A_PERIOD_ASKED = re.compile(r"\b(?:a|per|each|every|in\s+a)\s+(?P<period>week|month|year)\b|\b(?P<ly>week|month|year)ly\b",
                            re.IGNORECASE)
ONE_WEEKDAY = re.compile(r"\b(?:every\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day|(?:mon|tues|wednes|thurs|fri|satur|sun)days)\b",
                         re.IGNORECASE)
"""One weekday each week ("Thursdays", "every Friday")."""
WEEKS_IN = {"week": Fraction(1), "month": Fraction(52, 12), "year": Fraction(52)}
ONE_A_TIME = re.compile(r"(?:[£$€]\s?(?P<money>\d[\d,]*(?:\.\d+)?)\s*(?:a|per|each)\s+[a-z]+|(?P<count>\d+(?:\.\d+)?)\s+(?P<unit>[a-z]+))",
                        re.IGNORECASE)


def by_the_week_of_days(lines: list[str], request: str) -> str:
    """Asked how much or how many a week (a month, a year) of a line giving an amount on each of
    some weekdays ("Amy does Mon/Wed/Fri, £12 a walk", "2 pints Mon/Wed/Fri", "Lesson: Thursdays
    5pm, £28 a lesson"), the amount times those days, and by 52 weeks a year: asked "How much do I
    pay Amy a week?", the 1.5B gave £12; "How much do lessons cost a month?", "£28 a lesson"."""
    asked = A_PERIOD_ASKED.search(request)
    if asked is None or not HOW_MANY_ASKED.search(request):
        return ""
    period = (asked["period"] or asked["ly"]).lower()
    said = []
    for line in lines:
        days = DAYS_LISTED.search(line) or ONE_WEEKDAY.search(line)
        amounts = [found for found in ONE_A_TIME.finditer(line) if found["money"] and not BY_THE_HOUR.search(found.group(0))
                   or not found["money"] and found["unit"].lower() not in ("am", "pm", "a", "an")]
        if days is None or len(amounts) != 1 or not stems(line) & stems(request) or HOURLY.search(line):
            continue  # "Fridays 9-12, £15 an hour": by_the_hour's
        count = len(re.split(r"\s*(?:/|,|&|\band\b)\s*", days.group(0))) if days.re is DAYS_LISTED else 1
        found = amounts[0]
        each = Fraction((found["money"] or found["count"]).replace(",", ""))
        unit = "" if found["money"] else f" {found['unit']}"
        weekly = f"{line.strip(' -*•')}: {count} day{'s' if count > 1 else ''} ({days.group(0)}) × {money_written(each)}{unit} = "
        weekly += f"{money_written(count * each)}{unit} a week"
        if period != "week":
            weekly += (f"; × {'52 / 12' if period == 'month' else '52'} = "
                       f"{money_written(count * each * WEEKS_IN[period])}{unit} a {period}")
        said.append(weekly)
    return f"{WORKED_OUT} {'; '.join(said[:MAX_SPANS])}" if said else ""


HOURLY = re.compile(r"[£$€]\s?(?P<money>\d[\d,]*(?:\.\d+)?)\s*(?:an|a|per|/)\s*(?:hour|hr)\b", re.IGNORECASE)
HOURS_EACH = re.compile(r"\b(?P<hours>\d+(?:\.\d+)?)\s*(?:hours?|hrs?)\s+(?:a|per|each)\s+(?P<each>visit|session|time|lesson|clean|shift)\b",
                        re.IGNORECASE)
EACH_TIME_ASKED = re.compile(r"\b(?:a|per|each|every)\s+(?:visit|session|time|lesson|clean|shift)\b", re.IGNORECASE)
FORTNIGHTLY = re.compile(r"\bfortnightly\b|\bevery\s+(?:other|2nd|second)\s+week\b|\bevery\s+two\s+weeks\b", re.IGNORECASE)


def by_the_hour(lines: list[str], request: str) -> str:
    """Asked how much a visit, a week or a month of a line paying by the hour for so many hours a
    visit ("£25 an hour, 2 hours a visit") or over a span of the day ("Fridays 9-12, £15 an hour"),
    the hours times the rate, and for a week or a month its visits: asked "How much do I pay the
    gardener each visit?", the 1.5B answered "£25 an hour"."""
    period = A_PERIOD_ASKED.search(request)
    if not HOW_MANY_ASKED.search(request) or not (period or EACH_TIME_ASKED.search(request)):
        return ""
    said = []
    for line in lines:
        rate, each = HOURLY.search(line), HOURS_EACH.search(line)
        span = None if each else CLOCK_SPAN.search(line)
        if rate is None or not (each or span) or not stems(line) & stems(request):
            continue
        if each:
            hours = Fraction(each["hours"])
        else:
            assert span is not None
            (start, start_minute), (end, end_minute) = span_hours(span)
            hours = Fraction((end * 60 + end_minute) - (start * 60 + start_minute), 60)
        pay = Fraction(rate["money"].replace(",", ""))
        worked = f"{line.strip(' -*•')}: {plain(hours)} hours × {money_written(pay)} = {money_written(hours * pay)} a time"
        days = DAYS_LISTED.search(line) or ONE_WEEKDAY.search(line)
        a_week = (Fraction(1, 2) if FORTNIGHTLY.search(line) else
                  Fraction(len(re.split(r"\s*(?:/|,|&|\band\b)\s*", days.group(0))) if days.re is DAYS_LISTED else 1) if days else None)
        if period and a_week is not None:
            asked = (period["period"] or period["ly"]).lower()
            worked += f"; {plain(a_week)} visit{'s' if a_week > 1 else ''} a week: {money_written(hours * pay * a_week)} a week"
            if asked != "week":
                worked += f", × {'52 / 12' if asked == 'month' else '52'} = {money_written(hours * pay * a_week * WEEKS_IN[asked])} a {asked}"
        said.append(worked)
    return f"{WORKED_OUT} {'; '.join(said[:MAX_SPANS])}" if said else ""


RATE_FIGURE = re.compile(r"[=:] (?P<figure>\d+(?:\.\d+)?) a (?P<period>time|week|month|year)\b")


def rate_figure_missed(answer: str, request: str, seen: str) -> str | None:
    """The worked line's figure for the visit, week or month asked (by_the_hour, by_the_week_of_days),
    when the answer does not give it: shown "2 hours × 25 = 50 a time" for "How much do I pay the
    gardener each visit?", the 1.5B answered "£25 an hour"."""
    asked = A_PERIOD_ASKED.search(request)
    period = (asked["period"] or asked["ly"]).lower() if asked else "time" if EACH_TIME_ASKED.search(request) else ""
    if not period or not HOW_MANY_ASKED.search(request):
        return None
    given = re.sub(r"[£$€,]", "", answer)
    for line in seen.splitlines():
        figures = [found["figure"] for found in RATE_FIGURE.finditer(line) if found["period"] == period]
        if line.startswith(WORKED_OUT) and len(figures) == 1 and not re.search(rf"(?<![\d.]){re.escape(figures[0])}(?![\d])", given):
            return line
    return None


BY_THE_HOUR = re.compile(r"\b(?:hour|hr|minute|min)\b", re.IGNORECASE)
"""A rate by the time worked ("£15 an hour"): no amount a day."""


AS_A_PERIOD = re.compile(r"(?:\b\w+ )?as a (?P<period>day|week|fortnight|month|quarter|year): (?P<figure>\d+(?:\.\d+)?)")


def period_figure_missed(answer: str, request: str, seen: str) -> str | None:
    """The ground's figure for the period asked ("monthly as a year: 143.88"), when the answer does
    not give it: asked "What do I pay a year for Spotify?", the 1.5B said how to work it out."""
    asked = period_asked(request)
    found = next((m for line in seen.splitlines() if line.startswith(WORKED_OUT)
                  for m in AS_A_PERIOD.finditer(line) if m["period"] == asked), None)
    if found is None:
        return None
    said = re.sub(r"[£$€,]", "", answer)
    return None if re.search(rf"(?<![\d.]){re.escape(found['figure'])}(?!\d)", said) else f"{WORKED_OUT} {found.group(0)}"
