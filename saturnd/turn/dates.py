"""Days from today to the dates the ground shows, worked out by the harness.

Asked "How many days until parents evening?" with "Parents evening: 4 December 18:00" in the
ground and the clock's "Wednesday 2026-12-02" above it, a 1.5B cannot count the days between
(calculate does not take dates either). For a request that asks how many days or weeks until a
thing, or what day of the week it falls on, each date an excerpt shows is given with its weekday
and its distance from today, after the excerpt: "[Saturn dated] 4 December 2026: a Friday, in 2
days". A date without a year is its next one from today.
"""

from __future__ import annotations

import calendar
import contextlib
import re
from collections.abc import Collection
from datetime import date, timedelta

from saturnd.tools.day_steps import from_today
from saturnd.tools.word_match import STOP_WORDS

DAYS_ASKED = re.compile(
    r"\bhow\s+(?:many\s+(?:more\s+)?(?:days|weeks|sleeps)(?!\s+(?:of|off)\b)(?!.*\b(?:holiday|leave|allowance|off)\b)|long|soon)\b"
    r"(?=.*\b(?:until|till|til|before|to go|left|away)\b)|"
    r"\b(?:days|weeks|sleeps)\s+(?:until|till|til|left|to go|away)\b|"
    r"\bwhat\s+day(?:\s+of\s+the\s+week)?\s+(?:is|was|will|does|do|falls?)\b|\bwhich\s+day\s+of\s+the\s+week\b",
    re.IGNORECASE,
)
MINE = re.compile(r"\b(?:my|I|I'm|I’m|am\s+I)\b")
NEXT_ASKED = re.compile(
    r"\bnext\b(?!\s+(?:week|weekend|month|year|time|mon|tue|wed|thu|fri|sat|sun)\w*)|\b(?:coming up|upcoming|soonest|earliest)\b|\bfirst\W*$|"
    r"\b(?:anything|what)\b.*\b(?:due|expiring|running\s+out|ending|renewing)\s+soon\b",
    re.IGNORECASE,
)
"""A question for whatever comes next ("Whose birthday is next?"), not for a day named "next Friday"."""
SPAN_ASKED = re.compile(
    r"\bhow\s+many\s+(?:nights|days)\b(?!.*\b(?:left|remaining|allowance|taken|used)\b)|\bhow\s+long\s+(?:am\s+i|are\s+we|is\s+(?:my|our|the)\s+(?:trip|holiday|stay|break))\b",
    re.IGNORECASE,
)
"""How long a stay lasts ("How many nights am I away in Lisbon?"), not how long until it."""
SINCE_ASKED = re.compile(
    r"\bhow\s+long\s+(?:has|have|had|is|was)\b[^?]*\bbeen\b|\bhow\s+long\s+ago\b|"
    r"\b(?:days|weeks|months)\s+(?:since|ago)\b",
    re.IGNORECASE,
)
"""How long since a thing ("How long has the chilli been in the freezer?"): a date without a year
is then the last one gone, not the next to come."""
OVERDUE_MARK = "gone: overdue"
NONE_GONE = "; gone by: none"
"""The end of a dated line where nothing asked of is gone by its date."""
OVERDUE_ASKED = re.compile(r"\b(?:overdue|past\s+(?:its\s+|their\s+|the\s+)?(?:due|(?:use|best|sell)[- ]by|date)|expired|"
                           r"out\s+of\s+date)\b", re.IGNORECASE)
"""Which things are late ("Which library book is overdue?"): each date, gone or to come."""
SETTLED = re.compile(r"(?<!not )\b(?:paid|returned|done|cancelled|canceled|settled|completed?)\b", re.IGNORECASE)
"""A line that says its thing is dealt with: whatever its date, not overdue."""
QUESTION = re.compile(r"\?\s*$|^\W*(?:who|whose|what|what's|which|when|when's)\b", re.IGNORECASE)
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
MONTH = r"(?P<month>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|" \
        r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"
YEAR = r"(?P<year>(?:19|20)\d\d)"
WRITTEN_DATES = (
    # a range of days, from its first: "21-24 December" (the 24th alone had been a date labelled "21")
    re.compile(rf"\b{DAY}\s*[-–]\s*[0-3]?\d(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTH}\b\.?(?:,?\s+{YEAR}\b)?", re.IGNORECASE),
    re.compile(rf"\b{DAY}\s+(?:of\s+)?{MONTH}\b\.?(?:,?\s+{YEAR}\b)?", re.IGNORECASE),
    re.compile(rf"\b{MONTH}\.?\s+{DAY}\b(?:,?\s+{YEAR}\b)?", re.IGNORECASE),
    re.compile(rf"\b{YEAR}-(?P<month_number>[01]\d)-(?P<day>[0-3]\d)\b"),
    # day first, as in "Library books due back 12/12" (not a recipe's "1/2 cup")
    re.compile(r"(?<![\d/])(?P<day>[0-3]?\d)/(?P<month_number>[01]?\d)(?:/(?P<year>(?:20)?\d\d))?(?![\d/])"
               r"(?!\s*(?:cups?|tsps?|tbsps?|teaspoons?|tablespoons?|inch|pints?|lbs?|kg|oz|g)\b)", re.IGNORECASE),
)
MAX_DATES = 6
LABEL_WORDS = 5


TRIP_DAYS = 14


def _weekdays_within(found: dict[tuple[str, date], bool], today: date,
                     weekly: Collection[tuple[str, date]] = ()) -> dict[tuple[str, date], bool]:
    """`found` (a date, and whether the line writes it) with a line's bare weekday put within the
    coming few days its other lines write, two dates or more (a stay's first and last): in a trip's notes ("Train out: Fri 11 Dec", "Dinner
    Saturday 7:30pm"), the dinner is the trip's Saturday, not this week's. Not a `weekly` one
    ("Rehearsals: Wednesdays" is this coming Wednesday, though the concert is on the 19th)."""
    written = sorted({when for (_, when), is_written in found.items() if is_written})
    if len(written) < 2 or written[0] <= today or (written[-1] - written[0]).days > TRIP_DAYS:
        return found
    start = written[0]
    return {(label, when if is_written or when >= start or (label, when) in weekly
             else when + timedelta(weeks=-(-(start - when).days // 7))):
            is_written for (label, when), is_written in found.items()}


WEEKLY_DAY = re.compile(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)days\b|\bevery\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day\b",
                        re.IGNORECASE)


def dated(lines: list[str], request: str, today: date, rows: bool = False) -> str:
    """For a request asking how many days until a thing or what day it falls on, the dates of
    `lines` with their weekday and distance from `today`; asked what comes next, the dates to
    come, soonest first; asked what falls before a day of a list (not a table's `rows`, whose
    totals pick those rows), those dates, soonest first; "" otherwise."""
    next_asked = NEXT_ASKED.search(request) and QUESTION.search(request)
    span_asked = SPAN_ASKED.search(request) and not DAYS_ASKED.search(request)
    since_asked = SINCE_ASKED.search(request) is not None
    before_asked = not rows and bool(QUESTION.search(request)) and before_day(request, today) is not None  # "… before the 12th?"
    if not (DAYS_ASKED.search(request) or OVERDUE_ASKED.search(request) or next_asked or span_asked or since_asked or before_asked):
        return ""
    asked = content_words(request) - {"days", "weeks", "many", "long", "until", "till", "next", "when"}
    found: dict[tuple[str, date], bool] = {}
    line_of: dict[tuple[str, date], str] = {}  # a table's row with no words for its date is shown whole
    weekly: set[tuple[str, date]] = set()
    repeating: set[tuple[str, date]] = set()
    for line in lines:
        if OVERDUE_ASKED.search(request) and SETTLED.search(line):
            continue  # "INV-042, 2026-10-20, paid": no invoice overdue
        written = _dates(line, today, gone=since_asked, weekdays=False, yearly=YEARLY.search(request) is not None)
        for pair in written or ([] if NTH_WEEKDAY.search(line) else _dates(line, today)):
            found.setdefault(pair, bool(written))
            line_of.setdefault(pair, line.strip())
            if EVERY.search(line):
                repeating.add(pair)
            if not written and WEEKLY_DAY.search(line):
                weekly.add(pair)
        for pair in days_of_the_month(line, today):  # "Water £38 monthly, 15th": the coming 15th
            found.setdefault(pair, True)
    found = _weekdays_within(found, today, weekly)
    if span_asked:  # the dates written, not a plan's "Sat:", "Sun:" lines
        return _span(sorted({when for (_, when), written in found.items() if written} or {when for _, when in found}))
    chosen = list(found)
    if before := before_day(request, today):  # "What's due before Christmas?"
        chosen = [pair for pair in chosen if today <= pair[1] < before]
    if len(chosen) > MAX_DATES:  # kept first: what the request names, then written dates, then weekdays' lines
        named = [pair for pair in chosen if asked & content_words(pair[0])]
        kept = list(dict.fromkeys([*named, *(pair for pair in chosen if found[pair]), *chosen]))[:MAX_DATES]
        chosen = [pair for pair in chosen if pair in kept]
    if next_asked:
        names = content_words(" ".join(re.findall(r"(?<=\s)[A-Z][a-z]+", request)))  # "… with Ruth", not "birthday"
        named = [pair for pair in chosen if names & content_words(pair[0])  # "my next one-to-one with Ruth": hers
                 or MINE.search(request) and re.search(r"\bMe\b", pair[0])]  # "my next shift": a rota's "Me" rows
        chosen = sorted((pair for pair in named or chosen if pair[1] >= today), key=lambda pair: pair[1])
    elif before_asked:
        chosen = sorted(chosen, key=lambda pair: pair[1])
    if OVERDUE_ASKED.search(request):  # "Which library book is overdue?": the 1.5B named the first line, to come
        # a repeat's day gone was when it was last done, not when it is due (next_due tells that)
        chosen = sorted((pair for pair in chosen if pair[1] >= today or pair not in repeating), key=lambda pair: pair[1] >= today)
    heading = next((line.strip("# ").strip() for line in lines if line.startswith("# ")), "")
    said = [f"{_headed(label, heading)}{when.day} {when:%B %Y}: a {when:%A}, {from_today(when, today)}"
            + (f" ({OVERDUE_MARK})" if when < today and OVERDUE_ASKED.search(request) else "")
            + (f": {line_of[(label, when)]}" if next_asked and not label and (label, when) in line_of else "")  # a shift's hours
            for label, when in chosen[:MAX_DATES]]
    if said and OVERDUE_ASKED.search(request) and all(when >= today and found[(label, when)] for label, when in chosen):
        said.append(NONE_GONE.removeprefix("; "))  # "Is anything past its date?": the 1.5B said "Yes, the rice", good till June
    return f"[Saturn dated] {'soonest first: ' if next_asked else ''}{'; '.join(said)}" if said else ""


BARE_LABEL = re.compile(r"^(?:date|when|day|time)\b", re.IGNORECASE)


def _headed(label: str, heading: str) -> str:
    """A label that says only that it is a date ("Date Saturday, ") with the heading of its file
    ("Wedding date Saturday, "): asked the weeks until the wedding, the 1.5B was shown "Date" alone."""
    return f"{heading} {label[0].lower()}{label[1:]}" if heading and BARE_LABEL.match(label) else label


EVERY = re.compile(
    r"\bevery\s+(?:[\d,.]+k?\s+[a-z]+\s+or\s+)?(?P<count>\d{1,2}|two|three|four|six)?\s*(?P<unit>day|week|month|year)s?\b|"
    r"\b(?P<adverb>daily|weekly|fortnightly|monthly|quarterly|yearly|annually)\b", re.IGNORECASE)


BEFORE_DAY = re.compile(r"\b(?:before|by|until|till)\s+(?P<when>[^?.!,]+)", re.IGNORECASE)


def before_day(request: str, today: date) -> date | None:
    """The day a request asks of what falls before ("before Christmas", "by the 20th", "until
    Friday"), or None."""
    found = BEFORE_DAY.search(request)
    if found is None:
        return None
    when = found.group("when")
    days = [*(day for _, day in holidays_named(when, today)), *(day for _, day in days_named(when, today)), *days_of(when, today)]
    return min(days) if days else None


MONTHLY_DAY = re.compile(r"(?:\b(?:on|by)\s+the\s+|(?<=monthly,\s)|(?<=a\smonth,\s)|(?<=:\s))([12]?\d|3[01])(?:st|nd|rd|th)\b"
                         r"(?!\s+(?:of\s+)?(?-i:[A-Z]))", re.IGNORECASE)
"""A day of the month without its month: "renews on the 15th", "Water £38 monthly, 15th", "Payday: 25th"."""


NTH_WEEKDAY = re.compile(
    r"\b(?P<nth>first|second|third|fourth|last|1st|2nd|3rd|4th)\s+(?P<weekday>mon|tues|wednes|thurs|fri|satur|sun)day"
    r"(?:\s+(?:of|in)\s+(?:the|each|every)\s+month)?\b", re.IGNORECASE)
"""A weekday's turn in each month: "Book club meets first Thursday of the month"."""
NTH = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3, "last": -1}


def days_of_the_month(line: str, today: date) -> list[tuple[str, date]]:
    """(label, the next such day) of a day of the month the line gives without its month: a number
    ("on the 15th") or a weekday's turn ("first Thursday of the month")."""
    found = MONTHLY_DAY.search(line) or NTH_WEEKDAY.search(line)
    when: date | None = None
    if found and found.re is NTH_WEEKDAY:
        when = _nth_weekday(NTH[found.group("nth").lower()], _weekday_number(found.group("weekday")), today)
    elif found:
        when = _day_of_month(int(found.group(1)), today)
    if not found or not when:
        return []
    stop = line.rfind(". ", 0, found.start())  # "Food limit £40 a day. Claims by the 5th": the claims'
    return [(_label_of(line, found, stop + 2 if stop >= 0 else 0), when)]


def stay_of(lines: list[str], today: date) -> tuple[date, date] | None:
    """The first and last of the days `lines` write, a trip's few days apart ("Flight out: …, Fri
    18 Dec", "Flight back: …, Tue 22 Dec"); None unless two days or more, within TRIP_DAYS."""
    written = sorted({when for line in lines for _, when in _dates(line, today, weekdays=False)})
    if len(written) < 2 or (written[-1] - written[0]).days > TRIP_DAYS:
        return None
    return written[0], written[-1]


def _span(days: list[date]) -> str:
    """Asked how many nights or days a trip the lines give two dates of lasts: from one to the other."""
    if len(days) != 2:
        return ""
    first, last = days
    nights = (last - first).days
    return (f"[Saturn dated] {first:%A} {first.day} {first:%B %Y} to {last:%A} {last.day} {last:%B %Y}:"
            f" {nights} night{'s' if nights != 1 else ''}, {nights + 1} days counting both")


def _dates(line: str, today: date, gone: bool = False, weekdays: bool = True, yearly: bool = False
           ) -> list[tuple[str, date]]:
    """(what the line says the date is for, the date) of each date in `line`: "Parents evening, "
    for "Parents evening: 4 December 18:00". A date without a year is the next to come, or with
    `gone` the last gone (so too where the line says it is gone, or it fell this last month and
    is not `yearly`, as a birthday is); with `weekdays`, a line of no date but a weekday is the coming one."""
    found: list[tuple[re.Match[str], date]] = []
    for pattern in WRITTEN_DATES:
        for match in pattern.finditer(line):
            if any(match.start() < taken.end() and taken.start() < match.end() for taken, _ in found):
                continue
            if (when := _date_of(match, today, gone or _said_gone(line, match, today, yearly))) is not None:
                found.append((match, when))
    found.sort(key=lambda pair: pair[0].start())
    ends = [0, *(match.end() for match, _ in found)]
    dates = [(_label_of(line, match, after), when) for (match, when), after in zip(found, ends, strict=False)]
    if dates and dates[0][0]:  # "| The Salt Path | 2026-11-14 | 2026-12-05 |": the due date is the book's too
        dates = [(label or dates[0][0], when) for label, when in dates]
    if weekdays and not dates and (day := WEEKDAY_WRITTEN.search(line)):  # "Dentist Friday 9am": the coming Friday
        wanted = next(n for n, name in enumerate(WEEKDAYS) if name.startswith(day.group(0).lower()[:3]))
        dates.append((_label_of(line, day), today + timedelta(days=(wanted - today.weekday()) % 7)))
    return dates


SAID_GONE = re.compile(
    r"\b(?:last(?:\s+[a-z]+)?|ordered|given|bought|started|done|since|taken|had|opened|frozen|made|sent|paid)$", re.IGNORECASE)
"""Words just before a date without a year that say it is gone ("last ordered 20 Nov", "last came 23 Oct")."""
LINKING_WORDS = re.compile(r"(?:\b(?:on|in|at|the|was|were|is|it|of)\b|\W)*$", re.IGNORECASE)
YEARLY = re.compile(r"\b(?:birthday|bday|anniversary|christmas|every\s+year|yearly|annual(?:ly)?)\b", re.IGNORECASE)
RECENT_DAYS = 31


def dates_gone(line: str, today: date) -> list[tuple[str, date]]:
    """(label, date) of each date `line` writes, the last one gone where it gives no year."""
    return _dates(line, today, gone=True, weekdays=False)


def days_of(line: str, today: date) -> set[date]:
    """The dates a line writes (not its bare weekdays)."""
    return {when for _, when in _dates(line, today, weekdays=False)}


def _said_gone(line: str, date_written: re.Match[str], today: date, yearly: bool) -> bool:
    """Whether a date without a year is the last one gone: the line says so just before it ("last
    given 20 September", "ordered on 25 Nov"), or it fell within the last month and the line is no
    yearly thing ("ready to collect after 2 Dec" the day after is not a date next year; a birthday
    two days gone is)."""
    if date_written.groupdict().get("year"):
        return False
    if SAID_GONE.search(LINKING_WORDS.sub("", line[:date_written.start()])):
        return True
    last_gone = _date_of(date_written, today, gone=True)
    return (not yearly and not YEARLY.search(line) and last_gone is not None
            and (today - last_gone).days <= RECENT_DAYS)


def _label_of(line: str, date_written: re.Match[str], after: int = 0) -> str:
    """What a line says its date is for: the words before the date (since the date before it:
    "Passports: mine expires 14 May 2027, Ava's expires 2 February 2027"), or after it where the
    line opens with it ("Wednesday: swimming, after school club" is the swimming's)."""
    words = re.sub(r"[^\w' ]+", " ", AMOUNT.sub(" ", line[after:date_written.start()])).split()
    if not words or len(words) == 1 and WEEKDAY_WRITTEN.fullmatch(words[0]):  # "Sat 5 Dec: home v Millbrook"
        words = [w for w in re.sub(r"[^\w' ]+", " ", line[date_written.end():]).split() if not w[0].isdigit()]
    topic = TOPIC.match(line)
    if after and topic and topic.end() <= after:  # "Passports: …, Ava's expires 2 February": Passports Ava's expires
        words = [topic.group(1), *words]
    label = " ".join(words[:LABEL_WORDS])
    return f"{label}, " if label else ""


AMOUNT = re.compile(r"[£$€]\s?\d[\d,]*(?:\.\d+)?|\b\d+\.\d+\b")
"""A price in a date's label is no part of its name: "Netflix,10.99,monthly,2026-12-07" is Netflix's."""
TOPIC = re.compile(r"^\W*([A-Za-z][\w' ]{0,30}?):\s")
"""What a whole line is about, before its colon ("Passports: mine expires …")."""


WEEKDAY_WRITTEN = re.compile(r"\b(?:mon|tues?|wed(?:nes)?|thu|thur|thurs|fri|sat(?:ur)?|sun)(?:day)?s?\b", re.IGNORECASE)


def _date_of(match: re.Match[str], today: date, gone: bool = False) -> date | None:
    """The date written; without a year, the next to come (or with `gone`, the last gone)."""
    groups = match.groupdict()
    month = int(groups["month_number"]) if groups.get("month_number") else next(
        n for n, name in enumerate(MONTHS, start=1) if name.startswith(groups["month"].lower()[:3]))
    try:
        if groups.get("year"):
            year = int(groups["year"])
            return date(year + 2000 if year < 100 else year, month, int(groups["day"]))
        this_year = date(today.year, month, int(groups["day"]))
        if gone:
            return this_year if this_year <= today else date(today.year - 1, month, int(groups["day"]))
        return this_year if this_year >= today else date(today.year + 1, month, int(groups["day"]))
    except ValueError:  # "31 February"
        return None


def content_words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]{3,}", text.lower()) if w not in STOP_WORDS}


WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
DAY_NAMED = re.compile(
    r"\b(?P<which>last\s+|this\s+|next\s+)?(?P<day>today|tonight|tomorrow|yesterday|weekend|"
    + "|".join(WEEKDAYS) + r"|(?<=the\s)(?:[12]?\d|3[01])(?:st|nd|rd|th))(?:(?<=day)s)?\b(?!\s+(?:of\s+)?(?-i:[A-Z]))",
    re.IGNORECASE,
)


PAST_ASKED = re.compile(r"\b(?:did|was|were|went|had)\b", re.IGNORECASE)


def days_named(request: str, today: date) -> list[tuple[str, date]]:
    """(the request's word, the day it means) for each day the request names by a word that
    changes with the clock: "tomorrow", "tonight", "Friday" (the coming one, today included;
    "next Friday" the coming one after today, "last Friday" the one before, and asked in the past, "did I …", the last one, today included), "the weekend" (its Saturday and Sunday), "the 9th" (this
    month's, or the next month's once it has gone: "What time do I finish on the 9th?" of a rota
    dated 2026-12-09; asked since it or in the past, the last one: "since the 1st")."""
    named: list[tuple[str, date]] = []
    for match in DAY_NAMED.finditer(request):
        word = match.group("day").lower()
        if word in ("today", "tonight"):
            days = [today]
        elif word in ("tomorrow", "yesterday"):
            days = [today + timedelta(days=1 if word == "tomorrow" else -1)]
        elif word[0].isdigit():
            since = re.search(r"\bsince\s+the\s+$", request[:match.start("day")], re.IGNORECASE) is not None
            gone = since or PAST_ASKED.search(request) is not None
            days = [day] if (day := _day_of_month(int(word[:-2]), today, gone=gone)) else []
        elif (dated := DATE_AFTER.match(request, match.end())) and (on := days_of(dated.group(0), today)):
            days = sorted(on)[:1]  # "Monday 4 January": that date, not the coming Monday
        else:
            wanted = (5, 6) if word == "weekend" else (WEEKDAYS.index(word),)
            which = (match.group("which") or "").strip().lower()
            back = which == "last"
            gone = not which and PAST_ASKED.search(request) is not None  # "did I work on Tuesday": the last one
            soonest = 7 if which == "next" else 0  # "next Friday" asked on a Friday: a week on
            days = [today + timedelta(days=-((today.weekday() - n) % 7 or 7) if back
                                      else -((today.weekday() - n) % 7) if gone else (n - today.weekday()) % 7 or soonest)
                    for n in wanted]
        named += [(word, day) for day in days if (word, day) not in named]
    if LAST_NIGHT.search(request):  # "How much did I sleep last night?": yesterday's row of a log
        named.append(("last night", today - timedelta(days=1)))
    return named


LAST_NIGHT = re.compile(r"\blast\s+night\b", re.IGNORECASE)
DATE_AFTER = re.compile(r",?\s+(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?[A-Za-z]{3,9}\b(?:\s+\d{4})?")
"""A date written after a weekday: "Monday 4 January", "Friday, 11 December 2026"."""


WEEK_NAMED = re.compile(r"\b(last|this|next)\s+week\b", re.IGNORECASE)
WEEKS_ON = {"last": -1, "this": 0, "next": 1}


def week_named(request: str, today: date) -> list[date]:
    """The days, Monday to Sunday, of the week the request names ("How far did I run last week?"):
    a table's rows of those days are the ones asked."""
    found = WEEK_NAMED.search(request)
    if found is None:
        return []
    monday = today - timedelta(days=today.weekday(), weeks=-WEEKS_ON[found.group(1).lower()])
    return [monday + timedelta(days=n) for n in range(7)]


def _weekday_number(stem: str) -> int:
    return next(i for i, name in enumerate(WEEKDAYS) if name.startswith(stem.lower()))


def _nth_weekday(nth: int, weekday: int, today: date) -> date:
    """The coming `nth` (0-based, -1 the last) `weekday` of a month, this month's if still to come."""
    for ahead in range(2):
        month, year = (today.month + ahead - 1) % 12 + 1, today.year + (today.month + ahead - 1) // 12
        days = [d for d in (date(year, month, n) for n in range(1, calendar.monthrange(year, month)[1] + 1))
                if d.weekday() == weekday]
        if (day := days[nth]) >= today:
            return day
    return day


def _day_of_month(number: int, today: date, gone: bool = False) -> date | None:
    """The coming day of the month, today included; `gone`, the last one ("since the 1st")."""
    for ahead in range(3):  # the 31st may be two months on (or back)
        months = today.month - 1 + (-ahead if gone else ahead)
        with contextlib.suppress(ValueError):
            day = date(today.year + months // 12, months % 12 + 1, number)
            if (day <= today) if gone else (day >= today):
                return day
    return None


HOLIDAYS = {"christmas eve": (12, 24), "christmas day": (12, 25), "christmas": (12, 25), "boxing day": (12, 26),
            "new year's eve": (12, 31), "new year's day": (1, 1), "new year": (1, 1), "valentine's day": (2, 14),
            "halloween": (10, 31), "bonfire night": (11, 5)}
HOLIDAY = re.compile(r"\b(?:" + "|".join(re.escape(name) for name in HOLIDAYS) + r")\b", re.IGNORECASE)


def dates_written(request: str, today: date) -> list[tuple[str, date]]:
    """The dates the request writes ("14 February 2027") or names by a day everyone keeps
    ("Christmas"), the next to come where it gives no year."""
    if not DAYS_ASKED.search(request):  # "Where's the Christmas lunch?" asks no day
        return []
    found = [(match.group(0).strip(), when) for pattern in WRITTEN_DATES for match in pattern.finditer(request)
             if (when := _date_of(match, today)) is not None]
    return found + holidays_named(request, today)


def holidays_named(request: str, today: date) -> list[tuple[str, date]]:
    """(the words, the day) of each day everyone keeps the request names ("New Year's Eve"), the next to come."""
    found = []
    for match in HOLIDAY.finditer(request):
        month, day = HOLIDAYS[match.group(0).lower()]
        this_year = date(today.year, month, day)
        found.append((match.group(0), this_year if this_year >= today else date(today.year + 1, month, day)))
    return found


def days_meant(request: str, today: date) -> str:
    """The dates the request's day words mean, for the ground: asked "What's for dinner
    tomorrow?" on a Wednesday, the 1.5B gave Wednesday's dinner from a week's meal plan. So too
    the dates it writes or names by a holiday, with how far they are ("How many weeks until
    Christmas?")."""
    said: dict[str, list[str]] = {}
    for label, day in dates_written(request, today):
        said.setdefault(label, []).append(f"{day:%A} {day.day} {day:%B %Y}, {from_today(day, today)}")
    for word, day in days_named(request, today):
        weekday = word in WEEKDAYS
        label = word.capitalize() if weekday else f"the {word}" if word == "weekend" or word[0].isdigit() else word
        said.setdefault(label, []).append(
            f"{'' if weekday else f'{day:%A} '}{day.day} {day:%B %Y}{' (today)' if weekday and day == today else ''}")
    return "[Saturn dated] " + "; ".join(f"{label} is {' and '.join(days)}" for label, days in said.items()) if said else ""


def ways_written(day: date) -> tuple[str, ...]:
    """How notes write a day: "friday", "fri", "4 dec", "4 december", "dec 4", "2026-12-04", "4/12"."""
    weekday = day.strftime("%A").lower()
    month = day.strftime("%B").lower()
    return (weekday, weekday[:3], f"{day.day} {month[:3]}", f"{day.day} {month}", f"{month[:3]} {day.day}",
            day.isoformat(), f"{day.day}/{day.month}", f"{day:%d/%m}")


MONTH_BY_CLOCK = re.compile(r"\b(last|this|previous)\s+month\b", re.IGNORECASE)


def months_meant(request: str, today: date) -> str:
    """The request with "last month" and "this month" named ("What did I spend last month?" on 3
    December: "… November"), for a table's rows of that month."""
    def named(found: re.Match[str]) -> str:
        back = found.group(1).lower() != "this"
        month = (today.month - 2) % 12 if back else today.month - 1
        return MONTHS[month].capitalize()
    return MONTH_BY_CLOCK.sub(named, request)


def months_written(month: str, today: date) -> tuple[str, ...]:
    """How notes and tables write a month: "nov", "2026-11" (the last one, this month's included, and
    the next: asked about November in December 2026, not 2025's, the electrician's visit)."""
    number = MONTHS.index(month.lower()) + 1
    last = today.year if number <= today.month else today.year - 1
    return (month[:3].lower(), *(f"{year}-{number:02d}" for year in (last, last + 1)))
