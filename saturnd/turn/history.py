"""Stored messages -> the OpenAI-shaped messages the model is sent."""

from __future__ import annotations

from typing import Any

from saturnd.store import MessageRow


def to_model_messages(rows: list[MessageRow]) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    for row in rows:
        message: dict[str, Any] = {"role": row.role, "content": row.content}
        if row.tool_calls:
            message["tool_calls"] = row.tool_calls
        if row.role == "tool":
            message["tool_call_id"] = row.tool_call_id
        messages.append(message)
    return messages
