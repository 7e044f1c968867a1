"""Retrieval into the ground: the user's documents ranked against the request, best few shown.

"When is my dentist appointment?" needs no tool choice at all when the line
"Dentist Friday 9am" from notes.txt is already in front of the model. Ranking
is SQLite FTS5's BM25 with the Porter stemmer (so "notes" finds notes.txt and
"spending" finds "spend"), over each document's name and text; the name weighs
more ("my shopping list" means shopping.txt). Deterministic, no model call,
bounded in characters.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from datetime import date, timedelta

from saturnd.gate.provenance import TIME, time_of
from saturnd.tools.table_cells import TABLE_SUFFIXES, day_of, number
from saturnd.tools.table_dates import dates_by_column, header_and_rows
from saturnd.tools.table_repeats import NEXT_BY_ROW
from saturnd.tools.table_sums import table_totals, undated_rows
from saturnd.tools.word_match import (
    NAME_WEIGHT,
    SHORT_STOP_WORDS,
    fts_index,
    fts_query,
    name_as_asked,
    query_word_groups,
    stems,
)
from saturnd.turn.answers import answers_counted
from saturnd.turn.asked_line import (
    the_days_asked,
    the_line_asked,
    the_line_at_the_time,
    the_lines_naming,
)
from saturnd.turn.budget_left import BUDGET_ASKED, BUDGET_LINE, LEFT_ASKED, budget_left, money_table
from saturnd.turn.chores import done_jobs_priced
from saturnd.turn.dates import (
    MONTHS,
    PAST_ASKED,
    before_day,
    content_words,
    dated,
    dates_gone,
    days_named,
    days_of,
    holidays_named,
    months_meant,
    months_written,
    ways_written,
    week_named,
)
from saturnd.turn.day_lines import NO_LINE_THAT_DAY, TIME_WRITTEN, on_the_days
from saturnd.turn.doses import next_dose
from saturnd.turn.errands import TOLD_LOGGED, TOLD_READING, asked_action
from saturnd.turn.line_amounts import amounts_in_a_line
from saturnd.turn.line_rates import (
    amounts_by_period,
    at_a_rate,
    by_the_hour,
    by_the_week_of_days,
    count_by_period,
)
from saturnd.turn.listing import (
    DONE_MARK,
    LIST_MARK,
    MAX_NOT_DONE,
    not_done,
    section_named,
    who_owes,
)
from saturnd.turn.made_up import COUNT_REQUEST, HEADING
from saturnd.turn.measures import measure_change, readings_used
from saturnd.turn.pots import amount_added, progress
from saturnd.turn.repeats import age, lasts_until, next_due, repeats_on
from saturnd.turn.row_days import runs_out, stock_runs_out, year_asked, yearly_next
from saturnd.turn.shares import shares
from saturnd.turn.stay_costs import stay_costs
from saturnd.turn.targets import TARGET_ASKED, against_the_target, sets_a_target
from saturnd.turn.time_lines import (
    at_that_time_of_day,
    in_the_month,
    in_the_year,
    just_gone,
    month_asked,
    span_ends,
)
from saturnd.turn.to_go import months_to_target, reached_in, to_go, units_asked
from saturnd.turn.worked_lines import (
    RATING_ASKED,
    bracketed_counts,
    list_amounts,
    most_of_a_list,
    quantities_summed,
    rated_lines,
    ratings,
    scaled_recipe,
    still_to_pay,
)
from saturnd.turn.worked_times import (
    BEFORE_EVENT,
    WHAT_TIME,
    arrival_times,
    before_the_event,
    length_in_minutes,
    lengths_summed,
    time_between,
    times_worked_out,
)

KB_SOURCE = "kb:"
MONTH_NAMED = {month: re.compile(r"(?<=\s)May\b") if month == "may" else re.compile(rf"\b{month}\b", re.IGNORECASE)
               for month in MONTHS}
"""A month the request names; "May" only with its capital and not first ("May I …")."""


@dataclass(frozen=True)
class Document:
    source: str
    """How the model can read it: a path in the working folder, or "kb:<name>" (KB_SOURCE)."""
    text: str


@dataclass(frozen=True)
class Excerpt:
    source: str
    first_line: int
    lines: list[str]
    total_lines: int

    @property
    def whole(self) -> bool:
        return self.first_line == 1 and len(self.lines) == self.total_lines


@dataclass(frozen=True)
class RetrievalLimits:
    top: int = 3
    whole_file_chars: int = 1_200
    """A file this small is shown whole; a larger one by its matching lines."""
    lines_per_excerpt: int = 8
    total_chars: int = 2_400
    relative_floor: float = 0.35
    """A document scoring under this share of the best one is left out."""


def rank(request: str, documents: list[Document], today: date | None = None) -> list[tuple[float, Document]]:
    """Documents matching any of the request's words, best first, with their BM25 scores."""
    return [(score, doc) for score, doc, _ in _ranked(request, documents, today)]


ADDS = frozenset({"add", "append", "put", "insert", "note"})


def _word_groups(request: str, today: date | None) -> list[tuple[str, ...]]:
    """The request's words with the ways people also write them; a day word ("tomorrow",
    "Friday") also as notes write that day: asked "Have I got anything on Friday?", the diary's
    "Fri 4 Dec: Physio" held no word of the request, and the meal plan's "Friday: pizza" won. A month
    also as a table's dates write it ("2026-11-03" for November: money.csv held no word of "What
    was my biggest spend in November?" and was not shown), and "last week" its days'."""
    days: dict[str, tuple[str, ...]] = {}
    if asked_action(request) in ADDS:
        today = None  # "Log a run: 7 km today": the day is the new line's, not one to look for (plan.md's Thursday)
    for word, day in days_named(request, today) if today else []:
        days[word] = days.get(word, ()) + ways_written(day)
    for words, day in holidays_named(request, today) if today else []:  # a stay's dates hold no "2026-12-31"
        days[words.split()[0].lower()] = (*ways_written(day), f"{day:%Y-%m}")
    if today:
        days |= {month: months_written(month, today) for month in MONTHS if MONTH_NAMED[month].search(request)}
        if week := week_named(request, today):  # "last week" as a table's dates of it
            days["week"] = tuple(day.isoformat() for day in week)
        if (year := year_asked(request, today)) is not None:  # "How much have I given this year?": donations.csv's 2026 rows
            days["year"] = (str(year),)
    times = [(f"{hour:02d}:{minute:02d}", f"{hour}:{minute:02d}", f"{hour % 12 or 12}:{minute:02d}")
             for hour, minute in (time_of(found) for found in TIME.finditer(request))]  # "at 9:15": the log's "09:15"
    return [*(group + tuple(t for t in days.get(group[0], ()) if t not in group) for group in query_word_groups(request)),
            *(tuple(dict.fromkeys(written)) for written in times)]


def _ranked(
    request: str, documents: list[Document], today: date | None = None
) -> list[tuple[float, Document, frozenset[int]]]:
    """rank's rows, each with which of the request's words (_word_groups' indexes) it holds."""
    groups = _word_groups(request, today)
    if not groups or not documents:
        return []
    names = [name_as_asked(d.source.removeprefix(KB_SOURCE).replace("/", " "), request) for d in documents]
    with fts_index(list(zip(names, (d.text for d in documents), strict=True))) as db:
        rows = db.execute(
            "SELECT rowid, -bm25(doc, ?, 1.0) FROM doc WHERE doc MATCH ? ORDER BY 2 DESC, rowid",
            (NAME_WEIGHT, fts_query([t for group in groups for t in group])),
        ).fetchall()
        holding = [
            {rowid for (rowid,) in db.execute("SELECT rowid FROM doc WHERE doc MATCH ?", (fts_query(list(group)),))}
            for group in groups
        ]
    return [
        (score, documents[rowid - 1], frozenset(i for i, rows_with in enumerate(holding) if rowid in rows_with))
        for rowid, score in rows
    ]


def matching_lines(lines: list[str], terms: list[str]) -> list[int]:
    """Indexes of the lines that hold any of the terms (stemmed as in ranking)."""
    if not terms:
        return []
    with fts_index([("", line) for line in lines]) as db:
        rows = db.execute("SELECT rowid FROM doc WHERE doc MATCH ? ORDER BY rowid", (fts_query(terms),))
        return [rowid - 1 for (rowid,) in rows]


def excerpt(doc: Document, terms: list[str], limits: RetrievalLimits) -> Excerpt:
    """The whole document when small; else the lines holding the request's words, with one line around."""
    lines = doc.text.splitlines()
    if len(doc.text) <= limits.whole_file_chars:
        return Excerpt(doc.source, 1, lines, len(lines))
    hits = matching_lines(lines, terms)
    if not hits:
        return Excerpt(doc.source, 1, lines[: limits.lines_per_excerpt], len(lines))
    start = max(0, hits[0] - 1)
    return Excerpt(doc.source, start + 1, lines[start : start + limits.lines_per_excerpt], len(lines))


ONGOING_ASKED = re.compile(r"\b(?:at\s+the\s+moment|currently|right\s+now|in\s+progress|on\s+the\s+go|"
                           r"still\s+(?:\w+ing|got|have|out)|(?:got|have)\s+out|"
                           r"not\s+(?:yet\s+)?(?:finished|done|returned|paid|back))\b", re.IGNORECASE)
"""A request about what is under way: the rows of a table's date column left blank answer it
("Which books have I still got out?": loans.csv's blank "returned")."""
LAST_DONE_ASKED = re.compile(r"\bwhen\s+(?:did|was|were)\s+(?:i|we|he|she|they)\s+last\b|\blast\s+time\s+(?:i|we)\b",
                             re.IGNORECASE)
"""Asked when a thing was last done ("When did I last fill up?"): a dated log's latest row answers
it, though the request may share no word with the log's."""


def _dated_table(doc: Document) -> bool:
    table = header_and_rows(doc.source, doc.text.splitlines())
    return table is not None and bool(table[1]) and any(all(day_of(row[i]) for row in table[1]) for i in range(len(table[0])))


def relevant_excerpts(
    request: str, documents: list[Document], limits: RetrievalLimits = RetrievalLimits(), today: date | None = None,
    wanted: Collection[str] = (),
) -> list[Excerpt]:
    """The best few documents for the request, as excerpts, within the character budget.

    A document under the relative floor still comes in when it holds a word of the request that
    none shown so far holds: "Email Sam the wifi details" needs the contacts (Sam, email) and the
    household notes (wifi), and the second scored under a third of the first; so does one of the
    `wanted` sources (where the person to message has a number: "Text Leo that the party starts at
    7" found the party's guest list, Leo and party, and left out contacts.md's "- Leo: 07700 …")."""
    ranked = _ranked(request, documents, today)
    a_table_shown = any(score >= ranked[0][0] * limits.relative_floor and d.source.lower().endswith(TABLE_SUFFIXES)
                        for score, d, _ in ranked)
    units = units_asked(request)
    targets_set = TARGET_ASKED.search(request) is not None and any(sets_a_target(doc.text) for doc in documents)
    budget_set = bool(LEFT_ASKED.search(request) and BUDGET_ASKED.search(request)) and any(
        BUDGET_LINE.search(doc.text) for doc in documents)
    needed = [doc for doc in documents if RATING_ASKED.search(request) and len(rated_lines(doc.text.splitlines())) >= 2
              # "What's my average rating?" holds no word of "Orbital (done, 5/5)"
              or ONGOING_ASKED.search(request) and undated_rows(doc.source, doc.text)
              # "What am I reading at the moment?": books.csv's blank "finished"
              or (LAST_DONE_ASKED.search(request) or TARGET_ASKED.search(request) and targets_set
                  or TOLD_LOGGED.match(request) or TOLD_READING.match(request)) and _dated_table(doc)  # "I weighed in at 82.4": weight.csv
              # "When did I last fill up?": fuel.csv; "Which readings were over target?": bp.csv
              or any(reached_in(doc.source, doc.text.splitlines(), unit) for unit in units)  # "How many miles until …"
              or WHAT_TIME.search(request) and BEFORE_EVENT.search(doc.text)  # "Meet 45 minutes before kick-off"
              or _rows_of_someone_named(doc, request)  # "What does Mia do after school?": activities.csv's Mia rows
              or not a_table_shown and _number_column_named(doc, request)
              # "On how many days did I hit my step goal?": goals.md's "Steps: 10,000" covered habits.csv's steps
              # (not beside a table shown already: walks.csv's rows, not clients.csv's "walks a week")
              or WHAT_TIME.search(request) and _time_line_named(doc, request)
              # "What time does the afternoon shift start?": the afternoon rows had covered "afternoon 13:30-16:30"
              or BETWEEN_ROWS_ASKED.search(request) and _dated_table(doc) and _header_named(doc, request)
              # "How many miles between the last two fill-ups?": fuel.csv's miles, beside car.md's "12,000 miles"
              or budget_set and money_table(doc.source, doc.text.splitlines()) is not None]
              # "How much of my giving budget is left?": donations.csv beside "Budget for the year: £300"
    shown_names = {_bare_name(d.source) for score, d, _ in ranked if score > 0 and not d.source.lower().endswith(TABLE_SUFFIXES)}
    needed += [doc for doc in documents if doc.source.lower().endswith(TABLE_SUFFIXES) and _bare_name(doc.source) in shown_names]
    # "the most expensive thing still for sale": selling.md shares "sale"'s words, its selling.csv none
    ranked += [(0.0, doc, frozenset()) for doc in needed if all(doc is not d for _, d, _ in ranked)]
    wanted = {*wanted, *(doc.source for doc in needed)}
    if (not ranked and not asked_action(request) and not re.search(r"\d", request)  # "2 hours 45 minutes …": its own
            and _word_groups(request, today) and len(documents) <= limits.top
            and sum(len(d.text) for d in documents) <= limits.total_chars):
        ranked = [(0.0, doc, frozenset()) for doc in documents]  # "What needs eating first?" of freezer.md: no word shared
    if not ranked:
        return []
    floor = ranked[0][0] * limits.relative_floor
    terms = [term for group in _word_groups(request, today) for term in group]
    chosen: list[Excerpt] = []
    covered: set[int] = set()
    used = 0
    for score, doc, held in ranked:
        if len(chosen) == limits.top:
            break
        if score < floor and held <= covered and doc.source not in wanted:
            continue
        part = excerpt(doc, terms, limits)
        size = sum(len(line) + 1 for line in part.lines)
        if used + size > limits.total_chars:
            continue
        chosen.append(part)
        covered |= held
        used += size
    return chosen


def _bare_name(source: str) -> str:
    """A file's name without its folder or suffix: "selling" of "notes/selling.md"."""
    return source.rsplit("/", 1)[-1].rsplit(".", 1)[0].lower()


BETWEEN_ROWS_ASKED = re.compile(r"\bbetween\s+(?:the\s+)?(?:last|latest|first)\b", re.IGNORECASE)


def _header_named(doc: Document, request: str) -> bool:
    table = header_and_rows(doc.source, doc.text.splitlines())
    return table is not None and bool(stems(" ".join(table[0])) & stems(request))


def _number_column_named(doc: Document, request: str) -> bool:
    asked = _column_words(request)
    table = header_and_rows(doc.source, doc.text.splitlines()) if _column_words(doc.text.split("\n", 1)[0]) & asked else None
    return table is not None and any(
        _column_words(name) & asked and all(number(row[i]) is not None for row in table[1] if len(row) > i and row[i].strip())
        for i, name in enumerate(table[0]))


def _column_words(text: str) -> set[str]:
    """stems, and a unit's two letters ("km", "kg") that stems leave out."""
    return stems(text) | {w for w in re.findall(r"\b[a-z]{2}\b", text.lower()) if w not in SHORT_STOP_WORDS}


def _time_line_named(doc: Document, request: str) -> bool:
    asked = stems(request)
    return any(TIME_WRITTEN.search(line) and stems(line) & asked for line in doc.text.splitlines())


def _rows_of_someone_named(doc: Document, request: str) -> bool:
    """Whether a table has rows whose first cell is a person the request names mid-sentence: a note
    naming them too ("Mia's class teacher: Mrs Obi") had covered the name, and her rows were left out."""
    names = set(re.findall(r"(?<=\s)[A-Z][a-z]+", request))
    if not names or not any(name in doc.text for name in names):  # every turn ranks every document: parse only a candidate
        return False
    table = header_and_rows(doc.source, doc.text.splitlines())
    return table is not None and any(row and row[0].strip() in names for row in table[1])


LIMIT_NAMED = re.compile(r"\b(?P<way>over|above|under|below)\s+(?:the|my|our)\s+(?P<what>(?:[\w-]+\s+){0,2})"
                         r"(?P<kind>limit|budget|allowance|cap)\b", re.IGNORECASE)


def limit_as_written(request: str, lines: list[str]) -> str:
    """The request with a limit it names by its words written as the amount a line gives it: "over
    the food limit" as "over 40" where a note says "Food limit £40 a day", for a table's rows."""
    found = LIMIT_NAMED.search(request)
    if found is None:
        return request
    what = rf"{re.escape(found['what'].strip())}\s+" if found["what"].strip() else ""
    written = re.compile(rf"\b{what}{found['kind']}\b\D{{0,12}}?(?P<amount>\d[\d,]*(?:\.\d+)?)", re.IGNORECASE)
    amount = next((m["amount"] for line in lines if (m := written.search(line))), None)
    said = f"{found['what']}{found['way']} {amount}"  # "food over 40": the food rows, over it
    return request[:found.start()] + said + request[found.end():] if amount else request


def _days_lines(repeats: str, written: str) -> str:
    """The lines written for the day asked, with the repeats that fall on it; where no line is
    written for it, the repeats' account (which says so when none of them falls on it either)."""
    if written and NO_LINE_THAT_DAY not in written:
        return "\n".join(filter(None, (written, repeats if NO_LINE_THAT_DAY not in repeats else "")))
    return repeats or written


def render_excerpts(excerpts: list[Excerpt], request: str = "", today: date | None = None) -> str:
    """file:line headers the model can cite and read on from; a whole table's totals (for the
    month the `request` names, where it names one); asked how many days until a thing, its dates
    counted from `today` (dates.py); asked how long a thing lasts or a recipe for more or fewer,
    that worked out (worked_lines.py, worked_times.py)."""
    blocks = []
    for_tables = limit_as_written(months_meant(request, today) if today else request, [line for p in excerpts for line in p.lines])
    days_asked = _days_for_tables(request, today)  # the request's, once: not each excerpt's
    for part in excerpts:
        last = part.first_line + len(part.lines) - 1
        if part.whole:
            header = f"--- {part.source} (whole file, {part.total_lines} lines)"
        else:
            header = f"--- {part.source}:{part.first_line}-{last} (of {part.total_lines} lines)"
        totals = (table_totals(part.source, "\n".join(part.lines), for_tables, days_asked, today)
                  or not_done(part.lines, request)  # "How many things are left to pack?": not the ticked ones
                  or counted(part.lines, request, part.source)
                  or the_lines_naming(part.lines, request)  # "Which classes does Jenny take?": hers, not the heading's every class
                  or section_named(part.lines, request) or who_owes(part.lines)
                  if part.whole else "")
        table = part.source.lower().endswith(TABLE_SUFFIXES)  # its rows' "weekly" notes are no repeats to come
        repeating = NEXT_BY_ROW.search(totals) is not None  # rows done every so often: their days are no overdue dates
        days = "" if repeating else (yearly_next(part.source, part.lines, request, today) or runs_out(part.source, part.lines, request, today)
                or stock_runs_out(part.source, part.lines, request, today)
                or age(part.lines, request, today)
                or _the_thing_named(request, dated(dates_by_column(part.source, part.lines, request), request, today, rows=table),
                                    next_due(part.lines, request, today) if not table else "")
                or lasts_until(part.lines, request, today) or in_the_month(part.lines, request, today)
                or (in_the_year(part.lines, request, today) if not table else "")
                or just_gone(part.lines, request, today)
                or (at_that_time_of_day(part.lines, request, today) if not asked_action(request) else "")) if today else ""
        on_the_day = (_days_lines(repeats_on(part.lines, request, today), on_the_days(part.lines, request, today))
                      if today and not asked_action(request) and not (table and totals and week_named(request, today)) else "")
        # a table's totals over the week's rows stand for them: "How long did I practise this week?" had
        # each row again under its totals, and the 1.5B read out the rows, not the 90 minutes
        worked = ((done_jobs_priced(part.lines, request) if not table else "") or stay_costs(part.lines, request, today) or amount_added(part.lines, request) or still_to_pay(part.lines, request)
                  or by_the_week_of_days(part.lines, request)  # "£6 a day, … on Mondays and Thursdays": 2 days, not 7
                  or by_the_hour(part.lines, request)  # "£25 an hour, 2 hours a visit": 50 a visit
                  or count_by_period(part.lines, request) or time_between(part.lines, request) or lengths_summed(part.lines, request)
                  or arrival_times(part.lines, request) or before_the_event(part.lines, request)
                  or scaled_recipe(part.lines, request) or shares(part.lines, request)
                  or amounts_by_period(part.lines, request)
                  or (list_amounts(part.lines, request) if not table else "")
                  or (amounts_in_a_line(part.lines, request) if not table else "")
                  or quantities_summed(part.lines, request) or ratings(part.lines, request)
                  or bracketed_counts(part.lines, request) or at_a_rate(part.lines, request) or most_of_a_list(part.lines, request)
                  or span_ends(part.lines, request) or (measure_change(part.lines, request) if not table else "")
                  or (readings_used(part.lines, request) if not table else "")
                  or (progress(part.lines, request) if not asked_action(request) else "")
                  or (times_worked_out(request, part.lines) if length_in_minutes(request) is None else "")
                  or (answers_counted(part.lines, request) if not table else "")
                  or (the_line_asked(part.lines, request) or the_days_asked(part.lines, request)
                      or the_line_at_the_time(part.lines, request)
                      if not table and not (totals or days or on_the_day) else ""))
        blocks.append("\n".join([header, *part.lines, *(line for line in (totals, days, on_the_day, worked) if line)]))
    whole = [(part.source, part.lines) for part in excerpts if part.whole]
    return "\n".join([*blocks, *filter(None, (to_go(request, whole), against_the_target(request, whole),
                                               months_to_target(request, whole),
                                               next_dose(request, whole, today) if today else "",
                                               budget_left(request, whole, today) if today else ""))])


def _days_for_tables(request: str, today: date | None) -> list[date]:
    """The days a question names, for a table's rows of those days: a weekday, "tomorrow", a
    holiday, a week, and a date it writes, the last gone when asked in the past ("How much did I
    pay out on 20 November?": not next year's)."""
    if today is None:
        return []
    if not asked_action(request) and (before := before_day(request, today)) is not None and before > today:
        return [today + timedelta(days=n) for n in range((before - today).days)]  # "left before Christmas": from today
    written = ([day for _, day in dates_gone(request, today)] if PAST_ASKED.search(request)
               else sorted(days_of(request, today))) if not asked_action(request) else []
    days = [*(day for _, day in [*days_named(request, today), *holidays_named(request, today)]),
            *week_named(request, today), *written]
    if SINCE_DAY.search(request) and len(days) == 1 and days[0] < today:  # "since the 1st": each day on from it
        return [days[0] + timedelta(days=n) for n in range((today - days[0]).days + 1)]
    return days


SINCE_DAY = re.compile(r"\bsince\s+(?:the\s+\d|last\s+\w+day\b|\w+day\b|\d)", re.IGNORECASE)


def _the_thing_named(request: str, *accounts: str) -> str:
    """The account that names most of the thing asked of (the first of those), else the first there
    is: asked "When is the worming due next?", the dates to come had left out "Worming every 3
    months, last done 2 October", which only its repeat dates; asked "When's the window cleaner
    next due?", the cleaner's Fridays had stood for the window cleaner's every 4 weeks."""
    asked = content_words(request) - {"when", "due", "next", "days", "weeks", "many", "long", "until", "till"}
    named = [len(asked & content_words(said)) if said else 0 for said in accounts]
    if max(named, default=0):
        return accounts[named.index(max(named))]
    return next(filter(None, accounts), "")


COUNTED_THING = re.compile(
    r"\b(?:how many|number of)\s+(?!(?:hours|minutes|days|weeks|months|years|nights)\b)([a-z]+)", re.IGNORECASE)
""""How many weeks until the race?" counts no line under "## Each week"."""
ON_A_LIST = re.compile(r"\b(?:on|in)\s+(?:my|our|the)\b[^.?!]*\blist\b", re.IGNORECASE)
LIST_ITEMS = frozenset({"thin", "item", "job", "jobs", "task", "entr", "line"})
"""Four-letter stems (word_match.stems) of what any list holds: "things", "items", "jobs" …"""


def _counts_the_list(request: str, headings: list[str]) -> bool:
    """"How many books are on my reading list?" counts a list; "How many nights am I away?"
    counts no line of the trip's notes, nor "How many eggs …?" the lines of a recipe."""
    thing = COUNTED_THING.search(request)
    said = stems(thing.group(1)) if thing else set()
    return bool(ON_A_LIST.search(request) or said & (LIST_ITEMS | stems(" ".join(headings))))




DONE_ASKED = re.compile(r"\b(?:finished|done|completed|bought|paid|booked|read|sent|ticked)\b", re.IGNORECASE)


def _list_stems(text: str) -> set[str]:
    return stems(re.sub(r"\bto[\s-]?do\b", "todo", text, flags=re.IGNORECASE))  # "To do" is one word to a heading


def _under_the_heading_asked(lines: list[str], request: str) -> list[str] | None:
    """Of a file of several headed lists, the one whose heading the request names, heading and all
    ("How many things are on the shopping list?" of "# Shopping" over "# To do": the shopping's 3,
    not the file's 7)."""
    starts = [i for i, line in enumerate(lines) if HEADING.search(line)]
    named = [i for i in starts if _list_stems(lines[i]) & _list_stems(request)]
    if len(named) > 1:  # "How many films are left to watch?" of "# Films" over "## To watch" and "## Watched"
        deepest = max(_heading_depth(lines[i]) for i in named)
        named = [i for i in named if _heading_depth(lines[i]) == deepest]
        words = set(re.findall(r"[a-z']+", request.lower()))
        exact = [len(words & set(re.findall(r"[a-z']+", lines[i].lower()))) for i in named]
        named = [i for i, count in zip(named, exact, strict=True) if count == max(exact)]
    if len(starts) < 2 or len(named) != 1:
        return None
    end = next((i for i in starts if i > named[0]), len(lines))
    return lines[named[0]:end]


def _heading_depth(line: str) -> int:
    """A markdown heading's level ("## To watch": 2); 0 for a heading of another kind ("Books:")."""
    return len(line) - len(line.lstrip("#"))


def counted(lines: list[str], request: str, source: str = "") -> str:
    """For "how many", the lines of a list under its heading: asked how many books were on a
    reading list headed "Books to read:", the 1.5B answered the file's 4 lines. A list without a
    heading, when the request names the file (`source`): asked "How many library books have I got
    out?" of library.txt, the 1.5B answered its first line."""
    over_it = [line.strip() for line in lines if HEADING.search(line)]  # "# Films" over "## To watch": films are counted
    if (under := _under_the_heading_asked(lines, request)) is not None:
        lines = under
    headings = [line.strip() for line in lines if HEADING.search(line)]
    items = [line for line in lines if line.strip() and not HEADING.search(line)]
    if not headings and len(items) > 2 and not LIST_MARK.match(items[0]) and all(LIST_MARK.match(line) for line in items[1:]):
        headings, items = [items[0].strip()], items[1:]  # "Books I've read this year" over its "- " lines
    if listed := [line for line in items if LIST_MARK.match(line)]:  # "Reading now: …" below "4. …" is none
        items = listed
    if not COUNT_REQUEST.search(request) or not items or month_asked(request):
        return ""  # "How many birthdays are in December?": the month's lines (time_lines), not all
    done = [line for line in items if DONE_MARK.search(line)]
    if DONE_ASKED.search(request) and 0 < len(done) < len(items):  # "How many books have we finished?": 3 of 5
        return f"[Saturn counted] {len(done)} of the {len(items)} lines marked done: " + "; ".join(
            line.strip(" -*•") for line in done[:MAX_NOT_DONE])
    name = re.sub(r"[^a-z]+", " ", source.removeprefix(KB_SOURCE).rsplit(".", 1)[0].lower())
    if not headings and len(items) > 1 and stems(name) & _list_stems(request) and _counts_the_list(request, [name]):
        return f"[Saturn counted] {len(items)} lines in {source}"
    if not headings or not _counts_the_list(request, [*over_it, *headings]):
        return ""
    named = " and ".join(f"'{h}'" for h in headings[:2]) + (" …" if len(headings) > 2 else "")
    return f"[Saturn counted] {len(items)} lines besides the heading{'s' if len(headings) > 1 else ''} {named}"

