"""Ground: the context built once per turn, with no model call."""

from __future__ import annotations

from datetime import datetime
from typing import Any

SYSTEM_PROMPT = (
    "You are Saturn, a personal assistant running on the user's own machine. "
    "Answer briefly and plainly."
)


def ground_messages(cwd: str, now: datetime | None = None) -> list[dict[str, Any]]:
    now = now or datetime.now().astimezone()
    lines = [
        SYSTEM_PROMPT,
        f"Working folder: {cwd}",
        f"Now: {now:%A %Y-%m-%d %H:%M} {now.tzname() or ''}".rstrip(),
    ]
    return [{"role": "system", "content": "\n".join(lines)}]
