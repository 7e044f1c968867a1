"""A log's new row filled from the price list of its things another file of the folder holds.

Told "Leo emptied the dishwasher today, add it." with pocket money.csv (date,who,amount,for) and
chores.md's table of each chore and what it pays ("| empty dishwasher | Leo | £1 |"), the row the
request gives is "2026-12-04,Leo,," — what was done and what it pays are in the other file.
"""

from __future__ import annotations

import csv
import io
import re

from saturnd.tools.table_cells import number
from saturnd.tools.word_match import stems
from saturnd.turn.retrieval import Document

MONEY = re.compile(r"[£$€]\s?(?P<amount>\d+(?:\.\d+)?)")
PARTS = re.compile(r"\s*(?:\||:|\s[-–]\s|,)\s*")


def priced_from_a_list(row: str, table: str, request: str, documents: list[Document], source: str) -> str:
    """`row` with its empty thing cell and empty amount cell filled from the one line of another
    file that names a thing the table's column already holds ("wash the car") and, of those, shares
    the most words with the request; `row` unchanged when no such line is the one."""
    rows = [r for r in csv.reader(io.StringIO(table)) if any(c.strip() for c in r)]
    cells = next(csv.reader([row]))
    body = rows[1:]
    if not body or len(cells) != len(rows[0]):
        return row
    things = next((i for i in range(len(cells)) if not cells[i] and all(r[i].strip() and number(r[i]) is None for r in body)), None)
    amount = next((i for i in range(len(cells)) if not cells[i] and all(number(r[i]) is not None for r in body)), None)
    if things is None or amount is None:
        return row
    known = {r[things].strip().lower() for r in body}
    said = stems(request) - stems(" ".join(cells))
    lists = [doc for doc in documents if doc.source != source and any(thing in doc.text.lower() for thing in known)]
    priced = [(len(said & stems(part)), part, found["amount"]) for doc in lists for line in doc.text.splitlines()
              if len(MONEY.findall(line)) == 1 and (found := MONEY.search(line))
              for part in PARTS.split(line.strip(" |-*•")) if part and not MONEY.search(part)]
    best = max((p[0] for p in priced), default=0)
    chosen = {(part, amount_said) for count, part, amount_said in priced if count == best}
    if not best or len(chosen) != 1:
        return row
    cells[things], cells[amount] = next(iter(chosen))
    written = io.StringIO()
    csv.writer(written, lineterminator="").writerow(cells)
    return written.getvalue()
