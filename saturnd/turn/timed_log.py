"""A line added to a log of the day's times, in its own shape.

Told "I gave her Calpol at 11:00." with medicine.md's "## Given today" over "- 06:30 Calpol 5ml",
the new line is "- 11:00 Calpol 5ml": the time as the log writes it, the thing as it is written
there, and the amount of its last line where the request gives none.
"""

from __future__ import annotations

import re

from saturnd.gate.provenance import TIME, time_of
from saturnd.turn.errands import asked_action
from saturnd.turn.lists_named import ListToWrite
from saturnd.turn.retrieval import KB_SOURCE, Document

TIMED_LINE = re.compile(r"^(?P<mark>\s*[-*•]\s+)(?P<hour>\d{1,2}):(?P<minute>\d\d)\s+(?P<thing>[A-Za-z][\w'-]*)(?P<rest>.*)$")
AMOUNT = re.compile(r"\b\d+(?:\.\d+)?\s*(?:ml|mg|g|tablets?|puffs?|drops?|oz)\b", re.IGNORECASE)
MIN_LINES = 1


def timed_line_added(request: str, documents: list[Document]) -> ListToWrite | None:
    """The folder's one log of lines opening with a time ("- 06:30 Calpol 5ml") that holds the
    thing the request says was given or had at a time, with its line added in time order."""
    said = TIME.search(request)
    if asked_action(request) != "add" or said is None:
        return None
    hour, minute = time_of(said)
    found = []
    for doc in documents:
        if doc.source.startswith(KB_SOURCE):
            continue
        lines = doc.text.rstrip("\n").split("\n")
        timed = [(n, match) for n, line in enumerate(lines) if (match := TIMED_LINE.match(line))]
        same = [(n, match) for n, match in timed if re.search(rf"\b{re.escape(match['thing'])}\b", request, re.IGNORECASE)]
        if len(timed) < MIN_LINES or not same:
            continue
        last = same[-1][1]
        amount = AMOUNT.search(request)
        rest = last["rest"] if amount is None else " " + amount.group(0)
        new = f"{last['mark']}{hour:02d}:{minute:02d} {last['thing']}{rest}"
        later = [n for n, match in timed if (int(match["hour"]), int(match["minute"])) > (hour, minute)]
        at = later[0] if later else timed[-1][0] + 1
        found.append(ListToWrite(doc.source, "\n".join([*lines[:at], new, *lines[at:]]) + "\n"))
    return found[0] if len(found) == 1 else None
