"""What a budget a line sets has left, after what a dated table of money has spent of it.

Asked "How much of my giving budget is left?" of giving.md's "Budget for the year: £300" beside
donations.csv (five gifts this year, 75 in all), the 1.5B calculated 300 - 0; asked "How much have
I given this year?", it answered with the budget, £300. The budget's period ("for the year", "a
month") picks the table's rows of this year or this month; the table is the one with a date
column and one column of money.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date
from decimal import Decimal

from saturnd.tools.table_asked import MONEY_HEADER
from saturnd.tools.table_cells import day_of, number, plain
from saturnd.tools.table_dates import header_and_rows
from saturnd.turn.made_up import WORKED_OUT

BUDGET_LINE = re.compile(r"\bbudget\b(?P<label>[^£$€\d]{0,40})(?P<money>[£$€])\s?(?P<amount>\d[\d,]*(?:\.\d+)?)"
                         r"(?P<after>[^.;\n]{0,20})", re.IGNORECASE)
LEFT_ASKED = re.compile(r"\b(?:left|remaining|spare|to\s+spend)\b", re.IGNORECASE)
BUDGET_ASKED = re.compile(r"\bbudget\b", re.IGNORECASE)
YEARLY = re.compile(r"\b(?:year|yearly|annual|annually|a\s+year)\b", re.IGNORECASE)
MONTHLY = re.compile(r"\b(?:month|monthly|a\s+month)\b", re.IGNORECASE)


def budget_left(request: str, parts: Iterable[tuple[str, list[str]]], today: date) -> str:
    """Asked what a budget has left, the budget line's amount less its period's total of the
    shown dated money table, as the ground's line."""
    if not (LEFT_ASKED.search(request) and BUDGET_ASKED.search(request)):
        return ""
    parts = list(parts)
    budget = next((found for source, lines in parts if header_and_rows(source, lines) is None
                   for line in lines if (found := BUDGET_LINE.search(line))), None)
    if budget is None:
        return ""
    spent = next((of_it for source, lines in parts if (of_it := _spent_of_the_period(source, lines, budget, today))), None)
    if spent is None:
        return ""
    amount, over = Decimal(budget["amount"].replace(",", "")), spent[1]
    left = amount - over
    return (f"{WORKED_OUT} budget {budget['money']}{budget['amount']}{_period_said(budget)} - {spent[0]} = "
            + (f"{plain(left)} left" if left >= 0 else f"{plain(-left)} over"))


def money_table(source: str, lines: list[str]) -> tuple[int, int, list[list[str]], list[str]] | None:
    """(date column, money column, rows, header) of a table with one date column and one column of
    money, else None."""
    table = header_and_rows(source, lines)
    if table is None or not table[1]:
        return None
    header, body = table
    dated = [i for i in range(len(header)) if all(day_of(row[i]) for row in body)]
    money = [i for i, name in enumerate(header) if MONEY_HEADER.search(name) and all(number(row[i]) is not None for row in body)]
    return (dated[0], money[0], body, header) if len(dated) == 1 and len(money) == 1 else None


def _spent_of_the_period(source: str, lines: list[str], budget: re.Match[str], today: date) -> tuple[str, Decimal] | None:
    found = money_table(source, lines)
    if found is None:
        return None
    dated, money, body, header = found
    said = f"{budget['label']} {budget['after']}"
    if YEARLY.search(said):
        rows, which = [r for r in body if (day := day_of(r[dated])) and day.year == today.year], f"the {today.year} rows"
    elif MONTHLY.search(said):
        rows = [r for r in body if (day := day_of(r[dated])) and (day.year, day.month) == (today.year, today.month)]
        which = f"the {today:%B %Y} rows"
    else:
        rows, which = body, "all rows"
    total = sum((number(r[money]) or Decimal(0) for r in rows), Decimal(0))
    return f"{source} {header[money].strip()} over {which} ({len(rows)}) {plain(total)}", total


def _period_said(budget: re.Match[str]) -> str:
    said = f"{budget['label']} {budget['after']}"
    return " for the year" if YEARLY.search(said) else " for the month" if MONTHLY.search(said) else ""


SPENT_ASKED = re.compile(r"\bhow\s+much\b.*\b(?:spent|given|gave|paid|donated|used)\b", re.IGNORECASE)
MONEY_SAID = re.compile(r"[£$€]?\s?(\d[\d,]*(?:\.\d+)?)")
TOTALS_OVER = re.compile(r"^\[Saturn worked out\] (?:[^;]*?; )?(?P<line>totals over [^;]*)", re.MULTILINE)


def budget_for_the_spend(answer: str, request: str, seen: str) -> str | None:
    """The table's totals, when asked how much was spent or given and the answer's one figure is
    the budget a line sets: "You have given £300 this year." of "Budget for the year: £300" beside
    donations.csv's 75."""
    if BUDGET_ASKED.search(request) or not SPENT_ASKED.search(request):  # "How much can I spend on Mum?": the budget is it
        return None
    said = {figure.replace(",", "") for figure in MONEY_SAID.findall(answer)}
    budgets = {found["amount"].replace(",", "") for found in BUDGET_LINE.finditer(seen)}
    totals = TOTALS_OVER.search(seen)
    return totals["line"] if totals and said and said <= budgets else None
