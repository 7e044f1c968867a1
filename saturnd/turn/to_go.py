"""How much is left to a target a line sets, from what a table has reached.

Asked "How many miles until the next service?" of "Next service at 45,000 miles" beside a fuel
log whose mileage column last read 43,350, the 1.5B answered "45,000 miles": the target, not
what is left of it. A column that only rises (a mileage, a meter) has reached its latest value;
any other (the km of each run) its total.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import Decimal
from itertools import pairwise

from saturnd.tools.table_cells import ISO_DATE, number, plain
from saturnd.tools.table_dates import header_and_rows
from saturnd.tools.word_match import stems

TO_GO_ASKED = re.compile(
    r"\bhow\s+(?:many|much|far)\s+(?:more\s+)?(?P<unit>[a-z]+)\s+(?:(?:do|have|are|is)\s+(?:i|we)\s+(?:got\s+)?)?"
    r"(?:until|till|before|left|to\s+go|to\s+(?:the|my|our|hit|reach|get))\b", re.IGNORECASE)
TARGET = re.compile(r"(?P<amount>\d[\d,]*(?:\.\d+)?)\s*(?P<unit>[a-z]+)", re.IGNORECASE)


FAR_ASKED = re.compile(r"\bhow\s+far\b.*\b(?:until|till|before|left|to\s+go)\b", re.IGNORECASE)
DISTANCES = ("mile", "km")
ODOMETER = re.compile(r"odometer|clock", re.IGNORECASE)
"""A column of miles or km by its name ("odometer": 58420)."""


def units_asked(request: str) -> tuple[str, ...]:
    """What the request asks how much is left of, without its plural ("mile" of "How many miles
    until …"; miles or km of "How far can I drive before …?")."""
    if found := TO_GO_ASKED.search(request):
        return (found["unit"].lower().removesuffix("s"),)
    return DISTANCES if FAR_ASKED.search(request) else ()


def _of_unit(word: str, unit: str) -> bool:
    return word.lower().startswith(unit)  # "mileage" and "miles" are in miles


def reached_in(source: str, lines: list[str], unit: str) -> tuple[str, Decimal] | None:
    """(how it was reached, the amount) of the table column named by `unit` ("mileage" for miles)."""
    table = header_and_rows(source, lines)
    if table is None or not unit:
        return None
    header, body = table
    column = next((i for i, name in enumerate(header) if any(_of_unit(word, unit) for word in name.split())
                   or unit in DISTANCES and ODOMETER.fullmatch(name.strip())), None)
    if column is None or len(body) < 2 or any(number(row[column]) is None for row in body):
        return None
    dates = next((i for i in range(len(header)) if all(ISO_DATE.match(row[i]) for row in body)), None)
    rows = sorted(body, key=lambda row: row[dates]) if dates is not None else body
    values = [number(row[column]) or Decimal(0) for row in rows]
    name = header[column].strip()
    if all(a <= b for a, b in pairwise(values)):  # a reading: the latest is where it stands
        when = f", {rows[-1][dates].strip()}" if dates is not None else ""
        return f"{name} {plain(values[-1])} (the latest{when})", values[-1]
    return f"{name} {plain(sum(values, Decimal(0)))} (the total of {len(values)} rows)", sum(values, Decimal(0))


def to_go(request: str, parts: Iterable[tuple[str, list[str]]]) -> str:
    """The target a line sets in the unit asked, less what a table has reached, as the ground's line."""
    parts = list(parts)
    for unit in units_asked(request):
        if said := _to_go_in(request, parts, unit):
            return said
    return ""


def _to_go_in(request: str, parts: list[tuple[str, list[str]]], unit: str) -> str:
    reached = next((found for source, lines in parts if (found := reached_in(source, lines, unit))), None)
    asked = stems(request) - {unit}
    targets = [(len(asked & stems(line)), line.strip(" -*•#"), *_target_of(line, unit))
               for source, lines in parts if header_and_rows(source, lines) is None
               for line in lines if _target_of(line, unit)[0] is not None]
    if reached is None or not targets:
        return ""
    _, line, target, worked = max(targets, key=lambda found: found[0])
    assert target is not None
    how, have = reached
    left = target - have
    return f'[Saturn worked out] "{line}": {worked}{plain(target)} - {how} = {plain(left)} ' + ("to go" if left > 0 else "(reached)")


AT_AMOUNT = re.compile(r"\bat\s+(?P<amount>\d[\d,]*(?:\.\d+)?)\s*(?P<unit>[a-z]+)", re.IGNORECASE)
EVERY_AMOUNT = re.compile(r"\bevery\s+(?P<amount>\d[\d,]*(?:\.\d+)?)\s*(?P<unit>[a-z]+)", re.IGNORECASE)


def _target_of(line: str, unit: str) -> tuple[Decimal | None, str]:
    """The amount in the unit a line sets as the next target, and how it was worked out: one done at
    so many and due every so many is due at their sum ("Last service … at 38,400 miles; service
    every 10,000 miles": 48,400)."""
    done = next((m for m in AT_AMOUNT.finditer(line) if _of_unit(m["unit"], unit)), None)
    every = next((m for m in EVERY_AMOUNT.finditer(line) if _of_unit(m["unit"], unit)), None)
    if done and every:
        last, step = (Decimal(m["amount"].replace(",", "")) for m in (done, every))
        return last + step, f"{plain(last)} + {plain(step)} = "
    found = next((m for m in TARGET.finditer(line) if _of_unit(m["unit"], unit)), None)
    return (Decimal(found["amount"].replace(",", "")), "") if found else (None, "")


MONTHS_ASKED = re.compile(r"\bhow\s+(?:long|many\s+(?:more\s+)?months)\b.*\b(?:until|till|before|to)\b|\bwhen\s+will\s+(?:i|we)\s+have\b",
                          re.IGNORECASE)
MONTHLY_LINE = re.compile(r"\b(?:every|each|a|per)\s+month\b|\bmonthly\b", re.IGNORECASE)
LABELLED_MONEY = re.compile(r"(?P<label>[A-Za-z][A-Za-z' ]{1,30}?)\s*[:=-]?\s*[£$€]\s?(?P<amount>\d[\d,]*(?:\.\d+)?)")


def months_to_target(request: str, parts: Iterable[tuple[str, list[str]]]) -> str:
    """Asked how long until a row of a table reaches its target ("pot,saved,target"), what it has to
    go over what a line puts in it each month ("Paid in every month: …, new car £300"), rounded up:
    (8000 - 3500) / 300 = 15 months. The 1.5B had the pot's row and the line, and no division."""
    if not MONTHS_ASKED.search(request):
        return ""
    parts, asked = list(parts), stems(request)
    for source, lines in parts:
        table = header_and_rows(source, lines)
        if table is None:
            continue
        header, body = table
        money = [i for i in range(len(header)) if body and all(number(r[i]) is not None for r in body)]
        rows = [r for r in body if (name := r[0].strip()) and stems(name) and stems(name) <= asked]
        if len(money) != 2 or len(rows) != 1:
            continue
        row = rows[0]
        low, high = sorted(money, key=lambda i: number(row[i]) or Decimal(0))
        have, target = number(row[low]) or Decimal(0), number(row[high]) or Decimal(0)
        left = target - have
        monthly = [(Decimal(m["amount"].replace(",", "")), line.strip(" -*•#")) for named, other in parts
                   if header_and_rows(named, other) is None for line in other if MONTHLY_LINE.search(line)
                   for m in LABELLED_MONEY.finditer(line) if stems(m["label"]) == stems(row[0])]
        if len(monthly) == 1 and monthly[0][0] > 0:
            each, line = monthly[0]
            count = -(-left // each) if left > 0 else 0
            return (f"[Saturn worked out] {row[0].strip()}: {header[high].strip()} {plain(target)} -"
                    f" {header[low].strip()} {plain(have)} = {plain(left)} to go; at {plain(each)} a month"
                    f" (\"{line}\"): {plain(left)} / {plain(each)} = {count} month{'s' if count != 1 else ''}, rounded up")
    return ""
