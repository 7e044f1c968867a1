"""Totals of a small CSV table, worked out by the harness and shown beside the table.

A 1.5B model read budget.csv and answered 2100 for amounts that sum to 1745. Adding
is not the model's job: read_file and the ground's excerpts show a whole CSV file
with its numeric columns' totals, the totals by category where one column
groups the rows (food, rent, travel), and by month where a column holds dates
(asked what October's food cost, the 1.5B gave the total of every month's), and of the rows
whose category (or any text column's value) the request names; for a request that asks for an
average, or the largest or smallest, that too. An orders table's numbers that name its rows are no
amount, and its quantities at a price each are what each row came to ("qty × price"); the days a
request names ("last week") pick a dated table's rows, and a first name the rows it begins.

Which rows a request's words pick is table_picks'; a dated table of readings, levels or start and
end times, whose numbers are no amounts to add, is table_series'.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from collections.abc import Collection
from datetime import date
from decimal import Decimal
from fractions import Fraction
from itertools import pairwise

from saturnd.tools.periods import PERIOD_OF, TIMES_A_YEAR, period_asked
from saturnd.tools.table_asked import (
    LEFT_ASKED,
    RATED,
    asked_of_rows,
    counts_up,
    difference,
    distance_between_rows,
)
from saturnd.tools.table_cells import (
    BLANK,
    ISO_DATE,
    TABLE_SUFFIXES,
    column_total,
    day_of,
    first_day_of,
    month_of,
    named_cells,
    number,
    plain,
    stems_named,
    sums_by,
    value_in,
)
from saturnd.tools.table_dates import as_next, days_now, last_rows
from saturnd.tools.table_extremes import extremes_by_group
from saturnd.tools.table_flags import (
    FLAGS,
    HOW_MANY,
    NEGATED,
    UNSURE,
    flagged,
    rows_by_flag,
    status_asked,
)
from saturnd.tools.table_picks import (
    MAX_GROUPS,
    SINCE_MONTH,
    a_year_gone,
    all_but,
    date_column_named,
    grouping_column,
    month_named,
    month_started,
    named_values,
    value_named,
    verb_named,
)
from saturnd.tools.table_repeats import EVERY_HEADED, between_times, next_by_row
from saturnd.tools.table_series import (
    LEVELS,
    hours_between,
    levels_over_time,
    one_row_a_thing,
    signed,
    used_between_readings,
)
from saturnd.tools.word_match import stems

MAX_ROWS = 2_000


def table_totals(name: str, text: str, request: str = "", days: Collection[date] = (), today: date | None = None) -> str:
    """One line of totals for a CSV/TSV file with a header row and numeric columns; "" otherwise.
    A `request` naming one month of a table with dates gets that month's rows only: shown every
    month's too, the 1.5B answered October's food with the food of all months. So too a request
    naming some values of a text column ("food"): those rows only. The `days` the request names
    ("did I work on Tuesday") pick a table of start and end times' rows. Birthdays count by the
    day each next falls from `today`."""
    for header, body in _table(name, text):
        body = as_next(header, body, today)
        rows = [header, *body]
        return "\n".join(filter(None, (_none_on_the_days(header, body, days, request),
                                        _totals(name, header, body, rows, request, days, days_now(request, today), today), hours_between(header, body, days),
                                        _dated_or_not(header, body), _blanks_asked(header, body, request),
                                        last_rows(header, body, request), next_by_row(header, body, request, today),
                                        extremes_by_group(name, header, body, request), between_times(header, body, request),
                                        distance_between_rows(header, body, request))))
    return ""


CHANGE_ASKED = re.compile(r"\b(?:gone\s+(?:up|down)|went\s+(?:up|down)|increased|decreased|improved|progressed|risen|rose|"
                          r"dropped|fallen|fell|grown|changed|come\s+down|put\s+on)\b", re.IGNORECASE)
"""Asked how a dated log's value moved ("How much has my squat gone up since October?"): its change, not its sum."""
LAST_TIME_ASKED = re.compile(r"\blast\s+(?:time|session|one|go|entry|reading)\b|\blatest\b|\bmost\s+recent(?:ly)?\b", re.IGNORECASE)
"""Asked of the latest of the rows ("How much did I bench last time?"): that row, not their sum."""
MAX_DAYS_NONE = 7


def _none_on_the_days(header: list[str], body: list[list[str]], days: Collection[date], request: str) -> str:
    """A table's one column of days holding none of the days asked, said: asked "What homework is
    due tomorrow?" of rows due on other days, the 1.5B named three of them."""
    dated = [i for i in range(len(header)) if body and all(day_of(r[i]) for r in body)
             and not header[i].strip().lower().startswith("last")]  # "last watered" is no day a thing falls on
    if not days or not ASKS_OF_THE_DAYS.match(request) or len(days) > MAX_DAYS_NONE or len(dated) != 1 or any(day_of(r[dated[0]]) in days for r in body):
        return ""
    return f"[Saturn worked out] no rows with {header[dated[0]].strip()} {_days_written(days)}: none of the {len(body)}"


ASKS_OF_THE_DAYS = re.compile(r"^\W*(?:what|which|is|are|has|have|do|does|anything)\b[^?]*\?\s*$", re.IGNORECASE)
"""A question of what falls on the days it names ("What homework is due tomorrow?"), not a thing told of today."""


MARKDOWN_ROW = re.compile(r"^\s*\|(.*)\|\s*$")
MARKDOWN_RULE = re.compile(r"^[\s|:-]+$")


def _table(name: str, text: str) -> list[tuple[list[str], list[list[str]]]]:
    """The header and the rows of as many cells, of a CSV/TSV file of a size to work on, or of a
    notes file's one markdown table ("| supplier | cost | deposit paid |"); none otherwise."""
    if name.lower().endswith(TABLE_SUFFIXES):
        dialect = "excel-tab" if name.lower().endswith(".tsv") else "excel"
        rows = [row for row in csv.reader(io.StringIO(text), dialect) if any(c.strip() for c in row)]
    else:
        rows = [[cell.strip() for cell in found.group(1).split("|")] for line in text.splitlines()
                if (found := MARKDOWN_ROW.match(line)) and not MARKDOWN_RULE.fullmatch(line)]
    if len(rows) < 3 or len(rows) > MAX_ROWS:
        return []
    return [(rows[0], [r for r in rows[1:] if len(r) == len(rows[0])])]


def _totals(name: str, header: list[str], body: list[list[str]], rows: list[list[str]], request: str,
            days: Collection[date] = (), now: Collection[date] = (), today: date | None = None) -> str:
    numeric = [i for i in range(len(header)) if all(number(r[i]) is not None or not r[i].strip() for r in body)
               and 2 * sum(number(r[i]) is not None for r in body) > len(body)]  # "riders" not yet known for rides to come
    if any(number(header[i]) is not None for i in numeric):  # no header row
        return ""
    numeric = [i for i in numeric if not _identifies_rows(header[i], body, i)
               and not EVERY_HEADED.search(header[i])  # "water every (days)": how often, no amount
               and not DAY_OF_MONTH.search(header[i])]  # a bill's "day of month": when, no amount
    dates = next((i for i in range(len(header)) if all(ISO_DATE.match(r[i]) for r in body)), None)
    rising = {i for i in numeric if counts_up(header, body, i)}  # over every row: one month's row is no sum of an odometer
    over = ""
    stays = [i for i in range(len(header)) if all(day_of(r[i]) for r in body)]
    if len(stays) == 2 and (days or now and not (LEFT_ASKED.search(request) and _blank_dates(header, body)
                                                 and not any(stems_named(header[i], request) for i in stays))) and (
            # "Which books have I still got out?": a loan's blank "returned" tells, not borrowed to due
            # ("What can I still sow this month?" is of "sow from" and "sow until")
            picked := [r for r in body if any(_stayed(header, r, stays, day) for day in days or now)]):
        body, over = picked, f"covering {_days_written(days or now)} "  # "free on New Year's Eve?"
    elif dates is not None and (picked := [r for r in body if day_of(r[dates]) in days]):  # "last week", "on Friday"
        body, over = picked, " to ".join(dict.fromkeys([min(days).isoformat(), max(days).isoformat()])) + " "
    if not numeric:
        return _rows_without_amounts(name, header, body, request, over, dates)
    if (product := _quantity_by_price(header, body, numeric)) is not None:  # an order's qty,price: what it came to
        header, body = [*header, product[0]], [[*r, value] for r, value in zip(body, product[2], strict=True)]
        numeric.append(len(header) - 1)
    if dates is not None and (used := used_between_readings(name, header, body, numeric, dates, request)
                              or levels_over_time(name, header, body, numeric, dates, request)):
        return used  # readings and levels are no amounts: their totals mean nothing
    grouping = grouping_column(header, body, [*numeric, dates], request)
    since = SINCE_MONTH.search(request)
    if (named_dates := date_column_named(header, body, request)) is not None and (
            since or any(month_named(month_of(r[named_dates]), request) for r in body if r[named_dates].strip())):
        body = [r for r in body if r[named_dates].strip()]  # "How many books did I finish in November?": by finished
        dates, over = named_dates, f"{header[named_dates].strip()} "
    if dates is not None and since and (start := month_started(body, dates, since.group(1))):
        body = [r for r in body if (d := first_day_of(r[dates])) is not None and d >= start]  # "since September": on from it
        over += f"since {start:%B %Y} "
    elif dates is not None and len(asked := {m for r in body if month_named(m := month_of(r[dates]), request)
                                             and not a_year_gone(m, today)}) == 1:
        month = asked.pop()
        body, dates = [r for r in body if month_of(r[dates]) == month], None
        over += f"{month} "
    if (named := named_values(header, body, [*numeric, dates], request, name)) and all_but(named[1], request):
        column, values = named  # "my biggest bill after rent": the rows other than Rent's
        body = [r for r in body if r[column].strip() not in values]
        over += "other than " + " and ".join(sorted(values)) + " "
        named = None
    elif named:
        column, values = named
        body = [r for r in body if r[column].strip() in values]
        over += " and ".join(sorted(values)) + " "
        grouping = column if len(values) > 1 else None
    if (bound := THRESHOLD.search(request)) and numeric:  # "Which expenses are over £40?"
        amount = numeric[-1]
        limit, above = Decimal(bound.group("limit").replace(",", "")), bound.group("way").lower() in ABOVE
        body = [r for r in body if (value := number(r[amount])) is not None and (value > limit if above else value < limit)]
        over += f"{header[amount].strip()} {'over' if above else 'under'} {plain(limit)} "
        if not body:
            return f"[Saturn worked out] no row has {over.strip()}"
    names = ""
    if by_flag := flagged(header, body, numeric, request):  # shown every row's total too, the 1.5B gave that
        column, wanted, label = by_flag
        body = [r for r in body if FLAGS[r[column].strip().lower()] is wanted]
        over += f"{header[column].strip()} = {body[0][column].strip()} "
        names = f": {', '.join(r[label].strip() for r in body)}" if label is not None else ""
        grouping = None if grouping == column else grouping
    elif (status := status_asked(header, body, request)) and 0 < len(
            picked := [r for r in body if (r[status[0]].strip().lower() == status[1]) is status[2]]) < len(body):
        column, done, wanted = status  # "How many orders still need shipping?": those not "shipped"
        body = picked
        over += f"{header[column].strip()} {'' if wanted else 'not '}{done} "
        grouping = None if grouping == column and wanted else grouping
    elif (LEFT_ASKED.search(request) or NEGATED.search(request)) and not days and len(undone := _blank_dates(header, body)) == 1:
        column = undone[0]  # "the most expensive thing still for sale": the rows not sold yet
        body = [r for r in body if not r[column].strip()]
        over += f"not {header[column].strip()} yet "
    elif not days and len(dated := _blank_dates(header, body)) == 1 and verb_named(header[dated[0]], request):
        body = [r for r in body if r[dated[0]].strip()]  # "How much have I made from selling?": the rows sold
        over += f"{header[dated[0]].strip()} "
    over = f"the {over}rows ({len(body)}{names})" if over else f"{len(body)} rows"
    summed = [i for i in numeric if (product is None or not (UNIT_PRICE.fullmatch(header[i].strip())
                                                             or PRICE_PER.fullmatch(header[i].strip())))  # prices don't add
              and not RATED.fullmatch(header[i].strip())  # nor ratings
              and not AVERAGED.search(header[i])  # nor a ride's "avg speed"
              and not (LEVELS.search(header[i]) and one_row_a_thing(rows[1:]))  # nor a dog's and a cat's weights
              and i not in rising]  # nor a mileage read at each row (distance_between_rows)
    if (period := PER_PERIOD.search(request)) and len(by_period := [i for i in summed if _per(period) == _per(PER_PERIOD.search(header[i]))]) == 1:
        summed = by_period  # "How many tablets a day in total?": the "times a day", not the tablets left
    if len(summed) == 1 and (between := difference(header, body, summed[0], request)):
        return between
    if dates is not None and len(body) > 1 and LAST_TIME_ASKED.search(request):  # "How much did I bench last time?": not 102.5
        latest = max(body, key=lambda r: r[dates].strip())
        return f"[Saturn worked out] the latest of {over}: {named_cells(header, latest)}"
    if dates is not None and len(body) > 1 and CHANGE_ASKED.search(request) and summed:
        ordered = sorted(body, key=lambda r: r[dates].strip())  # "How much has my squat gone up?": first to last, not a sum
        changes = "; ".join(f"{header[i].strip()} {ordered[0][i].strip()} ({ordered[0][dates].strip()}) to {ordered[-1][i].strip()}"
                            f" ({ordered[-1][dates].strip()}): {signed(value_in(i, ordered[-1]) - value_in(i, ordered[0]))}"
                            for i in summed)
        return f"[Saturn worked out] change over {over}, first to last by date: {changes}"
    parts = [f"{header[i].strip() or f'column {i + 1}'} = {plain(column_total(body, i))}" for i in summed]
    counted = HOW_MANY.search(request)
    count = f"{len(body)} {counted.group(1)} (a row each); " if counted and not _blank_date_named(header, body, request) and not (
        LEFT_ASKED.search(request) and _some_not_done(body)) and _rows_counted(
        counted.group(1), name, header, numeric, named[1] if named else set(), product is not None) else ""
    of_rows = asked_of_rows(header, body, numeric, request)
    totals = f"totals over {over}: " + ", ".join(parts) if parts else over  # no amount to add: the rows picked
    line = f"[Saturn worked out] {count}{totals}" + of_rows + _in_and_out(header, body, summed)
    if not parts and not count and not of_rows and len(body) == len(rows) - 1:
        return ""  # "4 rows" of an odometer's log says nothing
    if len(body) == 1 and len(rows) > 2:  # one row asked: its cells by name ("school Oakfield Primary")
        line += "; the row: " + named_cells(header, body[0])
    elif len(body) <= FEW_ROWS and (len(rows) > 2 * FEW_ROWS or len(rows) > len(body) + 2 and not SUM_ASKED.search(
            request)):  # "What did Priya order?": her two rows of eight; "What am I getting Olivia?": two of five
        line += "; the rows: " + " | ".join(named_cells(header, r) for r in body)
    if len(numeric) != 1 and product is None or numeric[-1] not in summed:
        return line  # a dog's and a cat's weights have no sum by month either
    amount = numeric[-1]
    line += _as_one_period(body, amount, request) or _column_as_period(header[amount], body, amount, request)
    if of_rows and not (grouping is not None and stems_named(header[grouping], request)):
        return line  # "my longest run": its row, not each month's and kind's sums besides
    if grouping is not None:
        kind = header[grouping].strip()
        line += f"; {header[amount].strip()} by {kind}: {sums_by(body, amount, lambda r: r[grouping].strip())}"
        if product is not None:  # "Which item sells best?": how many of each too
            line += f"; {header[product[1]].strip()} by {kind}: {sums_by(body, product[1], lambda r: r[grouping].strip())}"
        if TIMES_ASKED.search(request) or counted:  # "Which crops did I harvest more than once?": the 1.5B named one picked once
            counts = Counter(r[grouping].strip() or BLANK for r in body)
            line += f"; rows by {kind}: " + ", ".join(f"{value} {n}" for value, n in counts.items())
    if TIMES_ASKED.search(request) and (repeats := _repeated(header, body, [*numeric, dates, grouping])):
        line += f"; more than one row: {repeats}"  # "Who has ordered more than once?"
    if dates is not None and 1 < len({month_of(r[dates]) for r in body}) <= MAX_GROUPS:
        line += f"; {header[amount].strip()} by month: {sums_by(body, amount, lambda r: month_of(r[dates]))}"
        pairs = {(month_of(r[dates]), r[grouping].strip()) for r in body} if grouping is not None else set()
        if grouping is not None and len(pairs) <= 2 * MAX_GROUPS:
            by = sums_by(body, amount, lambda r: f"{month_of(r[dates])} {r[grouping].strip()}")
            line += f"; by month and {header[grouping].strip()}: {by}"
    return line


def _blank_date_named(header: list[str], body: list[list[str]], request: str) -> bool:
    """Whether the request names a date column some of whose cells are blank ("How many books have I
    finished?"): its dated rows are the count, not every row."""
    return any(stems_named(name, request) and any(not r[i].strip() for r in body)
               and all(not r[i].strip() or ISO_DATE.fullmatch(r[i].strip()) for r in body) for i, name in enumerate(header))


UNFILLED_ASKED = re.compile(r"\bneed(?:s|ing)?\s+(?:someone|somebody|anyone|a\s+volunteer|cover(?:ing)?)\b|"
                            r"\b(?:no\s*one|nobody|unfilled|uncovered|empty|gaps?)\b|\bfree\s+(?:slots?|shifts?|spaces?|spots?)\b",
                            re.IGNORECASE)


def _blanks_asked(header: list[str], body: list[list[str]], request: str) -> str:
    """Asked what still needs someone, the rows with a blank cell, whole: "Which shifts still need
    someone?" of a rota whose 19th morning has no volunteer; a small model reads ",,till" as nothing."""
    said = []
    for i, name in enumerate(header):
        blank = [r for r in body if not r[i].strip()]
        asked = UNFILLED_ASKED.search(request) or re.search(
            rf"\b(?:needs?|without|no|missing)\s+(?:an?\s+)?{re.escape(name.strip())}s?\b", request, re.IGNORECASE)
        if asked and blank and len(blank) < len(body):  # "Which school runs still need a driver?"
            said.append(f"no {name.strip()} in {len(blank)}: " + " | ".join(named_cells(header, r) for r in blank))
    return f"[Saturn counted] {'; '.join(said)}" if said else ""


def undated_rows(name: str, text: str) -> str:
    """table_totals' line of the rows dated or not, alone: asked "What am I reading at the moment?",
    the table whose blank "finished" answers it holds no word of the request."""
    return "\n".join(_dated_or_not(header, body) for header, body in _table(name, text))


DONE_FORMS = ("ed", "old", "aid", "ent", "ught", "one", "en")
"""A column's name in the past ("finished", "sold", "paid", "sent", "bought", "done", "taken")."""


def _dated_or_not(header: list[str], body: list[list[str]]) -> str:
    """The rows of a date column some of whose cells are blank, dated or not ("finished: dated 4
    (…); not finished yet 1 (Demon Copperhead)"): asked what they are reading now, or how many
    books they have finished, a small model reads a row's ",,560," as nothing."""
    label = next((i for i in range(len(header)) if not any(ISO_DATE.match(r[i]) or number(r[i]) is not None for r in body)), None)
    said = []
    for i, name in enumerate(header):
        cells = [r[i].strip() for r in body]
        if label is None or not all(not c or ISO_DATE.fullmatch(c) for c in cells) or all(cells) or not any(cells):
            continue
        dated, blank = ([r[label].strip() for r, c in zip(body, cells, strict=True) if bool(c) is filled] for filled in (True, False))
        not_yet = f"not {name.strip()} yet" if name.strip().lower().endswith(DONE_FORMS) else "blank"
        amounts = [j for j in range(len(header)) if all(number(r[j]) is not None for r in body) and not _identifies_rows(header[j], body, j)]
        summed = "".join(f"; {header[j].strip()}: dated {plain(sum((value_in(j, r) for r, c in zip(body, cells, strict=True) if c), Decimal(0)))}, "
                         f"{not_yet} {plain(sum((value_in(j, r) for r, c in zip(body, cells, strict=True) if not c), Decimal(0)))}"
                         for j in amounts[:1])  # "How much have I made from selling?": the sold rows' prices
        said.append(f"{name.strip()}: dated {len(dated)} ({', '.join(dated)}); {not_yet} {len(blank)} ({', '.join(blank)}){summed}")
    return f"[Saturn counted] {' | '.join(said)}" if said else ""


MAX_ROWS_LISTED = 8


def _in_and_out(header: list[str], body: list[list[str]], summed: list[int]) -> str:
    """A column of amounts in and out, each side's sum and the rows taken out: asked what Maya got
    in November and what she spent it on, the 1.5B gave the net 7 and a line of the notes, where
    the table had 15 in and a book for -8 out."""
    said = []
    for i in summed:
        values = [value_in(i, r) for r in body]
        spent = [r for r, value in zip(body, values, strict=True) if value < 0]
        if not spent or len(spent) == len(body):
            continue
        rows = f": {' | '.join(named_cells(header, r) for r in spent)}" if len(spent) <= FEW_ROWS else ""
        name = header[i].strip()
        kept = len(body) - len(spent)
        said.append(f"{name} in {plain(sum((v for v in values if v > 0), Decimal(0)))} ({kept} row{'s' * (kept > 1)}), "
                    f"{name} out {plain(sum((v for v in values if v < 0), Decimal(0)))} ({len(spent)} row{'s' * (len(spent) > 1)}{rows})")
    return "".join(f"; {part}" for part in said)


def _rows_without_amounts(name: str, header: list[str], body: list[list[str]], request: str, over: str,
                          dates: int | None) -> str:
    """A table without amounts: the rows of the days asked; else the rows holding a value the
    request names, or the month ("Which exams are in the Hall?", "How many Maths papers?": asked that, the 1.5B
    counted the "paper" column's kinds); else, asked how many of a thing, its rows ("How many exams
    do I have?": the 1.5B gave the file's 7 lines, its header too); with each yes/no column's rows."""
    if over:
        cells = " | ".join(named_cells(header, r) for r in body)
        return "\n".join(filter(None, (f"[Saturn worked out] the rows dated {over}({len(body)}): {cells}",
                                        rows_by_flag(header, body, request))))
    dates = column if (column := date_column_named(header, body, request)) is not None else dates
    if dates is not None and len(months := {m for r in body if r[dates].strip() and month_named(m := month_of(r[dates]), request)}) == 1:
        month = months.pop()  # "What did I sow in November?": November's rows, not the first the 1.5B saw
        picked = [r for r in body if r[dates].strip() and month_of(r[dates]) == month]
        return (f"[Saturn listed] the rows with {header[dates].strip()} in {month} ({len(picked)} of {len(body)}): "
                + " | ".join(named_cells(header, r) for r in picked[:MAX_ROWS_LISTED]))
    named = named_values(header, body, [dates], request, name)
    by_flag = rows_by_flag(header, body, request)
    if coming := _coming(header, body, named, request):
        return "\n".join(filter(None, (coming, by_flag)))
    if named and not re.search(rf"(?:^|\| ){re.escape(header[named[0]].strip())}: ", by_flag.removeprefix("[Saturn counted] ")):
        column, values = named  # not "said yes", "sopranos": counted by their column's kinds below
        picked = [r for r in body if r[column].strip() in values]
        if len(picked) <= MAX_ROWS_LISTED:
            return (f"[Saturn listed] the rows with {header[column].strip()} {' or '.join(sorted(values))} "
                    f"({len(picked)} of {len(body)}): " + " | ".join(named_cells(header, r) for r in picked))
    counted = HOW_MANY.search(request)
    rows = (f"[Saturn counted] {len(body)} {counted.group(1)} (a row each)"
            if counted and not named and _rows_counted(counted.group(1), name, header, [], set(), False)
            and _mentions(counted.group(1), name, header, body) and not (LEFT_ASKED.search(request) and _some_not_done(body))
            and not any(verb_named(header[i], request) and {r[i].strip().lower() for r in body} <= FLAGS.keys()
                        for i in range(len(header))) else "")  # "How many cards have I sent?": the "sent" yeses
    return "\n".join(filter(None, (rows, by_flag)))


COMING_ASKED = re.compile(r"\b(?:coming|attending|going|come|attend|turning\s+up)\b", re.IGNORECASE)


def _coming(header: list[str], body: list[list[str]], named: tuple[int, set[str]] | None, request: str) -> str:
    """Asked who or how many are coming, the rows a yes/no column says yes of, among the rows a
    value picks ("How many people from the groom's side are coming?": 2 of the groom's 3; the 1.5B
    gave the 3, and for the whole list its 7 rows, not the 4 yeses)."""
    flag = next((i for i in range(len(header)) if {r[i].strip().lower() for r in body} <= FLAGS.keys() | UNSURE | {""}
                 and any(FLAGS.get(r[i].strip().lower()) for r in body)), None)
    label = next((i for i in range(len(header)) if i != flag and all(r[i].strip() for r in body)), None)
    if not COMING_ASKED.search(request) or flag is None or label is None:
        return ""
    rows, among = body, ""
    if named is not None:
        column, values = named
        rows = [r for r in body if r[column].strip() in values]
        among = f" with {header[column].strip()} {' or '.join(sorted(values))}"
    yes = [r[label].strip() for r in rows if FLAGS.get(r[flag].strip().lower())]
    return (f"[Saturn counted] coming ({header[flag].strip()} yes): {len(yes)} of the {len(rows)} rows{among}"
            + (f" ({', '.join(yes)})" if yes else ""))


def _forms(word: str) -> set[str]:
    """A word and what it is without a plural's "s" or "es" ("boxes": box, boxe)."""
    word = word.strip().lower()
    return {word, *(word[:-len(end)] for end in ("s", "es") if word.endswith(end) and len(word) > len(end) + 1)}


def _rows_counted(thing: str, name: str, header: list[str], numeric: list[int], named: set[str], quantities: bool) -> bool:
    """Whether "how many <thing>" counts the rows: "How many runs?" of runs.csv, "How many bills has
    Ana paid?" (a "bill" column of kinds); not "How many km?" (a column to sum), "How many mugs are
    left?" (the mug row's number), "How many miles?" (a mileage column's), "How many candles have I sold?" of a table with quantities, nor,
    of the rows a value picks, a thing neither the file nor a column names ("How many people came
    on the Coast road ride?" of rides.csv: its "riders", not its two Coast road rows)."""
    names = [i for i in range(len(header)) if any(_forms(word) & _forms(thing) for word in [header[i], *header[i].split()])]
    # "rides" is no "riders"; "water glasses" holds "glasses"
    counted_in = [i for i in names if not _amount_of_each(header[i])]  # "dose ml": how much each dose is, no count
    if any(i in numeric for i in counted_in) or any(value_named(value, thing) for value in named) or any(
            _measured_by(header[i], thing) and not _amount_of_each(header[i])
            for i in numeric):  # "How many miles …?" of a mileage column
        return False
    if named and not names and not stems(thing) & stems(re.sub(r"[^a-z]+", " ", name.lower().rsplit(".", 1)[0])):
        return False  # of the rows a value picks, a thing of its own: a column's, not theirs
    return not quantities or bool(names)


AMOUNT_OF_EACH = re.compile(r"\b(?:ml|mg|g|kg|l|km|mins?|minutes|hours|hrs|cost|price)\b", re.IGNORECASE)


def _amount_of_each(column: str) -> bool:
    """Whether a column's name is a thing's with a unit beside it ("dose ml"): each row's amount of
    it, not how many; "km" alone is the thing counted in."""
    return len(column.split()) > 1 and AMOUNT_OF_EACH.search(column) is not None
ANY_ROWS = frozenset({"peop", "thin", "item", "entr", "rows", "ones", "line"})
"""Four-letter stems of things any table's rows may be: "How many people …?"."""


def _mentions(thing: str, name: str, header: list[str], body: list[list[str]]) -> bool:
    """Whether a table without amounts is of the thing counted: its name, a column or a cell says it
    ("How many rehearsals …?" is no count of subs.csv's months)."""
    said = stems(thing)
    return bool(said & ANY_ROWS or said & stems(" ".join([re.sub(r"[^a-z]+", " ", name.lower()), *header, *(c for r in body for c in r)])))


def _measured_by(column: str, thing: str) -> bool:
    """Whether a column's name is a measure of the thing ("mileage" of miles), not who does it ("riders" of rides)."""
    name = column.strip().lower()
    return any(name.startswith(form) and name[len(form):] not in ("r", "rs", "er", "ers") for form in _forms(thing))


FEW_ROWS = 3
ROW_NAMES = re.compile(r"(?:id|no\.?|ref(?:erence)?|#|table|seat|room|bed|plot|pitch|court|locker|desk|flat|house|door|(?:order|invoice|receipt|item|booking)(?:[\s_]*(?:no\.?|id|number|#))?)",
                       re.IGNORECASE)
"""A column's name that says its numbers name the rows (a guest's table 5 is no amount); "number" alone may count
("number" of guests)."""
QUANTITY = re.compile(r"qty|quantity|quantities|units|count|how\s+many|number(?:\s+of\s+\w+)?", re.IGNORECASE)
DAY_OF_MONTH = re.compile(r"\bday\s+of\s+(?:the\s+)?month\b|^\s*(?:due\s+)?day\s*$", re.IGNORECASE)
AVERAGED = re.compile(r"\b(?:avg|average|mean|speed|pace)\b|%|\bper\s*cent|^\s*out\s+of\s*$", re.IGNORECASE)
"""Columns that are no amounts to add: an average, a speed, a share, what a score is out of."""
UNIT_PRICE = re.compile(r"(?:unit[\s_]*)?(?:price|cost)(?:[\s_]*(?:each|per[\s_]*unit))?|each|rate", re.IGNORECASE)
PRICE_PER = re.compile(r"(?:price|cost|[£$€]|p)\s*(?:per|a|an|/)\s*(?P<unit>[a-z]{2,})", re.IGNORECASE)
"""A price of one unit the table counts in another column ("price per litre" of "litres")."""
TOTALLED = re.compile(r"total|amount|subtotal|line[\s_]*total|sum", re.IGNORECASE)


PER_PERIOD = re.compile(r"\b(?:a|per|each)\s+(?P<unit>day|week|month|year)\b|\b(?P<adverb>dai|week|month|year)ly\b", re.IGNORECASE)


def _per(found: re.Match[str] | None) -> str:
    """The period of "a day", "per week", "monthly": "day", "week", "month"."""
    return "" if found is None else (found["unit"] or found["adverb"].replace("dai", "day")).lower()


def _identifies_rows(name: str, body: list[list[str]], column: int) -> bool:
    """A column of whole numbers that names its rows ("order": 1038, 1039 …; a week's number) is
    no amount: the orders' numbers had been summed to 8332."""
    values = [value_in(column, r) for r in body]
    if any(v != v.to_integral_value() for v in values):
        return False
    if len(set(values)) != len(values):
        return bool(ROW_NAMES.fullmatch(name.strip()))  # guests at table 3, 3, 5: still no amount
    ordered = sorted(values)
    return bool(ROW_NAMES.fullmatch(name.strip())) or (
        len(values) >= 3 and all(b - a == 1 for a, b in pairwise(ordered)) and not QUANTITY.fullmatch(name.strip())
        and not RATED.fullmatch(name.strip()))  # ratings 3, 4, 5 name no rows


def _quantity_by_price(header: list[str], body: list[list[str]], numeric: list[int]
                       ) -> tuple[str, int, list[str]] | None:
    """("qty × price", the quantity's column, each row's product) for a table of quantities at a price each and no total of
    its own ("litres,price per litre" too): asked what November's orders took, the 1.5B had only the prices' sum (77.5 for
    135)."""
    price = next((i for i in numeric if UNIT_PRICE.fullmatch(header[i].strip()) or PRICE_PER.fullmatch(header[i].strip())), None)
    per = PRICE_PER.fullmatch(header[price].strip()) if price is not None else None
    quantity = next((i for i in numeric if QUANTITY.fullmatch(header[i].strip())
                     or per and header[i].strip().lower().startswith(per["unit"].lower()[:4])), None)
    if quantity is None or price is None or any(TOTALLED.fullmatch(header[i].strip()) for i in numeric):
        return None
    name = f"{header[quantity].strip()} × {header[price].strip()}"
    return name, quantity, [plain(value_in(quantity, r) * value_in(price, r)) for r in body]


def _repeated(header: list[str], body: list[list[str]], skip: list[int | None]) -> str:
    """The values of each text column found on more than one row, with how many."""
    said = []
    for i in range(len(header)):
        counts = Counter(r[i].strip() for r in body)
        if i not in skip and (again := [f"{value} {n}" for value, n in counts.items() if n > 1 and value]):
            said.append(f"{header[i].strip()} " + ", ".join(again))
    return "; ".join(said)


UNTIL = re.compile(r"\b(?:until|till|to|end|ends|by|last)\b", re.IGNORECASE)


def _stayed(header: list[str], row: list[str], stay: list[int], day: date) -> bool:
    """Whether a row from one date to another holds the day: from its first day to before its last
    ("arrive,leave"), or to its last where the column says so ("sow from,sow until")."""
    since, until = day_of(row[stay[0]]), day_of(row[stay[1]])
    if since is None or until is None:
        return False
    return since <= day <= until if UNTIL.search(header[stay[1]]) else since <= day < until


def _days_written(days: Collection[date]) -> str:
    ordered = sorted({day.isoformat() for day in days})
    return f"{ordered[0]} to {ordered[-1]}" if len(ordered) > 2 else " and ".join(ordered)


THRESHOLD = re.compile(r"\b(?P<way>over|above|more\s+than|under|below|less\s+than)\s+[£$€]?(?P<limit>\d[\d,]*(?:\.\d+)?)"
                       r"(?!\s*(?:%|percent|days?|weeks?|months?|years?|times|hours?|people|rows?)\b)", re.IGNORECASE)
ABOVE = frozenset({"over", "above", "more than"})
SUM_ASKED = re.compile(r"\bhow\s+(?:much|many|far)\b|\btotal\b|\bsum\b|\baltogether\b|\bc[oa]me\s+to\b", re.IGNORECASE)
TIMES_ASKED = re.compile(r"\b(?:more\s+than\s+once|once|twice|how\s+many\s+times|how\s+often)\b", re.IGNORECASE)
def _as_one_period(body: list[list[str]], amount: int, request: str) -> str:
    """Where a column says how often each row's amount comes round ("monthly", "yearly") and the
    request names a period, every row as that period: asked "What do my subscriptions cost a
    month?", the 1.5B added the yearly £95 to the monthly ones."""
    asked = period_asked(request)
    how_often = next((i for i in range(len(body[0])) if all(r[i].strip().lower() in PERIOD_OF for r in body)), None)
    if asked is None or how_often is None:
        return ""
    total = sum((Fraction(value_in(amount, r)) * TIMES_A_YEAR[PERIOD_OF[r[how_often].strip().lower()]]
                 / TIMES_A_YEAR[asked] for r in body), Fraction(0))
    return f"; everything as a {asked}: {total.numerator if total.denominator == 1 else f'{float(total):.2f}'}"


def _column_as_period(name: str, body: list[list[str]], amount: int, request: str) -> str:
    """Where the amount's column is named by how often it comes round ("service,monthly") and the
    request names another period, its total as that period: asked "What do I pay a year for
    Spotify?", the 1.5B gave the month's 11.99."""
    asked, written = period_asked(request), period_asked(name.replace("_", " "))
    if asked is None or written is None or written == asked:
        return ""
    total = Fraction(column_total(body, amount)) * TIMES_A_YEAR[written] / TIMES_A_YEAR[asked]
    return f"; {name.strip()} as a {asked}: {total.numerator if total.denominator == 1 else f'{float(total):.2f}'}"


def _blank_dates(header: list[str], body: list[list[str]]) -> list[int]:
    """The date columns some rows leave blank: a thing not done yet ("sold", "finished")."""
    return [i for i in range(len(header)) if any(r[i].strip() for r in body) and any(not r[i].strip() for r in body)
            and all(not r[i].strip() or ISO_DATE.fullmatch(r[i].strip()) for r in body)]


def _some_not_done(body: list[list[str]]) -> bool:
    """Whether a column is filled in some rows and blank or "no" in others: "How many things are still
    listed?" is then no count of every row."""
    return any(len({not cell.strip() or cell.strip().lower() in ("no", "n", "false") for cell in column}) == 2
               for column in zip(*body, strict=True))
