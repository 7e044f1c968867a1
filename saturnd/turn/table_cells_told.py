"""A row the folder's table already holds, with the one cell the user tells of changed in place.

"I paid the football.", "Ella said yes.", "I watered the monstera today.", "Put down a candle for
Priya.", "I picked up 28 more metformin today.", "Riya scored two today.": each changes a row a CSV
table already has (the clubs, the guests, the plants, the medicines, the squad), not a new one.
The 1.5B wrote "I paid the football." into a new football.txt, ended unreadable after 265 s on the
metformin, and answered "Riya scored two goals today." with no write. The row is the one whose
cells the request names most (a name, "the hotel" of "hotel Manchester", a month), and the cell the
one its words set: the yes/no column its verb names, the answer told, the date column of a thing
done on a day, the blank of a thing put down for someone, a count left, saved or scored gone up by
as many. A new row an add asks for is table_rows'.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from datetime import date
from decimal import Decimal

from saturnd.tools.table_cells import ISO_DATE, number, plain
from saturnd.tools.table_dates import header_and_rows
from saturnd.tools.word_match import stems
from saturnd.turn.dates import MONTHS, days_named, days_of
from saturnd.turn.errands import (
    SCORED_MORE,
    TAKEN_BACK,
    TOLD_ADDED,
    TOLD_LOGGED,
    TOLD_MORE,
    WENT_OUT,
    asked_action,
    told_answer,
)
from saturnd.turn.lists_named import ListToWrite
from saturnd.turn.made_up import NUMBER_WORDS
from saturnd.turn.retrieval import KB_SOURCE, Document

THIS_PART_OF_DAY = re.compile(r"\bthis\s+(?:morning|afternoon|evening|lunchtime)\b", re.IGNORECASE)
"""Today, said by its part ("I weighed in this morning at 82.4")."""
PUT_FOR = re.compile(r"^\W*(?i:(?:please\s+)?(?:put|add|pop|stick|write)\s+(?:down\s+)?(?:an?\s+|the\s+|some\s+)?)(?P<thing>.+?)"
                     r"\s+(?i:(?:down\s+)?for)\s+(?P<who>[A-Z][\w'-]*)\s*[.!]?\s*$")
"""A thing put down for someone a table has a row for: "Put down a candle for Priya"."""
FLAGS = frozenset({"yes", "y", "no", "n", "true", "false", ""})


def cell_told(request: str, documents: list[Document], today: date | None = None) -> ListToWrite | None:
    """The folder's table with the one cell the request tells of, in the one row it names: told a
    thing was done ("I paid the football."), the yes/no column its verb names set to yes; told an
    answer ("Ella said yes."), the one yes/no column set to it; told it was done on a day ("I
    watered the monstera today."), the date column its verb names set to that day; a thing
    put down for someone ("Put down a candle for Priya"), the one cell their row leaves blank."""
    action, put = asked_action(request), PUT_FOR.match(request)
    logged = action == "add" and TOLD_LOGGED.match(request) is not None  # "I sold the lamp today for 12."
    if action != "mark" and put is None and not logged and not TAKEN_BACK.match(request):  # taken back: its returned day
        return None
    today = today or date.today()
    said, words = stems(request) | (PAID if WENT_OUT.search(request) else set()), set(re.findall(r"[A-Z][\w'-]*", request))
    lower = set(re.findall(r"[a-z][\w'-]*", request.lower()))
    for doc in documents:
        table = None if doc.source.startswith(KB_SOURCE) else header_and_rows(doc.source, doc.text.splitlines())
        if table is None:
            continue
        header, body = table
        states = _state_columns(body)
        heads = [Counter(r[i].split()[0].lower() for r in body if r[i].strip()) for i in range(len(header))]
        held = [sum(bool(cell.strip() and number(cell) is None and cell.strip().lower() not in FLAGS and i not in states
                         and (stems(cell) and stems(cell) <= said or cell.split()[0] in words  # "Ella Shaw"
                              or _head_said(cell, heads[i], lower))  # "the hotel": "hotel Manchester"
                         or _month_said(cell, request)) + bool(cell.strip() and cell.split()[0] in words)  # a name: twice
                    for i, cell in enumerate(r)) for r in body]
        named = [r for r, count in zip(body, held, strict=True) if count and count == max(held)]  # "Pickle … joint tablet"
        if len(named) != 1 and not _each_named(named, said, lower):
            continue
        told = [_cell_told(header, body, row, request, said, put, today) for row in named]
        if not all(told) or logged and not all(not row[column].strip() and ISO_DATE.fullmatch(value)  # type: ignore[misc]
                                               for row, (column, value) in zip(named, told, strict=True)):
            continue  # a told log fills its row's blank day, else it is a new row
        text = doc.text
        for row, (column, value) in zip(named, told, strict=True):  # type: ignore[misc]
            cells = [value if i == column else _blank_told(body, i, cell, request) for i, cell in enumerate(row)]
            text = text.replace(csv_line(row), csv_line(cells), 1)
        return ListToWrite(doc.source, text)
    return None


def _head_said(cell: str, heads: Counter[str], words: set[str]) -> bool:
    """Whether the request says a cell's first word, one no other cell of its column opens with
    ("the hotel" of "hotel Manchester")."""
    head = cell.split()[0].lower()
    return len(head) >= MIN_HEAD and head in words and heads[head] == 1 and len(cell.split()) > 1


MIN_HEAD = 4
PAID = stems("paid")
"""What money gone out of the account did to a bill: a yes/no "paid" column is set."""


def _each_named(rows: list[list[str]], said: set[str], words: set[str]) -> bool:
    """Whether the request names each of several rows by its own first cell ("I watered the monstera
    and the snake plant", "the hotel and the taxi"), not two rows by a cell they share ("Bramble")."""
    labels = [next((cell for cell in row if cell.strip() and number(cell) is None and not ISO_DATE.match(cell)), "") for row in rows]
    heads = Counter(label.split()[0].lower() for label in labels if label.strip())
    return len(rows) > 1 and len(set(labels)) == len(labels) and all(
        stems(label) and stems(label) <= said or label.strip() and _head_said(label, heads, words) for label in labels)


MORE_OF = re.compile(r"\b(?:another\s+)?(?P<count>\d+)\s+more\b", re.IGNORECASE)
SAVED = re.compile(r".*\b(?:saved|balance|so\s+far|in\s+(?:it|the\s+pot)|paid\s+in|put\s+by|total)\b.*", re.IGNORECASE)
"""A column of money built up ("saved"): told "I've put another £50 in the holiday pot", it goes up."""
MONEY_ADDED = re.compile(r"[£$€]\s?(?P<amount>\d[\d,]*(?:\.\d+)?)")
STOCK_LEFT = re.compile(r".*\b(?:left|remaining|in\s+stock|stock|on\s+hand)\b.*", re.IGNORECASE)


def stock_topped_up(request: str, documents: list[Document]) -> ListToWrite | None:
    """Told more of a thing came in ("I picked up 28 more metformin today."), the folder's table
    with the count left of the one row naming it gone up by that many (30 + 28 = 58)."""
    more = MORE_OF.search(request) if TOLD_MORE.match(request) else TOLD_ADDED.match(request)
    if more is None:
        return None
    added = more["count"] if TOLD_MORE.match(request) else MONEY_ADDED.search(request)["amount"]  # type: ignore[index]
    said = stems(request)
    for doc in documents:
        table = None if doc.source.startswith(KB_SOURCE) else header_and_rows(doc.source, doc.text.splitlines())
        if table is None:
            continue
        header, body = table
        left = next((i for i, name in enumerate(header) if (STOCK_LEFT if TOLD_MORE.match(request) else SAVED).fullmatch(name.strip())
                     and all(number(r[i]) is not None for r in body)), None)
        named = [r for r in body if any(number(cell) is None and stems(cell) and stems(cell) <= said for cell in r)]
        if left is None or len(named) != 1:
            continue
        row = named[0]
        held = Decimal(str(number(row[left])))
        total = held + Decimal(added.replace(",", ""))
        exponent = held.as_tuple().exponent
        places = -exponent if isinstance(exponent, int) else 0
        written = total.quantize(Decimal(1).scaleb(-places)) if places > 0 else total.normalize()  # 32.50 + 5: 37.50
        cells = [format(written, "f") if i == left else cell for i, cell in enumerate(row)]
        return ListToWrite(doc.source, doc.text.replace(csv_line(row), csv_line(cells), 1))
    return None


SCORES = re.compile(r"goals?|score|points?|tries|runs|wickets|baskets", re.IGNORECASE)


def score_added(request: str, documents: list[Document]) -> ListToWrite | None:
    """Told someone scored so many ("Riya scored two today."), the folder's table with that
    person's count gone up by as many (5 + 2 = 7): the 1.5B said "Riya scored two goals today."."""
    told = SCORED_MORE.match(request)
    if told is None:
        return None
    count = told["count"].lower()
    added = int(count) if count.isdigit() else NUMBER_WORDS.get(count, 1)
    for doc in documents:
        table = None if doc.source.startswith(KB_SOURCE) else header_and_rows(doc.source, doc.text.splitlines())
        if table is None:
            continue
        header, body = table
        counts = [i for i, name in enumerate(header) if (stems(name) & stems(told["what"]) if told["what"] else SCORES.fullmatch(
            name.strip())) and all(number(r[i]) is not None for r in body)]
        theirs = [r for r in body if r and r[0].strip().lower() == told["who"].lower()]
        if len(counts) != 1 or len(theirs) != 1:
            continue
        row, column = theirs[0], counts[0]
        cells = [plain(Decimal(str(number(cell))) + added) if i == column else cell for i, cell in enumerate(row)]
        return ListToWrite(doc.source, doc.text.replace(csv_line(row), csv_line(cells), 1))
    return None


def _blank_told(body: list[list[str]], column: int, cell: str, request: str) -> str:
    """A blank cell of the row told of, set to the one value its column holds that the request says
    ("Tom said yes, and he'd like the fish.": meal fish)."""
    if cell.strip():
        return cell
    said = {value for r in body if (value := r[column].strip()) and number(value) is None and value.lower() not in FLAGS
            and re.search(rf"\b{re.escape(value)}\b", request, re.IGNORECASE)}
    return said.pop() if len(said) == 1 else cell


MONTH_CELL = re.compile(r"\d{4}-(?:0[1-9]|1[0-2])")
"""A cell of a month: "2026-11"."""


def _month_said(cell: str, request: str) -> bool:
    """Whether a month cell ("2026-11") is the month the request names ("I've paid November's subs")."""
    if not MONTH_CELL.fullmatch(cell.strip()):
        return False
    return re.search(rf"\b{MONTHS[int(cell.strip()[5:7]) - 1]}\b", request, re.IGNORECASE) is not None


def _cell_told(header: list[str], body: list[list[str]], row: list[str], request: str, said: set[str],
               put: re.Match[str] | None, today: date) -> tuple[int, str] | None:
    """(the column, the value) the request sets in its row, or None where it is set so already or unclear."""
    if put is not None:
        blank = [i for i, cell in enumerate(row) if not cell.strip()]
        told = (blank[0], put["thing"]) if len(blank) == 1 else None
    elif answer := told_answer(request):  # "Ella said yes.", "Noah's coming.": the one yes/no column
        flags = [i for i in range(len(header)) if {r[i].strip().lower() for r in body} <= FLAGS]
        told = (flags[0], answer) if len(flags) == 1 else None
    elif (dated := _dated_column_told(header, body, request, said, today)) is not None:
        told = dated  # "I watered the monstera today.": its "last watered" is today
    else:  # "I paid the football.": the yes/no column its verb names, as the table writes yes
        column = next((i for i, name in enumerate(header) if stems(name) & said
                       and {r[i].strip().lower() for r in body} <= FLAGS), None)
        told = _state_told(body, request) if column is None else (column, next(
            (r[column].strip() for r in body if r[column].strip().lower() in ("yes", "y", "true")), "yes"))
    return None if told is None or row[told[0]].strip() == told[1] else told


def _state_columns(body: list[list[str]]) -> set[int]:
    """The columns of a few lower-case words each row is in ("paid", "unpaid"): they name no row."""
    return {i for i in range(len(body[0]) if body else 0)
            if len(states := {r[i].strip() for r in body}) < len(body) and all(s.islower() for s in states)}


def _state_told(body: list[list[str]], request: str) -> tuple[int, str] | None:
    """(the column, the state) where one column's few words hold the one the request says ("Greenfield
    paid INV-045": a status of paid or unpaid set to paid)."""
    for i in sorted(_state_columns(body)):
        states = {r[i].strip() for r in body if r[i].strip()}
        if not 2 <= len(states) <= 4:
            continue
        told = [state for state in states if re.search(rf"\b{re.escape(state)}\b", request, re.IGNORECASE)]
        if len(told) == 1:
            return i, told[0]
    return None


LAST_DONE = re.compile(r"(?:last|last\s+(?:given|done|taken|had|used|time))", re.IGNORECASE)
"""A date column of when a thing was last done, by no verb of its own."""


def _dated_column_told(header: list[str], body: list[list[str]], request: str, said: set[str], today: date
                       ) -> tuple[int, str] | None:
    """(the date column the request's verb names, the day it says) for a thing told done on a day."""
    days = days_of(request, today) | {day for _, day in days_named(request, today)} | (
        {today} if THIS_PART_OF_DAY.search(request) else set())
    dated = [i for i in range(len(header)) if all(ISO_DATE.fullmatch(r[i].strip()) or not r[i].strip() for r in body)]
    column = next((i for i in dated if stems(header[i]) & said or _verb_of(header[i], request)
                   or BACK_TOLD.search(request) and RETURN_HEADED.search(header[i])),  # "took … back": "returned"
                  next((i for i in dated if LAST_DONE.fullmatch(header[i].strip())), None))  # "I gave …": "last given"
    return (column, days.pop().isoformat()) if column is not None and len(days) == 1 else None


BACK_TOLD = re.compile(r"\b(?:took|brought|gave|handed|dropped|sent)\b(?:\s+[\w',-]+){0,8}?\s+back\b", re.IGNORECASE)
RETURN_HEADED = re.compile(r"\breturn", re.IGNORECASE)
PAST_TENSE = re.compile(r"\b(?P<root>[a-z]{3,}?)e?d\b", re.IGNORECASE)


def _verb_of(column: str, request: str) -> bool:
    """Whether a column's name is a past form of a verb the request puts in the past ("sown on" of
    "I sowed the garlic", not "sow from"), where stems do not meet."""
    roots = {found["root"].lower() for found in PAST_TENSE.finditer(request)}
    return any(word.startswith(root) and word != root for word in re.findall(r"[a-z]+", column.lower()) for root in roots)


def csv_line(cells: list[str]) -> str:
    """A row's cells as the one CSV line the table writes for them, to find and replace a row by its line."""
    written = io.StringIO()
    csv.writer(written, lineterminator="").writerow(cells)
    return written.getvalue()
