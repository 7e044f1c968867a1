"""Which contact a message goes to: by the name the model gave, and when the name the user used
fits several.

A `to` that is a name is looked up in the person's files (contacts_named): the lines naming it
with an address. A `to` that is an address came from a line a tool returned (the gate has
already refused one that came from nowhere). The words that line shares with what the
user typed are the name they used ("Anna"); every other returned line that holds that
name and an address of the same kind is another contact it may mean. Unless what the
user typed fits the chosen line better than each of the others, the person is asked
which. Names are compared as words of any script, inflected or not (tools/names.same_word); nothing
here knows a language.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from saturnd.gate.provenance import EMAIL, GROUND, PHONE, SessionRecord
from saturnd.gate.reach import Reach
from saturnd.tools.builtin_files import lines_under
from saturnd.tools.names import shared, words

MIN_NAME_CHARS = 2
CONTACT_FILES = 500
"""Files read for a name's address: review runs on the daemon's loop, so a home folder of
thousands of files is not walked whole for it."""


@dataclass(frozen=True)
class Contact:
    line: str
    """The line a tool returned that gives the address."""
    address: str
    source: str = ""
    """Where a line of the person's files is ("hermandad.md:4"), for a contact looked up by name."""


def same_name_contacts(to: str, request: str, record: SessionRecord) -> list[Contact]:
    """[the chosen contact, the others the user's words fit as well] or [] when the name settles it."""
    kind = EMAIL if EMAIL.search(to) else PHONE if PHONE.search(to) else None
    if kind is None:
        return []
    lines = [line for r in record.returned for line in r.text.splitlines() if kind.search(line)]
    typed = _names(" ".join([request, *record.typed]))
    # of the lines giving the address, the one naming the person most: a query's result may give
    # the number alone on its line, and its whole row below it
    chosen = max((line for line in lines if _holds(line, to)), key=lambda line: len(shared(_names(line), typed)), default=None)
    if chosen is None:
        return []
    name = shared(_names(chosen), typed)
    if not name:
        return []
    others = {}
    for line in lines:
        address = kind.search(line)
        if address and not _holds(line, to) and shared(_names(line), name):
            others[_digits_or_lower(address.group())] = Contact(line.strip(), address.group())
    if not others:
        return []
    fit = len(shared(_names(chosen), typed))
    if all(len(shared(_names(c.line), typed)) < fit for c in others.values()):
        return []
    return [Contact(chosen.strip(), to.strip()), *others.values()]


def contacts_named(name: str, kinds: tuple[re.Pattern[str], ...], reach: Reach) -> list[Contact]:
    """The lines of the person's files (the working folder, the KB) holding an address of one of
    `kinds` (the first that a line holds is its address) and every word of `name`, as inflected:
    for a messaging call whose `to` is a name, not an address (stop 56: the 1.5B wrote a made-up
    "Javier Jiménez" there, and the right names too). One line per address, as "path:line: text"."""
    wanted = _names(name)
    if not wanted:
        return []
    found: dict[str, Contact] = {}
    for root in filter(None, (reach.cwd, reach.kb)):
        for path, number, line in lines_under(Path(root), reach, CONTACT_FILES):
            address = next((m for kind in kinds if (m := kind.search(line))), None)
            if address and shared(wanted, _names(line)) == wanted:
                source = f"{'kb:' if root == reach.kb else ''}{path}:{number}"
                found.setdefault(_digits_or_lower(address.group()), Contact(f"{source}: {line.strip()}", address.group(), source))
    return list(found.values())


def _names(text: str) -> set[str]:
    """The words of a text but its addresses and numbers ("anna@x.de" gives no "de")."""
    bare = PHONE.sub(" ", EMAIL.sub(" ", text))
    return words(bare, MIN_NAME_CHARS)


def _holds(line: str, address: str) -> bool:
    if "@" in address:
        return address.strip().lower() in line.lower()
    digits = re.sub(r"\D", "", address)
    return bool(digits) and digits in re.sub(r"\D", "", line)


def _digits_or_lower(address: str) -> str:
    return address.lower() if "@" in address else re.sub(r"\D", "", address)


def shown_in(address: str, record: SessionRecord) -> str | None:
    """The file whose excerpt or table rows the ground showed with `address` in them (a path, or
    "kb:<name>" for the knowledge base), or None."""
    return next((r.call_id for r in record.returned if r.tool == GROUND and _holds(r.text, address)), None)
