"""Structured edits: add_items, remove_items, mark_done, set_value.

A small model that rewrites a list with write_file or edit_file drops lines, loses the bullets
or the CSV's delimiter. These tools take only what changes (the items, the row, the value) and
write it the file's own way, in any language: a list keeps its bullets, numbering and
checkboxes; a CSV/TSV its delimiter, quoting and decimal commas; a JSON file its indent, a YAML
list of records its comments, quotes and flow style; a markdown table its columns. What they
cannot find comes back with the nearest lines. Each one previews its change as a unified diff
(Tool.preview) for the person to approve.
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import datetime as dt
import difflib
import io
import json
import os
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Annotated, Any

import msgspec
from ruamel.yaml import YAML, YAMLError
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.util import load_yaml_guess_indent

from saturnd.tools.builtin_files import (
    FOLDERS_WALKED,
    SNIFF_BYTES,
    human_size,
    missing,
    near_names,
    not_a_file,
    resolve,
    table_source,
)
from saturnd.tools.names import MIN_NAME_CHARS, shared, words
from saturnd.tools.registry import Tool, ToolEnv, ToolFailure, in_thread
from saturnd.tools.tables import decoded, sniff

MAX_EDIT_BYTES = 2_000_000
SHOWN_CHARS = 120  # of one line quoted back to the model
NEAREST = 3

# -- the file ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Doc:
    """A text file as read: its text with "\\n" line ends, and how to write it back alike."""

    path: Path
    display: str
    text: str
    exists: bool = True
    newline: str = "\n"
    bom: bool = False
    encoding: str = "utf-8"

    @property
    def yaml(self) -> bool:
        return self.path.suffix.lower() in (".yaml", ".yml")

    @cached_property
    def kind(self) -> str:
        """csv; data: JSON, or YAML holding a list of records (edited as data, written back in
        its own style); text: lines (a YAML of settings is `key: value` lines)."""
        suffix = self.path.suffix.lower()
        if suffix in (".csv", ".tsv"):
            return "csv"
        return "data" if suffix == ".json" or self.yaml and _holds_records(self) else "text"


def load(path: Path, display: str, create: bool = False) -> Doc:
    if path.is_dir():
        raise not_a_file(path, display)
    if not path.is_file():
        if create:
            return Doc(path, display, "", exists=False)
        raise missing("file", path, display)
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise ToolFailure(f"cannot read {display}: {e.strerror or e}") from e
    if len(raw) > MAX_EDIT_BYTES:
        raise ToolFailure(f"{display} is too large to edit here ({human_size(len(raw))})")
    if b"\0" in raw[:SNIFF_BYTES]:
        raise ToolFailure(f"{display} is a binary file; not edited")
    text, encoding = decoded(raw)
    newline = "\r\n" if "\r\n" in text else "\n"
    return Doc(path, display, text.replace("\r\n", "\n"), True, newline, raw.startswith(codecs.BOM_UTF8), encoding)


@dataclass(frozen=True)
class Change:
    doc: Doc
    after: str
    said: str  # what the model is told


def save(change: Change) -> str:
    doc = change.doc
    if doc.exists and change.after == doc.text:
        return change.said
    try:
        data = change.after.replace("\n", doc.newline).encode(doc.encoding)
        doc.path.parent.mkdir(parents=True, exist_ok=True)
        doc.path.write_bytes(codecs.BOM_UTF8 + data if doc.bom else data)
    except UnicodeEncodeError as e:
        raise ToolFailure(f"{doc.display} is {doc.encoding} text and cannot hold {e.object[e.start:e.end]!r}; not edited") from None
    except OSError as e:
        raise ToolFailure(f"cannot write {doc.display}: {e.strerror or e}") from e
    return change.said


def file_diff(display: str, before: str | None, after: str) -> str:
    """A unified diff of a file's text ("" when nothing changes); `before` None: a new file."""
    if before == after:
        return ""
    lines = difflib.unified_diff(
        before.splitlines() if before else [], after.splitlines(),
        "/dev/null" if before is None else f"a/{display}", f"b/{display}", n=2, lineterm="",
    )
    return "\n".join(lines)


def split_lines(text: str) -> tuple[list[str], bool]:
    """The lines, and whether the last one ends with a newline (a new file's will)."""
    return (text.removesuffix("\n").split("\n"), text.endswith("\n")) if text else ([], True)


def join_lines(lines: list[str], final: bool) -> str:
    return "\n".join(lines) + ("\n" if final and lines else "")


# -- words: matching items, flags, numbers -------------------------------------------------

ITEM = re.compile(
    r"^(?P<indent>[ \t]*)(?P<bullet>[-*+•–]|\d{1,4}[.)])(?P<gap>[ \t]+)"
    r"(?:\[(?P<box>[ xX✓✔])\](?:[ \t]+|$))?(?P<text>.*)$"
)
DONE_MARKS = "✓✔✅☑"


def item_prefix(line: str) -> str:
    """A list line's bullet, number and checkbox with its indent; a plain line's indent."""
    m = ITEM.match(line)
    return line[: m.start("text")] if m else line[: _indent(line)]


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def main_text(line: str) -> str:
    """A line's own words: without bullet, number, checkbox, strike-through or done mark."""
    m = ITEM.match(line)
    text = (m["text"] if m else line).strip().strip(DONE_MARKS + " \t")
    for mark in ("~~", "**"):
        if len(text) > 2 * len(mark) and text.startswith(mark) and text.endswith(mark):
            text = text[len(mark):-len(mark)].strip()
    return text


def key(text: str) -> str:
    """How a text compares: case and spacing aside, and a trailing full stop."""
    return " ".join(text.casefold().split()).strip(" .;,:!")


def shown(text: str) -> str:
    text = text.strip()
    return repr(text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 1] + "…")


NO_YES = {"no": "yes", "n": "y", "nein": "ja", "non": "oui", "false": "true", "0": "1", "open": "done", "": "x"}
"""A 'no' and its 'yes': what a flag column writes when it holds only the other state."""
YES = {*NO_YES.values(), *DONE_MARKS}


def flag(value: Any) -> bool | None:
    """True for a yes/done value, False for a no/open one: a bool, or a word known here."""
    if isinstance(value, bool):
        return value
    word = key(str(value)) if value is not None else ""
    return False if word in NO_YES else True if word in YES else None


def flags(values: list[str]) -> dict[str, bool] | None:
    """A column's values as done (True) or open, when it is a column of flags: each a word
    known here, or the one other value beside a known 'no' ("Sí" beside "No"); else None."""
    filled = {v.strip() for v in values if v.strip()}
    if not filled or all(v.isdigit() for v in filled):
        return None
    known = {v: flag(v) for v in filled}
    unknown = [v for v, f in known.items() if f is None]
    if unknown and (len(unknown) > 1 or len(filled) != 2):
        return None
    # the one other value beside a known word is its opposite ("nee" beside "ja": stop 61's Dutch
    # shirts handed back, a column the tools could not tick)
    other = not next((f for f in known.values() if f is not None), False)
    return {v: other if f is None else f for v, f in known.items()}


def flag_word(values: list[str], done: bool) -> str:
    """The word a flag column writes for done (or open): one it holds already, else the
    counterpart of the one it holds for the other state, in that word's case."""
    known = flags(values) or {}
    held = Counter(v.strip() for v in values if known.get(v.strip()) is done)
    if held:
        return held.most_common(1)[0][0]
    other = Counter(v.strip() for v in values if v.strip() in known)
    if not other:
        return "x" if done else ""
    word = other.most_common(1)[0][0]
    pairs = NO_YES if done else {yes: no for no, yes in NO_YES.items()}
    out = pairs.get(word.casefold(), "x" if done else "")
    return out.upper() if word.isupper() else out.capitalize() if word[:1].isupper() else out


NUMBER = re.compile(r"-?\d+(?:[.,]\d+)?")


def number(value: str) -> float | None:
    text = value.strip()
    return float(text.replace(",", ".")) if NUMBER.fullmatch(text) else None


def fit(value: Any, values: list[str]) -> str:
    """A value as a column writes it: its flag words, its decimal comma or point."""
    if isinstance(value, bool):
        return flag_word(values, value)
    if isinstance(value, int | float):
        text = str(int(value)) if float(value).is_integer() else repr(value)
    else:
        text = as_json(value) if isinstance(value, dict | list) else str(value or "").strip()
    commas = any(re.fullmatch(r"\D{0,3}-?[\d.]*\d,\d+\D{0,3}", v.strip()) for v in values)
    points = any(re.fullmatch(r"\D{0,3}-?\d+\.\d+\D{0,3}", v.strip()) for v in values)
    if commas and not points:
        return re.sub(r"^(\D{0,3}-?\d+)\.(\d+)(\D{0,3})$", r"\1,\2\3", text)
    return re.sub(r"^(-?\d+),(\d{1,2})$", r"\1.\2", text) if points and not commas else text


def same_value(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return flag(a) is not None and flag(a) == flag(b)
    na, nb = (v if isinstance(v, int | float) else number(str(v)) if v is not None else None for v in (a, b))
    if na is not None and nb is not None:
        return float(na) == float(nb)
    return key(str(a if a is not None else "")) == key(str(b if b is not None else ""))


def best_name(names: list[str], wanted: str, cutoff: float = 0.6) -> int | None:
    """The index of the name `wanted` names: exactly, by its words, or nearly."""
    want, keys = key(wanted), [key(n) for n in names]
    if want in keys:
        return keys.index(want)
    words = set(re.findall(r"\w+", want))
    for i, k in enumerate(keys):
        have = set(re.findall(r"\w+", k))
        if words and have and (words <= have or have <= words):
            return i
    close = difflib.get_close_matches(want, keys, n=1, cutoff=cutoff)
    return keys.index(close[0]) if close else None


def find_name(names: list[str], wanted: str, what: str, display: str) -> int:
    if (found := best_name(names, wanted)) is None:
        raise ToolFailure(f"no {what} {wanted!r} in {display}; its {what}s: {', '.join(names)}")
    return found


def holds(record: Any, given: Any) -> bool:
    """Whether a record (or a row by its columns) holds every value given, its keys compared
    loosely; given a plain value, whether the record is that value."""
    if not isinstance(given, dict):
        return not isinstance(record, dict | list) and same_value(record, given)
    folded = {key(str(n)): v for n, v in record.items()} if isinstance(record, dict) else {}
    return bool(given) and all(key(str(n)) in folded and same_value(folded[key(str(n))], v) for n, v in given.items())


def parse_item(item: Any, display: str) -> Any:
    """An item given as a JSON object in a string is that object."""
    if not (isinstance(item, str) and item.strip().startswith("{")):
        return item
    try:
        value = json.loads(item)
    except ValueError:
        raise ToolFailure(f"item {shown(item)} is not a valid JSON object") from None
    return value if isinstance(value, dict) else item


# -- entries: what an item may name --------------------------------------------------------


@dataclass
class Grid:
    """A table: a CSV file, a markdown table in a text file, or a JSON list's records (see
    records_grid) so that rows and records are labelled and flagged one way."""

    columns: list[str]
    rows: list[list[Any]]  # text; a JSON list's values as they are
    spans: list[tuple[int, int]]  # each row's lines [start, end)
    end: int  # the line after the table: where rows are added
    delimiter: str
    sample: str = ""  # a markdown table's last line, written like; a CSV's: '"' when it quotes every field
    widths: list[int] | None = None  # a markdown table's column widths, when its lines are aligned

    def values(self, column: int) -> list[Any]:
        return [row[column] if column < len(row) else "" for row in self.rows]

    def filled(self, column: int) -> list[Any]:
        return [v for v in self.values(column) if v is not None and str(v).strip()]

    def label(self) -> int:
        """The column that names a row: the first mostly made of words (not flags), else the first."""
        for i in range(len(self.columns)):
            values = self.filled(i)
            words = [v for v in values if isinstance(v, str) and re.search(r"[^\W\d_]{2}", v) and flag(v) is None]
            if 2 * len(words) > len(values) > 0:
                return i
        return 0

    def status(self) -> int | None:
        """The last column of done/open flags: bools, or flag words."""
        found = [i for i in range(len(self.columns)) if (vs := self.filled(i)) and (
            all(isinstance(v, bool) for v in vs) or all(isinstance(v, str) for v in vs) and flags(vs))]
        return found[-1] if found else None

    def cells(self, row: int) -> list[str]:
        return list(self.rows[row]) + [""] * (len(self.columns) - len(self.rows[row]))

    def render(self, cells: list[str]) -> list[str]:
        if self.delimiter != "|":
            return _csv_lines([cells], self.delimiter, self.sample == '"')
        out = [c.replace("|", "\\|") for c in cells]
        if "| " in self.sample or " |" in self.sample:
            out = [f" {c.ljust(self.widths[i] - 2) if self.widths and i < len(self.widths) else c} " for i, c in enumerate(out)]
        closing = "|" if self.sample.rstrip().endswith("|") else ""
        return [self.sample[: _indent(self.sample)] + "|" + "|".join(out) + closing]


@dataclass
class Entry:
    """One line, row or record an item may name."""

    at: int  # its line (text, CSV) or its index in its list (JSON)
    shown: str
    main: str
    keys: set[str] = field(default_factory=set)
    cells: list[str] = field(default_factory=list)
    grid: Grid | None = None
    row: int = -1
    record: Any = None
    list_name: str = ""  # a JSON record's list: "" for a top-level list, else its key


def line_entry(i: int, line: str) -> Entry:
    return Entry(i, f"line {i + 1}: {shown(line)}", main_text(line), {key(main_text(line)), key(line)})


def pick(entries: list[Entry], item: Any) -> tuple[list[Entry], list[Entry]]:
    """The entries an item names, and when it names none, the ones it might mean.

    Its whole text or main text (a row's label), every such entry; else the one row with it
    in a cell; else the one entry holding its words. An object names the rows or records
    whose fields all hold its values."""
    if isinstance(item, dict):
        return [e for e in entries if holds(e.record, item)], []
    want = key(main_text(str(item)))
    if not want:
        return [], []
    exact = [e for e in entries if want in e.keys]
    if exact:
        return exact, []
    in_cell = [e for e in entries if any(key(c) == want for c in e.cells)]
    if len(in_cell) == 1:
        return in_cell, []
    whole = re.compile(rf"(?<!\w){re.escape(want)}(?!\w)")
    holding = [e for e in entries if whole.search(_text(e))]
    if holding or in_cell:
        return (holding, []) if len(holding) == 1 else ([], holding or in_cell)
    alike = most_alike(entries, str(item))
    return (alike, []) if len(alike) == 1 else ([], alike)


def most_alike(entries: list[Entry], item: str) -> list[Entry]:
    """The entries holding the most of the item's name words, as inflected, when that is half of
    them or more: the person's answer to which one, passed as the item, names its entry in their
    words, not the file's (stop 59: "p. Eva Horváthovej, Dúbravka" for the line "p. Eva
    Horváthová, Dúbravka, …")."""
    said = words(item, MIN_NAME_CHARS)
    held = [(len(shared(said, words(_text(e), MIN_NAME_CHARS))), e) for e in entries]
    most = max((count for count, _ in held), default=0)
    return [e for count, e in held if count and 2 * count >= len(said) and count == most]


def _text(entry: Entry) -> str:
    return key(" | ".join(entry.cells) if entry.cells else entry.main)


def nearest(entries: list[Entry], item: Any) -> str:
    """The entries most like what an item names: ' (nearest: line 4: '- Milch 1 L', …)'."""
    want = key(" ".join(map(str, item.values())) if isinstance(item, dict) else main_text(str(item)))
    by_key: dict[str, Entry] = {}
    for e in entries:
        by_key.setdefault(key(e.main), e)
    close = difflib.get_close_matches(want, list(by_key), n=NEAREST, cutoff=0.5)
    inside = [k for k in by_key if len(k) >= 3 and (want in k or k in want) and k not in close]
    picked = (close + inside)[:NEAREST]
    return f" (nearest: {'; '.join(by_key[k].shown for k in picked)})" if picked else ""


def ambiguity(item: Any, display: str, candidates: list[Entry]) -> str:
    lines = "; ".join(e.shown for e in candidates[:5])
    # the person's words fit several entries: which one is theirs to say (ask_user), and the
    # model may only settle it itself when the request gave more than it passed here
    return (f"{shown(str(item))} matches more than one in {display}: {lines}; ask the user which one"
            " they mean unless the request already says it, then give that whole line")


def find(entries: list[Entry], item: Any, display: str, one: bool = False) -> list[Entry]:
    """The entries an item names (`one`: exactly one); a failure naming the nearest when none."""
    found, maybe = pick(entries, parse_item(item, display))
    if found and not (one and len(found) > 1):
        return found
    raise ToolFailure(ambiguity(item, display, found or maybe) if len(found) > 1 or len(maybe) > 1
                      else f"{shown(str(item))} not found in {display}{nearest(entries, item)}")


# -- text files: lists, sections, markdown tables ------------------------------------------

MD_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t#]*$")
LOOSE_HEADING = re.compile(  # "Groceries:", "**Groceries**", an ini file's "[server]"
    r"^(?:(?![-*+•–#|>\s])(?P<colon>[^:\n]{1,60}?)[ \t]*:|(\*\*|__)(?P<bold>[^*_\n]{1,60}?)\2[ \t]*:?"
    r"|\[(?P<ini>[^\]\n]{1,60})\])[ \t]*$"
)
LOOSE = 7  # a loose heading's level, below any markdown one
TABLE_LINE = re.compile(r"^[ \t]*\|")
TABLE_RULE = re.compile(r"^[ \t]*\|?[ \t]*:?-{2,}:?[ \t]*(?:\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*$")
RULE = re.compile(r"^[ \t]*([-*_=])(?:[ \t]*\1){2,}[ \t]*$")


@dataclass(frozen=True)
class Heading:
    line: int
    level: int
    title: str


@dataclass
class TextView:
    lines: list[str]
    final: bool
    markdown: bool
    roles: list[str]  # each line's: code, blank, heading, table, item, rule or plain
    headings: list[Heading]
    tables: list[Grid]

    @classmethod
    def of(cls, doc: Doc) -> TextView:
        lines, final = split_lines(doc.text)
        roles: list[str] = []
        fenced = False
        for line in lines:
            fence = line.lstrip().startswith(("```", "~~~"))
            roles.append("code" if fenced or fence else "" if line.strip() else "blank")
            fenced ^= fence
        headings: list[Heading] = []
        for i, line in enumerate(lines):
            if roles[i] or ITEM.match(line) or TABLE_LINE.match(line):
                continue
            if m := MD_HEADING.match(line):
                headings.append(Heading(i, len(m[1]), m[2].strip()))
            elif m := LOOSE_HEADING.match(line):
                headings.append(Heading(i, LOOSE, (m["colon"] or m["bold"] or m["ini"]).strip()))
            else:
                continue
            roles[i] = "heading"
        tables = _md_tables(lines, roles)
        for i, line in enumerate(lines):
            if not roles[i]:
                roles[i] = "item" if ITEM.match(line) else "rule" if RULE.match(line) else "plain"
        return cls(lines, final, doc.path.suffix.lower() in (".md", ".markdown"), roles, headings, tables)

    def end(self, h: Heading) -> int:
        """Where a heading's section ends: at the next heading."""
        return next((o.line for o in self.headings if o.line > h.line), len(self.lines))

    def entries(self) -> list[Entry]:
        out = [line_entry(i, line) for i, line in enumerate(self.lines) if self.roles[i] in ("item", "plain")]
        return out + [e for grid in self.tables for e in grid_entries(grid)]


def md_cells(line: str, raw: bool = False) -> list[str]:
    text = line.strip().removeprefix("|")
    if text.endswith("|") and not text.endswith("\\|"):
        text = text[:-1]
    cells = re.split(r"(?<!\\)\|", text)
    return cells if raw else [c.strip().replace("\\|", "|") for c in cells]


def _md_tables(lines: list[str], roles: list[str]) -> list[Grid]:
    """The markdown tables (a header, its rule, its rows); their lines' roles become "table"."""
    out: list[Grid] = []
    i = 0
    while i + 1 < len(lines):
        if roles[i] or not TABLE_LINE.match(lines[i]) or not TABLE_RULE.match(lines[i + 1]):
            i += 1
            continue
        j = i + 2
        while j < len(lines) and not roles[j] and TABLE_LINE.match(lines[j]):
            j += 1
        widths = [len(c) for c in md_cells(lines[i], raw=True)]
        aligned = all([len(c) for c in md_cells(t, raw=True)] == widths for t in lines[i:j])
        rows = range(i + 2, j)
        out.append(Grid(md_cells(lines[i]), [md_cells(lines[k]) for k in rows], [(k, k + 1) for k in rows], j, "|",
                        lines[j - 1] if rows else lines[i], widths if aligned else None))
        roles[i:j] = ["table"] * (j - i)
        i = j
    return out


def grid_entries(grid: Grid) -> list[Entry]:
    label = grid.label()
    out = []
    for r in range(len(grid.rows)):
        cells = grid.cells(r)
        main = main_text(cells[label] if label < len(cells) else "")
        keys = {key(grid.delimiter.join(cells)), key(", ".join(cells)), key(" ".join(cells)), key(main)}
        text = (" | " if grid.delimiter == "|" else grid.delimiter).join(cells)
        at = grid.spans[r][0]
        record = dict(zip(grid.columns, cells, strict=False))
        out.append(Entry(at, f"line {at + 1}: {shown(text)}", main, keys, cells, grid, r, record))
    return out


def add_text(doc: Doc, items: list[Any], under: str) -> Change:
    view = TextView.of(doc)
    lines, roles = view.lines, view.roles
    start, end, where = 0, len(lines), ""
    if under.strip():
        title = under.strip().strip("#").strip()
        found = best_name([h.title for h in view.headings], title, cutoff=0.8)
        if found is None and (view.headings or not doc.text.strip()):
            return _new_section(doc, view, title.rstrip(":").strip(), items)
        if found is None:
            where = f" (it has no heading {under.strip()!r}; added to its list)"
        else:  # right under it: the list of "# Groceries", not that of its "## Done" below
            section = view.headings[found]
            start, end, where = section.line + 1, view.end(section), f" under {section.title!r}"
    elif view.headings:
        start, end, where = _default_section(doc, view)
    tables = [g for g in view.tables if start < g.end <= end]
    item_lines = [i for i in range(start, end) if roles[i] == "item"]
    if tables and (not item_lines or any(isinstance(parse_item(it, doc.display), dict) or "|" in str(it) for it in items)):
        return _add_rows(doc, lines, view.final, tables[-1], items, where)
    present = {key(main_text(lines[i])) for i in range(start, end) if roles[i] in ("item", "plain") and not _is_done(lines[i])}
    new, there = _new_texts(items, doc.display, present)
    plain = [i for i in range(start, end) if roles[i] == "plain"]
    if item_lines:
        base = min(_indent(lines[i]) for i in item_lines)
        tops = [i for i in item_lines if _indent(lines[i]) == base]
        boxed = any("[" in item_prefix(lines[i]) for i in tops)  # a checkbox
        at = item_lines[-1] + 1
        while at < end and roles[at] == "plain" and lines[at][:1].isspace():
            at += 1  # the last item's own further lines
        made = [_bulleted(lines[tops[-1]], boxed, n, text) for n, text in enumerate(new)]
    elif plain and not (view.markdown and sum(len(lines[i]) for i in plain) > 60 * len(plain)):
        at = plain[-1] + 1
        made = [item_prefix(lines[plain[-1]]) + text for text in new]
    else:  # a paragraph or nothing yet: a list in the file's style
        template, boxed = _file_style(view)
        made = [_bulleted(template, boxed, n, text, restart=True) for n, text in enumerate(new)]
        at = plain[-1] + 1 if plain else start
        if not plain and at < end and not lines[at].strip():
            at += 1  # keep the blank line under the heading
        if made and at < len(lines) and roles[at] == "heading":
            made.append("")
    lines[at:at] = made
    return Change(doc, join_lines(lines, view.final), _said_added(doc, where, made, there))


def _default_section(doc: Doc, view: TextView) -> tuple[int, int, str]:
    """Where items go when no heading is named: the one section holding a list (plain lines
    when none has bullets or a table); a list above the first heading; the last of dated
    sections (a journal). Several others: the model must say which."""
    top = view.headings[0].line
    for roles in (("item", "table"), ("plain",)):
        if any(view.roles[i] in roles for i in range(top)):
            return 0, top, ""
        holding = [h for h in view.headings if any(view.roles[i] in roles for i in range(h.line + 1, view.end(h)))]
        if len(holding) > 1 and not all(re.search(r"\d", h.title) for h in holding):
            raise ToolFailure(f"{doc.display} has lists under {', '.join(repr(h.title) for h in holding)}; say which with under")
        if holding:
            return holding[-1].line + 1, view.end(holding[-1]), f" under {holding[-1].title!r}"
    last = view.headings[-1]  # nothing under any heading yet: under the last
    return last.line + 1, view.end(last), f" under {last.title!r}"


def _new_texts(items: list[Any], display: str, present: set[str]) -> tuple[list[str], list[str]]:
    """The items' lines (bullets the model wrote aside), and those already `present`."""
    new: list[str] = []
    there: list[str] = []
    for item in items:
        if isinstance(parse_item(item, display), dict):
            raise ToolFailure(f"{display} is a list, not a table: give each item as text")
        for text in filter(None, map(main_text, str(item).split("\n"))):
            (there if key(text) in present else new).append(text)
            present = present | {key(text)}
    return new, there


def _bulleted(template: str, boxed: bool, n: int, text: str, restart: bool = False) -> str:
    m = ITEM.match(template)
    if m is None:
        return template + text
    bullet = m["bullet"]
    if bullet[0].isdigit():
        bullet = f"{(0 if restart else int(bullet[:-1])) + 1 + n}{bullet[-1]}"
    return f"{m['indent']}{bullet}{m['gap']}{'[ ] ' if boxed else ''}{text}"


def _file_style(view: TextView) -> tuple[str, bool]:
    """The list style the file uses elsewhere; "- " in markdown, plain lines otherwise."""
    items = [line for i, line in enumerate(view.lines) if view.roles[i] == "item"]
    first = min(items, key=_indent) if items else ("- " if view.markdown else "")
    return first.lstrip(), "[" in item_prefix(first)


def _new_section(doc: Doc, view: TextView, title: str, items: list[Any]) -> Change:
    lines, headings = view.lines, view.headings
    levels = [h.level for h in headings if h.level < LOOSE]
    if not headings and (view.markdown or not doc.exists):
        heading = "# " + title if not lines else "## " + title
    elif levels:  # the level of the file's sections, under its one title
        deeper = [lv for lv in levels if lv > min(levels)]
        heading = "#" * (Counter(deeper).most_common(1)[0][0] if deeper else min(levels) + (len(levels) == 1)) + " " + title
    else:
        heading = f"**{title}**" if any(lines[h.line].startswith(("**", "__")) for h in headings) else f"{title}:"
    template, boxed = _file_style(view)
    if not template and heading.startswith("#"):
        template = "- "
    texts, _ = _new_texts(items, doc.display, set())
    spaced = 2 * sum(h.line + 1 < len(lines) and not lines[h.line + 1].strip() for h in headings) > len(headings)
    made = [_bulleted(template, boxed, n, text, restart=True) for n, text in enumerate(texts)]
    lines += ([""] if lines and lines[-1].strip() else []) + [heading] + ([""] if spaced else []) + made
    sections = ", ".join(repr(h.title) for h in headings[:8])
    where = f" in a new section {heading!r}" + (f" (its headings: {sections})" if sections else "")
    return Change(doc, join_lines(lines, view.final), _said_added(doc, where, made, []))


def _said_added(doc: Doc, where: str, made: list[str], there: list[str]) -> str:
    written = [shown(m) for m in made if m.strip()]
    said = f"{'added to' if doc.exists else 'created'} {doc.display}{where}: {', '.join(written)}" if written \
        else f"nothing changed in {doc.display}"
    if there:
        said += f"; already there, not added again: {', '.join(shown(t) for t in there)}"
    near = [n for n in near_names(doc.path) if n != doc.path.name] if not doc.exists else []
    return said + (f" (a new file; near names here: {', '.join(near)})" if near else "")


def _is_done(line: str) -> bool:
    m = ITEM.match(line)
    if m and m["box"] is not None:
        return m["box"] != " "
    text = (m["text"] if m else line).strip()
    return (len(text) > 4 and text.startswith("~~") and text.endswith("~~")) or (
        bool(text) and (text[0] in DONE_MARKS or text[-1] in DONE_MARKS))


# -- tables: rows from items ---------------------------------------------------------------


def _add_rows(doc: Doc, lines: list[str], final: bool, grid: Grid, items: list[Any], where: str) -> Change:
    """The items as rows at the table's end; a new row starts open in a flag column."""
    rows: list[list[str]] = []
    there: list[str] = []
    status = grid.status()
    for item in items:
        cells = _row_of(doc, grid, parse_item(item, doc.display))
        given = {grid.columns[i]: c for i, c in enumerate(cells) if c.strip()}
        if any(holds(dict(zip(grid.columns, row, strict=False)), given) for row in grid.rows + rows):
            there.append(item if isinstance(item, str) else as_json(item))
            continue
        if status is not None and not cells[status] and all(v.strip() for v in grid.values(status)):
            cells[status] = flag_word(grid.values(status), False)
        rows.append(cells)
    made = [line for cells in rows for line in grid.render(cells)]
    lines[grid.end:grid.end] = made
    return Change(doc, join_lines(lines, final), _said_added(doc, where, made, there))


def _row_of(doc: Doc, grid: Grid, item: Any) -> list[str]:
    n = len(grid.columns)
    cells = [""] * n
    if isinstance(item, dict):
        for name, value in item.items():
            i = find_name(grid.columns, str(name), "column", doc.display)
            cells[i] = fit(value, grid.values(i))
        return cells
    text = str(item).strip()
    splits = [md_cells(text) if d == "|" else [c.strip() for c in next(csv.reader([text], delimiter=d, skipinitialspace=True))]
              for d in dict.fromkeys([grid.delimiter, "\t", ",", ";", "|"]) if d in text]
    parts = next((s for s in splits if len(s) <= n), None)
    if parts is None and splits:
        example = ", ".join(f'"{c}": …' for c in grid.columns)
        raise ToolFailure(f"{shown(text)} has {len(splits[0])} values but {doc.display} has {n} columns "
                          f"({', '.join(grid.columns)}); give the row as {{{example}}}")
    parts = parts or [text]
    if len(parts) == 1 and n > 1:
        cells[grid.label()] = fit(parts[0], grid.values(grid.label()))
        return cells
    return [fit(p, grid.values(i)) for i, p in enumerate(parts)] + cells[len(parts):]


# -- CSV and TSV ---------------------------------------------------------------------------


def csv_grid(doc: Doc) -> Grid | None:
    first = next((line for line in doc.text.split("\n") if line.strip()), "")
    delimiter = "\t" if doc.path.suffix.lower() == ".tsv" else sniff(doc.text)
    quoted = all(f.strip().startswith('"') for f in first.split(delimiter))
    reader = csv.reader(io.StringIO(doc.text), delimiter=delimiter)
    records: list[list[str]] = []
    spans: list[tuple[int, int]] = []
    before = 0
    try:
        for record in reader:
            if any(c.strip() for c in record):
                records.append(record)
                spans.append((before, reader.line_num))
            before = reader.line_num
    except csv.Error as e:
        raise ToolFailure(f"cannot read {doc.display} as CSV: {e}") from None
    if not records:
        return None
    return Grid(records[0], records[1:], spans[1:], spans[-1][1], delimiter, '"' if quoted else "")


def _csv_lines(rows: list[list[str]], delimiter: str, quote_all: bool = False) -> list[str]:
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, lineterminator="\n", quoting=csv.QUOTE_ALL if quote_all else csv.QUOTE_MINIMAL).writerows(rows)
    return out.getvalue()[:-1].split("\n")


def add_csv(doc: Doc, items: list[Any]) -> Change:
    lines, final = split_lines(doc.text)
    grid = csv_grid(doc)
    if grid is not None:
        return _add_rows(doc, lines, final, grid, items, "")
    parsed = [parse_item(it, doc.display) for it in items]  # an empty file: objects make its header
    made = [str(p) for p in parsed]
    if all(isinstance(p, dict) for p in parsed):
        columns = list(dict.fromkeys(str(k) for p in parsed for k in p))
        made = _csv_lines([columns] + [[fit(p.get(c, ""), []) for c in columns] for p in parsed],
                          "\t" if doc.path.suffix.lower() == ".tsv" else ",")
    return Change(doc, join_lines(lines + made, final), _said_added(doc, "", made, []))


# -- JSON and YAML records: parsed, changed, and written back the file's way --------------


def round_trip() -> YAML:
    """YAML that reads and writes a file keeping its comments, quotes and flow style."""
    yaml = YAML()
    yaml.preserve_quotes = True
    yaml.width = 4096
    return yaml


def _holds_records(doc: Doc) -> bool:
    try:
        data = round_trip().load(doc.text)
    except YAMLError:
        return False
    lists = [data] if isinstance(data, list) else list(data.values()) if isinstance(data, dict) else []
    return any(v and all(isinstance(r, dict) for r in v) for v in lists if isinstance(v, list))


def data_of(doc: Doc) -> tuple[Any, dict[str, list[Any]]]:
    """The data, and its lists of records: "" for a top-level list, else the top-level keys."""
    try:
        data = round_trip().load(doc.text) if doc.yaml else json.loads(doc.text) if doc.text.strip() else []
    except (ValueError, YAMLError) as e:
        raise ToolFailure(f"{doc.display} is not valid {'YAML' if doc.yaml else 'JSON'} ({e}); not edited") from None
    if isinstance(data, list):
        return data, {"": data}
    if isinstance(data, dict):
        return data, {k: v for k, v in data.items() if isinstance(v, list)}
    raise ToolFailure(f"{doc.display} holds a single JSON value, not a list of records")


def data_text(doc: Doc, data: Any) -> str:
    """`data` written as the file writes it."""
    if not doc.yaml:
        return json_text(data, doc.text)
    yaml = round_trip()
    _, indent, offset = load_yaml_guess_indent(doc.text)
    yaml.indent(mapping=offset or indent or 2, sequence=indent or 2, offset=offset or 0)
    _like_siblings(data)
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue()


def _like_siblings(node: Any) -> None:
    """New records in a YAML list take the flow style of the ones before them."""
    if isinstance(node, CommentedSeq):
        flow = any(isinstance(r, CommentedMap) and r.fa.flow_style() for r in node)
        for i, record in enumerate(node):
            if isinstance(record, dict) and not isinstance(record, CommentedMap):
                node[i] = CommentedMap(record)
                if flow:
                    node[i].fa.set_flow_style()
    for child in node.values() if isinstance(node, dict) else node if isinstance(node, list) else ():
        _like_siblings(child)


def as_json(value: Any) -> str:
    """A value as the model is shown it (a YAML date as its ISO text)."""
    return json.dumps(value, ensure_ascii=False, default=str)


def json_text(data: Any, like: str) -> str:
    """`data` laid out as the text `like` is: on one line, or with its indent, keeping
    objects without objects inside on one line when it does (ASCII escapes when it uses them)."""
    ascii_only = "\\u" in like and like.isascii()
    seps = (", ", ": ") if re.search(r"[,:] ", like) or not like.strip() else (",", ":")
    if like.strip() and "\n" not in like.strip():
        return json.dumps(data, ensure_ascii=ascii_only, separators=seps) + ("\n" if like.endswith("\n") else "")
    m = re.search(r"\n([ \t]+)\S", like)
    step = m[1] if m else "  "
    inline = re.search(r"\{[^{}\n]*:[^{}\n]*\}", like) is not None  # an object on one line

    def render(value: Any, pad: str) -> str:
        inner = list(value.values() if isinstance(value, dict) else value) if isinstance(value, dict | list) else []
        if not inner or pad and inline and "{" not in json.dumps(inner):
            return json.dumps(value, ensure_ascii=ascii_only, separators=seps)
        names = [json.dumps(k, ensure_ascii=ascii_only) + ": " for k in value] if isinstance(value, dict) else [""] * len(inner)
        body = ",\n".join(f"{pad + step}{n}{render(v, pad + step)}" for n, v in zip(names, inner, strict=True))
        return ("{" if isinstance(value, dict) else "[") + f"\n{body}\n{pad}" + ("}" if isinstance(value, dict) else "]")

    return render(data, "") + ("\n" if like.endswith("\n") or not like else "")


def data_entries(lists: dict[str, list[Any]]) -> list[Entry]:
    out: list[Entry] = []
    for name, records in lists.items():
        grid = records_grid(records)
        label = grid.columns[grid.label()] if grid.columns else None
        for i, record in enumerate(records):
            text = as_json(record)
            if isinstance(record, dict):
                main = str(record.get(label, "")) if label else ""
                cells = [str(v) for v in record.values() if not isinstance(v, dict | list)]
            else:
                main, cells = str(record), [str(record)]
            where = f"record {i + 1}" + (f" of {name!r}" if name else "")
            out.append(Entry(i, f"{where}: {shown(text)}", main, {key(main), key(text)}, cells, record=record, list_name=name))
    return out


def records_grid(records: list[Any]) -> Grid:
    """A list's records as a Grid of their keys: one without lines, for its label and flags."""
    names = list(dict.fromkeys(k for r in records if isinstance(r, dict) for k in r))
    return Grid(names, [[r.get(n) for n in names] for r in records if isinstance(r, dict)], [], 0, "")


def add_data(doc: Doc, items: list[Any], under: str) -> Change:
    data, lists = data_of(doc)
    names = list(lists)
    if len(names) == 1:  # whatever `under` says: the 1.5B gives the query table's name (stop 59)
        name = names[0]
    elif under.strip() and names != [""]:
        name = names[find_name(names, under, "list", doc.display)]
    else:
        raise ToolFailure(f"{doc.display} has lists {', '.join(map(repr, names)) or '(none)'}; say which with under")
    records = lists[name]
    new: list[Any] = []
    there: list[str] = []
    for item in items:
        value = _record_of(records, parse_item(item, doc.display))
        # a flag tells no record from another: a new one starts open
        given = {k: v for k, v in value.items() if not isinstance(v, bool)} if isinstance(value, dict) else value
        if any(holds(r, given) for r in records + new):
            there.append(as_json(value))
        else:
            new.append(value)
    records += new
    after = data_text(doc, data) if new else doc.text
    where = f" in {name!r}" if name else ""
    return Change(doc, after, _said_added(doc, where, [as_json(v) for v in new], there))


def _record_of(records: list[Any], item: Any) -> Any:
    grid = records_grid(records)
    names = grid.columns
    if not names:
        return _typed(item, [r for r in records if not isinstance(r, dict | list)])
    if not isinstance(item, dict):
        item = {names[grid.label()]: item}
    folded = {key(n): i for i, n in enumerate(names)}
    record: dict[str, Any] = {}
    for name, value in item.items():
        i = folded.get(key(str(name)))
        record[str(name) if i is None else names[i]] = _typed(value, [] if i is None else grid.filled(i))
    for i, name in enumerate(names):  # a flag every record has starts open
        if name not in record and (values := grid.filled(i)) and all(isinstance(v, bool) for v in values):
            record[name] = False
    order = {n: i for i, n in enumerate(names)}
    return dict(sorted(record.items(), key=lambda kv: order.get(kv[0], len(order))))


def _typed(value: Any, like: list[Any]) -> Any:
    """A value as the field holds its others: a number, a flag, or text."""
    if not isinstance(value, str) or not like:
        return value
    if all(isinstance(v, bool) for v in like) and flag(value) is not None:
        return flag(value)
    if all(isinstance(v, int | float) and not isinstance(v, bool) for v in like) and (n := number(value)) is not None:
        return int(n) if n.is_integer() and all(isinstance(v, int) for v in like) else n
    if all(isinstance(v, dt.date) for v in like):  # a YAML date
        with contextlib.suppress(ValueError):
            return dt.date.fromisoformat(value.strip())
    return value


# -- the tools' work -----------------------------------------------------------------------


def added(path: Path, display: str, items: list[Any], under: str) -> Change:
    doc = load(path, display, create=True)
    if doc.kind == "csv":
        return add_csv(doc, items)
    return add_data(doc, items, under) if doc.kind == "data" else add_text(doc, items, under)


def _entries(doc: Doc) -> tuple[list[Entry], Any]:
    """What items may name, and the view: a TextView, a CSV's Grid, or the JSON data."""
    if doc.kind == "csv":
        grid = csv_grid(doc)
        return (grid_entries(grid) if grid else []), grid
    if doc.kind == "data":
        data, lists = data_of(doc)
        return data_entries(lists), data
    view = TextView.of(doc)
    return view.entries(), view


def removed(path: Path, display: str, items: list[Any]) -> Change:
    doc = load(path, display)
    entries, view = _entries(doc)
    gone: dict[tuple[str, int], Entry] = {}
    unmatched: list[str] = []
    for item in items:
        item = parse_item(item, display)
        found, maybe = pick(entries, item)
        gone.update({(e.list_name, e.at): e for e in found})
        if not found:
            unmatched.append(ambiguity(item, display, maybe) if len(maybe) > 1 else f"{shown(str(item))}{nearest(entries, item)}")
    if not gone:  # a failure, so a small model does not report it done
        raise ToolFailure(f"nothing removed from {display}; not found: {'; '.join(unmatched)}")
    ordered = sorted(gone.values(), key=lambda e: e.at)
    if doc.kind == "data":
        for e in reversed(ordered):
            del (view[e.list_name] if e.list_name else view)[e.at]
        after = data_text(doc, view)
    else:  # a row's lines, a list line's with the deeper lines under it
        lines, final = split_lines(doc.text)
        drop: set[int] = set()
        for e in ordered:
            a, b = e.grid.spans[e.row] if e.grid else (e.at, e.at + 1)
            while not e.grid and ITEM.match(lines[a]) and b < len(lines) and lines[b].strip() and _indent(lines[b]) > _indent(lines[a]):
                b += 1
            drop.update(range(a, b))
        _renumber(lines, drop)
        after = join_lines([line for i, line in enumerate(lines) if i not in drop], final)
    said = f"removed from {display}: {'; '.join(e.shown for e in ordered)}"
    return Change(doc, after, said + (f"; not found: {'; '.join(unmatched)}" if unmatched else ""))


def _renumber(lines: list[str], dropped: set[int]) -> None:
    """Numbered lists that lose lines count on without a gap."""
    last: dict[int, tuple[int, int]] = {}  # by indent: the last item's number as it was, and now
    for i, line in enumerate(lines):
        m = ITEM.match(line)
        if m is None:
            if line.strip() and not line[:1].isspace():
                last.clear()
            continue
        indent = len(m["indent"])
        last = {k: v for k, v in last.items() if k < indent or k == indent and m["bullet"][0].isdigit()}
        if m["bullet"][0].isdigit():
            was = int(m["bullet"][:-1])
            before = last.get(indent)
            now = before[1] + 1 if before and before[0] + 1 == was else was
            last[indent] = (was, now - 1 if i in dropped else now)
            if i not in dropped and now != was:
                lines[i] = f"{m['indent']}{now}{m['bullet'][-1]}{line[m.end('bullet'):]}"


def marked(path: Path, display: str, item: str, done: bool) -> Change:
    doc = load(path, display)
    entries, view = _entries(doc)
    lines, final = split_lines(doc.text)
    changed: list[str] = []
    found = find(entries, item, display)
    for e in found:
        grid = records_grid(view[e.list_name] if e.list_name else view) if doc.kind == "data" else e.grid
        if grid is None:
            a, b, new = e.at, e.at + 1, [_mark_line(lines[e.at], done, view)]
        elif (status := grid.status()) is None and grid.delimiter != "|":
            raise ToolFailure(f"{display} has no done/status {'field' if doc.kind == 'data' else 'column'} "
                              f"({', '.join(grid.columns)}); set one with set_value, or remove it with remove_items")
        elif doc.kind == "data" and status is not None:
            values, name = grid.filled(status), grid.columns[status]
            new_flag = done if all(isinstance(v, bool) for v in values) else flag_word([str(v) for v in values], done)
            if e.record.get(name) != new_flag or type(e.record.get(name)) is not type(new_flag):
                e.record[name] = new_flag
                changed.append(f"{e.shown.split(':', 1)[0]}: {shown(as_json(e.record))}")
            continue
        else:
            (a, b), cells, label = grid.spans[e.row], grid.cells(e.row), grid.label()
            if status is not None:
                cells[status] = flag_word(grid.values(status), done)
            else:  # a markdown table without a flag column: its label struck through
                cells[label] = f"~~{main_text(cells[label])}~~" if done else main_text(cells[label])
            new = lines[a:b] if cells == grid.cells(e.row) else grid.render(cells)
        if new != lines[a:b]:
            lines[a:b] = new
            changed.append(f"line {a + 1}: {shown(new[0])}")
    state = "done" if done else "open"
    if not changed:
        return Change(doc, doc.text, f"nothing changed: already {state} in {display}: {'; '.join(e.shown for e in found)}")
    after = data_text(doc, view) if doc.kind == "data" else join_lines(lines, final)
    return Change(doc, after, f"marked {state} in {display}: {'; '.join(changed)}")


def _mark_line(line: str, done: bool, view: TextView) -> str:
    m = ITEM.match(line)
    if m and m["box"] is not None:
        checked = "X" if any("[X]" in v for v in view.lines) and not any("[x]" in v for v in view.lines) else "x"
        return line[: m.start("box")] + (checked if done else " ") + line[m.end("box"):]
    if _is_done(line) == done:
        return line
    prefix, text = item_prefix(line), main_text(line)
    ticked = [main for i, v in enumerate(view.lines) if view.roles[i] in ("item", "plain")
              and len(main := v.rstrip()) > 2 and main[-1] in DONE_MARKS and main[-2] == " "]
    # the file's own way: a tick after the done ones, else struck through
    return prefix + text if not done else f"{prefix}{text} {ticked[0][-1]}" if ticked else f"{prefix}~~{text}~~"


def value_set(path: Path, display: str, match: str, name: str, value: Any) -> Change:
    doc = load(path, display)
    if doc.kind == "data":
        return _set_data(doc, match, name, value)
    grid = csv_grid(doc) if doc.kind == "csv" else None
    view = TextView.of(doc) if doc.kind != "csv" else None
    rows = grid_entries(grid) if grid else [e for g in view.tables for e in grid_entries(g)] if view else []
    if view is None or rows and match.strip() and pick(rows, match)[0]:
        entry = find(rows, match, display, one=True)[0]
        assert entry.grid is not None
        column = find_name(entry.grid.columns, name, "column", display)
        cells = entry.grid.cells(entry.row)
        old, cells[column] = cells[column], fit(value, entry.grid.values(column))
        what = f"{entry.grid.columns[column]} of {shown(entry.main)}"
        if cells[column] == old:
            return Change(doc, doc.text, f"nothing changed: {what} is already {shown(old)}")
        lines, final = split_lines(doc.text)
        lines[slice(*entry.grid.spans[entry.row])] = entry.grid.render(cells)
        return Change(doc, join_lines(lines, final), f"set {what} in {display}: {shown(old)} → {shown(cells[column])}")
    return _set_text(doc, view, match, name, value)


def _set_data(doc: Doc, match: str, name: str, value: Any) -> Change:
    data, lists = data_of(doc)
    keyed = _keyed_objects(data, match) if match.strip() else []
    if isinstance(data, dict) and not match.strip():
        fields, records, what = data, [data], ""
    elif len(keyed) == 1:  # {"db": {"port": 5432}}, {"fridges": {"rue Pasteur": {...}}}: match the key
        parent, inner = keyed[0]
        fields, what = parent[inner], f" of {shown(inner)}" if parent is not data else ""
        records = [v for v in parent.values() if isinstance(v, dict)]
    else:
        entry = find(data_entries(lists), match, doc.display, one=True)[0]
        if not isinstance(entry.record, dict):
            raise ToolFailure(f"the items of {doc.display} are plain values, with no fields; use edit_file")
        fields, records, what = entry.record, lists[entry.list_name], f" of {shown(entry.main)}"
    grid = records_grid(records)
    column = find_name(grid.columns, name, "key", doc.display)
    real = grid.columns[column]
    old = fields.get(real)
    new = _typed(value, grid.filled(column))
    was, now = as_json(old), as_json(new)
    if real in fields and old == new and type(old) is type(new):
        return Change(doc, doc.text, f"nothing changed: {real}{what} is already {was}")
    fields[real] = new
    return Change(doc, data_text(doc, data), f"set {real}{what} in {doc.display}: {shown(was)} → {shown(now)}")


def _keyed_objects(data: Any, match: str) -> list[tuple[dict[str, Any], str]]:
    """Every object in the document held under a key `match` names: records keyed by their name."""
    found: list[tuple[dict[str, Any], str]] = []
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            found += [(node, k) for k, v in node.items() if isinstance(v, dict) and key(k) == key(match)]
            stack += list(node.values())
        elif isinstance(node, list):
            stack += node
    return found


KEY_LINE = re.compile(
    r"^(?P<pre>[ \t]*(?:[-*+][ \t]+)?(?:\*\*)?)(?P<key>[^:=\n]+?)(?P<mid>(?:\*\*)?[ \t]*[:=](?:\*\*)?[ \t]*)"
    r"(?P<value>.*?)(?P<post>[ \t]+#.*)?$"
)


def _set_text(doc: Doc, view: TextView, match: str, name: str, value: Any) -> Change:
    """A `key: value` or `key = value` line (YAML, .env, ini, notes): in the section of the
    heading `match` names, or among the lines indented under the line it names."""
    lines = view.lines
    start, end = 0, len(lines)
    if match.strip():
        entries = [line_entry(i, line) for i, line in enumerate(lines) if view.roles[i] not in ("blank", "code")]
        start = find(entries, match, doc.display, one=True)[0].at
        heading = next((h for h in view.headings if h.line == start), None)
        end = view.end(heading) if heading else start + 1
        while not heading and end < len(lines) and (not lines[end].strip() or _indent(lines[end]) > _indent(lines[start])):
            end += 1
    hits = [(i, m) for i in range(start, end) if (m := KEY_LINE.match(lines[i])) and key(m["key"].strip("\"'`")) == key(name)]
    if not hits and match.strip() and (box := ITEM.match(lines[start])) and box["box"] is not None:
        # the 1.5B sets a "done" field on a checklist's line (stop 56: then added a line to another file)
        raise ToolFailure(f"line {start + 1} of {doc.display} is a checklist item, with no {name!r} of its own: "
                          f"tick it or untick it with mark_done (item: {shown(main_text(lines[start]))})")
    if not hits:
        near = f" near {shown(match)}" if match.strip() else ""
        raise ToolFailure(f"no {name!r} line in {doc.display}{near}; use edit_file")
    if len(hits) > 1:
        shown_hits = "; ".join(f"line {i + 1}: {shown(lines[i])}" for i, _ in hits[:5])
        raise ToolFailure(f"{name!r} is set on more than one line of {doc.display} ({shown_hits}); give match")
    i, m = hits[0]
    old = m["value"]
    quote = old[0] if len(old) >= 2 and old[0] == old[-1] and old[0] in "\"'" else ""
    new = quote + (value if isinstance(value, str) else as_json(value)) + quote
    if new == old:
        return Change(doc, doc.text, f"nothing changed: {m['key'].strip()} is already {shown(old)}")
    lines[i] = f"{m['pre']}{m['key']}{m['mid']}{new}{m['post'] or ''}"
    said = f"set {m['key'].strip()} in {doc.display} (line {i + 1}): {shown(old)} → {shown(new)}"
    return Change(doc, join_lines(lines, view.final), said)


# -- the tools -----------------------------------------------------------------------------

Item = str | dict[str, Any]


class AddItemsParams(msgspec.Struct, forbid_unknown_fields=True):
    path: Annotated[str, msgspec.Meta(min_length=1)]
    items: Annotated[list[Item], msgspec.Meta(min_length=1)]
    under: Annotated[str, msgspec.Meta(description="section heading")] = ""


class RemoveItemsParams(msgspec.Struct, forbid_unknown_fields=True):
    path: Annotated[str, msgspec.Meta(min_length=1)]
    items: Annotated[list[Item], msgspec.Meta(min_length=1)]


class MarkDoneParams(msgspec.Struct, forbid_unknown_fields=True):
    path: Annotated[str, msgspec.Meta(min_length=1)]
    item: Annotated[str, msgspec.Meta(min_length=1)]
    done: bool = True


class SetValueParams(msgspec.Struct, forbid_unknown_fields=True):
    path: Annotated[str, msgspec.Meta(min_length=1)]
    match: Annotated[str, msgspec.Meta(description="the row or record")]
    field: Annotated[str, msgspec.Meta(min_length=1, description="column or key")]
    value: Any


def open_row(path: Path, display: str, number: int) -> str | None:
    """The table row on line `number` (from 1) as "column: value" pairs, when its done/open column
    says open; None for any other line, or a file that cannot be read."""
    try:
        doc = load(path, display)
        entries = _entries(doc)[0] if doc.kind != "data" else []
    except (ToolFailure, ValueError, OSError):
        return None
    row = next((e for e in entries if e.grid is not None and e.grid.spans[e.row][0] == number - 1), None)
    if row is None or row.grid is None or (status := row.grid.status()) is None:
        return None
    cells = row.grid.cells(row.row)
    known = flags(row.grid.values(status)) or {}
    if known.get(cells[status].strip(), flag(cells[status])) is not False:
        return None
    return "; ".join(f"{column}: {cell}" for column, cell in zip(row.grid.columns, cells, strict=False))


def _picked(path: Path, display: str, selector: Any) -> tuple[list[Entry], list[Entry], list[Entry]] | None:
    """The file's entries, those `selector` names, and those it may mean (see pick); None when
    there is no selector or the file cannot be read."""
    if selector is None or not str(selector).strip():
        return None
    try:
        entries, _ = _entries(load(path, display))
        return entries, *pick(entries, parse_item(selector, display))
    except (ToolFailure, ValueError):
        return None


def named_entry(path: Path, display: str, selector: Any) -> tuple[str, list[str]] | None:
    """The label of the one entry `selector` names in the file, and the other entries' labels;
    None when it names none or several (the tool itself says so) or the file cannot be read."""
    if (picked := _picked(path, display, selector)) is None or len(found := picked[1]) != 1:
        return None
    return _whole(found[0]), [_whole(e) for e in picked[0] if e is not found[0]]


def entries_fitting(path: Path, display: str, selector: Any) -> list[tuple[str, str]]:
    """When `selector` names or may mean several entries of the file: each one's label, and the
    text that names it alone; else []."""
    if (picked := _picked(path, display, selector)) is None:
        return []
    _, found, maybe = picked
    fits = found if len(found) > 1 else maybe
    return [(_whole(e), _naming(e)) for e in fits] if len(fits) > 1 else []


def _naming(entry: Entry) -> str:
    """The text that names this entry alone, as pick reads it: a row's line, a record's JSON."""
    if entry.grid is not None:
        return entry.grid.delimiter.join(entry.cells)
    return entry.main if entry.record is None else as_json(entry.record)


def _whole(entry: Entry) -> str:
    """An entry as the person may name it: a row by any of its cells (the hedgehog "from Kampen"
    is the row labelled "Pluis", stop 56), a line by its text."""
    return " | ".join(c for c in entry.cells if c.strip()) if entry.cells else entry.main or entry.shown


def line_named(path: Path, display: str, old: str) -> tuple[str, list[str]] | None:
    """edit_file's entry: the one line its `old` text lies in, and the file's other lines, by their
    text without bullets or boxes; None when `old` spans lines or is not in exactly one."""
    if not old.strip() or "\n" in old.strip("\n"):
        return None
    try:
        lines, _ = split_lines(load(path, display).text)
    except ToolFailure:
        return None
    hits = [i for i, line in enumerate(lines) if old.strip() in line]
    if len(hits) != 1:
        return None
    return main_text(lines[hits[0]]), [main_text(line) for i, line in enumerate(lines) if i != hits[0] and line.strip()]


FILES_SCANNED = 200
"""A folder with more files than this is too wide to guess the file in: the tool says so."""


def holding_file(folder: Path, cwd: Path, selector: Any) -> tuple[Path, str] | None:
    """Given a folder where a file goes (the 1.5B passes the working folder, or the one the
    file is in), the one file under it with an entry `selector` names, and its path as the
    person sees it; None when no file or several have one."""
    if selector is None or not str(selector).strip():
        return None
    holding, scanned = [], 0
    for walked, (root, dirs, names) in enumerate(os.walk(folder)):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(n for n in names if not n.startswith(".")):
            path, scanned = Path(root) / name, scanned + 1
            if scanned > FILES_SCANNED:
                return None
            try:
                entries, _ = _entries(load(path, name))
                found, _ = pick(entries, parse_item(selector, name))
            except (ToolFailure, ValueError):
                continue
            holding += [path] if found else []
        if len(holding) > 1 or walked > FOLDERS_WALKED:
            return None
    if len(holding) != 1:
        return None
    return holding[0], os.path.relpath(holding[0], cwd) if holding[0].is_relative_to(cwd) else str(holding[0])


def _tool(name: str, description: str, params: type[msgspec.Struct], change: Callable[[Any, Path, str], Change],
          selector: Callable[[Any], Any] | None = None, naming: Callable[[Any, str], Any] | None = None) -> Tool:
    def target(p: Any, cwd: Path) -> tuple[Path, str]:
        path = resolve(p.path, cwd)
        if selector is not None and path.is_dir() and (found := holding_file(path, cwd, selector(p))):
            return found
        if not path.exists() and (source := table_source(path)) is not None:
            # the query table's name given as the path (stop 59's first run: the same failing
            # add_items three times to "terveys_silmat_piilolinssit_2026.yaml"): its file
            return path.parent / source, str(Path(p.path).parent / source)
        return path, p.path

    def preview(p: Any, env: ToolEnv) -> str:
        made = change(p, *target(p, env.cwd))
        return file_diff(made.doc.display, made.doc.text if made.doc.exists else None, made.after)

    def names_entry(p: Any, cwd: Path) -> tuple[str, list[str]] | None:
        assert selector is not None
        return named_entry(*target(p, cwd), selector(p))

    def entry_fits(p: Any, cwd: Path) -> list[tuple[str, Any]]:
        assert selector is not None and naming is not None
        return [(label, naming(p, text)) for label, text in entries_fitting(*target(p, cwd), selector(p))]

    return Tool(name=name, description=description, params=params, risk="write",
                run=in_thread(lambda p, env: save(change(p, *target(p, env.cwd)))),
                target="path", preview=preview, names_entry=names_entry if selector else None,
                entry_fits=entry_fits if selector and naming else None, naming=naming if selector else None)


ADD_ITEMS = _tool(
    "add_items", "Add items to a list, table, CSV or JSON file, written in its own style.",
    AddItemsParams, lambda p, path, shown: added(path, shown, list(p.items), p.under),
)
REMOVE_ITEMS = _tool(
    "remove_items", "Delete the lines, rows or records naming items from a file (to tick one off, mark_done).",
    RemoveItemsParams, lambda p, path, shown: removed(path, shown, list(p.items)),
    lambda p: p.items[0] if len(p.items) == 1 else None, lambda p, text: msgspec.structs.replace(p, items=[text]),
)
MARK_DONE = _tool(
    "mark_done", "Tick off a list or table item as done, paid or fixed; it stays (done=false: open again).",
    MarkDoneParams, lambda p, path, shown: marked(path, shown, p.item, p.done), lambda p: p.item,
    lambda p, text: msgspec.structs.replace(p, item=text),
)
SET_VALUE = _tool(
    "set_value", "Set one field of a table, CSV, JSON or YAML file: the row match, its column or key.",
    SetValueParams, lambda p, path, shown: value_set(path, shown, p.match, p.field, p.value), lambda p: p.match,
    lambda p, text: msgspec.structs.replace(p, match=text),
)

EDIT_TOOLS = [ADD_ITEMS, REMOVE_ITEMS, MARK_DONE, SET_VALUE]


# -- edit_file's second chance -------------------------------------------------------------


def replaced(path: Path, display: str, old: str, new: str) -> Change:
    """edit_file's change: `old` once, replaced by `new`; written back in the file's own line
    ends and encoding (see load)."""
    if old == new:  # the 1.5B "set" a timeout to the value the file held and called it done
        raise ToolFailure(f"old and new are the same text: nothing in {display} would change")
    doc = load(path, display)
    text, old, new = doc.text, old.replace("\r\n", "\n"), new.replace("\r\n", "\n")
    count = text.count(old)
    if count == 0:
        # the nearest lines, to copy old from exactly on the second try (aider's "did you mean"):
        # the model's new text is written as it wrote it, never re-bulleted or re-spaced by a guess
        raise ToolFailure(f"old text not found in {display}{near_lines(text, old)}")
    at = text.index(old)
    if count > 1:
        lines = [found.start() for found in re.finditer(rf"(?m)^{re.escape(old)}$", text)] if "\n" not in old else []
        if len(lines) != 1:  # "milk" of "milk" and "coconut milk": the line that is it, alone
            raise ToolFailure(f"old text occurs {count} times in {display}; include more context")
        at = lines[0]
    return Change(doc, text[:at] + new + text[at + len(old):], f"edited {display}: replaced 1 occurrence")


NEAR_CUTOFF = 0.6
NEAR_SCAN_LINES = 20_000


def near_lines(text: str, old: str) -> str:
    """The file's lines most like `old` (aider's 'did you mean'), to copy into a second try."""
    lines = text.split("\n")[:NEAR_SCAN_LINES]
    k = len(old.strip("\n").split("\n"))
    target = " ".join(old.split())
    matcher = difflib.SequenceMatcher(None, autojunk=False)
    matcher.set_seq2(target)
    scored: list[tuple[float, int]] = []
    for i in range(max(0, len(lines) - k + 1)):
        window = " ".join(" ".join(lines[i:i + k]).split())
        matcher.set_seq1(window)
        quick = window and matcher.real_quick_ratio() >= NEAR_CUTOFF and matcher.quick_ratio() >= NEAR_CUTOFF
        score = matcher.ratio() if quick else 0.0
        a, b = key(target), key(window)
        if k == 1 and min(len(a), len(b)) >= 3 and (a in b or b in a):  # a few words of a long line
            score = max(score, 0.8)
        if score >= NEAR_CUTOFF:
            scored.append((score, i))
    best = sorted(sorted(scored, key=lambda s: (-s[0], s[1]))[: NEAREST if k == 1 else 2], key=lambda s: s[1])
    shown_lines = dict.fromkeys(f"{n + 1}: {lines[n][:200]}" for _, i in best for n in range(i, min(i + k, len(lines))))
    return "; its nearest lines (copy old from them exactly):\n" + "\n".join(shown_lines) if best else ""
