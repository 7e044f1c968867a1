"""An add that would lose the file: write_file over a file the user asked to add to.

Asked "Add butter to my shopping list", the 1.5B wrote a shopping.txt holding only
"butter", and milk, eggs and flour were gone. write_file replaces a whole file;
when the request adds, a write that drops lines the file holds is sent back as a
malformed call, naming what it drops and the two right ways to add.
"""

from __future__ import annotations

from pathlib import Path

from saturnd.turn.claims import asked_action

ADDING = frozenset({"add", "append", "put", "insert"})
MAX_BYTES = 64_000
SHOWN_LINES = 3


def dropped_lines(request: str, path: Path, content: str) -> list[str]:
    """The lines of the file at `path` that `content` would lose, when `request` asks to add."""
    if asked_action(request) not in ADDING:
        return []
    try:
        if not path.is_file() or path.stat().st_size > MAX_BYTES:
            return []
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    return [line.strip() for line in text.splitlines() if line.strip() and line.strip() not in content]


def overwrite_refusal(path: str, dropped: list[str]) -> str:
    shown = ", ".join(repr(line) for line in dropped[:SHOWN_LINES]) + (" …" if len(dropped) > SHOWN_LINES else "")
    return (
        f"tool error: write_file replaces all of {path}, and this content drops {len(dropped)} of its lines"
        f" ({shown}). To add to it, call edit_file, or write_file with the old lines and the new one."
    )
