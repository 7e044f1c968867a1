"""A table of things done again every so often: a column of how often ("3 days", "every 2
weeks") and one of when each was last done give each row's next day.

Asked "Which plants need watering today?" of plants.csv (water every, last watered), the 1.5B named
one whose day was tomorrow, and gave a cactus's last watering as its next: the adding up of days is
the harness's to do.
"""

from __future__ import annotations

import re
from datetime import date

from saturnd.tools.day_steps import from_today, moved
from saturnd.tools.table_cells import ISO_DATE, day_of, number
from saturnd.tools.word_match import stems

INTERVAL = re.compile(r"^\s*(?:every\s+)?(?P<count>\d{1,3}|an?|one|two|three|four|six)?\s*(?P<unit>day|week|month|year)s?\s*$",
                      re.IGNORECASE)
WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "six": 6}
NEXT_BY_ROW = re.compile(r"^\[Saturn dated\] [^;\n]+, every [^:;\n]+: next ", re.MULTILINE)
"""next_by_row's line: a table whose days are each row's last, not dates to come or gone by."""
DUE_ASKED = re.compile(r"\b(?:when|when's|next|due|overdue|needs?|today|tomorrow|this\s+week|soon|late)\b", re.IGNORECASE)
EVERY_HEADED = re.compile(r"\bevery\b.*?\b(?P<unit>day|week|month|year)s?\b", re.IGNORECASE)
"""A column of bare numbers whose header gives the unit: "water every (days)", "every n weeks"."""
LAST = re.compile(r"\blast\b|\bdone\b|\bprevious\b", re.IGNORECASE)
LAST_ASKED = re.compile(r"\b(?:did|was|were)\b.*\blast\b|\blast\s+time\b", re.IGNORECASE)
"""The day last done asked ("When did I last water the orchid?"): the table says it."""


def next_by_row(header: list[str], body: list[list[str]], request: str, today: date | None) -> str:
    """Asked when, each row's next day (the named rows' only, where the request names some), soonest
    first, from its interval and its last day, written as dates.py's repeats are (so the checks of
    an answer's next day hold for both), with the rows due today or gone by; "" for a table without
    such a pair of columns."""
    if today is None or not body or not DUE_ASKED.search(request) or LAST_ASKED.search(request):
        return ""
    every = _every_column(header, body)
    if every is not None and not INTERVAL.match(body[0][every]):  # "water every (days)": its unit in the header
        unit = EVERY_HEADED.search(header[every])["unit"]  # type: ignore[index]
        body = [[*r[:every], f"{r[every].strip()} {unit}s", *r[every + 1:]] for r in body]
    dates = [i for i in range(len(header)) if all(ISO_DATE.fullmatch(r[i].strip()) and day_of(r[i]) for r in body)]
    last = next((i for i in dates if LAST.search(header[i])), dates[0] if len(dates) == 1 else None)
    texts = [i for i in range(len(header)) if i not in (every, last) and all(r[i].strip() and number(r[i]) is None for r in body)]
    if every is None or last is None or not texts:
        return ""
    # "Bramble flea drops", "Bramble wormer": a first column that repeats is named with the next
    labels = texts[:2] if len({r[texts[0]].strip() for r in body}) < len(body) else texts[:1]
    named = [r for r in body if all(re.search(rf"\b{re.escape(r[i].strip())}\b", request, re.IGNORECASE) for i in labels)] or [
        r for r in body if re.search(rf"\b{re.escape(r[labels[0]].strip())}\b", request, re.IGNORECASE)]
    if not named and not stems(" ".join(header)) & stems(request):
        return ""
    rows = sorted(((_after(day_of(r[last]), r[every]), r) for r in named or body), key=lambda pair: pair[0])
    said = [f"{_label(r, labels)}, {header[last].strip()} {_written(day_of(r[last]))}, every {_every(r[every])}: "
            f"next {_written(day)}, a {day:%A}, {_from(day, today)}" for day, r in rows]
    due = [_label(r, labels) for day, r in rows if day <= today]
    return f"[Saturn dated] {'; '.join(said)}; due today or gone by: {', '.join(due) if due else 'none'}"


def _every_column(header: list[str], body: list[list[str]]) -> int | None:
    """The column of how often: each cell an interval ("3 days"), or a whole number under a header
    that gives the unit ("water every (days)")."""
    return next((i for i in range(len(header)) if all(INTERVAL.match(r[i]) for r in body)
                 or (EVERY_HEADED.search(header[i]) and all(r[i].strip().isdigit() for r in body))), None)


def _label(row: list[str], labels: list[int]) -> str:
    return " ".join(row[i].strip() for i in labels)


def _written(day: date | None) -> str:
    assert day is not None  # the rows are picked for their days
    return f"{day.day} {day:%B %Y}"


def _every(interval: str) -> str:
    return re.sub(r"^\s*every\s+", "", interval.strip(), flags=re.IGNORECASE)


BETWEEN_ASKED = re.compile(r"\b(?:longest|shortest|most\s+often|least\s+often|most\s+frequently|least\s+frequently)\b",
                           re.IGNORECASE)


def between_times(header: list[str], body: list[list[str]], request: str) -> str:
    """Asked which row goes longest (or shortest) between times, each row's interval in days, the
    longest first: "3 weeks" against "10 days" is no comparison a small model makes."""
    every = next((i for i in range(len(header)) if body and all(INTERVAL.match(r[i]) for r in body)), None)
    label = next((i for i in range(len(header)) if i != every and all(r[i].strip() and number(r[i]) is None
                                                                         and not ISO_DATE.match(r[i]) for r in body)), None)
    if every is None or label is None or not BETWEEN_ASKED.search(request):
        return ""
    start = date(2000, 1, 1)
    days = sorted(((_after(start, r[every]) - start).days, r[label].strip(), r[every].strip()) for r in body)[::-1]
    return (f"[Saturn worked out] {header[every].strip()} in days, longest first: "
            + ", ".join(f"{name} {count} ({written})" for count, name, written in days))


def _after(day: date | None, interval: str) -> date:
    found = INTERVAL.match(interval)
    assert day is not None and found is not None  # the rows are picked for both
    return moved(day, WORDS.get((found["count"] or "a").lower()) or int(found["count"]), found["unit"].lower())


def _from(day: date, today: date) -> str:
    said = from_today(day, today)
    return f"{said} (overdue)" if day < today else said
