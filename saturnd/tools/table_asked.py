"""What a request asks of a table's rows besides their totals: an average, one column over
another, the largest or smallest row, the latest, a pace, the days a stay spans, what is still to
go, the difference of two rows."""

from __future__ import annotations

import math
import re
from decimal import Decimal
from functools import partial
from itertools import pairwise

from saturnd.tools.table_cells import (
    CLOCK_TIME,
    ISO_DATE,
    column_total,
    day_of,
    in_order,
    named_cells,
    number,
    numeric_named,
    plain,
    stems_named,
    value_in,
)

LIKED_ASKED = re.compile(r"\b(?:favou?rite|best|worst|liked?|enjoyed|loved|hated)\b", re.IGNORECASE)
RATED = re.compile(r"ratings?|score|stars?|grade|rank(?:ing)?|out\s+of\s+\d+", re.IGNORECASE)


AVERAGE_ASKED = re.compile(r"\b(?:average|mean)\b", re.IGNORECASE)
LARGEST_ASKED = re.compile(
    r"\b(?:longest|biggest|largest|most|highest|max(?:imum)?|furthest|farthest|dearest|priciest|best|top|greatest|"
    r"favou?rite)\b",
    re.IGNORECASE)


SMALLEST_ASKED = re.compile(
    r"\b(?:shortest|smallest|least|lowest|min(?:imum)?|cheapest|fewest|out\s+of\s+stock|sold\s+out|run(?:ning)?\s+(?:out|low)|none\s+left)\b",
    re.IGNORECASE)


LEFT_ASKED = re.compile(r"\b(?:still|left|remaining|to\s+go|outstanding|not\s+yet|unpacked|unpaid|undone|in\s+full|ow(?:e|es|ed|ing)|"
                        r"far\s+off|short|closest|nearest|more\s+do\s+I\s+need)\b",
                        re.IGNORECASE)


CLOSEST_ASKED = re.compile(r"\b(?:closest|nearest|least|fewest)\b", re.IGNORECASE)
WHICH_DONE = re.compile(r"\bin\s+full\b|\bfully\b|\bnothing\s+(?:left|to\s+go)\b|\bfinished\b|\bcompleted?\b", re.IGNORECASE)
"""Asked which rows are done ("Which orders have paid in full?"): those with none to go, named."""
MONEY_HEADER = re.compile(r"cost|amount|price|spent|paid|total|fee|value|rent|budget|deposit|[£$€]", re.IGNORECASE)


def _money(header: list[str], body: list[list[str]], column: int) -> bool:
    """Whether a column is of money: its name says so, or its cells are written with a currency ("£6,400")."""
    return bool(MONEY_HEADER.search(header[column])) or any(r[column].strip()[:1] in "£$€" and r[column].strip() for r in body)


def _still_to_go(header: list[str], body: list[list[str]], numeric: list[int], request: str) -> str:
    """Asked what is still to go of a table whose one numeric column is part of the other in every
    row ("room,boxes,packed"), each row's rest and theirs in all, the most first: asked "How many
    boxes are still to pack?", the 1.5B had only each column's total."""
    if len(numeric) > 2:  # "guest,nights,total,paid so far": the two money columns
        numeric = [i for i in numeric if _money(header, body, i)]
    if len(numeric) != 2 or not LEFT_ASKED.search(request):
        return ""
    whole, part = numeric if all(value_in(numeric[0], r) >= value_in(numeric[1], r) for r in body) else numeric[::-1]
    if any(value_in(whole, r) < value_in(part, r) for r in body) or _money(header, body, whole) != _money(header, body, part):
        return ""  # "price,guests": 4 guests are no part of a 240 price
    label = next((i for i in range(len(header)) if i not in numeric), None)
    least_first = CLOSEST_ASKED.search(request) is not None  # "Which pot is closest to its target?": the least first
    rest = sorted(((value_in(whole, r) - value_in(part, r), r) for r in body), key=lambda pair: pair[0] if least_first else -pair[0])
    each = ", ".join(f"{r[label].strip() if label is not None else ','.join(r)} {plain(left)}" for left, r in rest)
    total = plain(sum((left for left, _ in rest), Decimal(0)))
    done = [r[label].strip() for left, r in rest if not left] if label is not None and WHICH_DONE.search(request) else []
    return (f"; still to go, {header[whole].strip()} - {header[part].strip()}, the {'least' if least_first else 'most'} first:"
            f" {each} = {total} in all"
            + (f"; the rows with none to go: {', '.join(done)}" if done else ""))  # "Which orders have paid in full?"


BUDGET_COLUMN = re.compile(r"^\s*(?:budget|limit|allowance|planned|target)\b", re.IGNORECASE)
SPENT_COLUMN = re.compile(r"^\s*(?:spent|spend|actual|paid|used|so\s+far)\b", re.IGNORECASE)
OVER_ASKED = re.compile(r"\bover(?:spent|\s+budget|\s+the\s+budget|\s+on)?\b|\bwithin\b|\bunder\b|\bexceed|\btoo\s+much\b|"
                        r"\bleft\b|\bremaining\b|\bspare\b", re.IGNORECASE)


def _against_the_budget(header: list[str], body: list[list[str]], numeric: list[int], request: str) -> str:
    """Asked what is over budget or left of it, of a table with a budget column and a spent one
    ("category,budget,spent"), each row's rest or overspend, those over named, and in all: asked
    "Am I over budget on anything?", the 1.5B had only the columns' totals (a row over its budget
    hid the rest of every row, as no part of its whole)."""
    budget = next((i for i in numeric if BUDGET_COLUMN.match(header[i])), None)
    spent = next((i for i in numeric if SPENT_COLUMN.match(header[i])), None)
    if budget is None or spent is None or not OVER_ASKED.search(request):
        return ""
    label = next((i for i in range(len(header)) if i not in numeric), None)
    rows = [(r[label].strip() if label is not None else ",".join(r), value_in(budget, r) - value_in(spent, r)) for r in body]
    each = ", ".join(f"{name} {plain(left)} left" if left >= 0 else f"{name} {plain(-left)} over" for name, left in rows)
    over = [name for name, left in rows if left < 0]
    total = sum((left for _, left in rows), Decimal(0))
    return (f"; against the budget, {header[budget].strip()} - {header[spent].strip()}: {each};"
            f" over: {', '.join(over) if over else 'none'}; in all {plain(total)} {'left' if total >= 0 else 'over'}")


PERIODS_ASKED = re.compile(r"\bhow\s+(?:many\s+(?:more\s+)?(?P<unit>week|month)s|long)\b.*\b(?:until|till|before|to)\b",
                           re.IGNORECASE)
PER_PERIOD_HEADED = re.compile(r"^\s*(?P<unit>week|month)ly\s*$|\b(?:a|per|each|every)\s+(?P<per>week|month)\b", re.IGNORECASE)


def _periods_to_go(header: list[str], body: list[list[str]], numeric: list[int], request: str) -> str:
    """Asked how many weeks until a row's goal, of a table giving what each row has, its goal and
    what goes in a week ("child,weekly,saved,goal"): the rest over the weekly amount, rounded up
    (Theo, 25 - 11 = 14 at 3 a week: 5 weeks). The 1.5B had each column's total."""
    asked = PERIODS_ASKED.search(request)
    per = next((i for i in numeric if PER_PERIOD_HEADED.search(header[i])), None)
    pair = [i for i in numeric if i != per]
    if asked is None or per is None or len(pair) != 2:
        return ""
    headed = PER_PERIOD_HEADED.search(header[per])
    unit = (headed["unit"] or headed["per"]).lower()  # type: ignore[index]
    if asked["unit"] and asked["unit"].lower() != unit:
        return ""
    whole, part = pair if all(value_in(pair[0], r) >= value_in(pair[1], r) for r in body) else pair[::-1]
    label = next((i for i in range(len(header)) if i not in numeric), None)
    said = []
    for row in body:
        rest, each = value_in(whole, row) - value_in(part, row), value_in(per, row)
        if each > 0:
            count = math.ceil(rest / each)
            said.append(f"{row[label].strip() if label is not None else ','.join(row)} {plain(rest)} / {plain(each)}"
                        f" = {count} {unit}{'s' if count != 1 else ''}")
    return (f"; {unit}s to go, ({header[whole].strip()} - {header[part].strip()}) / {header[per].strip()}, rounded up: "
            + ", ".join(said)) if said else ""


LATEST_ASKED = re.compile(r"\b(?:last|latest|most\s+recent)\b(?!\s+(?:week|month|year|time|weekend|night)s?\b)", re.IGNORECASE)
PER_ASKED = re.compile(r"\b([a-z]+)\s+(?:per|a|an|each)\s+([a-z]+)\b", re.IGNORECASE)


def asked_of_rows(header: list[str], body: list[list[str]], numeric: list[int], request: str) -> str:
    """What the request asks of the rows besides their totals: their average ("What's the average
    distance of my runs?": the 1.5B answered 6.75 for 26.8 over 4), one column's total over
    another's ("my average miles per litre": miles 1215 / litres 119.8, not the miles' average), or
    the row with the largest or smallest value of each numeric column ("my longest run")."""
    said = ""
    for per in PER_ASKED.finditer(request):
        over, under = (numeric_named(per.group(n), header, numeric) for n in (1, 2))
        if over is not None and under is not None and over != under and column_total(body, under):
            ratio = plain(column_total(body, over) / column_total(body, under), places=2)
            said += (f"; {per.group(0)} over {len(body)} rows: {header[over].strip()} {plain(column_total(body, over))}"
                     f" / {header[under].strip()} {plain(column_total(body, under))} = {ratio}")
            return said  # its average of each column is no answer to a ratio
    if PACE_ASKED.search(request) and (speed := next((i for i in numeric if SPEED.search(header[i])), None)) is not None:
        fastest = sorted(body, key=partial(value_in, speed), reverse=SLOWEST.search(request) is None)
        order = "slowest" if SLOWEST.search(request) else "fastest"
        return f"; by {header[speed].strip()}, {order} first: " + " | ".join(named_cells(header, row) for row in fastest[:FEW])
    if PACE_ASKED.search(request) and (pace := _paces(header, body, numeric)):
        return f"; {pace}"  # "my fastest run": the least time a km, not the shortest or longest
    if SPAN_ASKED.search(request) and (spans := days_between(header, body, SPAN_ASKED.search(request))):
        said += f"; {spans}"
        if "; the most: " in spans:
            return said  # "Which book took me longest to read?": its days, not its pages
    ranked = ([i for i in numeric if stems_named(header[i], request)]  # "the biggest order": what it came to
              or [i for i in numeric if "×" in header[i]]
              or [i for i in numeric if RATED.fullmatch(header[i].strip()) and LIKED_ASKED.search(request)] or numeric)
    if AVERAGE_ASKED.search(request):
        counts = {i: sum(number(r[i]) is not None for r in body) for i in ranked}
        averages = (f"{header[i].strip()} = {plain(column_total(body, i) / counts[i], places=2)}"
                    + (f" (over the {counts[i]} rows with one)" if counts[i] < len(body) else "") for i in ranked if counts[i])
        said += f"; average over {len(body)} rows: " + ", ".join(averages)
    if periods := _periods_to_go(header, body, numeric, request):
        return said + periods
    if budgeted := _against_the_budget(header, body, numeric, request):
        return said + budgeted
    if still := _still_to_go(header, body, numeric, request):
        return said + still  # "the most boxes left": the rest's most, not the column's largest
    dates = next((i for i in range(len(header)) if all(ISO_DATE.match(r[i]) or CLOCK_TIME.fullmatch(r[i].strip())
                                                       for r in body)), None)  # a day's table by its times too
    if dates is not None and LATEST_ASKED.search(request) and len(body) > 1:  # "How many miles did I do on the last tank?"
        times = [i for i in range(dates + 1, len(header)) if all(CLOCK_TIME.fullmatch(r[i].strip()) for r in body)]
        # a day's rows by their times, then the file's order: "When did she last feed?" on a day of feeds
        latest: list[str] = max(reversed(body), key=lambda row: [in_order(row[i]) for i in [dates, *times]])
        said += f"; the latest row: ({named_cells(header, latest)})"
    for asked, word, largest in ((LARGEST_ASKED, "largest", True), (SMALLEST_ASKED, "smallest", False)):
        if asked.search(request):
            rows = {i: sorted(body, key=partial(value_in, i), reverse=largest)[0] for i in ranked}
            said += "; " + ", ".join(f"{word} {header[i].strip()}: ({named_cells(header, row)})" for i, row in rows.items())
    return said


SPAN_ASKED = re.compile(r"\bhow\s+many\s+(nights|days)\b|\bhow\s+long\b|\btook\b.*\b(?:longest|shortest|quickest)\b|"
                        r"\blongest\s+to\b", re.IGNORECASE)


def days_between(header: list[str], body: list[list[str]], asked: re.Match[str] | None) -> str:
    """Each row's days (or nights) from its first date column to its second, for a table of stays
    ("guest,arrive,leave"): asked "How many nights is Ellie staying?", nothing had counted them."""
    dated = [i for i in range(len(header)) if all(day_of(r[i]) or not r[i].strip() for r in body)
             and any(day_of(r[i]) for r in body)]  # a book not finished yet: no span
    label = next((i for i in range(len(header)) if i not in dated and not all(number(r[i]) is not None for r in body)), None)
    if len(dated) != 2 or asked is None:
        return ""
    start, end = dated
    unit = (asked.group(1) or "days").lower()
    spans = [(row[label].strip() if label is not None else row[start].strip(), (until - since).days)
             for row in body if (since := day_of(row[start])) and (until := day_of(row[end]))]
    total = f"; total {sum(n for _, n in spans)}" if len(spans) > 1 else ""
    longest = max(spans, key=lambda span: span[1]) if len(spans) > 1 and LARGEST_ASKED.search(asked.string) else None
    return (f"{unit} from {header[start].strip()} to {header[end].strip()}: " + ", ".join(f"{name} {n}" for name, n in spans)
            + total + (f"; the most: {longest[0]} {longest[1]}" if longest else ""))


SPEED = re.compile(r"\bspeed\b|km/h|\bkph\b|\bmph\b", re.IGNORECASE)
SLOWEST = re.compile(r"\bslowest\b", re.IGNORECASE)
FEW = 3
PACE_ASKED = re.compile(r"\b(?:fastest|quickest|slowest|pace|speed)\b", re.IGNORECASE)
DISTANCE = re.compile(r"^(?:km|kms|kilometres|kilometers|miles?|mi|distance)\b", re.IGNORECASE)


DURATION = re.compile(r"^(?:time|mins?|minutes|duration)\b|_mins?$|\(mins?\)$", re.IGNORECASE)


def _paces(header: list[str], body: list[list[str]], numeric: list[int]) -> str:
    """Each row's minutes per unit of distance, fastest first, for a table of distances and times."""
    distance = next((i for i in numeric if DISTANCE.search(header[i].strip())), None)
    duration = next((i for i in numeric if DURATION.search(header[i].strip())), None)
    if distance is None or duration is None or any(not value_in(distance, row) for row in body):
        return ""
    unit = header[distance].strip()
    paces = sorted(((value_in(duration, row) / value_in(distance, row), row) for row in body), key=lambda pair: pair[0])
    each = ", ".join(f"{','.join(row)}: {plain(pace, places=2)} min a {unit}" for pace, row in paces)
    return f"pace, fastest first: {each}"


DIFFERENCE_ASKED = re.compile(r"\bhow\s+much\s+(?:more|less|cheaper|dearer|extra)\b|\bdifference\b", re.IGNORECASE)


def difference(header: list[str], body: list[list[str]], amount: int, request: str) -> str:
    """Asked how much more one row is than another ("How much more is Box & Go than Swift Movers?"),
    the first named less the second: the 1.5B added the two prices."""
    if not DIFFERENCE_ASKED.search(request) or len(body) != 2:
        return ""
    label = next((i for i in range(len(header)) if i != amount and all(number(r[i]) is None for r in body)), None)
    if label is None:
        return ""
    at = [request.lower().find(r[label].strip().lower()) for r in body]
    if min(at) < 0:
        return ""
    first, second = body if at[0] < at[1] else body[::-1]
    a, b = value_in(amount, first), value_in(amount, second)
    if a < b and not re.search(r"\bhow\s+much\b", request, re.IGNORECASE):  # "the difference between": the larger first
        (first, a), (second, b) = (second, b), (first, a)
    return (f"[Saturn worked out] {header[amount].strip()}: {first[label].strip()} {plain(a)} - {second[label].strip()} {plain(b)}"
            f" = {plain(a - b)}")


MILEAGE = re.compile(r"miles|mileage|odometer|odo|km\s+reading|mileometer", re.IGNORECASE)
BETWEEN_ASKED = re.compile(r"\bbetween\b|\bsince\b|\bhow\s+(?:far|many\s+(?:miles|km))\b", re.IGNORECASE)


def distance_between_rows(header: list[str], body: list[list[str]], request: str) -> str:
    """Asked how far between a dated log's rows, of its mileage column counting up ("date,litres,…,
    miles" of fill-ups), the miles from each row to the next, the latest last: asked the miles
    between the last two fill-ups, the 1.5B gave the 12,000 of the service interval."""
    dates = next((i for i in range(len(header)) if body and all(ISO_DATE.match(r[i].strip()) for r in body)), None)
    column = next((i for i, name in enumerate(header) if MILEAGE.fullmatch(name.strip())
                   and all(number(r[i]) is not None for r in body)), None)
    if dates is None or column is None or not BETWEEN_ASKED.search(request):
        return ""
    if not counts_up(header, body, column):
        return ""
    ordered = sorted(body, key=lambda row: row[dates].strip())
    spans = [f"{a[dates].strip()} to {b[dates].strip()}: {plain(value_in(column, b) - value_in(column, a))}"
             for a, b in pairwise(ordered)]
    return f"[Saturn worked out] {header[column].strip()} from each row to the next, the latest last: " + "; ".join(spans[-6:])


def counts_up(header: list[str], body: list[list[str]], column: int) -> bool:
    """Whether a mileage column is a reading that counts up row by row in date order (46105, 46490),
    not each row's own miles (412, 398, 405)."""
    dates = next((i for i in range(len(header)) if body and all(ISO_DATE.match(r[i].strip()) for r in body)), None)
    if dates is None or not MILEAGE.fullmatch(header[column].strip()) or len(body) < 2:
        return False
    ordered = sorted(body, key=lambda row: row[dates].strip())
    return all(value_in(column, a) < value_in(column, b) for a, b in pairwise(ordered))
