"""Fencing: content from outside the conversation is marked as data before the model sees it."""

from __future__ import annotations

import re

_FENCE_TAG = re.compile(r"</?\s*outside\b[^>]*>", re.IGNORECASE)


def fence(source: str, text: str) -> str:
    # A fence tag inside the content could close the fence early: neutralise it.
    body = _FENCE_TAG.sub("[fence tag removed]", text)
    label = source.replace('"', "'")
    return f'<outside source="{label}">\n{body}\n</outside>'
