"""The row an add asks for in a table of the folder, built from the request's own words.

"Log 2 hours for Brightside today, business cards", "Put me down for the 19th
morning", "Add Intermezzo to the books I'm reading, started today": each is a
new row of a CSV table the folder holds (hours.csv, a rota, books.csv). The
1.5B wrote the request into a new log.txt, or asked the user which tool adds a
book. A cell is filled only from what the request says: the day it names (or
today, for a log of what was done) in the date column its words name, a number
by the column its unit names, a value the column already holds ("Brightside",
"morning", the rota's "Me"), the item in the first text column, and a phrase
after a comma in a free-text column. Everything else is left blank. A cell
told of in a row the table already holds is table_cells_told's.
"""

from __future__ import annotations

import csv
import io
import re
from datetime import date, timedelta
from fractions import Fraction
from pathlib import Path

from saturnd.tools.table_cells import ISO_DATE, TABLE_SUFFIXES, day_of, in_order, number
from saturnd.tools.table_sums import DAY_OF_MONTH
from saturnd.tools.word_match import stems
from saturnd.turn.dates import MONTHS, days_named, days_of
from saturnd.turn.errands import NAMED_FILE, TOLD_LOGGED, TOLD_READING, asked_action
from saturnd.turn.lists_named import ListToWrite
from saturnd.turn.made_up import NUMBER_WORDS
from saturnd.turn.priced_rows import priced_from_a_list
from saturnd.turn.retrieval import KB_SOURCE, Document
from saturnd.turn.table_cells_told import MONTH_CELL, THIS_PART_OF_DAY, cell_told, csv_line
from saturnd.turn.worked_times import CLOCK_SPAN, span_hours

ROW_ADDS = frozenset({"add", "put", "log", "record", "note", "append", "insert"})
DAY_WORDS = re.compile(
    r"\b(?:today|tonight|yesterday|tomorrow|(?:on\s+)?the\s+\d{1,2}(?:st|nd|rd|th)|\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?"
    rf"(?:{'|'.join(m[:3] for m in MONTHS)})[a-z]*(?:\s+\d{{4}})?|\d{{4}}-\d\d-\d\d)\b", re.IGNORECASE)
QUANTITY = re.compile(r"(?<![\w.,])(?P<money>[£$€])?(?P<amount>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s*(?P<unit>[a-z]+)?",
                      re.IGNORECASE)
MONEY_COLUMN = re.compile(r"cost|amount|price|spent|paid|total|fee|value|[£$€]", re.IGNORECASE)
ITEM = re.compile(r"^\W*(?i:please\s+)?(?i:add|put|log|record|note|append|insert)\s+(?P<item>[A-Z][\w'&+-]*(?:\s+[A-Z][\w'&+-]*)*)"
                  r"(?:\s+(?:to|on|in|into|at|for)\b|,)")
"""The thing a row is for, written with capitals: "Add Intermezzo to the books I'm reading"."""
ITEM_TO_THE = re.compile(r"^\W*(?:please\s+)?(?:add|put|log|record|note|append|insert)\s+(?:the\s+|an?\s+|my\s+)?"
                         r"(?P<item>[\w'&+-]+(?:\s+[\w'&+-]+){0,3}?)\s+(?:to|on|in|into)\s+(?:the|my|our)\b(?P<place>[^,.]*)",
                         re.IGNORECASE)
"""The thing a row is for, named before the table: "Add the cooker to the warranties"; when what
follows is not the table ("Add train to the airport, £36"), the thing is all before the comma."""
BEFORE_THE_COMMA = re.compile(r"^\W*(?:please\s+)?(?:add|put|log|record|note|append|insert)\s+(?:the\s+|an?\s+|my\s+)?"
                              r"(?P<item>[^,.]+?)\s*,", re.IGNORECASE)
AFTER_THE_COLON = re.compile(r"^\W*(?:please\s+)?(?:add|log|record|put|note)\s+(?:an?\s+|the\s+|my\s+)?[\w' ]{1,24}:\s*"
                             r"(?P<item>[^,.:]+?)\s*,", re.IGNORECASE)
"""The thing a row is for, first of the request's list: "Add a policy: pet insurance, PetCover, …"."""
MIN_CELLS = 2
YEAR_DAYS = 366


def row_instead_of_a_new_file(request: str, path: Path, documents: list[Document]) -> ListToWrite | None:
    """An add to a table written to a new file the request does not name: the table with its row
    ("Log 2 hours for Brightside today, business cards" had been written to a new log.txt), or
    with the cell the request tells of ("I paid the football." had been written to football.txt)."""
    if path.exists() or NAMED_FILE.search(request):
        return None
    return row_asked(request, documents, date.today()) or cell_told(request, documents)


def row_against_the_request(request: str, path: Path, content: str, today: date) -> ListToWrite | None:
    """A write adding one row to a table whose day or number is not the one the request gives, or
    with one column's words in another's cell: the table with the request's row ("Add Disney+ at 7.99
    a month, renewing 2 January" went in renewing 2027-01-01, the Gym row's day; "Add train to the
    airport, £36, paid by Sam" went in as the item "paid by Sam")."""
    if asked_action(request) not in ROW_ADDS or not path.name.lower().endswith(TABLE_SUFFIXES) or not path.is_file():
        return None
    text = path.read_text(encoding="utf-8", errors="replace")
    old = {line.strip().lower() for line in text.splitlines()}
    added = [line for line in content.splitlines() if line.strip() and line.strip().lower() not in old
             and not line.startswith("[Saturn ")]
    built = new_row(request, text, today, table_named=True, name=path.stem)
    if len(added) != 1 or built is None:
        return None
    header = next(csv.reader([text.splitlines()[0]]))
    wanted, written = next(csv.reader([built[0]])), next(csv.reader([added[0]]))
    day_said = bool(days_of(request, today) or days_named(request, today))
    if len(wanted) != len(written) or len(header) != len(wanted) or not any(
            cell and (number(cell) is not None and number(cell) != number(other) or day_said and ISO_DATE.fullmatch(cell)
                      and cell != other.strip()) for cell, other in zip(wanted, written, strict=True)) and not _column_in_a_cell(
            header, wanted, written):
        return None
    table = with_the_row(text, built[0], TOLD_LOGGED.match(request) is not None)
    return ListToWrite(path.name, table) if table is not None else None


def _column_in_a_cell(header: list[str], wanted: list[str], written: list[str]) -> bool:
    """Whether a written cell holds another column's name with the value the request gives it
    ("paid by Sam" as the item), or is the word the request gives another column ("PetCover" as the
    policy, the provider's cell left blank)."""
    return any(j != i and wanted[j] and wanted[i].lower() != cell.lower() and (
        len(header[j].strip()) > 2 and header[j].strip().lower() in cell.lower() and wanted[j].lower() in cell.lower()
        or number(cell) is None and cell.strip().lower() == wanted[j].strip().lower() and not written[j].strip())
               for i, cell in enumerate(written) if cell.strip() for j in range(len(header)))


def row_asked(request: str, documents: list[Document], today: date) -> ListToWrite | None:
    """The folder's table the request adds a row to, with that row added: the table whose name or
    column values the request names most, its row holding at least two cells the request gives."""
    if asked_action(request) not in ROW_ADDS:
        return None
    best: tuple[int, ListToWrite] | None = None
    for doc in documents:
        if doc.source.startswith(KB_SOURCE) or not doc.source.lower().endswith(TABLE_SUFFIXES):
            continue
        table_named = bool(stems(Path(doc.source).stem.replace("_", " ")) & stems(request))
        built = new_row(request, doc.text, today, table_named, Path(doc.source).stem)
        if built is None:
            continue
        row, filled = built
        named = filled + table_named
        row = priced_from_a_list(row, doc.text, request, documents, doc.source)  # "emptied the dishwasher": chores.md's £1
        if (best is None or named > best[0]) and (written := with_the_row(doc.text, row, TOLD_LOGGED.match(request) is not None)):
            best = (named, ListToWrite(doc.source, written))
    tables = [doc for doc in documents if not doc.source.startswith(KB_SOURCE) and doc.source.lower().endswith(TABLE_SUFFIXES)]
    if best is None and len(tables) == 1 and (built := new_row(request, tables[0].text, today, True, Path(tables[0].source).stem)):
        # the folder's one table is the one a bare reading goes in: "Log 83.6 today." of weight.csv (date,kg)
        written = with_the_row(tables[0].text, built[0], TOLD_LOGGED.match(request) is not None)
        return ListToWrite(tables[0].source, written) if written else None
    return best[1] if best else None


def row_changed_in_place(request: str, documents: list[Document], today: date) -> ListToWrite | None:
    """row_asked where the row it gives is one the table has, filled in or brought up to date."""
    ready = row_asked(request, documents, today)
    held = next((d.text for d in documents if ready is not None and d.source == ready.source), "")
    return ready if ready is not None and len(ready.content.strip().splitlines()) == len(held.strip().splitlines()) else None


LAST_HEADED = re.compile(r"\blast\b", re.IGNORECASE)


def with_the_row(text: str, line: str, told: bool = False) -> str | None:
    """The table with its new row: filling in the one row it completes ("Put Aisha down for the
    morning of the 8th": the 8th's morning row, its volunteer blank), or, in a table of one row a
    thing, bringing that thing's row up to date where a column is when it was "last" done ("Weighed
    Biscuit today, 18.9 kg": weight and last weighed); a thing told of that has a row and no such
    column gets no second row (None: "Bought Jamie the football kit" is no new birthday). Else the
    row goes at the end."""
    lines = text.rstrip("\n").split("\n")
    data = [n for n, physical in enumerate(lines[1:], 1) if physical.strip()]
    body = [next(csv.reader([lines[n]])) for n in data]
    cells = next(csv.reader([line]))
    same = [[bool(a.strip()) and a.strip().lower() == b.strip().lower() for a, b in zip(r, cells, strict=False)] for r in body]
    fills = [k for k, r in enumerate(body) if len(r) == len(cells) and sum(same[k]) >= MIN_CELLS
             and all(not a.strip() or not b.strip() or a.strip().lower() == b.strip().lower() for a, b in zip(r, cells, strict=True))
             and any(not a.strip() and b.strip() for a, b in zip(r, cells, strict=True))]
    if len(fills) == 1:
        lines[data[fills[0]]] = csv_line([a if a.strip() else b for a, b in zip(body[fills[0]], cells, strict=True)])
        return "\n".join(lines) + "\n"
    firsts = [r[0].strip().lower() for r in body if r]
    thing = next((k for k, r in enumerate(body) if r and same[k][:1] == [True]), None)
    if (thing is None or len(set(firsts)) != len(firsts) or not all(firsts) or any(day_of(f) or number(f) is not None for f in firsts)
            or len(body[thing]) != len(cells)):
        return "\n".join(lines) + "\n" + line + "\n"
    header = next(csv.reader([lines[0]]))
    if any(LAST_HEADED.search(name) and day_of(cells[i]) for i, name in enumerate(header)):
        lines[data[thing]] = csv_line([b if b.strip() else a for a, b in zip(body[thing], cells, strict=True)])
        return "\n".join(lines) + "\n"
    return None if told else "\n".join(lines) + "\n" + line + "\n"


def new_row(request: str, table: str, today: date, table_named: bool = False, name: str = "") -> tuple[str, int] | None:
    """The table's new row from the request's words, and how many cells it fills; None when the
    request gives fewer than two of its cells, or names neither the table nor a value it holds.
    name is the table's file name without its suffix."""
    rows = [r for r in csv.reader(io.StringIO(table)) if any(c.strip() for c in r)]
    if len(rows) < 2 or any(len(r) != len(rows[0]) for r in rows[1:]):
        return None
    header, body = rows[0], rows[1:]
    cells = [""] * len(header)
    said = stems(request)
    words = {w.lower() for w in re.findall(r"[\w'&-]+", request)}
    known = 0
    for i in range(len(header)):
        values = {r[i].strip() for r in body} - {""}
        named = [v for v in values if not number(v) and v.lower() in words  # "Brightside", the rota's "Me"
                 or " " in v and re.search(rf"\b{re.escape(v)}\b", request, re.IGNORECASE)]  # "Lakes loop"
        named = named or [v for v in values if _named_by_its_first_word(v, values, request)]  # "the Minuet": "Minuet in G"
        if len(named) == 1:
            cells[i] = named[0]
            known += 1
    defaulted = _days_in(header, body, cells, request, said, today)
    request = _day_of_month_in(header, body, cells, request)
    _month_in(header, body, cells, request, today)
    request = _clock_in(header, body, cells, request)
    request = _score_in(header, body, cells, request)
    by_unit = _quantities_in(header, body, cells, DAY_WORDS.sub(" ", in_figures(request)))
    shaped = _words_in(header, body, cells, request, name)
    filled = sum(bool(c) for c in cells) - defaulted
    if re.match(r"^\W*I\b", request):  # "I gave her 5 ml": the column that writes the user "me"
        mine = next(((i, v) for i in range(len(header)) if not cells[i] for v in {r[i].strip() for r in body} if v.lower() == "me"), None)
        if mine is not None:
            cells[mine[0]] = mine[1]
    whole_reading = TOLD_READING.match(request) is not None and all(cells)  # "The odometer says 42,700 today.": date, miles
    if filled < MIN_CELLS or not (known or table_named or by_unit or shaped or filled > MIN_CELLS or whole_reading):
        return None  # the request names nothing of this table: no row of its words
    return csv_line(cells), filled


def _named_by_its_first_word(value: str, values: set[str], request: str) -> bool:
    """Whether the request names a value of several words by its own capitalised first word, which
    opens no other value of the column ("Log 25 minutes on the Minuet today." of "Minuet in G")."""
    first = value.split()[0]
    return (" " in value and len(first) > 3 and first[:1].isupper() and re.search(rf"\b{re.escape(first)}\b", request) is not None
            and sum(v.split()[0] == first for v in values) == 1)


WORDED_AMOUNT = re.compile(r"\b(?:(?P<half>half\s+an?)|(?P<count>an?|one|two|three|four|five|six|seven|eight|nine|ten)"
                           r"(?P<and_a_half>\s+and\s+a\s+half)?)\s+(?P<unit>hours?|hrs?|minutes?|mins?|km|miles?|kg|litres?)\b",
                           re.IGNORECASE)


def in_figures(request: str) -> str:
    """The request's amounts written in words put in figures ("for an hour": "for 1 hour", "half an
    hour": "0.5 hour", "two and a half hours": "2.5 hours")."""
    def figure(found: re.Match[str]) -> str:
        if found["half"]:
            return f"0.5 {found['unit']}"
        count = NUMBER_WORDS[found["count"].lower()] + (0.5 if found["and_a_half"] else 0)
        return f"{count:g} {found['unit']}"
    return WORDED_AMOUNT.sub(figure, request)


def _days_in(header: list[str], body: list[list[str]], cells: list[str], request: str, said: set[str], today: date) -> bool:
    """The day the request names, or today, in the date column its words name (else the first), or
    a span's first and last days in the first two date columns; whether it was today for want of a
    day said."""
    dated = [i for i in range(len(header)) if any(day_of(r[i]) for r in body)
             and all(day_of(r[i]) or not r[i].strip() for r in body)]
    if not dated:
        return False
    if len(dated) > 1 and (span := _span_of(request, today)):  # "8 to 10 January": arrive, leave
        cells[dated[0]], cells[dated[1]] = (day.isoformat() for day in span)
        return False
    days = sorted(days_of(request, today) | {day for _, day in days_named(request, today)}
                  | ({today} if THIS_PART_OF_DAY.search(request) else set()))
    if len(days) > 1:
        return False
    column = next((i for i in dated if stems(header[i].replace("_", " ")) & said), dated[0])
    if not days and all(d < today - timedelta(days=YEAR_DAYS) for r in body if (d := day_of(r[column]))):
        return False  # a column of birthdays takes no "today" for want of a day said
    cells[column] = (days[0] if days else today).isoformat()
    return not days


DAY_SPAN = re.compile(r"\b(?P<first>[0-3]?\d)(?:st|nd|rd|th)?\s*(?:-|–|to|until|till)\s*(?P<last>[0-3]?\d)(?:st|nd|rd|th)?"
                      r"\s+(?P<month>[A-Za-z]{3,9})\b")


def _span_of(request: str, today: date) -> tuple[date, date] | None:
    """The first and last days of a span the request writes in one month ("8 to 10 January")."""
    found = DAY_SPAN.search(request)
    last = next(iter(days_of(f"{found['last']} {found['month']}", today)), None) if found else None
    if found is None or last is None or not 0 < int(found["first"]) < last.day:
        return None
    return last.replace(day=int(found["first"])), last


ORDINAL_DAY = re.compile(r"\b(?:on\s+)?the\s+(?P<day>[12]?\d|3[01])(?:st|nd|rd|th)\b", re.IGNORECASE)


def _day_of_month_in(header: list[str], body: list[list[str]], cells: list[str], request: str) -> str:
    """The day of the month the request names ("on the 9th") in a column of days of the month (a
    bill's "day of month"); the request without it, so that no other column takes the 9."""
    column = next((i for i in range(len(header)) if not cells[i] and DAY_OF_MONTH.search(header[i])
                   and all(r[i].strip().isdigit() and 1 <= int(r[i]) <= 31 for r in body if r[i].strip())), None)
    found = ORDINAL_DAY.search(request)
    if column is None or found is None:
        return request
    cells[column] = found["day"]
    return request[:found.start()] + request[found.end():]


def _month_in(header: list[str], body: list[list[str]], cells: list[str], request: str, today: date) -> None:
    """The month the request names ("Add January's book"), the next to come, in a column of months ("2026-12")."""
    column = next((i for i in range(len(header)) if not cells[i] and all(MONTH_CELL.fullmatch(r[i].strip()) for r in body)), None)
    named = [n for n, month in enumerate(MONTHS, 1) if re.search(rf"\b{month}\b", request, re.IGNORECASE)]
    if column is not None and len(named) == 1:
        cells[column] = f"{today.year + (named[0] < today.month)}-{named[0]:02d}"


NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b(?-i:[A-Z])[\w'&+-]*(?:\s+(?:&\s+)?(?-i:[A-Z])[\w'&+-]*)*")
"""A name the request writes with capitals, not opening it or a sentence: "Bright Electrics"."""


def _names_in(header: list[str], body: list[list[str]], cells: list[str], text: list[int], request: str) -> None:
    """The names the request gives that no cell holds, in order, into the empty columns whose cells
    are all names ("The Glass Road by Ben Ash": title, author), as many names as columns."""
    months = {m[:3] for m in MONTHS}
    names = [found.group(0) for found in NAME.finditer(request)
             if found.group(0).split()[0].lower()[:3] not in months and not re.fullmatch(r"I(?:['’]\w+)?", found.group(0)) and not DAY_WORDS.fullmatch(found.group(0).lower())
             and not any(found.group(0).lower() in c.lower() for c in cells if c)]
    capitals = [i for i in text if not cells[i] and all(r[i].strip()[:1].isupper() and not re.search(r"\d", r[i])
                                                        for r in body if r[i].strip())  # names, not "HH-44102"
                and any(r[i].strip() for r in body)]
    if names and len(names) == len(capitals):
        for column, name in zip(capitals, names, strict=True):
            cells[column] = name
        text[:] = [i for i in text if i not in capitals]


def _quantities_in(header: list[str], body: list[list[str]], cells: list[str], request: str) -> int:
    """Each number the request gives, in the numeric column its unit names ("2 hours": hours;
    "43,760 miles": mileage; "£56.20": cost), or the one numeric column left when one number is
    left, or the columns left in order when as many numbers are; how many went in by their unit."""
    numeric = [i for i in range(len(header)) if not cells[i] and all(number(r[i]) is not None or not r[i].strip() for r in body)
               and any(number(r[i]) is not None for r in body)]
    left = []
    by_unit = 0
    durations = next((i for i in range(len(header)) if not cells[i] and body and all(DURATION.fullmatch(r[i].strip()) for r in body)
                      and any(not CLOCK.fullmatch(r[i].strip()) for r in body)), None)  # "44:10" is no time of day
    for found in QUANTITY.finditer(request):
        unit, amount = (found["unit"] or "").lower(), found["amount"].replace(",", "")
        column = next((i for i in numeric if not cells[i] and (
            found["money"] and MONEY_COLUMN.search(header[i])
            or unit and (unit == header[i].strip().lower() or stems(unit) & stems(header[i].replace("_", " "))
                         or unit in re.findall(r"[a-z]+", header[i].lower())  # "5 ml": "dose ml"
                         or not found["money"] and len(header[i].strip()) <= 3 and header[i].strip().lower().startswith(unit)))), None)
        if column is None and durations is not None and not cells[durations] and (minutes := TIME_UNITS.get(unit)):
            cells[durations] = _as_a_duration(Fraction(amount) * minutes, [r[durations] for r in body])
            by_unit += 1
        elif column is not None:  # "7k": km
            cells[column] = amount
            by_unit += 1
        else:
            left.append(amount)
    empty = [i for i in numeric if not cells[i]]
    # one number left by the rest's units, a decimal ("37.4 litres at 1.36, 46,870 miles"), goes in the one column left
    # or one said as a count of the rest ("100kg for 5": reps)
    if len(left) == 1 and len(empty) == 1 and (len(numeric) == 1 or by_unit and ("." in left[0] or COUNT_OF_THE_REST.search(request))) \
            or 1 < len(left) == len(empty):
        for column, amount in zip(empty, left, strict=True):  # "138 over 84": systolic, diastolic, in order
            cells[column] = amount
    return by_unit


COUNT_OF_THE_REST = re.compile(r"\d\s*[a-z]*\s+(?:for|x|×)\s*\d+\b(?!\s*(?:[a-z]+\s+)?(?:hours?|mins?|minutes?|days?|km|miles?|kg|[£$€%]))",
                               re.IGNORECASE)
"""A number said as how many of the rest: "deadlift 100kg for 5", "60kg x 8"."""
SCORE = re.compile(r"\b(?P<got>\d+(?:\.\d+)?)\s*(?:/|out\s+of)\s*(?P<of>\d+(?:\.\d+)?)\b", re.IGNORECASE)
OUT_OF = re.compile(r"^\s*(?:out\s+of|max(?:imum)?|possible)\s*$", re.IGNORECASE)


def _score_in(header: list[str], body: list[list[str]], cells: list[str], request: str) -> str:
    """A score the request gives out of a number ("44 out of 60") in the column of what it is out
    of and the numeric column before it; the request without it."""
    found = SCORE.search(request)
    of = next((i for i in range(len(header)) if OUT_OF.match(header[i]) and not cells[i]), None)
    got = next((i for i in range(len(header) - 1, -1, -1) if of is not None and i < of and not cells[i]
                and all(number(r[i]) is not None for r in body)), None)
    if found is None or of is None or got is None:
        return request
    cells[got], cells[of] = found["got"], found["of"]
    return request[:found.start()] + request[found.end():]


TIME_OF_DAY = re.compile(r"\b(?:[01]?\d|2[0-3])[:.][0-5]\d(?:\s*[ap]m)?\b|\b(?:1[0-2]|0?\d)\s*[ap]m\b", re.IGNORECASE)


def _clock_in(header: list[str], body: list[list[str]], cells: list[str], request: str) -> str:
    """The one time of day the request gives ("at 15:30") in the column of times of day, written as
    its cells are, or the two ends of a span ("9 till 5") in a start and an end column; the request
    without them, so its figures are no amounts."""
    clocks = [i for i in range(len(header)) if not cells[i] and body and all(CLOCK.fullmatch(r[i].strip()) for r in body)]
    if len(clocks) == 2 and (span := CLOCK_SPAN.search(request)):  # "Add a shift on the 14th, 9 till 5": 09:00, 17:00
        start, end = span_hours(span)
        cells[clocks[0]], cells[clocks[1]] = f"{start[0]:02d}:{start[1]:02d}", f"{end[0]:02d}:{end[1]:02d}"
        return request[:span.start()] + " " + request[span.end():]
    times = TIME_OF_DAY.findall(request)
    column = clocks[0] if clocks else None
    if len(times) != 1 or column is None:
        return request
    unpadded = any(re.match(r"\d:", r[column].strip()) for r in body)  # "1:05", not "01:05"
    cells[column] = re.sub(r"^0(?=\d:)", "", in_order(times[0])) if unpadded else in_order(times[0])
    return TIME_OF_DAY.sub(" ", request)


CLOCK = re.compile(r"(?:[01]?\d|2[0-3]):[0-5]\d")
"""A time of day written with a colon only: table_cells.CLOCK_TIME also takes "1.36", a price."""
DURATION = re.compile(r"\d{1,3}:[0-5]\d(?::[0-5]\d)?")
"""A cell of time taken: "27:40", "1:22:30"."""
TIME_UNITS = {"minutes": 1, "minute": 1, "mins": 1, "min": 1, "hours": 60, "hour": 60, "hrs": 60, "hr": 60, "h": 60}


def _as_a_duration(minutes: Fraction, written: list[str]) -> str:
    """Minutes as a column of times taken writes them: "39:00" beside "27:40" and "1:22:30" (minutes
    and seconds), "0:39" beside "1:15" and "0:45" (hours and minutes)."""
    seconds = round(minutes * 60)
    if any(cell.count(":") == 2 or int(cell.split(":")[0]) > 23 for cell in written):  # minutes:seconds
        hours, rest = divmod(seconds, 3600)
        return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"
    return f"{seconds // 3600}:{seconds % 3600 // 60:02d}"


def _words_in(header: list[str], body: list[list[str]], cells: list[str], request: str, name: str) -> int:
    """The item ("Intermezzo") in the first empty text column; a phrase after a comma that no cell
    holds yet ("business cards") in a free-text column, one whose values are mostly different, or,
    opening with a number as each of a column's values does, in that column ("12 Oak Lane Ely": the
    address); how many went in by that shape."""
    text = [i for i in range(len(header)) if not cells[i] and all(number(r[i]) is None and not ISO_DATE.match(r[i].strip())
                                                                  and not CLOCK.fullmatch(r[i].strip()) for r in body)]
    item = _item(request, name)
    if item and text and not any(item.lower() == c.lower() for c in cells):
        cells[text.pop(0)] = item
    _names_in(header, body, cells, text, request)
    free = [i for i in text if 2 * len({r[i].strip() for r in body}) > len(body) > 1]
    shaped = 0
    for phrase in request.split(",")[1:]:
        phrase = phrase.strip(" .!")
        numbered = [i for i in free if NUMBERED.match(phrase) and all(NUMBERED.match(r[i].strip()) for r in body)]
        if numbered and not any(phrase.lower() in c.lower() for c in cells if c):
            cells[numbered[0]] = phrase
            free.remove(numbered[0])
            shaped += 1
        elif (free and phrase and not DAY_WORDS.search(phrase) and not re.search(r"\d", phrase) and not ASKED_TO_ADD.match(phrase)
                and not any(phrase.lower() in c.lower() for c in cells if c)):
            cells[free.pop(0)] = phrase
    return shaped


ASKED_TO_ADD = re.compile(r"^(?:(?:can|could|would)\s+you\s+|please\s+)?(?:add|log|put|note|record|write|save|enter|"
                          r"update|pop|stick)\b[\w ]{0,20}$|^(?:please|thanks|thank\s+you|cheers|ta)$", re.IGNORECASE)
"""A phrase after a comma that asks for the row ("…today, add it."): no cell of it."""
NUMBERED = re.compile(r"^\d+[a-z]?\s+[A-Za-z]")
"""A value opening with a number and a word: a house number and its street."""


def _item(request: str, name: str) -> str | None:
    """The thing the row is for: capitalised, or named before the table, or before the first comma
    when the place it goes "to" is not the table."""
    if capitalised := ITEM.match(request):
        return capitalised["item"]
    if (listed := AFTER_THE_COLON.match(request)) and listed["item"].islower():  # "Add a policy: pet insurance, …"
        return listed["item"]
    before = ITEM_TO_THE.match(request)
    whole = BEFORE_THE_COMMA.match(request)
    if before is None:  # "Add Mr and Mrs Patel, 12 Oak Lane": a name before the comma
        return whole["item"] if whole and whole["item"][:1].isupper() and ":" not in whole["item"] else None
    if name and whole and before["place"].strip() and not stems(before["place"]) & stems(name.replace("_", " ")):
        return whole["item"]
    return before["item"]
