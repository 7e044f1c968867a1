"""Ground: the context built once per turn, with no model call.

What never changes comes first (Saturn's instructions; the model caller puts the
tool list right after them), then what the user changes now and then (the standing
instructions, the knowledge base's manifest, memory), then, under
TURN_HEADING, what does (the clock, the folder, its map, the excerpts ranked
against this request), so the model server's prompt cache keeps the prefix.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from protocol.methods import Attachment, GroundTrace
from saturnd.gate.reach import within
from saturnd.tools.builtin_files import human_size
from saturnd.tools.kb import kb_documents, kb_manifest
from saturnd.turn import prompts
from saturnd.turn.dates import days_meant
from saturnd.turn.day_lines import on_the_days
from saturnd.turn.errands import asked_action
from saturnd.turn.fencing import fence
from saturnd.turn.fines import fines_owed
from saturnd.turn.folder_scan import FolderScan, scan_folder
from saturnd.turn.look_first import contact_sources
from saturnd.turn.rated import (
    a_price_a_time,
    a_term_by_the_week,
    against_the_budget,
    cost_a_head,
    gone_up,
    hours_at_table_rates,
    hours_at_their_rates,
    left_after_spent,
    rows_at_their_prices,
    unpaid_at_a_price,
    used_at_its_rate,
)
from saturnd.turn.retrieval import KB_SOURCE, Document, Excerpt, relevant_excerpts, render_excerpts
from saturnd.turn.shares import part_of_the_amount, percent_of_the_total, table_share
from saturnd.turn.the_user import the_user_named
from saturnd.turn.trails import asks_to_follow
from saturnd.turn.worked_lines import request_worked_out
from saturnd.turn.worked_times import before_the_day_asked

INSTRUCTIONS_FILE = "SATURN.md"
INSTRUCTIONS_CAP = 8_000
TURN_HEADING = "## This turn"
MAP_ENTRIES = 40
MAP_LINE_CHARS = 60
KB_RETRIEVAL_DOCS = 50
KB_RETRIEVAL_BYTES = 32_768


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
    """What the model was shown of the user's documents: the gate counts it as read."""
    documents: list[Document] = field(default_factory=list)
    """Every document the excerpts were ranked from."""


def ground_text(ground: Ground) -> str:
    return build_ground(ground).text


def build_ground(ground: Ground) -> BuiltGround:
    """The system prompt and what it found; reads files, bounded (folder_scan's limits)."""
    parts = [prompts.SYSTEM]
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
    turn_part, findings, excerpts, documents = _this_turn(ground)
    return BuiltGround("\n\n".join([*parts, turn_part]), findings, excerpts, documents)


def _this_turn(ground: Ground) -> tuple[str, GroundTrace, list[Excerpt], list[Document]]:
    parts = [TURN_HEADING, f"Now: {_now(ground.now)}", f"Working folder: {ground.cwd}"]
    today = ground.now.date()
    findings = GroundTrace()
    excerpts: list[Excerpt] = []
    documents: list[Document] = []
    if ground.folder_map or ground.retrieval:
        started = time.monotonic()
        scan = scan_folder(ground.cwd) if ground.cwd.is_dir() else FolderScan([], [], cut=False)
        scan_ms = round((time.monotonic() - started) * 1000, 1)
        documents = _documents(ground, scan) if ground.retrieval else []
        # a trail is read in its order: a line from its end would let the model skip it
        trail = asks_to_follow(ground.request)
        excerpts = [] if trail else relevant_excerpts(
            ground.request, documents, today=today, wanted=contact_sources(ground.request, documents))
        if ground.folder_map and (map_text := folder_map_text(scan, first_lines=not trail)):
            parts.append(map_text)
        if excerpts:
            rendered = render_excerpts(excerpts, ground.request, today)
            shown = "\n".join(filter(None, (rendered, *_put_together(ground.request, rendered, documents, today),
                                            the_user_named(ground.request, documents, excerpts))))
            parts.append(prompts.EXCERPTS_INTRO + "\n" + fence("your files", shown))
        # an errand's own words stay the person's: "Text Tom I'll see him tomorrow" is not to gain a
        # date; and a day the excerpts name lines for is said there (told "the weekend is Saturday 5
        # and Sunday 6 December" first, the 1.5B answered "What's on this weekend?" with that)
        if (not asked_action(ground.request) and (meant := days_meant(ground.request, today))
                and not any(on_the_days(part.lines, ground.request, today) for part in excerpts)):
            parts.insert(2, meant)
        findings = GroundTrace(
            files_mapped=min(len(scan.files), MAP_ENTRIES) if ground.folder_map else 0,
            excerpts=[_cite(e) for e in excerpts], scan_cut=scan.cut, scan_ms=scan_ms,
        )
    if not asked_action(ground.request) and (worked := request_worked_out(ground.request)):
        parts.insert(2, worked)  # "leaving at 2:15pm … three and a half hours": the 1.5B said 45 minutes
    for attachment in ground.attachments:
        parts.append(f"Attached by the user: {attachment.name}\n" + fence(attachment.name, attachment.content))
    return "\n".join(parts), findings, excerpts, documents


def folder_map_text(scan: FolderScan, first_lines: bool = True) -> str:
    """Up to MAP_ENTRIES files: name, size and first line; empty folders by name."""
    if not scan.files and not scan.folders:
        return ""
    lines = [prompts.FOLDER_MAP_INTRO if first_lines else prompts.FOLDER_NAMES_INTRO]
    for item in scan.files[:MAP_ENTRIES]:
        first = item.first_line if first_lines else ""
        first = first[:MAP_LINE_CHARS] + ("…" if len(first) > MAP_LINE_CHARS else "")
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
    return f"{part.source}:{part.first_line}-{part.first_line + len(part.lines) - 1}"


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


def _put_together(request: str, rendered: str, documents: list[Document], today: date) -> list[str]:
    """What the ground works out from the excerpts shown and the folder's other texts together: a
    share, a price a head or an hour or a unit or a match, a time before the day's event, rows at
    a price list's prices, a sum against a budget, a row's amount against a new one a line gives, a
    price a period times the periods not paid, a price a term over the term's weeks."""
    texts = [d.text for d in documents]
    return [table_share(request, rendered, texts), percent_of_the_total(request, rendered, texts), part_of_the_amount(request, texts),
            cost_a_head(request, rendered), hours_at_their_rates(request, rendered),
            used_at_its_rate(request, rendered), a_price_a_time(request, rendered), before_the_day_asked(request, rendered),
            rows_at_their_prices(request, rendered, texts), against_the_budget(request, rendered, texts),
            gone_up(request, rendered), left_after_spent(request, rendered), unpaid_at_a_price(request, rendered),
            hours_at_table_rates(request, documents, today), fines_owed(request, documents, today),
            a_term_by_the_week(request, rendered, texts)]
