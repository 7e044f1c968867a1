"""A reply that repeats itself is closed, not read to the token cap.

A 1.5B under a grammar can fall into a loop (the same item, word or newline over and over) and
write until max_tokens: on 2 cores that is minutes for nothing, and the turn times out (BFCL
live_simple_28-7-1: 2048 tokens in 203 s). Watching the stream's tail for one short piece
repeated many times ends such a reply within a few hundred characters.
"""

from __future__ import annotations

REPEATED_SPAN = 320
"""Characters of the tail that must be one piece over and over."""
LEAST_REPEATS = 10
"""So the piece is at most REPEATED_SPAN // LEAST_REPEATS (32) characters: an item, a few words."""
CHECK_EVERY = 16
"""Deltas between two looks at the tail: a look costs far more than a delta."""
RAN_ON = "the reply ran on"


def repeated_piece(text: str) -> str | None:
    """The piece `text` ends with, repeated over its last REPEATED_SPAN characters at least
    LEAST_REPEATS times; None if it does not."""
    tail = text[-REPEATED_SPAN:]
    if len(tail) < REPEATED_SPAN:
        return None
    for size in range(1, REPEATED_SPAN // LEAST_REPEATS + 1):
        piece = tail[-size:]
        if tail == (piece * (REPEATED_SPAN // size + 1))[-REPEATED_SPAN:]:
            return piece
    return None


class RanOn(Exception):
    """Raised from the stream when the reply repeats itself; closing the stream stops the server."""


class RunawayWatch:
    """Fed a reply's deltas; raises RanOn once the reply repeats itself."""

    def __init__(self) -> None:
        self._tail = ""
        self._unchecked: list[str] = []

    def feed(self, text: str) -> None:
        self._unchecked.append(text)
        if len(self._unchecked) < CHECK_EVERY:
            return
        self._tail = (self._tail + "".join(self._unchecked))[-REPEATED_SPAN:]
        self._unchecked = []
        if (piece := repeated_piece(self._tail)) is not None:
            raise RanOn(f"{RAN_ON}, repeating {piece.strip()[:20] or 'blank space'!r}: closed")
