"""Ground: the context built once per turn, with no model call.

What never changes comes first (Saturn's instructions; the model caller puts the
tool list right after them), then what the user changes now and then (the standing
instructions, the knowledge base's manifest, memory), then, under TURN_HEADING,
what does (the clock, the folder's map, its tables and the excerpts ranked against
this request), so the model server's prompt cache keeps the prefix.

Everything shown from the user's files sits inside one `<outside>` fence: a file's
first line is data, never an instruction, and never a source of a recipient.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from protocol.methods import Attachment, GroundTrace
from saturnd.gate.reach import within
from saturnd.tools.builtin_files import human_size
from saturnd.tools.kb import kb_documents, kb_manifest
from saturnd.tools.tables import load_tables
from saturnd.turn import prompts
from saturnd.turn.fencing import fence
from saturnd.turn.folder_scan import FolderScan, scan_folder
from saturnd.turn.retrieval import KB_SOURCE, Document, Excerpt, relevant_excerpts, render_excerpts

INSTRUCTIONS_FILE = "SATURN.md"
INSTRUCTIONS_CAP = 8_000
TURN_HEADING = "## This turn"
MAP_ENTRIES = 40
MAP_LINE_CHARS = 60
KB_RETRIEVAL_DOCS = 50
KB_RETRIEVAL_BYTES = 32_768
TABLE_HEAD_ROWS = 3


@dataclass(frozen=True)
class Ground:
    cwd: Path
    home: Path
    now: datetime
    memory_block: str = ""
    attachments: list[Attachment] = field(default_factory=list)
    request: str = ""
    """The user's words this turn: what the excerpts are ranked against."""
    folder_map: bool = True
    retrieval: bool = True


@dataclass(frozen=True)
class BuiltGround:
    text: str
    """The system prompt."""
    trace: GroundTrace
    excerpts: list[Excerpt]
    """What the model was shown of the user's documents: the dependency gate counts a whole file as read."""
    file_names: str = ""
    """The mapped files' names, one a line."""
    table_rows: list[tuple[str, str]] = field(default_factory=list)
    """(source file, the rows shown of its table): what the model may copy an address from."""


def ground_text(ground: Ground) -> str:
    return build_ground(ground).text


def build_ground(ground: Ground) -> BuiltGround:
    """The system prompt and what it found; reads files, bounded (folder_scan's limits)."""
    parts = [prompts.SYSTEM]
    for label, path in _instruction_files(ground):
        if text := _read(path):
            parts.append(f"Standing instructions ({label}):\n{text}")
    if manifest := kb_manifest(ground.home / "kb"):
        lines = [f"- {name}: {title} ({size} B)" for name, title, size in manifest[:50]]
        parts.append(prompts.KB_INTRO + "\n" + fence("knowledge base", "\n".join(lines)))
    if ground.memory_block:
        parts.append(ground.memory_block)
    turn_part, findings, excerpts, names, rows = _this_turn(ground)
    return BuiltGround("\n\n".join([*parts, turn_part]), findings, excerpts, names, rows)


def _this_turn(ground: Ground) -> tuple[str, GroundTrace, list[Excerpt], str, list[tuple[str, str]]]:
    parts = [TURN_HEADING, f"Now: {_now(ground.now)}", f"Working folder: {ground.cwd}"]
    findings = GroundTrace()
    excerpts: list[Excerpt] = []
    names = ""
    table_names: list[str] = []
    table_rows: list[tuple[str, str]] = []
    if ground.folder_map or ground.retrieval:
        started = time.monotonic()
        scan = scan_folder(ground.cwd) if ground.cwd.is_dir() else FolderScan([], [], cut=False)
        scan_ms = round((time.monotonic() - started) * 1000, 1)
        names = "\n".join(f.rel for f in scan.files[:MAP_ENTRIES])
        shown = []
        if ground.folder_map and (map_text := folder_map_text(scan)):
            shown.append(map_text)
        if ground.retrieval:
            tables = load_tables([ground.cwd, ground.home / "kb"])
            if heads := tables.heads(TABLE_HEAD_ROWS):
                shown.append(prompts.TABLES_INTRO + "\n" + heads)
                table_names = [f"{t.name} ({t.source})" for t in tables.tables]
                # the tables heads() had room for (past its budget the rest are only named)
                table_rows = [(t.source, "\n".join(lines)) for t in tables.tables
                              if (lines := t.head_lines(TABLE_HEAD_ROWS)) and "\n  ".join(lines) in heads]
            excerpts = relevant_excerpts(ground.request, _documents(ground, scan))
            if excerpts:
                shown.append(prompts.EXCERPTS_INTRO + "\n" + render_excerpts(excerpts))
        if shown:
            parts.append(fence("your files", "\n\n".join(shown)))
        findings = GroundTrace(
            files_mapped=min(len(scan.files), MAP_ENTRIES) if ground.folder_map else 0,
            excerpts=[_cite(e) for e in excerpts], scan_cut=scan.cut, scan_ms=scan_ms, tables=table_names,
        )
    for attachment in ground.attachments:
        parts.append(f"Attached by the user: {attachment.name}\n" + fence(attachment.name, attachment.content))
    return "\n".join(parts), findings, excerpts, names, table_rows


def folder_map_text(scan: FolderScan) -> str:
    """Up to MAP_ENTRIES files: name, size and first line; empty folders by name."""
    if not scan.files and not scan.folders:
        return ""
    lines = [prompts.FOLDER_MAP_INTRO]
    for item in scan.files[:MAP_ENTRIES]:
        first = item.first_line[:MAP_LINE_CHARS] + ("…" if len(item.first_line) > MAP_LINE_CHARS else "")
        lines.append(f"- {item.rel} ({human_size(item.size)})" + (f": {first}" if first else ""))
    with_files = {f.rel.rsplit("/", 1)[0] + "/" for f in scan.files if "/" in f.rel}
    empty = [d for d in scan.folders if d not in with_files and not any(w.startswith(d) for w in with_files)]
    lines += [f"- {d}" for d in empty[: max(0, MAP_ENTRIES - len(scan.files))]]
    if len(scan.files) > MAP_ENTRIES or scan.cut:
        lines.append("- … more (list_dir or search_files to see them)")
    return "\n".join(lines)


def _documents(ground: Ground, scan: FolderScan) -> list[Document]:
    documents = [Document(f.rel, f.text) for f in scan.files if f.text]
    for name, path in kb_documents(ground.home / "kb")[:KB_RETRIEVAL_DOCS]:
        try:
            if path.stat().st_size <= KB_RETRIEVAL_BYTES:
                documents.append(Document(f"{KB_SOURCE}{name}", path.read_text(encoding="utf-8", errors="replace")))
        except OSError:
            continue
    return documents


def _cite(part: Excerpt) -> str:
    return f"{part.source}:{part.first_line}-{part.last_line or part.first_line + len(part.lines) - 1}"


def ground_messages(ground: Ground) -> tuple[list[dict[str, Any]], BuiltGround]:
    built = build_ground(ground)
    return [{"role": "system", "content": built.text}], built


def _now(now: datetime) -> str:
    zone = now.tzname() or ""
    return f"{now:%A %Y-%m-%d %H:%M} {zone}".rstrip()


def _instruction_files(ground: Ground) -> list[tuple[str, Path]]:
    files = [("yours", ground.home / INSTRUCTIONS_FILE)]
    folder_file = ground.cwd / INSTRUCTIONS_FILE
    # A folder's SATURN.md that is a symlink out of the folder is not the folder's to give.
    if folder_file != files[0][1] and within(os.path.realpath(folder_file), os.path.realpath(ground.cwd)):
        files.append(("this folder's", folder_file))
    return files


def _read(path: Path) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return ""
    return text[:INSTRUCTIONS_CAP]
