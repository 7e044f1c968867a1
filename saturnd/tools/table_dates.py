"""A table's dates as lines that say what each date is for, and a yearly date column (a
birthday) as the day it next falls.

A row holding two dates ("Morgan family,2026-12-18,2026-12-22,4,560,yes") read as a line has its
second date labelled by the cells after it: asked who arrives next, the ground had said "yes, 22
December" and the 1.5B gave that back. Written by the column instead ("Morgan family, arrive:
2026-12-18"), each date says whose it is and what it is.
"""

from __future__ import annotations

import calendar
import csv
import io
import re
from datetime import date, timedelta

from saturnd.tools.table_cells import ISO_DATE, TABLE_SUFFIXES, day_of
from saturnd.tools.word_match import stems


def header_and_rows(name: str, lines: list[str]) -> tuple[list[str], list[list[str]]] | None:
    """A CSV/TSV file's header and the rows of as many cells; None for any other file."""
    if not name.lower().endswith(TABLE_SUFFIXES):
        return None
    dialect = "excel-tab" if name.lower().endswith(".tsv") else "excel"
    rows = [row for row in csv.reader(io.StringIO("\n".join(lines)), dialect) if any(c.strip() for c in row)]
    if len(rows) < 2:
        return None
    return rows[0], [r for r in rows[1:] if len(r) == len(rows[0])]


USER_ASKED = re.compile(r"\b(?:am\s+I|I\s+am|I'm|do\s+I|my\s+(?:next\s+)?(?:turn|go|shift|slot))\b", re.IGNORECASE)
MY_CELL = re.compile(r"(?:^|,)\s*me\s*(?:,|$)", re.IGNORECASE)


def dates_by_column(name: str, lines: list[str], request: str) -> list[str]:
    """`lines` of a table with two or more date columns, one line a row and date column; only the
    columns the request names where it names any ("arriving": "arrive"). Asked when the user is on
    a table whose rows say "me", those rows only. Other lines as they are."""
    if (table := header_and_rows(name, lines)) is None:
        return lines
    header, body = table
    if USER_ASKED.search(request) and any(MY_CELL.search(line) for line in lines[1:]):
        return [lines[0], *(line for line in lines[1:] if MY_CELL.search(line))]  # "When am I on the rota next?"
    columns = [i for i in range(len(header)) if body and all(ISO_DATE.fullmatch(r[i].strip()) for r in body)]
    if len(columns) < 2:
        return lines
    named = [i for i in columns if stems(header[i]) & stems(request)]
    if LATE_ASKED.search(request) and (due := [i for i in columns if DUE_HEADED.search(header[i])]):
        named = due  # "Which library books are overdue?": by "due", not "borrowed"
        done = [i for i in range(len(header)) if i not in columns and any(not r[i].strip() for r in body)
                and any(r[i].strip() for r in body) and all(not r[i].strip() or ISO_DATE.fullmatch(r[i].strip()) for r in body)]
        body = [r for r in body if not any(r[i].strip() for i in done)]  # a book returned is late no more
    said = []
    for row in body:
        label = next((cell.strip() for i, cell in enumerate(row) if i not in columns and cell.strip()
                      and not any(ch.isdigit() for ch in cell)), "")
        said += [f"{label}, {header[i].strip()}: {row[i].strip()}" for i in named or columns]
    return said


LATE_ASKED = re.compile(r"\b(?:overdue|late|past\s+(?:its\s+|their\s+|the\s+)?due)\b", re.IGNORECASE)
DUE_HEADED = re.compile(r"\b(?:due|expir\w*|ends?|deadline|until|by)\b", re.IGNORECASE)
YEARLY = re.compile(r"birthday|born|dob|date\s+of\s+birth|anniversary|b'?day", re.IGNORECASE)
BIRTH = re.compile(r"birth|born|dob|b'?day", re.IGNORECASE)


def yearly_column(header: list[str], body: list[list[str]]) -> int | None:
    """The column of days that come round each year ("birthday": 1962-12-19), if one is dated throughout."""
    return next((i for i, name in enumerate(header) if YEARLY.fullmatch(name.strip())
                 and body and all(day_of(r[i]) for r in body)), None)


def next_of(born: date, today: date) -> date:
    """The day a yearly date next falls, today included; 29 February on 1 March in other years."""
    for year in (today.year, today.year + 1):
        try:
            day = born.replace(year=year)
        except ValueError:
            day = date(year, 3, 1)
        if day >= today:
            return day
    raise AssertionError("a yearly day falls within a year")


def as_next(header: list[str], body: list[list[str]], today: date | None) -> list[list[str]]:
    """The rows with a birthday column's cells as the day each next falls ("1962-12-19" as
    "2026-12-19 (born 1962)"): summed by month, a gift budget had gone by "December 1962" and "December 1990"."""
    column = yearly_column(header, body) if today else None
    if column is None or today is None:
        return body
    since = "born" if BIRTH.search(header[column]) else "since"  # the age stays to be read: "2026-12-19 (born 1962)"
    return [[f"{next_of(day, today).isoformat()} ({since} {day.year})" if i == column and (day := day_of(cell)) else cell
             for i, cell in enumerate(row)] for row in body]


LAST_ASKED = re.compile(r"\b(?:last|latest|most\s+recent)\s+(?P<count>two|three|four|five|six|seven|eight|nine|ten|\d{1,2})\b"
                        r"(?!\s+(?:days?|weeks?|months?|years?|times?)\b)", re.IGNORECASE)
COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}


def last_rows(header: list[str], body: list[list[str]], request: str) -> str:
    """Asked for the last so many of a dated table's rows ("my last three blood pressure
    readings"), those rows, latest last: shown the whole log, the 1.5B asked the user for them."""
    asked = LAST_ASKED.search(request)
    dates = next((i for i in range(len(header)) if body and all(ISO_DATE.fullmatch(r[i].strip()) for r in body)), None)
    if asked is None or dates is None:
        return ""
    count = COUNTS.get(asked["count"].lower()) or int(asked["count"])
    if not 1 < count < len(body):
        return ""
    picked = sorted(body, key=lambda row: row[dates].strip())[-count:]
    said = [f"{row[dates].strip()}: " + ", ".join(f"{header[i].strip()} {row[i].strip()}" for i in range(len(header))
                                                  if i != dates and row[i].strip()) for row in picked]
    return f"[Saturn listed] the last {count} rows by {header[dates].strip()}: " + " | ".join(said)


STILL_NOW = re.compile(r"\b(?:still|now|currently|at\s+the\s+moment|right\s+now|this\s+(?:month|week)|today|yet)\b",
                       re.IGNORECASE)


def days_now(request: str, today: date | None) -> list[date]:
    """The days a question about what holds now means, for a table of rows from one date to another
    ("sow from,sow until"): asked "What can I still sow this month?", the days left of the month
    (the whole month without "still"); "this week", the rest of the week; else today."""
    if today is None or not STILL_NOW.search(request):
        return []
    still = re.search(r"\bstill\b", request, re.IGNORECASE) is not None
    if re.search(r"\bthis\s+month\b", request, re.IGNORECASE):
        first = today if still else today.replace(day=1)
        last = today.replace(day=calendar.monthrange(today.year, today.month)[1])
    elif re.search(r"\bthis\s+week\b", request, re.IGNORECASE):
        first, last = today, today + timedelta(days=6 - today.weekday())
    else:
        first = last = today
    return [first + timedelta(days=n) for n in range((last - first).days + 1)]
