"""A rate one file gives times what a table counts or totals: a price a head times the people
coming, a rate an hour times the hours worked, a price a unit times what a meter's readings say was
used, a price a match times the month's matches, rows at a price list's prices; and a sum set
against the budget a line gives, a row's amount against the new one a line gives for it.

Asked "How much will the caterer cost for everyone coming?" with "Caterer: Green Fork, £65 a head"
in one file and the guests' answers counted in another ("rsvp: yes 6 (…)"), the 1.5B answered
"£65 per head"; asked what to invoice Oakwell, with "Oakwell £35 an hour" in work.md and hours.csv
totalled, it gave the hours. Two files' figures to put together is a step it does not take.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from functools import partial

from saturnd.tools.table_cells import ISO_DATE, number
from saturnd.tools.table_dates import header_and_rows
from saturnd.tools.word_match import stems
from saturnd.turn.budget_left import BUDGET_LINE
from saturnd.turn.dates import MONTHS
from saturnd.turn.listing import TOTALS_LINE
from saturnd.turn.made_up import WORKED_OUT
from saturnd.turn.retrieval import KB_SOURCE, Document

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


HOW_LONG = re.compile(r"\bhow\s+(?:long|soon|many\s+(?:days|weeks))\b|\bwhen\b", re.IGNORECASE)
MONEY_ASKED = re.compile(r"\bhow\s+much\b|\b(?:earn(?:ed|t)?|invoice|charge|bill|made|make|owe[sd]?|paid|pay)\b", re.IGNORECASE)
HOURLY = re.compile(r"(?P<name>[A-Z][\w&'’]*(?:\s+[A-Z][\w&'’]*)*)(?:\s*\([^()]*\))?\s*[:=-]?\s*(?P<money>[£$€])\s?(?P<rate>\d+(?:\.\d+)?)\s*"
                    r"(?:(?:an?|per)\s+|/\s*)(?:hour|hr)\b")
HOURLY_OPENING = re.compile(r"^\W*(?P<name>[A-Z][\w&'’]*(?:\s+[A-Z][\w&'’]*)*)\s*[-–:,][^£$€]*?(?P<money>[£$€])\s?(?P<rate>\d+(?:\.\d+)?)\s*"
                            r"(?:(?:an?|per)\s+|/\s*)(?:hour|hr)\b")
"""A line opening with the name it gives a rate for ("Acme - Sarah Lin, sarah@acme.example, £45 an hour")."""
HOURS_TOTAL = re.compile(r"^\[Saturn worked out\] (?:[^;]*?; )?totals over (?:the (?P<over>[^;]*?) rows \([^)]*\)|\d+ rows): "
                         r"(?:[^;]*?, )?(?:hours|hrs) = (?P<hours>\d+(?:\.\d+)?)")
HOURS_BY = re.compile(r"; (?:hours|hrs) by [\w ]+?: (?P<groups>[^;]+)")


def hours_at_their_rates(request: str, shown: str) -> str:
    """Asked how much, the hours a table totals for each name a line gives a rate an hour for,
    times that rate: "Oakwell 7.5 hours × £35 an hour = 262.5"."""
    if not MONEY_ASKED.search(request) or HOW_LONG.search(request):  # "How long do clients get to pay?": days
        return ""
    rates = {found["name"].strip().lower(): Decimal(found["rate"]) for line in shown.splitlines()
             if not line.startswith("[Saturn") for found in (list(HOURLY.finditer(line)) or filter(None, [HOURLY_OPENING.match(line)]))}
    money = next((found["money"] for found in HOURLY.finditer(shown)), "£")
    for line in shown.splitlines():
        if not rates or (totals := HOURS_TOTAL.match(line)) is None:
            continue
        named = [(name, rate) for name, rate in rates.items() if re.search(rf"\b{re.escape(name)}\b", totals["over"] or "", re.IGNORECASE)]
        if len(named) == 1:
            name, rate = named[0]
            return f"{WORKED_OUT} {name.title()}: {totals['hours']} hours × {money}{rate} an hour = {_plain(Decimal(totals['hours']) * rate)}"
        if (by := HOURS_BY.search(line)) is not None:
            groups = [(g.rsplit(" ", 1)[0], Decimal(g.rsplit(" ", 1)[1])) for g in by["groups"].split(", ") if " " in g]
            priced = [(name, hours, rates[name.lower()]) for name, hours in groups if name.lower() in rates]
            if priced and len(priced) == len(groups):
                each = ", ".join(f"{name} {_plain(hours)} × {money}{rate} = {_plain(hours * rate)}" for name, hours, rate in priced)
                return f"{WORKED_OUT} at each one's rate an hour: {each}; in all {_plain(sum((h * r for _, h, r in priced), Decimal(0)))}"
    return ""


RATE_COLUMN = re.compile(r"rate|price|fee|charge|cost|hourly|(?:per|an?)\s+(?:hour|lesson|session)", re.IGNORECASE)
HOURS_COLUMN = re.compile(r"hours?|hrs", re.IGNORECASE)
OWED_ASKED = re.compile(r"\b(?:owe[sd]?|owing|behind|outstanding|arrears|due)\b", re.IGNORECASE)
EARNED_ASKED = re.compile(r"\b(?:earn(?:ed|t)?|made|make|takings|took\s+in|invoice|bill|charge)\b", re.IGNORECASE)


def hours_at_table_rates(request: str, documents: list[Document], today: date) -> str:
    """Asked what was earned or is owed, a log's hours (or rows, at a price per one) for each name
    times the rate another table gives that name ("lessons.csv: date,student,hours" and
    "students.csv: student,…,rate"), over the month the request names, and asked what is owed,
    over the rows not paid, of the names of the person it names ("Raj" of "Maple,Raj Shah,…,10"):
    asked "How much did I earn in November?", the 1.5B gave the hours' sum as money."""
    owed = OWED_ASKED.search(request) is not None
    if not EARNED_ASKED.search(request) and not owed or OTHER_SPAN.search(request):
        return ""  # "this week", "yesterday": not a month's rows, nor all of them
    tables = [(doc.source, table) for doc in documents if not doc.source.startswith(KB_SOURCE)
              and (table := header_and_rows(doc.source, doc.text.splitlines())) is not None]
    for rates_source, (rates_header, rates_body) in tables:
        rate = next((i for i, name in enumerate(rates_header) if RATE_COLUMN.search(name)
                     and all(number(r[i]) is not None for r in rates_body)), None)
        names = [n.strip().lower() for n in rates_header]
        for source, (header, body) in tables:
            key = next((i for i, name in enumerate(header) if source != rates_source and name.strip().lower() in names), None)
            hours = next((i for i, name in enumerate(header) if HOURS_COLUMN.fullmatch(name.strip())), None)
            if rate is None or key is None or (hours is None and not A_ROW_EACH.search(rates_header[rate])):
                continue
            rates_key = names.index(header[key].strip().lower())
            whose = _of_the_person(rates_body, request)
            price = {r[rates_key].strip().lower(): (r[rate].strip(), Decimal(str(number(r[rate])))) for r in whose}
            rows = [r for r in _of_the_month(header, body, request, today) if not owed or _not_paid(header, r)]
            each: dict[str, Decimal] = {}
            for row in rows:
                amount = Decimal(1) if hours is None else Decimal(str(number(row[hours]) or 0))
                if row[key].strip().lower() in price:
                    each[row[key].strip()] = each.get(row[key].strip(), Decimal(0)) + amount
            if each:
                unit = header[hours].strip() if hours is not None else "rows"
                return _at_their_rates(unit, f"{header[key].strip()}'s {rates_header[rate].strip()} ({rates_source})",
                                       each, price, "not paid" if owed else "")
    return ""


OTHER_SPAN = re.compile(r"\b(?:week|weekend|fortnight|today|yesterday|year|(?:mon|tues|wednes|thurs|fri|satur|sun)day)s?\b",
                        re.IGNORECASE)
A_ROW_EACH = re.compile(r"\b(?:per|a|an|each)\s+[a-z]+", re.IGNORECASE)


AT_THEIR_RATES = re.compile(r"^\[Saturn worked out\] [^:\n]* at each [^:\n]*: (?P<items>[^\n]*); in all (?P<total>[£$€]?[\d.]+)$",
                            re.MULTILINE)
FIGURE = re.compile(r"(?<![\d.])\d+(?:\.\d+)?")


def against_their_rates(answer: str, request: str, seen: str) -> str | None:
    """The line of a log at the rates another table gives (hours_at_table_rates), when the answer
    to what was earned or is owed gives a figure that is none of its sums: shown Maple's 3 unpaid
    walks at 10 "in all 30", the 1.5B said Raj owed $50."""
    found = AT_THEIR_RATES.search(seen) if EARNED_ASKED.search(request) or OWED_ASKED.search(request) else None
    given = {Decimal(n) for n in FIGURE.findall(answer.replace(",", ""))}
    if found is None or not given:
        return None
    sums = {Decimal(n) for n in FIGURE.findall(found["total"])} | {
        Decimal(item.rsplit("= ", 1)[1].lstrip("£$€")) for item in found["items"].split("; ") if "= " in item}
    return None if given & sums else found.group(0)


def _of_the_person(rows: list[list[str]], request: str) -> list[list[str]]:
    """The rows naming a person the request names by a first name ("Raj": "Raj Shah"), else all."""
    named = set(re.findall(r"(?<!^)\b[A-Z][a-z]+", request))
    theirs = [r for r in rows if any(cell.split()[:1] and cell.split()[0] in named for cell in r)]
    return theirs or rows


def _not_paid(header: list[str], row: list[str]) -> bool:
    paid = next((i for i, name in enumerate(header) if name.strip().lower() in ("paid", "settled")), None)
    return paid is None or row[paid].strip().lower() in ("no", "n", "false", "")


def _at_their_rates(unit: str, whose: str, each: dict[str, Decimal], price: dict[str, tuple[str, Decimal]], over: str) -> str:
    symbol = next((cell[0] for cell, _ in price.values() if cell[:1] in "£$€"), "")
    written = partial(_money, symbol) if symbol else _plain
    said = [f"{name} {_plain(n)} × {price[name.lower()][0]} = {written(n * price[name.lower()][1])}" for name, n in each.items()]
    total = sum((n * price[name.lower()][1] for name, n in each.items()), Decimal(0))
    return f"{WORKED_OUT} {unit}{' ' + over if over else ''} at each {whose}: {'; '.join(said)}; in all {written(total)}"


def _of_the_month(header: list[str], body: list[list[str]], request: str, today: date) -> list[list[str]]:
    """The rows of the month the request names (the last one gone, or this one), all where it names none."""
    named = [n for n, month in enumerate(MONTHS, 1) if re.search(rf"\b{month}\b", request, re.IGNORECASE)]
    dates = next((i for i in range(len(header)) if body and all(ISO_DATE.match(r[i].strip()) for r in body)), None)
    if len(named) != 1 or dates is None:
        return body
    year = today.year if named[0] <= today.month else today.year - 1
    return [r for r in body if r[dates].strip().startswith(f"{year}-{named[0]:02d}")]


def _plain(value: Decimal) -> str:
    return format(value.normalize(), "f")


A_UNIT = re.compile(r"(?:(?P<money>[£$€])\s?)?(?P<amount>\d+(?:\.\d+)?)\s*(?P<pence>p|c)?\s+(?:a|an|per|each)\s+(?P<unit>[a-z]+)\b",
                    re.IGNORECASE)
USED_SPAN = re.compile(r"(?P<period>[A-Z][a-z]+ \d{4}) \((?P<start>\d{4}-\d\d-\d\d) to (?P<end>\d{4}-\d\d-\d\d)\): (?P<used>[^;]+)")
LISTED_MONTH = re.compile(r"^\[Saturn (?:listed\] the rows with [\w ]+ in|worked out\] totals over the) "
                          r"(?P<period>[A-Z][a-z]+ \d{4})(?: rows)? \((?P<count>\d+)(?: of \d+)?\)")
COST_ASKED = re.compile(r"\b(?:cost|costs|spend|spent|pay|paid|bill|charged?|owe[sd]?)\b|[£$€]", re.IGNORECASE)
COUNTED_UNIT = re.compile(r"match|game|session|lesson|class|visit|walk|ride|round|meeting|fixture|training|clean|stay|booking|"
                          r"delivery|order|service", re.IGNORECASE)
"""What a month's rows each are, priced one at a time: "Subs £5 a match"."""


def used_at_its_rate(request: str, shown: str) -> str:
    """Asked what a month's use cost, what the readings say was used times the price a unit a line
    gives for it, with its charge a day over the days between the readings ("Electric: 24.5p per
    kWh, standing charge 53p a day"): asked what November's electricity cost, the 1.5B gave the
    units used as pounds."""
    if not COST_ASKED.search(request):
        return ""
    priced = [line.strip(" -*•") for line in shown.splitlines() if not line.startswith("[Saturn") and A_UNIT.search(line)]
    said = []
    for line in shown.splitlines():
        if not line.startswith("[Saturn worked out] used between readings"):
            continue
        for span in USED_SPAN.finditer(line):
            if not re.search(rf"\b{span['period'].split()[0]}\b", request, re.IGNORECASE):
                continue
            days = (date.fromisoformat(span["end"]) - date.fromisoformat(span["start"])).days
            for used in span["used"].split(", "):
                name, _, amount = used.rpartition(" ")
                rates = next((line for line in priced if stems(line.split(":")[0]) & stems(name)), None)
                if rates and stems(name) & stems(request):
                    said.append(f"{span['period']} {name}: " + _priced_use(rates, Decimal(amount), days))
    return f"{WORKED_OUT} " + "; ".join(said) if said else ""


def _priced_use(line: str, used: Decimal, days: int) -> str:
    """The units used at the line's price a unit, and its charge a day over the days."""
    parts, total, money = [], Decimal(0), ""
    for found in A_UNIT.finditer(line):
        price = Decimal(found["amount"]) / (100 if found["pence"] else 1)
        money = found["money"] or {"p": "£", "c": ""}.get((found["pence"] or "").lower(), money)
        count = Decimal(days) if found["unit"].lower() == "day" else used
        parts.append(f"{_plain(count)} {'days' if count is not used else 'used'} × {found.group(0)} = {_money(money, count * price)}")
        total += count * price
    return "; ".join(parts) + (f"; in all {_money(money, total)}" if len(parts) > 1 else "")


def a_price_a_time(request: str, shown: str) -> str:
    """Asked how much for a month, a price a time a line gives ("Subs £5 a match") times the rows a
    table holds for that month: asked what subs were owed for November, the 1.5B gave £5."""
    if not MONEY_ASKED.search(request):
        return ""
    month = next((found for line in shown.splitlines() if (found := LISTED_MONTH.match(line))
                  and re.search(rf"\b{found['period'].split()[0]}\b", request, re.IGNORECASE)), None)
    priced = _one_priced_line(request, shown, COUNTED_UNIT)
    if month is None or priced is None:
        return ""
    line, found = priced
    return _times(line.strip(" -*•").split(",")[0], found, int(month["count"]), f"the {month['period']} rows")


def _one_priced_line(request: str, shown: str, units: re.Pattern[str]) -> tuple[str, re.Match[str]] | None:
    """The one line shown (not the ground's own) giving a price a unit of `units` after words of the
    request ("Subs £5 a match"): the line and the price found."""
    asked = stems(request)
    priced = [(line, found) for line in shown.splitlines() if not line.startswith("[Saturn")
              for found in A_UNIT.finditer(line) if found["money"] and units.fullmatch(found["unit"].rstrip("s"))
              and asked & stems(line[:found.start()])]
    return priced[0] if len(priced) == 1 else None


def _times(label: str, found: re.Match[str], count: int, rows: str) -> str:
    return f"{WORKED_OUT} {label}: {found.group(0)} × {count} ({rows}) = {found['money']}{_plain(Decimal(found['amount']) * count)}"


UNPAID_COUNTED = re.compile(r"^\[Saturn counted\] (?P<column>paid|settled|done)[^:]*: .*?\bno (?P<count>\d+) \((?P<rows>[^)]*)\)",
                            re.IGNORECASE | re.MULTILINE)
PERIODS = re.compile(r"month|week|term|quarter|year|session|lesson|class|match", re.IGNORECASE)


def unpaid_at_a_price(request: str, shown: str) -> str:
    """Asked what is owed, a price a period a line gives ("Subs £12 a month") times a table's rows
    not paid ("paid: … no 2 (2026-11, 2026-12)"): asked "How much do I owe in subs?", the 1.5B
    gave the £12."""
    counted = UNPAID_COUNTED.search(shown) if OWED_ASKED.search(request) else None
    priced = _one_priced_line(request, shown, PERIODS)
    if counted is None or priced is None:
        return ""
    line, found = priced
    return _times(line[:found.start()].strip(" -*•#:"), found, int(counted["count"]), f"{counted['column']} no: {counted['rows']}")


def _money(symbol: str, value: Decimal) -> str:
    return f"{symbol}{value.quantize(Decimal('0.01'), ROUND_HALF_UP)}"


ROWS_SHOWN = re.compile(r"^\[Saturn worked out\] totals over [^;]*; the rows?: (?P<rows>[^;]+)")
PRICED = re.compile(r"^\W*(?P<item>[A-Za-z][\w' -]*?)\s*[:=-]?\s*(?P<money>[£$€])\s?(?P<price>\d+(?:\.\d+)?)\s*(?:each\b)?\s*$")
"""A price list's line: "Cupcakes £2 each", "Lemon cake £18"."""
WORTH_ASKED = re.compile(r"\bhow\s+much\b|\bcomes?\s+to\b|\b(?:worth|cost|costs|owe[sd]?|charge|bill|invoice|total)\b", re.IGNORECASE)
COUNT_COLUMN = re.compile(r"^(?:qty|quantity|number|count|how\s+many|amount|no\.?)$", re.IGNORECASE)


def rows_at_their_prices(request: str, shown: str, texts: Iterable[str]) -> str:
    """Asked how much, the rows shown for the request times the price a list of the folder's
    `texts` gives their item ("customer Ana Lopez, item cupcakes, qty 24" and "Cupcakes £2 each":
    24 × £2 = £48): the 1.5B summed the price list instead."""
    if not WORTH_ASKED.search(request):
        return ""
    prices = {found["item"].strip().lower(): found for text in texts for line in text.splitlines()
              if (found := PRICED.match(line))}
    rows = next((found["rows"].split(" | ") for line in shown.splitlines() if (found := ROWS_SHOWN.match(line))), [])
    said, total = [], Decimal(0)
    for row in rows:
        cells = [cell.partition(" ") for cell in row.split(", ")]
        priced = next((prices[key] for _, _, value in cells for key in (value.lower(), value.lower().rstrip("s")) if key in prices), None)
        count = next((value for column, _, value in cells if COUNT_COLUMN.match(column)), None)
        if priced is None or count is None or not re.fullmatch(r"\d+(?:\.\d+)?", count):
            return ""
        cost = Decimal(count) * Decimal(priced["price"])
        total += cost
        said.append(f"{cells[0][2]}: {priced['item'].strip()} {count} × {priced['money']}{priced['price']} = "
                    f"{priced['money']}{_plain(cost)}")
    if not said:
        return ""
    return f"{WORKED_OUT} at the prices listed: " + "; ".join(said) + (f"; in all {_plain(total)}" if len(said) > 1 else "")


OVER_BUDGET_ASKED = re.compile(r"\b(?:over|under|within|in)\s+(?:the\s+|our\s+|my\s+)?budget\b|\bafford\b", re.IGNORECASE)
TOGETHER = re.compile(r"^\[Saturn worked out\] .*; together (?P<total>\d+(?:\.\d+)?)$")


def against_the_budget(request: str, shown: str, texts: Iterable[str]) -> str:
    """Asked whether something is over budget, what the ground put together against the budget a
    line gives: with the cheapest quotes' 12950 and "Budget for this year's work: £12,000" shown,
    the 1.5B said they were within it."""
    if not OVER_BUDGET_ASKED.search(request):
        return ""
    total = next((Decimal(found["total"]) for line in shown.splitlines() if (found := TOGETHER.match(line))), None)
    budget = next((found for text in texts for line in text.splitlines() if (found := BUDGET_LINE.search(line))), None)
    if total is None or budget is None:
        return ""
    limit = Decimal(budget["amount"].replace(",", ""))
    verdict = f"{_plain(total - limit)} over it" if total > limit else f"{_plain(limit - total)} under it"
    return f"{WORKED_OUT} together {_plain(total)} against the budget {budget['money']}{budget['amount']}: {verdict}"


GONE_UP_ASKED = re.compile(r"\b(?:gone|go|went|going)\s+(?:up|down)\b|\b(?:increase|rise|risen|difference|more\s+than\s+(?:last|before))\b",
                           re.IGNORECASE)
ONE_ROW = re.compile(r"^\[Saturn worked out\] totals over [^;]* rows \(1\): (?P<column>[\w ]+) = (?P<value>\d+(?:\.\d+)?); "
                     r"the row: (?P<cells>[^;]+)")
ONE_AMOUNT = re.compile(r"[£$€]\s?(?P<amount>\d[\d,]*(?:\.\d+)?)")


def gone_up(request: str, shown: str) -> str:
    """Asked how much a thing has gone up, the new amount a line gives for its row (by a word of the
    row: "Admiral renewal quote came in at £642") against the row's ("yearly 586"): 642 - 586 = 56;
    the 1.5B gave the old amount."""
    if not GONE_UP_ASKED.search(request) or (found := _row_and_its_line(shown, lambda _line: True)) is None:
        return ""
    row, line, new = found
    old = Decimal(row["value"])
    change = f"{_plain(new - old)} up" if new >= old else f"{_plain(old - new)} down"
    return f"{WORKED_OUT} \"{line}\" against {row['column'].strip()} {row['value']}: {_plain(new)} - {_plain(old)} = {change}"


LEFT_OF_IT_ASKED = re.compile(r"\b(?:left|remaining|still\s+(?:got|have)\s+to\s+spend)\b", re.IGNORECASE)
SPENT_WORDS = re.compile(r"\b(?:bought|spent|paid|cost)\b", re.IGNORECASE)


def left_after_spent(request: str, shown: str) -> str:
    """Asked what is left of a row's amount, the amount a line naming the row says was spent taken
    off it: with Priya's "gift budget 25" and "Priya: candle from the market (bought, £18)" shown,
    the 1.5B answered 25 for "How much have I got left to spend on Priya's present?"."""
    def spent_on_it(line: str) -> bool:
        return bool(SPENT_WORDS.search(line) and stems(line) & stems(request))

    if not LEFT_OF_IT_ASKED.search(request) or (found := _row_and_its_line(shown, spent_on_it)) is None:
        return ""
    row, line, spent = found
    amount = Decimal(row["value"])
    return (f"{WORKED_OUT} \"{line}\" against {row['column'].strip()} {row['value']}: {_plain(amount)} - {_plain(spent)}"
            f" = {_plain(amount - spent)} left")


def _row_and_its_line(shown: str, fits: Callable[[str], bool]) -> tuple[re.Match[str], str, Decimal] | None:
    """The one table row the ground picked, and the one line shown naming it by a word of its cells
    with one amount (and `fits`), with that amount."""
    row = next((found for line in shown.splitlines() if (found := ONE_ROW.match(line))), None)
    if row is None:
        return None
    words = {stem for cell in row["cells"].split(", ") if not re.search(r"\d", cell) for stem in stems(cell.partition(" ")[2])}
    lines = [line.strip(" -*•") for line in shown.splitlines() if not line.startswith(("[Saturn", "---"))
             and len(ONE_AMOUNT.findall(line)) == 1 and stems(line) & words and fits(line)]
    if len(lines) != 1:
        return None
    return row, lines[0], Decimal(ONE_AMOUNT.findall(lines[0])[0].replace(",", ""))


A_TERMS_PART_ASKED = re.compile(r"\b(?:a|per|each)\s+(?P<unit>week|session|lesson|class)\b", re.IGNORECASE)
TERM_LENGTH = re.compile(r"\bterms?\b[^.\n]{0,20}?\b(?:is|lasts|runs(?:\s+for)?|of|has)\s+(?P<count>\d{1,2})\s+(?P<unit>weeks|sessions|lessons|classes)\b"
                         r"|\b(?P<count2>\d{1,2})[\s-](?P<unit2>weeks?|sessions?|lessons?|classes)\s+(?:a|per|each|in\s+the)\s+term\b",
                         re.IGNORECASE)
A_TERM = re.compile(r"[£$€]\s?(?P<amount>\d+(?:\.\d+)?)\s*(?:a|per|each|/)\s*term\b", re.IGNORECASE)


def a_term_by_the_week(request: str, shown: str, texts: Iterable[str]) -> str:
    """Asked what a thing priced by the term costs a week (or a session), its price over the weeks
    a line says the term is ("Term is 12 weeks"): asked "How much is ballet a week?" of clubs.csv's
    "cost per term" 84, the 1.5B gave 84."""
    asked = A_TERMS_PART_ASKED.search(request)
    lengths = {(int(found["count"] or found["count2"]), _one_of(found["unit"] or found["unit2"]))
               for text in texts for found in TERM_LENGTH.finditer(text)}
    if asked is None or len(lengths) != 1:
        return ""
    count, unit = lengths.pop()
    if unit != _one_of(asked["unit"]):
        return ""
    priced = [(f"{column.strip()} over {totals['over'].strip()}", Decimal(value)) for line in shown.splitlines()
              if (totals := TOTALS_LINE.match(line))
              for column, _, value in [part.rpartition(" = ") for part in totals["totals"].split(", ")]
              if re.search(r"\bterm\b", column, re.IGNORECASE) and re.fullmatch(r"\d+(?:\.\d+)?", value)]
    priced += [(line.strip(" -*•")[:found.start()].strip(" :,-") or "a term", Decimal(found["amount"])) for line in shown.splitlines()
               if not line.startswith("[Saturn") and (found := A_TERM.search(line)) and stems(line) & stems(request)]
    said = [f"{label}: {_plain(amount)} / {count} {unit}s = {_plain(amount / count)} a {unit}" for label, amount in priced[:3]]
    return f"{WORKED_OUT} " + "; ".join(said) if said else ""


def _one_of(unit: str) -> str:
    """"weeks" and "week" are one week; "classes" one class."""
    unit = unit.lower()
    return unit[:-2] if unit.endswith("sses") else unit.rstrip("s") if not unit.endswith("ss") else unit
