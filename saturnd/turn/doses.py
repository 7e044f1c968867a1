"""When the next dose may be given, from a note's spacing and limit and a log of doses given.

Asked "When can she have her next dose?" of "Calpol: 5 ml, at least 4 hours apart, no more than
4 doses in 24 hours" beside calpol.csv's rows of today, the adding of hours to a time and the
counting of today's rows are the harness's to do.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date, datetime, timedelta

from saturnd.tools.table_cells import ISO_DATE
from saturnd.tools.table_dates import header_and_rows
from saturnd.turn.made_up import CLOCK

NEXT_DOSE_ASKED = re.compile(r"\bnext\s+(?:dose|one|lot)\b|\bwhen\s+can\s+(?:she|he|they|i|we)\s+(?:have|take|give|get)\b|"
                             r"\bhow\s+many\s+more\s+(?:doses|times)\b|\bmore\s+doses\b", re.IGNORECASE)
APART = re.compile(r"\b(?:at\s+least\s+)?(?P<hours>\d+)\s*(?:hours?|hrs?|h)\s+apart\b|\bevery\s+(?P<every>\d+)\s*(?:hours?|hrs?|h)\b",
                   re.IGNORECASE)
MOST = re.compile(r"\b(?:no\s+more\s+than|max(?:imum)?(?:\s+of)?|up\s+to)\s+(?P<most>\d+)\s*(?:doses|times)?\s*"
                  r"(?:in\s+(?:24\s*hours?|a\s+day)|a\s+day|per\s+day)", re.IGNORECASE)


def next_dose(request: str, parts: Iterable[tuple[str, list[str]]], today: date) -> str:
    """The last dose a log gives, when the next may be given by the spacing a note sets, and how
    many more today where it sets a most a day."""
    if not NEXT_DOSE_ASKED.search(request):
        return ""
    parts = list(parts)
    rule = next((line.strip(" -*•#") for _, lines in parts for line in lines if APART.search(line)), None)
    given = [when for source, lines in parts if (when := _times_given(source, lines))]
    if rule is None or len(given) != 1:
        return ""
    spacing = APART.search(rule)
    hours = int(spacing["hours"] or spacing["every"])  # type: ignore[index]
    last = max(given[0])
    said = (f"[Saturn worked out] last given {last:%H:%M} on {last:%A %-d %B}; \"{rule}\": next from"
            f" {last + timedelta(hours=hours):%H:%M}" + (" tomorrow" if (last + timedelta(hours=hours)).date() > today else ""))
    if most := MOST.search(rule):
        count = sum(when.date() == today for when in given[0])
        said += f"; given today: {count} of no more than {most['most']}, so {max(int(most['most']) - count, 0)} more"
    return said


def _times_given(source: str, lines: list[str]) -> list[datetime]:
    """The day and time of each row of a log with a date column and a time-of-day column."""
    table = header_and_rows(source, lines)
    if table is None:
        return []
    header, body = table
    day = next((i for i in range(len(header)) if body and all(ISO_DATE.fullmatch(r[i].strip()) for r in body)), None)
    time = next((i for i in range(len(header)) if body and all(CLOCK.fullmatch(r[i].strip()) for r in body)), None)
    if day is None or time is None:
        return []
    return [datetime.fromisoformat(f"{r[day].strip()} {r[time].strip().zfill(5)}") for r in body]
