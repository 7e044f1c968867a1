"""Who "I" is, where the user's files say so: a flat's notes write "Flatmates: Ana, Ben and me
(Chris)", a choir's "I'm Hannah (alto)", and its rota only "30 Nov: … Chris - hoovering". Asked
"What am I cleaning this week?", the 1.5B answered the rota's heading: it could not tell which of
the names was the user's."""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Iterator

from saturnd.turn.retrieval import Document, Excerpt

SELF_NAMED = re.compile(
    r"\b[Mm]e\s*\((?P<bracketed>[A-Z][a-z]+)\)|\bI(?:'m|’m|\s+am)\s+(?P<said>[A-Z][a-z]+)\b|"
    r"^\W*(?:[Mm]e|[Mm]y\s+name(?:\s+is)?)\s*[:=-]?\s*(?P<given>[A-Z][a-z]+)\b", re.MULTILINE)
MAX_ROWS = 8
"""Of a table, the user's rows named at most."""
FIRST_PERSON = re.compile(r"\b(?:I|me|my|mine)\b|\bam\s+I\b", re.IGNORECASE)


def the_user_named(request: str, documents: Iterable[Document], excerpts: list[Excerpt]) -> str:
    """"[Saturn noted] the user is Chris (flat.md: …)" for a request in the first person, where a
    file names the user and a line shown for the request holds that name; "" otherwise."""
    if not FIRST_PERSON.search(request):
        return ""
    shown = "\n".join(line for part in excerpts for line in part.lines)
    for doc in documents:
        for line in doc.text.splitlines():
            found = SELF_NAMED.search(line)
            name = found and (found.group("bracketed") or found.group("said") or found.group("given"))
            if name and name not in request and re.search(rf"\b{name}\b", SELF_NAMED.sub("", shown)):
                return f'[Saturn noted] the user is {name} ({doc.source}: "{line.strip()}")' + _their_rows(name, excerpts)
    return _rows_saying_me(excerpts)


def _rows_saying_me(excerpts: list[Excerpt]) -> str:
    """A table's rows with "Me" as a cell, whole: asked "When's my next shift?" of a volunteers'
    rota, the 1.5B gave the first row's, Alice's. So too the part of a line's list that says "me"
    ("Host rota: …, February me, …"): asked "When am I hosting?", it gave the club's meeting day;
    and a rota's lines that are "me" ("Mon: me", "Thu: me"), counted: asked how many days a week
    it drives, it said 5."""
    said = [f"{label}: {mine}" for excerpt in excerpts for label, mine in _parts_saying_me(excerpt.lines)]
    said += [rota for excerpt in excerpts if (rota := _lines_saying_me(excerpt.lines))]
    for source, header, body in _tables(excerpts):
        mine = [", ".join(f"{header[i].strip()} {cell.strip()}" for i, cell in enumerate(row) if i < len(header) and cell.strip())
                for row in body if any(cell.strip().lower() in ("me", "myself") for cell in row)]
        if mine:
            said.append(f"{source}: " + " | ".join(mine[:MAX_ROWS]))
    return f'[Saturn noted] the rows that say "Me" are the user\'s: {"; ".join(said)}' if said else ""


ME_WORD = re.compile(r"\b(?:me|myself)\b", re.IGNORECASE)


def _parts_saying_me(lines: list[str]) -> Iterator[tuple[str, str]]:
    """(the line's label, its part) for a labelled line's comma list where one part says "me" with
    more than that ("February me"), not a list of names ("Members: me, Hannah")."""
    for line in lines:
        label, colon, listed = line.strip(" -*•").partition(":")
        parts = [part.strip(" .") for part in listed.split(",")] if colon else []
        mine = [part for part in parts if ME_WORD.search(part) and ME_WORD.sub("", part).strip()
                and not re.search(r"\band\b|&|\(", part)]  # "Ben and me (Chris)": names
        if len(parts) > 1 and len(mine) == 1 and label.strip() and not any(c.isdigit() for c in label):
            yield label.strip(), mine[0]


def _lines_saying_me(lines: list[str]) -> str:
    """"2 of 5 lines: Mon: me; Thu: me" of a rota of "label: who" lines, some of them "me"."""
    rota = [(label.strip(), who.strip(" .")) for line in lines if (parts := line.strip(" -*•").partition(":"))[1]
            and (label := parts[0]) and (who := parts[2]) and 0 < len(who.split()) <= 3
            and re.fullmatch(r"\s*[A-Za-z][A-Za-z' -]*", who)]
    mine = [f"{label}: {who}" for label, who in rota if ME_WORD.fullmatch(who)]
    return f"{len(mine)} of {len(rota)} lines: {'; '.join(mine)}" if mine and len(rota) > len(mine) else ""


def _their_rows(name: str, excerpts: list[Excerpt]) -> str:
    """A table's rows with the name as a cell, by its columns' names: "; their rows of rota.csv:
    week_of 2026-11-16, washing_up Ria"."""
    said = []
    for source, header, body in _tables(excerpts):
        theirs = [", ".join(f"{header[i].strip()} {cell.strip()}" for i, cell in enumerate(row)
                            if i < len(header) and (i == 0 or cell.strip() == name))
                  for row in body if name in (cell.strip() for cell in row)]
        if theirs:
            said.append(f"; their rows of {source}: " + " | ".join(theirs[:MAX_ROWS]))
    return "".join(said)


def _tables(excerpts: list[Excerpt]) -> Iterator[tuple[str, list[str], list[list[str]]]]:
    """(source, header, rows) of each table shown."""
    for part in excerpts:
        if part.source.lower().endswith((".csv", ".tsv")) and len(part.lines) >= 2:
            rows = list(csv.reader(part.lines, "excel-tab" if part.source.lower().endswith(".tsv") else "excel"))
            yield part.source, rows[0], rows[1:]


SUMS_BY = re.compile(r"(?P<column>[\w ]+?) by (?P<by>[\w ]+?): (?P<sums>[^;]+)")
OWN_SUM_ASKED = re.compile(r"\bhow\s+much\s+(?:have|did|do)\s+I\b|\bhow\s+much\s+(?:is|was)\s+mine\b|\bmy\s+(?:share|total|part)\b",
                           re.IGNORECASE)


def own_sum_missed(answer: str, request: str, seen: str) -> str | None:
    """The sum of the rows that say "me", when asked how much I paid or spent and the answer gives
    another: asked "How much have I paid?" with "cost by paid by: Kate 486, me 684, Sam 87" shown,
    the 1.5B answered the trip's whole 1257."""
    if not OWN_SUM_ASKED.search(request):
        return None
    given = {number.replace(",", "") for number in re.findall(r"\d[\d,]*(?:\.\d+)?", answer)}
    for line in seen.splitlines():
        if not line.startswith("[Saturn worked out]"):
            continue
        for found in SUMS_BY.finditer(line):
            mine = re.search(r"(?:^|,\s*)(?:me|myself)\s+(?P<sum>\d+(?:\.\d+)?)\b", found["sums"], re.IGNORECASE)
            if mine and given and mine["sum"] not in given:
                return f"[Saturn worked out] {found['column'].strip()} by {found['by'].strip()}, the user's (me): {mine['sum']}"
    return None


NOTED_PART = re.compile(r'^\[Saturn noted\] the rows that say "Me" are the user\'s: (?P<parts>.+)$', re.MULTILINE)


def own_part_missed(answer: str, request: str, seen: str) -> str | None:
    """The part of a list that says "me" ("Host rota: February me"), when a request in the first
    person is answered without its words: asked "When am I hosting?", the 1.5B gave the club's
    meeting day."""
    noted = NOTED_PART.search(seen)
    if noted is None or not FIRST_PERSON.search(request):
        return None
    for part in noted["parts"].split("; "):
        label, colon, mine = part.partition(": ")
        words = set(re.findall(r"[a-z]{3,}", ME_WORD.sub("", mine).lower()))
        if (colon and "," not in mine and not any(c.isdigit() for c in label) and words
                and not words & set(re.findall(r"[a-z]{3,}", answer.lower()))):
            return f"[Saturn noted] {label}: {mine}"
    counted = COUNTED_MINE.search(noted["parts"])
    if counted and WHEN_ON_ASKED.search(request):  # "When am I hosting?" of "February: me": not "January 17"
        mine = {line.split(":")[0].strip().lower()[:3] for line in counted["lines"].split("; ")}
        named = {found.group(0).lower()[:3] for found in DAY_OR_MONTH_NAME.finditer(answer)}
        of_days = all(DAY_OR_MONTH_NAME.fullmatch(line.split(":")[0].strip()) for line in counted["lines"].split("; "))
        if of_days and (not named & mine or named - mine):  # none of the user's, or others' too ("January, February and March")
            return f"[Saturn noted] {counted['lines']}"
    return None


DAY_OR_MONTH_NAME = re.compile(r"\b(?:mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b",
                               re.IGNORECASE)

WHEN_ON_ASKED = re.compile(r"^\W*(?:when|which|what\s+(?:day|days|month|months|week|weeks|date))\b", re.IGNORECASE)
"""Asked when the user is on a rota ("When am I hosting?")."""


COUNTED_MINE = re.compile(r"(?:^|; )(?P<count>\d+) of (?P<all>\d+) lines: (?P<lines>[^;]+(?:; [^;]+?: (?:me|myself))*)",
                          re.IGNORECASE)
HOW_MANY_ASKED = re.compile(r"\bhow\s+many\b", re.IGNORECASE)
COUNT_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}


def own_count_missed(answer: str, request: str, seen: str) -> str | None:
    """The count of a rota's lines that say "me", when a request in the first person asks how many
    and the answer gives another: asked "How many days am I driving this week?" with "2 of 5 lines:
    Mon: me; Wed: me" shown, the 1.5B said 5."""
    noted = NOTED_PART.search(seen)
    if noted is None or not FIRST_PERSON.search(request) or not HOW_MANY_ASKED.search(request):
        return None
    counted = COUNTED_MINE.search(noted["parts"])
    given = [int(n) for n in re.findall(r"\b\d+\b", answer)] + [COUNT_WORDS[w] for w in re.findall(
        r"\b(?:one|two|three|four|five|six|seven)\b", answer.lower())]
    if counted is None or not given or int(counted["count"]) in given:
        return None
    return f"{counted['count']} of {counted['all']} lines say you: {counted['lines']}"
