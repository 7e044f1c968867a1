"""A table's cells as numbers, dates, months and named cells: what table_sums and the checks of
what is asked of a table's rows (table_asked) read them as."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from datetime import date
from decimal import Decimal, InvalidOperation

from saturnd.tools.word_match import stems

TABLE_SUFFIXES = (".csv", ".tsv")
BLANK = "(blank)"
CLOCK_TIME = re.compile(r"(?:[01]?\d|2[0-3])[:.][0-5]\d(?:\s*[ap]m)?", re.IGNORECASE)
ISO_DATE = re.compile(r"\s*(\d{4})-(\d{2})(?:-(\d{2}))?\b")
"""A day, or a month written "2026-10" (a bills table's month column)."""
MONTHS = [date(2000, n, 1).strftime("%B").lower() for n in range(1, 13)]


def number(cell: str) -> Decimal | None:
    text = cell.strip().replace(",", "").replace("€", "").replace("$", "").replace("£", "")
    if not text:
        return None
    try:
        return Decimal(text)
    except InvalidOperation:
        return None


def named_cells(header: list[str], row: list[str]) -> str:
    """A row as its cells by name ("date 2026-11-29, km 16.0"): a bare "2026-11-29,16.0,97:45,long
    run" had the 1.5B give the first number it saw."""
    return ", ".join(f"{name.strip()} {_as_given(cell.strip())}" for name, cell in zip(header, row, strict=True) if cell.strip())


NEXT_OF_YEARLY = re.compile(r"(?P<next>\d{4}(?P<day>-\d\d-\d\d)) \((?P<since>born|since) (?P<year>\d{4})\)")
"""A yearly day's cell as table_dates.as_next writes it: "2027-08-30 (born 2022)"."""


def _as_given(cell: str) -> str:
    """A yearly day's cell as the file has it, its next day after: "born 2027-08-30 (born 2022)"
    read as a birth to come."""
    found = NEXT_OF_YEARLY.fullmatch(cell)
    return f"{found['year']}{found['day']} (next {found['next']})" if found else cell


def stems_named(name: str, request: str) -> bool:
    return bool(stems(name.replace("_", " ")) & stems(request))


def day_of(cell: str) -> date | None:
    found = ISO_DATE.match(cell)
    if found is None or found.group(3) is None:
        return None
    try:
        return date(int(found.group(1)), int(found.group(2)), int(found.group(3)))
    except ValueError:
        return None


def first_day_of(cell: str) -> date | None:
    """A date cell's day, or a month cell's ("2026-09") first day."""
    found = ISO_DATE.match(cell)
    if found is None or found.group(3) is not None:
        return day_of(cell)
    month = int(found.group(2))
    return date(int(found.group(1)), month, 1) if 1 <= month <= 12 else None


def in_order(cell: str) -> str:
    """A date or clock time as it sorts: "9:30" before "19:20", "10am" as "10:00"."""
    clock = re.match(r"\s*(\d{1,2})(?:[:.](\d\d))?\s*([ap]m)?\b", cell, re.IGNORECASE)
    if clock is None or ISO_DATE.match(cell) or not (clock.group(2) or clock.group(3)):
        return cell.strip()
    hour = int(clock.group(1))
    if clock.group(3):
        hour = hour % 12 + (12 if clock.group(3).lower() == "pm" else 0)
    return f"{hour:02d}:{clock.group(2) or '00'}"


def numeric_named(word: str, header: list[str], numeric: list[int]) -> int | None:
    """The numeric column a word names, plural or not ("litre" for "litres")."""
    singular = word.lower().removesuffix("s")
    return next((i for i in numeric if header[i].strip().lower().removesuffix("s") == singular), None)


def value_in(column: int, row: list[str]) -> Decimal:
    return number(row[column]) or Decimal(0)


def column_total(body: list[list[str]], column: int) -> Decimal:
    return sum((number(r[column]) or Decimal(0) for r in body), Decimal(0))


def sums_by(body: list[list[str]], column: int, key: Callable[[list[str]], str]) -> str:
    sums: dict[str, Decimal] = defaultdict(Decimal)
    for row in body:
        sums[key(row)] += number(row[column]) or Decimal(0)
    return ", ".join(f"{name.strip() or BLANK} {plain(value)}" for name, value in sums.items())


def month_of(cell: str) -> str:
    """ "2026-10-03" as "October 2026", the words a request uses."""
    found = ISO_DATE.match(cell)
    assert found is not None  # a date column's cells all match
    return date(int(found.group(1)), int(found.group(2)), 1).strftime("%B %Y")


def plain(value: Decimal, places: int | None = None) -> str:
    if places is not None:
        value = value.quantize(Decimal(1).scaleb(-places))
    return format(value.normalize(), "f")
