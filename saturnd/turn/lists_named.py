"""Which list of the folder a list errand means, and the write that does it there.

The 1.5B wrote "Add the council to my to-do list." into a new council.txt beside todo.txt, wrote
"genetics" into weak_topics.txt beside revision.md's "Weak topics: algebra, …", and answered
"Cake has been booked" to "Cross the cake off the list". The list the request names (by its file's
name, its heading, the label of a list in it, or the one item it says) with the item added or the
line taken off is what review offers back and loop's send-back carries.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

from saturnd.gate.provenance import DAY_OR_MONTH
from saturnd.tools.table_cells import TABLE_SUFFIXES
from saturnd.tools.word_match import query_terms, stems
from saturnd.turn.errands import (
    DAY_TAKEN,
    GAVE_BACK,
    NAMED_FILE,
    SOMEONE_STOPPED,
    TOLD_CANCELLED,
    asked_action,
)
from saturnd.turn.listing import LIST_MARK, MARKDOWN_HEADING
from saturnd.turn.made_up import HEADING
from saturnd.turn.overwrite import (
    ADDING,
    BULLET,
    CONTAINERS,
    NOTE_ASKED,
    REMOVING,
    TABLE,
    item_asked,
    lower_words,
    new_items_bullet,
)
from saturnd.turn.retrieval import KB_SOURCE, Document


def _notes(documents: list[Document]) -> Document | None:
    return next((d for d in documents if not d.source.startswith(KB_SOURCE)
                 and Path(d.source).stem.lower().startswith("note")), None)


@dataclass(frozen=True)
class ListToWrite:
    source: str
    content: str
    """The list's lines with the item added (written as its lines are), or without the line taken off."""


def list_it_goes_on(request: str, path: Path, documents: list[Document]) -> ListToWrite | None:
    """Asked to add an item to a list the folder holds, a write to a new file adds nothing to it:
    the file whose name the request names ("my to-do list": todo.txt), with the item added (the
    1.5B wrote council.txt holding "Add the council to my to-do list." beside todo.txt); nor does
    one to a table when the item is no row. Not when the request names a file of its own."""
    if NAMED_FILE.search(request) or (path.exists() and not TABLE.search(path.name)):
        return None
    found = _with_the_item(request, documents)
    if found is None or not path.exists():
        return found
    # a table: "Add … to the list" went into boxes.csv; an item with commas may be its row
    return None if Path(found.source).name == path.name or "," in (item_asked(request) or "") else found


ARTICLE = re.compile(r"(?:an?|some)\s+(?=\w)", re.IGNORECASE)


def _with_the_item(request: str, documents: list[Document]) -> ListToWrite | None:
    """The list of the folder the request names, with the item the request adds; None when the
    request adds no item or the list already holds it."""
    item = item_asked(request)
    document = _list_named(request, documents) or (_notes(documents) if NOTE_ASKED.match(request) else None)
    if item is None or asked_action(request) not in ADDING or document is None:
        return None
    lines = [line for line in document.text.splitlines() if line.strip()]
    if any(lower_words(item) <= lower_words(line) for line in lines):
        return None
    every = document.text.rstrip("\n").splitlines()  # its blank lines too
    if (on_its_day := _on_its_days_line(every, item)) is not None:  # "Thu: Ava Brownies 6:15, Leo dentist 3:40"
        return ListToWrite(document.source, "\n".join(on_its_day) + "\n")
    if (theirs := on_their_line(every, item, request)) is not None:  # "Aunt Rose: garden gloves, …"
        return ListToWrite(document.source, "\n".join(theirs) + "\n")
    if (inline := inline_list_at(every, list_words(request))) is not None:  # "Weak topics: algebra, …"
        every[inline] = f"{every[inline].rstrip(' .')}, {item}"
        return ListToWrite(document.source, "\n".join(every) + "\n")
    at = into_its_list(every, len(every), request)
    mark = LIST_MARK.match(every[at - 1]) if at else None
    number = re.match(r"\s*(\d+)([.)])", mark.group(0)) if mark else None
    bullet = BULLET.match(every[at - 1]) if at else None
    lead = f"{int(number.group(1)) + 1}{number.group(2)} " if number else new_items_bullet(bullet.group(1)) if bullet else ""
    items = [line[found.end():] for line in every if (found := BULLET.match(line))]
    things = _ingredients_of(item, documents) or _things_of(item, items or lines)
    if not any(ARTICLE.match(text) for text in items or lines):
        things = [ARTICLE.sub("", thing, count=1) if ARTICLE.match(thing) else thing for thing in things]  # "an umbrella" on a list of "passport", "adapter"
    written = items or [line for line in lines if line[:1].isalpha()]
    if written and all(text[:1].isupper() for text in written):  # written as its items are: "Change address …"
        things = [thing[0].upper() + thing[1:] for thing in things]
    new = [f"{lead}{thing}" for thing in things if not any(_singular(thing) <= _singular(line) for line in lines)]
    return ListToWrite(document.source, "\n".join([*every[:at], *new, *every[at:]]) + "\n")


NEEDED_FOR = re.compile(r"^(?:what(?:ever)?\s+(?:i|we)\s+need|everything(?:\s+(?:i|we)\s+need)?|(?:the\s+)?(?:ingredients|things|stuff|bits)"
                        r"(?:\s+(?:i|we)\s+need)?)\s+(?:for|to\s+make)\s+(?:the\s+|a\s+|some\s+)?(?P<what>.+)$"
                        r"|^(?:the\s+|all\s+the\s+)?(?P<whose>[\w' -]+?)\s+ingredients$", re.IGNORECASE)
"""What a recipe needs: "what I need for banana bread", "the flapjack ingredients"."""
QUANTITY_FIRST = re.compile(r"^\s*(?:[-*•]\s*)?(?:\d+(?:[./]\d+)?\s*(?:kg|g|ml|l|tsp|tbsp|cups?|oz|lbs?|tins?|cans?|cloves?)?\b"
                            r"|a\s+pinch\s+of|pinch\s+of|a\s+handful\s+of)\s*", re.IGNORECASE)


def _ingredients_of(item: str, documents: list[Document]) -> list[str]:
    """Asked to add what a recipe needs ("what I need for banana bread"), the ingredients of the one
    recipe under a heading naming it, without their amounts ("3 ripe bananas": ripe bananas)."""
    asked = NEEDED_FOR.match(item)
    if asked is None:
        return []
    what = stems(asked["what"] or asked["whose"])
    found = []
    for doc in documents:
        lines = doc.text.splitlines()
        for at, line in enumerate(lines):
            if line.startswith("#") and what and what <= stems(line):
                body = list(itertools.takewhile(lambda text: not text.startswith("#"), lines[at + 1:]))
                parts = [part.strip() for text in body for part in text.split(",")]
                found.append([QUANTITY_FIRST.sub("", part, count=1) for part in parts if QUANTITY_FIRST.match(part) and part.strip()])
    return found[0] if len(found) == 1 else []


def _singular(text: str) -> set[str]:
    return {word.removesuffix("s") for word in lower_words(text)}


THINGS_SPLIT = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+", re.IGNORECASE)
A_TITLES_AND = re.compile(r"(?-i:[A-Z])[\w'’]*\s+and\s+(?:the|a|an)\s+(?-i:[A-Z])", re.IGNORECASE)
"""An "and" inside a title ("Klara and the Sun", "Harry Potter and the Goblet of Fire"): one thing."""
SHORT_ITEM_WORDS = 3


def _things_of(item: str, items: list[str]) -> list[str]:
    """The things an add names ("bread and butter": bread, butter) where its list holds one short
    thing a line; else the item whole ("call the bank and the council" on a to-do list of tasks)."""
    things = [thing.strip() for thing in THINGS_SPLIT.split(item) if thing.strip()]
    one_a_line = items and all(len(text.split()) <= SHORT_ITEM_WORDS and "," not in text for text in items)
    if len(things) < 2 or not one_a_line or A_TITLES_AND.search(item) or any(len(thing.split()) > SHORT_ITEM_WORDS for thing in things):
        return [item]
    return things


WEEKDAY = re.compile(r"(?:\bon\s+)?\b(?P<day>mon|tue|wed|thu|fri|sat|sun)(?:day|s|sday|nesday|rsday|urday|rs|r|es|\.)?(?![a-z])", re.IGNORECASE)
DAYS_LINE = re.compile(r"^\W*(?P<day>mon|tue|wed|thu|fri|sat|sun)[a-z]*\s*:", re.IGNORECASE)


def _on_its_days_line(lines: list[str], item: str) -> list[str] | None:
    """A file set out a line a weekday ("Thu: Ava Brownies 6:15") with the item added to the line of
    the one weekday it names, without that name; None for any other file or item."""
    days = list(WEEKDAY.finditer(item))
    at = [i for i, line in enumerate(lines) if (head := DAYS_LINE.match(line)) and days
          and head["day"].lower() == days[0]["day"].lower()]
    if len(days) != 1 or len(at) != 1 or sum(bool(DAYS_LINE.match(line)) for line in lines) < 3:
        return None
    thing = re.sub(r"\s+", " ", WEEKDAY.sub("", item)).strip(" ,")
    line = lines[at[0]].rstrip(" .")
    return [*lines[:at[0]], f"{line}{', ' if line.rstrip()[-1:] != ':' else ' '}{thing}", *lines[at[0] + 1:]]


FOR_SOMEONE = re.compile(r"\bfor\s+(?P<who>(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)?)\s*[.!]?\s*$", re.IGNORECASE)
SOMEONES_LINE = re.compile(r"^\W*(?P<who>(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)?)\s*:\s*\S")


def on_their_line(lines: list[str], item: str, request: str) -> list[str] | None:
    """A file set out a line a person ("Jamie: the new Minecraft book", "Aunt Rose: garden gloves")
    with the thing added for the one the request names ("for Dad"): on their line, or on a line of
    their own after the others; None for any other file or request."""
    who = FOR_SOMEONE.search(request)
    theirs = [i for i, line in enumerate(lines) if SOMEONES_LINE.match(line)]
    if who is None or len(theirs) < 2:
        return None
    thing = ARTICLE.sub("", item, count=1) if ARTICLE.match(item) else item
    at = next((i for i in theirs if SOMEONES_LINE.match(lines[i])["who"].lower() == who["who"].lower()), None)  # type: ignore[index]
    if at is not None:
        return [*lines[:at], f"{lines[at].rstrip(' .')}, {thing}", *lines[at + 1:]]
    return [*lines[:theirs[-1] + 1], f"{who['who']}: {thing}", *lines[theirs[-1] + 1:]]


SWAP_DAYS = re.compile(r"^\W*(?:please\s+)?(?:swap|switch)\s+(?:the\s+|round\s+)?(?P<first>mon|tue|wed|thu|fri|sat|sun)[a-z]*(?:'s)?"
                       r"\s+(?:and|with|for)\s+(?P<second>mon|tue|wed|thu|fri|sat|sun)[a-z]*(?:'s)?\b", re.IGNORECASE)


def days_swapped(request: str, documents: list[Document]) -> ListToWrite | None:
    """Asked to swap two days ("Swap Tuesday and Thursday dinners."), the one file set out a line a
    weekday with what follows each day's colon swapped."""
    asked = SWAP_DAYS.match(request)
    if asked is None:
        return None
    found = []
    for doc in documents:
        lines = doc.text.rstrip("\n").split("\n")
        at = {day: [i for i, line in enumerate(lines) if (head := DAYS_LINE.match(line)) and head["day"].lower() == day.lower()]
              for day in (asked["first"], asked["second"])}
        if all(len(found_at) == 1 for found_at in at.values()) and sum(bool(DAYS_LINE.match(line)) for line in lines) >= 3:
            (first,), (second,) = at.values()
            heads = [lines[i][:DAYS_LINE.match(lines[i]).end()] for i in (first, second)]  # type: ignore[union-attr]
            rests = [lines[i][len(head):] for i, head in zip((first, second), heads, strict=True)]
            lines[first], lines[second] = heads[0] + rests[1], heads[1] + rests[0]
            found.append(ListToWrite(doc.source, "\n".join(lines) + "\n"))
    return found[0] if len(found) == 1 else None


ONE_NAME = re.compile(r"^[\w'-]+$")


def days_taken(request: str, documents: list[Document]) -> ListToWrite | None:
    """Told who takes a weekday of a rota set out a line a day with one name each ("Mon: me",
    "Thu: Olu"), the rota with each day told of given to them: "I" as the rota writes the user."""
    told = [(found["who"], found["day"]) for found in DAY_TAKEN.finditer(request)]
    if not told:
        return None
    found = []
    for doc in documents:
        lines = doc.text.rstrip("\n").split("\n")
        days = {i: head for i, line in enumerate(lines) if (head := DAYS_LINE.match(line))}
        if len(days) < 3 or not all(ONE_NAME.match(lines[i][head.end():].strip()) for i, head in days.items()):
            continue
        mine = next((lines[i][head.end():].strip() for i, head in days.items() if lines[i][head.end():].strip().lower() == "me"), "me")
        for who, day in told:
            at = [i for i, head in days.items() if head["day"].lower() == day.lower()[:3]]
            if len(at) == 1:
                head = days[at[0]]
                lines[at[0]] = f"{lines[at[0]][:head.end()]} {mine if who.lower() == 'i' else who}"
        if lines != doc.text.rstrip("\n").split("\n"):
            found.append(ListToWrite(doc.source, "\n".join(lines) + "\n"))
    return found[0] if len(found) == 1 else None


def into_its_list(lines: list[str], at: int, request: str) -> int:
    """Where an item goes that the write put among a file's other lines: after the last item of its
    list, the one whose heading shares a word with the request where the file has more ("Add "Buy
    netting" to the allotment to do list": the 1.5B wrote it under "Rent: £38 a year", above "## To do";
    milk for "the shopping list" went under "# To do", the file's last list, not "# Shopping")."""
    blocks: list[list[int]] = []
    for i, line in enumerate(lines):
        if LIST_MARK.match(line):  # "- netting" or "4. Fairytale of New York"
            if blocks and blocks[-1][-1] == i - 1:
                blocks[-1].append(i)
            else:
                blocks.append([i])
    asked = list_words(request)  # the list's words, not the item's ("shopping bags" to the to-do list)
    headed = [block for block in blocks if (heading := next(
        (line for line in reversed(lines[:block[0]]) if HEADING.search(line)), None)) and stems(TO_DO.sub("todo", heading)) & asked]
    if len(headed) > 1:  # "the watchlist" of "## To watch" above "## Watched": the heading's word as the request writes it
        said = re.findall(r"[a-z]+", request.lower())
        written = [block for block in headed if any(len(word) > 3 and any(word in form for form in said) for word in re.findall(
            r"[a-z]+", next(line for line in reversed(lines[:block[0]]) if HEADING.search(line)).lower()))]
        headed = written if len(written) == 1 else headed
    if len(headed) == 1 and len(blocks) > 1:  # "the shopping list" of "# Shopping" above "# To do"
        return headed[0][-1] + 1
    if at > 0 and LIST_MARK.match(lines[at - 1]):
        return at
    return blocks[0][-1] + 1 if len(blocks) == 1 else at


def _without_the_line(request: str, documents: list[Document]) -> ListToWrite | None:
    """The list of the folder the request names, without the line that shares the most words with
    the request ("I've cancelled iCloud, take it off my subscriptions": "iCloud,2.99"); None when
    no line shares one, or several share the most."""
    if asked_action(request) not in REMOVING:
        return None
    if (document := _list_named(request, documents) or _holding_the_item(request, documents)) is None:
        return None
    file_words = stems(re.sub(r"[^a-z]", " ", Path(document.source).stem.lower()))
    words = stems(NAMED_FILE.sub(" ", request)) - file_words - stems(f"{' '.join(REMOVING)} off {CONTAINERS}")
    lines = document.text.splitlines()
    every_said = [n for n, line in enumerate(lines) if line.strip() and not HEADING.search(line)
                  and (own := stems(LIST_MARK.sub("", line))) and own <= words]
    if len(every_said) > 1 and THINGS_SPLIT.search(request) and asked_action(request) not in ("tick", "cross"):
        # "Remove flour and milk from my shopping list": each line it names goes
        return ListToWrite(document.source, "".join(f"{line}\n" for n, line in enumerate(lines) if n not in every_said))
    shared = [len(words & stems(line)) for line in lines]
    most = max(shared, default=0)
    items = [n for n, line in enumerate(lines) if _item_said(line, request)]  # "- cake", not "Still to book:"
    if len(items) != 1 and (not most or shared.count(most) > 1):
        return None
    gone = items[0] if len(items) == 1 else shared.index(most)
    if asked_action(request) in ("tick", "cross") and "[ ]" in lines[gone]:  # a box to tick, not a line to drop
        lines[gone] = lines[gone].replace("[ ]", "[x]", 1)
        return ListToWrite(document.source, "".join(f"{line}\n" for line in lines))
    return ListToWrite(document.source, "".join(f"{line}\n" for n, line in enumerate(lines) if n != gone))


def cancelled_line(request: str, documents: list[Document]) -> ListToWrite | None:
    """Told a thing was cancelled ("I've cancelled the gym."), the folder's one line or row it
    names by all its own words, gone: the 1.5B asked "What was the Gym row?" four times; told
    someone stopped a thing ("Rory's dropping coding.") or gave a thing back ("Jo gave the box set
    back."), the one line or row naming both."""
    if stopped := SOMEONE_STOPPED.match(request) or GAVE_BACK.match(request):  # "Rory's dropping coding": the line with both
        asked = stems(f"{stopped['who']} {stopped['thing'] or stopped['first']}")
        found = [(doc, n) for doc in documents if not doc.source.startswith(KB_SOURCE)
                 for n, line in enumerate(doc.text.splitlines()) if n > 0 or not doc.source.lower().endswith(TABLE_SUFFIXES)
                 if asked <= stems(line)]
    elif told := TOLD_CANCELLED.match(request):
        thing = stems(told["thing"])
        found = [(doc, n) for doc in documents if not doc.source.startswith(KB_SOURCE)
                 for n, line in enumerate(doc.text.splitlines()) if n > 0 or not doc.source.lower().endswith(TABLE_SUFFIXES)
                 if (own := stems(DAY_OR_MONTH.sub(" ", BULLET.sub("", line).split(",")[0]))) and own <= thing]  # "Wed 14:00 dentist"
    else:
        return None
    if len(found) != 1:
        return None
    doc, gone = found[0]
    lines = doc.text.splitlines()
    return ListToWrite(doc.source, "".join(f"{line}\n" for line in lines[:gone] + lines[gone + 1:]))


def _holding_the_item(request: str, documents: list[Document]) -> Document | None:
    """The one document with a list item all of whose words the request says ("Cross the cake off
    the list, we've booked it": wedding.md's "- cake"), for a list the request does not name."""
    holding = [d for d in documents if not d.source.startswith(KB_SOURCE)
               for line in d.text.splitlines() if _item_said(line, request)]
    if len(holding) == 1:
        return holding[0]
    # a list of bare lines whose one line shares two words with the request ("Take the window cleaner
    # off, I've paid him." of todo.txt's "pay window cleaner")
    sharing = [d for d in documents if not d.source.startswith(KB_SOURCE) and not TABLE.search(d.source) and _a_plain_list(d.text)
               for line in d.text.splitlines() if len(stems(line) & stems(request)) >= 2]
    return sharing[0] if not holding and len(sharing) == 1 else None


def _item_said(line: str, request: str) -> bool:
    """Whether `line` is a list item all of whose words the request says, or a table's row whose
    first cell's are ("| Wolf Hall | 2026-12-11 |" of "I've taken Wolf Hall back.")."""
    if row := TABLE_ROW.match(line):
        return bool(words := stems(row["first"])) and words <= stems(request)
    return BULLET.match(line) is not None and bool(words := stems(BULLET.sub("", line))) and words <= stems(request)


TABLE_ROW = re.compile(r"^\s*\|(?P<first>[^|]+)\|")


def _list_named(request: str, documents: list[Document]) -> Document | None:
    """The working folder's document whose name the request names ("my to-do list": todo.txt),
    else whose heading it names ("my trip list": travel.md, headed "# Trip to Lisbon"), or the
    heading of a list in it ("the concert songs": choir.md's "Concert songs:" over "1. O Holy Night")."""
    words = list_words(request)
    own = [d for d in documents if not d.source.startswith(KB_SOURCE)]
    by_name = (d for d in own if words & stems(re.sub(r"[^a-z]", " ", Path(d.source).stem.lower())))
    by_heading = (d for d in own if words & stems(" ".join(line for line in d.text.splitlines()[:1] if HEADING.search(line))))
    by_list = (d for d in own if any(HEADING.search(line) and _heading_names(line, words) and LIST_MARK.match(below)
                                     for line, below in pairwise(d.text.splitlines())))  # "Concert songs:" over "1. …"
    lists = [d for d in own if any(BULLET.match(line) for line in d.text.splitlines())]
    if not words:  # "Add … to the list": the one file with a list, where there is one; "to my notes": notes.txt
        noted = [d for d in own if re.search(r"\bnotes?\b", request, re.IGNORECASE) and Path(d.source).stem.lower() in ("note", "notes")]
        plain = [d for d in own if not TABLE.search(d.source) and _a_plain_list(d.text)]  # todo.txt of bare lines
        return noted[0] if len(noted) == 1 else lists[0] if len(lists) == 1 else plain[0] if not lists and len(plain) == 1 else None
    by_inline = (d for d in own if inline_list_at(d.text.splitlines(), words) is not None)
    return (next(by_name, None) or next(by_heading, None) or next(by_list, None) or next(by_inline, None)
            or (lists[0] if words <= ANY_LIST and len(lists) == 1 else None))  # "Add … to the jobs": the one list


PLAIN_ITEM_CHARS = 60


def _a_plain_list(text: str) -> bool:
    """Whether a file is a list of bare lines ("ring the council about the bins", "book flu jab"):
    two or more, each short, no heading among them."""
    lines = [line for line in text.splitlines() if line.strip()]
    return len(lines) >= 2 and all(len(line) <= PLAIN_ITEM_CHARS and not HEADING.search(line) for line in lines)


def _heading_names(heading: str, words: set[str]) -> bool:
    """Whether a list's heading says each word the request names the list by, or some of them and
    the rest are what any list holds ("## To do" of "the to-do list", its "tasks" besides)."""
    said = stems(TO_DO.sub("todo", heading))
    return words <= said or bool(words & said) and words <= ANY_LIST | said


TO_DO = re.compile(r"\bto[\s-]?do\b", re.IGNORECASE)
ANY_LIST = frozenset(stems("jobs tasks things items chores todo"))
"""Words any list's items are ("Add "net the brassicas" to the jobs" of a list headed "To do")."""


def list_words(request: str) -> set[str]:
    """The stems of the words the request names its list by, not the item's nor the errand's."""
    named = request.replace(item, " ") if (item := item_asked(request)) else request
    return {term[:4] for term in query_terms(named)} - stems(f"{' '.join(ADDING | REMOVING)} {CONTAINERS}")


INLINE_LIST = re.compile(r"^\s*(?P<label>[A-Za-z][\w '-]{0,40}?):\s*[^,:]+(?:,\s*[^,:]+)+\s*$")
"""A list written on its label's line: "Weak topics: algebra, organic chemistry, the Cold War"."""


def inline_list_at(lines: list[str], words: set[str]) -> int | None:
    """The line of a list written on its label's line whose label holds every word the request
    names its list by ("my weak topics": "Weak topics: …")."""
    return next((i for i, line in enumerate(lines) if words and (found := INLINE_LIST.match(line))
                 and words <= stems(found.group("label"))), None)


def ready_write(request: str, documents: list[Document]) -> ListToWrite | None:
    """The write that does a list errand the answer did not: the list the request names with the
    item added, or without the line it takes off. Sent back for "I've cancelled iCloud, take it off
    my subscriptions", the 1.5B searched the empty knowledge base for "subscriptions.csv" five
    times, though the ground had shown the file whole."""
    return _with_the_item(request, documents) or _without_the_line(request, documents)


def heading_as_a_file(path: Path, documents: list[Document]) -> str:
    """The folder's file with a heading named as a new file without a suffix is: the 1.5B wrote
    "Watched" (films.md's "## Watched") for "We watched Past Lives last night, 4 out of 5."."""
    if path.suffix or path.exists():
        return ""
    name = path.name.strip().lower()
    holding = [doc.source for doc in documents if not doc.source.startswith(KB_SOURCE)
               and any((found := MARKDOWN_HEADING.match(line)) and found["title"].strip().lower() == name
                       for line in doc.text.splitlines())]
    return holding[0] if len(holding) == 1 else ""


def heading_refusal(path: str, source: str) -> str:
    return (f"tool error: {path} is a heading of {source}, not a file. Read {source} and write it whole with the"
            f" change under that heading.")


def new_list_refusal(path: str, found: ListToWrite, table: bool = False) -> str:
    return (
        f"tool error: {path} is {'a table' if table else 'a new file'}, and the list the user named is {found.source}."
        f" Call write_file"
        f" again with path {found.source} and this content:\n{found.content}"
    )
