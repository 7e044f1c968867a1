"""Sums a line of the user's notes asks for where no table holds them, worked out by the harness.

Asked "How much mince for lasagne for 3?" of a recipe that serves 6, a 1.5B scales amounts no
better than it adds; asked how much was harvested of "potatoes 12kg, onions 4kg, beans 3.5kg", it
answered "3.5kg of beans" (rates are line_rates.py's, pots toward a goal pots.py's, times of day
worked_times.py's). Like the table's totals and the dates, the answer is worked out before the
model reads and shown after the excerpt it comes from.
"""

from __future__ import annotations

import re
from fractions import Fraction

from saturnd.tools.periods import PERIOD
from saturnd.tools.word_match import stems
from saturnd.turn.amounts import ALL_ASKED, MONEY, PENCE, count_written, money_written
from saturnd.turn.dates import MONTHS
from saturnd.turn.listing import DONE_MARK, LIST_MARK
from saturnd.turn.made_up import HEADING, NUMBER_WORDS, WORKED_OUT
from saturnd.turn.pots import PROGRESS, SAVED, TARGETED
from saturnd.turn.time_lines import MONTH_ASKED, MONTH_IN_LINE
from saturnd.turn.worked_times import MAX_SPANS, plain, times_worked_out

SPENT_ASKED = re.compile(r"\b(?:spent|spend|cost|costs|left|budget)\b", re.IGNORECASE)
EACH_PRICE = re.compile(r"[£$€]\s?\d[\d,]*(?:\.\d+)?\s*(?:each|apiece|a\s+(?:piece|dozen|slice|box|tray))\b", re.IGNORECASE)


RATING = re.compile(r"(?<![\d/.])(\d+(?:\.\d)?)\s*/\s*(5|10|100)(?![\d/])|\b(\d(?:\.\d)?)\s+stars?\b", re.IGNORECASE)
RATING_ASKED = re.compile(r"\brat(?:e|ed|ing|ings)\b|\bscored?\b|\bstars?\b|\b(?:best|worst|favou?rite)\b", re.IGNORECASE)


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
    ("- potatoes 18.5") or give one amount of money ("- Rent: £950 on the 1st"), its largest and
    smallest lines: asked "Which crop did best?", the 1.5B named a crop of another file; "Which
    bill is the biggest?", the broadband's £32 beside the rent's £950."""
    items = [(found["label"].strip(), Fraction(found["number"]), found["unit"]) for line in lines
             if (found := LISTED_AMOUNT.match(line))]
    if len(items) < 2:  # "- Rent: £950 on the 1st": a list's lines of one amount of money each
        items = [(re.split(r"[:(]|\s[£$€]", line.strip(" -*•"))[0].strip(), Fraction(amounts[0].replace(",", "")), "")
                 for line in lines if LIST_MARK.match(line) and len(amounts := MONEY.findall(line)) == 1]
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
