"""A line marked done as the request marks it, and nothing else of it: asked to "Mark the Q4
report as done", the 1.5B put "Mark the Q4 report as done." in place of "- [ ] send Q4 report to
Ruth (due Friday)". put_right.line_put_right puts the line right in place."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from datetime import date
from pathlib import Path

from saturnd.gate.provenance import EMAIL, PHONE
from saturnd.tools.table_cells import TABLE_SUFFIXES
from saturnd.tools.word_match import stems
from saturnd.turn.answers import ANSWER_LINE, MIN_LINES
from saturnd.turn.chores import DONE_ITEM, TOLD_JOB, done_section, price_of, priced_jobs
from saturnd.turn.errands import BOUGHT_FOR, asked_action, told_answer
from saturnd.turn.listing import DONE_MARK, marked_line, marks_done
from saturnd.turn.lists_named import ListToWrite
from saturnd.turn.overwrite import TABLE, asked_about, content_lines, file_text, named
from saturnd.turn.retrieval import KB_SOURCE, Document


def marked_as_asked(request: str, path: Path, content: str) -> str | None:
    """`content` with the one line the request marks done written as the file's line with its mark
    (written back unchanged, that line marked); None when the write marks it so already, or is not
    that one line changed."""
    if not marks_done(request) or TABLE.search(path.name):
        return None
    old, written = content_lines(file_text(path)), content_lines(content)
    changed = [line for line in old if line not in written]
    added = [line for line in written if line not in old]
    asked = asked_about(request, path)
    if not changed and not added and len(asked) == 1 and not DONE_MARK.search(line := next(iter(asked))):
        marked = marked_line(line, request)  # the file written back as it was: "Mark Dad's book as bought"
        return content.replace(line, marked, 1) if marked and line in content else None
    if len(changed) != 1 or len(added) != 1 or changed[0] not in asked:
        return None
    if stems(changed[0]) < stems(added[0]) or (DONE_MARK.search(added[0]) and stems(changed[0]) <= stems(added[0])):
        return None  # marked its own way: its words kept, a mark added ("- Dad: book ✓", "water the plants [done]")
    marked = marked_line(changed[0], request)
    return content.replace(added[0], marked, 1) if marked and marked != added[0] else None


def line_marked_as_told(request: str, documents: list[Document], cwd: str) -> ListToWrite | None:
    """The folder's one list whose line the request marks done, written with that line marked: told
    "I've cleaned the oven.", chores.md with "- [x] Clean the oven" (the write that does the errand
    when the model does not)."""
    found = [ListToWrite(doc.source, marked) for doc in documents if not doc.source.startswith(KB_SOURCE)
             and (marked := marked_as_asked(request, path := Path(cwd) / doc.source, file_text(path))) is not None]
    ticked = [one for one in found if len(OPEN_BOX.findall(one.content)) < len(OPEN_BOX.findall(file_text(Path(cwd) / one.source)))]
    found = ticked or found  # a box to tick before "Window cleaner comes on the 14th" marked "(cleaned)"
    # "Bolt paid today.": Bolt's invoice, not "Bolt & Co - jo@bolt.example" in the contacts
    things = [one for one in found if not _a_contact_marked(one, Path(cwd))]
    found = things or found
    return found[0] if len(found) == 1 else None


def _a_contact_marked(written: ListToWrite, cwd: Path) -> bool:
    """Whether the line a mark changes is someone's address or number: no thing to be done."""
    old = set(file_text(cwd / written.source).splitlines())
    changed = [line for line in written.content.splitlines() if line not in old]
    return bool(changed) and all(EMAIL.search(line) or PHONE.search(line) for line in changed)


def marked_in_edit(request: str, path: Path, old: str, new: str) -> tuple[str, str] | None:
    """An edit_file's (old, new) with the line it marks put as marked_as_asked puts it."""
    return _as_an_edit(marked_as_asked, request, path, old, new)


def _as_an_edit(in_write: Callable[[str, Path, str], str | None], request: str, path: Path, old: str, new: str
                ) -> tuple[str, str] | None:
    """An edit_file's (old, new) as `in_write` puts the file that edit makes right: the one line it
    changes, and that line put right."""
    text = file_text(path)
    if not old or old not in text or (fixed := in_write(request, path, text.replace(old, new, 1))) is None:
        return None
    lost = [line for line in text.splitlines() if line not in fixed.splitlines()]
    right = [line for line in fixed.splitlines() if line not in text.splitlines()]
    return (lost[0], right[0]) if len(lost) == len(right) == 1 else None


OPEN_BOX = re.compile(r"\[ \]")


def ticked_as_asked(request: str, path: Path, content: str) -> str | None:
    """Asked to tick off a line with an open tick box ("- [ ] milk"), a write that drops the line
    put as the file with the box ticked ("- [x] milk"): on a list of boxes, ticking is marking, and
    so is a line marked done ("I've packed the charger.")."""
    if asked_action(request) != "tick" and not marks_done(request):
        return None
    text = file_text(path)
    old, written = content_lines(text), content_lines(content)
    boxed = [line for line in old if line in asked_about(request, path) and OPEN_BOX.search(line)]
    if len(boxed) != 1 or [line for line in old if line != boxed[0]] != written:
        return None
    return text.replace(boxed[0], OPEN_BOX.sub("[x]", boxed[0], count=1), 1)


def ticked_in_edit(request: str, path: Path, old: str, new: str) -> tuple[str, str] | None:
    """An edit_file's (old, new) that deletes the line asked ticked, put as ticked_as_asked puts it."""
    return _as_an_edit(ticked_as_asked, request, path, old, new)


MARK_AS = re.compile(r"^\W*(?:please\s+)?(?:mark|add|put|set)\s+(?P<what>.+?)\s+(?:down\s+)?as\s+(?:an?\s+)?"
                     r"(?P<value>[a-z][\w -]*?)\s*[.!]?\s*$", re.IGNORECASE)
""""Mark order 1043 as shipped"; "Add Ruth Moss as a yes" of a guest list that has her row."""
YES_FORMS = ("yes", "y", "true")


def row_marked_as_asked(request: str, path: Path, content: str) -> str | None:
    """Asked to mark a table's row as a value ("Mark order 1043 as shipped" of a status column of
    "shipped" and "not shipped"; "Mark INV-103 as paid" of a "paid" column of yes and no), the file
    with that row's cell so and nothing else changed: the 1.5B added a made-up row
    "1043,2026-12-03,Sara Kim,candle,1,18.50,shipped" and kept the order's own. None when the write
    is that already, or the row or its column is not clear."""
    found = MARK_AS.match(request)
    if found is None or not TABLE.search(path.name) or len(asked := asked_about(found.group("what"), path)) != 1:
        return None
    text = file_text(path)
    rows = [row for row in csv.reader(io.StringIO(text)) if row]
    line = asked.pop()
    cells = next(csv.reader([line]))
    if not rows or len(cells) != len(header := rows[0]):
        return None
    marked = _cell_marked(header, [r for r in rows[1:] if len(r) == len(header)], found.group("value").strip().lower())
    if marked is None or cells[marked[0]].strip() == marked[1]:
        return None
    cells[marked[0]] = marked[1]
    written = io.StringIO()
    csv.writer(written, lineterminator="").writerow(cells)
    lines = text.splitlines()
    at = next(i for i, row in enumerate(lines) if row.strip() == line)
    fixed = "\n".join([*lines[:at], written.getvalue(), *lines[at + 1:]]) + ("\n" if text.endswith("\n") else "")
    return None if fixed == content else fixed


def _cell_marked(header: list[str], body: list[list[str]], value: str) -> tuple[int, str] | None:
    """(the column, the cell as the table writes it) for a row marked `value`: the column holding
    that value or "not <value>", else the yes/no column named it."""
    for column in range(len(header)):
        cells = {r[column].strip() for r in body}
        if written := next((cell for cell in cells if cell.lower() == value), None):
            return column, written
        if f"not {value}" in {cell.lower() for cell in cells}:
            return column, value
    for column, name in enumerate(header):
        cells = {r[column].strip() for r in body}
        if name.strip().lower() == value and {cell.lower() for cell in cells} <= {*YES_FORMS, "no", "n", "false", ""}:
            return column, next((cell for cell in cells if cell.lower() in YES_FORMS), "yes")
    return None


def row_marked_in_edit(request: str, path: Path, old: str, new: str) -> tuple[str, str] | None:
    """An edit_file's (old, new) as the row marked_as_asked changes: its line and that line marked."""
    return _as_an_edit(row_marked_as_asked, request, path, old, new)


def answer_told(request: str, documents: list[Document]) -> ListToWrite | None:
    """Told someone's answer ("Noah's coming."), the one list of answers with a line for them, that
    line given it ("- Noah: ?" as "- Noah: yes")."""
    answer, told = told_answer(request), TOLD_WHO.match(request)
    if answer is None or told is None:
        return None
    found = []
    for doc in documents:
        lines = doc.text.rstrip("\n").split("\n")
        answers = [(i, match) for i, line in enumerate(lines) if (match := ANSWER_LINE.match(line))]
        theirs = [(i, match) for i, match in answers if match["who"].lower() == told["who"].lower()]
        if len(answers) >= MIN_LINES and len(theirs) == 1:
            at, match = theirs[0]
            lines[at] = lines[at][:match.start("answer")] + answer + lines[at][match.end("answer"):]
            found.append(ListToWrite(doc.source, "\n".join(lines) + "\n"))
    return found[0] if len(found) == 1 else None


BOUGHT_MARK = re.compile(r"\((?:bought|got)(?P<priced>,\s*[£$€])?[^)]*\)", re.IGNORECASE)


def bought_for(request: str, documents: list[Document]) -> ListToWrite | None:
    """Told a present was bought for someone ("Bought Jamie the football kit, £28."), the one list
    line of theirs marked bought as the list marks another ("Priya: candle (bought, £18)"): the
    1.5B wrote the birthdays table into the gift list."""
    told = BOUGHT_FOR.match(request)
    if told is None:
        return None
    found = []
    for doc in documents:
        lines = doc.text.rstrip("\n").split("\n")
        if doc.source.startswith(KB_SOURCE) or doc.source.lower().endswith(TABLE_SUFFIXES):
            continue
        marks_bought = any(map(BOUGHT_MARK.search, lines))  # a gift list, not contacts.md's "Priya - 07700 …"
        theirs = [i for i, line in enumerate(lines) if re.match(rf"^\W*{re.escape(told['who'])}\s*[:\-–]", line, re.IGNORECASE)
                  and (marks_bought or stems(told["thing"]) & stems(line))]
        if len(theirs) != 1 or BOUGHT_MARK.search(lines[theirs[0]]):
            continue
        priced = any((mark := BOUGHT_MARK.search(line)) and mark["priced"] for line in lines)
        money = f", {told['money'].replace(' ', '')}" if told["money"] and (priced or not marks_bought) else ""
        lines[theirs[0]] = f"{lines[theirs[0]].rstrip()} (bought{money})"
        found.append(ListToWrite(doc.source, "\n".join(lines) + "\n"))
    return found[0] if len(found) == 1 else None


TOLD_WHO = re.compile(r"^\W*(?P<who>[A-Z][\w-]*(?:\s+[A-Z][\w-]*)?)(?=\s|'s|'ll|n't)")


def job_logged(request: str, documents: list[Document]) -> ListToWrite | None:
    """Told someone did a job of the price list ("Theo hoovered the stairs today."), the file with
    "- Theo: hoover the stairs" at the end of its done list, written as its items are."""
    told = TOLD_JOB.match(request)
    if told is None:
        return None
    found = []
    for doc in documents:
        lines = doc.text.rstrip("\n").split("\n")
        section = done_section(lines)
        priced = priced_jobs(lines)
        if doc.source.startswith(KB_SOURCE) or section is None or not section[1] or len(priced) < 2:
            continue
        job = price_of(request, priced)
        if job is None:
            continue
        first = DONE_ITEM.match(lines[section[1][0]])
        assert first is not None
        name = job[0][0].lower() + job[0][1:] if first["job"][:1].islower() else job[0]
        at = section[1][-1] + 1
        found.append(ListToWrite(doc.source, "\n".join([*lines[:at], f"- {told['who']}: {name}", *lines[at:]]) + "\n"))
    return found[0] if len(found) == 1 else None


LAST_DAY = re.compile(r"\blast\s+(?:[a-z]+\s+)?(?:on\s+)?(?P<date>(?P<day>\d{1,2})(?:st|nd|rd|th)?\s+(?P<month>[A-Z][a-z]{2,8})\b|"
                      r"\d{4}-\d\d-\d\d)")
"""A line's day a thing was last done ("last ordered 20 Nov", "last came 23 Oct", "last 2026-11-02")."""


def last_day_told(request: str, documents: list[Document], today: date) -> ListToWrite | None:
    """Told a thing was done today ("I ordered Mum's prescription today."), the one line naming it
    with its last day set to today, written as it writes days ("last ordered 20 Nov": 4 Dec)."""
    if not _done_today(request):
        return None
    found = [(doc, line, dated) for doc in documents if not doc.source.startswith(KB_SOURCE)
             for line in doc.text.splitlines() if (dated := _dated_today(line, request, today))]
    most = max((len(stems(line) & stems(request)) for _, line, _ in found), default=0)
    found = [one for one in found if len(stems(one[1]) & stems(request)) == most]  # "the monstera", not every "last watered"
    if len(found) != 1:
        return None
    doc, line, dated = found[0]
    return ListToWrite(doc.source, doc.text.replace(line, dated, 1))


def last_day_as_asked(request: str, path: Path, content: str) -> str | None:
    """A write that marks done ("(ordered)", "(done)") the line whose last day the request tells
    was today, put as that line with its day set to today: told "The window cleaner came today.",
    the 1.5B wrote "last came 23 Oct, £15. (done)", and the next visit was worked out from 23 Oct."""
    if not _done_today(request):
        return None
    old, written = content_lines(file_text(path)), content_lines(content)
    changed = [line for line in old if line not in written]
    added = [line for line in written if line not in old]
    today = date.today()
    if len(changed) != 1 or len(added) != 1 or not (dated := _dated_today(changed[0], request, today)) or dated == added[0]:
        return None
    return content.replace(added[0], dated, 1)


def last_day_in_edit(request: str, path: Path, old: str, new: str) -> tuple[str, str] | None:
    """An edit_file's (old, new) with the line it marks put as last_day_as_asked puts it."""
    return _as_an_edit(last_day_as_asked, request, path, old, new)


def _done_today(request: str) -> bool:
    return asked_action(request) in ("mark", "add") and re.search(
        r"\btoday\b|\bthis\s+(?:morning|afternoon|evening)\b", request, re.IGNORECASE) is not None


def _dated_today(line: str, request: str, today: date) -> str | None:
    """The line with its last day ("last ordered 20 Nov") set to today as it writes days, when it
    names the thing the request tells of."""
    if (match := LAST_DAY.search(line)) is None or not named(request, line):
        return None
    if match["month"]:
        written = f"{today.day} {today:%B}" if len(match["month"]) > 3 else f"{today.day} {today:%b}"
    else:
        written = today.isoformat()
    return line[:match.start("date")] + written + line[match.end("date"):]
