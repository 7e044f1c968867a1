"""What there is so far, asked for, held against the amount still to go given in its place.

Shown "Holiday 640 of 1500: … ; all 3160 of 5400: 5400 - 3160 = 2240 more to go", asked "How much
have I saved altogether?", the 1.5B answered £2,240: what is still to save, not what is saved.
"""

from __future__ import annotations

import re

from saturnd.turn.date_checks import bare_yes_or_no

TOWARD = re.compile(r"(?P<label>[^:;\]]+?) (?P<have>\d+(?:\.\d+)?) of (?P<goal>\d+(?:\.\d+)?): [\d.]+ - [\d.]+ = "
                    r"(?P<to_go>\d+(?:\.\d+)?) more to go")
SO_FAR_ASKED = re.compile(r"\b(?:saved|put\s+(?:by|away|aside)|got|have|has)\b.*\b(?:altogether|in\s+total|in\s+all|so\s+far|total)\b|"
                          r"\bhow\s+much\s+(?:is|have\s+I\s+got)\s+in\b", re.IGNORECASE)
STILL_ASKED = re.compile(r"\b(?:more|left|need|needed|short|to\s+go|still|remaining|until|till)\b", re.IGNORECASE)
FIGURE = re.compile(r"\d[\d,]*(?:\.\d+)?")


def to_go_for_so_far(answer: str, request: str, seen: str) -> str | None:
    """The worked line's amount so far (of all the pots, or the one the request names), when asked
    what there is so far the answer gives what is still to go and not it."""
    if not SO_FAR_ASKED.search(request) or STILL_ASKED.search(request):
        return None
    given = {figure.replace(",", "") for figure in FIGURE.findall(answer)}
    for line in seen.splitlines():
        if not line.startswith("[Saturn worked out]"):
            continue
        pots = list(TOWARD.finditer(line))
        named = [pot for pot in pots if pot["label"].strip().lower() in request.lower()]
        whole = [pot for pot in pots if pot["label"].strip() == "all"]  # of every pot, where the request names none
        for pot in named or whole or (pots if len(pots) == 1 else []):
            if pot["to_go"] in given and pot["have"] not in given or bare_yes_or_no(answer, request):
                return f"{pot['label'].strip()}: {pot['have']} so far, of {pot['goal']} ({pot['to_go']} more to go)"
    return None
