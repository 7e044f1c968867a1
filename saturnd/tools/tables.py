"""Tables are data: every table in a folder, loaded into one in-memory SQLite database.

CSV and TSV files, markdown pipe tables (in .md and .txt files; a file may hold several) and
JSON or YAML files holding a list of records (or an object whose value is one) become tables
named after their path ("haus/garten/ernte.csv" is `haus_garten_ernte`). Values are read as
numbers or dates when a whole column reads so (see cells.py), in whatever locale the person
writes them. `Tables.heads()` tells the model what there is, compactly; the query tool
(query.py) runs one read-only SELECT over it.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import os
import re
import sqlite3
import threading
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from saturnd.tools.cells import Cell, Column, decimal_votes, number_texts, read_column

MAX_FILE_BYTES = 1_000_000
MAX_FILES = 200
"""Table-holding candidates read per load (CSV, TSV, markdown, text, JSON, YAML)."""
MAX_TOTAL_BYTES = 8_000_000
"""Bytes read per load: reading values in every locale takes about a second a megabyte."""
MAX_DIRS = 5_000
HEAD_ROWS_KEPT = 5
HEADS_CAP = 4_000
"""Characters of heads() text before the rest of the tables are only named."""
CELL_SHOWN = 40

TABLE_SUFFIXES = frozenset({".csv", ".tsv", ".md", ".markdown", ".txt", ".json", ".yaml", ".yml"})
SKIPPED_DIRS = frozenset({"node_modules", "__pycache__", "venv", "site-packages"})
SEPARATOR_ROW = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$", re.MULTILINE)

_KEYWORD_TEXT = """
ABORT ACTION ADD AFTER ALL ALTER ALWAYS ANALYZE AND AS ASC ATTACH AUTOINCREMENT BEFORE BEGIN
BETWEEN BY CASCADE CASE CAST CHECK COLLATE COLUMN COMMIT CONFLICT CONSTRAINT CREATE CROSS
CURRENT CURRENT_DATE CURRENT_TIME CURRENT_TIMESTAMP DATABASE DEFAULT DEFERRABLE DEFERRED
DELETE DESC DETACH DISTINCT DO DROP EACH ELSE END ESCAPE EXCEPT EXCLUDE EXCLUSIVE EXISTS
EXPLAIN FAIL FILTER FIRST FOLLOWING FOR FOREIGN FROM FULL GENERATED GLOB GROUP GROUPS HAVING
IF IGNORE IMMEDIATE IN INDEX INDEXED INITIALLY INNER INSERT INSTEAD INTERSECT INTO IS ISNULL
JOIN KEY LAST LEFT LIKE LIMIT MATCH MATERIALIZED NATURAL NO NOT NOTHING NOTNULL NULL NULLS OF
OFFSET ON OR ORDER OTHERS OUTER OVER PARTITION PLAN PRAGMA PRECEDING PRIMARY QUERY RAISE RANGE
RECURSIVE REFERENCES REGEXP REINDEX RELEASE RENAME REPLACE RESTRICT RETURNING RIGHT ROLLBACK
ROW ROWS SAVEPOINT SELECT SET TABLE TEMP TEMPORARY THEN TIES TO TRANSACTION TRIGGER UNBOUNDED
UNION UNIQUE UPDATE USING VACUUM VALUES VIEW VIRTUAL WHEN WHERE WINDOW WITH WITHOUT
"""
SQL_KEYWORDS = frozenset(_KEYWORD_TEXT.split())
"""SQLite's keywords: a name that is one is written in double quotes."""
BARE_NAME = re.compile(r"[^\W\d]\w*")


def ident(name: str) -> str:
    """A table or column name as SQL must write it: bare when it can be, else in double quotes."""
    if BARE_NAME.fullmatch(name) and name.upper() not in SQL_KEYWORDS:
        return name
    return '"' + name.replace('"', '""') + '"'


@dataclass(frozen=True)
class ColumnInfo:
    name: str
    kind: str
    """integer, real, text, date (ISO text) or datetime (ISO text)."""
    unit: str | None = None
    written: str | None = None
    spread: str = ""
    """What the rows hold beyond the few shown: a date column's first and last day, a text
    column's values when they are few and repeat ("one of: 2025-26, 2026-27"): what a question
    about this year or this season filters on (stop 57's first run: two sums over every row)."""

    def described(self, spread: bool = False) -> str:
        notes = [n for n in (self.unit, f"written {self.written}" if self.written else None,
                             self.spread if spread else None) if n]
        return f"{ident(self.name)} {self.kind}" + (f" ({', '.join(notes)})" if notes else "")


SPREAD_CHOICES = 5


def spread_of(column: Column) -> str:
    present = [v for v in column.values if v is not None and v != ""]
    if column.kind in ("date", "datetime") and len(set(present)) > 1:
        return f"{min(present)} to {max(present)}"
    choices = list(dict.fromkeys(str(v) for v in present))
    if column.kind == "text" and 1 < len(choices) <= SPREAD_CHOICES and len(present) > len(choices):
        return "one of: " + ", ".join(show_cell(c) for c in choices)
    return ""


@dataclass
class TableInfo:
    name: str
    source: str
    """The file it came from, relative to its root (a later root's files start with its name)."""
    columns: list[ColumnInfo]
    rows: int
    head: list[tuple[Cell, ...]] = field(default_factory=list)

    def head_lines(self, max_rows: int) -> list[str]:
        """Its first rows as the model is shown them."""
        return [" | ".join(show_cell(v) for v in row) for row in self.head[:max_rows]]


@dataclass
class Tables:
    """The tables found under some folders, in one in-memory SQLite database."""

    db: sqlite3.Connection
    tables: list[TableInfo]
    skipped: list[str] = field(default_factory=list)
    """Files left out, with why (too big, past the file cap)."""
    lock: threading.Lock = field(default_factory=threading.Lock)
    """Held while a query runs: the connection is shared by the threads the tools run in."""

    def __len__(self) -> int:
        return len(self.tables)

    def names(self) -> list[str]:
        return [t.name for t in self.tables]

    def table(self, name: str) -> TableInfo | None:
        low = name.lower()
        return next((t for t in self.tables if t.name.lower() == low), None)

    def heads(self, max_rows: int = 3, max_chars: int = HEADS_CAP) -> str:
        """Per table its name, source file, row count, columns with their kinds, and its first
        rows: what the model needs to write a query, paid on every pass."""
        blocks: list[str] = []
        used = 0
        for i, table in enumerate(self.tables):
            cols = ", ".join(c.described(spread=table.rows > max_rows) for c in table.columns)
            # the file first: the name file tools take, and query takes it for its table too
            # (stop 53: edits given the table's SQL name as their path failed, 1 of 4 asks)
            lines = [f"{table.source} (table {table.name}, {_rows(table.rows)}): {cols}"]
            lines += ["  " + line for line in table.head_lines(max_rows)]
            block = "\n".join(lines)
            if blocks and used + len(block) > max_chars:
                rest = self.tables[i:]
                blocks.append("more tables: " + ", ".join(dict.fromkeys(t.source for t in rest)))
                break
            blocks.append(block)
            used += len(block) + 1
        return "\n".join(blocks)


def _rows(n: int) -> str:
    return "1 row" if n == 1 else f"{n} rows"


def show_cell(value: Any) -> str:
    """A stored value as the model reads it: whole floats without ".0", long text clipped."""
    if value is None:
        return ""
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return repr(round(value, 10))
    text = " ".join(str(value).split())
    return text if len(text) <= CELL_SHOWN else text[: CELL_SHOWN - 1] + "…"


# -- finding and reading files ---------------------------------------------------------------


@dataclass(frozen=True)
class _Candidate:
    path: Path
    source: str
    stem: str
    """The relative path without its suffix, for the table's name."""
    size: int
    mtime_ns: int


@dataclass
class _RawTable:
    name_parts: list[str]
    source: str
    header: list[str]
    rows: list[list[Any]]
    decimal: str | None = None
    """The table's decimal separator when the file's form tells it (";"-separated CSV: ",")."""
    typed: bool = False
    """JSON or YAML: a quoted "28001" is text by the author's choice."""


def _candidates(roots: Sequence[Path], skipped: list[str]) -> list[_Candidate]:
    found: list[_Candidate] = []
    seen: set[str] = set()
    dirs = total = 0
    for index, root in enumerate(roots):
        if not root.is_dir():
            continue
        real_root = os.path.realpath(root)
        prefix = "" if index == 0 else f"{root.name}/"
        for dirpath, dirnames, filenames in os.walk(real_root):
            dirs += 1
            if dirs > MAX_DIRS:
                break
            dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in SKIPPED_DIRS)
            for fname in sorted(filenames):
                path = Path(dirpath, fname)
                if fname.startswith(".") or path.suffix.lower() not in TABLE_SUFFIXES:
                    continue
                real = os.path.realpath(path)
                if real in seen or not real.startswith(real_root + os.sep):
                    continue  # seen under another root, or a link that leads out
                seen.add(real)
                rel = path.relative_to(real_root).as_posix()
                try:
                    stat = path.stat()
                except OSError:
                    continue
                if stat.st_size > MAX_FILE_BYTES:
                    skipped.append(f"{prefix}{rel} (over {MAX_FILE_BYTES // 1_000_000} MB)")
                    continue
                if len(found) >= MAX_FILES:
                    skipped.append(f"{prefix}{rel} (past {MAX_FILES} files)")
                    continue
                if total + stat.st_size > MAX_TOTAL_BYTES:
                    skipped.append(f"{prefix}{rel} (past {MAX_TOTAL_BYTES // 1_000_000} MB in all)")
                    continue
                total += stat.st_size
                stem = rel[: -len(path.suffix)] if path.suffix else rel
                found.append(_Candidate(path, prefix + rel, stem, stat.st_size, stat.st_mtime_ns))
    return found


def decoded(data: bytes) -> tuple[str, str]:
    """A file's text and its encoding: UTF-8 (without its BOM), else cp1252, a spreadsheet's
    export on Windows. The edit tools read files so too, and write them back in it."""
    try:
        return data.decode("utf-8-sig"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace"), "cp1252"


def _read(candidate: _Candidate) -> list[_RawTable]:
    suffix = candidate.path.suffix.lower()
    try:
        text, _ = decoded(candidate.path.read_bytes())
    except OSError:
        return []
    parts = [candidate.stem]
    if suffix in (".csv", ".tsv"):
        return _delimited(text, parts, candidate.source, tab=suffix == ".tsv")
    if suffix in (".json", ".yaml", ".yml"):
        return _records_file(text, parts, candidate.source, json_=suffix == ".json")
    return _markdown(text, parts, candidate.source)


def _delimited(text: str, parts: list[str], source: str, tab: bool) -> list[_RawTable]:
    lines = text.splitlines()
    if lines and lines[0].lower().startswith("sep=") and len(lines[0]) == 5:
        delimiter, text = lines[0][4], "\n".join(lines[1:])  # Excel's hint line
    elif tab:
        delimiter = "\t"
    else:
        delimiter = sniff(text)
    rows = [r for r in csv.reader(io.StringIO(text), delimiter=delimiter) if any(c.strip() for c in r)]
    if not rows:
        return []
    # A title line above the header ("Kontoauszug Januar 2026"): the header is the first row as
    # wide as most rows are.
    widths = Counter(len(r) for r in rows)
    width = max(widths, key=lambda w: (widths[w], w))
    start = next(i for i, r in enumerate(rows) if len(r) == width)
    header, body = rows[start], rows[start + 1:]
    return [_RawTable(parts, source, header, body, decimal="," if delimiter == ";" else None)]


def sniff(text: str) -> str:
    """A CSV's delimiter, as the query tool and the edit tools read it."""
    sample = text[:65_536]
    try:
        return csv.Sniffer().sniff(sample, delimiters=",;\t|").delimiter
    except csv.Error:
        first = sample.split("\n", 1)[0]
        return max(",;\t|", key=first.count)


def _records_file(text: str, parts: list[str], source: str, json_: bool) -> list[_RawTable]:
    try:
        if json_:
            data = json.loads(text)
        else:
            import yaml

            data = yaml.safe_load(text)
    except Exception:  # not a data file after all (a template, a half-written file)
        return []
    return _records_in(data, parts, source)


NESTING = 3
"""How deep in a document lists of records are looked for."""


def _records_in(data: Any, parts: list[str], source: str, depth: int = 0) -> list[_RawTable]:
    """Every list of records in a document: one at the top is the file's table, several are
    named by their keys; deeper ones by their path. Records grouped under keys ({"months":
    {"October": [...], "November": [...]}}) are one table with the group as its first column,
    named after the key above them, so a question over several groups is one SELECT; records
    keyed by their names ({"fridges": {"rue Pasteur": {...}}}) are one table with the name as its
    first column."""
    if _is_records(data):
        return [_from_records(data, parts, source), *_inner_lists(data, parts, source)]
    if not isinstance(data, dict) or depth > NESTING:
        return []
    lists = [(str(k), v) for k, v in data.items() if _is_records(v)]
    found = [table for k, v in lists
             for table in _records_in(v, parts if len(lists) == 1 and depth == 0 else [*parts, k], source)]
    for key, value in data.items():
        if isinstance(value, dict) and len(value) >= 2 and all(_is_records(v) for v in value.values()):
            grouped = [{str(key): group, **record} for group, records in value.items() for record in records]
            found.append(_from_records(grouped, [*parts, str(key)], source))
        elif isinstance(value, dict) and len(value) >= 2 and all(isinstance(v, dict) for v in value.values()):
            # records keyed by their name ({"fridges": {"rue Pasteur": {...}, ...}}): the key is a column
            keyed = [{str(key): name, **record} for name, record in value.items()]
            found.append(_from_records(keyed, [*parts, str(key)], source))
        elif isinstance(value, dict):
            found += _records_in(value, [*parts, str(key)], source, depth + 1)
    return found


def _inner_lists(records: list[dict[Any, Any]], parts: list[str], source: str, depth: int = 0) -> list[_RawTable]:
    """A field holding a list of records (a gecko's weighings, a member's payments) is a table of
    its own: each inner record after its parent's plain fields, so "Mango's latest weighing" is
    one SELECT (stop 58's first run: the weighings were one JSON cell, and the first was read);
    and so on down, each level with the plain fields of all above it (stop 61's first run: a
    lighthouse's visits inside each lighthouse inside each region, and no table had their dates)."""
    keys = dict.fromkeys(k for r in records for k, v in r.items() if _is_records(v))
    found = []
    for key in keys:
        rows = [{**{k: v for k, v in r.items() if not isinstance(v, list | dict)}, **inner}
                for r in records if _is_records(r.get(key)) for inner in r[key]]
        found.append(_from_records(rows, [*parts, str(key)], source))
        if depth < NESTING:
            found += _inner_lists(rows, [*parts, str(key)], source, depth + 1)
    return found


def _is_records(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def _from_records(records: list[dict[Any, Any]], parts: list[str], source: str) -> _RawTable:
    flat = [dict(_flatten(r)) for r in records]
    header = list(dict.fromkeys(k for r in flat for k in r))
    return _RawTable(parts, source, header, [[r.get(k) for k in header] for r in flat], typed=True)


def _flatten(record: dict[Any, Any]) -> Iterator[tuple[str, Any]]:
    for key, value in record.items():
        if isinstance(value, dict) and value:
            for inner, v in value.items():
                yield f"{key}.{inner}", v
        else:
            yield str(key), value


def _markdown(text: str, parts: list[str], source: str) -> list[_RawTable]:
    if "|" not in text or not SEPARATOR_ROW.search(text):
        return []
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    found: list[tuple[str | None, list[str], list[list[str]]]] = []
    heading: str | None = None
    in_heading = in_table = in_head = False
    header: list[str] = []
    rows: list[list[str]] = []
    for token in tokens:
        kind = token.type
        if kind == "heading_open":
            in_heading = True
        elif kind == "heading_close":
            in_heading = False
        elif kind == "table_open":
            in_table, header, rows = True, [], []
        elif kind == "table_close":
            in_table = False
            found.append((heading, header, rows))
        elif kind == "thead_open":
            in_head = True
        elif kind == "thead_close":
            in_head = False
        elif kind == "tr_open" and in_table and not in_head:
            rows.append([])
        elif kind == "inline" and in_heading:
            heading = _plain_inline(token)
        elif kind == "inline" and in_table:
            (header if in_head else rows[-1]).append(_plain_inline(token))
    if len(found) == 1:
        return [_RawTable(parts, source, found[0][1], list(found[0][2]))]
    headings = [h for h, _, _ in found]
    distinct = all(headings) and len({_name_part(h or "") for h in headings}) == len(headings)
    return [
        _RawTable([*parts, (h or "") if distinct else str(i)], source, head, list(body))
        for i, (h, head, body) in enumerate(found, start=1)
    ]


def _plain_inline(token: Any) -> str:
    children = token.children or []
    if not children:
        return str(token.content).strip()
    return "".join(c.content for c in children if c.type in ("text", "code_inline", "softbreak")).strip()


# -- naming and loading ----------------------------------------------------------------------


def _name_part(text: str) -> str:
    out = "".join(ch if ch.isalnum() else "_" for ch in text.lower())
    return re.sub(r"_+", "_", out).strip("_")


def table_name(parts: Sequence[str], taken: set[str]) -> str:
    """A readable SQL name for a table: its path's words joined by "_" (unicode letters kept),
    not starting with a digit, unique among `taken` (compared without case, as SQLite does)."""
    base = "_".join(p for p in (_name_part(part) for part in parts) if p) or "table"
    if base[0].isdigit() or base.startswith("sqlite_"):
        base = "t_" + base
    name, n = base, 1
    while name.lower() in taken:
        n += 1
        name = f"{base}_{n}"
    taken.add(name.lower())
    return name


def _column_names(header: Sequence[Any], width: int) -> list[str]:
    names: list[str] = []
    taken: set[str] = set()
    for i in range(width):
        raw = " ".join(str(header[i]).split()) if i < len(header) and header[i] is not None else ""
        base = raw or f"column_{i + 1}"
        name, n = base, 1
        while name.lower() in taken:
            n += 1
            name = f"{base}_{n}"
        taken.add(name.lower())
        names.append(name)
    return names


def _columns(raw: _RawTable) -> tuple[list[str], list[Column]]:
    width = max([len(raw.header), *(len(r) for r in raw.rows)])
    names = _column_names(raw.header, width)
    cells = [[row[i] if i < len(row) else None for row in raw.rows] for i in range(width)]
    texts = [str(v) for col in cells for v in col if isinstance(v, str)]
    votes = decimal_votes(number_texts(texts))
    decimal = votes.pop() if len(votes) == 1 else raw.decimal
    return names, [read_column(col, decimal, typed=raw.typed) for col in cells]


_SQL_TYPE = {"integer": "INTEGER", "real": "REAL"}


def _build(raws: list[_RawTable], skipped: list[str]) -> Tables:
    db = sqlite3.connect(":memory:", check_same_thread=False)
    infos: list[TableInfo] = []
    taken: set[str] = set()
    for raw in raws:
        if not raw.header and not raw.rows:
            continue
        names, columns = _columns(raw)
        if not names:
            continue
        name = table_name(raw.name_parts, taken)
        defs = ", ".join(f'{ident(n)} {_SQL_TYPE.get(c.kind, "TEXT")}' for n, c in zip(names, columns, strict=True))
        db.execute(f"CREATE TABLE {ident(name)} ({defs})")
        rows = list(zip(*(c.values for c in columns), strict=True)) if columns else []
        marks = ", ".join("?" for _ in columns)
        db.executemany(f"INSERT INTO {ident(name)} VALUES ({marks})", rows)
        infos.append(TableInfo(
            name, raw.source,
            [ColumnInfo(n, c.kind, c.unit, c.written, spread_of(c)) for n, c in zip(names, columns, strict=True)],
            len(rows), rows[:HEAD_ROWS_KEPT],
        ))
    db.commit()
    add_sql_helpers(db)
    db.execute("PRAGMA query_only = ON")
    db.set_authorizer(_read_only)
    return Tables(db, infos, skipped)


_ALLOWED_ACTIONS = frozenset({sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION, sqlite3.SQLITE_RECURSIVE})


def _read_only(action: int, arg1: str | None, arg2: str | None, db: str | None, trigger: str | None) -> int:
    return sqlite3.SQLITE_OK if action in _ALLOWED_ACTIONS else sqlite3.SQLITE_DENY


def _iso_day(value: Any) -> dt.date | None:
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(str(value)[:10])
    except ValueError:
        return None


def _part(attr: str) -> Any:
    def get(value: Any) -> int | None:
        day = _iso_day(value)
        return None if day is None else int(getattr(day, attr))
    return get


def _datediff(a: Any, b: Any) -> int | None:
    first, second = _iso_day(a), _iso_day(b)
    return None if first is None or second is None else (first - second).days


def add_sql_helpers(db: sqlite3.Connection) -> None:
    """MySQL habits a small model brings, made to work: MONTH(d), YEAR(d), DAY(d),
    DATEDIFF(later, earlier) in days, CURDATE(), CONCAT(a, b, ...); and CASEFOLD(text)."""
    db.create_function("MONTH", 1, _part("month"), deterministic=True)
    db.create_function("YEAR", 1, _part("year"), deterministic=True)
    db.create_function("DAY", 1, _part("day"), deterministic=True)
    db.create_function("DATEDIFF", 2, _datediff, deterministic=True)
    db.create_function("CURDATE", 0, lambda: dt.date.today().isoformat())
    db.create_function("CONCAT", -1, lambda *parts: "".join(p if isinstance(p, str) else show_cell(p) for p in parts))
    # SQLite's lower() folds ASCII only: "María" must be found as "maría"
    db.create_function("CASEFOLD", 1, lambda v: v.casefold() if isinstance(v, str) else v, deterministic=True)


# -- the entry point -------------------------------------------------------------------------

_cache: dict[tuple[str, ...], tuple[tuple[Any, ...], Tables]] = {}
_cache_lock = threading.Lock()
CACHE_KEPT = 4


def load_tables(roots: Sequence[Path]) -> Tables:
    """Every table under the roots (recursively, hidden folders skipped), in one in-memory SQLite
    database. Loaded again only when a file changed (name, size or time), so calling it every
    pass and every query costs a walk of the folders."""
    skipped: list[str] = []
    candidates = _candidates(roots, skipped)
    key = tuple(os.path.realpath(r) for r in roots)
    print_ = (tuple((c.source, c.size, c.mtime_ns) for c in candidates), tuple(skipped))
    with _cache_lock:
        cached = _cache.get(key)
        if cached and cached[0] == print_:
            return cached[1]
    raws: list[_RawTable] = []
    for candidate in candidates:
        try:
            raws += _read(candidate)
        except Exception as exc:  # one odd file (a CSV field past csv's limit) leaves the rest
            skipped.append(f"{candidate.source} (unreadable: {type(exc).__name__})")
    tables = _build(raws, skipped)
    with _cache_lock:
        _cache[key] = (print_, tables)
        while len(_cache) > CACHE_KEPT:
            _cache.pop(next(iter(_cache)))
    return tables
