"""A labelled line's value changed as the request tells: "Change the book to Western Lane",
"Leo's shoes are now a 13".

Asked that of book club.md ("Next: Thursday 17 December, 7:30pm at Jo's", "Reading: The Bee
Sting", …), the 1.5B wrote the file back as it was, then added the request as a line of it. The
line asked is the one whose label the request names, or, in the file the request names by its
name, the one line whose value is a title as the new value is ("The Bee Sting", "Western Lane").
Told "Leo's shoes are now a 13." of sizes.md's "## Leo (5)" over "- Shoes: 12 (was 11 in
September)", it said the words back; the line is the one labelled "Shoes" under Leo's heading.
"""

from __future__ import annotations

import re
from pathlib import Path

from saturnd.tools.word_match import stems
from saturnd.turn.errands import MOVED_TO, VALUE_NOW
from saturnd.turn.lists_named import ListToWrite
from saturnd.turn.retrieval import KB_SOURCE, Document

CHANGE_TO = re.compile(r"^\W*(?:please\s+)?(?:change|update|switch|set)\s+(?:the|my|our)\s+(?P<what>[a-z][\w ]{1,30}?)\s+to\s+"
                       r"(?P<new>[A-Z][^.!?]{1,60}?)\s*[.!]?\s*$", re.IGNORECASE)
LABELLED = re.compile(r"^(?P<label>\s*(?:[-*•]\s+)?[A-Za-z][\w '’-]{0,30}:\s*)(?P<value>\S.*?)\s*$")
SMALL_WORDS = frozenset({"a", "an", "the", "of", "and", "in", "on", "to", "for", "at", "with"})


def value_changed(request: str, documents: list[Document]) -> ListToWrite | None:
    """The one labelled line the request's "change the X to Y" asks, with Y as its value."""
    told = CHANGE_TO.match(request)
    if told is None or not _a_title(told["new"]):
        return None
    what = stems(told["what"])
    found = []
    for doc in documents:
        if doc.source.startswith(KB_SOURCE):
            continue
        lines = doc.text.split("\n")
        labelled = [(at, match) for at, line in enumerate(lines) if (match := LABELLED.match(line))]
        named = [(at, match) for at, match in labelled if what <= stems(match["label"])]
        titled = [(at, match) for at, match in labelled if _a_title(match["value"]) and len(match["value"].split()) > 1]  # not "Sam"
        in_the_file_named = what & stems(re.sub(r"[^a-z]+", " ", Path(doc.source).stem.lower()))
        chosen = named or (titled if in_the_file_named and len(titled) == 1 else [])
        if len(chosen) == 1:
            at, match = chosen[0]
            lines[at] = f"{match['label']}{told['new'].strip()}"
            found.append(ListToWrite(doc.source, "\n".join(lines)))
    return found[0] if len(found) == 1 else None


def _a_title(text: str) -> bool:
    """Capitalised words, small ones aside, and no figure: "The Bee Sting", "Klara and the Sun"."""
    words = text.split()
    return bool(words) and not re.search(r"\d", text) and all(w[0].isupper() or w.lower() in SMALL_WORDS for w in words)


def value_told(request: str, documents: list[Document]) -> ListToWrite | None:
    """The one labelled line whose label names a word of the thing told now ("Leo's shoes are now a
    13", "I've moved the car spare to the safe"), whose other words its line or the heading it sits
    under holds, with the value told."""
    told = VALUE_NOW.match(request) or MOVED_TO.match(request)  # "I've moved the car spare to the safe."
    if told is None:
        return None
    thing = stems(told["thing"])
    found = []
    for doc in documents:
        if doc.source.startswith(KB_SOURCE):
            continue
        lines, heading = doc.text.split("\n"), ""
        for at, line in enumerate(lines):
            heading = line if line.startswith("#") else heading
            labelled = LABELLED.match(line)
            if labelled and (label := stems(labelled["label"])) and label <= thing and thing - label <= stems(f"{line} {heading}"):
                changed = [*lines[:at], f"{labelled['label']}{told['new'].strip()}", *lines[at + 1:]]
                found.append(ListToWrite(doc.source, "\n".join(changed)))
    return found[0] if len(found) == 1 and found[0].content not in (d.text for d in documents) else None
