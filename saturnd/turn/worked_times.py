"""Times of day and lengths of time a line or the request gives, worked out by the harness.

Asked "How long is my train journey?" of "Usual train: 07:42 from Leeds, arrives York 08:10", a
1.5B subtracts clock times no better than it adds; asked when it will get there, leaving at
2:15pm for three and a half hours, it said "45 minutes". Like the table's totals and the dates,
the answer is worked out before the model reads and shown after the excerpt it comes from.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction

from saturnd.tools.word_match import stems
from saturnd.turn.dates import MONTHS, WEEKDAY_WRITTEN
from saturnd.turn.made_up import NUMBER_WORDS

CLOCK_SPAN = re.compile(r"\b(?P<a>\d{1,2})(?:[:.](?P<am>\d\d))?(?:\s*(?P<ap>[ap]m))?\s*(?:-|–|to|till|until)\s*"
                        r"(?P<b>\d{1,2})(?:[:.](?P<bm>\d\d))?(?:\s*(?P<bp>[ap]m))?\b"
                        r"(?!\s*(?:st|nd|rd|th)\b|\s+(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))", re.IGNORECASE)
"""A span of the day: "9 till 5", "12-8pm", "09:00 to 17:30"; not "8 to 10 January"."""
AFTERNOON_START = 7
"""A span starting before 7 without am or pm starts in the afternoon ("2 till 8": 14:00 to 20:00)."""


def span_hours(span: re.Match[str]) -> tuple[tuple[int, int], tuple[int, int]]:
    """(hour, minute) of a span's start and end, on a 24-hour clock; an end no later than its start is pm."""
    def hour(value: str, half: str | None) -> int:
        number = int(value) % 12 if half else int(value)
        return number + 12 if half and half.lower() == "pm" else number
    start = hour(span["a"], span["ap"] or (span["bp"] if span["bp"] and int(span["a"]) < int(span["b"]) else None))
    start += 12 if not (span["ap"] or span["bp"]) and start < AFTERNOON_START else 0
    end = hour(span["b"], span["bp"])
    end += 12 if end <= start and end < 12 else 0
    return (start, int(span["am"] or 0)), (end, int(span["bm"] or 0))


CLOCK = re.compile(
    r"\b(?P<hour>2[0-3]|[01]?\d)(?:[:.](?P<minute>[0-5]\d))?\s*(?P<half>[ap]\.?m\b\.?)?", re.IGNORECASE)
HOW_LONG = re.compile(r"\bhow\s+long\b(?!.*\b(?:until|till|til|ago|since|been|left|before)\b)", re.IGNORECASE)
MAX_SPANS = 3


def time_between(lines: list[str], request: str) -> str:
    """Asked how long a thing lasts, the time from the first clock time to the second of each line
    holding two ("07:42 … 08:10": 28 minutes; past midnight it runs on to the next day)."""
    if not HOW_LONG.search(request):
        return ""
    spans = [(line, times) for line in lines if len(times := clock_times(line)) == 2 and not _days_apart(line, times)]
    if len(spans) > MAX_SPANS:
        asked = stems(request)
        spans = [(line, times) for line, times in spans if asked & stems(line)]
    said = []
    for line, ((first_written, first), (second_written, second)) in spans[:MAX_SPANS]:
        minutes = (second - first) % (24 * 60)
        label = re.sub(r"\s+", " ", line.split(first_written)[0].strip(" -*:,"))
        said.append(f"{label + ', ' if label else ''}{first_written} to {second_written}: {_duration(minutes)}")
    return f"[Saturn worked out] {'; '.join(said)}" if said else ""


ANOTHER_DAY = re.compile(rf"{WEEKDAY_WRITTEN.pattern}|\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:{'|'.join(m[:3] for m in MONTHS)})",
                         re.IGNORECASE)


def _days_apart(line: str, times: list[tuple[str, int]]) -> bool:
    """Whether a day is written between a line's two times: "out Sat 12 December 08:40 …, back Wed
    16 December 19:05" is two flights, not a journey of 10 hours 25 minutes."""
    (first, _), (second, _) = times
    start = line.index(first) + len(first)
    return bool(ANOTHER_DAY.search(line[start:line.index(second, start)]))


def clock_times(line: str) -> list[tuple[str, int]]:
    """(as written, minutes after midnight) of each time of day in `line`: "08:10", "2.30pm",
    "9am"; a bare number ("3 nights") is none."""
    found = []
    for match in CLOCK.finditer(line):
        if match.group("minute") is None and match.group("half") is None:
            continue
        hour, minute = int(match.group("hour")), int(match.group("minute") or 0)
        half = (match.group("half") or "").lower()[:1]
        if half and hour > 12:
            continue
        hour = hour % 12 + (12 if half == "p" else 0) if half else hour
        found.append((match.group(0).strip(), hour * 60 + minute))
    return found


def _duration(minutes: int) -> str:
    hours, minutes = divmod(minutes, 60)
    parts = [f"{hours} hour{'s' if hours != 1 else ''}"] * bool(hours)
    parts += [f"{minutes} minute{'s' if minutes != 1 else ''}"] * bool(minutes or not hours)
    return " ".join(parts)


ARRIVAL_ASKED = re.compile(r"\b(?:get|gets|getting)\s+(?:in|there|back|home)\b|\b(?:arriv|land|reach)\w*|"
                           r"\bwhat\s+time\b.*\b(?:flight|train|bus|coach|ferry)\b", re.IGNORECASE)
"""Asked when a journey gets in, or what time it is (its leaving, told apart from its landing)."""
ARRIVAL = re.compile(r"\b(?:arriv\w*|lands?|landing|gets?\s+in|reach\w*|due\s+in(?:to)?)\b", re.IGNORECASE)


LEAVES_WORD = re.compile(r"[,\s]*\b(?:leaves|leaving|departs|departing|dep)\b[\s:]*$", re.IGNORECASE)


def arrival_times(lines: list[str], request: str) -> str:
    """Asked when a journey gets in, of each line that leaves at one time and arrives at another
    ("Usual train: 07:42 from Leeds, arrives York 08:10"), both by name: asked "What time does my
    train get in?", the 1.5B answered the first time, 07:42. Where the request names a journey
    another line's label tells without its arrival ("land back" of "Flight back: … leaves Rome 15:10"), none."""
    if not ARRIVAL_ASKED.search(request):
        return ""
    said = []
    for line in lines:
        arrives, times = ARRIVAL.search(line), clock_times(line)
        if len(times) != 2 or not arrives or not line.find(times[0][0]) < arrives.start() < line.rfind(times[1][0]):
            continue
        label = re.sub(r"\s+", " ", LEAVES_WORD.sub("", line.split(times[0][0])[0]).strip(" -*:,"))  # not "leaves: leaves"
        said.append((line, f"{label + ': ' if label else ''}leaves {times[0][0]}, {line[arrives.start():].strip(' .')}"))
    asked = stems(request) - JOURNEY_WORDS
    if asked and any((labelled := LABEL.match(line)) and asked & stems(labelled.group(1))
                     for line in lines if all(line != journey for journey, _ in said)):
        said = [(line, entry) for line, entry in said if asked & stems(line)]  # "land back": not the flight out's
    return f"[Saturn read] {'; '.join(entry for _, entry in said[:MAX_SPANS])}" if said else ""


LABEL = re.compile(r"^\W*([A-Za-z][A-Za-z '-]{0,30}):")
"""A line's label ("Flight back:"), not an answer's words before a time ("Your flight leaves at 10:30")."""
JOURNEY_WORDS = stems("what time when does do did will get gets getting in arrive arrives arriving land lands landing")


WHAT_TIME = re.compile(r"\b(?:what|which)\s+time\b(?!\s+is\s+it\b)|\bwhen\s+does\b.*\b(?:leave|arrive|get\s+in|start|finish|open|close)\b",
                       re.IGNORECASE)


def no_time_given(answer: str, request: str, seen: str) -> str | None:
    """The shown lines with a time of day about what the request asks, when it asks what time and
    the answer gives none: asked "What time does my train get in?", the 1.5B answered "Season
    ticket expires 31 January", the line above "Usual train: 07:42 from Leeds, arrives York 08:10"."""
    if not WHAT_TIME.search(request) or clock_times(answer):
        return None
    asked = stems(request) - {"time"}
    timed = [line.strip() for line in seen.splitlines()
             if not line.startswith(("[Saturn", "---")) and clock_times(line) and asked & stems(line)]
    return "\n".join(timed[:MAX_SPANS]) or None


SPOKEN = r"\d+(?:\.\d+)?|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))
PART = {"half": Fraction(1, 2), "quarter": Fraction(1, 4), "three quarters": Fraction(3, 4)}
LENGTH_PIECE = re.compile(
    rf"\b(?P<n>{SPOKEN})(?:\s+and\s+(?:a\s+)?(?P<pre>half|quarter|three\s+quarters))?[\s-]+"
    r"(?P<unit>hours?|hrs?|minutes?|mins?)\b(?:\s+and\s+(?:a\s+)?(?P<post>half|quarter|three\s+quarters)\b)?|"
    r"\b(?P<part>half|(?:a\s+)?quarter|three\s+quarters)\s+(?:of\s+)?an\s+hour\b", re.IGNORECASE)
LEAVING = re.compile(r"\b(?:when|what\s+time)\s+(?:should|do|must|shall|would|have|need)\s+(?:I|we)\s+(?:to\s+)?"
                     r"(?:leave|set\s+off|go|start|head|get\s+up)\b|\bby\s+\d|\b(?:before|beforehand|earlier)\b",
                     re.IGNORECASE)
CONVERSION_ASKED = re.compile(r"\bhow\s+many\s+(minutes|hours|mins)\b", re.IGNORECASE)
WHEN_ASKED = re.compile(r"\b(?:when|what\s+time)\b", re.IGNORECASE)


def length_in_minutes(text: str) -> Fraction | None:
    """The length of time `text` gives, in minutes: "three and a half hours" 210, "an hour and three
    quarters" 105, "2 hours 15 minutes" 135, "half an hour" 30."""
    total, found = Fraction(0), False
    for piece in LENGTH_PIECE.finditer(text):
        found = True
        if piece.group("part"):
            total += 60 * PART[re.sub(r"^a\s+", "", piece.group("part").lower())]
            continue
        number = _spoken(piece.group("n")) + sum(PART[" ".join(p.lower().split())] for p in
                                                 (piece.group("pre"), piece.group("post")) if p)
        total += number * (60 if piece.group("unit").lower().startswith("h") else 1)
    return total if found else None


LENGTHS_IN_ALL = re.compile(
    r"\b(?:how\s+long|how\s+much\s+time|how\s+many\s+(?:hours|minutes|mins))\b.*\b(?:week|altogether|in\s+all|total)\b|"
    r"\btotal\s+(?:time|hours|minutes)\b", re.IGNORECASE)


def lengths_summed(lines: Sequence[str], request: str) -> str:
    """Asked how long in all (or in a week), the lengths of time the lines give summed ("Mon: park,
    40 min", "Thu: woods, 1 hour 15 min" …: 6 hours 5 minutes); the 1.5B gave one line's."""
    if not LENGTHS_IN_ALL.search(request):
        return ""
    found = [minutes for line in lines if not line.startswith("[Saturn") and not clock_times(line)
             and (minutes := length_in_minutes(line)) is not None]
    if len(found) < 2:
        return ""
    return (f"[Saturn worked out] lengths of time over {len(found)} lines: "
            f"{' + '.join(_duration(int(m)) for m in found)} = {_duration(int(sum(found)))}")


def times_worked_out(request: str, lines: Sequence[str] = ()) -> str:
    """A clock time the request gives moved by a length of time it (or else a shown line, "Oven:
    190C for 40 minutes") gives, asked when ("I'm leaving at 2:15pm and the drive takes three and a
    half hours. When will I get there?": 5:45pm; asked when to leave, back); or a length asked in
    other units ("How many minutes is an hour and three quarters?": 105)."""
    clocks = clock_times(request)
    length = length_in_minutes(CLOCK.sub(lambda m: " " if m.group("minute") or m.group("half") else m.group(0), request))
    if asked := CONVERSION_ASKED.search(request):
        if length is None or clocks:
            return ""
        minutes = asked.group(1).lower().startswith("min")
        return f"[Saturn worked out] {plain(length if minutes else length / 60)} {'minutes' if minutes else 'hours'}"
    if len(clocks) != 1 or not WHEN_ASKED.search(request):
        return ""
    written, at = clocks[0]
    source = "the request"
    if length is None:
        from_lines = [(line, found) for line in lines if (found := length_in_minutes(line)) is not None]
        if len(from_lines) != 1:
            return ""
        source, length = from_lines[0][0].strip(), from_lines[0][1]
    back = LEAVING.search(request) is not None
    moved = (at - int(length) if back else at + int(length)) % (24 * 60)
    said = _written_like(moved, written)
    length_said = _duration(int(length))
    from_where = f" ({source})" if source != "the request" else ""
    return f"[Saturn worked out] {written} {'-' if back else '+'} {length_said}{from_where} = {said}"


BEFORE_EVENT = re.compile(r"(?P<length>\b(?:\d+|an?|half\s+an)\s+(?:minutes?|mins?|hours?|hrs?))\s+before\s+(?:the\s+)?"
                          r"(?P<event>[a-z][\w-]*)", re.IGNORECASE)
"""A time set by another: "Meet 45 minutes before kick-off"."""


def before_the_event(lines: Sequence[str], request: str) -> str:
    """Asked what time, each time a line sets by another's ("Meet 45 minutes before kick-off") worked
    out from the times the lines give that other ("Home kick-off 10am, away kick-off 11am"): asked
    what time to be there tomorrow, away, the 1.5B gave the clock's time now."""
    if not WHEN_ASKED.search(request):
        return ""
    said = []
    for line in lines:
        if (found := BEFORE_EVENT.search(line)) is None or (length := length_in_minutes(found["length"])) is None:
            continue
        event = re.escape(found["event"])
        timed = (rf"(?P<what>(?:\b[A-Za-z]+\s+)?{event})\W{{0,3}}(?:(?:starts?|begins?|opens?|is|at)\s+){{0,2}}"
                 r"(?P<time>\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm)?)")
        for other in lines:
            for at in re.finditer(timed, other, re.IGNORECASE):
                if clocks := clock_times(at["time"]):
                    written, minutes = clocks[0]
                    said.append(f"{at['what'].strip()} {written} - {_duration(int(length))} = "
                                f"{_written_like((minutes - int(length)) % (24 * 60), written)}")
    return f"[Saturn worked out] {'; '.join(said[:MAX_SPANS])}" if said else ""


DATED_ROW = re.compile(r"^\[Saturn dated\] (?P<day>[^:]+): (?P<row>.+)$")
BEFORE_WORKED = re.compile(r"^\[Saturn worked out\] (?P<parts>(?:[^;=]+ - [^;=]+ = [^;]+)(?:; [^;=]+ - [^;=]+ = [^;]+)+)$")


def before_the_day_asked(request: str, shown: str) -> str:
    """Of the times worked out before an event of two kinds ("Home kick-off 10am - 45 minutes =
    9:15am; away kick-off 11am - 45 minutes = 10:15am"), the one of the kind the day asked's row
    names ("tomorrow, Saturday 5 December: …, venue away"): the 1.5B gave the row, not the time."""
    if not WHEN_ASKED.search(request):
        return ""
    lines = shown.splitlines()
    if timed := _before_the_days_row(lines):
        return timed
    for line in lines:
        if (worked := BEFORE_WORKED.match(line)) is None:
            continue
        parts = worked["parts"].split("; ")
        for dated in filter(None, map(DATED_ROW.match, lines)):
            cells = {cell.strip().lower() for item in dated["row"].split(", ") for cell in item.split()[1:]}
            kinds = [part for part in parts if part.split()[0].lower() in cells]
            if len(kinds) == 1:
                return f"[Saturn worked out] {dated['day']} is {kinds[0].split()[0].lower()}: {kinds[0]}"
    return ""


def _before_the_days_row(lines: list[str]) -> str:
    """A time set by another ("Load-in 90 minutes before the start") from the day's row of another
    file that gives that other ("tomorrow, Saturday 5 December: …, start 21:00")."""
    for line in lines:
        if line.startswith("[Saturn") or (found := BEFORE_EVENT.search(line)) is None:
            continue
        length = length_in_minutes(found["length"])
        for dated in filter(None, map(DATED_ROW.match, lines)):
            at = re.search(rf"\b{re.escape(found['event'])}\s+(?P<time>\d{{1,2}}[:.]\d\d(?:\s*[ap]m)?)", dated["row"], re.IGNORECASE)
            if length is not None and at and (clocks := clock_times(at["time"])):
                written, minutes = clocks[0]
                thing = line.strip(" -*•").split(":")[0].strip()
                return (f"[Saturn worked out] {dated['day']}: {found['event']} {written} - {_duration(int(length))} = "
                        f"{_written_like((minutes - int(length)) % (24 * 60), written)} ({thing})")
    return ""


def _written_like(minutes: int, example: str) -> str:
    hour, minute = divmod(minutes, 60)
    if re.search(r"[ap]\.?m", example, re.IGNORECASE):
        return f"{hour % 12 or 12}:{minute:02d}{'pm' if hour >= 12 else 'am'}"
    return f"{hour:02d}:{minute:02d}"


def _spoken(written: str) -> Fraction:
    return Fraction(NUMBER_WORDS.get(written.lower()) or written)


def plain(value: Fraction) -> str:
    """2 for 2, 2.5 for 5/2, 4.33 for 13/3."""
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.2f}".rstrip("0").rstrip(".")


def another_journeys_time(answer: str, request: str, seen: str) -> str | None:
    """The line of the journey asked, when the answer's time is another journey's: asked "What time
    do we land back?" with "Flight back: …, leaves Rome 15:10" shown, the 1.5B gave the flight
    out's landing, 11:05."""
    if not ARRIVING_WORDS.search(request) or not (given := {minutes for _, minutes in clock_times(answer)}):
        return None
    asked = stems(request) - JOURNEY_WORDS
    lines = [line.strip() for line in seen.splitlines() if not line.startswith(("[Saturn", "---")) and clock_times(line)]
    named = [line for line in lines if (labelled := LABEL.match(line)) and asked & stems(labelled.group(1))]
    if len(named) != 1 or given & {minutes for _, minutes in clock_times(named[0])}:
        return None
    used = next((line for line in lines if line != named[0] and given & {minutes for _, minutes in clock_times(line)}), None)
    return f'{used}; the line about it is "{named[0]}"' if used else None


ARRIVING_WORDS = re.compile(r"\b(?:get|gets|getting)\s+(?:in|there|back|home)\b|\b(?:arriv|land|reach)\w*", re.IGNORECASE)
READ_JOURNEY = re.compile(r"(?P<entry>[^;\]]*?leaves (?P<leaves>[^,;]+), (?:arriv\w*|lands?|landing|gets? in|reach\w*)\b[^;]*)")


def arrival_for_leaving(answer: str, request: str, seen: str) -> str | None:
    """The journey's line, when asked what time it is and the answer gives only its arrival: asked
    "What time is our flight to Rome?" with "Flight out: …: leaves 07:25, lands 11:05" shown, the
    1.5B answered 11:05."""
    if not ARRIVAL_ASKED.search(request) or ARRIVING_WORDS.search(request):
        return None
    given = {minutes for _, minutes in clock_times(answer)}
    journeys = [found for line in seen.splitlines() if line.startswith("[Saturn read]")
                for found in READ_JOURNEY.finditer(line.removeprefix("[Saturn read]"))]
    asked = stems(request) - JOURNEY_WORDS
    shared = [len(asked & stems(found["entry"].split(":")[0])) for found in journeys]
    named = [found for found, count in zip(journeys, shared, strict=True) if count and count == max(shared)]
    for found in named or journeys:  # "our train home": its line, not the train out's
        leaving = {minutes for _, minutes in clock_times(found["leaves"])}
        if given and leaving and not given & leaving:
            return found["entry"].strip()
    return None
