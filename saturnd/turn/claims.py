"""An answer that says something was done when no tool did it.

Seed 000: the answer's account of what was done comes from the tool calls that
actually ran. A small model often answers "Email sent to Tom" or "The heating
has been turned up to 22 degrees" without calling anything. The harness spots
such a claim by its wording alone and sends the answer back once, with the
reason; a claim that comes back again is answered with a note saying so.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from protocol.methods import PassTrace
from saturnd.tools.registry import Registry

_DONE = (
    r"sent|emailed|e-mailed|texted|messaged|forwarded|replied|posted|saved|written|wrote|created|"
    r"deleted|removed|updated|edited|renamed|moved|booked|ordered|placed|scheduled|cancell?ed|"
    r"transferred|paid|turned|switched|called|played|installed|executed"
)
CLAIMS = (
    # "I've sent", "I have just saved", "I booked"
    re.compile(rf"\bI(?:'ve| have)?\s+(?:just\s+|now\s+|already\s+|successfully\s+)?(?:{_DONE})\b",
               re.IGNORECASE),
    # "has been sent", "have now been saved"
    re.compile(rf"\b(?:has|have)\s+(?:just\s+|now\s+|already\s+|successfully\s+)?been\s+(?:{_DONE})\b",
               re.IGNORECASE),
    # "Email sent to Tom.", "Message delivered", "File saved"
    re.compile(r"(?:^|[.!]\s+)(?:the\s+|your\s+)?(?:e-?mail|message|text|file|order|booking)\s+"
               r"(?:successfully\s+)?(?:sent|delivered|saved|written|created|placed|booked)\b",
               re.IGNORECASE),
)
CHANGES_SOMETHING_TOO = frozenset({"remember"})
"""Read-only as far as the gate goes, but it keeps a fact: "I've saved that" is true after it."""


def claimed_action(answer: str) -> str | None:
    """The first words of `answer` that say an action was done, or None."""
    found = [m for pattern in CLAIMS if (m := pattern.search(answer))]
    if not found:
        return None
    first = min(found, key=lambda m: m.start())
    return first.group(0).lstrip(".! ").strip()


def something_acted(passes: Iterable[PassTrace], registry: Registry) -> bool:
    """Whether any call that can change something ran in the turn."""
    for record in passes:
        for call in record.calls:
            tool = registry.get(call.name)
            if call.fate == "ran" and tool is not None and (
                tool.risk != "read_only" or tool.name in CHANGES_SOMETHING_TOO
            ):
                return True
    return False


def unbacked_claim(answer: str, passes: Iterable[PassTrace], registry: Registry) -> str | None:
    """The claim in `answer` of something done, when no call that could have done it ran."""
    claim = claimed_action(answer)
    if claim is None or something_acted(passes, registry):
        return None
    return claim
