"""Read-only file tools; all filesystem work runs in a thread, off the daemon's event loop."""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Iterator
from fnmatch import fnmatch
from glob import escape as escape_glob
from pathlib import Path
from typing import Annotated

import msgspec

from saturnd.gate.reach import Reach
from saturnd.tools.registry import Tool, ToolEnv, ToolFailure, in_thread
from saturnd.tools.tables import load_tables

OUTPUT_CAP = 16_000  # characters of file text one read returns (~16 KB)
LIST_CAP = 200
MATCH_CAP = 50
MATCH_LINE_CAP = 200
SEARCH_FILE_CAP = 20_000  # files one search looks at, so a search of a huge tree still ends
MAX_SEARCH_BYTES = 1_000_000
SKIP_DIRS = frozenset({".git", "node_modules", ".venv", "__pycache__"})
SNIFF_BYTES = 8192


def resolve(path: str, cwd: Path) -> Path:
    """`~` expands; a relative path is taken against the turn's cwd."""
    p = Path(path).expanduser()
    return p if p.is_absolute() else cwd / p


NEAR_NAMES = 5


def near_names(path: Path) -> list[str]:
    """Names in the missing path's folder that look like it: notes.txt for note.txt, budget.csv for budget.xlsx."""
    folder = path.parent
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    visible = [n for n in names if not n.startswith(".")]
    stem = path.stem.lower()
    same_stem = [n for n in visible if Path(n).stem.lower() == stem or Path(n).stem.lower().startswith(stem)]
    close = difflib.get_close_matches(path.name, visible, n=NEAR_NAMES, cutoff=0.6)
    return list(dict.fromkeys(same_stem + close))[:NEAR_NAMES]


def missing(kind: str, path: Path, display: str) -> ToolFailure:
    """'no such file: x', with the near names a small model can try next."""
    if re.match(r"(?:kb|knowledge[ _-]?base)\s*[:/]", display, re.IGNORECASE):
        # The 1.5B searched "kb:people.md" with search_files and answered that Ana was not in the KB.
        return ToolFailure(f"no such {kind}: {display}; the knowledge base is searched with kb_search and read with kb_read")
    if (source := table_source(path)) is not None:
        # the 1.5B gave the query table's name the ground shows ("te_samling") as a path
        return ToolFailure(f"no such {kind}: {display}; {display} is the query table of the file {source}: give that path")
    if near := near_names(path):
        return ToolFailure(f"no such {kind}: {display}; near names here: {', '.join(near)}")
    if below := like_named_below(path, display):
        return ToolFailure(f"no such {kind}: {display}; files of a like name further down: {', '.join(below)}")
    return ToolFailure(f"no such {kind}: {display}")


def like_named_below(path: Path, display: str) -> list[str]:
    """Files under the missing path's deepest existing folder whose names look like its name,
    written the way the path was (the 1.5B gives a file the ground lists four folders down as
    "ablauf.md", or stops a folder short: "reparto/quota" for "reparto/campo-invernale-2026/quote.md")."""
    ancestor, steps = path.parent, 1
    while not ancestor.is_dir() and ancestor != ancestor.parent:
        ancestor, steps = ancestor.parent, steps + 1
    found: list[str] = []
    for walked, (root, dirs, names) in enumerate(os.walk(ancestor)):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found += [os.path.relpath(os.path.join(root, n), ancestor) for n in sorted(names) if not n.startswith(".")]
        if walked > FOLDERS_WALKED:
            break
    by_name = {Path(f).name.lower(): f for f in reversed(found)}
    stem = path.stem.lower()
    close = [by_name[n] for n in difflib.get_close_matches(path.name.lower(), list(by_name), n=NEAR_NAMES, cutoff=0.6)]
    alike = close or [f for n, f in by_name.items() if Path(n).stem.startswith(stem) or stem.startswith(Path(n).stem)]
    written = Path(display).parents[steps - 1] if len(Path(display).parents) >= steps else Path()
    return [str(written / f) for f in alike[:NEAR_NAMES]]


FILES_NAMED = 8
FOLDERS_WALKED = 100


def not_a_file(path: Path, display: str) -> ToolFailure:
    """A directory given where a file goes, with the files under it (the 1.5B passes the
    working folder the prompt names as the path to edit)."""
    files: list[str] = []
    for walked, (root, dirs, names) in enumerate(os.walk(path)):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        files += [os.path.relpath(os.path.join(root, n), path) for n in sorted(names) if not n.startswith(".")]
        if len(files) > FILES_NAMED or walked > FOLDERS_WALKED:
            break
    inside = f": the files in it are {', '.join(files[:FILES_NAMED])}{', …' if len(files) > FILES_NAMED else ''}" if files else ""
    return ToolFailure(f"{display} is a directory; give a file path{inside}")


def table_source(path: Path) -> str | None:
    """The file a name is the query table of, in the folder it would be in, the name given bare or
    with a file's suffix ("terveys_silmat_2026.yaml"); None when it is no table's or its file's own."""
    if not path.parent.is_dir():
        return None
    tables = load_tables([path.parent])
    table = tables.table(path.name) or tables.table(path.stem)
    return None if table is None or Path(table.source).stem == path.stem else table.source


def is_binary(path: Path) -> bool:
    with path.open("rb") as f:
        return b"\0" in f.read(SNIFF_BYTES)


def read_window(path: Path, display: str, start_line: int, max_lines: int) -> str:
    """Lines start_line.. of a text file under a header, capped at max_lines and OUTPUT_CAP."""
    if path.is_dir():
        raise ToolFailure(f"{display} is a directory; use list_dir")
    if not path.is_file():
        raise missing("file", path, display)
    try:
        if is_binary(path):
            raise ToolFailure(f"{display} is a binary file; not shown")
        start, max_lines = max(1, start_line), max(1, max_lines)
        shown: list[str] = []
        size = total = 0
        cut = False  # a lone line was longer than OUTPUT_CAP
        capped = False  # stopped early by OUTPUT_CAP
        with path.open("rb") as f:
            for total, raw in enumerate(f, 1):
                if total < start or capped or len(shown) >= max_lines:
                    continue
                line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
                if size + len(line) + 1 > OUTPUT_CAP:
                    if not shown:
                        shown.append(line[:OUTPUT_CAP])
                        cut = True
                    capped = True
                    continue
                shown.append(line)
                size += len(line) + 1
    except OSError as e:
        raise ToolFailure(f"cannot read {display}: {e.strerror or e}") from e
    if total == 0:
        return f"{display} (empty file)"
    if start > total:
        raise ToolFailure(f"start_line {start} is past the end of {display} ({total} lines)")
    last = start + len(shown) - 1
    out = f"{display} (lines {start}-{last} of {total})\n" + "\n".join(shown)
    if cut:
        out += f"\n… line {last} cut at 16 KB; read more with start_line={last + 1}"
    elif capped:
        out += f"\n… output capped at 16 KB; read more with start_line={last + 1}"
    elif last < total:
        out += f"\n… {total - last} more lines; read more with start_line={last + 1}"
    return out


# -- read_file -----------------------------------------------------------------------------


class ReadFileParams(msgspec.Struct, forbid_unknown_fields=True):
    path: str
    start_line: Annotated[int, msgspec.Meta(ge=1)] = 1
    max_lines: Annotated[int, msgspec.Meta(ge=1)] = 200


# The file tools' target: "always" approves this path, not the tool everywhere.
READ_FILE = Tool(name="read_file", description="Read a text file (200 lines at a time; start_line to go on).",
                 params=ReadFileParams, target="path", outside=True,
                 run=in_thread(lambda p, env: read_window(resolve(p.path, env.cwd), p.path, p.start_line, p.max_lines)))


# -- list_dir ------------------------------------------------------------------------------


class ListDirParams(msgspec.Struct, forbid_unknown_fields=True):
    path: str = "."


def human_size(n: int) -> str:
    if n < 1024:
        return f"{n} B"
    size = float(n)
    for unit in ("KB", "MB"):
        size /= 1024
        if size < 1024:
            return f"{size:.1f} {unit}"
    return f"{size / 1024:.1f} GB"


def _list(path: Path, display: str) -> str:
    if path.is_file():
        raise ToolFailure(f"not a directory: {display}")
    if not path.is_dir():
        raise missing("directory", path, display)
    try:
        entries = sorted(os.scandir(path), key=lambda e: (e.name.casefold(), e.name))
    except OSError as e:
        raise ToolFailure(f"cannot list {display}: {e.strerror or e}") from e
    if not entries:
        return f"{display} (empty)"
    lines = [f"{display} ({len(entries)} entries)"]
    for entry in entries[:LIST_CAP]:
        try:
            if entry.is_dir():
                lines.append(f"{entry.name}/")
            else:
                lines.append(f"{entry.name}  {human_size(entry.stat().st_size)}")
        except OSError:  # a dangling symlink, a vanished file
            lines.append(entry.name)
    if len(entries) > LIST_CAP:
        lines.append(f"… {len(entries) - LIST_CAP} more")
    return "\n".join(lines)


LIST_DIR = Tool(name="list_dir", description="List a directory: subdirectories end in /, files show sizes.",
                params=ListDirParams, target="path",
                run=in_thread(lambda p, env: _list(resolve(p.path, env.cwd), p.path)))


# -- search_files --------------------------------------------------------------------------


class SearchFilesParams(msgspec.Struct, forbid_unknown_fields=True):
    pattern: Annotated[str, msgspec.Meta(description="regex, case-insensitive")]
    path: str = "."
    glob: Annotated[str, msgspec.Meta(description="file filter, e.g. *.py")] = ""


def _walk(root: Path, glob: str, reach: Reach) -> tuple[list[tuple[str, Path]], bool]:
    """(relpath, path) of the files to search, sorted; and whether SEARCH_FILE_CAP cut it.
    Symlinks out of the root are not followed and secret stores below it are stepped over."""
    if root.is_file():
        return [(root.name, root)], False
    real_root = os.path.realpath(root)
    found: list[tuple[str, Path]] = []
    for dirpath, dirnames, filenames in os.walk(real_root):
        dirnames[:] = sorted(
            d for d in dirnames
            if d not in SKIP_DIRS and reach.walk_may_read(os.path.join(dirpath, d), False, real_root)
        )
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, real_root)
            if glob and not (fnmatch(name, glob) or fnmatch(rel, glob)):
                continue
            if not reach.walk_may_read(path, os.path.islink(path), real_root):
                continue
            if len(found) >= SEARCH_FILE_CAP:
                return found, True
            found.append((rel, Path(dirpath, name)))
    return found, False


def files_named(root: Path, name: str, reach: Reach) -> list[str]:
    """Where under `root` files called `name` are (relative paths, at most NEAR_NAMES), walked as
    search_files walks."""
    files, _ = _walk(root, escape_glob(name), reach)
    return [rel for rel, _ in files[:NEAR_NAMES]]


def _search(params: SearchFilesParams, env: ToolEnv) -> str:
    root, display, pattern = resolve(params.path, env.cwd), params.path, params.pattern
    if not root.exists():
        raise missing("file or directory", root, display)
    try:
        regex, literal = re.compile(pattern, re.IGNORECASE), False
    except re.error:  # searched as literal text instead
        regex, literal = re.compile(re.escape(pattern), re.IGNORECASE), True
    files, files_capped = _walk(root, params.glob, Reach.of(env.cwd, env.kb_dir))
    prefix = display if root.is_dir() else os.path.dirname(display)
    out: list[str] = []
    if literal:
        out.append("note: not a valid regex; searched as literal text")
    matches = 0
    for shown, lineno, line in _text_lines(files, prefix):
        if not regex.search(line):
            continue
        if matches == MATCH_CAP:
            out.append(f"… stopped at {MATCH_CAP} matches; narrow the pattern, path or glob")
            return "\n".join(out)
        line = line.strip()
        if len(line) > MATCH_LINE_CAP:
            line = line[:MATCH_LINE_CAP] + "…"
        out.append(f"{shown}:{lineno}: {line}")
        matches += 1
    if matches == 0:
        out.append(f"no matches for {pattern!r} in {display}")
        out += _word_matches(files, prefix, pattern)
    if files_capped:
        out.append(f"… searched only the first {SEARCH_FILE_CAP} files; narrow the path")
    return "\n".join(out)


WORD_SEARCH_LINES = 20_000
WORD_MATCHES_PER_FILE = 5


def _word_matches(files: list[tuple[str, Path]], prefix: str, pattern: str) -> list[str]:
    """Lines holding most of the pattern's words (or in a file whose name holds them), best first.

    A small model searches for "dentist schedule" where the file says "Dentist Friday 9am":
    one literal phrase finds nothing; its words do. Words are compared by their first letters,
    in any script, so "Einkaufsliste" finds "Einkauf".
    """
    terms = _words(pattern.replace("|", " ").replace(".*", " "))
    if not terms:
        return []
    scored: list[tuple[int, int, str, int, str]] = []
    for order, (shown, lineno, line) in enumerate(_text_lines(files, prefix)):
        if order == WORD_SEARCH_LINES:
            break
        hits = len(terms & (_words(line) | _words(shown.replace("/", " "))))
        if hits and line.strip():
            scored.append((-hits, order, shown, lineno, line.strip()[:MATCH_LINE_CAP]))
    out: list[str] = []
    per_file: dict[str, int] = {}
    for _, _, shown, lineno, line in sorted(scored):
        if per_file.get(shown, 0) == WORD_MATCHES_PER_FILE:
            continue
        per_file[shown] = per_file.get(shown, 0) + 1
        out.append(f"{shown}:{lineno}: {line}")
        if len(out) == MATCH_CAP:
            break
    if out:
        out.insert(0, f"lines with its words ({', '.join(sorted(terms))}), best first:")
    return out


SEARCH_WORD = re.compile(r"[^\W_]{3,}")


def _words(text: str) -> set[str]:
    return {w.casefold()[:5] for w in SEARCH_WORD.findall(text)}


def lines_under(root: Path, reach: Reach, max_files: int) -> Iterator[tuple[str, int, str]]:
    """(path under `root`, line number, line) of the first `max_files` text files search_files
    would read there."""
    files, _ = _walk(root, "", reach)
    yield from _text_lines(files[:max_files], "")


def _text_lines(files: list[tuple[str, Path]], prefix: str) -> Iterator[tuple[str, int, str]]:
    """(shown path, line number, line) of every searchable text file, in order."""
    for rel, path in files:
        try:
            if path.stat().st_size > MAX_SEARCH_BYTES or is_binary(path):
                continue
            text = path.read_bytes().decode("utf-8", errors="replace")
        except OSError:
            continue
        shown = os.path.normpath(os.path.join(prefix, rel))
        for lineno, line in enumerate(text.splitlines(), 1):
            yield shown, lineno, line


SEARCH_FILES = Tool(name="search_files", params=SearchFilesParams, run=in_thread(_search), target="path", outside=True,
                    description="Search text files under a path for a regex or words; gives path:line: text.")

FILE_TOOLS = [READ_FILE, LIST_DIR, SEARCH_FILES]
