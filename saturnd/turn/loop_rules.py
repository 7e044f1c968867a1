"""Loop rules: refuse a third identical call with nothing changed (a failed change included), never re-run a declined one,
never make the same change twice in a row, never ask the same question twice, never send a
second message to someone one went to."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from saturnd.tools.registry import CHANGING_RISKS

REPEAT_LIMIT = 2
"""An identical call may run this many times between two changes; the next is a loop."""


def call_signature(name: str, arguments: dict[str, Any]) -> str:
    """Name + canonical arguments: key order and spacing do not make a call different."""
    return f"{name} {json.dumps(arguments, sort_keys=True, separators=(',', ':'))}"


@dataclass
class CallLedger:
    """What this turn has already called, declined and changed."""

    _since_change: Counter[str] = field(default_factory=Counter)
    _declined: set[str] = field(default_factory=set)
    _answers: dict[str, str] = field(default_factory=dict)
    """ask_user signature -> what came back: the same question is not asked twice."""
    _sent: dict[str, str] = field(default_factory=dict)
    """Recipient -> what sending to them returned this turn."""
    _warned: set[str] = field(default_factory=set)
    """Calls a check has refused once: made again, they go on."""
    _last_change: tuple[str, str] | None = None
    """The changing call that ran last and what it returned: the same change again is a loop."""
    _worked_out: str = ""
    """What the last figure worked out this turn came to (an aggregate query, a calculation)."""

    def refusal(self, signature: str) -> tuple[str, str] | None:
        """(fate, why) when this call must not run, None when it may."""
        if signature in self._declined:
            return "declined", (
                "refused: you declined this exact call earlier in this turn, so it is not asked"
                " again. Do without it, or ask the user what to do instead."
            )
        if self._last_change is not None and self._last_change[0] == signature:
            # nothing else changed since: the same change again does nothing more (stop 56: a
            # German add_items ran twice with the same items); after another change it may
            # (a command that runs the tests, again after the fix)
            return "refused_loop", (
                f"refused as a loop: this exact change already ran this turn and returned"
                f" \"{self._last_change[1]}\". It is done; do not make it again. Tell the user what was done."
            )
        if self._since_change[signature] >= REPEAT_LIMIT:
            return "refused_loop", (
                f"refused as a loop: this exact call already ran {REPEAT_LIMIT} times this turn"
                " and nothing has changed since, so it would return the same result. Use the"
                " results you have, or try something different."
            )
        return None

    def asked_before(self, signature: str) -> str | None:
        """why, when this exact question was asked earlier in the turn (the 1.5B, answered,
        asked "What is Petra's new address?" six times more)."""
        if signature not in self._answers:
            return None
        return (
            f"refused as a loop: you asked this already and the answer was \"{self._answers[signature]}\"."
            " Use that answer now; do not ask it again."
        )

    def sent_before(self, to: str) -> str | None:
        """why, when a message already went to this recipient this turn: asked for one text, the
        0.5B sent Petra three, each worded a little differently, so no identical-call rule caught them."""
        if (result := self._sent.get(recipient_key(to))) is None:
            return None
        return (
            f"refused: a message to {to} already went this turn ({result}). Do not send another;"
            " tell the user what was sent."
        )

    def first_warning(self, signature: str) -> bool:
        """True the first time a check asks about this call; the model's second identical call is its answer."""
        first = signature not in self._warned
        self._warned.add(signature)
        return first

    def record_sent(self, to: str, result: str) -> None:
        self._sent[recipient_key(to)] = result

    def record_answer(self, signature: str, answer: str) -> None:
        self._answers[signature] = answer

    def replies(self) -> list[str]:
        """What the user answered the questions asked this turn."""
        return list(self._answers.values())

    def record_ran(self, signature: str, risk: str, result: str = "", done: bool = True) -> None:
        """`done`: it ran to its result. A failed change changed nothing: made again, identically,
        it counts as a read does (stop 58's first run: the same failing add_items twelve times,
        until the turn's time ran out)."""
        if risk in CHANGING_RISKS and done:
            # Something outside may differ now: earlier reads may be legitimately repeated.
            self._since_change.clear()
            self._last_change = (signature, result[:200])
            return
        if risk in CHANGING_RISKS:
            self._last_change = None
        self._since_change[signature] += 1

    def record_worked_out(self, result: str) -> None:
        self._worked_out = result

    def worked_out(self) -> str:
        return self._worked_out

    def record_declined(self, signature: str) -> None:
        self._declined.add(signature)


def recipient_key(to: str) -> str:
    """A phone number by its digits, an address by its lower case: the same person however written."""
    to = to.strip().lower()
    return to if "@" in to else re.sub(r"\D", "", to) or to
