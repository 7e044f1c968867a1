"""Ground: the context built once per turn, with no model call."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from protocol.methods import Attachment
from saturnd.tools.kb import kb_manifest
from saturnd.turn import prompts
from saturnd.turn.fencing import fence

INSTRUCTIONS_FILE = "SATURN.md"
INSTRUCTIONS_CAP = 8_000


@dataclass(frozen=True)
class Ground:
    cwd: Path
    home: Path
    now: datetime
    memory_block: str = ""
    attachments: list[Attachment] = field(default_factory=list)


def ground_text(ground: Ground) -> str:
    parts = [prompts.SYSTEM, f"Working folder: {ground.cwd}", f"Now: {_now(ground.now)}"]
    for label, path in _instruction_files(ground):
        text = _read(path)
        if text:
            parts.append(f"Standing instructions ({label}):\n{text}")
    manifest = kb_manifest(ground.home / "kb")
    if manifest:
        lines = [f"- {name}: {title} ({size} B)" for name, title, size in manifest[:50]]
        parts.append("Knowledge base (kb_search / kb_read):\n" + "\n".join(lines))
    if ground.memory_block:
        parts.append(ground.memory_block)
    for attachment in ground.attachments:
        parts.append(f"Attached by the user: {attachment.name}\n" + fence(attachment.name, attachment.content))
    return "\n\n".join(parts)


def ground_messages(ground: Ground) -> list[dict[str, Any]]:
    return [{"role": "system", "content": ground_text(ground)}]


def _now(now: datetime) -> str:
    zone = now.tzname() or ""
    return f"{now:%A %Y-%m-%d %H:%M} {zone}".rstrip()


def _instruction_files(ground: Ground) -> list[tuple[str, Path]]:
    files = [("yours", ground.home / INSTRUCTIONS_FILE)]
    folder_file = ground.cwd / INSTRUCTIONS_FILE
    if folder_file != files[0][1]:
        files.append(("this folder's", folder_file))
    return files


def _read(path: Path) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return ""
    return text[:INSTRUCTIONS_CAP]
