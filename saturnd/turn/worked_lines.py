"""Sums a line of the user's notes asks for where no table holds them, worked out by the harness.

Asked "How much mince for lasagne for 3?" of a recipe that serves 6, or "How much more do I need
for the holiday?" of "Holiday fund: £1,350 of £2,000", a 1.5B scales and subtracts amounts no
better than it adds (times of day are worked_times.py's). Like the table's totals and the dates, the answer is
worked out before the model reads and shown after the excerpt it comes from.
"""

from __future__ import annotations

import re
from fractions import Fraction

from saturnd.tools.periods import PERIOD, TIMES_A_YEAR, period_asked, period_named
from saturnd.tools.word_match import stems
from saturnd.turn.dates import MONTHS
from saturnd.turn.listing import DONE_MARK, LIST_MARK
from saturnd.turn.made_up import HEADING, NUMBER_WORDS, WORKED_OUT
from saturnd.turn.time_lines import MONTH_ASKED, MONTH_IN_LINE
from saturnd.turn.worked_times import MAX_SPANS, plain, times_worked_out

MONEY = re.compile(r"[£$€]\s?(\d[\d,]*(?:\.\d+)?)")
PENCE = re.compile(r"(?<![\w.£$€])(\d{1,2})p\b")
SPENT_ASKED = re.compile(r"\b(?:spent|spend|cost|costs|left|budget)\b", re.IGNORECASE)
EACH_PRICE = re.compile(r"[£$€]\s?\d[\d,]*(?:\.\d+)?\s*(?:each|apiece|a\s+(?:piece|dozen|slice|box|tray))\b", re.IGNORECASE)
ALL_ASKED = re.compile(r"\bhow\s+much\b|\btotal\b|\baltogether\b|\bin\s+all\b", re.IGNORECASE)


def amounts_by_period(lines: list[str], request: str) -> str:
    """Asked how much in all of lines that each give an amount by the month, week or year ("Water:
    £38 a month"), their sums by period, and, where the request names a period, everything in it
    ("How much are my bills a month?": the yearly TV licence spread over twelve months too)."""
    if not ALL_ASKED.search(request):
        return ""
    by_period: dict[str, list[tuple[str, Fraction]]] = {}
    for line in lines:
        amounts, periods = MONEY.findall(line), [period_named(found) for found in PERIOD.finditer(line)]
        if len(amounts) != 1 or len(periods) != 1:
            continue
        period = periods[0]
        label = re.split(r"[:\-–(]|\s[£$€]", line.strip(" -*•"))[0].strip() or "amount"
        by_period.setdefault(period, []).append((label, Fraction(amounts[0].replace(",", ""))))
    labels = [label for items in by_period.values() for label, _ in items]
    asked = period_asked(request)
    every = [(label, amount, period) for period, items in by_period.items() for label, amount in items]
    named = [(label, amount, period) for label, amount, period in every if stems(label) & stems(request)]
    one = named or (every if len(every) == 1 else [])  # "How much is the gym a year?" of its one "£32 a month"
    if asked and len(one) == 1 and one[0][2] != asked:  # "How much is the rent a month?" of "£38 a year"
        label, amount, period = one[0]
        return (f"[Saturn worked out] {label}: {money_written(amount)} a {period} = "
                f"{money_written(amount * TIMES_A_YEAR[period] / TIMES_A_YEAR[asked])} a {asked}")
    if len(labels) < 2 or named:  # one line's amount asked
        return ""
    said = [f"a {period}: " + " + ".join(f"{label} {money_written(amount)}" for label, amount in items)
            + (f" = {money_written(sum((amount for _, amount in items), Fraction(0)))}" if len(items) > 1 else "")
            for period, items in by_period.items()]
    if asked and len(by_period) > 1:
        everything = sum((amount * TIMES_A_YEAR[period] / TIMES_A_YEAR[asked] for period, items in by_period.items()
                          for _, amount in items), Fraction(0))
        said.append(f"everything as a {asked}: {money_written(everything)}")
    return "[Saturn worked out] " + "; ".join(said)


RATING = re.compile(r"(?<![\d/.])(\d+(?:\.\d)?)\s*/\s*(5|10|100)(?![\d/])|\b(\d(?:\.\d)?)\s+stars?\b", re.IGNORECASE)
RATING_ASKED = re.compile(r"\brat(?:e|ed|ing|ings)\b|\bscored?\b|\bstars?\b", re.IGNORECASE)


def rated_lines(lines: list[str]) -> list[tuple[str, Fraction, str]]:
    """(line, rating, out of) for each line giving one rating ("Orbital (done, 5/5)", "4 stars")."""
    rated = []
    for line in lines:
        found = RATING.findall(line)
        if len(found) == 1 and (score := Fraction(found[0][0] or found[0][2])) <= int(found[0][1] or 5):
            rated.append((line.strip(" -*•"), score, found[0][1] or "5"))
    return rated


def ratings(lines: list[str], request: str) -> str:
    """Asked about ratings, the lines that give one: the highest, the lowest and the average (out of
    the same number): asked which book it rated highest of "4/5", "3/5" and "5/5", the 1.5B named the
    first line's; asked the average, it found none."""
    rated = rated_lines(lines) if RATING_ASKED.search(request) else []
    if len(rated) < 2 or len({out_of for *_, out_of in rated}) != 1:
        return ""
    out_of = rated[0][2]
    top = max(score for _, score, _ in rated)
    low = min(score for _, score, _ in rated)
    average = sum((score for _, score, _ in rated), Fraction(0)) / len(rated)
    return (f"{WORKED_OUT} ratings over {len(rated)} lines: highest {plain(top)}/{out_of}: "
            + "; ".join(line for line, score, _ in rated if score == top)
            + f"; lowest {plain(low)}/{out_of}: " + "; ".join(line for line, score, _ in rated if score == low)
            + f"; average {plain(average)}/{out_of}")


COUNT_A_PERIOD = re.compile(r"(?<![£$€\d.,])(\d+(?:\.\d+)?)\s*(?:[a-z]+\s+)?(?=(?:a|per|each|every)\s+(?:day|week|month|quarter|year)\b)",
                            re.IGNORECASE)
DAYS_IN = {"day": Fraction(1), "week": Fraction(7), "month": Fraction(365, 12), "quarter": Fraction(365, 4),
           "year": Fraction(365)}
"""A week is 7 days, not 365/52: "8 a day" is 56 a week."""
HOW_MANY_ASKED = re.compile(r"\bhow\s+(?:many|much)\b", re.IGNORECASE)


def count_by_period(lines: list[str], request: str) -> str:
    """Asked how many of a thing a line counts by one period in another ("about 8 a day", asked
    a week: 56); the 1.5B answered "8 a day"."""
    asked = period_asked(request)
    if not HOW_MANY_ASKED.search(request) or asked is None:
        return ""
    said = []
    for line in lines:
        found = COUNT_A_PERIOD.findall(line)
        periods = [period_named(p) for p in PERIOD.finditer(line)]
        if len(found) != 1 or len(periods) != 1 or periods[0] == asked or MONEY.search(line) or not stems(line) & stems(request):
            continue
        count = Fraction(found[0])
        label = line.split(":")[0].strip(" -*•") if ":" in line else "the line"
        said.append(f"{label}: {plain(count)} a {periods[0]} = {plain(count * DAYS_IN[asked] / DAYS_IN[periods[0]])}"
                    f" a {asked}")
    return f"{WORKED_OUT} {'; '.join(said[:MAX_SPANS])}" if said else ""


QUANTITY = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?(kg|g|km|k|miles|mi|litres|liters|l|ml|lbs|lb|hours|hrs|mins|minutes)\b",
                      re.IGNORECASE)


MONEY_AMOUNT = r"[£$€]\s?(\d+(?:,\d{3})*(?:\.\d+)?)"
WHOLE_AMOUNT = re.compile(r"\b(?:quote[ds]?|total|price|cost|costs|fee|bill)\b\W{0,3}(?:of\s+|at\s+|is\s+)?" + MONEY_AMOUNT,
                          re.IGNORECASE)
PART_PAID = re.compile(r"\b(?:deposit|paid|down\s+payment)\b\W{0,3}(?:of\s+)?" + MONEY_AMOUNT
                       + r"|" + MONEY_AMOUNT + r"\s+(?:deposit\s+)?(?:paid|deposit)\b", re.IGNORECASE)
STILL_TO_PAY_ASKED = re.compile(r"\b(?:owe|owing|owed|pay|paying|outstanding|balance)\b", re.IGNORECASE)


def still_to_pay(lines: list[str], request: str) -> str:
    """Asked what is still owed of a line that gives a whole and a part paid ("quote £850, deposit
    £200 paid"): the whole less the part; the line's amounts were summed (1050)."""
    if not STILL_TO_PAY_ASKED.search(request):
        return ""
    said, left = [], Fraction(0)
    for line in lines:
        if (found := whole_and_part_paid(line)) is not None:
            total, part = found
            label = line.split(":")[0].strip(" -*•") if ":" in line else "the line"
            said.append(f"{label}: {plain(total)} - {plain(part)} paid = {plain(total - part)} still to pay")
            left += total - part
    total_said = [f"in all {plain(left)} still to pay"] if len(said) > 1 else []  # "How much is still to pay altogether?"
    return f"{WORKED_OUT} {'; '.join(said[:MAX_SPANS] + total_said)}" if said else ""


BALANCE = re.compile(r"\b(?:balance|remaining|rest|left\s+to\s+pay)\b\W{0,3}(?:of\s+)?[£$€]", re.IGNORECASE)
"""A line giving the balance's own amount ("balance £350"), its parts to add; not "balance due 1 May"."""


def whole_and_part_paid(line: str) -> tuple[Fraction, Fraction] | None:
    """The whole and the part paid of a line that gives both: "quote £850, deposit £200 paid", or
    the line's one other amount where nothing names it ("Swift Movers, £850 (deposit £200 paid)");
    not a line giving the balance left ("Deposit: £150 paid, balance £350": its parts)."""
    whole, paid = WHOLE_AMOUNT.findall(line), PART_PAID.findall(line)
    if len(paid) != 1:
        return None
    part = Fraction((paid[0][0] or paid[0][1]).replace(",", ""))
    others = [Fraction(amount.replace(",", "")) for amount in MONEY.findall(line)]
    others.remove(part) if part in others else None
    if len(whole) == 1:
        return Fraction(whole[0].replace(",", "")), part
    return (others[0], part) if len(others) == 1 and others[0] > part and not BALANCE.search(line) else None


A_RATE = re.compile(r"\b(?:an?|per|each)\s+(?:hour|hr|session|lesson|night|head|person|guest|kg|km|mile|litre)\b"
                    r"|/\s?(?:hour|hr|session|lesson|night|head|person|guest|kg|km|mile|litre)\b"
                    r"|\d\s*(?:each|pp)\b", re.IGNORECASE)
"""An amount per one of a thing ("£40 an hour", "£90/night", "£180 each"): summed with another, nothing."""
ONE_ASKED = re.compile(r"\bhow\s+much\s+(?:is|are|does|do|would|will|for)\s+(?:a|an|one|each)\b", re.IGNORECASE)


def quantities_summed(lines: list[str], request: str) -> str:
    """Asked how much in all, the sum of a line's quantities of one unit ("Harvested: potatoes
    12kg, onions 4kg, beans 3.5kg": 19.5kg) or of its amounts of money ("Deposit: £150 paid,
    balance £350": 500); the 1.5B answered the last, "3.5kg of beans", and "£350". Not asked the
    price of one ("How much is a ticket for a child?" of "Tickets £12, under 16s £6": not 18)."""
    if not ALL_ASKED.search(request) or ONE_ASKED.search(request):
        return ""
    said = []
    for line in lines:
        if line.lstrip().startswith("|"):
            continue  # a table's row: its amounts are columns, not parts of one whole
        found = QUANTITY.findall(line)
        money = MONEY.findall(line)
        if len(money) >= 2 and not (PROGRESS.search(line) or SAVED.search(line) or TARGETED.search(line) or MONEY_RANGE.search(line)
                                    or BUDGET.search(line) or OWES.search(line) or PERIOD.search(line)
                                    or A_RATE.search(line)  # "Brightside £40 an hour, Oakwell £35 an hour": no sum
                                    or whole_and_part_paid(line) or _one_named(line, request)):
            found = [(amount.replace(",", ""), "") for amount in money]  # "Deposit: £150 paid, balance £350"
        if len(found) >= 2 and len({unit.lower() for _, unit in found}) == 1:
            label = line.split(":")[0].strip(" -*•") if ":" in line else "the line"
            total = sum((Fraction(number) for number, _ in found), Fraction(0))
            said.append(f"{label}: {' + '.join(number for number, _ in found)} = {plain(total)}{found[0][1]}")
    said = said or _amounts_down_a_list(lines, request)
    return f"{WORKED_OUT} {'; '.join(said[:MAX_SPANS])}" if said else ""


LISTED_AMOUNT = re.compile(r"^\s*[-*•]\s+(?P<label>[^\d:]+?)[\s:–-]+(?P<number>\d+(?:\.\d+)?)\s*(?P<unit>[a-z]{0,6})\s*$",
                           re.IGNORECASE)
UNIT_IN_BRACKETS = re.compile(r"\((?P<unit>kg|g|km|miles|mi|litres|l|ml|lbs|lb|hours|hrs|mins|minutes)\)", re.IGNORECASE)


MOST_ASKED = re.compile(r"\b(?:best|most|biggest|largest|highest|top|least|worst|smallest|lowest)\b", re.IGNORECASE)


def most_of_a_list(lines: list[str], request: str) -> str:
    """Asked which did best (or least) of a list whose lines each end with one amount of one unit
    ("- potatoes 18.5"), its largest and smallest lines: asked "Which crop did best?", the 1.5B
    named a crop of another file."""
    items = [(found["label"].strip(), Fraction(found["number"]), found["unit"]) for line in lines
             if (found := LISTED_AMOUNT.match(line))]
    if not MOST_ASKED.search(request) or len(items) < 2 or len({unit.lower() for _, _, unit in items}) != 1:
        return ""
    most, least = max(items, key=lambda item: item[1]), min(items, key=lambda item: item[1])
    return (f"{WORKED_OUT} the most: {most[0]} {plain(most[1])}{' ' + most[2] if most[2] else ''};"
            f" the least: {least[0]} {plain(least[1])}{' ' + least[2] if least[2] else ''}")


def _amounts_down_a_list(lines: list[str], request: str) -> list[str]:
    """A list whose lines each end with one amount of one unit ("- potatoes 18.5" under "2026
    harvest (kg)"), summed in that unit (the heading's in brackets) where the request names the
    heading's words, not one item's: asked how much was harvested in total, the 1.5B answered with
    the heading."""
    items = [(found["label"].strip(), found["number"], found["unit"].lower()) for line in lines
             if (found := LISTED_AMOUNT.match(line))]
    headings = [line for line in lines if not LIST_MARK.match(line)]
    if (len(items) < 2 or len({unit for _, _, unit in items}) != 1 or any(stems(label) & stems(request) for label, _, _ in items)
            or not stems(" ".join(headings)) & stems(request)):
        return []
    unit = items[0][2] or next((found["unit"] for line in headings if (found := UNIT_IN_BRACKETS.search(line))), "")
    total = sum((Fraction(number) for _, number, _ in items), Fraction(0))
    label = re.sub(r"\s*\(.*?\)", "", headings[0]).strip(" #:") if headings else "the list"
    return [f"{label}: " + " + ".join(f"{name} {number}" for name, number, _ in items) + f" = {plain(total)}{' ' + unit if unit else ''}"]


MONEY_RANGE = re.compile(r"[£$€]\s?\d[\d,.]*\s*(?:to|-|–)\s*[£$€]\s?\d", re.IGNORECASE)
"""A range of amounts ("Extra jobs £1 to £3"): no two amounts to add."""


def _one_named(line: str, request: str) -> bool:
    """Whether the request names the word an amount of the line is for ("How much has Leo got?" of
    "Pocket money every Saturday: Leo £5, Maya £3": Leo's, not 8)."""
    return any(stems(label) & stems(request) for label in re.findall(r"([A-Za-z][\w'-]*)\s*[:=-]?\s*[£$€]\s?\d", line))


BUDGET_ASKED = re.compile(r"\b(?:budget|left|remaining|afford|spare|over|under)\b", re.IGNORECASE)
OWES = re.compile(r"\bowes?\b|\bowed\b", re.IGNORECASE)
"""A line of who owes whom: listing.who_owes sums those each way."""
BUDGET = re.compile(r"\bbudget\b[^£$€\d]{0,20}[£$€]\s?(\d[\d,]*(?:\.\d+)?)", re.IGNORECASE)


def list_amounts(lines: list[str], request: str) -> str:
    """Asked how much in all of a list whose lines each give one amount ("- Dad: book £15"), their
    sum, and where some are marked done ("(bought)") the sums of those and of the rest, and what a
    budget the list gives leaves: asked "How much have I spent on Christmas presents so far?",
    a 1.5B adds no better than it subtracts."""
    if not ALL_ASKED.search(request) and not SPENT_ASKED.search(request) or any(EACH_PRICE.search(line) for line in lines):
        return ""  # a price list ("Brownies £1.50 each"): prices of one, not amounts to add
    items = []
    listed = [line for line in lines if LIST_MARK.match(line) and len(MONEY.findall(line)) == 1]
    listed = listed if len(listed) > 1 else lines  # the list's lines, not "Savings pot: £1,240" below it
    if (month := next((MONTH_IN_LINE[m] for m in MONTHS if MONTH_ASKED[m].search(request)), None)) and any(map(month.search, listed)):
        listed = [line for line in listed if month.search(line)]  # "How much did I invoice in November?": its lines
    for line in listed:
        amounts = MONEY.findall(line) or [f"0.{int(pence):02d}" for pence in PENCE.findall(line)]  # "50p"
        if line.lstrip().startswith("|"):
            continue  # a table's row: its totals are the table's (table_sums), by its columns
        if len(amounts) == 1 and not PERIOD.search(line) and not BUDGET.search(line) and not OWES.search(line):
            label = re.split(r"[:(,]|\s[-–]\s|\s[£$€]", line.strip(" -*•"))[0].strip() or "amount"  # "INV-12 Acme Ltd"
            mark = DONE_MARK.search(line)
            items.append((label, Fraction(amounts[0].replace(",", "")), mark.group(0).strip(" ()[]-:–,.") if mark else ""))
    if len(items) < 2 or any(stems(label) & stems(request) for label, _, _ in items):  # one line's amount asked
        return ""
    said = [_summed("all", items)]
    done = [item for item in items if item[2]]
    if done and len(done) < len(items):
        said += [_summed(f"so far, marked {done[0][2]}", done),
                 _summed("still to come, not marked", [item for item in items if not item[2]])]
    budget = next((Fraction(found.group(1).replace(",", "")) for line in lines if (found := BUDGET.search(line))), None)
    if budget is not None and BUDGET_ASKED.search(request):  # asked what was spent, 135 left was the 1.5B's answer
        total = sum((amount for _, amount, _ in items), Fraction(0))
        said.append(f"budget {money_written(budget)} - all {money_written(total)} = {money_written(budget - total)} left")
    return "[Saturn worked out] " + "; ".join(said)


STILL_TO_COME = re.compile(r"still to come, not marked: [^;\n]*= (?P<total>\d[\d.]*)")
OWED_ASKED = re.compile(r"\bowed?\b|\bowing\b|\boutstanding\b|\bunpaid\b|\bstill\s+to\s+(?:pay|come)\b|\bleft\s+to\s+pay\b",
                        re.IGNORECASE)


def owed_of_the_list(answer: str, request: str, seen: str) -> str | None:
    """The sum of a list's lines not marked paid, when asked what is owed and the answer does not
    give it: shown "… = 2600; so far, marked paid: … = 450; still to come, not marked: … = 2150",
    asked "How much am I owed?", the 1.5B answered "The money is owed to the user."."""
    found = STILL_TO_COME.search(seen) if OWED_ASKED.search(request) else None
    if found is None or re.search(rf"(?<![\d.]){re.escape(found['total'])}(?![\d])", answer.replace(",", "")):
        return None
    return f"{WORKED_OUT} {found.group(0)}"


def _summed(what: str, items: list[tuple[str, Fraction, str]]) -> str:
    return (f"{what}: " + " + ".join(f"{label} {money_written(amount)}" for label, amount, _ in items)
            + f" = {money_written(sum((amount for _, amount, _ in items), Fraction(0)))}")


BRACKETED_COUNT = re.compile(r"\((\d+(?:\.\d+)?)\s+(day|hour|night|week|mile|km|portion|serving|bottle|tin|jar|pack)s?\)",
                             re.IGNORECASE)
LEFT_ASKED = re.compile(r"\b(?:left|remaining|still\s+got|still\s+have|how\s+many|total|enough)\b", re.IGNORECASE)


def bracketed_counts(lines: list[str], request: str) -> str:
    """Asked how many in all or left, of a line that counts its parts in brackets ("Leave taken: 3-7
    March (5 days), 14-18 July (5 days), 27 October (1 day)"), their sum, and what an allowance
    another line gives ("Annual leave: 25 days a year") leaves: the 1.5B answered the allowance."""
    if not LEFT_ASKED.search(request):
        return ""
    said = []
    for line in lines:
        counts = BRACKETED_COUNT.findall(line)
        if len(counts) < 2 or len({unit.lower() for _, unit in counts}) != 1:
            continue
        unit = counts[0][1].lower()
        total = sum((Fraction(number) for number, _ in counts), Fraction(0))
        label = line.split(":")[0].strip(" -*•") if ":" in line else "in brackets"
        if not re.search(rf"\b{unit}s?\b", request, re.IGNORECASE) and not stems(label) & stems(request):
            continue  # "How many miles did I drive?" is not about the leave taken
        said.append(f"{label}: {' + '.join(number for number, _ in counts)} = {plain(total)} {unit}s")
        allowance = re.compile(rf"(\d+(?:\.\d+)?)\s+{unit}s?\s+(?:a|per|each)\s+year\b", re.IGNORECASE)
        if found := next((found for other in lines if other != line and (found := allowance.search(other))), None):
            left = Fraction(found.group(1)) - total
            said.append(f"{found.group(0)} - {plain(total)} = {plain(left)} {unit}s left")
    said = said or _counted_down_a_list(lines, request)
    return "[Saturn worked out] " + "; ".join(said) if said else ""


def _counted_down_a_list(lines: list[str], request: str) -> list[str]:
    """The counts in brackets of a list's lines, one a line, summed under each of their headings
    where the request names their unit or the file's heading ("How many portions of food do I
    have?": chilli 2 + bolognese 4 + soup 3 = 9 portions), not where it names one item; with an
    allowance the file gives, what is left of it ("Allowance: 25 days", "Carried over: 3 days",
    taken 17 and booked 4: 7 days left)."""
    groups: dict[str, list[tuple[str, str]]] = {}
    heading = ""
    for line in lines:
        counts = BRACKETED_COUNT.findall(line)
        if not counts and line.strip().endswith(":"):
            heading = line.strip(" #:")
        elif len(counts) == 1 and LIST_MARK.match(line):
            label = re.split(r"\s*\(|\s[-–:]\s", line.strip(" -*•"))[0].strip()
            groups.setdefault(heading, []).append((label, counts[0][0]))
            unit = counts[0][1].lower()
    items = [item for group in groups.values() for item in group]
    headings = " ".join(line for line in lines if HEADING.search(line) or line.strip().endswith(":"))
    if (len(items) < 2 or len({c[1].lower() for line in lines for c in BRACKETED_COUNT.findall(line)}) != 1
            or not (re.search(rf"\b{unit}s?\b", request, re.IGNORECASE) or stems(headings) & stems(request))
            or any(stems(label) & stems(request) for label, _ in items)):  # "portions of bolognese": its line's
        return []
    sums = {name: sum((Fraction(n) for _, n in group), Fraction(0)) for name, group in groups.items()}
    said = [f"{name + ': ' if name else ''}" + " + ".join(f"{label} {n}" for label, n in group) + f" = {plain(sums[name])} {unit}s"
            for name, group in groups.items()]
    given = [(found.group(1), Fraction(found.group(2))) for line in lines if not LIST_MARK.match(line)
             and (found := re.search(rf"\b(allowance|entitlement|carried\s+over)\b.*?(\d+(?:\.\d+)?)\s+{unit}s?\b", line, re.I))]
    if given and re.search(r"\b(?:left|remaining|still\s+(?:got|have)|enough)\b", request, re.IGNORECASE):
        have, used = sum((n for _, n in given), Fraction(0)), sum(sums.values(), Fraction(0))
        said.append(" + ".join(f"{name.lower()} {plain(n)}" for name, n in given) + " - " + " - ".join(
            f"{name.lower() or 'listed'} {plain(n)}" for name, n in sums.items()) + f" = {plain(have - used)} {unit}s left")
    return said


PROGRESS = re.compile(r"[£$€]\s?(?P<have>\d[\d,]*(?:\.\d+)?)\s+(?:of|out\s+of|towards?|/)\s+[£$€]\s?"
                      r"(?P<goal>\d[\d,]*(?:\.\d+)?)", re.IGNORECASE)


TARGETED = re.compile(r"[£$€]\s?(?P<have>\d[\d,]*(?:\.\d+)?)\s*[,(;–-]?\s*(?:target|goal|aim)(?:\s+of|\s*:)?\s*[£$€]\s?"
                      r"(?P<goal>\d[\d,]*(?:\.\d+)?)", re.IGNORECASE)
"""The amount so far and then its target: "Emergency fund: £2,100, target £3,000"."""
SAVED = re.compile(r"[£$€]\s?(?P<goal>\d[\d,]*(?:\.\d+)?)\)?,?\s+(?:and\s+)?(?:has|have|has\s+got|got)\s+[£$€]\s?"
                   r"(?P<have>\d[\d,]*(?:\.\d+)?)\s+(?:saved|so\s+far|put\s+by|put\s+away)", re.IGNORECASE)
"""A goal first and the amount so far after: "saving for a bike (£120), has £64 saved"."""


def progress(lines: list[str], request: str) -> str:
    """Lines of an amount so far against a goal ("Holiday fund: £1,350 of £2,000", "saving for a
    bike (£120), has £64 saved"), each as what is
    still to go and the share reached, all of them summed where there are several, and at a rate a
    line gives for one of them ("I put in £150 a month to the holiday fund") how long the rest
    takes: asked "How much more do I need for the holiday?", the 1.5B answered the £1,350."""
    goals = []
    for line in lines:
        if len(found := list(PROGRESS.finditer(line)) or list(SAVED.finditer(line)) or list(TARGETED.finditer(line))) == 1:
            label = re.split(r"[:\-–(]|\s[£$€]|,", line.strip(" -*•#"))[0].strip() or "amount"
            goals.append((label, Fraction(found[0]["have"].replace(",", "")), Fraction(found[0]["goal"].replace(",", ""))))
    if not goals:
        return ""
    said = [_toward(label, have, goal) for label, have, goal in goals]
    if len(goals) > 1:
        said.append(_toward("all", sum((g[1] for g in goals), Fraction(0)), sum((g[2] for g in goals), Fraction(0))))
        share = {label: have / goal for label, have, goal in goals if goal}
        if CLOSEST_ASKED.search(request) and share:  # "Which pot is closest to its target?": by the share, not the amount
            said.append(f"closest: {max(share, key=share.__getitem__)}; furthest: {min(share, key=share.__getitem__)}")
    rates = [_rate_part(line) for line in lines]
    rates = [line for line in rates if line and len(MONEY.findall(line)) == 1 and len(list(PERIOD.finditer(line))) == 1]
    for line in rates:
        amounts, periods = MONEY.findall(line), [period_named(found) for found in PERIOD.finditer(line)]
        shared = [len(stems(label) & stems(line)) for label, _, _ in goals]
        if not max(shared) and len(rates) == 1:  # the one rate ("£5 a week each") for the goal the request names
            shared = [len(stems(label) & stems(request)) for label, _, _ in goals]
        if (best := max(shared)) and shared.count(best) == 1:
            label, have, goal = goals[shared.index(best)]
            rate = Fraction(amounts[0].replace(",", ""))
            if have < goal and rate:
                taken = -(-(goal - have) // rate)
                said.append(f"{label} at {money_written(rate)} a {periods[0]}: {money_written(goal - have)} / {money_written(rate)}"
                            f" = {plain((goal - have) / rate)}, so {taken} {periods[0]}{'s' if taken != 1 else ''}")
    return "[Saturn worked out] " + "; ".join(said)


ADDED_AMOUNT = re.compile(r"\b(?:added|put|paid|saved|moved|transferred)\s+(?:in\s+)?(?:another\s+|an\s+extra\s+)?"
                          r"[£$€]\s?(?P<amount>\d[\d,]*(?:\.\d+)?)\s+(?:to|into|in|towards?|for)\b(?P<to>.*)$",
                          re.IGNORECASE)


def _rate_part(line: str) -> str:
    """A line with the part giving its amount so far against a goal taken out: "Holiday: (paying in
    £150 a month)" of "Holiday: £640 of £1,500 (paying in £150 a month)", the rate it goes up by."""
    found = PROGRESS.search(line) or SAVED.search(line) or TARGETED.search(line)
    return line[:found.start()] + line[found.end():] if found else line


def amount_added(lines: list[str], request: str) -> str:
    """Told money went into a thing ("I added £50 to the bike fund."), the line about it with its
    first amount so much more: "New bike: £180 of £650" as "New bike: £230 of £650"; the 1.5B wrote
    nothing and answered with the lines it was shown."""
    found = line_with_money_added(lines, request)
    if found is None:
        return ""
    _, written, (before, added, total) = found
    return f"{WORKED_OUT} {before} + {money_written(added)} = {money_written(total)}: the line would read \"{written.strip()}\""


def line_with_money_added(lines: list[str], request: str) -> tuple[str, str, tuple[str, Fraction, Fraction]] | None:
    """(the line money told as added went into, that line with its first amount so much more, (its
    amount as written, the amount added, the new amount)); None where no one line is it."""
    told = ADDED_AMOUNT.search(request)
    if told is None:
        return None
    words = [stem for stem in dict.fromkeys(sorted(stems(told.group("to")), key=told.group("to").lower().find))]
    money_lines = [line for line in lines if MONEY.search(line)  # a balance, not a rate ("£150 a month" beside it is one)
                   and (not PERIOD.search(line) or PROGRESS.search(line) or TARGETED.search(line))]
    lines_with = {stem: sum(1 for line in money_lines if stem in stems(line)) for stem in words}
    scores = [((sum(Fraction(1, lines_with[stem]) for stem in set(words) & stems(line)),  # the rarer word weighs more
                -min((words.index(stem) for stem in set(words) & stems(line)), default=len(words))), line)
              for line in money_lines]  # then the first word: "the bike fund" is the bike's, not the holiday fund
    best = max((score for score, _ in scores), default=(Fraction(0), 0))
    held = [line for score, line in scores if score == best]
    if not best[0] or len(held) != 1:
        return None
    line = held[0]
    first = MONEY.search(line)
    assert first is not None  # held lines hold money
    added = Fraction(told.group("amount").replace(",", ""))
    total = Fraction(first.group(1).replace(",", "")) + added
    as_written = f"{total.numerator:,}" if "," in first.group(1) and total.denominator == 1 else money_written(total)
    return line, line[:first.start(1)] + as_written + line[first.end(1):], (first.group(1), added, total)


CLOSEST_ASKED = re.compile(r"\b(?:closest|nearest|furthest|farthest|most\s+of\s+the\s+way|least\s+far)\b", re.IGNORECASE)


def _toward(label: str, have: Fraction, goal: Fraction) -> str:
    if have >= goal:
        return f"{label} {money_written(have)} of {money_written(goal)}: reached"
    return (f"{label} {money_written(have)} of {money_written(goal)}: {money_written(goal)} - {money_written(have)} = {money_written(goal - have)} more to go,"
            f" {plain(Fraction(round(have * 100 / goal, 1)))}% there")


UNITS = "day|hour|night|week|month|session|lesson|class|visit|ticket|person|people|kid|child|mile|km"
HOW_MANY_OF = re.compile(
    rf"\b(?P<count>\d+(?:\.\d+)?|{'|'.join(w for w in NUMBER_WORDS if w not in ('a', 'an'))})\s+(?:more\s+)?"
    rf"(?P<unit>{UNITS})(?:s|es|ren)?\b(?!\s+(?:ago|until|till|left|away|before|after|later|since))", re.IGNORECASE)
PER_UNIT = {"daily": "day", "hourly": "hour", "nightly": "night", "weekly": "week", "monthly": "month", "people": "person",
            "children": "child"}


def at_a_rate(lines: list[str], request: str) -> str:
    """So many of a thing the request counts ("3 days' work") at the rate a line gives for one of
    it ("Day rate: £350", "£12 an hour", "Hourly rate £40"): asked "How much would 3 days' work
    come to?", the 1.5B answered 787.5."""
    said: list[tuple[bool, str]] = []  # (whether the request names the rate's line, the sum worked at it)
    for found in HOW_MANY_OF.finditer(request):
        unit = PER_UNIT.get(found.group("unit").lower(), found.group("unit").lower())
        count = Fraction(NUMBER_WORDS.get(found.group("count").lower(), 0) or found.group("count"))
        for line in lines:
            amounts = MONEY.findall(line) or [f"0.{int(pence):02d}" for pence in PENCE.findall(line)]  # "45p a mile"
            units = {PER_UNIT.get(word, word.removesuffix("s")) for word in re.findall(r"[a-z]+", line.lower())}
            if len(amounts) == 1 and unit in units:
                rate = Fraction(amounts[0].replace(",", ""))
                named = bool((stems(line) - stems(found.group(0))) & stems(request))  # "2 hours for Greenway": its rate
                said.append((named, f"{found.group(0)} at {line.strip(' -*•')}: {plain(count)} × {money_written(rate)}"
                                   f" = {money_written(count * rate)}"))
    chosen = [worked for named, worked in said if named] or [worked for _, worked in said]
    return f"{WORKED_OUT} {'; '.join(chosen[:MAX_SPANS])}" if said else ""


PERCENT = re.compile(r"(?P<rate>\d+(?:\.\d+)?)\s*%\s+(?P<how>off|of|on top of|more than|less than)\s+"
                     r"(?P<money>[£$€])?(?P<amount>\d[\d,]*(?:\.\d+)?)", re.IGNORECASE)


def percent_worked_out(request: str) -> str:
    """A percentage of an amount the request gives, and the amount less or more it ("What's 15% off
    £80?": 12, 68; the 1.5B answered £72)."""
    found = PERCENT.search(request)
    if found is None:
        return ""
    rate, amount = Fraction(found.group("rate")), Fraction(found.group("amount").replace(",", ""))
    part = amount * rate / 100
    money = found.group("money") or ""
    how = found.group("how").lower()
    said = f"{plain(rate)}% of {money}{plain(amount)} = {money}{money_written(part)}"
    if how in ("off", "less than"):
        said += f"; {money}{plain(amount)} - {money}{money_written(part)} = {money}{money_written(amount - part)}"
    elif how in ("on top of", "more than"):
        said += f"; {money}{plain(amount)} + {money}{money_written(part)} = {money}{money_written(amount + part)}"
    return f"[Saturn worked out] {said}"


def request_worked_out(request: str) -> str:
    """What the request's own numbers come to, worked out for the ground: a time, a length in
    other units, a percentage."""
    return times_worked_out(request) or percent_worked_out(request)


def missed_worked_out(answer: str, request: str) -> str | None:
    """The ground's line for what the request's own numbers come to, when the answer does not
    give its result ("How many minutes is an hour and three quarters?" answered "60 minutes",
    shown "105 minutes")."""
    line = request_worked_out(request)
    if not line:
        return None
    result = re.split(r"=\s*", line)[-1].split()[0] if "=" in line else line.removeprefix(WORKED_OUT).split()[0]
    wanted = re.sub(r"[£$€,]", "", result).lower()
    said = re.sub(r"[£$€,]|\s+(?=[ap]m\b)", "", answer).lower()
    return None if re.search(rf"(?<![\d.]){re.escape(wanted)}(?![\d])", said) else line


PERCENT_ASKED = re.compile(r"\b(?:percent|percentage|per\s+cent)\b|%", re.IGNORECASE)
TO_GO_ASKED = re.compile(r"\bhow\s+much\s+more\b|\b(?:still|need|to\s+go|short|left|owe|far\s+off|away\s+from)\b",
                         re.IGNORECASE)
PERCENTAGE = re.compile(r"(\d+(?:\.\d+)?)\s*%")
TO_GO = re.compile(r"=\s*(\d+(?:\.\d+)?) (?:more to go|still to pay|in all)")


def against_the_worked_entry(answer: str, request: str, seen: str) -> str | None:
    """The ground's worked-out entry for the thing asked, when asked a share or what is still to go
    the answer gives another: asked "What percentage of the bike have I saved?" with "New bike 180
    of 650: 650 - 180 = 470 more to go, 27.7% there" shown, the 1.5B answered 72.73%."""
    entry = worked_entry_for(request, seen)
    if not entry:
        return None
    given = re.sub(r"[£$€,]", "", answer)
    if PERCENT_ASKED.search(request) and (shares := PERCENTAGE.findall(given)):
        return None if set(shares) & set(PERCENTAGE.findall(entry)) else f"{WORKED_OUT} {entry}"
    to_go = TO_GO.search(entry)
    if to_go and (TO_GO_ASKED.search(request) or TO_GO_ASKED.search(answer)) and not re.search(rf"(?<![\d.]){re.escape(to_go.group(1))}(?![\d])", given):
        return f"{WORKED_OUT} {entry}"
    return None


def worked_entry_for(request: str, seen: str) -> str:
    """The one entry of the ground's worked-out lines whose label names what the request asks
    about ("Rent £1,450 split 3 ways …: 1450 / 3 = 483.33 each" for "What's my share of the
    rent?"), the one sharing most words with the request where several do, or "": the answer when
    the model twice gave a figure nothing shown holds."""
    asked = stems(request)
    entries = [entry.strip() for line in seen.splitlines() if line.startswith(WORKED_OUT)
               for entry in line.removeprefix(WORKED_OUT).split(";")]
    named = [entry for entry in entries if "=" in entry and asked & stems(entry.split(":")[0])]
    shared = [len(asked & stems(entry)) for entry in named]
    best = [entry for entry, count in zip(named, shared, strict=True) if count == max(shared, default=0)]
    return best[0] if len(best) == 1 else ""  # "How many months until …": the entry "at 150 a month"




COUNT = r"(\d{1,2}|" + "|".join(sorted((w for w in NUMBER_WORDS if w not in ("a", "an")), key=len, reverse=True)) + r")"
FOR_HOW_MANY = re.compile(rf"\b(?:for|feeds?|feeding|serves?|serving)\s+{COUNT}\b(?!\s*(?:minutes?|mins?|hours?|days?|weeks?))",
                          re.IGNORECASE)
SERVES = re.compile(rf"\b(?:serves|feeds|for|makes)\s+{COUNT}\b(?!\s*(?:minutes?|mins?|hours?|days?|weeks?))",
                    re.IGNORECASE)
AMOUNT = re.compile(
    r"^(?P<lead>\s*(?:[-*•]|\d+[.)])?\s*)(?P<number>\d+(?:\.\d+)?|\d+/\d+)(?P<space>\s*)"
    r"(?P<unit>kg|g|ml|l|tsp|tbsp|cups?|oz|lbs?|cloves?|tins?|cans?)?\b(?P<rest>.*)$", re.IGNORECASE)


WHOLE_UNITS = ("g", "ml")


def scaled_recipe(lines: list[str], request: str) -> str:
    """Asked for a recipe's amounts for another number of people than it serves, each amount of
    its list scaled ("for 3" of a recipe serving 6: 500g beef mince is 250g); of a file of several
    recipes, the one the request names ("How much flour for 16 pancakes?": not every recipe × 4, by
    the lasagne's "serves 4")."""
    lines = _recipe_asked(lines, request)
    asked, serves = FOR_HOW_MANY.search(request), next(filter(None, (SERVES.search(line) for line in lines[:3])), None)
    if asked is None or serves is None:
        return ""
    people, written_for = count_written(asked.group(1)), count_written(serves.group(1))
    if people == written_for or not written_for:
        return ""
    factor = Fraction(people, written_for)
    scaled = []
    heading = " ".join(line for line in lines[:3] if SERVES.search(line) and AMOUNT.match(line) is None)
    asked_words = ({w.removesuffix("s") for w in re.findall(r"[a-z]{3,}", request.lower())}
                   - {w.removesuffix("s") for w in re.findall(r"[a-z]{3,}", heading.lower())})  # "banana bread" names the recipe
    for line in _each_amount(lines):
        if (amount := AMOUNT.match(line)) is None or SERVES.search(line):
            continue
        named = {w.removesuffix("s") for w in re.findall(r"[a-z]{3,}", amount.group("rest").lower())}
        if any(_names_an_ingredient(other, asked_words) for other in _each_amount(lines)) and not named & asked_words:
            continue  # "How many eggs for two loaves?": the egg's line, not the bananas
        unit = amount.group("unit") or ""
        wanted = Fraction(amount.group("number")) * factor
        if unit.lower() in WHOLE_UNITS and wanted >= 10:  # 666.67g is 667g
            wanted = Fraction(round(wanted))
        scaled.append(f"{line[amount.end('lead'):].strip()} → {plain(wanted)}{amount.group('space') if unit else ''}{unit}")
    if not scaled:
        return ""
    return (f"[Saturn worked out] for {people} of a recipe for {written_for} (each amount × {plain(factor)}): "
            + "; ".join(scaled))


def _each_amount(lines: list[str]) -> list[str]:
    """The lines, with a line of several amounts by commas ("3 ripe bananas, 75g butter, …") one each."""
    return [part.strip() for line in lines
            for part in (line.split(",") if sum(bool(AMOUNT.match(p.strip())) for p in line.split(",")) > 1 else [line])]


def _names_an_ingredient(line: str, asked_words: set[str]) -> bool:
    amount = AMOUNT.match(line)
    return amount is not None and not SERVES.search(line) and bool(
        {w.removesuffix("s") for w in re.findall(r"[a-z]{3,}", amount.group("rest").lower())} & asked_words)


def _recipe_asked(lines: list[str], request: str) -> list[str]:
    """The lines of the recipe the request names, where each of several opens with its own count
    ("## Pancakes (makes 8)"); none where it names none of them; else all the lines."""
    starts = [i for i, line in enumerate(lines) if SERVES.search(line) and AMOUNT.match(line) is None]
    if len(starts) < 2:
        return lines
    named = [lines[start:end] for start, end in zip(starts, [*starts[1:], len(lines)], strict=True)
             if stems(SERVES.sub("", lines[start])) & stems(request)]
    return named[0] if len(named) == 1 else []


def money_written(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.2f}"


def count_written(written: str) -> int:
    return NUMBER_WORDS.get(written.lower()) or int(written)


AS_A_PERIOD = re.compile(r"(?:\b\w+ )?as a (?P<period>day|week|fortnight|month|quarter|year): (?P<figure>\d+(?:\.\d+)?)")


def period_figure_missed(answer: str, request: str, seen: str) -> str | None:
    """The ground's figure for the period asked ("monthly as a year: 143.88"), when the answer does
    not give it: asked "What do I pay a year for Spotify?", the 1.5B said how to work it out."""
    asked = period_asked(request)
    found = next((m for line in seen.splitlines() if line.startswith(WORKED_OUT)
                  for m in AS_A_PERIOD.finditer(line) if m["period"] == asked), None)
    if found is None:
        return None
    said = re.sub(r"[£$€,]", "", answer)
    return None if re.search(rf"(?<![\d.]){re.escape(found['figure'])}(?!\d)", said) else f"{WORKED_OUT} {found.group(0)}"


DAYS_LISTED = re.compile(r"\b(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)[a-z]*(?:\s*(?:/|,|&|\band\b)\s*"
                         r"(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)[a-z]*)+\b", re.IGNORECASE)
A_WEEK_ASKED = re.compile(r"\b(?:a|per|each|every|in\s+a)\s+week\b|\bweekly\b", re.IGNORECASE)
ONE_A_TIME = re.compile(r"(?:[£$€]\s?(?P<money>\d[\d,]*(?:\.\d+)?)\s*(?:a|per|each)\s+[a-z]+|(?P<count>\d+(?:\.\d+)?)\s+(?P<unit>[a-z]+))",
                        re.IGNORECASE)


def by_the_week_of_days(lines: list[str], request: str) -> str:
    """Asked how much or how many a week of a line giving an amount on each of some weekdays ("Amy
    does Mon/Wed/Fri, £12 a walk", "2 pints Mon/Wed/Fri"), the amount times those days: asked "How
    much do I pay Amy a week?", the 1.5B gave £12."""
    if not A_WEEK_ASKED.search(request) or not HOW_MANY_ASKED.search(request):
        return ""
    said = []
    for line in lines:
        days = DAYS_LISTED.search(line)
        amounts = [found for found in ONE_A_TIME.finditer(line) if found["money"] or found["unit"].lower() not in ("am", "pm")]
        if days is None or len(amounts) != 1 or not stems(line) & stems(request):
            continue
        count = len(re.split(r"\s*(?:/|,|&|\band\b)\s*", days.group(0)))
        found = amounts[0]
        each = Fraction((found["money"] or found["count"]).replace(",", ""))
        unit = "" if found["money"] else f" {found['unit']}"
        said.append(f"{line.strip(' -*•')}: {count} days ({days.group(0)}) × {money_written(each)}{unit} = "
                    f"{money_written(count * each)}{unit} a week")
    return f"{WORKED_OUT} {'; '.join(said[:MAX_SPANS])}" if said else ""
