"""A change that would lose the file: write_file dropping lines nobody asked to drop, or
keeping the one it was asked to remove.

Asked "Add butter to my shopping list", the 1.5B wrote a shopping.txt holding only
"butter", and milk, eggs and flour were gone; asked to take eggs off, it dropped
flour too. write_file replaces a whole file: when the request adds, a write that
drops any line the file holds, and when it removes, one that drops a line sharing
no word with the request, is sent back as a malformed call naming those lines and
giving the content to write (told to use edit_file, the 1.5B edited the wrong line).
A written line that holds two of the file's lines joins them and keeps neither: asked to
add butter, the 1.5B also wrote the one line "milk eggs flour butter butter". Asked to change
one setting, it wrote settings.ini as the one line "timeout = 45".
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path

from saturnd.gate.provenance import DAY_OR_MONTH, TIME
from saturnd.tools.table_cells import TABLE_SUFFIXES
from saturnd.tools.word_match import stems
from saturnd.turn.errands import NAMED_FILE, asked_action
from saturnd.turn.listing import DONE_MARK, marked_line, marks_done
from saturnd.turn.look_first import FoundLine
from saturnd.turn.made_up import HEADING
from saturnd.turn.retrieval import KB_SOURCE, Document

WRITE_FILE = "write_file"
EDIT_FILE = "edit_file"
ADDING = frozenset({"add", "append", "put", "insert", "note"})
REMOVING = frozenset({"remove", "take", "cross", "tick", "delete"})
CHANGING = frozenset({"set", "change", "update", "edit", "fix", "correct", "move", "swap", "mark", "flag", "rename"})
WHOLE_FILE = re.compile(r"\b(?:only|just)\b", re.IGNORECASE)
""""Change notes.txt to say only 'done'": the file's other lines are meant to go."""
MAX_BYTES = 64_000
SHOWN_LINES = 3
SEPARATORS = re.compile(r"[\s,;]+")
REPEATED = re.compile(r"^(.+?)(?:[\s,;]+\1)+$")
WHEN = (("a day", DAY_OR_MONTH), ("a time", TIME))
SOME_WHEN = re.compile(r"\d|\b(?:today|tonight|tomorrow|next|this|every|each)\b", re.IGNORECASE)


def gives_a_when(answer: str) -> bool:
    """Whether the person's answer says when at all ("Friday", "3pm", "the 14th", "next week"),
    not "I don't know"."""
    return any(pattern.search(answer) for _, pattern in WHEN) or SOME_WHEN.search(answer) is not None


def dropped_lines(request: str, path: Path, content: str) -> list[str]:
    """The lines of the file at `path` that `content` would lose and `request` did not ask to."""
    verb = asked_action(request)
    if verb not in ADDING | REMOVING | CHANGING or (verb in CHANGING and WHOLE_FILE.search(request)):
        return []
    old = _file_lines(path)
    written = content_lines(content)
    dropped = [line for line in old if not any(_keeps(written_line, line, old) for written_line in written)]
    asked = asked_about(request, path)
    return dropped if verb in ADDING else [line for line in dropped if line not in asked]


def content_to_write(request: str, path: Path, content: str) -> str:
    """What the write should hold: to add, the file's lines and then the new lines of `content`;
    to remove, the file's lines that share no word with the request; to change, the file's lines
    with each the request names replaced by the written line sharing a word with it."""
    old = _file_lines(path)
    if asked_action(request) in REMOVING:
        asked = asked_about(request, path)
        return "\n".join(line for line in old if line not in asked) + "\n"
    if asked_action(request) in CHANGING:
        return "\n".join(_changed(request, old, content_lines(content), path)) + "\n"
    added: list[str] = []
    for line in _as_the_files(content_lines(content), old):
        item = line if TABLE.search(path.name) else _new_item(line, old)  # a row keeps its commas
        if item and item not in old and item not in added:
            added.append(item)
    return "\n".join(old + (added if TABLE.search(path.name) else _in_the_users_words(request, added))) + "\n"


def _in_the_users_words(request: str, added: list[str]) -> list[str]:
    """The one line added, as the request words the item when the line drops some of its words:
    asked to "Add call the council to my to-do list", the 1.5B wrote "call council"."""
    return [item_line(request, added[0], [])] if len(added) == 1 else added


REPORTED_ADD = frozenset({"added", "has", "have", "been", "is", "now", "successfully", "your"})
"""The words of an add's report, written as the item ("Milk added to notes.")."""


ARTICLE = re.compile(r"(?:a|an|some|the)\s+(?=\w)", re.IGNORECASE)


def item_line(request: str, line: str, before: list[str]) -> str:
    """`line`, added to a list, as the request words its item when the line drops some of the
    item's words or carries the request's own ("charge the camera to my trip list", "Milk added to
    notes."), with the bullet of the list line `before` it ends with when it has none of its own."""
    item = item_asked(request)
    bullet = BULLET.match(line)
    body = line[bullet.end():] if bullet else line
    if item is not None:
        written = lower_words(body)
        if written < lower_words(item) or lower_words(item) < written <= lower_words(request) | REPORTED_ADD:
            capital = before and BULLET.sub("", before[-1])[:1].isupper()  # as the list's lines begin
            body = item[0].upper() + item[1:] if capital else item
    bodies = [BULLET.sub("", line) for line in before]
    if bodies and (article := ARTICLE.match(body)) and not any(ARTICLE.match(other) for other in bodies):
        rest = body[article.end():]  # "An umbrella" on a list of "Passports", "Chargers": "Umbrella"
        body = rest[:1].upper() + rest[1:] if bodies[-1][:1].isupper() else rest
    above = BULLET.match(before[-1]) if before else None
    mark = bullet.group(1) if bullet else new_items_bullet(above.group(1)) if above else ""
    if above and ("[" in above.group(1)) > ("[" in mark):  # "- sun cream" on a list of "- [ ] …"
        mark = new_items_bullet(above.group(1))
    return f"{mark}{body}"


def file_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8") if path.is_file() and path.stat().st_size <= MAX_BYTES else ""
    except (OSError, UnicodeDecodeError):
        return ""


def lower_words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


def _changed(request: str, old: list[str], written: list[str], path: Path) -> list[str]:
    """The file's lines, each one the request names by the most words replaced by the first written
    line that shares a word with it ("timeout = 30" by "timeout = 45"; asked to "Mark the cactus as
    watered today", not the fern's "water twice a week"), then the written lines nothing replaced."""
    lines: list[str] = []
    asked = asked_about(request, path)
    written = _as_the_files(written, old)
    for line in old:
        new = next((w for w in written if w not in lines and w not in old and named(line, w)), None) if (
            line in asked) else None
        if new is not None and marks_done(request) and not TABLE.search(path.name) and not stems(line) < stems(new) and (
                marked := marked_line(line, request)):  # the written line lost the line's words: "Mark the Q4 report as done."
            written = [marked if w == new else w for w in written]  # not the request's own words
            new = marked
        lines.append(new or line)
    headings = {_heading_text(line) for line in old if HEADING.search(line)}
    return lines + [w for w in written if w not in lines and w not in old
                    and not (HEADING.search(w) and _heading_text(w) in headings)]  # "## Plants" for "# Plants"


def _as_the_files(written: list[str], old: list[str]) -> list[str]:
    """The written lines, each that is a file's line but for its bullet or its capitals as the file
    writes it: the 1.5B wrote "Cactus (kitchen): …" back for "- Cactus (kitchen): …", and
    "Icloud,2.99,…" for "iCloud,2.99,…", a new line to every check."""
    bare = {BULLET.sub("", line).lower(): line for line in old} | {_heading_text(line): line for line in old if line.startswith("#")}
    return [bare.get(BULLET.sub("", line).lower(), bare.get(_heading_text(line), line)) for line in written]


def _heading_text(line: str) -> str:
    return line.strip("# ").lower()


def doubled_lines(request: str, path: Path, content: str) -> list[str]:
    """Asked to add, the lines `content` holds more often than the file does ("butter" twice)."""
    if asked_action(request) not in ADDING:
        return []
    old = _file_lines(path)
    lines = content_lines(content)
    return [line for line in dict.fromkeys(lines) if lines.count(line) > max(1, old.count(line))]


def kept_lines(request: str, path: Path, content: str) -> list[str]:
    """Asked to remove, the file's lines the request names that `content` still holds: asked to
    "Take eggs off the shopping list", the 1.5B wrote milk, eggs and rice back unchanged and
    answered "eggs removed". None when the request names every line: nothing tells which go.
    Asked to change, those it holds unchanged beside a new line of the same thing: asked to "Move
    my one-to-one to 11am", the 1.5B kept "… Tuesdays 10am" and added "… Tuesdays 11am"."""
    verb = asked_action(request)
    if verb not in REMOVING | CHANGING:
        return []
    old = _file_lines(path)
    named_lines = asked_about(request, path)
    asked = [line for line in old if line in named_lines]
    written = _as_the_files(content_lines(content), old)
    added = [line for line in written if line not in old]
    if verb in CHANGING:
        return [line for line in asked if line in written and any(named(line, new) for new in added)]
    if verb in ("tick", "cross"):  # "Tick off renew passport": its box ticked is the line done, not kept
        ticked = set(content_lines(content))  # as written: _as_the_files reads "[x]" as the file's "[ ]"
        asked = [line for line in asked if not ("[ ]" in line and {line.replace("[ ]", "[x]"), line.replace("[ ]", "[X]")} & ticked)]
    # "Guardian,12.00,…" written for the "The Guardian,12.00,…" asked gone is the line kept
    return [] if len(asked) == len(old) else [line for line in asked if line in written
                                               or any(named(line, new) and named(request, new) for new in added)]


HARNESS_LINE = re.compile(r"^\[Saturn [a-z]+(?: [a-z]+)?\]")
"""A line of the harness's own ("[Saturn worked out] 180 + 50 = 230 …", "[Saturn check] The user
asked …"), which the 1.5B copied into a write."""


def content_lines(content: str) -> list[str]:
    return [line.strip() for line in content.splitlines() if line.strip() and not HARNESS_LINE.match(line.strip())]


def _keeps(written_line: str, line: str, old: list[str]) -> bool:
    """Whether a written line keeps one of the file's lines: it is that line, or holds it and no
    other ("Meeting went well. Call Bob." keeps "Meeting went well."; "milk eggs butter" joins two)."""
    if written_line == line or (line.startswith("#") and _heading_text(line) == _heading_text(written_line)):
        return True  # "Savings" written back for "# Savings", as the folder map shows it
    if _fills_blanks(written_line, line):
        return True  # "Priya,1990-12-11,candle,30" for "Priya,1990-12-11,,30": the row, its blank filled
    return _holds(written_line, line) and not any(_holds(written_line, other) for other in old if other != line)


def _fills_blanks(written_line: str, line: str) -> bool:
    """Whether a written table row is the file's row with blank cells filled and nothing else changed."""
    if "," not in line or ",," not in f",{line},":
        return False
    old_cells, new_cells = next(csv.reader([line])), next(csv.reader([written_line]))
    return len(old_cells) == len(new_cells) and old_cells != new_cells and all(
        not before.strip() or before.strip() == after.strip() for before, after in zip(old_cells, new_cells, strict=True))


def _holds(text: str, line: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(line)}(?!\w)", text) is not None


def _new_item(line: str, old: list[str]) -> str:
    """What a written line adds to the file's lines: "butter" of "milk eggs flour butter butter"."""
    for known in sorted(old, key=len, reverse=True):
        line = re.sub(rf"(?<!\w){re.escape(known)}(?!\w)", " ", line)
    line = SEPARATORS.sub(" ", line).strip(" ,;")
    return REPEATED.sub(r"\1", line)


def _file_lines(path: Path) -> list[str]:
    """The non-blank lines of a small text file; none for a missing, huge or unreadable one."""
    try:
        if not path.is_file() or path.stat().st_size > MAX_BYTES:
            return []
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    return [line.strip() for line in text.splitlines() if line.strip()]


def named(request: str, line: str) -> bool:
    """Whether the line shares a word with the request ("eggs" in "Take eggs off my list"), or with
    another line: a word that says what it is about, not "the" nor the errand's own verb (asked to
    "Tick off washing the car", "fix the garden gate" shares only "the")."""
    return bool(stems(line) & (stems(request) - ERRAND_WORDS))


CODE = re.compile(r"(?<![\w-])(?:[A-Za-z]+-?\d+|#\d+)(?![\w-])|(?:"
                  + "|".join(rf"(?<=\b(?i:{word})\s)" for word in ("order", "ticket", "number", "invoice", "booking", "receipt"))
                  + r")\d{2,}\b")
"""A reference a request names a line by: an invoice's "INV-103", an order's "#4521", "order 1043"."""


ANSWERS = frozenset({"yes", "no"})
"""The answer a line is marked with ("Ella said yes."), which names none of the lines: every "yes"
row had been taken for one asked to change."""


def asked_about(request: str, path: Path) -> set[str]:
    """The file's lines the request names by the most words that are not the file's own name, no
    heading among them: asked to "Take the lego off the Christmas list", "# Christmas presents"
    stays; asked to "Tick off the library books", "return library books" goes and "book car
    service", sharing only "book", stays. A table's header is no line asked ("I watered the monstera
    today" names "last watered" too). A line holding a reference the request names (CODE) is the
    one asked."""
    words = stems(request) - ERRAND_WORDS - ANSWERS - STANDING_IN - stems(re.sub(r"[^a-z]+", " ", path.stem.lower()))
    lines = _file_lines(path)
    codes = [re.compile(rf"(?<![\w-]){re.escape(code)}(?![\w-])", re.IGNORECASE) for code in CODE.findall(request)]
    if coded := {line for line in lines if any(code.search(line) for code in codes)}:
        return coded  # "Harper paid INV-103": its row, not Harper's other one
    header = lines[0] if lines and path.name.lower().endswith(TABLE_SUFFIXES) else None  # "…,last watered": no row
    initials = set(INITIALS.findall(request))  # "I've told the GP.": too short a word for stems
    shared = {line: len(stems(DONE_MARK.sub(" ", line)) & words) + len(initials & set(INITIALS.findall(line)))
              for line in lines if not HEADING.search(line) and line != header}  # "(sent)" is a mark, not what a line is of
    most = max(shared.values(), default=0)
    named = {line for line, count in shared.items() if count and count == most}
    if len(named) > 1 and PAID_TOLD.search(request) and len(owing := {line for line in named if OWING.search(line)}) == 1:
        return owing  # "Chloe paid me back": "Chloe owes me £18", not the line sharing the bills with her
    if len(named) > 1 and PAID_TOLD.search(request) and len(unpaid := {line for line in named if not DONE_MARK.search(line)}) == 1:
        return unpaid  # "Bolt paid today.": Bolt's invoice, not the one already ", paid" (sharing the word)
    return named or time_line_asked(request, path, lines)


INITIALS = re.compile(r"\b[A-Z]{2}\b")
STANDING_IN = stems("one ones")
"""A word standing in for the thing ("I've sent one to the Patels"): no line's word ("got one from him")."""
PAID_TOLD = re.compile(r"\bpaid\b", re.IGNORECASE)
OWING = re.compile(r"\b(?:owes?|owed|owing|IOU)\b", re.IGNORECASE)


def time_line_asked(request: str, path: Path, lines: list[str]) -> set[str]:
    """Asked to move the time of what a file is about ("Move book club to 8pm": bookclub.md, its
    heading "# Book club"), the file's one line with a time, though it names no word of the request
    ("Next meeting: Tuesday 15 December, 7:30pm at Hannah's"); `lines` are the file's, read once."""
    if asked_action(request) not in CHANGING or len(TIME.findall(request)) != 1:
        return set()
    about = stems(f"{re.sub(r'[^a-z]+', ' ', path.stem.lower())} {' '.join(filter(HEADING.search, lines))}")
    if not about & stems(request):
        return set()
    timed = {line for line in lines if TIME.search(line) and not HEADING.search(line)}
    return timed if len(timed) == 1 else set()


def overwrite_refusal(path: str, dropped: list[str], suggested: str, tool: str = "write_file") -> str:
    shown = ", ".join(repr(line) for line in dropped[:SHOWN_LINES]) + (" …" if len(dropped) > SHOWN_LINES else "")
    does = "replaces all of" if tool == "write_file" else "would delete from"
    return (
        f"tool error: {tool} {does} {path}, and this content drops {len(dropped)} of its lines"
        f" that the user did not ask to change ({shown}). Call write_file again with path {path} and this"
        f" content:\n{suggested}"
    )


def doubled_refusal(path: str, doubled: list[str], suggested: str) -> str:
    shown = ", ".join(repr(line) for line in doubled[:SHOWN_LINES])
    return (
        f"tool error: write_file would put {shown} in {path} twice. Call write_file again with path {path}"
        f" and this content:\n{suggested}"
    )


def kept_refusal(path: str, kept: list[str], suggested: str, changing: bool = False) -> str:
    shown = ", ".join(repr(line) for line in kept[:SHOWN_LINES])
    asked = "to change, beside its changed line" if changing else "to remove"
    return (
        f"tool error: write_file would keep {shown} in {path}, which the user asked {asked}. Call write_file"
        f" again with path {path} and this content:\n{suggested}"
    )


CONTAINERS = "list lists file files note notes page"
"""Words for the file itself, not for what goes in it ("my to-do list")."""
ERRAND_WORDS = frozenset(w[:4] for w in (*ADDING, *REMOVING, *CHANGING, "off", "out", *CONTAINERS.split()))


def adds_nothing(request: str, path: Path, content: str) -> bool:
    """Asked to add or change to what the file does not hold, a write of the file's own lines and
    nothing else: asked to "Put call the bank on my to-do list", the 1.5B wrote todo.md back
    unchanged and answered "The bank has been added to your to-do list."; asked to "Change the book
    to Western Lane", it wrote book club.md back as it was. An item already on the list may be
    written back as it is."""
    if asked_action(request) not in ADDING | CHANGING or not path.is_file():
        return False
    old = _file_lines(path)
    if not old or not set(content_lines(content)) <= set(old):
        return False
    said_of_the_file = stems(f"{' '.join(ADDING | CHANGING)} {re.sub(r'[^a-z]', ' ', path.name.lower())} {CONTAINERS}")
    return bool(stems(NAMED_FILE.sub(" ", request)) - said_of_the_file - stems(" ".join(old)))


def adds_nothing_refusal(path: str, request: str) -> str:
    return (
        f"tool error: write_file would write back what {path} already holds: nothing the user asked"
        f" ({request!r}) is in it. Call write_file again with the file's lines and the new or changed line."
    )


@dataclass(frozen=True)
class LineToRemove:
    line: FoundLine
    rest: str
    """The file's text without that line: what to write."""


def where_it_is(request: str, path: Path, documents: list[Document]) -> LineToRemove | None:
    """Asked to remove, a write to a file that does not exist removes nothing: the line of the
    user's files in the working folder that names what is to go, if one does (asked to "Tick off
    book dentist", the 1.5B wrote a new file "book dentist.md" beside todo.txt)."""
    if asked_action(request) not in REMOVING or path.exists():
        return None
    words = stems(NAMED_FILE.sub(" ", request)) - stems(f"{' '.join(REMOVING)} off {CONTAINERS}")
    for document in (d for d in documents if not d.source.startswith(KB_SOURCE)):
        lines = document.text.splitlines()
        for number, line in enumerate(lines, start=1):
            if words and words <= stems(line):
                rest = "".join(f"{kept}\n" for n, kept in enumerate(lines, start=1) if n != number)
                return LineToRemove(FoundLine(document.source, number, line.strip()), rest)
    return None


def line_named_elsewhere(request: str, path: Path, documents: list[Document]) -> FoundLine | None:
    """Asked to change or remove a line, a write to a file that holds no line the request names:
    the line of another of the working folder's files that shares the most words with the request
    (one line alone), or, asked to change, a write to a new file; not when the request names the
    file to change. Asked to "Mark Dad's present as bought", the 1.5B wrote "Reg: AB12 CDE, Dad:
    book" over car.txt; "- Dad: book" is in christmas.md. A reference the request names ("order
    305") says which line most."""
    verb = asked_action(request)
    if verb not in CHANGING | REMOVING or NAMED_FILE.search(request):
        return None
    if path.exists():
        old = _file_lines(path)
        if not old or asked_about(request, path):
            return None
    elif verb not in CHANGING:
        return None  # a removal written to a new file: where_it_is gives the list without the line
    words = stems(NAMED_FILE.sub(" ", request)) - ERRAND_WORDS
    # a name counts twice: "Dad" says which line more than "bought", the value it is to get
    names = {w[:4].lower() for w in re.findall(r"(?<=\s)[A-Z][a-z]{2,}", request)} & words
    codes = [re.compile(rf"(?<![\w-]){re.escape(code)}(?![\w-])", re.IGNORECASE) for code in CODE.findall(request)]
    best: list[tuple[int, FoundLine]] = []
    for document in (d for d in documents if not d.source.startswith(KB_SOURCE)):
        if Path(document.source).name == path.name:
            continue
        for number, line in enumerate(document.text.splitlines(), start=1):
            about = stems(line)
            held = 2 * sum(1 for code in codes if code.search(line))  # "order 305": its row, by the number
            if (shared := len(words & about) + len(names & about) + held) and not HEADING.search(line):
                best.append((shared, FoundLine(document.source, number, line.strip())))
    most = max((shared for shared, _ in best), default=0)
    top = [found for shared, found in best if shared == most]
    return top[0] if most and len(top) == 1 else None


def elsewhere_refusal(path: str, found: FoundLine, exists: bool = True) -> str:
    what = "holds no line the user asked about, so nothing in it is to change" if exists else "is a new file"
    return (
        f"tool error: {path} {what}."
        f" {found.source}:{found.line_number} holds {found.text!r}. Change that line in {found.source}:"
        f" call edit_file with path {found.source}, old {found.text!r} and the new line."
    )


def nothing_there_refusal(path: str, found: LineToRemove) -> str:
    return (
        f"tool error: {path} does not exist, so writing it removes nothing. {found.line.source}:"
        f"{found.line.line_number} holds {found.line.text!r}. Call write_file again with path {found.line.source}"
        f" and this content:\n{found.rest}"
    )


ITEM_ASKED = re.compile(
    r"^\W*(?:please\s+)?(?:add|put|pop|stick|chuck|jot(?:\s+down)?|append|insert)\s+(?P<item>.+?)\s+"
    r"(?:to|on|onto|in|into)\s+(?:my|the|our)\s+"
    r"(?:(?:[\w'-]+\s+){0,3}?(?:list|file|notes?)\b|[\w'-]+(?:\s+[\w'-]+){0,2}\s*[.!]?\s*$)",
    re.IGNORECASE,
)
""""Add call the council to my to-do list": the item is "call the council"; "Pop mulch on my garden
jobs": "mulch"."""
NOTE_ASKED = re.compile(
    r"^\W*(?:please\s+)?(?:(?:make|save|store)\s+a\s+note|note\s+down|note(?=\s+that\b)|jot\s+down|write\s+down)\s+(?:that\s+|of\s+)?(?P<item>.+?)"
    r"(?:\s+(?:in|to|on)\s+(?:my|the)\s+notes?(?:\s+file)?)?\s*[.!]?\s*$",
    re.IGNORECASE,
)
""""Make a note that the boiler man is coming Monday at 8": the line is "the boiler man is coming
Monday at 8", and it goes in the folder's notes file."""
TABLE = re.compile(r"\.(?:csv|tsv)$", re.IGNORECASE)
"""A table's row is marked in its own columns ("Crane & Co,300,no" to "yes"), not with a word after it."""
BULLET = re.compile(r"^\s*([-*•]\s+(?:\[[ xX]\]\s+)?)")
"""A list line's bullet, with its tick box if it has one ("- [x] ")."""


def new_items_bullet(bullet: str) -> str:
    """A bullet for a new item: a ticked box is unticked ("- [x] passport" above "- [ ] sun cream")."""
    return re.sub(r"\[[xX]\]", "[ ]", bullet)


def item_asked(request: str) -> str | None:
    """The item an add puts on a list, in the request's words; None when it names none."""
    asked = ITEM_ASKED.match(request) or NOTE_ASKED.match(request)
    if asked is None:
        return None
    after = request[asked.end():].strip(" .!")  # "… to my wish list for £20": the price is the item's
    item = asked.group("item").strip().strip("\"'“”‘’")  # Add "Buy netting" to …: the words, not their quotes
    return f"{item} {after}" if re.search(r"\d", after) else item


def lines_an_add_edit_drops(request: str, old: str, new: str) -> list[str]:
    """Asked to add, the lines an edit_file would delete: in `old` and not in `new` (the 1.5B,
    sent back from a write that lost eggs and flour, deleted them with edit_file instead)."""
    if asked_action(request) not in ADDING:
        return []
    return [line.strip() for line in old.splitlines() if line.strip() and line.strip() not in new]


def added_line_lacks_when(request: str, path: Path, added: str) -> tuple[str, str] | None:
    """(the added line, what it lacks: "a day", "a time" or "a day and a time") when, asked to add,
    a write puts a line without a day or a time into a file where every line has one. Asked to
    "Add my meeting with the bank to calendar.txt" ("Mon 09:00 standup"), the 1.5B added
    "bank meeting"; when it is, is the person's to say."""
    if asked_action(request) not in ADDING:
        return None
    old = _file_lines(path)
    if len(old) < 2:
        return None
    wants = [(what, pattern) for what, pattern in WHEN if all(pattern.search(line) for line in old)]
    for line in (line.strip() for line in added.splitlines()):
        if line and line not in old and (lacks := [what for what, pattern in wants if not pattern.search(line)]):
            return line, " and ".join(lacks)
    return None


def added_line_off_request(request: str, path: Path, added: str, known: str) -> str | None:
    """Asked to add, the first line a write adds that shares no word with the request and is in
    nothing typed, read or shown: asked to "Add my meeting with the bank to calendar.txt", the
    1.5B added "Mon 17:29 standup" (a line of the file's own kind, with the clock's time)."""
    if asked_action(request) not in ADDING:
        return None
    asked = stems(NAMED_FILE.sub(" ", request)) - stems(" ".join(ADDING))
    old = _file_lines(path)
    for line in content_lines(added):
        said = stems(line)  # a line of numbers only says nothing to compare (a total's, the uncomputed check's)
        if said and not said & asked and line not in old and line.lower() not in known.lower():
            return line
    return None


def request_as_a_line(request: str, path: Path, content: str) -> str | None:
    """Asked to change a line, the line a write adds that is the request itself: asked to "Change
    the book to Western Lane", the 1.5B wrote book club.md with "Change the book to Western Lane."
    added at its end and the book's line as it was."""
    if asked_action(request) not in CHANGING or not path.is_file():
        return None
    old, said = set(_file_lines(path)), _plain_words(request)
    return next((line for line in content_lines(content) if line not in old and _plain_words(line) == said), None)


def _plain_words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def request_as_a_line_refusal(path: str, line: str) -> str:
    return (
        f"tool error: write_file would add the user's request itself ({line!r}) as a line of {path}. Change the line"
        f" the request names in place: call write_file again with {path}'s lines, that one line changed."
    )

