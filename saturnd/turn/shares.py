"""Shares: an amount a line splits so many ways ("Rent £1,450 split 3 ways (me, Jess, Omar)"), a
table's total split the ways another line gives ("Bills are split three ways", "Tom pays half",
"Fees split four ways"), or over the people a line lists when asked what each of us pays, with what
each paid against it. Asked "What's my share of November's bills?", the 1.5B gave every month's total.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable
from fractions import Fraction

from saturnd.tools.word_match import stems
from saturnd.turn.amounts import MONEY, count_written, money_written
from saturnd.turn.listing import TOTALS_LINE
from saturnd.turn.made_up import WORKED_OUT
from saturnd.turn.worked_times import plain

SHARE_ASKED = re.compile(r"\b(?:share|each|split|per\s+person|apiece|my\s+(?:part|bit|half|third|cut)|owes?\s+me|"
                         r"(?:he|she|they|(?-i:[A-Z])[\w'-]+)\s+(?:owes?|pays?|should\s+pay)\s+(?:for|towards|of)\b|"
                         r"(?:will|do|did|would|should)\s+I\s+(?:get|make|earn|take\s+home))\b", re.IGNORECASE)
PAYS_A_PART = re.compile(r"\bpays?\s+(?P<part>half|a\s+third|a\s+quarter)\b", re.IGNORECASE)
PARTS = {"half": 2, "a third": 3, "a quarter": 4}
"""A share a line gives as a part ("Tom pays half of anything shared"): the total over so many ways."""
SPLIT = re.compile(r"\b(?:split|shared|divided)\b(?:(?:\s+(?!between|among|equally)[a-z]+){0,2}?\s+(?P<ways>\d{1,2}|two|three|four|five|six)\s+ways\b|"
                   r"(?:\s+everything)?(?:\s+equally)?\s+(?:between|among)\s+(?:the\s+|all\s+)?(?P<among>\d{1,2}|two|three|four|five|six)\b|"
                   r"(?P<equally>\s+equally\b))?",
                   re.IGNORECASE)
"""A split and its ways: "split 3 ways", "Split fees four ways", "split equally between the four of us"."""
BRACKETED_NAMES = re.compile(r"\(([^()]*,[^()]*)\)")


def shares(lines: list[str], request: str) -> str:
    """Asked for a share of an amount a line splits ("Rent £1,450 split 3 ways (me, Jess, Omar)"),
    the amount over the ways; split "equally" without a number, over the ways another line of the
    file gives, or the names it brackets."""
    if not SHARE_ASKED.search(request):
        return ""
    splits = [(line, found) for line in lines if len(MONEY.findall(line)) == 1 and (found := SPLIT.search(line))]
    counted = [_ways(line, found) for line, found in splits]
    known = next((ways for ways in counted if ways), None)
    said = []
    for (line, _), ways in zip(splits, counted, strict=True):
        ways = ways or known
        if ways:
            amount = Fraction(MONEY.findall(line)[0].replace(",", ""))
            said.append(f"{line.strip(' -*•')}: {money_written(amount)} / {ways} = {money_written(amount / ways)} each")
    return "[Saturn worked out] " + "; ".join(said) if said else ""


US_ASKED = re.compile(r"\b(?:each\s+of\s+us|between\s+us|among\s+us|we\s+each|all\s+of\s+us|each\s+person)\b", re.IGNORECASE)
NAME = r"(?:[A-Z][\w'-]*|me|I)"
PEOPLE_LINE = re.compile(rf"^[\w ]{{2,30}}:\s*(?P<names>{NAME}(?:\s*(?:,|\band\b|&)\s*{NAME}){{1,9}})\s*\.?$")
"""The people a line lists, the user among them: "Travelling: me, Kate, Sam"."""
PAID_BY = re.compile(r"; (?P<column>[^;:]+?) by (?P<by>[^;:]+): (?P<sums>[^;]+)")


def table_share(request: str, shown: str, texts: Iterable[str] = ()) -> str:
    """Asked for a share of a table's total where a line of the `texts` about the same things says
    how it is split ("Bills are split three ways.", "Tom pays half of anything shared"), or asked
    what each of us pays where a line lists us ("Travelling: me, Kate, Sam"), the total over the
    ways, and what each paid against it: asked "What's my share of November's bills?", the 1.5B
    gave every month's total."""
    if not SHARE_ASKED.search(request):
        return ""
    asked = stems(SHARE_ASKED.sub("", request))
    lines = [line.strip(" -*•") for text in texts for line in text.splitlines()]
    columns = stems(" ".join(found["totals"] for line in shown.splitlines() if (found := TOTALS_LINE.match(line))))
    wanted = {stem.rstrip("s") for stem in asked | columns}  # "Fees split four ways" of a table's "fee = 900"
    ways = next((w for line in lines if not MONEY.search(line)
                 and ({stem.rstrip("s") for stem in stems(line)} & wanted or re.search(r"\beverything\b", line, re.IGNORECASE))
                 and (w := _ways_given(line))), None)  # "Split everything equally between the four of us": any table
    people = next((names for line in lines if US_ASKED.search(request) and (names := _us(line))), [])
    ways = ways or len(people) or None
    said = []
    for line in shown.splitlines():
        if ways and (totals := TOTALS_LINE.match(line)):
            column, _, total = totals.group("totals").split(", ")[-1].rpartition(" = ")
            with contextlib.suppress(ValueError, ZeroDivisionError):
                amount = Fraction(total)
                said.append(f"a share of {column} over {totals.group('over')}, split {ways} ways: "
                            f"{plain(amount)} / {ways} = {money_written(amount / ways)}"
                            + _against_the_share(line, column, people, amount / ways))
    return f"{WORKED_OUT} {'; '.join(said)}" if said else ""


PERCENT = re.compile(r"(?<![\d.])(?P<rate>\d{1,2}(?:\.\d+)?)\s?%")
PERCENT_WORDS = frozenset({"how", "much", "many", "should", "would", "need", "what", "have", "from", "every", "each"})


def percent_of_the_total(request: str, shown: str, texts: Iterable[str] = ()) -> str:
    """Asked an amount where a line of the `texts` about the same things takes a percentage of
    each ("Put aside 25% of every payment for tax."), that percentage of the table's total shown:
    asked "How much should I have put aside for tax from October?", the 1.5B gave October's total."""
    asked = {stem for stem in stems(request) if stem not in {w[:4] for w in PERCENT_WORDS}}
    lines = [line.strip(" -*•") for text in texts for line in text.splitlines()
             if len(PERCENT.findall(line)) == 1 and not MONEY.search(line)]
    line = next((line for line in lines if stems(PERCENT.sub("", line)) & asked), None)
    totals = next((found for text_line in shown.splitlines() if (found := TOTALS_LINE.match(text_line))), None)
    if line is None or totals is None or not re.search(r"\bhow\s+much\b", request, re.IGNORECASE):
        return ""
    column, _, total = totals.group("totals").split(", ")[0].rpartition(" = ")
    rate = Fraction(PERCENT.search(line)["rate"])  # type: ignore[index]
    with contextlib.suppress(ValueError):
        amount = Fraction(total)
        return (f"{WORKED_OUT} \"{line}\" of {column} over {totals.group('over')}: {plain(amount)} × {plain(rate)}% = "
                f"{money_written(amount * rate / 100)}")
    return ""


PART_OF = re.compile(r"^\W*(?P<part>half|(?:a|one)\s+third|two\s+thirds|(?:a|one)\s+quarter|three\s+quarters|(?:a|one)\s+tenth|"
                     r"\d{1,2}(?:\.\d+)?\s?%)\s+of\b", re.IGNORECASE)
PART_SIZES = {"half": Fraction(1, 2), "third": Fraction(1, 3), "thirds": Fraction(2, 3), "quarter": Fraction(1, 4),
              "quarters": Fraction(3, 4), "tenth": Fraction(1, 10)}
MIN_SHARED = 2


def part_of_the_amount(request: str, texts: Iterable[str]) -> str:
    """Asked how much of an amount the request gives, where a line of the `texts` about the same
    things takes a part of any ("Half of any birthday money goes in savings."), that part of it:
    asked "Maya got £20 for her birthday - how much of it goes in savings?", the 1.5B gave her row."""
    amounts = MONEY.findall(request)
    if len(amounts) != 1 or not re.search(r"\bhow\s+much\b", request, re.IGNORECASE):
        return ""
    asked = {stem for stem in stems(request) if stem not in {w[:4] for w in PERCENT_WORDS}}
    lines = [(line.strip(" -*•"), found) for text in texts for line in text.splitlines()
             if (found := PART_OF.match(line.strip(" -*•"))) and not MONEY.search(line)]
    fitting = [(line, found) for line, found in lines if len(stems(line[found.end():]) & asked) >= MIN_SHARED]
    if len(fitting) != 1:
        return ""
    line, found = fitting[0]
    part = found["part"].lower()
    size = Fraction(PERCENT.match(part)["rate"]) / 100 if PERCENT.match(part) else PART_SIZES[part.split()[-1]]  # type: ignore[index]
    amount = Fraction(amounts[0].replace(",", ""))
    return f"{WORKED_OUT} \"{line}\" of {plain(amount)}: {plain(amount)} × {size} = {money_written(amount * size)}"


def _us(line: str) -> list[str]:
    """The people a line lists when the user is one of them."""
    found = PEOPLE_LINE.match(line)
    names = re.split(r"\s*(?:,|\band\b|&)\s*", found["names"]) if found else []
    return names if any(name in {"me", "I"} for name in names) else []


def _against_the_share(line: str, column: str, people: list[str], share: Fraction) -> str:
    """What each of the people paid of the column, by the table's column of who paid, against the
    share: "Kate paid 486, 67 over her share; Sam paid 87, 332 short"."""
    paid = next((found for found in PAID_BY.finditer(line) if found["column"] == column), None)
    if not people or paid is None:
        return ""
    sums = dict(part.rpartition(" ")[::2] for part in paid["sums"].split(", "))
    if not {name.lower() for name in people} >= {name.lower() for name in sums}:
        return ""
    said = []
    for name in people:
        spent = Fraction(next((v for k, v in sums.items() if k.lower() == name.lower()), "0"))
        gap = spent - share
        said.append(f"{'you' if name in {'me', 'I'} else name} paid {plain(spent)}, " + (f"{money_written(gap)} over the share" if gap > 0
                                                      else f"{money_written(-gap)} short of it" if gap < 0 else "the share"))
    return " (" + "; ".join(said) + ")"


def _ways_given(line: str) -> int | None:
    """The ways a line of no amount splits things: "split three ways", "Tom pays half"."""
    if (found := SPLIT.search(line)) and (written := found.group("ways") or found.group("among")):
        return count_written(written)
    part = PAYS_A_PART.search(line)
    return PARTS[" ".join(part["part"].lower().split())] if part else None


def _ways(line: str, found: re.Match[str]) -> int | None:
    if written := found.group("ways") or found.group("among"):
        return count_written(written)
    names = BRACKETED_NAMES.search(line)
    return len(names.group(1).split(",")) if names else None
