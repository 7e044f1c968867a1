"""Values in an answer that nothing sourced: the model's own numbers, times and days.

A 1.5B cannot add and fills gaps with plausible values: it turned three and a half hours into
"45 minutes", gave a flight time no file held, and answered "The current weather in London is
20 degrees" with get_current_weather at hand. Each check finds the value, and claims.py decides
what the answer is sent back with.
"""

from __future__ import annotations

import re

from protocol.methods import PassTrace
from saturnd.gate.provenance import without_paths
from saturnd.tools.periods import PERIOD, period_named
from saturnd.tools.word_match import stems

COMPUTE_REQUEST = re.compile(
    r"\b(?:total|sum|add(?:ed)? up|altogether|in all|how much|how long|difference|average|spent|spend|"
    r"cost|owe|left over|remaining|how many\s+(?:seconds|minutes|hours|days|weeks|months|years))\b",
    re.IGNORECASE,
)
NUMBER = re.compile(r"(?<![\w.])(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?")
NUMBER_OR_TIME = re.compile(r"(?<![\w.:])(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?::\d\d)?(?:\.\d+)?")
"""A comma only inside a number of thousands ("1,745"): "2026-11-23,8.1", a CSV row, is 23 and 8.1."""
CALCULATE = "calculate"
NAMED_DAY = re.compile(
    r"\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|"
    r"july|august|september|october|november|december)\b",
    re.IGNORECASE,
)


def calculated(passes: list[PassTrace]) -> bool:
    """Whether a calculate call ran this turn."""
    return any(c.name == CALCULATE and c.fate == "ran" for p in passes for c in p.calls)


def uncomputed_number(answer: str, request: str, seen: str, passes: list[PassTrace]) -> str | None:
    """A number in the answer to a request to add up that the model made up: not in anything it
    was shown (`seen`) and not worked out by a calculate call that ran."""
    if not COMPUTE_REQUEST.search(request) or calculated(passes):
        return None
    shown = {plain_number(n) for n in NUMBER.findall(without_paths(seen))} | _worked_out(request)
    for number in NUMBER.findall(answer):
        if plain_number(number) not in shown:
            return number
    return None


def _worked_out(request: str) -> set[str]:
    """What the request's own numbers come to: their sum, and for two, their difference, product
    and quotient. An answer that gives one of these was worked out right ("3.2 km … and 4.5 km …
    How far is that altogether?": "7.7 km"; sent to calculate anyway, the 1.5B thought for 40 s
    and said the same)."""
    values = [float(n.replace(",", "")) for n in NUMBER.findall(request)]
    if len(values) < 2:
        return set()
    results = {sum(values)}
    if len(values) == 2:
        a, b = values
        results |= {a - b, b - a, a * b} | ({a / b} if b else set())
    return {plain_number(f"{round(r, 2):.2f}") for r in results}


def copied_number(answer: str, request: str, passes: list[PassTrace]) -> str | None:
    """The answer to a request to work something out from two or more numbers of its own that only
    gives back numbers the request gave, when no calculate call ran ("… takes 2 hours 45 minutes
    and boarding starts 40 minutes before take-off, how long is that in total?": the 1.5B answered
    "2 hours 45 minutes")."""
    if not COMPUTE_REQUEST.search(request) or not works_out(request) or calculated(passes):
        return None
    given = {plain_number(n) for n in NUMBER.findall(request)}
    numbers = NUMBER.findall(answer)
    return numbers[0] if numbers and all(plain_number(n) in given for n in numbers) else None


HOW_LONG = re.compile(r"\bhow long\b(?!\s+ago)", re.IGNORECASE)
LENGTH = re.compile(r"\b\d+(?:\.\d+)?\s*(?:h|hrs?|hours?|mins?|minutes?)\b|\b(?:an|half an)\s+hour\b", re.IGNORECASE)
CLOCK = re.compile(r"\b(?:[01]?\d|2[0-3]):[0-5]\d\b")


LENGTH_IN_WORDS = re.compile(
    r"\b(?:an?|one|two|three|four|five|six|ten|fifteen|twenty|thirty|forty|forty-five|ninety)\s+"
    r"(?:hours?|minutes?|mins?)\b",
    re.IGNORECASE,
)


NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "twenty-five": 25,
                "thirty": 30, "forty": 40, "forty-five": 45, "fifty": 50, "sixty": 60, "ninety": 90}


def clock_moves(request: str) -> str | None:
    """'"17:45 - 25 min" or "17:45 + 25 min"' for a request with a clock time and a length of time
    ("My train is at 17:45 and it's a 25 minute walk to the station. When should I leave?"): the
    time asked for is worked out, not looked up (sent back to look it up, the 1.5B answered "I
    could not find it."; sent to calculate, it wrote "17:45 + 25", 25 hours)."""
    clock = CLOCK.search(request)
    length = LENGTH.search(request) or LENGTH_IN_WORDS.search(request)
    if clock is None or length is None:
        return None
    text = length.group(0).lower()
    number = re.search(r"\d+(?:\.\d+)?", text)
    amount = number.group(0) if number else "0.5" if "half" in text else str(NUMBER_WORDS.get(text.split()[0], 1))
    unit = "min" if "min" in text else "h"
    return f'"{clock.group(0)} - {amount} {unit}" or "{clock.group(0)} + {amount} {unit}"'


def unworked_length(answer: str, request: str, passes: list[PassTrace]) -> str | None:
    """"later - earlier" for a request asking how long that the answer meets with two clock
    times and no length, when no calculate call ran ("How long is my flight to Lisbon?": the 1.5B
    answered "The flight leaves at 09:15 and lands at 12:45 local time")."""
    if not HOW_LONG.search(request) or LENGTH.search(answer) or calculated(passes):
        return None
    times = list(dict.fromkeys(CLOCK.findall(answer)))
    return f"{times[1]} - {times[0]}" if len(times) == 2 else None


def unsourced_value(answer: str, request: str, seen: str) -> str | None:
    """A number, day or month in the answer that neither the request nor anything shown holds; to
    "how many", a count of the items of a list shown is the model's own reading, not made up."""
    shown = {plain_number(n) for n in NUMBER_OR_TIME.findall(f"{request}\n{seen}")}
    if COUNT_REQUEST.search(request):
        shown |= {str(n) for n in list_lengths(seen)}
    for value in NUMBER_OR_TIME.findall(answer):
        if plain_number(value) not in shown:
            return value
    days = {d.lower() for d in NAMED_DAY.findall(f"{request}\n{seen}")}
    return next((d for d in NAMED_DAY.findall(answer) if d.lower() not in days), None)


COUNT_REQUEST = re.compile(r"\bhow many\b|\bnumber of\b", re.IGNORECASE)
BLOCK_EDGE = re.compile(r"^(?:\s*$|--- |</?outside\b|\[data from outside)")
HEADING = re.compile(r"^\s*#|:\s*$")


def list_lengths(seen: str) -> set[int]:
    """How many items each list shown holds: the lines of each block of text (an excerpt, a file
    read, a paragraph) that are not a heading ("Books to read:", "# Trip"), and that count less
    the block's first line (a table's header row)."""
    lengths: set[int] = set()
    for block in _blocks(seen):
        items = [item for item in block if not HEADING.search(item)]
        if items:
            lengths |= {len(items), len(items) - 1} - {0}
    return lengths


ARITHMETIC = re.compile(r"\d\s*(?:[-+*/×÷^=]|plus|minus|times|divided)\s*\(?\s*[\d.a-z]", re.IGNORECASE)


def works_out(request: str) -> bool:
    """Whether the answer may be worked out from the request's own numbers: two or more of them, or
    a sum written out. One number ("staying for 5 days") does not make "21.2°C" the weather's."""
    return len(NUMBER.findall(request)) >= 2 or ARITHMETIC.search(request) is not None


def plain_number(text: str) -> str:
    """A number as compared: no thousands comma, no trailing zeros of a fraction, no leading zero of
    a whole number or an hour ("09:00" is the answer's "9:00", "07" its "7")."""
    plain = text.replace(",", "")
    if "." in plain:
        return plain.rstrip("0").rstrip(".")
    whole, colon, minutes = plain.partition(":")
    return (whole.lstrip("0") or "0") + colon + minutes


CONVERSIONS = {("month", "year"): "* 12", ("week", "year"): "* 52", ("year", "month"): "/ 12", ("year", "week"): "/ 52"}
"""(the period a figure is given for, the period asked) -> how to turn one into the other. Not days
into weeks: dinner money "£2.40 a day" is five days' a week, rent by the day seven."""
EVERY_FEW = re.compile(r"\bevery\s+(?P<count>\d{1,2}|two|three|four|six|eight)\s+(?P<unit>weeks|months)\b",
                       re.IGNORECASE)
"""A figure paid every so many weeks or months ("every 4 weeks, £15"): asked a year's, 15 * 52 / 4."""
PER_YEAR = {"weeks": "52", "months": "12"}
RANGE_OR_TIME = re.compile(r"\d\s*[-–:]\s*\d")
DURATION = re.compile(r"\d\s*(?:hours?|hrs?|minutes?|mins?|days?|weeks?)\b", re.IGNORECASE)
""""2 tablets every 6 hours, no more than 6 in 24 hours": its numbers are no parts of one amount."""


def unconverted_amount(answer: str, request: str, seen: str, passes: list[PassTrace]) -> str | None:
    """The calculate expression for an answer that gives the user's figures as a file gives them
    and not for the period the request asks, when no calculate call ran: "What do I pay a year for
    Spotify?" answered "Spotify,11.99" (a row under "service,monthly"): "11.99 * 12"; "How many
    scoops does Biscuit get a day?" answered "2 scoops morning, 1 evening": "2 + 1"."""
    asked = _periods(request)
    numbers = NUMBER.findall(answer)
    if len(asked) != 1 or not numbers or calculated(passes):
        return None
    wanted = asked.pop()
    for block in _blocks(seen):
        for index, line in enumerate(block):
            in_line = {plain_number(n) for n in NUMBER.findall(line)}
            if not all(plain_number(n) in in_line for n in numbers):
                continue
            if (every := EVERY_FEW.search(line)) and wanted == "year" and len(numbers) == 1:
                count = COUNTS.get(every.group("count").lower(), every.group("count"))
                return f"{plain_number(numbers[0])} * {PER_YEAR[every.group('unit').lower()]} / {count}"
            given = _periods(line) or (_periods(block[0]) if index and "," in block[0] else set())
            if len(given) == 1 and (conversion := CONVERSIONS.get((given.pop(), wanted))) and len(numbers) == 1:
                return f"{plain_number(numbers[0])} {conversion}"
            if not given and len(numbers) >= 2 and not RANGE_OR_TIME.search(line) and not DURATION.search(line):
                return " + ".join(plain_number(n) for n in numbers)
    return None


SCALED = re.compile(
    r"\b(?:(?P<double>double|doubled|twice)|(?P<triple>triple|tripled|treble|three\s+times)|(?P<half>half|halve|halved)"
    r"|(?P<count>two|three|four|2|3|4)\s+(?:batch(?:es)?|lots|loads|times))\b",
    re.IGNORECASE,
)
COUNTS = {"two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "eight": "8", "ten": "10", "twelve": "12"}
FOR_PEOPLE = re.compile(
    r"\b(?:for|feed|serve)\s+(?P<people>\d{1,2}|two|three|four|five|six|eight|ten|twelve)"
    r"(?!\s*(?:[:.]\d|am\b|pm\b|o'clock|minutes|mins|hours|days|weeks))\b", re.IGNORECASE)
SERVES = re.compile(r"\b(?:serves|makes|feeds|for)\s+(?P<people>\d{1,2})\b", re.IGNORECASE)
"""A recipe's own count ("Chilli (serves 4)", "Pancakes (makes 8)") in the block the amount is from."""


WORKED_OUT = "[Saturn worked out]"
"""How a line the harness worked out for the ground opens."""
WORKED_RESULT = re.compile(r"(?:→|=)\s*[£$€]?(\d[\d,]*(?:\.\d+)?)")


def worked_out_already(answer: str, seen: str) -> bool:
    """Whether a number the answer gives is a result the harness worked out in the ground ("500g
    beef mince → 1000g" for the chilli for 8): no recipe's own figure to be scaled again."""
    results = {plain_number(n) for line in seen.splitlines() if line.startswith(WORKED_OUT)
               for n in WORKED_RESULT.findall(line)}
    return any(plain_number(n) in results for n in NUMBER.findall(answer))


def scaled_amount(answer: str, request: str, seen: str, passes: list[PassTrace]) -> str | None:
    """The calculate expression for an answer that gives an amount as the user's files give it
    when the request asks for it doubled, tripled or halved, or for more people than the recipe
    serves, and no calculate call ran: "How many eggs for a double batch of pancakes?" answered
    "2 eggs", the recipe's own: "2 * 2"."""
    asked = SCALED.search(request)
    given = {plain_number(n) for n in NUMBER.findall(request)}
    numbers = [n for n in map(plain_number, NUMBER.findall(answer)) if n not in given]  # "… for 24 flapjacks"
    if len(numbers) != 1 or calculated(passes):
        return None
    shown = {plain_number(n) for n in NUMBER.findall(seen)} - given
    if numbers[0] not in shown or worked_out_already(answer, seen):
        return None
    if asked is None:
        return _for_more_people(numbers[0], request, seen)
    factor = ("2" if asked.group("double") else "3" if asked.group("triple") else "0.5" if asked.group("half")
              else COUNTS.get(asked.group("count").lower(), asked.group("count")))
    return f"{numbers[0]} * {factor}"


RATE = re.compile(
    r"(?:[£$€]\s?)?(?P<amount>\d+(?:\.\d+)?)\s*(?P<cents>p|c|pence|cents)?\s+(?:a|an|per|each)\s+"
    r"(?P<unit>mile|km|kilometre|kilometer|hour|hr|day|night|week|month|person|head|kg|kilo|item|page|word)s?\b",
    re.IGNORECASE)


def at_a_rate(answer: str, request: str, seen: str, passes: list[PassTrace]) -> str | None:
    """The calculate expression for an answer that gives the files' quantity when the request asks
    for it at a rate, and no calculate call ran: "What's my mileage claim at 45p a mile for
    November?" answered "89 miles", the log's total: "89 * 45 / 100"."""
    rate = RATE.search(request)
    if rate is None or calculated(passes):
        return None
    given = {plain_number(n) for n in NUMBER.findall(request)}
    numbers = [n for n in map(plain_number, NUMBER.findall(answer)) if n not in given]
    shown = {plain_number(n) for n in NUMBER.findall(seen)} - given
    if len(numbers) != 1 or numbers[0] not in shown:
        return None
    amount = rate.group("amount")
    return f"{numbers[0]} * {amount} / 100" if rate.group("cents") else f"{numbers[0]} * {amount}"


LEFT_ASKED = re.compile(r"\b(?:left|leftover|remaining|remains?|spare)\b", re.IGNORECASE)


def left_over(answer: str, request: str, seen: str, passes: list[PassTrace]) -> str | None:
    """The calculate expression for an answer that gives a figure of the user's files as what is
    left of an amount the request gives, when no calculate call ran: "What's left of my money
    each month if I earn 2000?" answered with the budget's total, "1595": "2000 - 1595"."""
    given = NUMBER.findall(request)
    if not LEFT_ASKED.search(request) or len(given) != 1 or calculated(passes):
        return None
    amount = plain_number(given[0])
    numbers = [n for n in map(plain_number, NUMBER.findall(answer)) if n != amount]  # "If you earn 2000 …"
    shown = {plain_number(n) for n in NUMBER.findall(seen)}
    return f"{amount} - {numbers[0]}" if len(numbers) == 1 and numbers[0] in shown else None


STILL_TO_GO = re.compile(r"\bhow\s+much\s+more\b|\bstill\s+(?:need|to\s+(?:save|pay|find))\b|\bto\s+go\b|\bshort\b",
                         re.IGNORECASE)


def still_to_go(answer: str, request: str, seen: str, passes: list[PassTrace]) -> str | None:
    """The calculate expression for an answer that gives what there is so far when the request
    asks how much more is needed, and no calculate call ran: "How much more do I need for the
    holiday fund?" answered "525" (saved so far), the goal's line "Holiday fund goal: £1200":
    "1200 - 525". The goal is the larger figure of the line sharing most words with the request."""
    if not STILL_TO_GO.search(request) or calculated(passes):
        return None
    numbers = [plain_number(n) for n in NUMBER.findall(answer)]
    shown = {plain_number(n) for n in NUMBER.findall(seen)}
    worked = {plain_number(n) for line in seen.splitlines() if line.startswith(WORKED_OUT)
              for n in re.findall(r"=\s*(\d[\d,]*(?:\.\d+)?) more to go", line)}  # the answer worked out
    if len(numbers) != 1 or numbers[0] not in shown or numbers[0] in worked:
        return None
    asked = stems(request) - stems("how much more need still")
    lines = [line for line in seen.splitlines() if not line.startswith("[Saturn") and asked & stems(line)]
    best = max(lines, key=lambda line: len(asked & stems(line)), default="")
    larger = [n for n in map(plain_number, NUMBER.findall(best)) if float(n) > float(numbers[0])]
    if not larger or any(abs(float(larger[0]) - float(n) - float(numbers[0])) < 0.005 for n in shown):
        return None  # "£97.50 more" of a £120 bike and £22.50 saved is the rest already
    return f"{larger[0]} - {numbers[0]}"


def _for_more_people(number: str, request: str, seen: str) -> str | None:
    """"500 * 8 / 4" for "How much mince for 8?" answered with the 500g of a chilli that serves 4."""
    wanted = FOR_PEOPLE.search(request)
    if wanted is None:
        return None
    people = COUNTS.get(wanted.group("people").lower(), wanted.group("people"))
    for excerpt in re.split(r"^(?:--- |</?outside\b).*$", seen, flags=re.MULTILINE):  # blank lines and all
        block = excerpt.splitlines()
        serves = next((found for line in block if (found := SERVES.search(line))), None)
        holds = any(number in {plain_number(n) for n in NUMBER.findall(line)} for line in block)
        if serves and holds and serves.group("people") != people:
            return f"{number} * {people} / {serves.group('people')}"
    return None


def _periods(text: str) -> set[str]:
    return {period_named(found) for found in PERIOD.finditer(text)}



def _blocks(seen: str) -> list[list[str]]:
    """The blocks of text shown (an excerpt, a file read, a paragraph), each a list of its lines."""
    blocks: list[list[str]] = [[]]
    for line in seen.splitlines():
        if BLOCK_EDGE.match(line):
            blocks.append([])
        else:
            blocks[-1].append(line)
    return [block for block in blocks if block]


CALCULATE_RESULT = re.compile(r" = (?P<result>-?\d[\d.:]*\d|\d)")


def not_as_calculated(answer: str, request: str, last_result: str, passes: list[PassTrace]) -> str | None:
    """calculate's result, when calculate ran last and the answer gives a number or time that is
    neither that result (to the answer's places) nor one of the request's or the calculation's
    own, or gives only the calculation's operands: sent back with "$139.90", the 1.5B ran
    calculate("11.99 * 12") = 143.88 and answered "$139.90" again."""
    last = next((c for p in reversed(passes) for c in reversed(p.calls) if c.fate == "ran"), None)
    found = CALCULATE_RESULT.search(last_result)
    if last is None or last.name != CALCULATE or found is None:
        return None
    result = plain_number(found.group("result"))
    asked = {plain_number(n) for n in NUMBER_OR_TIME.findall(request)}
    given = asked | {plain_number(n) for n in NUMBER_OR_TIME.findall(last_result)}
    values = [plain_number(n) for n in NUMBER_OR_TIME.findall(answer)]
    if any(value not in given and not _rounds_to(result, value) for value in values):
        return result
    expression, _, came_to = last_result.partition(" = ")
    operands = {plain_number(n) for n in NUMBER_OR_TIME.findall(expression)}
    said = {plain_number(n) for n in NUMBER_OR_TIME.findall(came_to)}
    if (values and not any(_rounds_to(result, value) or value in said for value in values)
            and (set(values) - asked) & operands):
        return result  # the calculation's operand, not its result: "125 grams butter" after 125 * 24 / 12 = 250
    return None


def _rounds_to(result: str, value: str) -> bool:
    """Whether `value` is `result` rounded to its places (3.33 for 3.3333333333)."""
    if ":" in result or ":" in value:
        return result == value
    return float(value) == round(float(result), len(value.partition(".")[2]))


UNIT = r"(seconds?|minutes?|hours?|days?|weeks?)"
CONVERSION_ASKED = re.compile(
    rf"\bhow\s+many\s+{UNIT}\s+(?:are\s+there\s+|is\s+that\s+|are\s+)?in\s+(?:a|an|one|(\d+(?:\.\d+)?))\s+{UNIT}\b",
    re.IGNORECASE,
)
SECONDS_IN = {"second": 1, "minute": 60, "hour": 3_600, "day": 86_400, "week": 604_800}


def unit_conversion(answer: str, request: str, passes: list[PassTrace]) -> str | None:
    """The calculate expression for "How many minutes are there in 3 hours?" ("3 * 60") when the
    answer does not give what it comes to and no calculate call ran: with a timesheet's totals in
    the ground ("hours = 15"), the 1.5B answered "15"."""
    asked = CONVERSION_ASKED.search(request)
    if asked is None or calculated(passes):
        return None
    into, amount, unit = asked.group(1).lower().rstrip("s"), asked.group(2) or "1", asked.group(3).lower().rstrip("s")
    factor = SECONDS_IN[unit] / SECONDS_IN[into]
    expression = f"{amount} * {plain_number(str(factor))}" if factor >= 1 else f"{amount} / {plain_number(str(1 / factor))}"
    right = plain_number(f"{float(amount) * factor:.4f}")
    return None if right in {plain_number(n) for n in NUMBER.findall(answer)} else expression
