"""A table's dates as lines that say what each date is for.

A row holding two dates ("Morgan family,2026-12-18,2026-12-22,4,560,yes") read as a line has its
second date labelled by the cells after it: asked who arrives next, the ground had said "yes, 22
December" and the 1.5B gave that back. Written by the column instead ("Morgan family, arrive:
2026-12-18"), each date says whose it is and what it is.
"""

from __future__ import annotations

import csv
import io

from saturnd.tools.table_cells import ISO_DATE, TABLE_SUFFIXES
from saturnd.tools.word_match import stems


def dates_by_column(name: str, lines: list[str], request: str) -> list[str]:
    """`lines` of a table with two or more date columns, one line a row and date column; only the
    columns the request names where it names any ("arriving": "arrive"). Other lines as they are."""
    if not name.lower().endswith(TABLE_SUFFIXES):
        return lines
    dialect = "excel-tab" if name.lower().endswith(".tsv") else "excel"
    rows = [row for row in csv.reader(io.StringIO("\n".join(lines)), dialect) if any(c.strip() for c in row)]
    if len(rows) < 2:
        return lines
    header, body = rows[0], [r for r in rows[1:] if len(r) == len(rows[0])]
    columns = [i for i in range(len(header)) if body and all(ISO_DATE.fullmatch(r[i].strip()) for r in body)]
    if len(columns) < 2:
        return lines
    named = [i for i in columns if stems(header[i]) & stems(request)]
    said = []
    for row in body:
        label = next((cell.strip() for i, cell in enumerate(row) if i not in columns and cell.strip()
                      and not any(ch.isdigit() for ch in cell)), "")
        said += [f"{label}, {header[i].strip()}: {row[i].strip()}" for i in named or columns]
    return said
