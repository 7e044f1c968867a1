"""Structured edits: add_items, remove_items, mark_done, set_value.

A small model that changes a list with write_file or edit_file drops lines, loses the
bullets or the CSV's delimiter, or cannot copy a line exactly. These tools take only what
changes (the items, the row, the value) and write it the file's own way, in any language:
a markdown or plain list keeps its bullets, numbering and checkboxes; a CSV/TSV its
delimiter, column order, quoting and decimal commas; a JSON list its records' layout; a
markdown table its columns. What they cannot find comes back with the nearest lines, so a
second try lands. Each one also previews its change as a unified diff (Tool.preview),
computed without writing, for the person to see before approving.
"""

from __future__ import annotations

import asyncio
import codecs
import copy
import csv
import difflib
import io
import json
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import msgspec

from saturnd.tools.builtin_files import SNIFF_BYTES, human_size, missing, near_names, resolve
from saturnd.tools.registry import Tool, ToolEnv, ToolFailure

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
    def suffix(self) -> str:
        return self.path.suffix.lower()

    @property
    def kind(self) -> str:
        if self.suffix in (".csv", ".tsv"):
            return "csv"
        return "json" if self.suffix == ".json" else "text"


def load(path: Path, display: str, create: bool = False) -> Doc:
    if path.is_dir():
        raise ToolFailure(f"{display} is a directory; give a file path")
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
    bom = raw.startswith(codecs.BOM_UTF8)
    encoding = "utf-8"
    try:
        text = raw.decode("utf-8-sig" if bom else "utf-8")
    except UnicodeDecodeError:
        try:  # a spreadsheet's CSV export on Windows
            text, encoding = raw.decode("cp1252"), "cp1252"
        except UnicodeDecodeError:
            raise ToolFailure(f"{display} is not UTF-8 text; not edited") from None
    newline = "\r\n" if "\r\n" in text else "\n"
    return Doc(path, display, text.replace("\r\n", "\n"), True, newline, bom, encoding)


def encode(doc: Doc, text: str) -> bytes:
    if doc.newline != "\n":
        text = text.replace("\n", doc.newline)
    try:
        data = text.encode(doc.encoding)
    except UnicodeEncodeError as e:
        raise ToolFailure(f"{doc.display} is {doc.encoding} text and cannot hold {e.object[e.start:e.end]!r}; not edited") from None
    return codecs.BOM_UTF8 + data if doc.bom else data


@dataclass(frozen=True)
class Change:
    doc: Doc
    after: str
    said: str
    """What the model is told."""

    @property
    def changes(self) -> bool:
        return not self.doc.exists or self.after != self.doc.text


def save(change: Change) -> str:
    if not change.changes:
        return change.said
    data = encode(change.doc, change.after)
    try:
        change.doc.path.parent.mkdir(parents=True, exist_ok=True)
        change.doc.path.write_bytes(data)
    except OSError as e:
        raise ToolFailure(f"cannot write {change.doc.display}: {e.strerror or e}") from e
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


def change_diff(change: Change) -> str:
    return file_diff(change.doc.display, change.doc.text if change.doc.exists else None, change.after)


def split_lines(text: str) -> tuple[list[str], bool]:
    """The lines, and whether the last one ends with a newline (a new file's will)."""
    if not text:
        return [], True
    if text.endswith("\n"):
        return text[:-1].split("\n"), True
    return text.split("\n"), False


def join_lines(lines: list[str], final: bool) -> str:
    return "\n".join(lines) + ("\n" if final and lines else "")


# -- words: matching items, flags, numbers -------------------------------------------------

ITEM = re.compile(
    r"^(?P<indent>[ \t]*)(?P<bullet>[-*+•–]|\d{1,4}[.)])(?P<gap>[ \t]+)"
    r"(?:\[(?P<box>[ xX✓✔])\](?:[ \t]+|$))?(?P<text>.*)$"
)
DONE_MARKS = "✓✔✅☑"
CHECKED = "xX✓✔"


def item_prefix(line: str) -> str:
    """A list line's bullet, number and checkbox with its indent; a plain line's indent."""
    m = ITEM.match(line)
    return line[: m.start("text")] if m else line[: len(line) - len(line.lstrip())]


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _boxed(line: str) -> bool:
    m = ITEM.match(line)
    return m is not None and m["box"] is not None


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


TRUE_FLAGS = frozenset({
    "yes", "y", "ja", "j", "sí", "si", "oui", "true", "wahr", "vrai", "verdadero", "x", "✓", "✔",
    "✅", "☑", "done", "erledigt", "fertig", "hecho", "hecha", "listo", "fait", "terminé", "ok",
    "1", "paid", "bezahlt", "pagado", "payé", "bought", "gekauft", "comprado", "acheté",
})
FALSE_FLAGS = frozenset({
    "no", "n", "nein", "non", "false", "falsch", "faux", "falso", "", "✗", "✘", "❌", "☐", "open",
    "offen", "pendiente", "à faire", "todo", "to do", "0",
})
FLAG_PAIRS = {
    "yes": "no", "y": "n", "ja": "nein", "j": "n", "sí": "no", "si": "no", "oui": "non",
    "true": "false", "wahr": "falsch", "vrai": "faux", "verdadero": "falso", "done": "open",
    "erledigt": "offen", "hecho": "pendiente", "fait": "à faire", "1": "0", "☑": "☐",
}
STATUS_HINTS = (
    "done", "status", "erledigt", "fertig", "hecho", "listo", "fait", "termin", "complete", "bought",
    "gekauft", "comprado", "achet", "paid", "bezahlt", "pagado", "payé", "estado", "état", "statut", "check",
)
SPANISH = re.compile(r"[ñ¿¡]|\b(?:sí|hecho|pendiente|comprado|pagado|listo|estado)\b", re.IGNORECASE)


def flag(value: Any) -> bool | None:
    """True for a done/yes value in any of the languages known here, False for open/no."""
    if isinstance(value, bool):
        return value
    word = key(str(value)) if value is not None else ""
    return True if word in TRUE_FLAGS else False if word in FALSE_FLAGS else None


def flag_word(values: list[str], done: bool, context: str = "") -> str:
    """The word a status column uses for `done` (or open): one it uses already, else the
    counterpart of the one it uses for the other state, in that word's case."""
    same = Counter(v.strip() for v in values if flag(v) is done)
    if same:
        return same.most_common(1)[0][0]
    other = Counter(v.strip() for v in values if v.strip() and flag(v) is (not done))
    if other:
        word = other.most_common(1)[0][0]
        folded = word.casefold()
        pairs = FLAG_PAIRS if not done else {v: k for k, v in reversed(FLAG_PAIRS.items())}
        if done and folded == "no":
            counterpart = "sí" if SPANISH.search(context) else "yes"
        else:
            counterpart = pairs.get(folded, "" if not done else "x")
        if word.isupper():
            return counterpart.upper()
        return counterpart.capitalize() if word[:1].isupper() else counterpart
    return "x" if done else ""


NUMBER = re.compile(r"-?\d+(?:[.,]\d+)?")
COMMA_DECIMAL = re.compile(r"\D{0,3}-?\d{1,3}(?:\.\d{3})*,\d+\D{0,3}|\D{0,3}-?\d+,\d+\D{0,3}")
POINT_DECIMAL = re.compile(r"\D{0,3}-?\d+\.\d+\D{0,3}")


def number(value: str) -> float | None:
    text = value.strip()
    return float(text.replace(",", ".")) if NUMBER.fullmatch(text) else None


def number_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(value)


def fit(value: Any, values: list[str], context: str = "") -> str:
    """A value as a column writes it: its flag words, its decimal comma or point."""
    if isinstance(value, bool):
        return flag_word(values, value, context)
    if isinstance(value, int | float):
        text = number_text(value)
    elif isinstance(value, dict | list):
        text = json.dumps(value, ensure_ascii=False)
    else:
        text = "" if value is None else str(value).strip()
    filled = [v.strip() for v in values if v.strip()]
    commas = any(COMMA_DECIMAL.fullmatch(v) for v in filled)
    points = any(POINT_DECIMAL.fullmatch(v) for v in filled)
    if commas and not points:
        text = re.sub(r"^(\D{0,3}-?\d+)\.(\d+)(\D{0,3})$", r"\1,\2\3", text)
    elif points and not commas:
        text = re.sub(r"^(-?\d+),(\d{1,2})$", r"\1.\2", text)
    return text


def same_value(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return flag(a) is not None and flag(a) == flag(b)
    na = a if isinstance(a, int | float) else number(str(a)) if a is not None else None
    nb = b if isinstance(b, int | float) else number(str(b)) if b is not None else None
    if na is not None and nb is not None:
        return float(na) == float(nb)
    return key(str(a if a is not None else "")) == key(str(b if b is not None else ""))


def textual(value: str) -> bool:
    return bool(re.search(r"[^\W\d_]{2}", value)) and flag(value) is None


def find_name(names: list[str], wanted: str, what: str, display: str) -> int:
    """The index of the column or key `wanted` names: exactly, by its words, or nearly."""
    want = key(wanted)
    keys = [key(n) for n in names]
    if want in keys:
        return keys.index(want)
    words = set(re.findall(r"\w+", want))
    by_words = [i for i, k in enumerate(keys) if words and (words <= set(re.findall(r"\w+", k)))]
    if len(by_words) == 1:
        return by_words[0]
    close = difflib.get_close_matches(want, keys, n=1, cutoff=0.6)
    if close:
        return keys.index(close[0])
    raise ToolFailure(f"no {what} {wanted!r} in {display}; its {what}s: {', '.join(names)}")


def parse_item(item: Any, display: str) -> Any:
    """An item given as a JSON object in a string is that object."""
    if isinstance(item, str) and item.strip().startswith("{"):
        try:
            value = json.loads(item)
        except ValueError:
            raise ToolFailure(f"item {shown(item)} is not a valid JSON object") from None
        if isinstance(value, dict):
            return value
    return item


# -- entries: what an item may name --------------------------------------------------------


@dataclass
class Grid:
    """A table: a CSV file or a markdown table in a text file."""

    columns: list[str]
    rows: list[list[str]]
    spans: list[tuple[int, int]]
    """Each row's lines [start, end)."""
    end: int
    """The line after the table: where rows are added."""
    render: Callable[[list[str]], list[str]]
    delimiter: str
    top: int = 0
    """The header's line."""

    def values(self, column: int) -> list[str]:
        return [row[column] if column < len(row) else "" for row in self.rows]

    def label(self) -> int:
        """The column that names a row: the first mostly made of words."""
        for i in range(len(self.columns)):
            filled = [v for v in self.values(i) if v.strip()]
            if filled and 2 * sum(textual(v) for v in filled) > len(filled):
                return i
        return 0

    def status(self) -> int | None:
        """The column whose values are done/open flags (or named so, while still empty)."""
        found: list[tuple[bool, int]] = []
        for i, name in enumerate(self.columns):
            filled = [v.strip() for v in self.values(i) if v.strip()]
            hinted = any(h in name.casefold() for h in STATUS_HINTS)
            if filled and all(flag(v) is not None for v in filled):
                if hinted or not all(v in ("0", "1") for v in filled):
                    found.append((hinted, i))
            elif not filled and hinted:
                found.append((True, i))
        if not found:
            return None
        hinted_ones = [i for h, i in found if h]
        return (hinted_ones or [i for _, i in found])[-1]

    def cells(self, row: int) -> list[str]:
        cells = list(self.rows[row])
        return cells + [""] * (len(self.columns) - len(cells))


@dataclass
class Entry:
    """One line, row or record an item may name."""

    at: int
    """Its line (text, CSV) or its index in the list (JSON)."""
    shown: str
    main: str
    keys: set[str] = field(default_factory=set)
    cells: list[str] = field(default_factory=list)
    grid: Grid | None = None
    row: int = -1
    record: Any = None
    list_name: str = ""
    """A JSON record's list: "" for a top-level list, else its key."""


def pick(entries: list[Entry], item: Any) -> tuple[list[Entry], list[Entry]]:
    """The entries an item names, and when it names none, the ones it might mean.

    Its whole text or main text (a row's label), every such entry; else the one row with it
    in a cell; else the one entry holding its words. An object names the rows or records
    whose fields all hold its values."""
    if isinstance(item, dict):
        return [e for e in entries if _fields_match(e, item)], []
    want = key(main_text(str(item)))
    if not want:
        return [], []
    exact = [e for e in entries if want in e.keys]
    if exact:
        return exact, []
    in_cell = [e for e in entries if any(key(c) == want for c in e.cells)]
    if len(in_cell) == 1:
        return in_cell, []
    words = re.compile(rf"(?<!\w){re.escape(want)}(?!\w)")
    holding = [e for e in entries if words.search(key(" | ".join(e.cells) if e.cells else e.main))]
    if len(holding) == 1:
        return holding, []
    return [], holding or in_cell


def _fields_match(entry: Entry, wanted: dict[str, Any]) -> bool:
    record = entry.record
    if not isinstance(record, dict) or not wanted:
        return False
    names = list(record)
    folded = [key(n) for n in names]
    for name, value in wanted.items():
        if key(name) not in folded or not same_value(record[names[folded.index(key(name))]], value):
            return False
    return True


def nearest(entries: list[Entry], item: Any) -> str:
    """The entries most like what an item names: ' (nearest: line 4: '- Milch 1 L', …)'."""
    want = key(main_text(str(item))) if not isinstance(item, dict) else key(" ".join(map(str, item.values())))
    by_key: dict[str, Entry] = {}
    for e in entries:
        by_key.setdefault(key(e.main), e)
    close = difflib.get_close_matches(want, list(by_key), n=NEAREST, cutoff=0.5)
    inside = [k for k in by_key if len(k) >= 3 and (want in k or k in want) and k not in close]
    picked = (close + inside)[:NEAREST]
    return f" (nearest: {'; '.join(by_key[k].shown for k in picked)})" if picked else ""


def ambiguity(item: Any, display: str, candidates: list[Entry]) -> str:
    lines = "; ".join(e.shown for e in candidates[:5])
    return f"{shown(str(item))} matches more than one in {display}: {lines}; give the whole line"


# -- text files: lists, sections, markdown tables ------------------------------------------

MD_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t#]*$")
COLON_HEADING = re.compile(r"^(?![-*+•–#|>\s])(?P<title>[^:\n]{1,60}?)[ \t]*:[ \t]*$")
BOLD_HEADING = re.compile(r"^(\*\*|__)(?P<title>[^*_\n]{1,60}?)\1[ \t]*:?[ \t]*$")
SETEXT = re.compile(r"^[ \t]*(?:=+|-{2,})[ \t]*$")
TABLE_LINE = re.compile(r"^[ \t]*\|")
TABLE_RULE = re.compile(r"^[ \t]*\|?[ \t]*:?-{2,}:?[ \t]*(?:\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*$")
RULE = re.compile(r"^[ \t]*([-*_=])(?:[ \t]*\1){2,}[ \t]*$")
LOOSE_LEVEL = 7
"""A heading that is a line ending in ':' or a bold line: it ends at the next heading of any kind."""


@dataclass(frozen=True)
class Heading:
    line: int
    level: int
    title: str
    body: int


@dataclass
class TextView:
    lines: list[str]
    final: bool
    markdown: bool
    fenced: set[int]
    headings: list[Heading]
    tables: list[Grid]
    roles: list[str] = field(default_factory=list)
    """Each line's: code, blank, heading, table, item, rule or plain (as read)."""

    @classmethod
    def of(cls, doc: Doc) -> TextView:
        lines, final = split_lines(doc.text)
        markdown = doc.suffix in (".md", ".markdown")
        fenced = _fenced(lines)
        view = cls(lines, final, markdown, fenced, _headings(lines, fenced, markdown), _md_tables(lines, fenced))
        heading_lines = view.heading_lines
        table_lines = {i for g in view.tables for i in range(g.top, g.end)}
        for i, line in enumerate(lines):
            if i in fenced:
                role = "code"
            elif not line.strip():
                role = "blank"
            elif i in heading_lines:
                role = "heading"
            elif i in table_lines:
                role = "table"
            elif ITEM.match(line):
                role = "item"
            else:
                role = "rule" if RULE.match(line) else "plain"
            view.roles.append(role)
        return view

    @property
    def heading_lines(self) -> set[int]:
        return {i for h in self.headings for i in range(h.line, h.body)}

    def role(self, i: int) -> str:
        return self.roles[i]

    def section_end(self, h: Heading) -> int:
        for other in self.headings:
            if other.line > h.line and (h.level == LOOSE_LEVEL or other.level <= h.level):
                return other.line
        return len(self.lines)

    def direct_end(self, h: Heading) -> int:
        later = [o.line for o in self.headings if o.line > h.line]
        return later[0] if later else len(self.lines)

    def entries(self) -> list[Entry]:
        out: list[Entry] = []
        for i, line in enumerate(self.lines):
            if self.role(i) in ("item", "plain"):
                main = main_text(line)
                out.append(Entry(i, f"line {i + 1}: {shown(line)}", main, {key(main), key(line)}))
        for grid in self.tables:
            out += grid_entries(grid, line_based=True)
        return out


def _fenced(lines: list[str]) -> set[int]:
    out: set[int] = set()
    inside = False
    for i, line in enumerate(lines):
        if line.lstrip().startswith(("```", "~~~")):
            out.add(i)
            inside = not inside
        elif inside:
            out.add(i)
    return out


def _headings(lines: list[str], fenced: set[int], markdown: bool) -> list[Heading]:
    out: list[Heading] = []
    for i, line in enumerate(lines):
        if i in fenced or (out and out[-1].body > i):
            continue
        if m := MD_HEADING.match(line):
            out.append(Heading(i, len(m[1]), m[2].strip(), i + 1))
        elif not line.strip() or ITEM.match(line) or TABLE_LINE.match(line) or line[0].isspace():
            continue
        elif markdown and i + 1 < len(lines) and SETEXT.match(lines[i + 1]) and not RULE.match(line):
            out.append(Heading(i, 1 if "=" in lines[i + 1] else 2, line.strip(), i + 2))
        elif m := COLON_HEADING.match(line) or BOLD_HEADING.match(line):
            out.append(Heading(i, LOOSE_LEVEL, m["title"].strip(), i + 1))
    return out


def md_cells(line: str, raw: bool = False) -> list[str]:
    text = line.strip()
    if text.startswith("|"):
        text = text[1:]
    if text.endswith("|") and not text.endswith("\\|"):
        text = text[:-1]
    cells = re.split(r"(?<!\\)\|", text)
    return cells if raw else [c.strip().replace("\\|", "|") for c in cells]


def _md_tables(lines: list[str], fenced: set[int]) -> list[Grid]:
    out: list[Grid] = []
    i = 0
    while i + 1 < len(lines):
        if i in fenced or not TABLE_LINE.match(lines[i]) or not TABLE_RULE.match(lines[i + 1]):
            i += 1
            continue
        j = i + 2
        while j < len(lines) and TABLE_LINE.match(lines[j]) and j not in fenced:
            j += 1
        table = lines[i:j]
        widths = [len(c) for c in md_cells(table[0], raw=True)]
        aligned = all([len(c) for c in md_cells(t, raw=True)] == widths for t in table)
        out.append(Grid(
            md_cells(lines[i]), [md_cells(lines[k]) for k in range(i + 2, j)],
            [(k, k + 1) for k in range(i + 2, j)], j,
            _md_renderer(table[-1] if j > i + 2 else table[0], widths if aligned else None), "|", i,
        ))
        i = j
    return out


def _md_renderer(sample: str, widths: list[int] | None) -> Callable[[list[str]], list[str]]:
    indent = sample[: len(sample) - len(sample.lstrip())]
    spaced = "| " in sample or " |" in sample
    closing = "|" if sample.rstrip().endswith("|") else ""

    def render(cells: list[str]) -> list[str]:
        out = []
        for i, cell in enumerate(cells):
            cell = cell.replace("|", "\\|")
            if spaced:
                cell = f" {cell.ljust(widths[i] - 2) if widths and i < len(widths) else cell} "
            out.append(cell)
        return [indent + "|" + "|".join(out) + closing]

    return render


def grid_entries(grid: Grid, line_based: bool) -> list[Entry]:
    label = grid.label()
    out = []
    for r in range(len(grid.rows)):
        cells = grid.cells(r)
        main = cells[label] if label < len(cells) else ""
        joined = {key(grid.delimiter.join(cells)), key(", ".join(cells)), key(" ".join(cells)), key(main_text(main))}
        at = grid.spans[r][0]
        text = " | ".join(cells) if line_based and grid.delimiter == "|" else grid.delimiter.join(cells)
        record = dict(zip(grid.columns, cells, strict=False))
        out.append(Entry(at, f"line {at + 1}: {shown(text)}", main_text(main), joined, cells, grid, r, record))
    return out


def find_section(headings: list[Heading], under: str) -> Heading | None:
    """The heading `under` names, whatever its language: exactly, by its words, or nearly."""
    want = key(under.strip().strip("#").strip().rstrip(":"))
    titles = [key(main_text(h.title).rstrip(":")) for h in headings]
    for h, title in zip(headings, titles, strict=True):
        if title == want:
            return h
    words = set(re.findall(r"\w+", want))
    for h, title in zip(headings, titles, strict=True):
        have = set(re.findall(r"\w+", title))
        if words and have and (words <= have or have <= words):
            return h
    close = difflib.get_close_matches(want, titles, n=1, cutoff=0.8)
    return headings[titles.index(close[0])] if close else None


def add_text(doc: Doc, items: list[Any], under: str) -> Change:
    view = TextView.of(doc)
    lines = view.lines
    start, end, where = 0, len(lines), ""
    note = ""
    if under.strip():
        section = find_section(view.headings, under)
        if section is None and (view.headings or not doc.text.strip()):
            return _new_section(doc, view, under, items)
        if section is None:
            note = f" (it has no heading {under.strip()!r}; added to its list)"
        else:
            # right under it: the list of "# Groceries", not that of its "## Done" below
            start, end, where = section.body, view.direct_end(section), f" under {section.title!r}"
    elif view.headings:
        start, end, where = _default_section(doc, view)
    tables = [g for g in view.tables if start <= g.end - 1 and g.end <= end]
    item_lines = [i for i in range(start, end) if view.role(i) == "item"]
    row_like = any(isinstance(parse_item(it, doc.display), dict) or "|" in str(it) for it in items)
    if tables and (row_like or not item_lines):
        return _add_rows(doc, view, tables[-1], items, where)
    texts = _item_texts(items, doc.display)
    done_keys = {key(main_text(lines[i])) for i in range(start, end) if view.role(i) in ("item", "plain") and not _is_done(lines[i])}
    new, there = _dedup(texts, done_keys)
    if item_lines:
        base = min(_indent(lines[i]) for i in item_lines)
        tops = [i for i in item_lines if _indent(lines[i]) == base]
        boxed = any(_boxed(lines[i]) for i in tops)
        template = lines[tops[-1]]
        at = item_lines[-1] + 1
        while at < end and view.role(at) == "plain" and lines[at][:1].isspace():
            at += 1  # the last item's own further lines
        made = [_bulleted(template, boxed, n, text) for n, text in enumerate(new)]
    else:
        plain = [i for i in range(start, end) if view.role(i) == "plain"]
        if plain and not (view.markdown and sum(len(lines[i]) for i in plain) > 60 * len(plain)):
            at = plain[-1] + 1
            indent = item_prefix(lines[plain[-1]])
            made = [indent + text for text in new]
        else:
            template, boxed = _file_style(view)
            made = [_bulleted(template, boxed, n, text, restart=True) for n, text in enumerate(new)]
            at = plain[-1] + 1 if plain else start
            if not plain and at < end and not lines[at].strip():
                at += 1  # keep the blank line under the heading
            if made and at < len(lines) and view.role(at) == "heading":
                made.append("")
    lines[at:at] = made
    said = _said_added(doc, where + note, made, there)
    return Change(doc, join_lines(lines, view.final), said)


def _default_section(doc: Doc, view: TextView) -> tuple[int, int, str]:
    """Where items go when no heading is named: the one section holding a list (plain lines
    when none has bullets or a table); a list above the first heading; the last of dated
    sections (a journal). Several others: the model must say which."""
    top = view.headings[0].line
    for roles in (("item", "table"), ("plain",)):
        if any(view.role(i) in roles for i in range(top)):
            return 0, top, ""
        holding = [h for h in view.headings if any(view.role(i) in roles for i in range(h.body, view.direct_end(h)))]
        if len(holding) > 1 and not all(re.search(r"\d", h.title) for h in holding):
            titles = ", ".join(repr(h.title) for h in holding)
            raise ToolFailure(f"{doc.display} has lists under {titles}; say which with under")
        if holding:
            section = holding[-1]
            return section.body, view.direct_end(section), f" under {section.title!r}"
    last = view.headings[-1]  # nothing under any heading yet: under the last
    return last.body, view.direct_end(last), f" under {last.title!r}"


def _item_texts(items: list[Any], display: str) -> list[str]:
    texts = []
    for item in items:
        if isinstance(parse_item(item, display), dict):
            raise ToolFailure(f"{display} is a list, not a table: give each item as text")
        texts += [main_text(part) for part in str(item).split("\n") if main_text(part)]
    return texts


def _dedup(texts: list[str], present: set[str]) -> tuple[list[str], list[str]]:
    new, there, seen = [], [], set(present)
    for text in texts:
        if key(text) in seen:
            there.append(text)
        else:
            seen.add(key(text))
            new.append(text)
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
    items = [line for i, line in enumerate(view.lines) if view.role(i) == "item"]
    if items:
        top = min(_indent(line) for line in items)
        first = next(line for line in items if _indent(line) == top)
        return first.lstrip(), _boxed(first)
    return ("- " if view.markdown else ""), False


def _new_section(doc: Doc, view: TextView, under: str, items: list[Any]) -> Change:
    lines = view.lines
    title = under.strip().strip("#").strip().rstrip(":").strip()
    levels = [h.level for h in view.headings if h.level < LOOSE_LEVEL]
    if not view.headings and (view.markdown or not doc.exists):
        heading = "# " + title if not lines else "## " + title
    elif levels:
        deeper = [lv for lv in levels if lv > min(levels)]
        level = Counter(deeper).most_common(1)[0][0] if deeper else (
            min(levels) + 1 if levels.count(min(levels)) == 1 and view.headings[0].line <= 2 else min(levels))
        heading = "#" * level + " " + title
    elif any(BOLD_HEADING.match(lines[h.line]) for h in view.headings):
        heading = f"**{title}**"
    else:
        heading = f"{title}:"
    template, boxed = _file_style(view)
    if not template and heading.startswith("#"):
        template = "- "
    texts, _ = _dedup(_item_texts(items, doc.display), set())
    blank_after = [h for h in view.headings if h.body < len(lines) and not lines[h.body].strip()]
    block = ([""] if lines and lines[-1].strip() else []) + [heading]
    block += [""] if 2 * len(blank_after) > len(view.headings) else []
    made = [_bulleted(template, boxed, n, text, restart=True) for n, text in enumerate(texts)]
    lines += block + made
    sections = ", ".join(repr(h.title) for h in view.headings[:8])
    where = f" in a new section {heading!r}" + (f" (its headings: {sections})" if sections else "")
    said = _said_added(doc, where, made, [])
    return Change(doc, join_lines(lines, view.final), said)


def _said_added(doc: Doc, where: str, made: list[str], there: list[str]) -> str:
    verb = "created" if not doc.exists else "added to"
    said = f"{verb} {doc.display}{where}: {', '.join(shown(m) for m in made if m.strip())}" if any(
        m.strip() for m in made) else f"nothing changed in {doc.display}"
    if there:
        said += f"; already there, not added again: {', '.join(shown(t) for t in there)}"
    if not doc.exists:
        near = [n for n in near_names(doc.path) if n != doc.path.name]
        if near:
            said += f" (a new file; near names here: {', '.join(near)})"
    return said


def _is_done(line: str) -> bool:
    m = ITEM.match(line)
    if m and m["box"] is not None:
        return m["box"] in CHECKED
    text = (m["text"] if m else line).strip()
    return (len(text) > 4 and text.startswith("~~") and text.endswith("~~")) or (
        bool(text) and (text[0] in DONE_MARKS or text[-1] in DONE_MARKS))


def _add_rows(doc: Doc, view: TextView, grid: Grid, items: list[Any], where: str) -> Change:
    rows, there = _new_rows(doc, grid, items)
    made = [line for cells in rows for line in grid.render(cells)]
    view.lines[grid.end:grid.end] = made
    return Change(doc, join_lines(view.lines, view.final), _said_added(doc, where, made, there))


# -- tables: rows from items ---------------------------------------------------------------


def _new_rows(doc: Doc, grid: Grid, items: list[Any]) -> tuple[list[list[str]], list[str]]:
    rows: list[list[str]] = []
    there: list[str] = []
    existing = [grid.cells(r) for r in range(len(grid.rows))]
    status = grid.status()
    for item in items:
        cells = _row_of(doc, grid, parse_item(item, doc.display))
        if any(_holds(row, cells) for row in existing + rows):
            there.append(item if isinstance(item, str) else json.dumps(item, ensure_ascii=False))
            continue
        if status is not None and not cells[status] and grid.rows and all(v.strip() for v in grid.values(status)):
            cells[status] = flag_word(grid.values(status), False, doc.text)  # a new row starts open
        rows.append(cells)
    return rows, there


def _holds(row: list[str], cells: list[str]) -> bool:
    """A row holds what every filled cell of the new one says."""
    filled = [(i, c) for i, c in enumerate(cells) if c.strip()]
    return bool(filled) and all(i < len(row) and same_value(row[i], c) for i, c in filled)


def _row_of(doc: Doc, grid: Grid, item: Any) -> list[str]:
    n = len(grid.columns)
    cells = [""] * n
    if isinstance(item, dict):
        for name, value in item.items():
            i = find_name(grid.columns, str(name), "column", doc.display)
            cells[i] = fit(value, grid.values(i), doc.text)
        return cells
    text = str(item).strip()
    parts = [text]
    tried = None
    for delimiter in dict.fromkeys([grid.delimiter, "\t", ",", ";", "|"]):
        if delimiter not in text:
            continue
        split = _split_row(text, delimiter)
        tried = tried or split
        if len(split) <= n:
            parts = split
            break
    else:
        if tried is not None:
            example = ", ".join(f'"{c}": …' for c in grid.columns)
            raise ToolFailure(
                f"{shown(text)} has {len(tried)} values but {doc.display} has {n} columns "
                f"({', '.join(grid.columns)}); give the row as {{{example}}}"
            )
    if len(parts) == 1 and n > 1:
        cells[grid.label()] = fit(parts[0], grid.values(grid.label()), doc.text)
        return cells
    return [fit(p, grid.values(i), doc.text) for i, p in enumerate(parts)] + cells[len(parts):]


def _split_row(text: str, delimiter: str) -> list[str]:
    if delimiter == "|":
        return md_cells(text)
    return [c.strip() for c in next(csv.reader([text], delimiter=delimiter, skipinitialspace=True))]


# -- CSV and TSV ---------------------------------------------------------------------------


def csv_grid(doc: Doc, lines: list[str]) -> Grid | None:
    first = next((line for line in lines if line.strip()), "")
    if not first:
        return None
    if doc.suffix == ".tsv":
        delimiter = "\t"
    else:
        counts = {d: first.count(d) for d in (",", ";", "\t", "|")}
        delimiter = max(counts, key=lambda d: counts[d]) if any(counts.values()) else ","
    quote_all = all(f.strip().startswith('"') for f in first.split(delimiter))
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

    def render(cells: list[str]) -> list[str]:
        out = io.StringIO()
        csv.writer(out, delimiter=delimiter, lineterminator="\n",
                   quoting=csv.QUOTE_ALL if quote_all else csv.QUOTE_MINIMAL).writerow(cells)
        return out.getvalue()[:-1].split("\n")

    return Grid(records[0], records[1:], spans[1:], spans[-1][1], render, delimiter, spans[0][0])


def add_csv(doc: Doc, items: list[Any]) -> Change:
    lines, final = split_lines(doc.text)
    grid = csv_grid(doc, lines)
    if grid is None:
        parsed = [parse_item(it, doc.display) for it in items]
        if all(isinstance(p, dict) for p in parsed):
            columns = list(dict.fromkeys(str(k) for p in parsed for k in p))
            delimiter = "\t" if doc.suffix == ".tsv" else ","
            out = io.StringIO()
            writer = csv.writer(out, delimiter=delimiter, lineterminator="\n")
            writer.writerow(columns)
            for p in parsed:
                writer.writerow([fit(p.get(c, ""), []) for c in columns])
            made = out.getvalue()[:-1].split("\n")
        else:
            made = [str(p) for p in parsed]
        return Change(doc, join_lines(lines + made, final), _said_added(doc, "", made, []))
    rows, there = _new_rows(doc, grid, items)
    made = [line for cells in rows for line in grid.render(cells)]
    lines[grid.end:grid.end] = made
    return Change(doc, join_lines(lines, final), _said_added(doc, "", made, there))


# -- JSON ----------------------------------------------------------------------------------

_DECODER = json.JSONDecoder()


@dataclass
class JsonView:
    data: Any
    lists: dict[str, list[Any]]
    """The lists of records: "" for a top-level list, else the top-level object's keys."""

    @classmethod
    def of(cls, doc: Doc) -> JsonView:
        try:
            data = json.loads(doc.text) if doc.text.strip() else []
        except ValueError as e:
            raise ToolFailure(f"{doc.display} is not valid JSON ({e}); not edited") from None
        if isinstance(data, list):
            return cls(data, {"": data})
        if isinstance(data, dict):
            return cls(data, {k: v for k, v in data.items() if isinstance(v, list)})
        raise ToolFailure(f"{doc.display} holds a single JSON value, not a list of records")

    def which(self, doc: Doc, under: str) -> str:
        names = list(self.lists)
        if under.strip() and names != [""]:
            return names[find_name(names, under, "list", doc.display)]
        if len(names) == 1:
            return names[0]
        raise ToolFailure(f"{doc.display} has lists {', '.join(map(repr, names)) or '(none)'}; say which with under")

    def entries(self, doc: Doc) -> list[Entry]:
        out: list[Entry] = []
        starts = _element_lines(doc.text, self)
        for name, records in self.lists.items():
            label = _label_key(records)
            for i, record in enumerate(records):
                where = f"line {starts[(name, i)]}" if (name, i) in starts else f"record {i + 1}"
                text = json.dumps(record, ensure_ascii=False)
                if isinstance(record, dict):
                    main = str(record.get(label, "")) if label else ""
                    cells = [str(v) for v in record.values() if not isinstance(v, dict | list)]
                else:
                    main, cells = str(record), [str(record)]
                out.append(Entry(i, f"{where}: {shown(text)}", main, {key(main), key(text)}, cells,
                                 record=record, list_name=name))
        return out


def _label_key(records: list[Any]) -> str | None:
    dicts = [r for r in records if isinstance(r, dict)]
    names = list(dict.fromkeys(k for r in dicts for k in r))
    for name in names:
        values = [r[name] for r in dicts if name in r]
        if values and 2 * sum(isinstance(v, str) and textual(v) for v in values) > len(values):
            return name
    return names[0] if names else None


def _skip(text: str, pos: int) -> int:
    """The first position from `pos` that is not JSON whitespace."""
    while pos < len(text) and text[pos] in " \t\n\r":
        pos += 1
    return pos


def _member(text: str, name: str, at: int = 0) -> int:
    """Where the value of member `name` starts, in the object at `at` (the top-level one)."""
    pos = _skip(text, at)
    if text[pos] != "{":
        raise ValueError
    pos = _skip(text, pos + 1)
    while True:
        member, pos = _DECODER.raw_decode(text, pos)
        pos = _skip(text, pos)
        if text[pos] != ":":
            raise ValueError
        pos = _skip(text, pos + 1)
        if member == name:
            return pos
        _, pos = _DECODER.raw_decode(text, pos)
        pos = _skip(text, pos)
        if text[pos] != ",":
            raise ValueError
        pos = _skip(text, pos + 1)


def _scan(text: str, name: str) -> tuple[int, int, list[tuple[int, int]]]:
    """Where the list is: its '[' and ']', and each element's [start, end)."""
    pos = _member(text, name) if name else _skip(text, 0)
    if text[pos] != "[":
        raise ValueError
    opening = pos
    spans: list[tuple[int, int]] = []
    pos = _skip(text, pos + 1)
    while text[pos] != "]":
        _, end = _DECODER.raw_decode(text, pos)
        spans.append((pos, end))
        pos = _skip(text, end)
        if text[pos] == ",":
            pos = _skip(text, pos + 1)
        elif text[pos] != "]":
            raise ValueError
    return opening, pos, spans


def _element_lines(text: str, view: JsonView) -> dict[tuple[str, int], int]:
    out = {}
    for name in view.lists:
        try:
            _, _, spans = _scan(text, name)
        except (ValueError, IndexError):
            continue
        for i, (start, _) in enumerate(spans):
            out[(name, i)] = text.count("\n", 0, start) + 1
    return out


def _ascii_only(text: str) -> bool:
    return "\\u" in text and text.isascii()


def _render_like(value: Any, like: str, column: str, ascii_only: bool) -> str:
    """A JSON value laid out like a sibling element: on one line, or indented as it is."""
    if "\n" not in like or not isinstance(value, dict | list):
        item_sep = "," if re.search(r",\S", like) and not re.search(r",\s", like) else ", "
        key_sep = ":" if re.search(r'":\S', like) and not re.search(r'":\s', like) else ": "
        return json.dumps(value, ensure_ascii=ascii_only, separators=(item_sep, key_sep))
    second = like.split("\n")[1]
    lead = second[: len(second) - len(second.lstrip(" \t"))]
    step = lead[len(column):] if lead.startswith(column) else lead
    return json.dumps(value, ensure_ascii=ascii_only, indent=step or "  ").replace("\n", "\n" + column)


def _column(text: str, at: int) -> str:
    before = text[text.rfind("\n", 0, at) + 1: at]
    return before if not before.strip() else ""


def _dump_whole(data: Any, text: str) -> str:
    ascii_only = _ascii_only(text)
    if text.strip() and "\n" not in text.strip():
        return json.dumps(data, ensure_ascii=ascii_only) + ("\n" if text.endswith("\n") else "")
    m = re.search(r"\n([ \t]+)\S", text)
    out = json.dumps(data, ensure_ascii=ascii_only, indent=m.group(1) if m else 2)
    return out + ("\n" if text.endswith("\n") or not text else "")


def json_edit(doc: Doc, view: JsonView, name: str, ops: list[tuple[str, int, Any]]) -> str:
    """The file with ops done to one list (("add", -1, v), ("del", i, None), ("set", i, v)),
    each element written like its neighbours; the whole file laid out anew only when that fails."""
    data = copy.deepcopy(view.data)
    target = data if name == "" else data[name]
    for op, i, value in sorted(ops, key=lambda o: -o[1] if o[0] != "add" else 1):
        if op == "add":
            target.append(value)
        elif op == "del":
            del target[i]
        else:
            target[i] = value
    text = doc.text
    try:
        opening, closing, spans = _scan(text, name)
        dropped = sorted({i for op, i, _ in ops if op == "del"})
        if not spans or len(dropped) == len(spans):
            raise ValueError
        edits: list[tuple[int, int, str]] = []
        ascii_only = _ascii_only(text)
        for op, i, value in ops:
            if op == "set":
                s, e = spans[i]
                edits.append((s, e, _render_like(value, text[s:e], _column(text, s), ascii_only)))
        for first, last in _runs(dropped):  # with the comma and space that part them from the next, or the previous
            if last + 1 < len(spans):
                edits.append((spans[first][0], spans[last + 1][0], ""))
            else:
                edits.append((spans[first - 1][1], spans[last][1], ""))
        adds = [value for op, _, value in ops if op == "add"]
        if adds:
            s, e = spans[-1]
            sep = text[spans[-2][1]:s] if len(spans) > 1 else "," + text[opening + 1:s]
            if sep == ",":  # one element on one line: spaced as the rest of the file is
                sep = ", " if re.search(r"[,:] ", text) else ","
            like, column = text[s:e], _column(text, s)
            edits.append((e, e, "".join(sep + _render_like(v, like, column, ascii_only) for v in adds)))
        for s, e, new in sorted(edits, key=lambda x: -x[0]):
            text = text[:s] + new + text[e:]
        if json.loads(text) != data:
            raise ValueError
        return text
    except (ValueError, IndexError):
        return _dump_whole(data, doc.text)


def _runs(indices: list[int]) -> list[tuple[int, int]]:
    """Sorted indices as runs of neighbours: [1, 2, 5] → [(1, 2), (5, 5)]."""
    runs: list[tuple[int, int]] = []
    for i in indices:
        if runs and runs[-1][1] + 1 == i:
            runs[-1] = (runs[-1][0], i)
        else:
            runs.append((i, i))
    return runs


def add_json(doc: Doc, items: list[Any], under: str) -> Change:
    if not doc.exists or not doc.text.strip():
        values = [parse_item(it, doc.display) for it in items]
        text = json.dumps(values, ensure_ascii=False, indent=2) + "\n"
        return Change(doc, text, _said_added(doc, "", [json.dumps(v, ensure_ascii=False) for v in values], []))
    view = JsonView.of(doc)
    name = view.which(doc, under)
    records = view.lists[name]
    new: list[Any] = []
    there: list[str] = []
    for item in items:
        value = _record_of(records, parse_item(item, doc.display))
        if any(_record_holds(r, value) for r in records + new):
            there.append(json.dumps(value, ensure_ascii=False))
        else:
            new.append(value)
    after = json_edit(doc, view, name, [("add", -1, v) for v in new]) if new else doc.text
    where = f" in {name!r}" if name else ""
    return Change(doc, after, _said_added(doc, where, [json.dumps(v, ensure_ascii=False) for v in new], there))


def _record_of(records: list[Any], item: Any) -> Any:
    dicts = [r for r in records if isinstance(r, dict)]
    if not dicts:
        return _typed(item, [r for r in records if not isinstance(r, dict | list)])
    names = list(dict.fromkeys(k for r in dicts for k in r))
    if not isinstance(item, dict):
        item = {_label_key(records) or names[0]: item}
    folded = {key(n): n for n in names}
    record: dict[str, Any] = {}
    for name, value in item.items():
        real = folded.get(key(str(name)), str(name))
        record[real] = _typed(value, [r[real] for r in dicts if real in r])
    for name in names:  # a flag every record has starts open
        values = [r[name] for r in dicts if name in r]
        if name not in record and values and all(isinstance(v, bool) for v in values):
            record[name] = False
    order = {n: i for i, n in enumerate(names)}
    return dict(sorted(record.items(), key=lambda kv: order.get(kv[0], len(order))))


def _record_holds(record: Any, value: Any) -> bool:
    if isinstance(value, dict) and isinstance(record, dict):
        given = [(k, v) for k, v in value.items() if not isinstance(v, bool)]
        return bool(given) and all(k in record and same_value(record[k], v) for k, v in given)
    return not isinstance(record, dict | list) and same_value(record, value)


def _typed(value: Any, like: list[Any]) -> Any:
    """A value as the field holds its others: a number, a flag, or text."""
    if not isinstance(value, str) or not like:
        return value
    if all(isinstance(v, bool) for v in like) and flag(value) is not None:
        return flag(value)
    if all(isinstance(v, int | float) and not isinstance(v, bool) for v in like):
        n = number(value)
        if n is not None:
            return int(n) if n.is_integer() and all(isinstance(v, int) for v in like) else n
    if all(v is None or isinstance(v, int | float | bool) for v in like):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


# -- the tools' work -----------------------------------------------------------------------


def added(path: Path, display: str, items: list[Any], under: str) -> Change:
    if not items:
        raise ToolFailure("no items given")
    doc = load(path, display, create=True)
    if doc.kind == "csv":
        return add_csv(doc, items)
    if doc.kind == "json":
        return add_json(doc, items, under)
    return add_text(doc, items, under)


def _entries(doc: Doc) -> tuple[list[Entry], Any]:
    if doc.kind == "csv":
        lines, _ = split_lines(doc.text)
        grid = csv_grid(doc, lines)
        return (grid_entries(grid, line_based=False) if grid else []), grid
    if doc.kind == "json":
        view = JsonView.of(doc)
        return view.entries(doc), view
    view_t = TextView.of(doc)
    return view_t.entries(), view_t


def removed(path: Path, display: str, items: list[Any]) -> Change:
    if not items:
        raise ToolFailure("no items given")
    doc = load(path, display)
    entries, view = _entries(doc)
    gone: dict[tuple[str, int], Entry] = {}
    unmatched: list[str] = []
    for item in items:
        item = parse_item(item, display)
        found, maybe = pick(entries, item)
        if found:
            for e in found:
                gone[(e.list_name, e.at)] = e
        elif len(maybe) > 1:
            unmatched.append(ambiguity(item, display, maybe))
        else:
            unmatched.append(f"{shown(str(item))}{nearest(entries, item)}")
    if not gone:  # a failure, so a small model does not report it done
        raise ToolFailure(f"nothing removed from {display}; not found: {'; '.join(unmatched)}")
    if isinstance(view, JsonView):
        after = doc.text
        by_list: dict[str, list[int]] = {}
        for (name, at) in gone:
            by_list.setdefault(name, []).append(at)
        for name, ats in by_list.items():
            doc_now = Doc(doc.path, display, after)
            after = json_edit(doc_now, JsonView.of(doc_now), name, [("del", i, None) for i in sorted(ats)])
    else:
        lines, final = split_lines(doc.text)
        drop: set[int] = set()
        for e in gone.values():
            drop.update(_line_span(lines, e))
        if isinstance(view, TextView):
            _renumber(lines, view.fenced, drop)
        after = join_lines([line for i, line in enumerate(lines) if i not in drop], final)
    said = f"removed from {display}: {'; '.join(e.shown for e in sorted(gone.values(), key=lambda e: e.at))}"
    if unmatched:
        said += f"; not found: {'; '.join(unmatched)}"
    return Change(doc, after, said)


def _line_span(lines: list[str], entry: Entry) -> range:
    """An entry's lines: a row's, or a list line's with the deeper lines under it."""
    if entry.grid is not None:
        return range(*entry.grid.spans[entry.row])
    start = entry.at
    end = start + 1
    if ITEM.match(lines[start]):
        while end < len(lines) and lines[end].strip() and _indent(lines[end]) > _indent(lines[start]):
            end += 1
    return range(start, end)


def _renumber(lines: list[str], fenced: set[int], dropped: set[int]) -> None:
    """Numbered lists that lose lines count on without a gap."""
    runs: list[list[int]] = []
    open_runs: dict[int, list[int]] = {}
    for i, line in enumerate(lines):
        m = ITEM.match(line) if i not in fenced else None
        if m is None:
            if line.strip() and not line[:1].isspace():
                open_runs.clear()
            continue
        indent = len(m["indent"])
        for deeper in [k for k in open_runs if k > indent]:
            del open_runs[deeper]
        if not m["bullet"][0].isdigit():
            open_runs.pop(indent, None)
            continue
        run = open_runs.get(indent)
        previous = ITEM.match(lines[run[-1]]) if run else None
        if run and previous and int(previous["bullet"][:-1]) + 1 == int(m["bullet"][:-1]):
            run.append(i)
        else:
            open_runs[indent] = [i]
            runs.append(open_runs[indent])
    for run in runs:
        if not dropped.intersection(run):
            continue
        first = ITEM.match(lines[run[0]])
        number_now = int(first["bullet"][:-1]) if first else 1
        for i in run:
            if i in dropped:
                continue
            m = ITEM.match(lines[i])
            if m:
                lines[i] = f"{m['indent']}{number_now}{m['bullet'][-1]}{lines[i][m.end('bullet'):]}"
            number_now += 1


def marked(path: Path, display: str, item: str, done: bool) -> Change:
    doc = load(path, display)
    entries, view = _entries(doc)
    found, maybe = pick(entries, parse_item(item, display))
    if not found:
        if len(maybe) > 1:
            raise ToolFailure(ambiguity(item, display, maybe))
        raise ToolFailure(f"{shown(item)} not found in {display}{nearest(entries, item)}")
    state = "done" if done else "open"
    if isinstance(view, JsonView):
        return _mark_json(doc, view, found, done, state)
    lines, final = split_lines(doc.text)
    changed: list[str] = []
    already: list[str] = []
    for e in found:
        if e.grid is not None:
            new_lines = _mark_row(doc, e, done)
            span = e.grid.spans[e.row]
            if new_lines == lines[span[0]:span[1]]:
                already.append(e.shown)
                continue
            lines[span[0]:span[1]] = new_lines
            changed.append(f"line {span[0] + 1}: {shown(new_lines[0])}")
        else:
            new = _mark_line(lines[e.at], done, view)
            if new == lines[e.at]:
                already.append(e.shown)
                continue
            lines[e.at] = new
            changed.append(f"line {e.at + 1}: {shown(new)}")
    if not changed:
        return Change(doc, doc.text, f"nothing changed: already {state} in {display}: {'; '.join(already)}")
    return Change(doc, join_lines(lines, final), f"marked {state} in {display}: {'; '.join(changed)}")


def _mark_line(line: str, done: bool, view: TextView) -> str:
    m = ITEM.match(line)
    if m and m["box"] is not None:
        checked = "X" if any("[X]" in v for v in view.lines) and not any("[x]" in v for v in view.lines) else "x"
        return line[: m.start("box")] + (checked if done else " ") + line[m.end("box"):]
    if _is_done(line) == done:
        return line
    prefix = item_prefix(line)
    text = main_text(line)
    if not done:
        return prefix + text
    style = _done_style(view)
    if style == "strike":
        return f"{prefix}~~{text}~~"
    if style.startswith("suffix"):
        return f"{prefix}{text} {style[-1]}"
    return f"{prefix}{style[-1]} {text}"


def _done_style(view: TextView) -> str:
    """How the file marks a line done without a checkbox: struck through, or a ✓ after or before."""
    for i, line in enumerate(view.lines):
        if view.role(i) not in ("item", "plain"):
            continue
        m = ITEM.match(line)
        text = (m["text"] if m else line).strip()
        if len(text) > 4 and text.startswith("~~") and text.endswith("~~"):
            return "strike"
        if len(text) > 2 and text[-1] in DONE_MARKS and text[-2] == " ":
            return "suffix " + text[-1]
        if len(text) > 2 and text[0] in DONE_MARKS:
            return "prefix " + text[0]
    return "strike"


def _mark_row(doc: Doc, entry: Entry, done: bool) -> list[str]:
    grid = entry.grid
    assert grid is not None
    cells = grid.cells(entry.row)
    column = grid.status()
    if column is None:
        if grid.delimiter != "|":
            raise ToolFailure(
                f"{doc.display} has no done/status column ({', '.join(grid.columns)}); "
                "set one with set_value, or remove the row with remove_items"
            )
        label = grid.label()  # a markdown table without one: its label struck through
        text = main_text(cells[label])
        cells[label] = f"~~{text}~~" if done else text
    else:
        cells[column] = flag_word(grid.values(column), done, doc.text + " " + grid.columns[column])
    span = grid.spans[entry.row]
    original = split_lines(doc.text)[0][span[0]:span[1]]
    return original if cells == grid.cells(entry.row) else grid.render(cells)


def _mark_json(doc: Doc, view: JsonView, found: list[Entry], done: bool, state: str) -> Change:
    after = doc.text
    changed: list[str] = []
    for e in found:
        name = e.list_name
        records = view.lists[name]
        record = e.record
        if not isinstance(record, dict):
            raise ToolFailure(f"the items of {doc.display} are plain values with no done field; use remove_items")
        flag_key = _status_key(records)
        if flag_key is None:
            names = list(dict.fromkeys(k for r in records if isinstance(r, dict) for k in r))
            raise ToolFailure(
                f"the records of {doc.display} have no done/status field ({', '.join(names)}); set one with set_value"
            )
        values = [r.get(flag_key) for r in records if isinstance(r, dict) and flag_key in r]
        if values and all(isinstance(v, bool) for v in values) or not values:
            new_value: Any = done
        else:
            new_value = flag_word([str(v) for v in values], done, doc.text + " " + flag_key)
        if flag_key in record and same_value(record[flag_key], new_value) and type(record[flag_key]) is type(new_value):
            continue
        updated = {**record, flag_key: new_value}
        doc_now = Doc(doc.path, doc.display, after)
        after = json_edit(doc_now, JsonView.of(doc_now), name, [("set", e.at, updated)])
        changed.append(f"{e.shown.split(':', 1)[0]}: {shown(json.dumps(updated, ensure_ascii=False))}")
    if not changed:
        return Change(doc, doc.text, f"nothing changed: already {state} in {doc.display}: {'; '.join(e.shown for e in found)}")
    return Change(doc, after, f"marked {state} in {doc.display}: {'; '.join(changed)}")


def _status_key(records: list[Any]) -> str | None:
    dicts = [r for r in records if isinstance(r, dict)]
    names = list(dict.fromkeys(k for r in dicts for k in r))
    found: list[tuple[bool, str]] = []
    for name in names:
        values = [r[name] for r in dicts if name in r]
        hinted = any(h in name.casefold() for h in STATUS_HINTS)
        if values and all(isinstance(v, bool) or isinstance(v, str) and flag(v) is not None for v in values):
            found.append((hinted, name))
        elif hinted and all(v is None for v in values):
            found.append((True, name))
    if not found:
        return None
    hinted_ones = [n for h, n in found if h]
    return (hinted_ones or [n for _, n in found])[-1]


def value_set(path: Path, display: str, match: str, name: str, value: Any) -> Change:
    doc = load(path, display)
    if doc.kind == "json":
        return _set_json(doc, match, name, value)
    if doc.kind == "csv":
        lines, final = split_lines(doc.text)
        grid = csv_grid(doc, lines)
        if grid is None:
            raise ToolFailure(f"{display} is empty")
        return _set_row(doc, lines, final, grid_entries(grid, line_based=False), match, name, value)
    view = TextView.of(doc)
    rows = [e for g in view.tables for e in grid_entries(g, line_based=True)]
    if rows and match.strip():
        found, _ = pick(rows, match)
        if found:
            return _set_row(doc, view.lines, view.final, rows, match, name, value)
    return _set_text(doc, view, match, name, value)


def _one(entries: list[Entry], match: str, display: str) -> Entry:
    found, maybe = pick(entries, parse_item(match, display))
    if len(found) == 1:
        return found[0]
    if len(found) > 1 or len(maybe) > 1:
        raise ToolFailure(ambiguity(match, display, found or maybe))
    raise ToolFailure(f"{shown(match)} not found in {display}{nearest(entries, match)}")


def _set_row(doc: Doc, lines: list[str], final: bool, entries: list[Entry], match: str, name: str, value: Any) -> Change:
    entry = _one(entries, match, doc.display)
    grid = entry.grid
    assert grid is not None
    column = find_name(grid.columns, name, "column", doc.display)
    cells = grid.cells(entry.row)
    old = cells[column]
    cells[column] = fit(value, grid.values(column), doc.text)
    if cells[column] == old:
        return Change(doc, doc.text, f"nothing changed: {grid.columns[column]} of {shown(entry.main)} is already {shown(old)}")
    span = grid.spans[entry.row]
    lines[span[0]:span[1]] = grid.render(cells)
    said = f"set {grid.columns[column]} of {shown(entry.main)} in {doc.display}: {shown(old)} → {shown(cells[column])}"
    return Change(doc, join_lines(lines, final), said)


def _set_json(doc: Doc, match: str, name: str, value: Any) -> Change:
    view = JsonView.of(doc)
    data = view.data
    inner = next((k for k in data if key(k) == key(match) and isinstance(data[k], dict)), None) \
        if isinstance(data, dict) and match.strip() else None
    if isinstance(data, dict) and (not match.strip() or inner is not None):
        fields = data if inner is None else data[inner]  # {"db": {"port": 5432}}: match "db"
        names = list(fields)
        real = names[find_name(names, name, "key", doc.display)]
        new_value = _typed(value, [fields[real]])
        if fields[real] == new_value and type(fields[real]) is type(new_value):
            return Change(doc, doc.text, f"nothing changed: {real} is already {json.dumps(new_value, ensure_ascii=False)}")
        data = copy.deepcopy(data)
        (data if inner is None else data[inner])[real] = new_value
        try:
            start = _member(doc.text, real, _member(doc.text, inner) if inner is not None else 0)
            _, end = _DECODER.raw_decode(doc.text, start)
            like = doc.text[start:end]
            after = doc.text[:start] + _render_like(new_value, like, _column(doc.text, start), _ascii_only(doc.text)) + doc.text[end:]
            if json.loads(after) != data:
                raise ValueError
        except (ValueError, IndexError):
            after = _dump_whole(data, doc.text)
        was = json.dumps(fields[real], ensure_ascii=False)
        return Change(doc, after, f"set {real} in {doc.display}: {shown(was)} → {shown(json.dumps(new_value, ensure_ascii=False))}")
    entry = _one(view.entries(doc), match, doc.display)
    list_name = entry.list_name
    records = view.lists[list_name]
    if not isinstance(entry.record, dict):
        raise ToolFailure(f"the items of {doc.display} are plain values, with no fields; use edit_file")
    names = list(dict.fromkeys(k for r in records if isinstance(r, dict) for k in r))
    real = names[find_name(names, name, "key", doc.display)]
    old = entry.record.get(real)
    new_value = _typed(value, [r[real] for r in records if isinstance(r, dict) and r.get(real) is not None])
    if real in entry.record and old == new_value and type(old) is type(new_value):
        return Change(doc, doc.text, f"nothing changed: {real} of {shown(entry.main)} is already {json.dumps(old, ensure_ascii=False)}")
    updated = {**entry.record, real: new_value}
    after = json_edit(doc, view, list_name, [("set", entry.at, updated)])
    said = (f"set {real} of {shown(entry.main)} in {doc.display}: {json.dumps(old, ensure_ascii=False)}"
            f" → {json.dumps(new_value, ensure_ascii=False)}")
    return Change(doc, after, said)


KEY_LINE = re.compile(
    r"^(?P<pre>[ \t]*(?:[-*+][ \t]+)?(?:\*\*)?)(?P<key>[^:=\n]+?)(?P<mid>(?:\*\*)?[ \t]*[:=](?:\*\*)?[ \t]*)"
    r"(?P<value>.*?)(?P<post>[ \t]+#.*)?$"
)


def _set_text(doc: Doc, view: TextView, match: str, name: str, value: Any) -> Change:
    """A `key: value` or `key = value` line (YAML, .env, ini, notes), in the block `match` names."""
    lines = view.lines
    start, end = 0, len(lines)
    if match.strip():
        entries = [Entry(i, f"line {i + 1}: {shown(line)}", main_text(line), {key(main_text(line)), key(line)})
                   for i, line in enumerate(lines) if line.strip() and i not in view.fenced]
        entry = _one(entries, match, doc.display)
        start, end = entry.at, _block_end(view, entry.at)
    want = key(name)
    hits = [i for i in range(start, end)
            if (m := KEY_LINE.match(lines[i])) and key(m["key"].strip("\"'`")) == want]
    if not hits:
        where = f" near {shown(match)}" if match.strip() else ""
        raise ToolFailure(f"no {name!r} line in {doc.display}{where}; use edit_file")
    if len(hits) > 1:
        shown_hits = "; ".join(f"line {i + 1}: {shown(lines[i])}" for i in hits[:5])
        raise ToolFailure(f"{name!r} is set on more than one line of {doc.display} ({shown_hits}); give match")
    i = hits[0]
    m = KEY_LINE.match(lines[i])
    assert m is not None
    old = m["value"]
    quote = old[0] if len(old) >= 2 and old[0] == old[-1] and old[0] in "\"'" else ""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    new_value = f"{quote}{text}{quote}"
    if new_value == old:
        return Change(doc, doc.text, f"nothing changed: {m['key'].strip()} is already {shown(old)}")
    lines[i] = f"{m['pre']}{m['key']}{m['mid']}{new_value}{m['post'] or ''}"
    said = f"set {m['key'].strip()} in {doc.display} (line {i + 1}): {shown(old)} → {shown(new_value)}"
    return Change(doc, join_lines(lines, view.final), said)


def _block_end(view: TextView, at: int) -> int:
    """Where the block a line opens ends: its section, its list item's lines, or its paragraph."""
    for h in view.headings:
        if h.line == at:
            return view.section_end(h)
    lines = view.lines
    line = lines[at]
    indent = len(line) - len(line.lstrip())
    section = line.strip().startswith("[") and line.strip().endswith("]")
    end = at + 1
    while end < len(lines):
        nxt = lines[end]
        nxt_indent = len(nxt) - len(nxt.lstrip())
        if view.role(end) == "heading":
            break
        if section:
            if nxt.strip().startswith("["):
                break
        elif not nxt.strip() or nxt_indent < indent or nxt_indent == indent and (
            bool(ITEM.match(nxt)) if ITEM.match(line) else KEY_LINE.match(line) is None
        ):
            break
        end += 1
    return end


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


def _add_change(p: AddItemsParams, env: ToolEnv) -> Change:
    return added(resolve(p.path, env.cwd), p.path, list(p.items), p.under)


def _remove_change(p: RemoveItemsParams, env: ToolEnv) -> Change:
    return removed(resolve(p.path, env.cwd), p.path, list(p.items))


def _mark_change(p: MarkDoneParams, env: ToolEnv) -> Change:
    return marked(resolve(p.path, env.cwd), p.path, p.item, p.done)


def _set_change(p: SetValueParams, env: ToolEnv) -> Change:
    return value_set(resolve(p.path, env.cwd), p.path, p.match, p.field, p.value)


def _tool(name: str, description: str, params: type[msgspec.Struct], change: Callable[[Any, ToolEnv], Change]) -> Tool:
    async def run(p: Any, env: ToolEnv) -> str:
        return await asyncio.to_thread(lambda: save(change(p, env)))

    def preview(p: Any, env: ToolEnv) -> str:
        return change_diff(change(p, env))

    return Tool(name=name, description=description, params=params, run=run, risk="write",
                target="path", preview=preview)


ADD_ITEMS = _tool(
    "add_items", "Add items to a list, table, CSV or JSON file, written in its own style.",
    AddItemsParams, _add_change,
)
REMOVE_ITEMS = _tool(
    "remove_items", "Remove the lines, rows or records naming items from a file.",
    RemoveItemsParams, _remove_change,
)
MARK_DONE = _tool(
    "mark_done", "Mark an item of a list or table done (done=false: open again).",
    MarkDoneParams, _mark_change,
)
SET_VALUE = _tool(
    "set_value", "Set one field of a table, CSV, JSON or YAML file: the row match, its column or key.",
    SetValueParams, _set_change,
)

EDIT_TOOLS = [ADD_ITEMS, REMOVE_ITEMS, MARK_DONE, SET_VALUE]


# -- edit_file's second chance -------------------------------------------------------------


def loose_match(text: str, old: str, new: str, display: str) -> tuple[int, int, str, str] | None:
    """Where `old` is when only spacing or a list line's bullet tells it from the file's text:
    (start, end, what replaces it, how it matched). New lines keep the file's indent and bullets."""
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    content = [line.rstrip("\r") for line in lines]
    wanted = [line.rstrip("\r") for line in old.strip("\n").split("\n")]
    if not any(w.strip() for w in wanted):
        return None
    k = len(wanted)
    for how, norm, prefix in (
        ("spacing", lambda s: " ".join(s.split()), lambda s: s[: len(s) - len(s.lstrip())]),
        ("bullets", lambda s: " ".join(s[len(item_prefix(s)):].split()), item_prefix),
    ):
        target = [norm(w) for w in wanted]
        hits = [i for i in range(len(content) - k + 1)
                if norm(content[i]) == target[0] and all(norm(content[i + j]) == target[j] for j in range(1, k))]
        if len(hits) > 1:
            raise ToolFailure(f"old text occurs {len(hits)} times in {display} (ignoring {how}); include more context")
        if not hits:
            continue
        i = hits[0]
        matched = content[i:i + k]
        newline = "\r\n" if lines[i].endswith("\r") else "\n"
        made = []
        for j, line in enumerate(new.split("\n")):
            line = line.rstrip("\r")
            ref = min(j, k - 1)
            theirs, ours = prefix(matched[ref]), prefix(wanted[ref])
            mine = prefix(line)
            if line.strip() and mine == ours and theirs != ours:
                if j >= k:
                    theirs = _next_prefix(theirs, j - k + 1)
                line = theirs + line[len(mine):]
            made.append(line)
        end = starts[i + k - 1] + len(content[i + k - 1])
        return starts[i], end, newline.join(made), f"matched line {i + 1} ignoring {how}"
    return None


def carry_bullets(text: str, at: int, old: str, new: str) -> str:
    """`new` for an exact `old` that is a list line's text after its bullet: the lines it adds
    get the list's bullets ("Milch" → "Milch\nButter" under "- Milch" adds "- Butter")."""
    line_start = text.rfind("\n", 0, at) + 1
    line_end = text.find("\n", at)
    line = text[line_start: len(text) if line_end < 0 else line_end].rstrip("\r")
    prefix = item_prefix(line)
    if "\n" in old or not ITEM.match(line) or text[line_start:at] != prefix or line[len(prefix):] != old:
        return new
    made = [part.rstrip("\r") for part in new.split("\n")]
    for j in range(1, len(made)):
        if made[j].strip() and not ITEM.match(made[j]) and not made[j][:1].isspace():
            made[j] = _next_prefix(prefix, j) + made[j]
    crlf = line_end > 0 and text[line_end - 1] == "\r"
    return ("\r\n" if crlf else "\n").join(made)


def _next_prefix(prefix: str, n: int) -> str:
    m = ITEM.match(prefix + "x")
    if m is None:
        return prefix
    bullet = m["bullet"]
    if bullet[0].isdigit():
        bullet = f"{int(bullet[:-1]) + n}{bullet[-1]}"
    box = "[ ] " if m["box"] is not None else ""
    return f"{m['indent']}{bullet}{m['gap']}{box}"


NEAR_CUTOFF = 0.6
NEAR_SCAN_LINES = 20_000


def near_lines(text: str, old: str) -> str:
    """The file's lines most like `old` (aider's 'did you mean'), to copy into a second try."""
    lines = [line.rstrip("\r") for line in text.split("\n")][:NEAR_SCAN_LINES]
    wanted = [line.rstrip("\r") for line in old.strip("\n").split("\n")]
    k = len(wanted)
    target = " ".join(" ".join(wanted).split())
    folded = key(target)
    matcher = difflib.SequenceMatcher(None, autojunk=False)
    matcher.set_seq2(target)
    scored: list[tuple[float, int]] = []
    for i in range(max(0, len(lines) - k + 1)):
        window = " ".join(" ".join(lines[i:i + k]).split())
        if not window:
            continue
        matcher.set_seq1(window)
        score = 0.0
        if matcher.real_quick_ratio() >= NEAR_CUTOFF and matcher.quick_ratio() >= NEAR_CUTOFF:
            score = matcher.ratio()
        if k == 1 and len(folded) >= 3 and (folded in key(window) or len(key(window)) >= 3 and key(window) in folded):
            score = max(score, 0.8)
        if score >= NEAR_CUTOFF:
            scored.append((score, i))
    best = sorted(scored, key=lambda s: (-s[0], s[1]))[: NEAREST if k == 1 else 2]
    if not best:
        return ""
    shown_lines = []
    for _, i in sorted(best, key=lambda s: s[1]):
        for n in range(i, min(i + k, len(lines))):
            shown_lines.append(f"{n + 1}: {lines[n][:200]}")
    return "; its nearest lines (copy old from them exactly):\n" + "\n".join(dict.fromkeys(shown_lines))
