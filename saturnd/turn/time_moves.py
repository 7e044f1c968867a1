"""A time moved in a line of the user's files, and nothing else of it: asked to "Move Ella's piano
to 5pm", the 1.5B wrote "piano 5pm" for "piano Thursday 4pm". put_right.line_put_right puts the
line right in place."""

from __future__ import annotations

import re
from pathlib import Path

from saturnd.gate.provenance import DAY_OR_MONTH, TIME
from saturnd.tools.word_match import stems
from saturnd.turn.errands import asked_action
from saturnd.turn.lists_named import ListToWrite
from saturnd.turn.overwrite import (
    CHANGING,
    ERRAND_WORDS,
    content_lines,
    file_text,
    named,
    time_line_asked,
)
from saturnd.turn.retrieval import KB_SOURCE, Document


def time_moved_as_asked(request: str, path: Path, content: str) -> str | None:
    """`content` with the line it changed written as the request moves it: only the time of the
    thing the request names, the line's other words kept. Asked to "Move Ella's piano to 5pm",
    the 1.5B wrote "Ella: swimming Monday 5pm, piano 5pm" for "…, piano Thursday 4pm". None when
    the write is right, or is not one line of the file changed to a new time."""
    times = list(TIME.finditer(request))
    if asked_action(request) not in CHANGING or len(times) != 1 or DAY_OR_MONTH.search(request):
        return None
    old, written = content_lines(file_text(path)), content_lines(content)
    changed = [line for line in old if line not in written]
    added = [line for line in written if line not in old]
    if len(changed) != 1 or len(added) != 1:
        return None
    if not named(request, changed[0]) and changed[0] not in time_line_asked(request, path, old):
        return None
    moved = _time_moved(changed[0], request, times[0].group(0))
    return content.replace(added[0], moved, 1) if moved and moved != added[0] else None


def time_moved_in_edit(request: str, path: Path, old: str, new: str) -> tuple[str, str] | None:
    """An edit_file's (old, new) with the line it changes put as time_moved_as_asked puts it: the
    whole line, when the edit's own text is a part of it ("piano Thursday 4pm" -> "piano 5pm")."""
    text = file_text(path)
    if not old or old not in text:
        return None
    before = text.replace(old, new, 1)
    fixed = time_moved_as_asked(request, path, before)
    if fixed is None:
        return None
    wrong = [line for line in before.splitlines() if line not in fixed.splitlines()]
    right = [line for line in fixed.splitlines() if line not in before.splitlines()]
    lost = [line for line in text.splitlines() if line not in before.splitlines()]
    if not (len(wrong) == len(right) == len(lost) == 1):
        return None
    return (old, new.replace(wrong[0], right[0], 1)) if wrong[0] in new else (lost[0], right[0])


def _time_moved(line: str, request: str, time: str) -> str | None:
    """The line with the time of the thing the request names ("piano Thursday 4pm") as `time`:
    the first time after a word of the request, names aside ("Ella's" names whose line it is)."""
    names = stems(" ".join(re.findall(r"\b[A-Z][a-z]+", request)))
    asked = stems(request) - ERRAND_WORDS - names
    start = 0
    found_times = list(TIME.finditer(line))
    for found in found_times:
        if stems(line[start:found.start()]) & asked or len(found_times) == 1:  # a line of one time: that one
            return f"{line[:found.start()]}{time}{line[found.end():]}"
        start = found.end()
    return None


def time_moved_ready(request: str, documents: list[Document]) -> ListToWrite | None:
    """Asked to move a thing to a time ("Move my haircut to 6pm."), the one file with one line naming
    it and giving a time, with that time moved: the write that does it."""
    times = list(TIME.finditer(request))
    if asked_action(request) not in CHANGING or len(times) != 1 or DAY_OR_MONTH.search(request):
        return None
    found = [(doc, line) for doc in documents if not doc.source.startswith(KB_SOURCE)
             for line in doc.text.splitlines() if TIME.search(line) and named(request, line)]
    if len(found) != 1 or (moved := _time_moved(found[0][1], request, times[0].group(0))) is None:
        return None
    doc, line = found[0]
    return ListToWrite(doc.source, doc.text.replace(line, moved, 1))
