"""The knowledge base: markdown/text documents under ~/.saturn/kb/, searched and read by name."""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path
from typing import Annotated

import msgspec

from saturnd.gate.reach import within
from saturnd.tools.builtin_files import MAX_SEARCH_BYTES, missing, read_window
from saturnd.tools.registry import Tool, ToolEnv, ToolFailure, in_thread

KB_SUFFIXES = frozenset({".md", ".markdown", ".txt"})
EMPTY_KB = "the knowledge base is empty (~/.saturn/kb/)"
SEARCH_TOP = 5
SNIPPET_CAP = 120
TITLE_SCAN_BYTES = 65_536
_STOP = (
    "the and for are was were with what where when which who how why this that these those"
    " from into about does did has have had you your can not but all any"
)
STOP_WORDS = frozenset(_STOP.split())


def kb_documents(kb_dir: Path) -> list[tuple[str, Path]]:
    """(name, path) of every document, sorted by name; hidden files and folders are skipped,
    and so is a symlink that leads out of the knowledge base (os.walk follows no folder link)."""
    if not kb_dir.is_dir():
        return []
    real_kb = os.path.realpath(kb_dir)
    docs: list[tuple[str, Path]] = []
    for dirpath, dirnames, filenames in os.walk(real_kb):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for fname in filenames:
            path = Path(dirpath, fname)
            if fname.startswith(".") or path.suffix.lower() not in KB_SUFFIXES:
                continue
            if path.is_symlink() and not within(os.path.realpath(path), real_kb):
                continue
            docs.append((path.relative_to(real_kb).as_posix(), path))
    return sorted(docs)


def doc_title(text: str, name: str) -> str:
    """The first `# ` heading, else the file name."""
    for line in text.splitlines():
        if line.startswith("# ") and line[2:].strip():
            return line[2:].strip()
    return Path(name).name


def _read_text(path: Path, limit: int | None = None) -> str:
    with path.open("rb") as f:
        return f.read(-1 if limit is None else limit).decode("utf-8", errors="replace")


def kb_manifest(kb_dir: Path) -> list[tuple[str, str, int]]:
    """(name, title, size in bytes) of every document, sorted by name."""
    out: list[tuple[str, str, int]] = []
    for name, path in kb_documents(kb_dir):
        try:
            size = path.stat().st_size
            title = doc_title(_read_text(path, TITLE_SCAN_BYTES), name)
        except OSError:
            continue
        out.append((name, title, size))
    return out


# -- kb_search -----------------------------------------------------------------------------


class KbSearchParams(msgspec.Struct, forbid_unknown_fields=True):
    query: str


def query_words(query: str) -> list[str]:
    """Lowercased words of 3+ characters, each once, in query order, without stop words."""
    words = re.findall(r"\w+", query.lower())
    return list(dict.fromkeys(w for w in words if len(w) >= 3 and w not in STOP_WORDS))


def snippet(text: str, words: list[str]) -> str:
    """The first body line holding a query word, trimmed around it; else the first body line."""
    lines = [" ".join(line.split()) for line in text.splitlines()]
    body = [line for line in lines if line and not line.startswith("# ")]
    for line in body:
        low = line.lower()
        found = [i for i in (low.find(w) for w in words) if i >= 0]
        if found:
            start = max(0, min(found) - 40)
            return _clip(line, start)
    return _clip(body[0], 0) if body else ""


def _clip(line: str, start: int) -> str:
    part = line[start : start + SNIPPET_CAP]
    return ("…" if start else "") + part + ("…" if start + SNIPPET_CAP < len(line) else "")


def _search(kb_dir: Path, query: str) -> str:
    docs = kb_documents(kb_dir)
    if not docs:
        return EMPTY_KB
    words = query_words(query)
    if not words:
        raise ToolFailure("the query needs words of 3 or more letters")
    scored: list[tuple[int, int, str, str, str]] = []
    for name, path in docs:
        try:
            if path.stat().st_size > MAX_SEARCH_BYTES:
                continue
            text = _read_text(path)
        except OSError:
            continue
        low = text.lower()
        hits = [w for w in words if w in low]
        if hits:
            occurrences = sum(low.count(w) for w in hits)
            scored.append((-len(hits), -occurrences, name, doc_title(text, name), snippet(text, hits)))
    if not scored:
        return "no documents match"
    scored.sort()
    return "\n".join(
        f"{name} — {title}: {snip}" if snip else f"{name} — {title}"
        for _, _, name, title, snip in scored[:SEARCH_TOP]
    )


KB_SEARCH = Tool(name="kb_search", description="Search the user's knowledge base; gives the best 5 documents.",
                 params=KbSearchParams, run=in_thread(lambda p, env: _search(env.kb_dir, p.query)), outside=True)


# -- kb_read -------------------------------------------------------------------------------


class KbReadParams(msgspec.Struct, forbid_unknown_fields=True):
    name: Annotated[str, msgspec.Meta(description="as kb_search gives it")]
    start_line: Annotated[int, msgspec.Meta(ge=1)] = 1


def _read(kb_dir: Path, name: str, start_line: int) -> str:
    rel = Path(name)
    if not name.strip() or rel.is_absolute() or ".." in rel.parts:
        raise ToolFailure(f"not a knowledge base document name: {name}")
    path = kb_dir / rel
    try:
        inside = path.resolve().is_relative_to(kb_dir.resolve())
    except OSError:
        inside = False
    if not inside:  # a symlink out of the knowledge base
        raise ToolFailure(f"not a knowledge base document name: {name}")
    if not path.is_file():
        raise missing("kb document", path, name)
    return read_window(path, name, start_line, 200)


async def _kb_read(params: KbReadParams, env: ToolEnv) -> str:
    try:
        return await asyncio.to_thread(_read, env.kb_dir, params.name, params.start_line)
    except ToolFailure as failure:
        # The 1.5B asked the knowledge base for budget.csv, a file of the folder, then gave up.
        in_folder = Path(params.name).name
        if in_folder and (env.cwd / in_folder).is_file():
            raise ToolFailure(f"{failure}; {in_folder} is a file in the working folder: read it with read_file") from None
        raise


KB_READ = Tool(name="kb_read", description="Read one knowledge base document by name (start_line to go on).",
               params=KbReadParams, run=_kb_read, outside=True)

KB_TOOLS = [KB_SEARCH, KB_READ]
