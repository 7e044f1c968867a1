"""How often an amount comes round, as people write it: "a month", "monthly", "/month", a table's
"billed" column of "yearly". Shared by the table totals and the ground's worked-out lines."""

from __future__ import annotations

import re
from fractions import Fraction

PERIOD = re.compile(
    r"\b(?:a|per|each|every|one)\s+(day|week|month|quarter|year)\b|"
    r"\b(daily|weekly|monthly|quarterly|yearly|annual(?:ly)?)\b|/\s*(day|week|month|year)\b",
    re.IGNORECASE,
)
PERIOD_OF = {"daily": "day", "weekly": "week", "monthly": "month", "quarterly": "quarter", "yearly": "year",
             "annual": "year", "annually": "year"}
TIMES_A_YEAR = {"day": Fraction(365), "week": Fraction(52), "month": Fraction(12), "quarter": Fraction(4),
                "year": Fraction(1)}


def period_named(found: re.Match[str]) -> str:
    """"a month", "monthly" and "/month" are all "month"."""
    word = next(group for group in found.groups() if group).lower()
    return PERIOD_OF.get(word, word)


def period_asked(text: str) -> str | None:
    """The first period the text names, if any."""
    found = PERIOD.search(text)
    return period_named(found) if found else None
