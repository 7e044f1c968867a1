"""The amounts one line lists, summed: "Paid in every month on the 28th: holiday £150, new car
£300, emergency £50, christmas £45." is 545 a month.

Asked "How much do I pay into savings each month?", a 1.5B adds four amounts no better than two.
"""

from __future__ import annotations

import re
from fractions import Fraction

from saturnd.tools.word_match import stems
from saturnd.turn.amounts import ALL_ASKED, MONEY, money_written

LABELLED = re.compile(r"(?P<label>[A-Za-z][\w' -]{0,30}?)\s*:?\s*[£$€]\s?(?P<amount>\d[\d,]*(?:\.\d+)?)")
MIN_AMOUNTS = 3


def amounts_in_a_line(lines: list[str], request: str) -> str:
    """Asked how much in all, the sum of the labelled amounts of the one line that lists three or
    more and shares a word with the request."""
    if not ALL_ASKED.search(request):
        return ""
    asked = stems(request)
    listed = [line.strip(" -*•") for line in lines if len(MONEY.findall(line)) >= MIN_AMOUNTS and stems(line) & asked]
    if len(listed) != 1:
        return ""
    head, _, rest = listed[0].rpartition(":") if ":" in listed[0].split("£")[0] else ("", "", listed[0])
    items = [(found["label"].strip(" ,;").removeprefix("and ").strip(), Fraction(found["amount"].replace(",", "")))
             for found in LABELLED.finditer(rest)]
    if len(items) < MIN_AMOUNTS:
        return ""
    total = sum((amount for _, amount in items), Fraction(0))
    return (f"[Saturn worked out] {head.strip() + ': ' if head else ''}"
            + " + ".join(f"{label} {money_written(amount)}" for label, amount in items) + f" = {money_written(total)}")
