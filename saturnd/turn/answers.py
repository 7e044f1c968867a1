"""Who said what, from a list a line a person with their answer ("- Olivia: yes", "- Noah: ?").

Asked "How many kids are coming to the party?" of a party's RSVPs, a small model counts lines
badly and reads "?" as nothing; the harness counts each answer and names who gave it.
"""

from __future__ import annotations

import re

ANSWER_LINE = re.compile(r"^\s*[-*•]?\s*(?P<who>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?(?:\s*(?:&|\band\b)\s*[A-Z][\w'-]*)?"
                         r"(?:\s*\+\s*(?P<plus>\d))?)\s*[:–-]\s*"
                         r"(?P<answer>yes|no|maybe|not\s+sure|\?+|tbc|no\s+reply|waiting)\s*(?:[,;(].*)?[.!]?\s*$", re.IGNORECASE)
"""A person's answer: "- Olivia: yes", "- Priya & Sam: yes, one vegan", "- Lucy + 1: yes"."""
TWO_NAMED = re.compile(r"&|\band\b", re.IGNORECASE)
ANSWERS_ASKED = re.compile(r"\bhow\s+many\b|\bwho\b|\bwhich\b|\banyone\b|\beveryone\b|\brepl(?:y|ied)\b|\bcoming\b|"
                           r"\brsvp|\bheard\s+back\b", re.IGNORECASE)
NO_ANSWER = "no answer yet"
MIN_LINES = 3


def answers_counted(lines: list[str], request: str) -> str:
    """Each answer of a list of three or more "Name: yes/no/?" lines with how many gave it and who,
    a "?" as no answer yet; "" for any other lines or a request asking none of it."""
    found = [match for line in lines if (match := ANSWER_LINE.match(line))]
    if len(found) < MIN_LINES or not ANSWERS_ASKED.search(request):
        return ""
    by_answer: dict[str, list[re.Match[str]]] = {}
    for match in found:
        answer = match["answer"].lower()
        said = NO_ANSWER if answer.startswith("?") or answer in ("tbc", "no reply", "waiting") else " ".join(answer.split())
        by_answer.setdefault(said, []).append(match)
    return "[Saturn counted] " + "; ".join(f"{answer} {_count(lines)} ({', '.join(m['who'] for m in lines)})"
                                           for answer, lines in by_answer.items())


def _count(lines: list[re.Match[str]]) -> str:
    """How many said it, in people where a line names two or brings some ("Priya & Sam", "Lucy + 1"):
    shown "yes 4 (…), 6 people", the 1.5B answered 4."""
    people = sum(1 + bool(TWO_NAMED.search(m["who"])) + int(m["plus"] or 0) for m in lines)
    return f"{people} people in {len(lines)} replies" if people != len(lines) else str(len(lines))

