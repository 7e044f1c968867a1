"""What each option a list prices comes to, over the nights and the people its file (or the
request) gives: "Lisbon city break, flights £180 each + hotel £90/night" with "We're thinking 4
nights, 2 of us" is 2 × £180 + 4 × £90 = £720.

Asked "How much would Lisbon cost us altogether?", the 1.5B was shown 180 + 90 = 270 (the line's
amounts added) and said so; asked which option is cheapest, it compared the rates, not the costs.
Rates times counts from another line of the file is a step it does not take.
"""

from __future__ import annotations

import re
from datetime import date
from fractions import Fraction

from saturnd.tools.word_match import stems
from saturnd.turn.amounts import money_written
from saturnd.turn.dates import stay_of
from saturnd.turn.made_up import NUMBER_WORDS, WORKED_OUT

COUNT = rf"(?P<count>\d+|{'|'.join(w for w in NUMBER_WORDS if w not in ('a', 'an'))})"
NIGHTS = re.compile(COUNT + r"\s+nights?\b", re.IGNORECASE)
PEOPLE = re.compile(COUNT + r"\s+(?:of\s+us|people|persons|adults|guests)\b", re.IGNORECASE)
PRICED = re.compile(r"[£$€]\s?(?P<amount>\d[\d,]*(?:\.\d+)?)\s*(?P<per>/\s?night|(?:a|per)\s+night|each|pp|per\s+person|a\s+head)?",
                    re.IGNORECASE)
COST_ASKED = re.compile(r"\bhow\s+much\b|\bcost\b|\bcheap|\bdear|\bexpensive\b|\bafford", re.IGNORECASE)
COMPARED = re.compile(r"\bcheap|\bdear|\bexpensive|\bwhich\b", re.IGNORECASE)
CHEAPEST = re.compile(r"\bcheap|\bleast\s+expensive\b", re.IGNORECASE)
DEAREST = re.compile(r"\bdear|\b(?<!least )(?:most\s+)?expensive\b", re.IGNORECASE)
AS_GIVEN = " as the line gives it"


def stay_costs(lines: list[str], request: str, today: date | None = None) -> str:
    """Each line that prices something a night or a person, at the file's (or the request's) count
    of nights and people, or the nights between the first and last days it writes ("Fri 18 Dec" to
    "Tue 22 Dec": 4); the line the request names, or, asked which, every priced line, cheapest
    first. Nothing where a rate has no count to go with it."""
    text = "\n".join(lines)
    nights, people = _count(NIGHTS, request, text), _count(PEOPLE, request, text)
    if nights is None and today is not None and (stay := stay_of(lines, today)):
        nights = (stay[1] - stay[0]).days
    if not COST_ASKED.search(request) or (nights is None and people is None):
        return ""
    costs: list[tuple[Fraction, str]] = []
    for line in lines:
        priced = list(PRICED.finditer(line))
        if len(priced) == 1 and not priced[0]["per"]:  # "cottage, ~£600 for the week": its price as it stands
            amount = Fraction(priced[0]["amount"].replace(",", ""))
            costs.append((amount, f"{_label(line)}: {money_written(amount)}{AS_GIVEN}"))
        if not priced or not any(found["per"] for found in priced):
            continue
        parts, total = [], Fraction(0)
        for found in priced:
            amount = Fraction(found["amount"].replace(",", ""))
            count = nights if found["per"] and "night" in found["per"].lower() else people if found["per"] else 1
            if count is None:
                break
            parts.append(f"{count} × {money_written(amount)}" if found["per"] else money_written(amount))
            total += count * amount
        else:
            costs.append((total, f"{_label(line)}: {' + '.join(parts)} = {money_written(total)}"))
    named = [cost for cost in costs if stems(_label_of(cost[1])) & stems(request)]
    chosen = named if len(named) == 1 else sorted(costs) if COMPARED.search(request) else []
    if not chosen or all(said.endswith(AS_GIVEN) for _, said in chosen):
        return ""
    over = ", ".join(f"{count} {what}" for count, what in ((nights, "nights"), (people, "people")) if count is not None)
    verdict = (f"; cheapest: {_label_of(chosen[0][1])}" if CHEAPEST.search(request)
               else f"; dearest: {_label_of(chosen[-1][1])}" if DEAREST.search(request) else "")
    return f"{WORKED_OUT} for {over}: " + "; ".join(said for _, said in chosen) + (verdict if len(chosen) > 1 else "")


def _count(pattern: re.Pattern[str], request: str, text: str) -> int | None:
    """The count the request gives, else the one count the file gives."""
    if found := pattern.search(request):
        return NUMBER_WORDS.get(found["count"].lower()) or int(found["count"])
    counts = {NUMBER_WORDS.get(found["count"].lower()) or int(found["count"]) for found in pattern.finditer(text)}
    return counts.pop() if len(counts) == 1 else None


def _label(line: str) -> str:
    return re.split(r"[,:(]|\s[-–]\s", line.strip(" -*•"), maxsplit=1)[0].strip()


def _label_of(said: str) -> str:
    return said.split(":")[0]
