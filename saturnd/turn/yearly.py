"""A table of birthdays told by the day each next falls, soonest first, with the age it brings.

Asked "Whose birthday is next?" of a table holding "Mum,1962-12-19", the ground had shown the
birth dates alone and summed the gift budgets by "December 1962": whose day comes next, and what
age it brings, is the harness's to work out.
"""

from __future__ import annotations

from datetime import date

from saturnd.tools.table_cells import day_of
from saturnd.tools.table_dates import BIRTH, header_and_rows, next_of, yearly_column
from saturnd.tools.word_match import stems
from saturnd.turn.dates import MAX_DATES, _from_today


def yearly_next(source: str, lines: list[str], request: str, today: date) -> str:
    """Each row's yearly day next to come with the years it marks, soonest first; only the rows
    the request names by their first text cell where it names any ("How old will Jake be?")."""
    table = header_and_rows(source, lines)
    if table is None or (column := yearly_column(*table)) is None:
        return ""
    header, body = table
    label = next((i for i in range(len(header)) if i != column
                  and all(cell.strip() and not any(ch.isdigit() for ch in cell) for cell in (r[i] for r in body))), None)
    named = [r for r in body if label is not None and stems(r[label]) & stems(request)]
    days = sorted(((next_of(born, today), born, row[label].strip() if label is not None else "")
                   for row in named or body if (born := day_of(row[column]))), key=lambda found: found[0])
    turns = BIRTH.search(header[column]) is not None
    said = [f"{who} {when.day} {when:%B %Y} (a {when:%A}, {_from_today(when, today)}), "
            + (f"turns {when.year - born.year}" if turns else f"{when.year - born.year} years")
            for when, born, who in days[:MAX_DATES]]
    return f"[Saturn dated] {header[column].strip()} next, soonest first: " + "; ".join(said)
