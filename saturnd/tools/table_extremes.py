"""The cheapest (or dearest) row of each group a table holds, and what those come to together.

Asked "If we take the cheapest quote for each job, how much is that?" of quotes.csv (job, company,
quote), the 1.5B gave the one cheapest quote of all: picking within groups and adding the picks is
two steps it does not take.
"""

from __future__ import annotations

import re
from decimal import Decimal

from saturnd.tools.table_cells import ISO_DATE, number, plain
from saturnd.tools.word_match import stems

LOW = r"cheapest|lowest|smallest|least|shortest"
WHICH = rf"(?P<which>{LOW}|dearest|priciest|highest|biggest|largest|longest|most\s+expensive)"
EACH_EXTREME = re.compile(rf"\b{WHICH}\b[^?.!]*?\b(?:for\s+|of\s+|in\s+)?(?:each|every|per)\s+(?P<group>[a-z]+)", re.IGNORECASE)
PLURAL_EXTREME = re.compile(rf"\bthe\s+{WHICH}\s+(?P<things>[a-z]+s)\b", re.IGNORECASE)
""""with the cheapest quotes" of quotes.csv: one of each group, as its one repeated column groups them."""


def extremes_by_group(name: str, header: list[str], body: list[list[str]], request: str) -> str:
    """Asked for the cheapest (or the like) of each group, or the cheapest of the table's things
    (its `name` says what they are), the row picked in each group and their sum."""
    text = [i for i in range(len(header)) if all(r[i].strip() and number(r[i]) is None and not ISO_DATE.match(r[i]) for r in body)]
    repeated = [i for i in text if len({r[i].strip() for r in body}) < len(body)]
    if asked := EACH_EXTREME.search(request):
        group = next((i for i in repeated if stems(header[i]) & stems(asked["group"])), None)
    elif (asked := PLURAL_EXTREME.search(request)) and stems(asked["things"]) & stems(name) and len(repeated) == 1:
        group = repeated[0]
    else:
        return ""
    numeric = [i for i in range(len(header)) if all(number(r[i]) is not None for r in body)]
    column = next((i for i in numeric if stems(header[i]) & stems(request)), numeric[0] if len(numeric) == 1 else None)
    if group is None or column is None:
        return ""
    label = next((i for i in text if i != group), None)
    low = re.fullmatch(LOW, asked["which"], re.IGNORECASE) is not None
    groups: dict[str, list[list[str]]] = {}
    for row in body:
        groups.setdefault(row[group].strip(), []).append(row)
    picked = {name: (min if low else max)(rows, key=lambda row: number(row[column]) or Decimal(0)) for name, rows in groups.items()}
    said = ", ".join(f"{name} {row[column].strip()}" + (f" ({row[label].strip()})" if label is not None else "")
                     for name, row in picked.items())
    total = sum((number(row[column]) or Decimal(0) for row in picked.values()), Decimal(0))
    return (f"[Saturn worked out] the {asked['which'].lower()} {header[column].strip()} for each {header[group].strip()}: "
            f"{said}; together {plain(total)}")
