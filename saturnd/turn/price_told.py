"""A thing's new price, told, written into its line in place of the old one.

Told "The home insurance has gone up to £312." with yearly bills.md's "- Home insurance: £286,
renews 20 December", the line becomes "- Home insurance: £312, renews 20 December"; its other
words, and every other line, stay as they are.
"""

from __future__ import annotations

import re

from saturnd.tools.word_match import stems
from saturnd.turn.errands import PRICE_TOLD
from saturnd.turn.lists_named import ListToWrite
from saturnd.turn.retrieval import KB_SOURCE, Document

MONEY = re.compile(r"[£$€]\s?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?")


def price_told(request: str, documents: list[Document]) -> ListToWrite | None:
    """The folder's one line naming every word of the thing told, with one amount of money, that
    amount written as told."""
    told = PRICE_TOLD.match(request)
    if told is None or not (thing := stems(told["thing"])):
        return None
    found = []
    for doc in documents:
        if doc.source.startswith(KB_SOURCE):
            continue
        lines = doc.text.split("\n")
        for at, line in enumerate(lines):
            if thing <= stems(line) and len(MONEY.findall(line)) == 1:
                changed = MONEY.sub(told["amount"].replace(" ", ""), line, count=1)
                found.append(ListToWrite(doc.source, "\n".join([*lines[:at], changed, *lines[at + 1:]])))
    return found[0] if len(found) == 1 and found[0].content not in (d.text for d in documents) else None
