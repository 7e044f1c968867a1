"""What a cell of a person's table holds: a number written in any locale, a date, or text.

People write amounts as "€12,50", "12,50 €", "$1,299.00", "1.299,00" or "1 299,50"; a column
becomes numbers only when every value in it reads as one, with one decimal separator for the
whole table and at most one unit or currency, which is stripped (and named in the column's
description). Dates stay ISO text (SQLite's date functions read it); a column of dates written
another way ("05.12.2026", "5/12/2026", "5 déc. 2026") is rewritten as ISO when every value reads.
price-parser reads the amounts and knows the currencies; dateparser reads month names in any
language.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Any, Literal

Kind = Literal["integer", "real", "text", "date", "datetime"]
Cell = int | float | str | None

GROUP_MARKS = " \u00a0\u202f'’"
"""Thousands marks besides "." and ",": spaces (plain, no-break, narrow) and apostrophes (Swiss)."""

NUMBER_CELL = re.compile(
    r"""^
    (?P<lead>[-+]?)\s*
    (?P<pre>[^\W\d_]{1,3}\$|[^\w\s\-+.,()]{1,2}|[A-Z]{3})?\s*
    (?P<sign>[-+]?)\s*
    (?P<num>\d{1,3}(?:[.,\u00a0\u202f'’ ]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?|[.,]\d+)
    \s*(?P<post>[^\d\s][^\d]{0,11})?
    $""",
    re.VERBOSE,
)
"""One number, maybe signed, with at most a currency before it and a unit or currency after."""

PLAIN_INTEGER = re.compile(r"[-+]?\d+")
EMPTY_MARKS = frozenset({"-", "–", "—", "n/a", "N/A", "?"})
"""Cells that mean "nothing here" in an otherwise numeric column."""

ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
ISO_DATETIME = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$")
NUMERIC_DATE = re.compile(
    r"^(?P<a>\d{1,4})(?P<sep>[./-])(?P<b>\d{1,2})(?P=sep)(?P<c>\d{2,4})\.?"
    r"(?:,?\s+(?P<time>\d{1,2}:\d{2}(?::\d{2})?))?$"
)
WORDY_DATE = re.compile(r"^(?=.*[^\W\d_]{3})(?=.*\b\d{1,2}\b)(?=.*\b\d{4}\b)[\w.,/\- ]{6,40}$")
"""Month names and a year ("5 déc. 2026", "5. Dezember 2026", "Dec 5, 2026"): dateparser's part."""
WORDY_CAP = 400
"""Distinct wordy dates read per column: dateparser takes milliseconds a value."""


@dataclass(frozen=True)
class Column:
    """A column's values as stored, and what the model is told of it."""

    kind: Kind
    values: list[Cell]
    unit: str | None = None
    """The unit or currency every value carried ("€", "kg"), stripped from the numbers."""
    written: str | None = None
    """For dates rewritten as ISO: how the file wrote the first one ("05.12.2026")."""


def read_column(raw: Sequence[Any], decimal: str | None = None, typed: bool = False) -> Column:
    """The column's kind and its values as stored. Values already typed (JSON, YAML) keep their
    type; text is read as numbers or dates when all of it reads so. `typed`: the values come from
    a typed source, where a quoted plain integer ("28001") is text by the author's choice."""
    values = [_plain(v) for v in raw]
    present = [v for v in values if v is not None and v != ""]
    if not present:
        return Column("text", [None for _ in values])
    if all(isinstance(v, int) for v in present):
        return Column("integer", [None if v == "" else v for v in values])
    if all(isinstance(v, int | float) for v in present):
        return Column("real", [None if v in (None, "") else float(v) for v in values])
    texts = [None if v is None or v == "" else str(v).strip() for v in values]
    quoted_integer = typed and any(isinstance(v, str) and PLAIN_INTEGER.fullmatch(v) for v in present)
    return (
        (None if quoted_integer else _numbers(texts, decimal))
        or _dates(texts)
        or Column("text", [None if v is None or v == "" else v for v in values])
    )


def _plain(value: Any) -> Cell:
    if value is None or isinstance(value, int | float | str) and not isinstance(value, bool):
        return value.strip() if isinstance(value, str) else value
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return float(value)
    import json

    return json.dumps(value, ensure_ascii=False, default=str)


# -- numbers ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Reading:
    num: str
    negative: bool
    unit: str


def _shape(text: str) -> _Reading | None:
    text = text.replace("−", "-").strip()
    negative = False
    if text.startswith("(") and text.endswith(")"):  # accounting: (12.00)
        text, negative = text[1:-1].strip(), True
    m = NUMBER_CELL.match(text)
    if not m:
        return None
    num = m.group("num")
    if len(num) > 1 and num[0] == "0" and num[1].isdigit():
        return None  # 0123: a code (postal, id), not a number
    pre, post = (m.group("pre") or "").strip(), (m.group("post") or "").strip()
    if pre and post:
        return None
    if pre and not _currency(pre):
        return None
    if post and not _unit_like(post):
        return None
    signs = m.group("lead") + m.group("sign")
    if "+" in signs and " " in num:
        return None  # +34 612 345 678: a phone number
    negative ^= "-" in signs
    return _Reading(num, negative, pre or post)


def _unit_like(text: str) -> bool:
    return " " not in text.strip(". ") or bool(_currency(text))


@lru_cache(maxsize=256)
def _currency(text: str) -> str | None:
    from price_parser.parser import extract_currency_symbol

    found = extract_currency_symbol(text, None)
    return found.strip() if found and found.strip() == text.strip() else None


def decimal_votes(nums: Iterable[str]) -> set[str]:
    """The decimal separators the numbers show: {","} for "12,50" or "1.299,00", {"."} for
    "12.5" or "1,299.00", empty for "1.299"-like values, both when they disagree."""
    from price_parser.parser import get_decimal_separator

    seen: set[str] = set()
    for num in nums:
        plain = _ungrouped(num)
        if plain.count(".") > 1:
            seen.add(",")
        elif plain.count(",") > 1:
            seen.add(".")
        elif (sep := get_decimal_separator(plain)) in (".", ","):
            seen.add(sep)
    return seen


DOT_GROUPED = re.compile(r"[1-9]\d{0,2}(?:\.\d{3})+")


def _decimal_beside_groups(nums: Iterable[str]) -> str:
    """With no vote: "," when every number with a dot in it has it only before groups of three
    ("1.200 lei", "1.450 lei", "600 lei": a thousands' dot, as Romanian, German or Spanish
    write it; stop 55 read them as 1.2 and 1.45), else "."."""
    dotted = [num for num in nums if "." in num]
    return "," if dotted and all(DOT_GROUPED.fullmatch(num) for num in dotted) else "."


def _ungrouped(num: str) -> str:
    for mark in GROUP_MARKS:
        num = num.replace(mark, "")
    return num


def number_texts(texts: Iterable[str | None]) -> list[str]:
    """The number part of every value that reads as one (for a table's decimal separator vote)."""
    return [r.num for t in texts if t and (r := _shape(t))]


def _numbers(texts: list[str | None], decimal: str | None) -> Column | None:
    from price_parser.parser import parse_number

    readings: list[_Reading | None] = []
    for text in texts:
        if text is None or text in EMPTY_MARKS:
            readings.append(None)
            continue
        reading = _shape(text)
        if reading is None:
            return None
        readings.append(reading)
    found = [r for r in readings if r]
    if not found:
        return None
    units = {r.unit for r in found if r.unit}
    if len(units) > 1:
        return None  # 300 g and 1.5 kg: the units are the person's, kept as written
    votes = decimal_votes(r.num for r in found)
    if len(votes) > 1:
        return None  # "1.5" and "12,50": which is meant cannot be told
    sep = votes.pop() if votes else decimal or _decimal_beside_groups(r.num for r in found)
    amounts: list[Decimal | None] = []
    for reading in readings:
        if reading is None:
            amounts.append(None)
            continue
        amount = parse_number(_ungrouped(reading.num), sep)
        if amount is None:
            return None
        amounts.append(-amount if reading.negative else amount)
    whole = all(a is None or a == a.to_integral_value() and sep not in _ungrouped(r.num)
                for a, r in zip(amounts, readings, strict=True) if r)
    values: list[Cell] = [None if a is None else int(a) if whole else float(a) for a in amounts]
    return Column("integer" if whole else "real", values, unit=units.pop() if units else None)


# -- dates -----------------------------------------------------------------------------------


def _dates(texts: list[str | None]) -> Column | None:
    present = [t for t in texts if t]
    if all(ISO_DATE.match(t) and _iso_ok(t) for t in present):
        return Column("date", list(texts))
    if all(ISO_DATETIME.match(t) or ISO_DATE.match(t) for t in present):
        return Column("datetime", list(texts))
    rewritten = _numeric_dates(present) or _wordy_dates(present)
    if rewritten is None:
        return None
    kind: Kind = "datetime" if any(" " in v for v in rewritten.values()) else "date"
    return Column(kind, [None if t is None else rewritten[t] for t in texts], written=present[0])


def _iso_ok(text: str) -> bool:
    try:
        dt.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _numeric_dates(present: list[str]) -> dict[str, str] | None:
    matches = [NUMERIC_DATE.match(t) for t in present]
    if not all(matches):
        return None
    parts = [m for m in matches if m]
    if all(len(m.group("a")) == 4 for m in parts):
        order = "YMD"
    elif any(len(m.group("a")) > 2 for m in parts):
        return None
    elif any(int(m.group("b")) > 12 for m in parts):
        order = "MDY"  # 12/25/2026: the person writes the month first
    else:
        order = "DMY"  # 05.12.2026, 5/12/2026: day first unless a value says otherwise
    out: dict[str, str] = {}
    for m in parts:
        day = numeric_date(m, order)
        if day is None:
            return None
        hour, _, rest = (m.group("time") or "").partition(":")
        out[m.string] = day.isoformat() + (f" {int(hour):02d}:{rest}" if rest else "")
    return out


def numeric_date(m: re.Match[str], order: str) -> dt.date | None:
    """The date of a NUMERIC_DATE match read in `order` ("DMY", "MDY" or "YMD")."""
    a, b, c = int(m.group("a")), int(m.group("b")), m.group("c")
    if order == "YMD":
        year, month, day = a, b, int(c)
    else:
        year = int(c) if len(c) == 4 else 2000 + int(c) if int(c) < 70 else 1900 + int(c)
        day, month = (a, b) if order == "DMY" else (b, a)
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def _wordy_dates(present: list[str]) -> dict[str, str] | None:
    distinct = set(present)
    if len(distinct) > WORDY_CAP or not all(WORDY_DATE.match(t) for t in distinct):
        return None
    out: dict[str, str] = {}
    for text in distinct:
        day = wordy_date(text)
        if day is None:
            return None
        out[text] = day.isoformat()
    return out


@lru_cache(maxsize=4096)
def wordy_date(text: str) -> dt.date | None:
    """A date written with a month name in any language dateparser knows, with day and year."""
    import dateparser  # on first use: it loads its languages lazily too

    found = dateparser.parse(text, settings={"STRICT_PARSING": True, "DATE_ORDER": "DMY"})
    return found.date() if found else None


def read_date(text: str) -> dt.date | None:
    """One date as a person writes it: ISO, 05.12.2026 (day first), 12/25/2026 (month first only
    when the day says so), "5. Dezember 2026", "Dec 5, 2026"."""
    text = text.strip()
    if ISO_DATE.match(text) or ISO_DATETIME.match(text):
        try:
            return dt.date.fromisoformat(text[:10])
        except ValueError:
            return None
    if m := NUMERIC_DATE.match(text):
        if len(m.group("a")) == 4:
            return numeric_date(m, "YMD")
        return numeric_date(m, "MDY" if int(m.group("b")) > 12 else "DMY")
    if WORDY_DATE.match(text):
        return wordy_date(text)
    return None
