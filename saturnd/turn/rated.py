"""A rate one file gives times what a table counts or totals: a price a head times the people
coming, a rate an hour times the hours worked.

Asked "How much will the caterer cost for everyone coming?" with "Caterer: Green Fork, £65 a head"
in one file and the guests' answers counted in another ("rsvp: yes 6 (…)"), the 1.5B answered
"£65 per head"; asked what to invoice Oakwell, with "Oakwell £35 an hour" in work.md and hours.csv
totalled, it gave the hours. Two files' figures to put together is a step it does not take.
"""

from __future__ import annotations

import re
from decimal import Decimal

from saturnd.tools.word_match import stems
from saturnd.turn.made_up import WORKED_OUT

HEADCOUNT_ASKED = re.compile(r"\bhow\s+much\b.*\b(?:every(?:one|body)|all|guests|people|coming|going|attending)\b",
                             re.IGNORECASE)
A_HEAD = re.compile(r"[£$€]\s?(?P<price>\d+(?:\.\d+)?)\s*(?:a|per|each)\s+(?:head|person|guest|adult)\b", re.IGNORECASE)
YES_COUNTED = re.compile(r"^\[Saturn counted\] (?:.*\| )?(?P<column>[\w ]+): (?:[^|]*?; )?yes (?P<count>\d+) \(")


def cost_a_head(request: str, shown: str) -> str:
    """The price a head of the line the request names, times the rows counted "yes"."""
    if not HEADCOUNT_ASKED.search(request):
        return ""
    coming = next((found for line in shown.splitlines() if (found := YES_COUNTED.match(line))), None)
    asked = stems(request)
    priced = next(((line.strip(), found) for line in shown.splitlines() if not line.startswith("[Saturn")
                   and (found := A_HEAD.search(line)) and asked & stems(line[:found.start()])), None)
    if coming is None or priced is None:
        return ""
    line, found = priced
    count, price = int(coming["count"]), Decimal(found["price"])
    return (f"{WORKED_OUT} {line.split(':')[0]}: {found.group(0)} × {count} ({coming['column'].strip()} yes)"
            f" = {format((price * count).normalize(), 'f')}")


MONEY_ASKED = re.compile(r"\bhow\s+much\b|\b(?:earn(?:ed|t)?|invoice|charge|bill|made|make|owe[sd]?|paid|pay)\b", re.IGNORECASE)
HOURLY = re.compile(r"(?P<name>[A-Z][\w&'’]*(?:\s+[A-Z][\w&'’]*)*)\s*[:=-]?\s*(?P<money>[£$€])\s?(?P<rate>\d+(?:\.\d+)?)\s*"
                    r"(?:an?|per)\s+(?:hour|hr)\b")
HOURS_TOTAL = re.compile(r"^\[Saturn worked out\] (?:[^;]*?; )?totals over (?:the (?P<over>[^;]*?) rows \([^)]*\)|\d+ rows): "
                         r"(?:[^;]*?, )?(?:hours|hrs) = (?P<hours>\d+(?:\.\d+)?)")
HOURS_BY = re.compile(r"; (?:hours|hrs) by [\w ]+?: (?P<groups>[^;]+)")


def hours_at_their_rates(request: str, shown: str) -> str:
    """Asked how much, the hours a table totals for each name a line gives a rate an hour for,
    times that rate: "Oakwell 7.5 hours × £35 an hour = 262.5"."""
    if not MONEY_ASKED.search(request):
        return ""
    rates = {found["name"].strip().lower(): Decimal(found["rate"]) for line in shown.splitlines()
             if not line.startswith("[Saturn") for found in HOURLY.finditer(line)}
    money = next((found["money"] for found in HOURLY.finditer(shown)), "£")
    for line in shown.splitlines():
        if not rates or (totals := HOURS_TOTAL.match(line)) is None:
            continue
        named = [(name, rate) for name, rate in rates.items() if re.search(rf"\b{re.escape(name)}\b", totals["over"] or "", re.IGNORECASE)]
        if len(named) == 1:
            name, rate = named[0]
            return f"{WORKED_OUT} {name.title()}: {totals['hours']} hours × {money}{rate} an hour = {_plain(Decimal(totals['hours']) * rate)}"
        if (by := HOURS_BY.search(line)) is not None:
            groups = [(g.rsplit(" ", 1)[0], Decimal(g.rsplit(" ", 1)[1])) for g in by["groups"].split(", ") if " " in g]
            priced = [(name, hours, rates[name.lower()]) for name, hours in groups if name.lower() in rates]
            if priced and len(priced) == len(groups):
                each = ", ".join(f"{name} {_plain(hours)} × {money}{rate} = {_plain(hours * rate)}" for name, hours, rate in priced)
                return f"{WORKED_OUT} at each one's rate an hour: {each}; in all {_plain(sum((h * r for _, h, r in priced), Decimal(0)))}"
    return ""


def _plain(value: Decimal) -> str:
    return format(value.normalize(), "f")
