"""How much a thing measured twice has changed, from a note's lines that each give one
measure in the same unit.

Asked "How much weight has she put on since birth?" of "Born 2 November 2026, 3.4 kg." and
"Weighed 30 November: 4.1 kg.", the subtraction is the harness's to do, as every sum is.
"""

from __future__ import annotations

import itertools
import re
from datetime import date
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


USED_ASKED = re.compile(r"\b(?:use|used|usage|using|consum\w*|go\s+through|went\s+through)\b", re.IGNORECASE)
READING = re.compile(r"(?<![\d.-])(?P<reading>\d[\d,]*(?:\.\d+)?)\s+(?:on|at)\s+(?P<day>\d{4}-\d\d-\d\d)\b")


def readings_used(lines: list[str], request: str) -> str:
    """What went between the readings a line gives with their days ("Water meter: 0412 on
    2026-10-01, 0447 on 2026-11-01, 0481 on 2026-12-01"), each span named by its month where it
    runs from one 1st to the next: asked how much water was used in November, 481 - 447 = 34."""
    if not USED_ASKED.search(request):
        return ""
    for line in lines:
        readings = [(date.fromisoformat(found["day"]), Decimal(found["reading"].replace(",", "")))
                    for found in READING.finditer(line)]
        if len(readings) < 2:
            continue
        readings.sort()
        spans = []
        for (start, was), (end, now) in itertools.pairwise(readings):
            month = (f" ({start:%B %Y})" if start.day == end.day == 1 and (end.year * 12 + end.month) - (start.year * 12 + start.month) == 1
                     else "")
            spans.append(f"{start:%-d %B} to {end:%-d %B %Y}{month}: {now.normalize():f} - {was.normalize():f} = {(now - was).normalize():f}")
        label = line.split(":", 1)[0].strip(" -*•") if ":" in line else "the readings"
        return f"[Saturn worked out] used between the readings of {label}: " + "; ".join(spans)
    return ""
