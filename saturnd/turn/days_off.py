"""A span of days added to a list of spans that counts each one's days: leave taken, a trip.

Told "I'm taking 21 to 23 December off, add it." with leave.md's "Taken:" list of "- 14 to 18 July
(5 days)", the new line is "- 21 to 23 December (3 days)": the span as the request says it, its
days counted as the list counts them, from the first to the last. The 1.5B wrote "Annual leave
2026 - 24 days" in place of the list.
"""

from __future__ import annotations

import re

from saturnd.turn.dates import MONTHS
from saturnd.turn.errands import asked_action
from saturnd.turn.lists_named import ListToWrite
from saturnd.turn.retrieval import KB_SOURCE, Document

MONTH = r"(?P<month>" + "|".join(MONTHS) + r")"
SPAN_SAID = re.compile(r"\b(?P<first>\d{1,2})(?:st|nd|rd|th)?(?:\s+(?:to|-|–|till|until)\s+(?P<last>\d{1,2})(?:st|nd|rd|th)?)?\s+"
                       + MONTH + r"\b", re.IGNORECASE)
COUNTED_LINE = re.compile(r"^(?P<mark>\s*[-*•]\s+)(?P<span>.+?)\s+\((?P<count>\d+)\s+days?\)\s*$")
MIN_LINES = 2


def days_off_added(request: str, documents: list[Document]) -> ListToWrite | None:
    """The folder's one list of spans with their days counted, with the request's span added after its last line."""
    said = SPAN_SAID.search(request)
    if asked_action(request) != "add" or said is None:
        return None
    first, last = int(said["first"]), int(said["last"] or said["first"])
    if last < first:
        return None
    days = last - first + 1
    span = f"{first} to {last} {said['month'].title()}" if said["last"] else f"{first} {said['month'].title()}"
    found = []
    for doc in documents:
        if doc.source.startswith(KB_SOURCE):
            continue
        lines = doc.text.rstrip("\n").split("\n")
        counted = [(at, match) for at, line in enumerate(lines) if (match := COUNTED_LINE.match(line))]
        if len(counted) >= MIN_LINES:
            at, match = counted[-1]
            new = f"{match['mark']}{span} ({days} day{'s' if days != 1 else ''})"
            found.append(ListToWrite(doc.source, "\n".join([*lines[:at + 1], new, *lines[at + 1:]]) + "\n"))
    return found[0] if len(found) == 1 else None
