"""Which entry of a file the person meant, when the words they used fit several.

An edit names one entry (a line, a row, a record) of the person's file. The words that entry
shares with what the person typed are the name they used for it ("the Phalaenopsis"); when
another entry of the same file holds that name too, the person's words do not say which, and
the person is asked instead of the model picking one. Words are compared in any script; short
words are left out so that a language's articles and prepositions ("de", "van", "la") are not
taken for a name (saturnd/tools/names.py); nothing here knows a language.
"""

from __future__ import annotations

import re

from saturnd.tools.names import MIN_NAME_CHARS, shared, words


def also_meant(chosen: str, others: list[str], said: str) -> list[str]:
    """The other entries the person's words `said` fit as well as `chosen`; [] when they settle it
    (they share no word with it, they hold its whole label, or no other entry holds the name, or
    all of it but one word, and each number of theirs the chosen entry holds)."""
    name = shared(words(chosen, MIN_NAME_CHARS), words(said, MIN_NAME_CHARS))
    if not name or shared(words(chosen), words(said)) == words(chosen):
        return []
    # one word of the name may be the file's own (a "reliure" that many entries hold besides the
    # two "Madame Bovary": stop 54), so another entry that holds all of the name but one, and at
    # least two of its words, fits as well
    enough = max(min(len(name), 2), len(name) - 1)
    # a number the person gave names the entry too: another entry without it is not meant (stop
    # 59's first run: "the rehearsal of 19 December" fitted the rehearsals of the 12th and the 19th)
    given = numbers(chosen) & numbers(said)
    return [other for other in others if len(shared(name, words(other, MIN_NAME_CHARS))) >= enough
            and given <= numbers(other)]


def names_none(chosen: str, said: str) -> bool:
    """The person's words `said` share no name word with the entry `chosen`, which has one (stop 57's first run:
    "the toaster is repaired, tick it off" removed a line about testing appliances, from another
    file than the one listing the toasters), nor a number of two digits or more (a date names an
    entry too: stop 58, "the outing of 14 February" for the line "2027-02-14 …")."""
    name = words(chosen, MIN_NAME_CHARS)
    return bool(name) and not shared(name, words(said, MIN_NAME_CHARS)) and not numbers(chosen) & numbers(said)


def most_named(entries: list[str], said: str) -> int | None:
    """The index of the one entry sharing the most name words and numbers with `said` ("Daan
    Visser, number 14" of "Daan de Graaf;7" and "Daan Visser;14"); None when none shares any, or
    two share as many."""
    name = words(said, MIN_NAME_CHARS)
    scores = [len(shared(words(e, MIN_NAME_CHARS), name)) + len(numbers(e) & numbers(said)) for e in entries]
    top = max(scores, default=0)
    return scores.index(top) if top and scores.count(top) == 1 else None


def numbers(text: str) -> set[str]:
    return {n.lstrip("0") for n in re.findall(r"\d{2,}", text)}


def best_fits(lines: list[tuple[str, str]], said: str, most: int = 5) -> list[str]:
    """Of (where, line) pairs, the `most` lines sharing the most name words with `said`, as "where: line"."""
    name = words(said, MIN_NAME_CHARS)
    scored = [(len(shared(words(line, MIN_NAME_CHARS), name)), where, line) for where, line in lines]
    top = max((score for score, _, _ in scored), default=0)
    return [f"{where}: {line.strip()}" for score, where, line in scored if score and score == top][:most]
