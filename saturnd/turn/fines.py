"""Fines owed: a rate a day a line gives ("Fines: 25p a day per book") over the days each row of a
table is past its due day and not yet returned. Asked "How much do I owe in fines?", the 1.5B gave
the rate back ("25p a day per book"); the loans table was not even in the ground."""

from __future__ import annotations

import re
from datetime import date
from fractions import Fraction

from saturnd.tools.table_cells import day_of
from saturnd.tools.table_dates import header_and_rows
from saturnd.turn.amounts import money_written
from saturnd.turn.made_up import WORKED_OUT
from saturnd.turn.retrieval import KB_SOURCE, Document

FINES_ASKED = re.compile(r"\bfines?\b", re.IGNORECASE)
RATE_A_DAY = re.compile(r"\bfines?\b[^\n]*?(?:[£$€]\s?(?P<money>\d+(?:\.\d+)?)|(?P<pence>\d{1,2})p)\s*(?:a|per|each)\s+day\b",
                        re.IGNORECASE)
DUE = re.compile(r"^\s*(?:due|due\s+back|return\s+by)\s*$", re.IGNORECASE)
RETURNED = re.compile(r"^\s*(?:returned|back|handed\s+back)\s*$", re.IGNORECASE)


def fines_owed(request: str, documents: list[Document], today: date) -> str:
    """The fine each row past its due day and not returned comes to, and all of them, at the one
    rate a day the files give; "" where the request asks of no fine or the files give no rate."""
    if not FINES_ASKED.search(request):
        return ""
    own = [doc for doc in documents if not doc.source.startswith(KB_SOURCE)]
    rates = [(line.strip(), found) for doc in own for line in doc.text.splitlines() if (found := RATE_A_DAY.search(line))]
    if len(rates) != 1:
        return ""
    line, found = rates[0]
    rate = Fraction(found["money"]) if found["money"] else Fraction(int(found["pence"]), 100)
    owed = []
    for doc in own:
        table = header_and_rows(doc.source, doc.text.splitlines())
        if table is None:
            continue
        header, body = table
        due = next((i for i, name in enumerate(header) if DUE.match(name)), None)
        back = next((i for i, name in enumerate(header) if RETURNED.match(name)), None)
        if due is None:
            continue
        for row in body:
            when = day_of(row[due])
            if when is not None and when < today and (back is None or not row[back].strip()):
                owed.append((row[0].strip(), (today - when).days))
    if not owed:
        return f'{WORKED_OUT} fines at "{line}": nothing is past its due day and not returned, so none'
    said = [f"{name} {days} days late × {money_written(rate)} = {money_written(days * rate)}" for name, days in owed]
    total = sum((days * rate for _, days in owed), Fraction(0))
    in_pence = f" ({total * 100}p)" if found["pence"] and total < 1 else ""  # "75p", as the line writes its rate
    return f'{WORKED_OUT} fines at "{line}": ' + "; ".join(said) + f"; in all {money_written(total)}{in_pence}"
