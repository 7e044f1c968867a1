"""Checks of an answer against the rows of a table the ground picked.

The ground lists the rows a value, a blank or a day picks ("the rows with class Spin (2 of 7): …",
"no driver in 1: date 2026-12-07, run afternoon", "tomorrow, Friday 4 December: day Friday, time
17:30, class HIIT …"). The 1.5B still answered
with a cell of a row left out, or named one picked row of two; each check returns the ground's
line to send the answer back with, or None.
"""

from __future__ import annotations

import re
from decimal import Decimal

from saturnd.tools.table_asked import LARGEST_ASKED, SMALLEST_ASKED
from saturnd.turn.listing import table_rows_above

ROWS_PICKED = re.compile(r"^\[Saturn (?:listed|dated|counted|worked out)\] (?P<which>the rows with [^:]+?|no [^:]+? in \d+|"
                         r"the rows dated covering [^:]+?|"
                         r"[^:;]*?\d+ [A-Z][a-z]+): (?P<rows>.+)$"
                         r"|^\[Saturn worked out\] (?:[^;]*?; )?totals over (?P<over>the [^;]*? rows \([^)]*\)): [^;]*; "
                         r"the rows?: (?P<listed>[^;]+)")


def picked_rows_not_asked(answer: str, request: str, seen: str) -> str | None:
    """The rows of a table the ground picked by a value or a day ("the rows with class Spin (3 of
    7): …", "tomorrow, Friday 4 December: day Friday, time 17:30, class HIIT …"), when the answer
    gives a cell only rows left out hold: asked what classes are on tomorrow, the 1.5B answered
    "Yoga, HIIT", the yoga on Thursdays."""
    lines = seen.splitlines()
    said = answer.lower()
    for at, line in enumerate(lines):
        if (found := ROWS_PICKED.match(line)) is None:
            continue
        rows, picked = _rows_picked(lines, at, found)
        kept = {cell.strip().lower() for row in picked for cell in row}
        others = {cell.strip().lower() for row in rows if row not in picked for cell in row} - kept
        if picked and any(len(other) > 2 and re.search(rf"(?<!\w){re.escape(other)}(?!\w)", said) for other in others):
            return _quoted(found)
    return None


WHO_OR_WHICH = re.compile(r"^\W*(?:who|which)\b", re.IGNORECASE)
ONE_ASKED = re.compile(r"\b(?:next|first|last|earliest|latest|soonest|one)\b", re.IGNORECASE)


def picked_rows_left_out(answer: str, request: str, seen: str) -> str | None:
    """The rows the ground picked, when asked who or which and the answer names one picked row's
    value of a column but not another's: asked "Who teaches spin?" with Kat's and Dom's rows picked,
    the 1.5B answered "Kat teaches Spin."."""
    if not WHO_OR_WHICH.search(request) or ONE_ASKED.search(request):
        return None
    lines = seen.splitlines()
    said = answer.lower()
    for at, line in enumerate(lines):
        if (found := ROWS_PICKED.match(line)) is None:
            continue
        _, picked = _rows_picked(lines, at, found)
        for column in range(min((len(row) for row in picked), default=0)):
            values = {row[column].strip().lower() for row in picked} - {""}
            named = {value for value in values if len(value) > 2 and any(  # "the hotel" of "hotel Manchester" too
                re.search(rf"(?<!\w){re.escape(said_as)}(?!\w)", said) for said_as in {value, value.split()[0]} if len(said_as) > 3
                or said_as == value)}
            if named and named != values:
                return _quoted(found)
    return None


SUPERLATIVE_ROW = re.compile(r"\b(?P<which>(?:largest|smallest) [^:;]+): \((?P<cells>[^)]*)\)|; the most: (?P<most>[^;\n]+?) [\d.]+(?:;|$)",
                             re.MULTILINE)


EACH_GROUPS = re.compile(r"^\[Saturn worked out\] the [^:\n]+ for each [^:\n]+: [^\n]*; together (?P<together>\d+(?:\.\d+)?)$",
                         re.MULTILINE)


def superlative_missed(answer: str, request: str, seen: str) -> str | None:
    """The row the ground worked out as the largest or smallest asked, or the most days a row took,
    when the answer names none of its cells: asked "What was my favourite book?" with "largest
    rating: (title Tomorrow and Tomorrow and Tomorrow, …, rating 5)" shown, the 1.5B gave the
    want-to-read list. Asked for the cheapest of each group, the answer must give their sum."""
    if ordered := _first_by_speed_missed(answer, request, seen):
        return ordered
    if not (LARGEST_ASKED.search(request) or SMALLEST_ASKED.search(request)):
        return None
    if each := EACH_GROUPS.search(seen):  # "the cheapest quote for each job: …; together 12950": the sum of the picks
        return None if each["together"] in re.sub(r"(?<=\d),(?=\d{3})", "", answer) else each.group(0)
    found = [m for line in seen.splitlines() if line.startswith("[Saturn worked out]") for m in SUPERLATIVE_ROW.finditer(line)]
    if not found:
        return None
    said = re.sub(r"[£$€,]", "", answer.lower())
    if any(top.lower() in said for top in _tops_by_kind(seen, SMALLEST_ASKED.search(request) is None)):
        return None  # "Which client did I work most for?": the client whose hours add up most
    for row in found:
        cells = [row["most"]] if row["most"] else [cell.split(" ", 1)[-1] for cell in row["cells"].split(", ")]
        if any(len(cell) > 2 and re.sub(r"[£$€,]", "", cell.lower()) in said for cell in cells):
            return None
    return "[Saturn worked out] " + "; ".join(row.group(0).strip("; ") for row in found)


BY_SPEED = re.compile(r"; by (?P<column>[^,;]+), (?:fastest|slowest) first: (?P<rows>[^;\n]+)")
SPEED_ASKED = re.compile(r"\b(?:fastest|quickest|slowest)\b", re.IGNORECASE)


def _first_by_speed_missed(answer: str, request: str, seen: str) -> str | None:
    """Asked the fastest, the first row "by avg speed, fastest first" when the answer has none of
    the cells that row alone holds: the 1.5B gave the first commute listed, not the fastest."""
    found = BY_SPEED.search(seen) if SPEED_ASKED.search(request) else None
    if found is None:
        return None
    rows = [{cell.split(" ")[-1] for cell in row.strip().split(", ")} for row in found["rows"].split(" | ")]
    own = rows[0] - set().union(*rows[1:])
    return None if not own or any(cell in answer for cell in own) else f"{found['column']}: {found['rows'].split(' | ')[0].strip()}"


BY_KIND = re.compile(r"; [^;:]+ by [^;:]+: (?P<sums>[^;\n]+)")


def _tops_by_kind(seen: str, largest: bool) -> list[str]:
    """The kind with the largest (or smallest) sum of each "… by kind: a 7.5, b 10.5" the ground shows."""
    tops = []
    for found in BY_KIND.finditer(seen):
        sums = [(Decimal(m[2]), m[1].strip()) for m in re.finditer(r"([^,]+?) (-?\d+(?:\.\d+)?)(?:,|$)", found["sums"])]
        if sums:
            tops.append((max if largest else min)(sums)[1])
    return tops


def _rows_picked(lines: list[str], at: int, found: re.Match[str]) -> tuple[list[list[str]], list[list[str]]]:
    """The table's rows above the ground's line `lines[at]`, and those of them it picked."""
    rows = [row.split(",") for row in table_rows_above(lines, at) if "," in row and not row.startswith("[Saturn")]
    picked = found["rows"] or found["listed"]
    return rows, [row for row in rows if all(cell.strip() in picked for cell in row if cell.strip())]


def _quoted(found: re.Match[str]) -> str:
    return f"{found['which'] or found['over']}: {found['rows'] or found['listed']}"


COMING_COUNTED = re.compile(r"^\[Saturn counted\] (?P<line>coming \([^)]*\): (?P<count>\d+) of the \d+ rows[^\n]*)$", re.MULTILINE)
HOW_MANY_COMING = re.compile(r"\bhow\s+many\b.*\b(?:coming|attending|going|come|attend)\b", re.IGNORECASE)


def coming_counted(request: str, seen: str) -> bool:
    """Whether the request asks how many are coming and the ground counted them."""
    return bool(HOW_MANY_COMING.search(request) and COMING_COUNTED.search(seen))


def coming_miscounted(answer: str, request: str, seen: str) -> str | None:
    """The count of those coming, when asked how many are and the answer gives another number:
    asked "How many people from the groom's side are coming?" with "coming (rsvp yes): 2 of the 3
    rows with side groom" shown, the 1.5B answered 3."""
    found = COMING_COUNTED.search(seen) if HOW_MANY_COMING.search(request) else None
    given = re.findall(r"\d+", answer)
    return f"[Saturn counted] {found['line']}" if found and given and found["count"] not in given else None
