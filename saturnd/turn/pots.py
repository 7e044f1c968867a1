"""Pots toward a goal: a line's amount so far against its target ("Holiday fund: £1,350 of
£2,000", "Emergency fund: £2,100, target £3,000", "saving for a bike (£120), has £64 saved"), as
what is still to go and the share reached, and at what a line puts in ("I put in £150 a month to
the holiday fund") how long the rest takes; told money went into one ("I added £50 to the bike
fund."), its line so much more.

Asked "How much more do I need for the holiday?", the 1.5B answered the £1,350; told "I added £50
to the bike fund.", it wrote nothing and answered with the lines it was shown.
"""

from __future__ import annotations

import re
from fractions import Fraction

from saturnd.tools.periods import PERIOD, period_named
from saturnd.tools.word_match import stems
from saturnd.turn.amounts import MONEY, money_written
from saturnd.turn.made_up import WORKED_OUT
from saturnd.turn.worked_times import plain

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
                          r"[£$€]\s?(?P<amount>\d[\d,]*(?:\.\d+)?)\s+(?:to|into|in|towards?|for)\b(?P<to>.*)$|"
                          r"\b(?P<spent>spent|used|took)\s+[£$€]\s?(?P<taken>\d[\d,]*(?:\.\d+)?)\s+(?:of|from|off)\b(?P<from>.*)$",
                          re.IGNORECASE)
"""Money told put into a thing, or spent of one ("I spent £20 of the John Lewis card.")."""


def _rate_part(line: str) -> str:
    """A line with the part giving its amount so far against a goal taken out: "Holiday: (paying in
    £150 a month)" of "Holiday: £640 of £1,500 (paying in £150 a month)", the rate it goes up by."""
    found = PROGRESS.search(line) or SAVED.search(line) or TARGETED.search(line)
    return line[:found.start()] + line[found.end():] if found else line


def amount_added(lines: list[str], request: str) -> str:
    """Told money went into a thing ("I added £50 to the bike fund."), the line about it with its
    first amount so much more: "New bike: £180 of £650" as "New bike: £230 of £650"; the 1.5B wrote
    nothing and answered with the lines it was shown. Told money was spent of one ("I spent £20 of
    the John Lewis card."), so much less: the 1.5B added "You spent £20 …" below its £50."""
    found = line_with_money_added(lines, request)
    if found is None:
        return ""
    _, written, (before, added, total) = found
    sign = "+" if added >= 0 else "-"
    return f"{WORKED_OUT} {before} {sign} {money_written(abs(added))} = {money_written(total)}: the line would read \"{written.strip()}\""


def line_with_money_added(lines: list[str], request: str) -> tuple[str, str, tuple[str, Fraction, Fraction]] | None:
    """(the line money told as added went into, that line with its first amount so much more, (its
    amount as written, the amount added, the new amount)); None where no one line is it. Money
    spent of a thing is added less."""
    told = ADDED_AMOUNT.search(request)
    if told is None:
        return None
    to = told.group("to") if told.group("to") is not None else told.group("from")
    words = [stem for stem in dict.fromkeys(sorted(stems(to), key=to.lower().find))]
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
    added = Fraction((told.group("amount") or told.group("taken")).replace(",", "")) * (-1 if told.group("spent") else 1)
    value = first.group(1).rstrip(",")  # "£50, expires …": the comma is the line's
    total = Fraction(value.replace(",", "")) + added
    if "." in value:  # "£12.40 left" stays in pence: £7.00
        as_written = f"{total.numerator / total.denominator:,.2f}" if "," in value else f"{total.numerator / total.denominator:.2f}"
    else:
        as_written = f"{total.numerator:,}" if "," in value and total.denominator == 1 else money_written(total)
    return line, line[:first.start(1)] + as_written + line[first.start(1) + len(value):], (value, added, total)


CLOSEST_ASKED = re.compile(r"\b(?:closest|nearest|furthest|farthest|most\s+of\s+the\s+way|least\s+far)\b", re.IGNORECASE)


def _toward(label: str, have: Fraction, goal: Fraction) -> str:
    if have >= goal:
        return f"{label} {money_written(have)} of {money_written(goal)}: reached"
    return (f"{label} {money_written(have)} of {money_written(goal)}: {money_written(goal)} - {money_written(have)} = {money_written(goal - have)} more to go,"
            f" {plain(Fraction(round(have * 100 / goal, 1)))}% there")
