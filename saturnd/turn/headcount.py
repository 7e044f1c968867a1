"""A price a head times the people a table says are coming.

Asked "How much will the caterer cost for everyone coming?" with "Caterer: Green Fork, £65 a head"
in one file and the guests' answers counted in another ("rsvp: yes 6 (…)"), the 1.5B answered
"£65 per head": two files' figures to put together is a step it does not take.
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
