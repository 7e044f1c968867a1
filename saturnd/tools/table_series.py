"""A dated table read as a series, not as amounts to add: the hours between each row's start and
end times, what a meter used between its readings, and a level's (a weight's, a balance's) change
over time.

Asked how much gas was used in November, shown the readings' totals, a small model gave the total
or the November reading itself; asked how much weight was lost since October, shown the total of
the kilograms, it gave that. Taking one reading, time or level from another is the harness's to do.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from datetime import date
from decimal import Decimal
from functools import partial
from itertools import pairwise

from saturnd.tools.table_asked import AVERAGE_ASKED
from saturnd.tools.table_cells import (
    CLOCK_TIME,
    ISO_DATE,
    column_total,
    month_of,
    named_cells,
    number,
    plain,
    value_in,
)
from saturnd.tools.table_picks import MAX_GROUPS, SINCE_MONTH, grouping_column


def hours_between(header: list[str], body: list[list[str]], days: Collection[date] = ()) -> str:
    """For a table with a start and an end time on each row (a timesheet, a rota), each row's
    hours and their total, less a break column of minutes: asked how many hours they worked, the
    1.5B subtracts clock times no better than it adds. Not where the table gives its hours itself."""
    clocks = [i for i in range(len(header)) if body and all(CLOCK_TIME.fullmatch(r[i].strip()) for r in body)]
    if len(clocks) != 2 or any(name.strip().lower() in ("hours", "hrs", "duration") for name in header):
        return ""
    start, end = clocks
    rest = next((i for i, name in enumerate(header) if "break" in name.lower() and "min" in name.lower()
                 and all(number(r[i]) is not None for r in body)), None)
    label = next((i for i in range(len(header)) if i not in clocks and i != rest), None)
    spans = []
    for row in body:
        minutes = (_minutes(row[end]) - _minutes(row[start])) % (24 * 60) - int(number(row[rest]) or 0 if rest is not None else 0)
        spans.append((row[label].strip() if label is not None else "", minutes))
    on_the_days = {day.isoformat() for day in days}
    if asked := [span for span in spans if span[0][:10] in on_the_days]:  # the day asked, alone
        spans = asked
    less = f" less {header[rest].strip()}" if rest is not None else ""
    each = ", ".join(f"{name} {_hours(minutes)}".strip() for name, minutes in spans)
    total = f"; total {_hours(sum(minutes for _, minutes in spans))}" if len(spans) > 1 else ""
    return f"[Saturn worked out] hours from {header[start].strip()} to {header[end].strip()}{less}: {each}{total}"


def _minutes(cell: str) -> int:
    hour, minute = re.split(r"[:.]", cell.strip()[:5].rstrip("apm ").strip())[:2]
    half = cell.strip().lower()[-2:]
    return (int(hour) % 12 + (12 if half == "pm" else 0) if half in ("am", "pm") else int(hour)) * 60 + int(minute)


def _hours(minutes: int) -> str:
    """"6.75 hours (6 h 45 min)"."""
    hours, left = divmod(minutes, 60)
    return f"{plain(Decimal(minutes) / 60, places=2)} hours" + (f" ({hours} h {left} min)" if left else "")


READINGS = re.compile(r"reading|meter|odometer", re.IGNORECASE)


def used_between_readings(name: str, header: list[str], body: list[list[str]], numeric: list[int], dates: int,
                          request: str = "") -> str:
    """For a table of meter readings (its name or header says so), what was used between each two
    readings of the columns that count up: asked how much gas was used in November, shown the
    readings' totals, a small model gives the total or the November reading itself. Asked since a
    month, from its first reading to the latest too."""
    if not READINGS.search(f"{name} {' '.join(header)}"):
        return ""
    ordered = sorted(body, key=lambda row: row[dates].strip())
    counting = [i for i in numeric if all(value_in(i, a) <= value_in(i, b) for a, b in pairwise(ordered))]
    if not counting:
        return ""
    spans = []
    for earlier, later in pairwise(ordered):
        start, end = earlier[dates].strip(), later[dates].strip()
        month = f"{month_of(start)} " if start[8:10] == end[8:10] == "01" else ""  # 1st to 1st: that month
        used = ", ".join(f"{header[i].strip()} {plain(value_in(i, later) - value_in(i, earlier))}" for i in counting)
        spans.append(f"{month}({start} to {end}): {used}")
    since = next((row for row in ordered if (found := SINCE_MONTH.search(request))
                  and month_of(row[dates]).split()[0].lower() == found.group(1).lower()), None)
    if since is not None and since is not ordered[-1]:  # "since September": from its first reading to the latest
        used = ", ".join(f"{header[i].strip()} {plain(value_in(i, ordered[-1]) - value_in(i, since))}" for i in counting)
        spans.append(f"since {month_of(since[dates])} ({since[dates].strip()} to {ordered[-1][dates].strip()}): {used}")
    return "[Saturn worked out] used between readings (the readings count up): " + "; ".join(spans[-MAX_GROUPS - 1:])


WEIGHED = re.compile(r"kg|kgs|kilos?|lbs?|pounds|grams|g", re.IGNORECASE)
"""A column named only by the unit it is weighed in."""
LEVELS = re.compile(r"weigh|\bkg\b|\blbs?\b|balance|temperature|\btemp\b|pressure|\bbp\b|systolic|diastolic|pulse|"
                    r"heart|glucose|sugar|height", re.IGNORECASE)


def levels_over_time(name: str, header: list[str], body: list[list[str]], numeric: list[int], dates: int,
                     request: str = "") -> str:
    """For a dated table of levels (a weight, a balance: its name or header says so), the latest,
    the change since the first row and since each month's first, the lowest and highest, the
    average when asked: asked
    how much weight was lost since October, shown the total of the kilograms, a small model
    gives that."""
    if not (all(LEVELS.search(header[i]) for i in numeric) or (len(numeric) == 1 and LEVELS.search(name))):
        return ""  # a bank's amount,balance: the amounts still add up
    if one_row_a_thing(body):
        return ""  # pets.csv's dog and cat, by the day each was born: no level over time
    if all(WEIGHED.fullmatch(header[i].strip()) for i in numeric) and grouping_column(header, body, [*numeric, dates]) is not None:
        return ""  # "date,crop,kg": what was picked of each crop, amounts; one "date,kg" is a weight
    ordered = sorted(body, key=lambda row: row[dates].strip())
    said = []
    for i in numeric:
        first, latest = ordered[0], ordered[-1]
        months = {month_of(row[dates]): row for row in reversed(ordered)}  # each month's first row
        since = ", ".join(f"{month} {signed(value_in(i, latest) - value_in(i, row))}"
                          for month, row in reversed(list(months.items()))) if len(months) <= MAX_GROUPS else ""
        low, high = min(ordered, key=partial(value_in, i)), max(ordered, key=partial(value_in, i))
        column = header[i].strip()
        said.append(f"{column} latest {latest[i].strip()} ({latest[dates].strip()}), first {first[i].strip()}"
                    f" ({first[dates].strip()}), change since the first {signed(value_in(i, latest) - value_in(i, first))}"
                    + (f"; change since the start of {since}" if since else "")
                    + f"; lowest {low[i].strip()} ({low[dates].strip()}), highest {high[i].strip()} ({high[dates].strip()})"
                    + (f"; average {plain(column_total(body, i) / len(body), places=2)}" if AVERAGE_ASKED.search(request) else ""))
    latest_row = f"the latest row: {named_cells(header, ordered[-1])}; " if len(numeric) > 1 and LATEST_ASKED.search(request) else ""
    return "[Saturn worked out] levels over time (not amounts to add): " + latest_row + " | ".join(said)


def one_row_a_thing(body: list[list[str]]) -> bool:
    """Whether the first column names a different thing in each row (not a date, not a number)."""
    firsts = [r[0].strip().lower() for r in body if r]
    return len(firsts) > 1 and all(firsts) and len(set(firsts)) == len(firsts) and not any(
        ISO_DATE.match(f) or number(f) is not None for f in firsts)


LATEST_ASKED = re.compile(r"\b(?:last|latest|most\s+recent|current|now)\b", re.IGNORECASE)
"""Asked the last reading of two levels ("138 over 84"): its whole row (the 1.5B gave the first level alone)."""


def signed(value: Decimal) -> str:
    return ("+" if value > 0 else "") + plain(value)
