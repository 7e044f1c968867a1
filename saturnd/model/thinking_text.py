"""Splits inline <think>…</think> out of streamed content, tags may straddle chunks."""

from __future__ import annotations

OPEN, CLOSE = "<think>", "</think>"


class ThinkSplitter:
    def __init__(self) -> None:
        self._inside = False
        self._pending = ""

    def feed(self, text: str) -> list[tuple[str, str]]:
        """Return (kind, text) pieces, kind "thinking" or "response"."""
        out: list[tuple[str, str]] = []
        buffer = self._pending + text
        self._pending = ""
        while buffer:
            tag = CLOSE if self._inside else OPEN
            at = buffer.find(tag)
            if at >= 0:
                out.append(self._piece(buffer[:at]))
                buffer = buffer[at + len(tag) :]
                self._inside = not self._inside
                continue
            keep = _partial_tag_suffix(buffer, tag)
            out.append(self._piece(buffer[: len(buffer) - keep]))
            self._pending = buffer[len(buffer) - keep :]
            break
        return [p for p in out if p[1]]

    def flush(self) -> list[tuple[str, str]]:
        rest, self._pending = self._pending, ""
        return [self._piece(rest)] if rest else []

    def _piece(self, text: str) -> tuple[str, str]:
        return ("thinking" if self._inside else "response", text)


def _partial_tag_suffix(text: str, tag: str) -> int:
    """Length of the longest end of `text` that could begin `tag`."""
    for size in range(min(len(tag) - 1, len(text)), 0, -1):
        if tag.startswith(text[-size:]):
            return size
    return 0
