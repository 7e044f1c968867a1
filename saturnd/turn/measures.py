"""How much a thing measured twice has changed, from a note's lines that each give one
measure in the same unit.

Asked "How much weight has she put on since birth?" of "Born 2 November 2026, 3.4 kg." and
"Weighed 30 November: 4.1 kg.", the subtraction is the harness's to do, as every sum is.
"""

from __future__ import annotations

import re
from decimal import Decimal

CHANGE_ASKED = re.compile(r"\b(?:put\s+on|gained|gain|lost|grown|grew|gone\s+(?:up|down)|increased?|decreased?|"
                          r"dropped|changed?|difference)\b", re.IGNORECASE)
MEASURE = re.compile(r"(?<![\d.])(?P<amount>\d+(?:\.\d+)?)\s?(?P<unit>kg|g|lbs?|st|cm|mm|m|in|ft|ml|l|litres?|°c)(?![a-z])",
                     re.IGNORECASE)


def measure_change(lines: list[str], request: str) -> str:
    """The last line's measure less the first's, of the lines each giving one measure in one unit
    (two or more of them, in the file's order), when the request asks how much it changed."""
    if not CHANGE_ASKED.search(request):
        return ""
    measured = [(line.strip(" -*•"), found[0]) for line in lines if len(found := list(MEASURE.finditer(line))) == 1]
    units = {found["unit"].lower() for _, found in measured}
    if len(measured) < 2 or len(units) != 1:
        return ""
    (first_line, first), (last_line, last) = measured[0], measured[-1]
    change = Decimal(last["amount"]) - Decimal(first["amount"])
    way = "up" if change >= 0 else "down"
    return (f"[Saturn worked out] from \"{first_line}\" to \"{last_line}\": {last['amount']} - {first['amount']}"
            f" = {abs(change).normalize():f} {last['unit']} {way}")
