"""The days a table's rows come round or run out, told from today.

Asked "Whose birthday is next?" of a table holding "Mum,1962-12-19", the ground had shown the
birth dates alone and summed the gift budgets by "December 1962": whose day comes next, and what
age it brings, is the harness's to work out. So is when a thing bought on a day with a warranty
of so many years runs out ("Is the dishwasher still under warranty?" of "dishwasher,2024-11-30,2"),
and how old a thing bought on a day is.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from fractions import Fraction

from saturnd.tools.day_steps import from_today, moved
from saturnd.tools.table_cells import day_of, number
from saturnd.tools.table_dates import BIRTH, header_and_rows, next_of, yearly_column
from saturnd.tools.word_match import stems
from saturnd.turn.dates import MAX_DATES
from saturnd.turn.repeats import AGE_ASKED, ENDS

LASTS = re.compile(r"(?P<what>warranty|guarantee|cover)?[\s_]*\(?(?P<unit>years?|months?|yrs?)\)?", re.IGNORECASE)
"""A column of how long each row lasts: "years", "warranty (years)", "guarantee_months"."""


def yearly_next(source: str, lines: list[str], request: str, today: date) -> str:
    """Each row's yearly day next to come with the years it marks, soonest first; only the rows
    the request names by their first text cell where it names any ("How old will Jake be?")."""
    table = header_and_rows(source, lines)
    if table is None or (column := yearly_column(*table)) is None:
        return ""
    header, body = table
    label = _label_column(header, body, {column})
    days = sorted(((next_of(born, today), born, row[label].strip() if label is not None else "")
                   for row in _named(body, label, request) if (born := day_of(row[column]))), key=lambda found: found[0])
    turns = BIRTH.search(header[column]) is not None
    now = turns and re.search(r"\bhow\s+old\s+(?:is|are)\b", request, re.IGNORECASE) is not None
    said = [(f"{who} is {when.year - born.year - (when != today)} now (born {born:%-d %B %Y}); next birthday " if now else f"{who} ")
            + f"{when.day} {when:%B %Y} (a {when:%A}, {from_today(when, today)}), "
            + (f"turns {when.year - born.year}" if turns else f"{when.year - born.year} years")
            for when, born, who in days[:MAX_DATES]]
    column_name = "birthday" if turns else header[column].strip()  # "born next" reads as a day of birth to come
    return f"[Saturn dated] {column_name} next, soonest first: " + "; ".join(said)


def runs_out(source: str, lines: list[str], request: str, today: date) -> str:
    """Each row's end, of a table of a day and how long it lasts from it ("bought,years"), soonest
    first, with whether it has ended; only the rows the request names where it names any. Asked
    how old a thing is, how long ago its day was."""
    table = header_and_rows(source, lines)
    if table is None:
        return ""
    header, body = table
    dated = next((i for i in range(len(header)) if body and all(day_of(r[i]) for r in body)), None)
    lasting = next((i for i, name in enumerate(header) if LASTS.fullmatch(name.strip())
                    and body and all(number(r[i]) is not None for r in body)), None)
    if dated is None:
        return ""
    label = _label_column(header, body, {dated} | ({lasting} if lasting is not None else set()))
    rows = _named(body, label, request)
    name = (lambda row: row[label].strip()) if label is not None else (lambda row: "")
    if AGE_ASKED.search(request) and len(rows) < len(body):  # "How old is the washing machine?"
        return "[Saturn dated] " + "; ".join(f"{name(row)}, {header[dated].strip()} {row[dated].strip()}: {_age(day, today)}"
                                             for row in rows if (day := day_of(row[dated])))
    if lasting is None:
        return ""
    unit = "month" if LASTS.fullmatch(header[lasting].strip())["unit"].lower().startswith("m") else "year"  # type: ignore[index]
    ends = sorted(((moved(day, int(number(row[lasting]) or 0), unit), row) for row in rows if (day := day_of(row[dated]))),
                  key=lambda found: found[0])
    if (year := year_asked(request, today)) is not None:  # "Which warranties run out next year?": 2027's only
        ends = [(when, row) for when, row in ends if when.year == year]
        if not ends:
            return f"[Saturn dated] none runs out in {year}"
    said = [f"{name(row)} {when.day} {when:%B %Y} ({row[dated].strip()} + {row[lasting].strip()} {unit}s): "
            + f"{from_today(when, today)} {ENDS[0] if when < today else ENDS[1]}" for when, row in ends[:MAX_DATES]]
    return "[Saturn dated] when each runs out, soonest first; " + "; ".join(said)  # entries as against_its_end reads them


YEAR_ASKED = re.compile(r"\b(?P<which>next|this|last)\s+year\b|\bin\s+(?P<year>20\d\d)\b", re.IGNORECASE)


def year_asked(request: str, today: date) -> int | None:
    """The year the request names ("next year", "this year", "in 2027"), or None."""
    found = YEAR_ASKED.search(request)
    if found is None:
        return None
    if found["year"]:
        return int(found["year"])
    return today.year + {"next": 1, "this": 0, "last": -1}[found["which"].lower()]


def _age(day: date, today: date) -> str:
    months = (today.year - day.year) * 12 + today.month - day.month - (today.day < day.day)
    years, left = divmod(months, 12)
    return (f"{years} year{'s' if years != 1 else ''}" + (f" {left} month{'s' if left != 1 else ''}" if left else "")
            if months else from_today(day, today)) + (" ago" if months else "")


def _label_column(header: list[str], body: list[list[str]], skip: set[int]) -> int | None:
    """The first column of words naming each row ("name", "item")."""
    return next((i for i in range(len(header)) if i not in skip
                 and all(cell.strip() and not any(ch.isdigit() for ch in cell) for cell in (r[i] for r in body))), None)


def _named(body: list[list[str]], label: int | None, request: str) -> list[list[str]]:
    """The rows whose label the request names, else all."""
    named = [r for r in body if label is not None and stems(r[label]) & stems(request)]
    return named or body


STOCK = re.compile(r".*\b(?:left|remaining|in\s+stock|stock|on\s+hand)\b.*", re.IGNORECASE)
A_DAY = re.compile(r".*\b(?:(?:a|per)\s+day|daily)\b.*", re.IGNORECASE)
RUNS_OUT_ASKED = re.compile(r"\brun(?:s|ning)?\s+out\b|\blast(?:s)?\b|\bneed\s+(?:more|a\s+refill)|\brefill\b|\breorder\b",
                            re.IGNORECASE)


def stock_runs_out(source: str, lines: list[str], request: str, today: date) -> str:
    """Asked when things run out, of a table of what is left and how many go a day ("tablets
    left,times a day"), each row's days left and the day it runs out, soonest first; only the rows
    the request names where it names any. Asked when Dad runs out of metformin, the 1.5B gave the
    table's smallest cells."""
    table = header_and_rows(source, lines) if RUNS_OUT_ASKED.search(request) else None
    if table is None:
        return ""
    header, body = table
    numeric = [i for i in range(len(header)) if body and all(number(r[i]) is not None for r in body)]
    left = next((i for i in numeric if STOCK.fullmatch(header[i].strip())), None)
    a_day = next((i for i in numeric if A_DAY.fullmatch(header[i].strip())), None)
    if left is None or a_day is None:
        return ""
    label = _label_column(header, body, {left, a_day})
    ends = []
    for row in _named(body, label, request):
        use = Fraction(str(number(row[a_day])))
        if use > 0:
            days = int(Fraction(str(number(row[left]))) / use)
            ends.append((days, row[label].strip() if label is not None else "", row))
    said = [f"{who} {row[left].strip()} ÷ {row[a_day].strip()} a day = {days} days: "
            f"{(when := today + timedelta(days=days)).day} {when:%B %Y} (a {when:%A}, {from_today(when, today)})"
            for days, who, row in sorted(ends, key=lambda found: found[0])[:MAX_DATES]]
    return "[Saturn dated] when each runs out at its use a day, soonest first: " + "; ".join(said) if said else ""
