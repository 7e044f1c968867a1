"""An answer that repeats Saturn's instruction to the model, or speaks of the person to Saturn,
instead of answering the person.

A small model often answers a declined or unapproved call by copying the tool
result Saturn sent it ("declined: the user declined this call. Do not retry
it or work around it; say what was not done."). That text is addressed to the
model; the person gets, instead, what was not done, read off the calls' fates.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from protocol.methods import PassTrace
from saturnd.turn.review import DOES_NOT_FIT
from saturnd.turn.tool_round import DO_NOT_RETRY, DO_NOT_TRY_ANOTHER_WAY

INSTRUCTIONS = (DO_NOT_RETRY.lower(), DO_NOT_TRY_ANOTHER_WAY.lower(), DOES_NOT_FIT)
"""The parts of Saturn's results that only make sense to the model (the 1.5B answered a Chinese
request with the unfit-tool send-back, word for word)."""


SPEAKS_OF_THE_USER = re.compile(
    r"\b(?:ask|tell|inform|let)\s+the\s+user\b|\bthe\s+user\s+(?:needs?\s+to|should|must|has\s+to)\b",
    re.IGNORECASE,
)
"""Words addressed to Saturn about the person, not to the person: sent back for claiming the
heating was turned up, the 1.5B answered "Please ask the user to turn the heating up to 21 degrees."."""


def speaks_of_the_user(answer: str) -> bool:
    return SPEAKS_OF_THE_USER.search(answer) is not None


def echoes_instructions(answer: str) -> bool:
    text = " ".join(answer.lower().split())
    return any(instruction in text for instruction in INSTRUCTIONS)


def not_done_account(passes: Iterable[PassTrace]) -> str:
    """What was not done because the person declined it or was not there to approve it."""
    lines = []
    for call in (c for p in passes for c in p.calls):
        if call.fate == "declined":
            lines.append(f"Not done: {call.name}, because you declined it.")
        elif call.fate == "not_approved":
            lines.append(
                f"Not done: {call.name} needs your approval and nobody was here to give it"
                f" (--allow {call.name} approves it ahead)."
            )
    return " ".join(dict.fromkeys(lines))
