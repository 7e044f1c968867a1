"""Stored messages -> the OpenAI-shaped messages the model is sent."""

from __future__ import annotations

from typing import Any

from saturnd.store import MessageRow
from saturnd.turn import prompts


def to_model_messages(rows: list[MessageRow]) -> list[dict[str, Any]]:
    """Earlier turns as the conversation the user saw: what was said and answered.

    Tool rounds of finished turns stay in the store but are not replayed: a small
    model pays for every byte, and a fresh read is cheap and current.
    """
    return [
        {"role": row.role, "content": _as_sent(row)}
        for row in rows
        if row.role == "user" or (row.role == "assistant" and not row.tool_calls)
    ]


def _as_sent(row: MessageRow) -> str:
    return prompts.STEER.format(text=row.content) if row.kind == "steer" else row.content
