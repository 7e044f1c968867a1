"""The rows of a table a request picks by what it names: the values of a text column ("food",
"Priya"), all rows but those ("after rent"), a month, the months since one ("since September"), the
date column its verb names ("finished" of "started,finished"), and the column that groups the rows.

Asked what the electric was in October, shown every month's, the 1.5B gave the electric of every
month; asked what November's food cost, shown the month's spending by shop, it gave the whole
month's. Picking the rows before adding them up is the harness's to do.
"""

from __future__ import annotations

import re
from datetime import date, datetime

from saturnd.tools.table_asked import LARGEST_ASKED, SMALLEST_ASKED
from saturnd.tools.table_cells import CLOCK_TIME, ISO_DATE, MONTHS, first_day_of, stems_named
from saturnd.tools.word_match import stems

MAX_GROUPS = 12
SINCE_MONTH = re.compile(r"\bsince\s+(?:the\s+start\s+of\s+)?(" + "|".join(MONTHS) + r")\b", re.IGNORECASE)


def named_values(header: list[str], body: list[list[str]], skip: list[int | None], request: str, name: str = ""
                 ) -> tuple[int, set[str]] | None:
    """A text column some of whose values (not all) the request names, with those values: asked
    what November's food cost, the 1.5B gave the whole month's spending, shown it by shop."""
    request = MESSAGED.sub("", request)  # "Email Ben the November total": Ben's rows are not asked
    ranking = " ".join(found.group(0) for found in (LARGEST_ASKED.search(request), SMALLEST_ASKED.search(request)) if found)
    asked = stems(request) - stems(" ".join([*header, re.sub(r"[^a-z]+", " ", name.lower()), ranking]))  # not "longest run"
    for i in range(len(header)):
        if i in skip:
            continue
        values = {r[i].strip() for r in body}
        named = ({v for v in values if len(v) >= 2 and value_named(v, request)}
                 or {v for v in values if len(words := v.split()) > 1 and any(
                     word[:1].isupper() and len(word) >= 3 and re.search(rf"(?<!^)\b{re.escape(word)}\b", request.strip())
                     for word in words)}  # "Priya" of "Priya Shah", "Prime" of "Amazon Prime"
                 or _values_by_a_word(values, asked))
        if named and len(named) < len(values):
            return i, named
    return None


def _values_by_a_word(values: set[str], asked: set[str]) -> set[str]:
    """The values of several words one of which the request says and no other value holds ("the
    fence": "new fence"; not "shipping": "not shipped" beside "shipped")."""
    said = {v: words for v in values if len(v.split()) > 1 and (words := {w for w in stems(v) & asked if len(w) >= 4})}
    return {v for v, words in said.items() if not any(words & stems(other) for other in values - said.keys())}


MESSAGED = re.compile(r"^\s*(?:please\s+)?(?:e-?mail|text|message|tell|remind|ask|send|ring|phone|call|whatsapp)\s+[A-Z][\w'-]*",
                      re.IGNORECASE)


def value_named(value: str, request: str) -> bool:
    """"food" by "food" or "foods"; a month written short in the table ("Oct") by its whole name too
    (asked what the electric was in October, the 1.5B gave the electric of every month)."""
    if re.search(rf"\b{re.escape(value)}(?:s|es)?\b", request, re.IGNORECASE):
        return True
    month = next((m for m in MONTHS if len(value) >= 3 and m.startswith(value.lower().rstrip("."))), None)
    return month is not None and re.search(rf"\b{month}\b", request, re.IGNORECASE) is not None


ALL_BUT = r"\b(?:after|apart\s+from|besides|other\s+than|except(?:\s+for)?|excluding|not\s+counting|leaving\s+out|bar)\s+(?:the\s+|my\s+)?"


def all_but(values: set[str], request: str) -> bool:
    """Whether the request sets the values it names aside ("after rent", "apart from the gym")."""
    return all(re.search(ALL_BUT + re.escape(value), request, re.IGNORECASE) for value in values)


VERB_FORMS = {"sold": ("sell", "sale"), "paid": ("pay",), "bought": ("buy",), "done": ("do", "did"), "sent": ("send",)}


def verb_named(column: str, request: str) -> bool:
    """Whether the request names a column of a thing done by its verb in any form ("selling" of "sold")."""
    name = column.strip().lower()
    forms = (name, name.removesuffix("ed"), *VERB_FORMS.get(name, ()))
    return any(re.search(rf"\b{re.escape(form)}", request, re.IGNORECASE) for form in forms if len(form) > 2)


def date_column_named(header: list[str], body: list[list[str]], request: str) -> int | None:
    """Of a table with two date columns or more, the one the request's words name ("finish" of
    "started,finished"): the month asked is that column's, its blank rows not counted."""
    columns = [i for i in range(len(header)) if any(ISO_DATE.match(r[i]) for r in body)
               and all(ISO_DATE.match(r[i]) or not r[i].strip() for r in body)]
    return next((i for i in columns if stems_named(header[i], request)), None) if len(columns) > 1 else None


def month_named(month: str, request: str) -> bool:
    return re.search(rf"\b{month.split()[0]}\b", request, re.IGNORECASE) is not None


def month_started(body: list[list[str]], dates: int, month: str) -> date | None:
    """The first day of the last `month` the table's dates (or months) reach ("since September" of
    rows from 2026-09-02 to 2026-11-21: 1 September 2026)."""
    days = [d for r in body if (d := first_day_of(r[dates])) is not None]
    wanted = MONTHS.index(month.lower()) + 1
    starts = [date(year, wanted, 1) for year in {d.year for d in days}]
    return max((s for s in starts if s <= max(days)), default=None) if days else None


def a_year_gone(month: str, today: date | None) -> bool:
    """Whether a month ("November 2025") is a year or more before today's: asked about November in
    December 2026, the electrician's visit of November 2025 is no answer."""
    when = datetime.strptime(month, "%B %Y").date()
    return today is not None and (today.year - when.year) * 12 + today.month - when.month >= MONTHS_A_YEAR


MONTHS_A_YEAR = 12


def grouping_column(header: list[str], body: list[list[str]], skip: list[int | None], request: str = "") -> int | None:
    """The text column the request names ("Which item sells best?"), else whose values repeat most
    (a category rather than a shop), or None; a column of clock times is no category ("hours by
    start: 09:00 12")."""
    kinds = {i: len({r[i].strip() for r in body}) for i in range(len(header))
             if i not in skip and not all(CLOCK_TIME.fullmatch(r[i].strip()) for r in body)
             and not any(ISO_DATE.match(r[i]) for r in body)  # "price by sold: 2026-11-14 45, (blank) 57" is no kind
             and _a_value_repeats([r[i] for r in body])}  # nor a buyer's name beside blanks
    repeating = [i for i, count in kinds.items() if count < len(body) and count <= MAX_GROUPS]
    return min(repeating, key=lambda i: (not stems_named(header[i], request), kinds[i], i), default=None)


def _a_value_repeats(cells: list[str]) -> bool:
    values = [cell.strip() for cell in cells if cell.strip()]
    return len(set(values)) < len(values)
