"""A thing added for someone goes on the list under their heading.

Asked "Add a science project for Maya, due 14 December." of homework.md, whose "## Maya" and
"## Leo" each head a list ("- Maths sheet - due Monday"), the 1.5B searched for the project, asked
the user about it and wrote nothing. The new line is written as the heading's lines are: "- Science
project - due 14 December" after Maya's last.
"""

from __future__ import annotations

import re

from saturnd.turn.listing import LIST_MARK, MARKDOWN_HEADING
from saturnd.turn.lists_named import ListToWrite
from saturnd.turn.retrieval import KB_SOURCE, Document

ADD_FOR = re.compile(r"^\W*(?:please\s+)?(?:add|put\s+down|put)\s+(?:an?\s+|the\s+|some\s+)?(?P<item>[^,.!?]+?)\s+for\s+"
                     r"(?P<who>(?-i:[A-Z])[\w'-]*)(?:\s*,\s*(?P<rest>[^.!?]+?))?\s*[.!]?\s*$", re.IGNORECASE)


def added_for_someone(request: str, documents: list[Document]) -> ListToWrite | None:
    """The folder's one file with a heading naming the one the thing is for, over a list, that list
    with the thing's line after its last."""
    told = ADD_FOR.match(request)
    if told is None:
        return None
    found = []
    for doc in documents:
        if doc.source.startswith(KB_SOURCE):
            continue
        lines = doc.text.split("\n")
        heads = [at for at, line in enumerate(lines) if (heading := MARKDOWN_HEADING.match(line))
                 and re.search(rf"\b{re.escape(told['who'])}\b", heading["title"])]
        if len(heads) != 1:
            continue
        end = next((at for at in range(heads[0] + 1, len(lines)) if MARKDOWN_HEADING.match(lines[at])), len(lines))
        listed = [at for at in range(heads[0] + 1, end) if LIST_MARK.match(lines[at])]
        if not listed:
            continue
        mark = LIST_MARK.match(lines[listed[0]])
        assert mark is not None
        joined = " - " if any(" - " in lines[at] for at in listed) else ", "
        item = told["item"].strip()
        line = f"{mark.group(0)}{item[:1].upper()}{item[1:]}" + (f"{joined}{told['rest'].strip()}" if told["rest"] else "")
        found.append(ListToWrite(doc.source, "\n".join([*lines[:listed[-1] + 1], line, *lines[listed[-1] + 1:]])))
    return found[0] if len(found) == 1 else None
