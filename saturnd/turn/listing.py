"""The lists the ground showed, by the file names a request uses: an answer to "what's on my
list?" that gives only part of one, and whether an add's list was shown at all.

Asked "What's left on my to-do list?" with todo.txt shown whole (three lines), the 1.5B
answered its first line, "renew passport". The list is the whole file of an excerpt whose
name shares a word with the request, and whose lines (headings and comments aside) are
short; an item counts as given when every word of it is in the answer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import Decimal

from saturnd.tools.table_flags import FLAGS
from saturnd.tools.word_match import query_terms, stems
from saturnd.turn.errands import TOLD_DONE, asked_action
from saturnd.turn.made_up import HEADING, NUMBER, plain_number

LISTING_REQUEST = re.compile(
    r"\bwhat(?:'s|’s|s|\s+is|\s+are)\s+(?:(?:still|left|else)\s+)?(?:on|in)\s+(?:my|our|the)\b", re.IGNORECASE
)
WHOLE_FILE = re.compile(r"^--- (?P<name>\S+) \(whole file, \d+ lines\)$")
BLOCK_END = re.compile(r"^(?:--- |</outside>|\[Saturn )")
ITEM_WORD = re.compile(r"[^\W\d_]{2,}|\d+")
MAX_ITEM_WORDS = 8
COMMENT = re.compile(r"^\s*<!--")


def part_of_the_list(answer: str, request: str, seen: str) -> str | None:
    """"todo.txt, 1 of its 3 lines: renew passport; book dentist; fix bike light" when the answer
    gives some of the items of a list the request asks about (shown whole) and leaves out others."""
    if not LISTING_REQUEST.search(request):
        return None
    terms = set(query_terms(request))
    said = {w.lower() for w in ITEM_WORD.findall(answer)}
    for name, items in _whole_files(seen):
        if not _named_by(terms, name):
            continue
        if any(len(item.split()) > MAX_ITEM_WORDS for item in items):
            continue  # prose, or something planted in it: not a list to read back whole
        if STILL_ASKED.search(request) and any(DONE_MARK.search(item) for item in items):
            items = [item for item in items if not DONE_MARK.search(item)]  # what is left is the list asked
        given = [item for item in items if set(w.lower() for w in ITEM_WORD.findall(item)) <= said]
        if given and len(given) < len(items):
            return f"{name}, {len(given)} of its {len(items)} lines: {'; '.join(items)}"
    return None


def whole_list(quote: str) -> str:
    """The answer a part_of_list send-back's list gives, the model having given part of it twice:
    "On your list (wishlist.txt): Kindle - £95; Running shoes - £110"."""
    name, _, items = quote.partition(": ")
    return f"On your list ({name.split(',')[0]}): {items}" if items else ""


SHOWN_FILE = re.compile(r"^--- (\S+)", re.MULTILINE)
"""An excerpt's heading in the ground: "--- todo.txt (whole file, 3 lines)"."""


def shown_file_named(request: str, seen: str) -> bool:
    """Whether an excerpt shown is of a file the request names by a word of its name: "my to-do
    list" and todo.txt (asked to add to it, the 1.5B searched for "council" and answered "I don't
    have any information about the council")."""
    terms = set(query_terms(request))
    return any(_named_by(terms, name) for name in SHOWN_FILE.findall(seen))


def _named_by(terms: set[str], name: str) -> bool:
    return bool(terms & set(re.findall(r"[a-z]{3,}", name.lower().rsplit(".", 1)[0])))


def _whole_files(seen: str) -> list[tuple[str, list[str]]]:
    """Each whole file shown as an excerpt, with its lines that are not headings."""
    files: list[tuple[str, list[str]]] = []
    current: list[str] | None = None
    for line in seen.splitlines():
        if found := WHOLE_FILE.match(line):
            current = []
            files.append((found.group("name"), current))
        elif current is not None and BLOCK_END.match(line):
            current = None
        elif current is not None and line.strip() and not HEADING.search(line) and not COMMENT.match(line):
            current.append(line.strip().lstrip("-*• ").strip())
    return files


STILL_ASKED = re.compile(
    r"\b(?:still|left|yet|remaining|outstanding|to\s+go|(?:have|has)n't|(?:have|has)\s+not|(?:got|need)\s+to\s+(?:do|buy|get|pay))\b",
    re.IGNORECASE)
"""Asked what is still to do: "How many things have I got to do?" of a list with a line marked done is not all its lines."""
DONE_MARK = re.compile(
    r"[(\[](?:bought|done|got|paid|sent|booked|ordered|finished|returned)(?:[)\]]|,\s)|\[x\]|[✓✔✅]|~~|"
    r"[-:–]\s*(?:bought|done|got|paid|sent|booked|finished)\s*$|,\s*(?:paid|done)(?:\s+in\s+full)?\s*\.?\s*$",
    re.IGNORECASE)
MAX_NOT_DONE = 12
MARKED_AS = re.compile(r"\b(?:as\s+)?(done|bought|got|paid|sent|booked|ordered|finished|packed|returned|posted|collected|"
                       r"complete)d?\b",
                       re.IGNORECASE)


def marks_done(request: str) -> bool:
    """Whether the request marks a line done: "Mark the Q4 report as done", or "Sam paid me back,
    can you update that?" (what happened, before the comma, says the mark)."""
    verb = asked_action(request)
    return verb == "mark" or (verb == "update" and MARKED_AS.search(request.split(",")[0]) is not None)


def marked_line(line: str, request: str) -> str | None:
    """`line` marked as the request marks it ("Mark the Q4 report as done"): its empty tick box
    ticked ("- [x] send Q4 report to Ruth"), else the word asked after it ("- Dad: book (bought)");
    None when the request marks nothing, or the line is marked already."""
    asked = MARKED_AS.search(request)
    if DONE_MARK.search(line) or (asked is None and not TOLD_DONE.match(request)):
        return None
    if re.search(r"\[ \]", line):
        return re.sub(r"\[ \]", "[x]", line, count=1)
    if added := MARK_GIVEN.search(request):  # "by adding " [done]" at the end": the mark as given
        return line + added.group("mark")
    mark = f"({asked.group(1).lower() if asked else 'done'})"
    if line.lstrip().startswith("|"):  # "| The Covenant of Water (finished) | …": the table stays whole
        cells = line.split("|")
        named = max(range(1, len(cells) - 1), key=lambda i: len(stems(cells[i]) & stems(request)), default=None)
        if named is not None:
            cells[named] = f"{cells[named].rstrip()} {mark} "
            return "|".join(cells)
    return f"{line} {mark}"


MARK_GIVEN = re.compile(r"\b(?:adding|add|append(?:ing)?|putting|put)\s+[\"“'‘](?P<mark>[^\"”'’]+)[\"”'’]\s+(?:at\s+the\s+end|after)",
                        re.IGNORECASE)
"""The mark the request spells out for the line's end (' [done]')."""
NOT_DONE_LINE = re.compile(r"^\[Saturn counted\] \d+ not marked done: ")
AMOUNT_ASKED = re.compile(r"\bhow\s+much\b", re.IGNORECASE)


def not_done(lines: list[str], request: str) -> str:
    """Asked what is still to do, the lines of a list that no mark says are done, when some are:
    asked "What have I still got to buy for Christmas?" of "- Ella: lego (bought)" and "- Dad:
    book", the 1.5B answered the lego; when none are, the lines that say so ("not booked")."""
    items = _list_items([line.strip() for line in lines if line.strip() and not HEADING.search(line)])
    done = [line for line in items if DONE_MARK.search(line)]
    if not STILL_ASKED.search(request) or AMOUNT_ASKED.search(request):
        return ""  # "How much do I still owe the photographer?": an amount, not the lines left to do
    if not done or len(done) == len(items):
        return _said_not_done(items, request)
    left = [line for line in items if line not in done]
    if WHO_FOR.match(request) and (theirs := [line for line in left if SOMEONES_ITEM.match(line)]):
        left = theirs  # "Who have I still got to buy for?": Dad's and Sam's, not the turkey still to collect
    return f"[Saturn counted] {len(left)} not marked done: " + "; ".join(left[:MAX_NOT_DONE])


WHO_FOR = re.compile(r"^\W*who(?:m)?\b", re.IGNORECASE)
SOMEONES_ITEM = re.compile(r"^\W*(?:\[[ xX]\]\s*)?(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)?\s*:")
"""A list line for someone: "- Dad: book"."""


TICK_BOX = re.compile(r"\[[ xX]\]")
LIST_MARK = re.compile(r"^\s*(?:[-*•]|\d{1,3}[.)])\s")
"""A list line's bullet or number ("- milk", "4. Piranesi")."""


def _list_items(lines: list[str]) -> list[str]:
    """The lines of a list among a file's other lines: its tick boxes where it has some, else its
    bullets ("Rent: £38 a year" above "## To do" is no job still to do)."""
    for kind in (TICK_BOX, LIST_MARK):
        if listed := [line for line in lines if kind.search(line)]:
            return listed
    return lines


SAID_NOT = re.compile(r"\bnot\s+(?:yet\s+)?([a-z]+)", re.IGNORECASE)


def _said_not_done(items: list[str], request: str) -> str:
    """The lines that say they are not done in the request's own word ("Gutters — quote £120, not
    booked" for "What jobs still need booking?"): the 1.5B listed every job."""
    asked = stems(request)
    said = [line for line in items if any(word[:4].lower() in asked for word in SAID_NOT.findall(line))]
    if not said or len(said) == len(items):
        return ""
    return f"[Saturn counted] {len(said)} not done, as their lines say: " + "; ".join(said[:MAX_NOT_DONE])


def marked_done_given(answer: str, request: str, seen: str) -> str | None:
    """The "[Saturn counted] … not marked done" line shown, when the request asks what is still to
    do and the answer names a word only a line marked done has: shown "2 not marked done: - Dad:
    book; - Sam: ?", the 1.5B answered "You still have to buy a scarf and a lego"."""
    shown = next((line for line in seen.splitlines() if NOT_DONE_LINE.match(line)), None)
    if shown is None or not STILL_ASKED.search(request) or AMOUNT_ASKED.search(request):
        return None
    left = {w.lower() for w in ITEM_WORD.findall(shown)}
    done = {w.lower() for line in seen.splitlines() if DONE_MARK.search(line) and not NOT_DONE_LINE.match(line)
            for w in ITEM_WORD.findall(DONE_MARK.sub(" ", line))} - left
    said = {w.lower() for w in ITEM_WORD.findall(answer)}
    return shown if said & done else None


def still_to_do(shown: str) -> str:
    """The answer the "[Saturn counted] … not marked done" line gives: "Not marked done on your
    list: Dad: book; Sam: ?"."""
    left = NOT_DONE_LINE.sub("", shown).split("; ")
    return "Not marked done on your list: " + "; ".join(line.lstrip("-*• ").strip() for line in left)


MAX_TABLE_LINES = 60
WHICH_ASKED = re.compile(r"^\W*(?:which|what)\s+(?!time\b|day\b|date\b)[a-z]+\b", re.IGNORECASE)
ROWS_ASKED = re.compile(r"^\[Saturn worked out\] totals over the (?P<which>[^()]+? rows) \(\d+: (?P<names>[^)]*)\)")


def table_rows_above(lines: list[str], at: int) -> list[str]:
    """The rows of the table whose "[Saturn worked out]" line is `lines[at]`: past its file's header
    line and the table's header row; none where no file's header is near."""
    start = next((i for i in range(at - 1, max(-1, at - MAX_TABLE_LINES), -1) if lines[i].startswith("--- ")), None)
    return [] if start is None else lines[start + 2:at]


def rows_not_asked(answer: str, request: str, seen: str) -> str | None:
    """The rows a yes/no column selected ("the paid = no rows: Electric, Water"), when the answer
    also names a row of the same table it left out: asked "Which bills haven't I paid?", the
    1.5B answered "Council tax, Electric, Water", the council tax paid."""
    lines = seen.splitlines()
    for at, line in enumerate(lines):
        found = ROWS_ASKED.match(line) or NONE_TO_GO.search(line)
        if found is None:
            continue
        names = {name.strip().lower() for name in found.group("names").split(",")}
        rows = table_rows_above(lines, at)
        others = {row.split(",")[0].strip().lower() for row in rows if "," in row} - names
        said = answer.lower()
        if any(re.search(rf"(?<!\w){re.escape(other)}(?!\w)", said) for other in others if len(other) > 2):
            return f"the {found.group('which')}: {found.group('names')}"
        # asked which, none of the rows picked named: "Which expenses haven't I claimed yet?" answered with work.md's line
        picked_cells = {cell.strip() for row in rows if "," in row and row.split(",")[0].strip().lower() in names
                        for cell in row.split(",")} | names  # "the lego set" of Jack's row
        if WHICH_ASKED.match(request) and not any(stems(cell) & stems(answer) for cell in picked_cells
                                                  if cell.lower() not in FLAGS and stems(cell)):
            return f"the {found.group('which')}: {found.group('names')}"
    return None


OVER_THE_BUDGET = re.compile(r"; against the budget, [^:;]+: (?P<each>[^;]+); over: (?P<names>[^;]+); in all")


def over_not_asked(answer: str, seen: str) -> str | None:
    """Of a budget's rows, the ones over it, when the answer's first sentence calls another over:
    shown "over: eating out", the 1.5B answered "you are over budget on groceries, eating out, and
    clothes"."""
    found = OVER_THE_BUDGET.search(seen)
    if found is None or not re.search(r"\bover\b", first := re.split(r"(?<=[.!?])\s", answer.strip())[0], re.IGNORECASE):
        return None
    over = {name.strip().lower() for name in found["names"].split(",")} - {"none"}
    rows = {re.sub(r"\s+[\d.]+\s+(?:left|over)$", "", part.strip()).lower() for part in found["each"].split(", ")}
    named = {row for row in rows - over if re.search(rf"(?<!\w){re.escape(row)}(?!\w)", first, re.IGNORECASE)}
    return f"the rows over the budget: {found['names']}" if named else None


NONE_TO_GO = re.compile(r"^\[Saturn worked out\] .*; the (?P<which>rows with none to go): (?P<names>[^;]+)$")
"""table_asked's rows with nothing still to go ("Which orders have paid in full?": Dev Patel)."""


KIND_VALUE = r"(?:blank \(no answer\)|[^|(;]+?)"
COUNTED_COLUMN = re.compile(rf"(?P<column>[\w ]+): (?P<kinds>(?:{KIND_VALUE} \d+ \([^)]*\)(?:; )?)+)")
COUNTED_KIND = re.compile(rf"(?P<value>{KIND_VALUE}) (?P<count>\d+) \((?P<names>[^)]*)\)")


def counted_columns(seen: str) -> list[tuple[str, dict[str, tuple[int, list[str]]]]]:
    """(column, {kind: (count, row names)}) of each column the ground's "[Saturn counted]" lines count."""
    columns = []
    for line in seen.splitlines():
        if not line.startswith("[Saturn counted] "):
            continue
        for column in line.removeprefix("[Saturn counted] ").split(" | "):
            if found := COUNTED_COLUMN.fullmatch(column.strip()):
                columns.append((found["column"].strip(), {
                    kind["value"].strip(): (int(kind["count"]), [n.strip() for n in kind["names"].split(",") if n.strip()])
                    for kind in COUNTED_KIND.finditer(found["kinds"])}))
    return columns


def _kind_named(kinds: dict[str, tuple[int, list[str]]], request: str) -> list[str]:
    return [value for value in kinds if not value.startswith("blank")
            and re.search(rf"\b{re.escape(value)}\b", request, re.IGNORECASE)]


NOT_REPLIED = re.compile(r"\b(?:hasn't|haven't|has\s+not|have\s+not|not\s+yet|yet\s+to)\b.*\b(?:repl|answer|respond|rsvp)",
                         re.IGNORECASE)


def kind_rows_not_asked(answer: str, request: str, seen: str) -> str | None:
    """The rows of a counted column's kind the request names ("Who's vegetarian?": "dietary:
    vegetarian 1 (Anna Lee)"), or of every kind but blank when it names the column ("Who has
    dietary needs?"), when the answer names another row: the 1.5B answered "Anna Lee, Ben Cho,
    Eve Gold"."""
    said = answer.lower()
    for column, kinds in counted_columns(seen):
        named = _kind_named(kinds, request)
        if not named and NOT_REPLIED.search(request):  # "Who hasn't replied?": the blank answers
            named = [value for value in kinds if value.startswith("blank (no answer)")]
        if not named and stems(column) & stems(request):
            named = [value for value in kinds if not value.startswith("blank")]
        if not named or len(named) == len(kinds):
            continue
        asked = [name for value in named for name in kinds[value][1]]
        others = [name for value, (_, names) in kinds.items() if value not in named for name in names if name not in asked]
        if any(re.search(rf"(?<!\w){re.escape(other.lower())}(?!\w)", said) for other in others):
            return f"the rows of {column} {' or '.join(named)}: {', '.join(asked)}"
    return None


YES_VALUES = frozenset({"yes", "y", "true"})


def miscounted_kind(answer: str, request: str, seen: str) -> str | None:
    """The count the ground gave of a counted column's "yes" rows, or of the kind the request names,
    when asked how many and the answer gives another number: asked "How many guests with plus
    ones?" with "plus_one: no 3 (…); yes 2 (Ben Cho, Eve Gold)" shown, the 1.5B answered 3; so too
    the rows counted as the things asked ("6 walks (a row each)", answered 2)."""
    if not re.search(r"\bhow\s+many\b", request, re.IGNORECASE):
        return None
    given = set(re.findall(r"\d+", answer))
    for column, kinds in counted_columns(seen):
        named = _kind_named(kinds, request)
        if not named and stems(column.replace("_", " ")) & stems(request):
            named = [value for value in kinds if value.lower() in YES_VALUES]
        if len(named) == 1 and str(kinds[named[0]][0]) not in given:
            count, names = kinds[named[0]]
            return f"[Saturn counted] {column}: {named[0]} {count} ({', '.join(names)})"
    asked = stems(" ".join(re.findall(r"\bhow\s+many\s+(\w+)", request, re.IGNORECASE)))
    for found in ROWS_COUNTED.finditer(seen):  # "6 walks (a row each)", answered 2
        if given and found["count"] not in given and stems(found["things"]) & asked:
            return found.group(0)
    return None


ROWS_COUNTED = re.compile(r"\[Saturn (?:worked out|counted)\] (?P<count>\d+) (?P<things>[a-z]+) \(a row each\)")


LINES_LISTED = re.compile(r"^\[Saturn listed\] (?P<which>the lines of [^:]*?\(\d+\)): (?P<lines>.+)$")


def lines_not_asked(answer: str, request: str, seen: str) -> str | None:
    """The lines the ground listed for a month or a part of the day ("the lines of the morning (1):
    - Ramipril 5mg: one each morning"), when the answer also gives a line of the same file it left
    out: asked "What do I take in the morning?", the 1.5B gave the one taken at night too."""
    lines = seen.splitlines()
    for at, line in enumerate(lines):
        found = LINES_LISTED.match(line)
        if found is None:
            continue
        listed = found.group("lines").split("; ")
        start = next((i for i in range(at - 1, -1, -1) if lines[i].startswith("--- ")), at)
        others = [other.strip() for other in lines[start + 1:at] if other.strip() and not other.startswith("[Saturn")
                  and other.strip() not in listed and not HEADING.search(other)]
        kept = stems(" ".join(listed)) | stems(request)
        if any(stems(other) - kept & stems(answer) for other in others):
            return f"{found.group('which')}: {found.group('lines')}"
    return None


TOTAL_ASKED = re.compile(r"\bhow\s+(?:much|far)\b|\btotal\b|\baltogether\b|\bin\s+all\b|\badd(?:s|ed)?\s+up\b|"
                         r"\bhow\s+long\s+(?:did|have|has|had)\b",  # time summed ("How long did I practise this week?"), not till a day
                         re.IGNORECASE)
TOTALS_LINE = re.compile(
    r"^\[Saturn worked out\] (?:[^;]*?; )?totals over (?P<over>(?:[^:(]|\([^)]*\))*): (?P<totals>[^;]*)")
ONE_ROW_ASKED = re.compile(r"\b(?:average|mean|each|per|biggest|largest|smallest|cheapest|dearest|most|least)\b",
                           re.IGNORECASE)


PICKED_ROWS = re.compile(r"^the .+ rows \((?P<count>\d+)")


def total_left_out(answer: str, request: str, seen: str) -> str | None:
    """The totals line of a table the answer reads two or more rows' figures of, when the request
    asks how much in all and the answer gives none of the totals: asked "How much am I still
    owed?", shown "the paid = no rows (2: Bolt Ltd, Crane & Co): amount = 1500", the 1.5B
    answered "You still owe Bolt Ltd $1200 and Crane & Co $300."; so is one that gives no figure
    at all while the totals are over rows picked for the request ("You have not claimed any
    expenses yet." for "How much can I still claim?", shown the claimed = no rows' 180), or one
    row's figure of several picked ("You ran 16.0 km last week." of last week's three runs)."""
    if not TOTAL_ASKED.search(request) or ONE_ROW_ASKED.search(request):
        return None
    said = {plain_number(n) for n in NUMBER.findall(answer)}
    lines = seen.splitlines()
    for at, line in enumerate(lines):
        found = TOTALS_LINE.match(line)
        if found is None:
            continue
        totals = {plain_number(n) for n in NUMBER.findall(found.group("totals"))}
        if said & totals:
            continue
        if not said and found.group("over").startswith("the "):
            return f"totals over {found.group('over')}: {found.group('totals')}"
        cells = {plain_number(cell.strip()) for row in table_rows_above(lines, at) for cell in row.split(",")
                 if NUMBER.fullmatch(cell.strip())}
        picked = PICKED_ROWS.match(found.group("over"))
        if len(said & cells) >= 2 or (said & cells and picked and int(picked.group("count")) > 1):
            return f"totals over {found.group('over')}: {found.group('totals')}"  # "16.0" of last week's three runs
        if picked and int(picked.group("count")) > 1 and said - {plain_number(n) for n in NUMBER.findall(seen)}:
            return f"totals over {found.group('over')}: {found.group('totals')}"  # "6.33 km and 10.54 km": a row's km and time run together
    return None


MONTH_ROWS = re.compile(r"^the (?:[A-Z][a-z]+ \d{4} )?(?P<values>.+?) rows \(\d+\)$")


def another_rows_figure(answer: str, request: str, seen: str) -> str | None:
    """Asked about some rows of a table the ground totalled ("the Spotify rows (1)"), the answer's
    figures come only from another row: "How much do I pay for Spotify a year?" answered "95.00",
    the yearly Amazon Prime row's. Returns what to say of the two rows."""
    said = {plain_number(n) for n in NUMBER.findall(answer)} - {plain_number(n) for n in NUMBER.findall(request)}
    lines = seen.splitlines()
    for at, line in enumerate(lines):
        found = TOTALS_LINE.match(line)
        named = MONTH_ROWS.match(found.group("over")) if found else None
        if found is None or named is None or not said:
            continue
        values = {value.strip().lower() for value in named.group("values").split(" and ")}
        rows = [row.strip() for row in table_rows_above(lines, at) if "," in row]
        asked = [row for row in rows if values & {cell.strip().lower() for cell in row.split(",")}]
        figures = {row: {plain_number(n) for n in NUMBER.findall(row)} for row in rows}
        others = [row for row in rows if row not in asked and said & figures[row]]
        totals = {plain_number(n) for n in NUMBER.findall(found.group("totals"))}
        if asked and others and not said & (totals | set().union(*(figures[row] for row in asked))):
            return f'"{others[0]}", another row; the row asked about is "{asked[0]}"'
    return None


MARKDOWN_HEADING = re.compile(r"^(?P<level>#{1,6})\s+(?P<title>\S.*?)\s*#*\s*$")


def section_named(lines: list[str], request: str) -> str:
    """The lines under a sub-heading the request names ("What's on the supermarket list?" of
    "## Supermarket" in shopping.md; "How many eggs for pancakes?" of "## Pancakes (makes 8)"), for
    the ground: shown the whole file, the 1.5B answered with the chemist's section too, and
    "100g plain flour" for the eggs; asked which sections hold a thing ("Which recipes use
    onions?"), their lines that hold it."""
    words = stems(request)
    said = set(re.findall(r"[a-z]+", request.lower()))
    sections = _sections(lines)
    headed = []
    for title, under in sections:
        title_stems = stems(re.sub(r"\(.*?\)", "", title))
        written = set(re.findall(r"[a-z]+", re.sub(r"\(.*?\)", "", title).lower()))
        if under and (title_stems and title_stems <= words or not title_stems and written and written <= said):  # "## To do"
            headed.append((not written <= said, title, under))  # "films we watched": "## Watched" as written, not "## To watch"
    if headed:
        _, title, under = min(headed, key=lambda found: found[0])
        return f"[Saturn listed] under the heading '{title}': " + "; ".join(line.strip(" -*•") for line in under[:MAX_NOT_DONE])
    asked = WHICH_SECTIONS.match(request)
    thing = words - stems(asked.group("kind")) - SECTION_VERBS if asked else set()
    holding = [(title, [line for line in under if stems(line) & thing]) for title, under in sections]
    if len(sections) < 2 or not thing or not (held := [(t, found) for t, found in holding if found]):
        return ""
    named = " ".join(term for term in query_terms(request) if stems(term) & thing)
    return (f"[Saturn listed] the sections holding {named} ({len(held)} of {len(sections)}): "
            + "; ".join(f"{title}: {', '.join(line.strip(' -*•') for line in found)}" for title, found in held))


WHICH_SECTIONS = re.compile(r"^\W*(?:which|what)\s+(?P<kind>[a-z]+s)\b", re.IGNORECASE)
SECTION_VERBS = frozenset(stems("use uses need needs have has contain contains got take takes include includes"))


def _sections(lines: list[str]) -> list[tuple[str, list[str]]]:
    """(title, its lines) of each sub-heading below the file's first line, and of the first line
    where a heading of its level follows ("## Lasagne (serves 4)" over "## Flapjacks": no title)."""
    levels = [len(found.group("level")) for line in lines if (found := MARKDOWN_HEADING.match(line))]
    sections: list[tuple[str, list[str]]] = []
    for at, line in enumerate(lines):
        heading = MARKDOWN_HEADING.match(line)
        if heading is None or (at == 0 and levels.count(len(heading.group("level"))) < 2):
            continue
        level = len(heading.group("level"))
        under = []
        for below in lines[at + 1:]:
            deeper = MARKDOWN_HEADING.match(below)
            if deeper and len(deeper.group("level")) <= level:
                break
            if below.strip():
                under.append(below.strip())
        sections.append((heading.group("title"), under))
    return sections


OWES_ME = re.compile(r"^\W*(?P<who>[A-Z][\w' &]*?)\s+owes\s+me\s+[£$€]?(?P<amount>\d+(?:\.\d+)?)")
I_OWE = re.compile(r"^\W*I\s+owe\s+(?P<who>[A-Z][\w' &]*?)\s+[£$€]?(?P<amount>\d+(?:\.\d+)?)")


def who_owes(lines: list[str]) -> str:
    """Money owed each way on a list of who owes whom ("- Sam owes me £20 …", "- I owe Priya £15 …"),
    summed: asked "How much am I owed in total?", the 1.5B added all three lines and said "I owe
    £43". Lines marked done ("(paid)") are settled."""
    sides: dict[str, list[tuple[str, str]]] = {"owed to you": [], "you owe": []}
    for line in lines:
        if DONE_MARK.search(line):
            continue
        for side, pattern in (("owed to you", OWES_ME), ("you owe", I_OWE)):
            if found := pattern.match(line):
                sides[side].append((found.group("who").strip(), plain_number(found.group("amount"))))
    if sum(map(len, sides.values())) < 2:
        return ""
    said = [f"{side}: " + ", ".join(f"{who} {amount}" for who, amount in debts)
            + f" (total {_sum(amount for _, amount in debts)})" for side, debts in sides.items() if debts]
    return "[Saturn worked out] " + "; ".join(said)


def _sum(amounts: Iterable[str]) -> str:
    return plain_number(str(sum(Decimal(amount) for amount in amounts)))


COUNTED_ANSWERS = re.compile(r"^\[Saturn counted\] (?P<column>[^:|]+): (?P<kinds>[^|]+)$")
ANSWER_ROWS = re.compile(r"(?P<value>[^;]+?) \d+ \((?P<names>[^)]*)\)")
NOT_ASKED = re.compile(r"n't\b|\b(?:not|never|yet)\b", re.IGNORECASE)
REPLYING = re.compile(r"\b(?:repl|answer|respond|rsvp|heard|confirm)", re.IGNORECASE)


def rows_of_another_answer(answer: str, request: str, seen: str) -> str | None:
    """The rows asked about, by a yes/no column's answer, when a negated request is answered with
    the "yes" rows: asked "Who hasn't replied about the party?", shown "rsvp: yes 3 (Leo, Sam,
    Tom); blank (no answer) 2 (Priya, Ines); no 1 (Hana)", the 1.5B answered "Leo, Sam, Tom".
    Who has not replied is the blank rows; who is not coming, the "no" rows."""
    if not NOT_ASKED.search(request):
        return None
    said = answer.lower()
    for line in seen.splitlines():
        found = COUNTED_ANSWERS.match(line)
        if found is None:
            continue
        kinds = {kind.group("value").strip(): [n.strip() for n in kind.group("names").split(",") if n.strip()]
                 for kind in ANSWER_ROWS.finditer(found.group("kinds"))}
        yes = kinds.get("yes", [])
        wanted = next((value for value in kinds if value.startswith("blank" if REPLYING.search(request) else "no")), None)
        if wanted and yes and all(re.search(rf"\b{re.escape(name.lower())}\b", said) for name in yes) and not any(
                re.search(rf"\b{re.escape(name.lower())}\b", said) for name in kinds[wanted]):
            return f"the {found.group('column').strip()} = {wanted} rows: {', '.join(kinds[wanted])}"
    return None


STILL_TO = re.compile(r"\b(?:still\s+(?:to|got(?:\s+to)?|need\s+to|have(?:\s+to)?)|(?:haven't|have\s+not|hasn't|not\s+yet)|yet\s+to|left\s+to)\b",
                      re.IGNORECASE)
DONE_FORMS = {"sent": "send", "paid": "pay", "done": "do", "bought": "buy", "booked": "book", "posted": "post",
              "returned": "return", "packed": "pack", "replied": "reply", "confirmed": "confirm"}


def done_ones_named(answer: str, request: str, seen: str) -> str | None:
    """The rows a yes/no column counts as not done, when asked what is still to do and the answer
    names one it counts as done: asked "Which Christmas cards have I still to send?" with "sent: yes
    2 (Auntie Jo, Grandma); no 2 (Uncle Bob, The Okafors)" shown, the 1.5B named all four."""
    if not STILL_TO.search(request):
        return None
    asked = stems(request)
    for column, kinds in counted_columns(seen):
        verb = DONE_FORMS.get(column.lower(), column)
        not_yet = f"not {column} yet"  # a column of days done: "returned: dated 1 (Orbital); not returned yet 3 (…)"
        yes, no = ("yes", "no") if {"yes", "no"} <= kinds.keys() else ("dated", not_yet)
        if not {yes, no} <= kinds.keys() or yes == "yes" and not (stems(verb) | stems(column)) & asked:
            continue
        undone = kinds[no][1]
        done = [name for name in kinds[yes][1] if name.lower() not in {n.lower() for n in undone}]
        if any(re.search(rf"(?<!\w){re.escape(name)}(?!\w)", answer, re.IGNORECASE) for name in done):
            return f"{column}: {no} {kinds[no][0]} ({', '.join(undone)})"
    return None
