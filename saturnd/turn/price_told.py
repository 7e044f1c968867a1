"""A thing's amount, told, written into its line in place of the old one.

Told "The home insurance has gone up to £312." with yearly bills.md's "- Home insurance: £286,
renews 20 December", the line becomes "- Home insurance: £312, renews 20 December"; told "I've put
another £100 in the holiday pot.", "- Holiday: £640 of £1,500" becomes "- Holiday: £740 of £1,500"
(the 1.5B added "- Another £100 in the holiday pot." below it); told "I've renewed my railcard, it
now expires 19 December 2027.", "- Railcard: expires 19 December 2026" takes the new day. Its other
words, and every other line, stay as they are.
"""

from __future__ import annotations

import re

from saturnd.tools.word_match import stems
from saturnd.turn.errands import DATE_TOLD, PRICE_TOLD
from saturnd.turn.lists_named import ListToWrite
from saturnd.turn.pots import line_with_money_added
from saturnd.turn.retrieval import KB_SOURCE, Document

MONEY = re.compile(r"[£$€]\s?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?")


def price_told(request: str, documents: list[Document]) -> ListToWrite | None:
    """The folder's one line naming every word of the thing told, with one amount of money, that
    amount written as told."""
    told = PRICE_TOLD.match(request)
    return _the_one_line_changed(documents, told["thing"], MONEY, told["amount"].replace(" ", "")) if told else None


def _the_one_line_changed(documents: list[Document], thing: str, value: re.Pattern[str], new: str) -> ListToWrite | None:
    """The folder's one line naming every word of `thing` with one `value`, that value written as
    `new`; None where no line or several are, or it is so already."""
    words = stems(thing)
    found = []
    for doc in documents:
        if doc.source.startswith(KB_SOURCE) or not words:
            continue
        lines = doc.text.split("\n")
        for at, line in enumerate(lines):
            if words <= stems(line) and len(value.findall(line)) == 1:
                found.append(ListToWrite(doc.source, "\n".join([*lines[:at], value.sub(new, line, count=1), *lines[at + 1:]])))
    return found[0] if len(found) == 1 and found[0].content not in (d.text for d in documents) else None


def money_added(request: str, documents: list[Document]) -> ListToWrite | None:
    """The folder's one file with the line money told as added went into, that line so much more."""
    found = [ListToWrite(doc.source, doc.text.replace(added[0], added[1], 1)) for doc in documents
             if not doc.source.startswith(KB_SOURCE) and (added := line_with_money_added(doc.text.split("\n"), request))]
    return found[0] if len(found) == 1 else None


DATE_WRITTEN = re.compile(r"\b\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*(?:\s+\d{4})?\b|"
                          r"\b\d{4}-\d\d-\d\d\b", re.IGNORECASE)


def date_told(request: str, documents: list[Document]) -> ListToWrite | None:
    """The folder's one line naming every word of the thing told, with one date, that date written as told."""
    told = DATE_TOLD.match(request)
    if told is None or "now" not in request.lower():
        return None
    return _the_one_line_changed(documents, told["renewed"] or told["thing"], DATE_WRITTEN, told["date"])
