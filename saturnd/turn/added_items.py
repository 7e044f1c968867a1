"""An add's one new line put as the request words the item and as the list writes its lines: asked
to "Add charge the camera to my trip list", the 1.5B wrote "charge the camera to my trip list" under
"- get euros", dropping the file's blank lines. put_right.line_put_right puts the line right in
place."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import re
from collections.abc import Iterable
from datetime import date
from pathlib import Path

from protocol.methods import PassTrace
from saturnd.tools.table_cells import ISO_DATE
from saturnd.tools.word_match import stems
from saturnd.turn.dates import days_named, days_of
from saturnd.turn.errands import asked_action
from saturnd.turn.lists_named import (
    FOR_SOMEONE,
    NEEDED_FOR,
    SOMEONES_LINE,
    inline_list_at,
    into_its_list,
    list_words,
    on_their_line,
)
from saturnd.turn.overwrite import (
    ADDING,
    TABLE,
    content_lines,
    file_text,
    item_asked,
    item_line,
)
from saturnd.turn.worked_times import clock_times


def item_as_asked(request: str, path: Path, content: str) -> str | None:
    """The file's own text (its blank lines kept) with the one line an add wrote, in the request's
    words and the list's style (a table's row with its commas), where the write put it; None when the write needs no such
    change or is not one line added to the file's lines."""
    if asked_action(request) not in ADDING or (item_asked(request) is None and not TABLE.search(path.name)):
        return None
    if NEEDED_FOR.match(item_asked(request) or ""):  # "what I need for banana bread" is no line to write
        return None
    text = file_text(path)
    old = content_lines(text)
    written = content_lines(content)
    added = [line for line in written if line not in old]
    if not old or len(added) != 1 or any(line not in written for line in old):
        return None
    place = written.index(added[0])
    after = next((line for line in reversed(written[:place]) if line in old), None)
    lines = text.splitlines()
    if (item := item_asked(request)) and (theirs := on_their_line(lines, item, request)) is not None:
        written_theirs = (found := SOMEONES_LINE.match(added[0])) and (asked := FOR_SOMEONE.search(request)) and (
            found["who"].lower() == asked["who"].lower())
        return None if written_theirs else "\n".join(theirs) + "\n"  # "Dad: a scarf", not "A scarf"
    if (inline := inline_list_at(lines, list_words(request))) is not None and (item := item_asked(request)):
        lines[inline] = f"{lines[inline].rstrip(' .')}, {item}"  # "Weak topics: algebra, …, genetics"
        return "\n".join(lines) + "\n"
    at = max((i for i, line in enumerate(lines) if line.strip() == after), default=len(lines) - 1) + 1
    at = at if TABLE.search(path.name) else into_its_list(lines, at, request)
    new_line = _cells_as_asked(_as_a_row(added[0], old), old, request) if TABLE.search(path.name) else item_line(
        request, added[0], [line for line in lines[:at] if line.strip()])
    fixed = "\n".join([*lines[:at], new_line, *lines[at:]]) + "\n"
    return None if fixed == content else fixed


def item_edited_as_asked(request: str, path: Path, old: str, new: str) -> tuple[str, str] | None:
    """An add's edit_file (old, new) with its one added line put as item_as_asked puts it."""
    text = file_text(path)
    if asked_action(request) not in ADDING or not old or old not in text:
        return None
    added = [line for line in content_lines(new) if line not in content_lines(old)]
    if len(added) != 1:
        return None
    before = content_lines(text[:text.index(old)] + new[:new.index(added[0])])
    line = item_line(request, added[0], before)
    return None if line == added[0] else (old, new.replace(added[0], line, 1))


def _as_a_row(line: str, table: list[str]) -> str:
    """A table's new row as its header has it: written with spaces where the header has commas
    ("2026-12-03 6.0 33" under "date,km,time_mins"), its cells joined with commas; a cell only one
    column holds the like of, in that column ("Fran Hall,vegetarian,yes,no" under
    "name,rsvp,dietary,plus_one": vegetarian is a dietary value), the others in order around it."""
    header = table[0]
    cells = line.split()
    if "," not in line and len(cells) == header.count(",") + 1:
        return ",".join(cells)
    written = next(csv.reader([line]))
    columns = [set(column) - {""} for column in zip(*csv.reader(table[1:]), strict=False)] if len(table) > 1 else []
    if len(written) != header.count(",") + 1 or len(columns) != len(written):
        return line
    placed: dict[int, int] = {}  # column -> the written cell's place
    for i, cell in enumerate(written):
        holding = [j for j, values in enumerate(columns) if cell in values]
        if len(holding) == 1 and holding[0] != i and holding[0] not in placed and cell not in columns[i]:
            placed[holding[0]] = i
    if not placed:
        return line
    rest = iter(cell for i, cell in enumerate(written) if i not in placed.values())
    row = [written[placed[j]] if j in placed else next(rest, "") for j in range(len(written))]
    return ",".join(f'"{cell}"' if "," in cell else cell for cell in row)


CLOCK_CELL = re.compile(r"\d{1,2}:\d{2}")


def _cells_as_asked(line: str, table: list[str], request: str, today: date | None = None) -> str:
    """A table's new row with the one date and time the request gives in the table's date and time
    columns, and a text cell of words neither the request says nor its column holds left blank:
    asked to "Add a dentist appointment on 20 January at 3pm", the 1.5B copied the row above's
    date and made up "oral hygiene" for what it was. A cell the request does not give, in a column
    other rows leave blank, is left blank too (a ride added with "0" riders)."""
    rows = list(csv.reader(table[1:]))
    cells = next(csv.reader([line]))
    if not rows or any(len(row) != len(cells) for row in rows):
        return line
    today = today or date.today()
    days = sorted(days_of(request, today) | {day for _, day in days_named(request, today)})
    times = clock_times(request)
    said = stems(request)
    for i, cell in enumerate(cells):
        column = [row[i].strip() for row in rows]
        if len(days) == 1 and all(ISO_DATE.fullmatch(c) for c in column):
            cells[i] = days[0].isoformat()
        elif len(times) == 1 and all(CLOCK_CELL.fullmatch(c) for c in column):
            hour, minute = divmod(times[0][1], 60)
            cells[i] = f"{hour:02d}:{minute:02d}" if all(len(c) == 5 for c in column) else f"{hour}:{minute:02d}"
        elif cell.strip() and not any(ch.isdigit() for ch in cell) and cell.strip() not in column and not stems(cell) & said:
            cells[i] = ""
        elif cell.strip() and "" in column and cell.strip() not in re.findall(r"\d+(?:\.\d+)?", request):
            cells[i] = ""  # "riders" for a ride still to come: a column other rows leave blank, not "0"
    written = io.StringIO()
    csv.writer(written, lineterminator="").writerow(cells)
    return written.getvalue()


ADDED_THINGS = re.compile(r"\badded\s+(?P<items>[^.\n]+?(?:,[^.\n]+?)+)\s+to\s+(?:your|the|my)\b", re.IGNORECASE)
"""An answer saying it added several things: "I've added 'Demon Copperhead', 'The Bee Sting', and 'Klara and the Sun' to …"."""
LISTED = re.compile(r":\s*(?P<items>[^:.\n]+(?:,[^:.\n]+){2,})\.?\s*$")
"""An answer that ends listing the list: "The updated shopping list is: milk, bread, garlic"."""


def listed_not_written(request: str, answer: str, passes: Iterable[PassTrace], cwd: str) -> str:
    """For an add that was written, an account of it in place of an answer whose list of the file's
    lines holds one the file does not, or that says it added things the request did not ask: the
    1.5B added garlic, then answered "The updated shopping list is: milk, bread, coconut milk,
    spinach, garlic, lasagne sheets, 500ml white sauce" (the lasagne's ingredients, from the recipes
    shown); it added one book and answered "I've added 'Demon Copperhead', 'Lessons in Chemistry',
    'The Bee Sting', and 'Klara and the Sun'". "" when the answer's list is the file's."""
    if asked_action(request) not in ADDING or (item := item_asked(request)) is None:
        return ""
    claimed = ADDED_THINGS.search(answer)
    claimed_more = claimed is not None and any(not stems(part) & stems(request) for part in _parts(claimed["items"]))
    found = LISTED.search(answer)
    written = [c for p in passes for c in p.calls if c.fate == "ran" and c.name in ("write_file", "edit_file")]
    with contextlib.suppress(IndexError, ValueError, AttributeError):
        path = str(json.loads(written[-1].arguments).get("path", ""))
        text = file_text(Path(cwd, os.path.expanduser(path))).lower()
        if text and (claimed_more or found and any(part.lower() not in text for part in _parts(found["items"]))):
            return f"Added {item} to {path}."
    return ""


def _parts(items: str) -> list[str]:
    """The things a list in an answer names, a title's own "and the" kept whole ("Klara and the Sun")."""
    return [part.strip(" '\"‘’“”") for part in re.split(r",\s*(?:and\s+)?|\s+and\s+(?![Tt]he\s+[A-Z])", items) if part.strip(" '\"")]
