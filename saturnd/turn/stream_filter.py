"""Which streamed text reaches the user: prose at once, call-shaped text never.

A small model often writes its tool call as text (`{"name": ...}`, a ```json
fence, `<tool_call>`). Streaming that to the user and then running it as a
call would show them JSON that was never an answer, so text that opens like
a call is held back until the pass ends and the reply has been read.
"""

from __future__ import annotations

from collections.abc import Callable

CALL_OPENINGS = ("{", "[", "`", "<")


class ResponseStream:
    def __init__(self, emit: Callable[[str], object], hold_all: bool = False) -> None:
        """`hold_all`: nothing streams, not even the answer at the end (constrained mode: the text
        is JSON, and the answer inside it reaches the user as the turn's answer, after the checks:
        a draft sent back for claiming what no tool did, "I've cancelled iCloud, taking it off your
        subscriptions.", is never shown)."""
        self._emit = emit
        self._hold_all = hold_all
        self._holding = hold_all
        self._decided = hold_all
        self._held: list[str] = []
        self.shown = ""

    def feed(self, text: str) -> None:
        if not self._decided:
            self._held.append(text)
            opening = "".join(self._held).lstrip()
            if not opening:
                return
            self._decided = True
            self._holding = opening.startswith(CALL_OPENINGS)
            if not self._holding:
                self._show("".join(self._held))
                self._held = []
            return
        if self._holding:
            self._held.append(text)
        else:
            self._show(text)

    def finish(self, answer: str | None) -> None:
        """The pass is read: show the answer text (if it is one) that was held back."""
        if answer and not self.shown and not self._hold_all:
            self._show(answer)

    def _show(self, text: str) -> None:
        self.shown += text
        self._emit(text)
