"""Totals of a small CSV table, worked out by the harness and shown beside the table.

A 1.5B model read budget.csv and answered 2100 for amounts that sum to 1745. Adding
is not the model's job: read_file and the ground's excerpts show a whole CSV file
with its numeric columns' totals, and the totals by category where one column
groups the rows (food, rent, travel).
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from decimal import Decimal, InvalidOperation

TABLE_SUFFIXES = (".csv", ".tsv")
MAX_ROWS = 2_000
MAX_GROUPS = 12


def _number(cell: str) -> Decimal | None:
    text = cell.strip().replace(",", "").replace("€", "").replace("$", "").replace("£", "")
    if not text:
        return None
    try:
        return Decimal(text)
    except InvalidOperation:
        return None


def table_totals(name: str, text: str) -> str:
    """One line of totals for a CSV/TSV file with a header row and numeric columns; "" otherwise."""
    if not name.lower().endswith(TABLE_SUFFIXES):
        return ""
    dialect = "excel-tab" if name.lower().endswith(".tsv") else "excel"
    rows = [row for row in csv.reader(io.StringIO(text), dialect) if any(c.strip() for c in row)]
    if len(rows) < 3 or len(rows) > MAX_ROWS:
        return ""
    header, body = rows[0], [r for r in rows[1:] if len(r) == len(rows[0])]
    numeric = [i for i in range(len(header)) if all(_number(r[i]) is not None for r in body)]
    if not numeric or any(_number(header[i]) is not None for i in numeric):  # no header row
        return ""
    parts = [f"{header[i].strip() or f'column {i + 1}'} = {_plain(sum((_number(r[i]) or Decimal(0) for r in body), Decimal(0)))}"
             for i in numeric]
    line = f"[Saturn worked out] totals over {len(body)} rows: " + ", ".join(parts)
    grouping = _grouping_column(header, body, numeric)
    if grouping is not None and len(numeric) == 1:
        sums: dict[str, Decimal] = defaultdict(Decimal)
        for row in body:
            sums[row[grouping].strip()] += _number(row[numeric[0]]) or Decimal(0)
        by = ", ".join(f"{key} {_plain(value)}" for key, value in sums.items())
        line += f"; {header[numeric[0]].strip()} by {header[grouping].strip()}: {by}"
    return line


def _grouping_column(header: list[str], body: list[list[str]], numeric: list[int]) -> int | None:
    """A text column whose values repeat (a category), or None."""
    for i in range(len(header)):
        if i in numeric:
            continue
        values = [r[i].strip() for r in body]
        if len(set(values)) < len(values) and len(set(values)) <= MAX_GROUPS:
            return i
    return None


def _plain(value: Decimal) -> str:
    return format(value.normalize(), "f")
