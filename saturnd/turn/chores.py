"""A price list of jobs and a log of who did which ("Wash the car: £2" above "## Done this week",
"- Maya: wash the car"): what the done jobs come to (a job told done is logged there by
marks.job_logged).

Asked "How much extra do I owe the kids for chores this week?", shown both, the 1.5B summed the
price list; told "Theo hoovered the stairs today.", it said well done and wrote nothing.
"""

from __future__ import annotations

import re
from decimal import Decimal

from saturnd.tools.word_match import stems

PRICED = re.compile(r"^\W*(?P<job>[A-Za-z][^:£$€\d]{2,40}?)\s*[:–-]\s*(?:[£$€]\s?(?P<money>\d+(?:\.\d\d)?)|(?P<pence>\d{1,2})p)\s*$")
DONE_HEADING = re.compile(r"^#+\s*.*\bdone\b", re.IGNORECASE)
DONE_ITEM = re.compile(r"^\s*[-*•]\s*(?P<who>[A-Z][\w'-]*)\s*:\s*(?P<job>.+?)\s*$")
OWED_ASKED = re.compile(r"\bhow\s+much\b|\bowe\b|\bearn(?:ed|t)?\b|\bextra\b", re.IGNORECASE)
TOLD_JOB = re.compile(r"^\W*(?P<who>[A-Z][\w'-]*)\s+(?:has\s+)?(?:just\s+)?(?P<did>[a-z]+ed|did|swept|hung|made)\s+(?P<job>[^.!?]+?)"
                      r"(?:\s+(?:today|tonight|yesterday|this\s+(?:morning|afternoon|evening)))?\s*[.!]?\s*$")


def priced_jobs(lines: list[str]) -> list[tuple[str, Decimal]]:
    return [(found["job"].strip(), Decimal(found["money"]) if found["money"] else Decimal(found["pence"]) / 100)
            for line in lines if (found := PRICED.match(line))]


def done_section(lines: list[str]) -> tuple[int, list[int]] | None:
    """(the done heading's index, its items' indexes), where one heading says "done"."""
    headings = [i for i, line in enumerate(lines) if DONE_HEADING.match(line)]
    if len(headings) != 1:
        return None
    items = []
    for i in range(headings[0] + 1, len(lines)):
        if lines[i].startswith("#"):
            break
        if DONE_ITEM.match(lines[i]):
            items.append(i)
    return headings[0], items


def price_of(job: str, priced: list[tuple[str, Decimal]]) -> tuple[str, Decimal] | None:
    matches = [(name, price) for name, price in priced if stems(name) and stems(name) <= stems(job)]
    return matches[0] if len(matches) == 1 else None


def done_jobs_priced(lines: list[str], request: str) -> str:
    """What each done job comes to at its price, each person's and in all."""
    priced = priced_jobs(lines)
    section = done_section(lines)
    if not OWED_ASKED.search(request) or len(priced) < 2 or section is None or not section[1]:
        return ""
    each: list[str] = []
    by_who: dict[str, Decimal] = {}
    for i in section[1]:
        item = DONE_ITEM.match(lines[i])
        assert item is not None
        if (found := price_of(item["job"], priced)) is None:
            return ""
        each.append(f"{item['who']} {found[0].lower()} {found[1]:.2f}")
        by_who[item["who"]] = by_who.get(item["who"], Decimal(0)) + found[1]
    total = sum(by_who.values(), Decimal(0))
    return (f"[Saturn worked out] the jobs done at their prices: {'; '.join(each)}; by person: "
            + ", ".join(f"{who} {amount:.2f}" for who, amount in by_who.items()) + f"; in all {total:.2f}")

